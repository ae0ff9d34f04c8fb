"""'no longer' before a verb of a finding's property names no absent finding; before 'has'/'seen' it still negates."""

from __future__ import annotations

import cuelex


def _pairs(text: str) -> list[tuple[str, str, str]]:
    return [(p.level.value, p.cue_text, p.target_text) for p in cuelex.extract(text)]


def test_a_property_that_stopped_is_no_negated_finding() -> None:
    pairs = _pairs("Call right away if the rash no longer fades when you press a glass on it.")
    assert not [p for p in pairs if p[0] == "UL1"], pairs
    assert [p for p in pairs if p[0] == "UL5" and p[2].startswith("rash")], pairs


def test_no_longer_still_negates_findings() -> None:
    assert ("UL1", "no longer has", "chest pain") in _pairs("She no longer has chest pain.")
    assert ("UL1", "is no longer seen", "pneumothorax") in _pairs("The pneumothorax is no longer seen.")
