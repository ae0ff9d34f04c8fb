"""Source pairs in assessment/plan sections (issue 12, ACI-BENCH part, tenth session): a condition's
hedged status after a noun subject, beliefs stated with "do", worry that "this is" a condition and
conditionals asking whether the patient has one. Sentences are written for these tests; the held-out
probes of benchmark/plan_probes.py are different sentences."""

from __future__ import annotations

import pytest

import cuelex


def pairs_of(text: str) -> set[tuple[str, str]]:
    return {(p.target_text, p.level.value) for p in cuelex.extract(text)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # control is said of conditions only: any subject
        ("Blood pressure appears to be well controlled on the current dose.", {("well controlled", "UL2")}),
        ("His asthma seems well controlled with the inhaler.", {("well controlled", "UL2")}),
        # "stable" of a condition the patient owns, also after a coordinated predicate
        ("Her diabetes seems to be stable.", {("stable", "UL2")}),
        ("His weight was down two pounds and appears stable otherwise.", {("stable", "UL2")}),
        ("His reflux appears well controlled, and his eczema seems stable.",
         {("well controlled", "UL2"), ("stable", "UL2")}),
        ("The patient's kidney function appears stable.", {("stable", "UL2")}),
        # a finding compared with a prior image stays without a pair
        ("The calcified granuloma appears stable.", set()),
        ("Heart size appears stable.", set()),
        ("The right lower lobe nodule appears stable compared to prior.", set()),
    ],
)
def test_status_of_a_condition_after_a_noun_subject(text: str, expected: set) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I do believe she has a rotator cuff strain.", {("rotator cuff strain", "UL2")}),
        ("We still think this is a viral illness.", {("viral illness", "UL2")}),
        ("Her labs were normal, so I am worried that this is an early gout flare.", {("early gout flare", "UL3")}),
        ("She is worried that this is cancer.", set()),  # the patient's own worry is no hedge
        ("If he does have a torn meniscus, we will discuss arthroscopy.", {("torn meniscus", "UL5")}),
        ("If she is found to have anemia, we will start iron.", {("anemia", "UL5")}),
    ],
)
def test_beliefs_worries_and_conditions_on_having(text: str, expected: set) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a diagnosis qualified only by an adjective names no finding
        ("There was no way to be sure without a pathological diagnosis.", set()),
        ("We do not have a definitive diagnosis yet.", set()),
        # a named diagnosis keeps its name
        ("This is consistent with a pneumonia diagnosis.", {("pneumonia", "UL2")}),
    ],
)
def test_a_bare_diagnosis_is_no_target(text: str, expected: set) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("His asthma is likely well controlled on the current regimen.", {("well controlled", "UL2")}),
        ("Her hypertension is probably stable.", {("stable", "UL2")}),
        ("This is likely stable.", {("stable", "UL2")}),
    ],
)
def test_a_hedge_adverb_on_a_status(text: str, expected: set) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a relative clause after a listed noun describes it: the list goes on
        ("Her fall was likely caused by dehydration and low blood pressure that we have been treating.",
         {("dehydration", "UL2"), ("low blood pressure", "UL2")}),
        # a new clause after "and" still ends the list
        ("No fever and she is eating well.", {("fever", "UL1")}),
    ],
)
def test_a_relative_clause_does_not_end_a_list(text: str, expected: set) -> None:
    assert pairs_of(text) == expected


def test_a_negative_subject_is_no_hedged_status() -> None:
    assert pairs_of("Nothing appears well controlled yet.") == set()
