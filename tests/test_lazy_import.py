"""``import cuelex`` is cheap: spaCy and pandas load only when a name that needs them is used."""

from __future__ import annotations

import subprocess
import sys

import pytest

import cuelex


def _fresh(code: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_import_does_not_load_heavy_modules():
    out = _fresh(
        "import sys, cuelex; "
        "print(sorted(m for m in ('spacy', 'pandas', 'medspacy', 'numpy', 'pydantic') "
        "if m in sys.modules))"
    )
    assert out == "[]"


def test_version_without_loading_submodules():
    out = _fresh("import sys, cuelex; print(cuelex.__version__, 'cuelex.api' in sys.modules)")
    assert out.split() == [cuelex.__version__, "False"]


def test_extract_does_not_load_spacy():
    out = _fresh(
        "import sys, cuelex; cuelex.extract('Possible pneumonia.'); print('spacy' in sys.modules)"
    )
    assert out == "False"


@pytest.mark.parametrize("name", cuelex.__all__)
def test_every_public_name_resolves(name):
    value = getattr(cuelex, name)
    assert value is not None
    assert name in dir(cuelex)


def test_from_import_and_unknown_name():
    from cuelex import CueTargetPair, Level, score

    assert callable(score)
    assert CueTargetPair.__name__ == "CueTargetPair"
    assert Level.UL1.value == "UL1"
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        cuelex.nope  # noqa: B018
