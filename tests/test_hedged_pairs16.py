"""Hedged source pairs, session 16 (issue 12): negated hedge cues, open questions, target lead-ins.

Every sentence here is written for the test (none is copied from an evaluation document).
"""

from __future__ import annotations

import pytest

import cuelex


def _pairs(text: str) -> list[tuple[str, str]]:
    return [(p.target_text, p.level.value) for p in cuelex.extract(text)]


# A negated hedge cue leans toward absence: the hedge inside it must not win ("not suspicious for
# malignancy" is not UL3 malignancy; "does not fit with" is not UL2).
@pytest.mark.parametrize(
    ("text", "target", "level"),
    [
        ("The calcified nodule is not suspicious for malignancy.", "malignancy", "HEDGED_ABSENT"),
        ("The rash is not concerning for cellulitis.", "cellulitis", "HEDGED_ABSENT"),
        ("This opacity is not worrisome for pneumonia.", "pneumonia", "HEDGED_ABSENT"),
        ("I am not worried about appendicitis today.", "appendicitis", "HEDGED_ABSENT"),
        ("We are less concerned about a blood clot.", "blood clot", "HEDGED_ABSENT"),
        ("Her symptoms do not fit with multiple sclerosis.", "multiple sclerosis", "HEDGED_ABSENT"),
        ("The story doesn't sound like a seizure.", "seizure", "HEDGED_ABSENT"),
        ("A right pneumothorax is not definitely seen.", "right pneumothorax", "HEDGED_ABSENT"),
        ("The density is not compatible with a rib fracture.", "rib fracture", "UL1"),
        ("I'm not convinced this is a viral rash.", "viral rash", "HEDGED_ABSENT"),
        ("Sarcoidosis is a less likely possibility.", "Sarcoidosis", "HEDGED_ABSENT"),
        ("A retained foreign body is a remote possibility.", "retained foreign body", "HEDGED_ABSENT"),
        ("I am not quite sure this is a migraine.", "migraine", "UL4"),
    ],
)
def test_negated_hedge_cue_levels(text: str, target: str, level: str) -> None:
    assert (target, level) in _pairs(text)


def test_negated_hedge_leaves_no_ul3_or_ul2_pair() -> None:
    levels = {lvl for _, lvl in _pairs("The nodule is not suspicious for cancer. Exam does not fit with gout.")}
    assert not levels & {"UL2", "UL3"}


def test_withheld_concern_about_a_seen_finding_gives_no_pair() -> None:
    # the swelling is present: the worry withheld is about its course; "concerned" is no target
    assert _pairs("I am not too worried about the bruise on his shin.") == []


# UL4: the question stays open ("cannot evaluate for", "cause ... not identified"); the positive
# statement of the same finding stays a plain UL1 negation.
@pytest.mark.parametrize(
    ("text", "target", "level"),
    [
        ("We cannot evaluate for a small effusion on this view.", "small effusion", "UL4"),
        ("Could not adequately assess for a fracture because of the splint.", "fracture", "UL4"),
        ("Left hilar prominence of uncertain etiology.", "Left hilar prominence", "UL4"),
        ("The source of her fevers has not been found.", "source of her fevers", "UL4"),
        ("A focal consolidation has not been seen.", "focal consolidation", "UL1"),
        ("A displaced fracture has not been identified.", "displaced fracture", "UL1"),
    ],
)
def test_open_question_levels(text: str, target: str, level: str) -> None:
    assert (target, level) in _pairs(text)


def test_symptom_of_unclear_cause_stays_unpaired() -> None:
    # the symptom is present; only its cause is open
    assert _pairs("Nausea of unclear etiology.") == []


# Alternatives that a reading could not tell apart are UL3 each, not a UL5 test purpose.
def test_cannot_distinguish_alternatives() -> None:
    pairs = _pairs("It is hard to distinguish scarring from active infection on this film.")
    assert ("scarring", "UL3") in pairs and ("active infection", "UL3") in pairs
    assert ("bone bruise", "UL5") in _pairs("An MRI will help us distinguish between a bone bruise and a tear.")


def test_screening_test_names_a_workup_target() -> None:
    assert ("hepatitis C", "UL5") in _pairs("He is due for screening blood work for hepatitis C.")


# Degree adverbs before the finding are no part of the target ("probably mostly atelectasis").
@pytest.mark.parametrize("adverb", ["mostly", "predominantly", "largely", "mainly", "primarily"])
def test_degree_adverb_stripped_from_target(adverb: str) -> None:
    assert ("scarring", "UL2") in _pairs(f"Linear opacity at the right base, likely {adverb} scarring.")
