"""Source pairs in clinic-note plans (issue 12, thirteenth session): workup targets named by a
passive evaluation, "identify any", "distinguish between", "see if X is contributing", and targets headed by a time
(rules/targets.yaml ``time_heads``). Sentences are written for these tests; the held-out probes of
benchmark/plan_probes.py (rows u01-u40) are different sentences."""

from __future__ import annotations

import pytest

import cuelex


def pairs_of(text: str) -> set[tuple[str, str]]:
    return {(p.target_text, p.level.value) for p in cuelex.extract(text)}


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("Her daughter should also be screened for hemochromatosis.", "hemochromatosis"),
        ("We will get him checked for diabetes at the health fair.", "diabetes"),
        ("A CBC was ordered to catch any thrombocytopenia.", "thrombocytopenia"),
        ("A tilt table test may help differentiate between vasovagal syncope and POTS.", "POTS"),
        ("Iron studies to find out whether iron deficiency is causing her hair loss.", "iron deficiency"),
    ],
)
def test_workup_targets_in_plans_are_ul5(text: str, target: str) -> None:
    assert (target, "UL5") in pairs_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "He was screened for tuberculosis at work last year and it was negative.",  # past, reported
        "Her breast cancer screening came back normal.",  # a reported result
        "She is behind on her preventive screening.",  # no condition named
    ],
)
def test_reported_or_unnamed_screening_gives_no_ul5_pair(text: str) -> None:
    assert not any(level == "UL5" for _, level in pairs_of(text))


def test_a_complaint_after_a_contributing_cause_is_no_target() -> None:
    pairs = pairs_of("We will check a B12 level to see if a deficiency is contributing to his numbness.")
    assert ("deficiency", "UL5") in pairs
    assert not any("numbness" in t for t, _ in pairs)


@pytest.mark.parametrize(
    "text",
    [
        "We will probably see him back the week of March 3.",
        "Her next infusion is likely on Monday.",
        "Surgery will possibly be scheduled for the weekend.",
    ],
)
def test_a_time_is_no_target(text: str) -> None:
    assert not any(t.lower().split()[-1] in ("3", "monday", "weekend") for t, _ in pairs_of(text))


def test_a_finding_before_a_time_keeps_its_pair() -> None:
    assert ("night sweats", "UL3") in pairs_of("She possibly has night sweats.")
    assert ("fever", "UL1") in pairs_of("No fever for 3 days.")
