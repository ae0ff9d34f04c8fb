"""``cuelex.assess``: levels of caller-supplied spans, with the deciding cue."""

from __future__ import annotations

import pytest
from _helpers import level_of

import cuelex
from cuelex import Level


def test_assess_returns_level_and_deciding_cue():
    text = "No evidence of pulmonary embolism."
    (a,) = cuelex.assess(text, [(15, 33)])
    assert a.level is Level.UL1
    assert a.text == "pulmonary embolism"
    assert a.cue is not None and text[a.cue.start : a.cue.end] == a.cue.text
    assert a.cue.rule_id.startswith("ul1.")


def test_asserted_target_has_no_cue():
    (a,) = cuelex.assess("Right lower lobe pneumonia.", [(17, 26)])
    assert a.level is Level.ASSERTED and a.cue is None


def test_level_enum_member_names():
    assert [m.name for m in Level][:2] == ["ASSERTED", "UL1"]
    for name in ("ASSERTED", "UL1", "UL2", "UL3", "UL4", "UL5"):
        assert Level[name].name == name


@pytest.mark.parametrize(
    ("text", "target", "expected"),
    [
        ("Extremities reveal no peripheral cyanosis or EDEMA.", "EDEMA", "UL1"),
        ("Pneumothorax is not seen.", "Pneumothorax", "UL1"),
        ("There is no pneumothorax in a patient with pneumonia.", "pneumonia", "ASSERTED"),
        ("Right basilar opacity, atelectasis or pneumonia.", "atelectasis", "UL3"),
        ("Right basilar opacity, atelectasis or pneumonia.", "opacity", "ASSERTED"),
        ("Findings may represent atelectasis.", "atelectasis", "UL3"),
        ("Pneumonia is unlikely.", "Pneumonia", "HEDGED_ABSENT"),
        (
            "The patient denies chest pain and has shortness of breath.",
            "shortness of breath",
            "ASSERTED",
        ),
        ("The patient denies chest pain and has shortness of breath.", "chest pain", "UL1"),
        ("R/O celiac sprue.", "celiac sprue", "UL5"),
    ],
)
def test_assess_cases(text, target, expected):
    assert level_of(text, target) == expected


def test_span_containing_its_own_cue():
    text = "Possible pneumonia."
    (a,) = cuelex.assess(text, [(0, 18)])
    assert a.level is Level.UL3


def test_bad_spans_raise_clear_errors():
    with pytest.raises(ValueError, match="span 0"):
        cuelex.assess("abc", [(2, 10)])
    with pytest.raises(TypeError, match="span 1"):
        cuelex.assess("abc def", [(0, 3), "x"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="text must be a str"):
        cuelex.assess(None, [(0, 1)])  # type: ignore[arg-type]


def test_many_spans_in_many_sentences():
    text = "No fever. Possible pneumonia. Effusion is present."
    spans = [(3, 8), (19, 28), (30, 38)]
    assert [a.level.value for a in cuelex.assess(text, spans)] == ["UL1", "UL3", "ASSERTED"]
