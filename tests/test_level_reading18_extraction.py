"""Extraction of batch 17's workup and negation wordings (issue 11): a modal inside a clause a test
checks ("to see whether you might have": UL5, ul5.to_determine_if_modal), a negated pointer to a
finding ("nothing concerning for", "did not find anything that points to": UL1,
lay.nothing_concerning_for), alternatives a workup names ("evaluate for PE vs pneumonia", "echo
(r/o A; B vs C)": each a workup target) and "distinguish X vs Y" (ul5.distinguish_vs). Examples
written for these tests."""

from __future__ import annotations

import pytest
from _helpers import pair_for, pairs_of


def _levels(text: str) -> list[tuple[str, str]]:
    return [(t, lv) for _c, t, lv in pairs_of(text)]


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("We will run some blood work to check whether she might be bleeding internally.", "bleeding internally"),
        ("We sent a urine sample to find out whether he may have a kidney infection.", "kidney infection"),
        ("The x-ray is to see if there could be a fracture.", "fracture"),
    ],
)
def test_a_modal_inside_a_checked_clause_is_a_workup_target(text: str, target: str) -> None:
    assert (target, "UL5") in _levels(text)


@pytest.mark.parametrize(
    "text",
    [
        "We will call you next week to see if you might be ready to go back to work.",
        "We will follow up to see whether you might be able to stop the inhaler.",
    ],
)
def test_a_checked_clause_about_readiness_names_no_finding(text: str) -> None:
    assert not [p for p in pairs_of(text) if p[2] == "UL5"]


def test_a_checked_modal_scores_the_same_on_both_sides() -> None:
    text = "We will get an ultrasound to see whether you might have a gallstone."
    p = pair_for(text, text, "gallstone")
    assert (p.source.level.value, p.output_level.value) == ("UL5", "UL5")


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("There was nothing on exam concerning for a hernia.", "hernia"),
        ("Abdomen: nothing c/f appendicitis.", "appendicitis"),
        ("We did not see anything on your skin that points to melanoma.", "melanoma"),
        ("The doctor didn't feel anything in your neck that was suspicious for a tumor.", "tumor"),
    ],
)
def test_a_negated_pointer_negates_its_finding(text: str, target: str) -> None:
    assert (target, "UL1") in _levels(text)


def test_a_pointer_without_negation_stays_probable() -> None:
    assert ("melanoma", "UL2") in _levels("The spot on your skin points to melanoma.")


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("CT to evaluate for PE vs pneumonia.", ("PE", "pneumonia")),
        ("CT to evaluate for PE, pneumonia or an abscess.", ("PE", "pneumonia", "abscess")),
        ("Echo (r/o effusion; pericarditis vs myocarditis).", ("effusion", "pericarditis", "myocarditis")),
        ("Joint aspiration (distinguish gout vs pseudogout).", ("gout", "pseudogout")),
        ("An MRI will help distinguish a bone bruise from a meniscal tear.", ("bone bruise",)),
    ],
)
def test_alternatives_a_workup_names_are_workup_targets(text: str, targets: tuple[str, ...]) -> None:
    found = _levels(text)
    for t in targets:
        assert (t, "UL5") in found, (t, found)


@pytest.mark.parametrize(
    ("text", "target", "level"),
    [
        # a semicolon outside a test's parenthesis may open a differential
        ("CT to evaluate for PE; pneumonia vs bronchitis.", "bronchitis", "UL3"),
        # a new sentence: the workup does not reach it
        ("MRI to evaluate for a meniscal tear. Bursitis vs tendinitis.", "tendinitis", "UL3"),
    ],
)
def test_alternatives_outside_the_workup_stay_alternatives(text: str, target: str, level: str) -> None:
    assert (target, level) in _levels(text)


def test_distinguish_needs_a_condition_pair() -> None:
    assert not pairs_of("He can distinguish red from green without trouble.")


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("We will take photos so we can keep track of how your scars are changing.", "scars"),
        ("We will watch how the mole on your back is growing.", "mole"),
    ],
)
def test_a_watched_course_is_a_monitoring_target(text: str, target: str) -> None:
    assert (target, "UL5") in _levels(text)


def test_a_watched_measurement_names_no_finding() -> None:
    assert not pairs_of("Keep track of how your blood sugars are doing.")
