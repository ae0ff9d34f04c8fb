"""Workup and follow-up targets in clinic-note plans (issue 12, fifteenth session): a test verb
with the patient as object ("swab her for"), the purpose of an order with a determiner ("to
evaluate the thyroid nodule"), a recheck visit for a finding, and watching for episodes ("keep an
eye out for", "keep track of any episodes of"), a finding followed with imaging; a check that
people in general should do is general advice. Sentences are written for these tests; the held-out
probes of benchmark/data/plan_probes15.jsonl are different sentences."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import cuelex

ROOT = Path(__file__).resolve().parents[1]


def pairs_of(text: str) -> set[tuple[str, str]]:
    return {(p.target_text, p.level.value) for p in cuelex.extract(text)}


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("The nurse will swab him for strep throat before he leaves.", "strep throat"),
        ("We will screen her for gestational diabetes at 26 weeks.", "gestational diabetes"),
        ("An MRI of the brain was ordered to further evaluate the pituitary lesion.", "pituitary lesion"),
        ("I will get a Doppler to assess the varicose veins.", "varicose veins"),
        ("She will come back in a week for a recheck of the cellulitis.", "cellulitis"),
        ("We will keep an eye out for any new skin lesions.", "skin lesions"),
        ("He will keep a diary of any episodes of palpitations.", "palpitations"),
        ("We plan to follow the adrenal nodule with a repeat CT in one year.", "adrenal nodule"),
    ],
)
def test_a_workup_or_follow_up_target_of_the_plan_is_ul5(text: str, target: str) -> None:
    assert (target, "UL5") in pairs_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "She was swabbed in urgent care yesterday.",
        "We will order an x-ray to evaluate the shoulder.",
        "Labs were drawn to assess the results of the new dose.",
        "He will come back for a recheck of his weight in a month.",
        "We will keep an eye on things and see how she does.",
        "She will keep a log of her blood sugars before meals.",
        "Patients with neuropathy should inspect their feet daily for cuts.",
        "We will follow her hypertension with her primary care doctor.",
    ],
)
def test_an_order_or_a_measurement_without_a_finding_gives_no_ul5_pair(text: str) -> None:
    assert not any(level == "UL5" for _, level in pairs_of(text))


def test_held_out_plan_probes15_hold_their_measured_floor() -> None:
    """plan_probes15.jsonl was written before this session's rules (34 of 45 right at 11a70ee); the
    rules of this session bring it to 40 of 45 and must not fall back."""
    sys.path.insert(0, str(ROOT / "benchmark"))
    import plan_probes

    probes = plan_probes.load(ROOT / "benchmark" / "data" / "plan_probes15.jsonl")
    assert len(probes) == 45
    right = sum(not plan_probes.check(p) for p in probes)
    assert right >= 40
