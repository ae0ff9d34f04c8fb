"""Source pairs in clinic-note plans (issue 12, twelfth session): administrative and social nouns
after a negation, "rather than" ending a hedged target, general statements about people, and
"in the event that she experiences". Sentences are written for these tests; the held-out probes
of benchmark/plan_probes.py (rows t01-t36) are different sentences."""

from __future__ import annotations

import pytest

import cuelex


def pairs_of(text: str) -> set[tuple[str, str]]:
    return {(p.target_text, p.level.value) for p in cuelex.extract(text)}


@pytest.mark.parametrize(
    "text",
    [
        "She never picked up the prescription for the cream.",
        "He did not get the refill in time.",
        "She does not have transportation to physical therapy.",
        "He has no ride to the clinic on Tuesdays.",
    ],
)
def test_administrative_and_social_nouns_are_no_targets(text: str) -> None:
    assert pairs_of(text) == set()


def test_rather_than_ends_a_hedged_target() -> None:
    assert ("tension headache", "UL2") in pairs_of("This is most likely a tension headache rather than a migraine.")
    assert not any("rather" in t for t, _ in pairs_of("I suspect a sprain rather than a fracture."))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We discussed that drinking alcohol increases the risk of a gout flare.", set()),
        ("This medicine raises her risk of bleeding.", {("bleeding", "UL5")}),
        ("People with asthma should call the office if they develop wheezing.", set()),
        ("He should call the office if he develops wheezing.", {("wheezing", "UL5")}),
        ("In the event that he develops a rash, he will stop the medication.", {("rash", "UL5")}),
    ],
)
def test_general_statements_and_patient_contingencies(text: str, expected: set) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("She will get an x-ray of the right wrist for evaluation of the wrist.", set()),
        ("MRI of the left knee to evaluate for a knee effusion.", {("knee effusion", "UL5")}),
        ("Ultrasound to rule out the left calf.", set()),
        ("Ultrasound to rule out a left calf DVT.", {("left calf DVT", "UL5")}),
    ],
)
def test_a_body_site_alone_is_no_target(text: str, expected: set) -> None:
    assert pairs_of(text) == expected


def test_a_past_workup_names_no_workup_target() -> None:
    assert pairs_of("The adenoma was found incidentally during a workup for dizziness.") == set()
    assert ("dizziness", "UL5") in pairs_of("We will start a workup for dizziness.")
