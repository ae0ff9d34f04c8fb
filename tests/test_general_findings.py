"""Whole-organ statements ("No acute cardiopulmonary abnormality") and their lay wordings."""

from __future__ import annotations

import pytest

from cuelex import vocab
from cuelex.align import general_target, normal_words
from cuelex.normalize import general_findings
from cuelex.scoring import score


def _rows() -> list[list[str]]:
    path = vocab.DATA_DIR / "general_findings.tsv"
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x and not x.startswith("#")]
    return [line.split("\t") for line in lines[1:]]


@pytest.mark.parametrize("row", _rows(), ids=lambda r: f"{r[0]}:{r[1]}")
def test_each_general_findings_row(row):
    """The example's general target is found in the lay output and read as absent."""
    _role, _word, _group, source, output = row
    r = score(source, output, n_boot=0)
    assert r.pairs, source
    p = r.pairs[0]
    assert p.retained, r.summary()
    assert p.output_level.value == "UL1", (p.match, p.output_level)


@pytest.mark.parametrize(
    ("target", "groups"),
    [
        ("acute cardiopulmonary abnormality", {"heart", "lung"}),
        ("acute osseous findings", {"bone"}),
        ("acute abnormality", set()),
        ("acute or active cardiac, pulmonary or pleural disease", {"heart", "lung"}),
        ("focal airspace disease", None),
        ("chronic lung disease", None),
        ("granulomatous disease", None),
        ("pleural effusion", None),
    ],
)
def test_general_targets(target, groups):
    got = general_target(normal_words(target))
    assert (None if got is None else set(got)) == groups


@pytest.mark.parametrize(
    ("source", "output", "level"),
    [
        # a normal statement answers a general finding, and its negation states it
        ("No acute cardiopulmonary abnormality.", "Your heart and lungs are not normal.", "ASSERTED"),
        ("No acute cardiopulmonary abnormality.", "Your heart and lungs do not look normal.", "UL2"),
        ("No acute cardiopulmonary abnormality.", "Your heart and lungs probably look normal.", "HEDGED_ABSENT"),
        ("No acute cardiopulmonary abnormality.", "There are no new or sudden problems with your heart or lungs.", "UL1"),
        ("No acute cardiopulmonary abnormality.", "Nothing urgent was found in your heart or lungs.", "UL1"),
        ("No acute cardiopulmonary abnormality.", "Good news: nothing serious showed up on your chest X-ray.", "UL1"),
        ("No acute osseous abnormality.", "The X-ray showed no sudden problems with your bones.", "UL1"),
        # an organ-less statement in a sentence about the same organs still answers
        ("No acute osseous abnormality.", "Your bones show some wear but nothing new.", "UL1"),
        ("No active disease.", "There is no sign of ongoing illness.", "UL1"),
    ],
)
def test_general_statement_levels(source, output, level):
    r = score(source, output, n_boot=0)
    (p,) = r.pairs
    assert p.retained and p.output_level.value == level, (p.match, p.output_level)


@pytest.mark.parametrize(
    ("source", "output"),
    [
        # a general statement never stands for a specific finding (FATE guidelines)
        ("No pleural effusion.", "Your heart and lungs look normal."),
        ("No pneumothorax.", "There are no problems with your lungs."),
        # the organs must match, and a specific condition is not the organ's state
        ("No acute osseous abnormality.", "Your heart and lungs look normal."),
        ("No acute pulmonary disease.", "You have a long-term lung disease."),
        # "normal size" is about size, not the organ as a whole
        ("No acute cardiac abnormality.", "Your heart is a normal size."),
        # a problem word alone, with no organ and nothing urgent, is not a statement
        ("No acute abnormality.", "Call us if you have any problems."),
        # an organ-less statement is about the organs its sentence names
        ("No acute cardiopulmonary abnormality.", "Your bones have some wear and tear, but nothing new."),
        ("No acute cardiopulmonary abnormality.", "Your spine shows some arthritis but no serious problems."),
        ("No acute osseous abnormality.", "Your heart looks a little big, but nothing urgent was seen."),
        # an organ_problem word names no statement without its organs: a comparison, a sprain
        ("No acute osseous abnormality.", "Compared with last time, there is no acute change."),
        ("No acute cardiopulmonary abnormality.", "Luckily your ankle sprain is not a serious injury."),
        # an organ-less statement of a chest film is the chest's state, not the bones'
        ("No acute osseous abnormality.", "Stable emphysema, no acute process."),
        ("No acute bony abnormality.", "Nothing urgent was found."),
        # the study said to be normal is no organ's state (FATE_GUIDELINES), for any general target
        ("No acute cardiopulmonary abnormality.", "Good news: your chest X-ray looks normal."),
        ("No acute abnormality.", "Your scan looks normal."),
        ("No acute osseous abnormality.", "The X-ray of your hip was normal."),
        ("No acute cardiopulmonary abnormality.", "You had a normal chest X-ray."),
    ],
)
def test_general_statements_do_not_invent_retention(source, output):
    r = score(source, output, n_boot=0)
    assert r.pairs
    assert not any(p.retained for p in r.pairs), r.summary()


