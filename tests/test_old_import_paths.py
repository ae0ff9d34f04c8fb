"""Every import path that worked before the folders followed the pipeline still works, and gives
the SAME object as the module's new home: the names imported from ``cuelex.X`` anywhere in tests/,
benchmark/, docs/ and README, and each old module as a whole (see ``cuelex/_compat.py``)."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cuelex import _compat

ROOT = Path(__file__).resolve().parents[1]

#: old modules that became packages of the same name -> the module their names now live in
BECAME_PACKAGES = {
    "cuelex.extraction": "cuelex.extraction.engine",
    "cuelex.scoring": "cuelex.scoring.scorer",
    "cuelex.bench": "cuelex.bench.builder",
    "cuelex.runner": "cuelex.runner.jobs",
    "cuelex.report": "cuelex.report.html",
}

_FROM = re.compile(r"from (cuelex(?:\.\w+)*) import \(?([\w\s,]+?)\)?\s*(?:$|#)", re.M)
_DOTTED = re.compile(r"`(cuelex\.\w+)\.(\w+)")


def _new_home(module: str, name: str) -> str:
    """Where ``module.name`` is defined now."""
    for where in (module, _compat.MOVED.get(module, module)):
        moved = _compat.MOVED_NAMES.get(where, {}).get(name)
        if moved:
            return moved
    if module == "cuelex.bench":  # bench.py became a package of one module a step
        import cuelex.bench as bench

        for sub in bench._MODULES:
            candidate = importlib.import_module(f"cuelex.bench.{sub}")
            if name in vars(candidate):
                return candidate.__name__
    return BECAME_PACKAGES.get(module) or _compat.MOVED.get(module) or module


def _uses() -> list[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    files = [*ROOT.glob("tests/*.py"), *ROOT.glob("benchmark/*.py"), *ROOT.glob("docs/*.md"),
             *ROOT.glob("docs/history/*.md"),
             ROOT / "README.md"]  # fmt: skip
    for path in files:
        text = path.read_text(encoding="utf-8")
        for module, names in _FROM.findall(text):
            if module == "cuelex":
                continue
            for item in names.split(","):
                name = item.split()[0] if item.split() else ""
                if name.isidentifier():
                    found.add((module, name))
        for module, name in _DOTTED.findall(text):
            if importlib.util.find_spec(module) is not None or module in _compat.MOVED:
                found.add((module, name))
    return sorted(found)


USES = _uses()


def test_the_scan_finds_the_old_paths():
    modules = {m for m, _ in USES}
    assert {"cuelex.align", "cuelex.scoring", "cuelex.vocab", "cuelex.cli"} <= modules


@pytest.mark.parametrize(("module", "name"), USES, ids=[f"{m}.{n}" for m, n in USES])
def test_old_import_gives_the_same_object(module, name):
    old = importlib.import_module(module)
    if hasattr(old, "__path__") and importlib.util.find_spec(f"{module}.{name}") is not None:
        value = importlib.import_module(f"{module}.{name}")  # a submodule (cuelex.report.plots)
        assert getattr(old, name) is value
        return
    value = getattr(old, name)
    home = importlib.import_module(_new_home(module, name))
    assert getattr(home, name) is value


@pytest.mark.parametrize(("old", "new"), sorted(_compat.MOVED.items()))
def test_moved_module_is_the_same_module(old, new):
    module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    assert module.__name__ == new and module.__spec__.name == new  # its real spec, not the alias
    assert sys.modules[old] is module


def test_monkeypatch_through_the_old_name_reaches_the_new_module(monkeypatch):
    import cuelex.normalize as old

    from cuelex.concepts import normalize as new

    def marker(text: str) -> str:
        return "patched"

    monkeypatch.setattr(old, "normal_form", marker)
    assert new.normal_form is marker


def test_unknown_names_still_raise_attribute_error():
    import cuelex.vocab

    import cuelex.scoring

    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        cuelex.scoring.nope  # noqa: B018
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        cuelex.vocab.nope  # noqa: B018


@pytest.mark.parametrize("old", sorted(_compat.MAIN_COMMANDS))
def test_python_dash_m_of_an_old_module_runs_its_command(old):
    out = subprocess.run([sys.executable, "-m", old, "--help"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("usage:")


def test_no_library_module_parses_arguments():
    """argparse lives in cuelex/cli/ only."""
    offenders = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "cuelex").rglob("*.py")
        if "cli" not in p.relative_to(ROOT / "cuelex").parts[:1]
        and re.search(r"^\s*(import argparse|from argparse import)", p.read_text(encoding="utf-8"), re.M)
    ]
    assert offenders == []
