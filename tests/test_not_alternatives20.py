"""A slash or "or" that names causes, synonyms or people together offers no diagnostic alternatives."""

from __future__ import annotations

import pytest

import cuelex


def _pairs(text: str) -> list[tuple[str, str, str]]:
    return [(p.level.value, p.cue_text, p.target_text) for p in cuelex.extract(text)]


@pytest.mark.parametrize(
    "text",
    [
        "Posterior fossa not well visualized (motion/streak artifact).",
        "A slow-growing lump on the nerve (called a vestibular schwannoma or acoustic neuroma).",
        "Swelling of the tendon sheath, also known as tenosynovitis or tendon sheath inflammation.",
        "She will call if she has thoughts of harming self/baby.",
        "Denies thoughts of harm to self/others.",
    ],
)
def test_no_alternatives(text: str) -> None:
    assert not [p for p in _pairs(text) if p[1] in {"/", "or"}], _pairs(text)


def test_the_limitation_itself_is_still_read() -> None:
    pairs = _pairs("Scaphoid not well evaluated (overlapping fragments/positioning) – occult fx cannot be excluded.")
    assert ("UL4", "not well evaluated", "Scaphoid") in pairs
    assert ("UL3", "cannot be excluded", "occult fx") in pairs
    assert not [p for p in pairs if p[1] == "/"]


@pytest.mark.parametrize(
    "text, targets",
    [
        ("Basilar opacity (atelectasis/pneumonia).", {"atelectasis", "pneumonia"}),
        ("Scaphoid not well seen (fracture/bone bruise).", {"fracture", "bone bruise"}),
        ("Thoughts of self-harm or psychosis cannot be excluded.", {"Thoughts of self-harm", "psychosis"}),
    ],
)
def test_real_alternatives_stay(text: str, targets: set[str]) -> None:
    assert {p[2] for p in _pairs(text) if p[0] == "UL3"} >= targets, _pairs(text)