@pytest.mark.parametrize("output", ["Stable emphysema, no acute process.", "Nothing urgent was found."])
def test_organless_statement_still_answers_the_chest(output):
    """The same organ-less statements keep answering a cardiopulmonary target."""
    r = score("No acute cardiopulmonary abnormality.", output, n_boot=0)
    assert r.pairs and all(p.retained for p in r.pairs), r.summary()


def test_bad_general_findings_file_names_the_problem(tmp_path, monkeypatch):
    bad = tmp_path / "general_findings.tsv"
    bad.write_text("role\tword\tgroup\texample_source\texample_output\nlimb\tarm\t\tx\ty\n", encoding="utf-8")
    monkeypatch.setattr(vocab, "DATA_DIR", tmp_path)
    general_findings.cache_clear()
    try:
        with pytest.raises(vocab.VocabularyError, match=r"general_findings.tsv:2: role must be"):
            general_findings()
    finally:
        monkeypatch.undo()
        general_findings.cache_clear()


@pytest.mark.parametrize(
    ("source", "output", "level"),
    [
        # a negation inside a lay phrase is its level ...
        ("No cardiomegaly.", "Your heart is not enlarged.", "UL1"),
        ("Cardiomegaly is likely.", "Your heart is probably a little larger than normal.", "UL2"),
        # ... but "not fully inflated" names atelectasis and does not spread over a list
        ("Possible atelectasis.", "Part of your lung is not fully inflated.", "ASSERTED"),
    ],
)
def test_negation_inside_lay_phrases(source, output, level):
    r = score(source, output, n_boot=0)
    (p,) = r.pairs
    assert p.retained and p.output_level.value == level, (p.match, p.output_level)


def test_not_fully_expanding_does_not_negate_the_next_alternative():
    r = score(
        "Opacity could reflect atelectasis or infection.",
        "This could be part of the lung not fully expanding, or an infection.",
        n_boot=0,
    )
    levels = {p.source.target_text: p.output_level.value for p in r.pairs if p.retained}
    assert levels.get("infection") == "UL3", r.summary()


@pytest.mark.parametrize(
    ("source", "output", "level"),
    [
        ("No cardiomegaly.", "Your heart is a normal size.", "UL1"),
        ("No cardiomegaly.", "A normal heart size.", "UL1"),
        ("No cardiomegaly.", "Heart size is normal.", "UL1"),
        ("No cardiomegaly.", "Your heart is not a normal size.", "ASSERTED"),
        # the bare predicate names the organ's enlargement through its subject
        ("The heart is not enlarged.", "Your heart is a normal size.", "UL1"),
        ("The heart is not enlarged.", "Heart not enlarged.", "UL1"),
    ],
)
def test_size_statements(source, output, level):
    r = score(source, output, n_boot=0)
    (p,) = r.pairs
    assert p.retained and p.output_level.value == level, (p.match, p.output_level)


def test_size_statement_is_not_a_specific_finding():
    r = score("No pleural effusion.", "Your heart is a normal size.", n_boot=0)
    assert not any(p.retained for p in r.pairs)
