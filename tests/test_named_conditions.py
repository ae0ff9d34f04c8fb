"""Named conditions said by their name (tier ``normalized``, detail ``named``,
``cuelex/data/named_conditions.tsv``) and the opposite-side guard of alignment. Sentences are
written for these tests."""

from __future__ import annotations

import pytest

import cuelex
from cuelex.concepts.vocab import DATA_DIR, VocabularyError, tsv_rows
from cuelex.scoring import align
from cuelex.scoring.align import Aligner, _named_candidates, condition_name, normal_words

COLUMNS = ("role", "word", "example_target", "example_output", "expected")
ROWS = list(tsv_rows(DATA_DIR / "named_conditions.tsv", COLUMNS, "named condition table"))
ALIGNER = Aligner()


@pytest.mark.parametrize(("line", "cols"), ROWS, ids=[f"{c[0]}:{c[1]}" for _n, c in ROWS])
def test_every_row_example(line: int, cols: list[str]) -> None:
    _role, _word, target, output, expected = cols
    found = _named_candidates(normal_words(target), ALIGNER.index(output))
    assert bool(found) == (expected == "found"), f"named_conditions.tsv line {line}: {target!r} in {output!r}"


@pytest.mark.parametrize(
    ("target", "name"),
    [
        ("Lyme disease", ("lyme",)),
        ("chronic Lyme disease", ("lyme",)),
        ("carpal tunnel syndrome", ("carpal", "tunnel")),
        ("kidney disease", ()),  # body words only
        ("heart disease", ()),
        ("viral infection", ()),  # a qualifier, no name
        ("urinary tract infection", ()),
        ("pneumonia", ()),  # no generic head
        ("disease", ()),
    ],
)
def test_condition_name(target: str, name: tuple[str, ...]) -> None:
    assert condition_name(normal_words(target)) == name


@pytest.mark.parametrize(
    ("target", "output"),
    [
        ("Lyme disease", "I think a Lyme infection is likely."),
        ("Parkinson disease", "Your shaking hands may be from Parkinson's."),
        ("carpal tunnel syndrome", "This is probably carpal tunnel, from pressure on a nerve."),
    ],
)
def test_named_conditions_are_found_by_the_default_aligner(target: str, output: str) -> None:
    m = ALIGNER.find(target, output)
    assert m is not None and (m.tier, m.detail) in {("normalized", "named"), ("cui", "vocabulary")}, m


@pytest.mark.parametrize(
    ("target", "output"),
    [
        ("carpal tunnel syndrome", "You may need a carpal tunnel release later."),
        ("sickle cell disease", "You carry the sickle cell trait."),
        ("kidney disease", "Your kidney looks normal."),
    ],
)
def test_names_modifying_another_noun_or_organs_are_not_matched(target: str, output: str) -> None:
    assert _named_candidates(normal_words(target), ALIGNER.index(output)) == []


def test_hedge_on_the_name_is_read() -> None:
    r = cuelex.score("Concern for Lyme disease.", "You might have a Lyme infection.", n_boot=0)
    p = r.pairs[0]
    assert p.retained and p.output_level.value == "UL3", r.summary()


def test_bad_named_condition_file_names_the_problem(tmp_path) -> None:
    bad = tmp_path / "named_conditions.tsv"
    bad.write_text("role\tword\texample_target\texample_output\texpected\nname\tlyme\tx\ty\tfound\n", encoding="utf-8")
    with pytest.raises(VocabularyError, match=r"named_conditions.tsv:2: role must be"):
        align.named_conditions.__wrapped__(bad)


# the opposite-side guard: a one-sided target is not matched where the output names only the other side


@pytest.mark.parametrize(
    ("target", "output"),
    [
        ("left pleural effusion", "There may be a little fluid around the right lung."),
        ("left-sided pleural effusion", "Some fluid has collected around your right lung."),
        ("right lower lobe pneumonia", "You may have a lung infection on the left side."),
        ("right rib fracture", "One of the ribs on your left side is broken."),
    ],
)
def test_other_side_is_not_the_target(target: str, output: str) -> None:
    assert ALIGNER.find(target, output) is None


@pytest.mark.parametrize(
    ("target", "output"),
    [
        ("left pleural effusion", "There may be a little fluid around the left lung."),
        ("left pleural effusion", "There may be fluid around both lungs."),
        ("left pleural effusion", "No fluid on the right; some fluid around the left lung."),
        ("right lower lobe pneumonia", "You may have a lung infection."),
    ],
)
def test_same_side_or_no_side_is_still_found(target: str, output: str) -> None:
    assert ALIGNER.find(target, output) is not None
