"""Source pairs in clinic-note plans (issue 12, fourteenth session): a bare course noun after a
watching verb ("monitor for progression"), a plan conditioned on a treatment failing to control a
finding, and "May" as part of a name. Sentences are written for these tests; the held-out probes of
benchmark/plan_probes.py (rows v01-v21) are different sentences."""

from __future__ import annotations

import pytest

import cuelex


def pairs_of(text: str) -> set[tuple[str, str]]:
    return {(p.target_text, p.level.value) for p in cuelex.extract(text)}


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("The spot looks benign; we will monitor for growth or changes.", ["growth", "changes"]),
        ("Photos were taken so we can watch for any further progression.", ["progression"]),
        ("He will see dermatology next year to look for changes in 12 months.", ["changes"]),
    ],
)
def test_a_bare_course_noun_after_a_watching_verb_is_ul5(text: str, targets: list[str]) -> None:
    pairs = pairs_of(text)
    for target in targets:
        assert (target, "UL5") in pairs


@pytest.mark.parametrize(
    "text",
    [
        "No changes were made to her insulin regimen.",
        "Let us know if anything changes at home.",
        "We discussed the changes to his diet.",
    ],
)
def test_changes_without_a_watching_verb_is_no_target(text: str) -> None:
    assert not any(t.lower() in ("changes", "anything") for t, _ in pairs_of(text))


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("If we are unable to control her reflux with omeprazole, she will see GI.", "reflux"),
        ("If we cannot get his cholesterol down, we will add ezetimibe.", "cholesterol"),
        ("If the injection does not relieve her shoulder pain, she may need surgery.", "shoulder pain"),
        ("If the nebulizer does not help with his wheezing, he should go to the ER.", "wheezing"),
        ("If there is no relief of her itching, we will try a stronger cream.", "itching"),
        ("If amlodipine does not bring her blood pressure down, we will add a diuretic.", "blood pressure"),
        ("If his sugars still don't come down, we will start insulin.", "sugars"),
    ],
)
def test_a_condition_on_a_treatment_failing_is_ul5_for_the_finding(text: str, target: str) -> None:
    pairs = pairs_of(text)
    assert (target, "UL5") in pairs
    assert not any(level == "UL1" for _, level in pairs)


@pytest.mark.parametrize(
    "text",
    [
        "If we are able to taper her prednisone, we will do it slowly.",
        "If there is no improvement in 3 weeks, she will call us.",
        "If the splint does not fit, we will order a new one.",
    ],
)
def test_a_condition_naming_no_finding_gives_no_pair(text: str) -> None:
    assert pairs_of(text) == set()


def test_the_clinicians_action_is_no_target_but_the_finding_it_fails_on_is() -> None:
    # was a no-contingency row of test_coverage_frames.py (the action "improve" is no target); the
    # real-text gold reads "if we are not able to improve his blood pressure" as UL5 for the finding
    pairs = pairs_of("If we cannot improve his pressure, we will refer him.")
    assert pairs == {("pressure", "UL5")}


def test_a_fever_that_does_not_come_down_is_no_absence() -> None:
    pairs = pairs_of("Her fever has not come down despite Tylenol.")
    assert not any(level == "UL1" for _, level in pairs)


@pytest.mark.parametrize(
    "text",
    [
        "He was treated at Lake May Hospital for his fracture.",
        "Mrs. May reports that her knee pain is better.",
        "She was seen at the May Clinic for her arthritis.",
    ],
)
def test_may_in_a_name_is_no_cue(text: str) -> None:
    assert not any(level == "UL3" for _, level in pairs_of(text))


def test_may_as_a_modal_is_still_a_cue() -> None:
    assert ("ganglion cyst", "UL3") in pairs_of("May be a ganglion cyst; will get an ultrasound.")
