"""Held-out probes for issue 12's follow-up, contingency and limited-evaluation frames (UL5, UL4):
sentences written before the frames were sized on unlabelled text, never edited after. The
measurements and plain technique remarks that share the verbs ("monitor her blood pressure",
"limited exam") give no pair."""

from __future__ import annotations

import pytest

import cuelex


@pytest.mark.parametrize(
    ("text", "level", "target"),
    [
        ("We will keep an eye out for any signs of infection at the incision.", "UL5", "infection"),
        ("She was told to watch out for blurred vision or headaches.", "UL5", "headaches"),
        ("I will monitor closely for recurrence of the arrhythmia.", "UL5", "arrhythmia"),
        ("Repeat the chest film in six weeks to assess for resolution of the pneumonia.", "UL5", "pneumonia"),
        ("He should come back to the clinic if the cough persists beyond two weeks.", "UL5", "cough"),
        ("If her symptoms do not improve with the steroid, we will consider an MRI to look for a meniscal tear.", "UL5", "meniscal tear"),
        ("Follow-up imaging is advised to evaluate for an underlying mass.", "UL5", "mass"),
        ("Should the pain worsen, she will need an ultrasound to rule out gallstones.", "UL5", "gallstones"),
        ("Should the pain worsen, she will need an ultrasound to rule out gallstones.", "UL5", "pain"),
        ("Assessment for a small pneumothorax is limited on this supine film.", "UL4", "small pneumothorax"),
        ("The left costophrenic angle is obscured, limiting evaluation for an effusion.", "UL4", "effusion"),
        ("Heart size is borderline enlarged.", "UL4", "enlarged"),
        ("Subtle fracture cannot be assessed on this view.", "UL4", "Subtle fracture"),
    ],
)
def test_followup_and_limited_evaluation_targets(text: str, level: str, target: str) -> None:
    found = {p.target_text: p.level.value for p in cuelex.extract(text)}
    assert found.get(target) == level, found


@pytest.mark.parametrize(
    "text",
    [
        "We will monitor her blood pressure at home.",
        "Continue to monitor her weight daily.",
        "I advised him to watch his diet.",
        "Limited exam due to body habitus.",
        "The study is limited by patient rotation.",
    ],
)
def test_measurements_and_technique_remarks_are_no_pairs(text: str) -> None:
    assert cuelex.extract(text) == []
