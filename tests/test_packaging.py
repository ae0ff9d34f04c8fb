"""Issue 10 (finding 1): cuelex's dependency ranges resolve together with medspacy 1.3.1's on every
supported interpreter (Python 3.10-3.13), and requires-python says so."""

from __future__ import annotations

import sys
from importlib.metadata import requires
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
SUPPORTED = ("3.10", "3.11", "3.12", "3.13")
# released versions that exist for each package line (what a resolver can pick from)
CANDIDATES = {
    "spacy": ["3.7.2", "3.7.5", "3.8.2", "3.8.7", "3.8.18"],
    "numpy": ["1.26.4", "2.1.3", "2.5.5"],
    "pandas": ["2.2.3", "3.0.6", "3.1.1"],
}


def _env(python: str) -> dict[str, str]:
    return {"python_version": python, "python_full_version": f"{python}.0", "extra": ""}


def _specifier(reqs: list[str], name: str, python: str) -> SpecifierSet:
    spec = SpecifierSet()
    for text in reqs:
        req = Requirement(text)
        if req.name.lower() == name and (req.marker is None or req.marker.evaluate(_env(python))):
            spec &= req.specifier
    return spec


@pytest.mark.parametrize("python", SUPPORTED)
def test_requires_python_includes(python):
    assert Version(f"{python}.0") in SpecifierSet(PYPROJECT["requires-python"])


@pytest.mark.parametrize("python", SUPPORTED)
def test_spacy_ranges_meet_medspacys(python):
    ours = _specifier(PYPROJECT["dependencies"], "spacy", python)
    medspacy_reqs = requires("medspacy") or []
    theirs = _specifier(medspacy_reqs, "spacy", python)
    both = [v for v in CANDIDATES["spacy"] if v in ours and v in theirs]
    assert both, f"Python {python}: cuelex wants spacy{ours}, medspacy 1.3.1 wants spacy{theirs}"


def test_numpy_2_and_pandas_3_allowed_where_spacy_3_8_runs():
    deps = PYPROJECT["dependencies"]
    for python in ("3.12", "3.13"):
        assert "2.5.5" in _specifier(deps, "numpy", python)
        assert "3.8.18" in _specifier(deps, "spacy", python)
    for python in SUPPORTED:
        pandas = _specifier(deps, "pandas", python)
        assert "2.2.3" in pandas and "3.1.1" in pandas
    # the spaCy 3.7 line (thinc 8.2) is built against numpy 1: numpy < 2 only there
    assert "2.5.5" not in _specifier(deps, "numpy", "3.11")
    assert "1.26.4" in _specifier(deps, "numpy", "3.11")


def test_package_ships_its_type_marker():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in data["tool"]["setuptools"]["package-data"]["cuelex"]
