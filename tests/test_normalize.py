"""Target normalisation helpers for the source–output matcher."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cuelex.linking import Linker
from cuelex.normalize import concept_id, expand_abbreviation, normal_form, same_concept, singular


@pytest.fixture(scope="session")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # shared by the test modules: the open index is built once per session
    return tmp_path_factory.getbasetemp() / "cuelex-cache"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The bilateral pleural effusions.", "bilateral pleural effusion"),
        ("a small nodule", "small nodule"),
        ("Crohn's disease", "crohn disease"),
        ("ground-glass opacities", "ground glass opacity"),
        ("ground glass opacity", "ground glass opacity"),
        ("Masses", "mass"),
        ("abscesses", "abscess"),
        ("pulmonary emboli", "pulmonary embolus"),
        ("metastases", "metastasis"),
        ("diabetes mellitus", "diabetes mellitus"),
        ("bronchiectasis", "bronchiectasis"),
        ("3.5 cm nodules", "3.5 cm nodule"),
        ("PNA/PE", "pna pe"),
        ("  (pneumonia)  ", "pneumonia"),
        ("the", ""),
    ],
)
def test_normal_form(text: str, expected: str) -> None:
    assert normal_form(text) == expected


def test_singular() -> None:
    words = ("opacities", "lesions", "changes", "patches", "status", "gas")
    assert [singular(w) for w in words] == [
        "opacity", "lesion", "change", "patch", "status", "gas",
    ]  # fmt: skip


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJ -/'.,()0123456789", max_size=40))
def test_normal_form_is_idempotent(text: str) -> None:
    once = normal_form(text)
    assert normal_form(once) == once


def test_normal_form_rejects_non_strings() -> None:
    with pytest.raises(TypeError, match="expects a str"):
        normal_form(None)  # type: ignore[arg-type]


def test_expand_abbreviation() -> None:
    assert expand_abbreviation("PNA") == "pneumonia"
    assert expand_abbreviation("r/o PE and DVTs, hx CHF") == (
        "r/o pulmonary embolism and deep vein thrombosis, hx congestive heart failure"
    )
    assert expand_abbreviation("no pneumonia") == "no pneumonia"
    assert expand_abbreviation("pna is lowercase here, Pe is not an abbreviation") == (
        "pneumonia is lowercase here, Pe is not an abbreviation"
    )  # "pna" is listed as written in notes; matching is case-sensitive
    assert (
        expand_abbreviation("FNH?", {"FNH": "focal nodular hyperplasia"})
        == "focal nodular hyperplasia?"
    )


def test_same_concept_without_a_linker() -> None:
    assert same_concept("PNA", "pneumonia")
    assert same_concept("pneumonias", "Pneumonia")
    assert same_concept("PE", "pulmonary embolism")
    assert same_concept("AKI", "acute renal failure")  # both name the same concept
    assert same_concept("ground glass opacities", "ground-glass opacity")
    assert not same_concept("pneumonia", "pneumothorax")
    assert not same_concept("zorblat", "quux")
    assert concept_id("Pleural effusions") == concept_id("pleural effusion") == "C0032227"
    assert concept_id("zorblat") is None


def test_same_concept_with_a_linker(cache: Path) -> None:
    linker = Linker(cache_dir=cache)
    assert same_concept("PNA", "multifocal pneumonia", linker=linker)
    assert concept_id("bilateral pleural effusions", linker=linker) == "C0032227"
    assert not same_concept("pneumonia", "pleural effusion", linker=linker)
