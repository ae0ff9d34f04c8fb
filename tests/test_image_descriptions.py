"""Imaging findings described by their look (tier ``parts``, detail ``description``,
``cuelex/data/image_descriptions.tsv``): an opacity-family target found where a lay rewrite says
"a hazy patch" or "a part of the lung that looks white", never for a hard or round spot, another
body part, or a target outside the family. Sentences are written for these tests."""

from __future__ import annotations

import pytest

import cuelex
from cuelex.concepts.vocab import DATA_DIR, VocabularyError, tsv_rows
from cuelex.scoring import align
from cuelex.scoring.align import Aligner, _description_candidates, image_descriptions, normal_words

COLUMNS = ("role", "word", "example_target", "example_output", "expected")
ROWS = list(tsv_rows(DATA_DIR / "image_descriptions.tsv", COLUMNS, "image description table"))
ALIGNER = Aligner()


@pytest.mark.parametrize(("line", "cols"), ROWS, ids=[f"{c[0]}:{c[1]}" for _n, c in ROWS])
def test_every_row_example(line: int, cols: list[str]) -> None:
    _role, word, target, output, expected = cols
    found = _description_candidates(normal_words(target), ALIGNER.index(output))
    assert bool(found) == (expected == "found"), f"image_descriptions.tsv line {line}: {target!r} in {output!r}"
    if found and _role in ("look", "shape"):
        assert any(normal_words(word)[0] in normal_words(output[c.start : c.end]) for c in found), line


@pytest.mark.parametrize(
    ("target", "output", "anchor"),
    [
        ("focal consolidation", "No hazy or solid-looking patches showed up in either lung.", "patches"),
        ("right lower lobe infiltrate", "There may be a foggy patch low in the right lung.", "foggy"),
        ("bibasilar opacities", "Both lower lungs have some whiter, blurry regions.", "regions"),
        ("focal airspace disease", "A section of the left lung looks a bit hazy.", "section"),
    ],
)
def test_descriptions_are_found_by_the_default_aligner(target: str, output: str, anchor: str) -> None:
    m = ALIGNER.find(target, output)
    assert m is not None and m.start <= output.index(anchor) < m.end, (target, output, m)


@pytest.mark.parametrize(
    ("target", "output"),
    [
        ("focal consolidation", "A white patch of dry skin is on your arm."),  # another body part
        ("opacity", "The liver has a dense area."),
        ("consolidation", "There is a small round white spot in the lung."),  # a nodule
        ("pulmonary nodule", "There is a hazy patch in the right lung."),  # not in the family
        ("consolidation", "The lungs are clear; the heart looks normal."),
    ],
)
def test_descriptions_do_not_match_other_findings(target: str, output: str) -> None:
    assert _description_candidates(normal_words(target), ALIGNER.index(output)) == []


def test_negated_description_keeps_the_absence_of_the_source() -> None:
    r = cuelex.score("No focal consolidation.", "Your lungs show no solid-looking or hazy patches.", n_boot=0)
    p = r.pairs[0]
    assert p.retained and p.match.detail == "description" and p.output_level.value == "UL1"


def test_hedged_description_keeps_the_hedge() -> None:
    r = cuelex.score("Possible left basilar infiltrate.", "There may be a blurry patch at the bottom of your left lung.", n_boot=0)
    p = r.pairs[0]
    assert p.retained and p.output_level.value == "UL3", r.summary()


def test_bad_image_description_file_names_the_problem(tmp_path) -> None:
    bad = tmp_path / "image_descriptions.tsv"
    bad.write_text("role\tword\texample_target\texample_output\texpected\ncolour\tred\tx\ty\tfound\n", encoding="utf-8")
    with pytest.raises(VocabularyError, match=r"image_descriptions.tsv:2: role must be"):
        align.image_descriptions.__wrapped__(bad)
    bad.write_text("role\tword\texample_target\texample_output\texpected\nlook\tvery hazy\tx\ty\tfound\n", encoding="utf-8")
    with pytest.raises(VocabularyError, match=r"one word"):
        align.image_descriptions.__wrapped__(bad)


def test_table_roles() -> None:
    table = image_descriptions()
    assert ("airspace", "disease") in table["target"] and ("hazy",) in table["look"] and ("patch",) in table["shape"]
