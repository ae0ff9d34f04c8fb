"""Scoring rewrite wordings of batch 17's remaining classes (issue 11): a modal inside a clause a
test checks, scored the same on both sides; a negated pointer to a finding in a rewrite; the last
item of a negated list opened by its own modifiers; a monitored value named only by a pronoun
("call if these start to increase"); a finding a later purpose points back to ("… called a murmur.
… to check on it"). The extraction side is tests/test_level_reading18_extraction.py. Examples
written for these tests."""

from __future__ import annotations

import pytest
from _helpers import pair_for

from cuelex.scoring import align


def test_a_negated_pointer_in_a_rewrite_keeps_the_absence() -> None:
    p = pair_for(
        "There was nothing on exam concerning for melanoma.",
        "We did not find anything on your skin that points to melanoma.",
        "melanoma",
    )
    assert p.output_level.value == "UL1", (p.output_level, p.level_source)


@pytest.mark.parametrize(
    ("output", "level"),
    [
        # a prepositional item between, then the last item with its own modifiers
        ("You have not noticed any bleeding from your bowels, in your urine, or unusual uterine bleeding.", "UL1"),
        # no list comma before the coordinator: a new clause, the negation does not reach it
        ("You have not noticed any bleeding from your bowels or in your urine, and you have heavy uterine bleeding.",
         "ASSERTED"),
    ],
)
def test_the_last_item_of_a_negated_list(output: str, level: str) -> None:
    p = pair_for("She denies melena, hematuria, or abnormal uterine bleeding.", output, "abnormal uterine bleeding")
    assert p.output_level.value == level, (p.output_level, p.level_source, p.match.text)


@pytest.mark.parametrize(
    ("source", "output", "target"),
    [
        (
            "Please weigh yourself each morning and call me if these start to increase.",
            "Start the water pill. Weigh yourself every morning and tell us if it starts going up.",
            "these start to increase",
        ),
        (
            "Please weigh yourself each morning and call me if these start to increase.",
            "- Daily weights; notify if increasing.",
            "these start to increase",
        ),
        (
            "Please weigh yourself each morning and call me if these start to increase.",
            "Daily weights; call if ↑.",
            "these start to increase",
        ),
        (
            "Check your blood pressure daily and call if they keep rising.",
            "Check your blood pressure every day and let us know if it starts to climb.",
            "keep rising",
        ),
    ],
)
def test_a_pronoun_rise_is_found_as_a_rise_under_a_condition(source: str, output: str, target: str) -> None:
    p = pair_for(source, output, target)
    assert p.match is not None and p.match.detail == "course", p.match
    assert p.output_level.value == "UL5"


def test_a_pronoun_rise_is_not_a_word_of_the_plan() -> None:
    # "Start the water pill" is no rise; a stated rise with no condition is not the contingency
    p = pair_for(
        "Please weigh yourself each morning and call me if these start to increase.",
        "Start the water pill. Your weight has been going up.",
        "these start to increase",
    )
    assert p.match is None


def test_a_rise_role_needs_a_pronoun_or_no_subject() -> None:
    rise = align.course_wording()["rise"]
    assert rise.fullmatch("starts to go up") and rise.fullmatch("keep rising")
    assert not rise.fullmatch("increased")


@pytest.mark.parametrize(
    ("output", "level"),
    [
        (
            "The doctor heard a soft extra sound in your heart, called a murmur. It was there last year "
            "too. We will get an ultrasound of your heart to check on it.",
            "UL5",
        ),
        (
            "The doctor heard a murmur. We will get an ultrasound of your heart to look into this, and we "
            "will see you in a month.",
            "UL5",
        ),
        # no purpose infinitive: "recheck it" here is about the blood pressure said in between
        ("The doctor heard a murmur. Your blood pressure was high. We will recheck it next week.", "ASSERTED"),
        # the mention does not close its sentence; the sentence between names something else
        (
            "The doctor heard a murmur in your heart today. We also talked about your knee. We will get an "
            "x-ray to look at it.",
            "ASSERTED",
        ),
    ],
)
def test_a_finding_a_later_purpose_points_back_to(output: str, level: str) -> None:
    p = pair_for("We will get an echocardiogram to follow up on her murmur.", output, "murmur")
    assert p.output_level.value == level, (p.output_level, p.level_source)


@pytest.mark.parametrize(
    ("output", "level"),
    [
        ("Your trip to the hospital was most likely caused by the foods you ate and by your high blood pressure.", "UL2"),
        ("Your trip to the hospital was likely caused by eating foods outside your diet.", "UL2"),
        # no hedge on the cause
        ("Your trip to the hospital was caused by the foods you ate.", "ASSERTED"),
        # the hedge is in another sentence
        ("This is likely from the hospital. The foods you ate caused it.", "ASSERTED"),
    ],
)
def test_a_lay_cause_right_after_a_hedged_cause_cue(output: str, level: str) -> None:
    p = pair_for(
        "The episode was likely caused by dietary indiscretion and uncontrolled hypertension.", output,
        "dietary indiscretion",
    )
    assert p.output_level.value == level, (p.output_level, p.level_source, p.match.text)


@pytest.mark.parametrize(
    ("source", "output", "level", "found"),
    [
        # the short name as the object of a test, beside a hedged full name
        ("We will draw blood to determine if she has Lyme disease.", "Rash, likely Lyme disease. Lyme titer sent.",
         "UL5", "Lyme"),
        # the short name as the subject of a checked clause
        ("We will draw blood to determine if she has Lyme disease.",
         "Concern for Lyme disease. Titer to be drawn to determine if Lyme is present.", "UL5", "Lyme"),
        # a test with its result states the finding: the hedged full name stays
        ("We will draw blood to determine if she has Lyme disease.",
         "Rash, likely Lyme disease. Lyme titer came back positive.", "UL2", "Lyme disease"),
        # a source statement that is no workup keeps its own mention
        ("The rash is likely Lyme disease.", "Rash, likely Lyme disease. Lyme titer sent.", "UL2", "Lyme disease"),
    ],
)
def test_a_short_name_a_test_names_is_the_workup_mention(source: str, output: str, level: str, found: str) -> None:
    p = pair_for(source, output, "Lyme disease")
    assert (p.output_level.value, p.match.text) == (level, found), (p.output_level, p.level_source)


@pytest.mark.parametrize(
    ("source", "output", "target"),
    [
        ("Photos today to monitor the scarring.", "Photos obtained today for scar monitoring.", "scarring"),
        (
            "We will monitor the thyroid nodule with ultrasound.",
            "Thyroid nodule surveillance with ultrasound in one year.",
            "thyroid nodule",
        ),
    ],
)
def test_a_finding_named_by_its_monitoring_is_a_check(source: str, output: str, target: str) -> None:
    p = pair_for(source, output, target)
    assert p.output_level.value == "UL5", (p.output_level, p.level_source)
