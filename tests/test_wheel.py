"""The built wheel carries the lexicons, rules and demo data, and extracts in a fresh environment."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

import cuelex

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        check=True,
    )
    (found,) = out.glob("cuelex-*.whl")
    return found


@pytest.mark.slow
def test_wheel_contains_data_files(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    lexicons = sorted(ROOT.glob("lexicons/*.yaml"))
    rules = sorted(ROOT.glob("rules/*.yaml"))
    assert lexicons and rules
    for path in lexicons:
        assert f"cuelex/lexicons/{path.name}" in names
    for path in rules:
        assert f"cuelex/rules/{path.name}" in names
    assert "cuelex/data/aci_bench_notes.jsonl" in names
    assert "cuelex/data/ACI_BENCH_README.md" in names
    assert any(n.endswith("entry_points.txt") for n in names)
    # type checkers read the hints only from a package marked typed (PEP 561); `python -m cuelex`
    assert "cuelex/py.typed" in names
    assert "cuelex/__main__.py" in names


@pytest.mark.slow
def test_wheel_installs_and_extracts_outside_the_repo(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True)
    py = env_dir / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True)
    # dependencies come from this environment's site-packages (appended after the venv's own, so the
    # freshly installed wheel - not the editable checkout - is what gets imported)
    site = Path(
        subprocess.check_output(
            [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True
        ).strip()
    )
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    code = (
        "import cuelex, spacy, sys\n"
        "assert str(cuelex.__file__).startswith(sys.argv[1]), cuelex.__file__\n"
        "pairs = cuelex.extract('Pulmonary embolism cannot be excluded. No effusion.')\n"
        "print([(p.target_text, p.level.value) for p in pairs])\n"
        "nlp = spacy.blank('en'); nlp.add_pipe('cuelex')\n"
        "print(len(nlp('Possible pneumonia.')._.cue_pairs))\n"
    )
    out = subprocess.check_output([str(py), "-c", code, str(site)], cwd=tmp_path, text=True)
    assert out.splitlines() == ["[('Pulmonary embolism', 'UL3'), ('effusion', 'UL1')]", "1"]
    version = subprocess.run(
        [str(py), "-m", "cuelex", "--version"], cwd=tmp_path, capture_output=True, text=True
    )
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == f"cuelex {cuelex.__version__}"
