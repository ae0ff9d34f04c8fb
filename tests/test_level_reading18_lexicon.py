"""Lexicon wordings of rewrite batch 18 (session 18, issue 11), read on both sides: telegraphic
"believed X", a first-person "it does seem that you have", "call/911 for" and a treatment "to use
when you have" episodes; each in an output, and each text scored against itself stays preserved.
The examples are written for these tests, not taken from the rewrite set."""

from __future__ import annotations

import pytest
from _helpers import scored_pair

import cuelex


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # telegraphic "believed X" (lexicons/ul2_probable.yaml, ul2.believed_telegraphic)
        ("I believe she has a ganglion cyst.", "**#2 Wrist mass** – believed ganglion cyst; US ordered.",
         "ganglion cyst", "UL2"),
        ("I believe she has a ganglion cyst.", "- Exam benign → believed ganglion cyst.", "ganglion cyst", "UL2"),
        # "it does seem that" (lexicons/lay_language.yaml, lay.it_seems)
        ("He does seem to have cellulitis.", "It does seem that you have cellulitis, so I sent in cephalexin.",
         "cellulitis", "UL2"),
        # "my guess is" (lay.best_guess)
        ("I believe this is tennis elbow.", "My guess is that this is tennis elbow from your new job.",
         "tennis elbow", "UL2"),
        # "call/911 for" (lexicons/ul5_contingency.yaml, ul5.call_if)
        ("Call 911 if she has syncope.", "Cont metoprolol | call/911 for syncope", "syncope", "UL5"),
        # a treatment to use when episodes come (ul5.rx_for_episodes)
        ("Inhaler to be used for asthma attacks.", "Keep the inhaler with you to use when you have asthma attacks.",
         "asthma attacks", "UL5"),
    ],
)
def test_lexicon_wordings18(source: str, output: str, target: str, level: str) -> None:
    p = scored_pair(source, output, target)
    assert p.output_level is not None and p.output_level.value == level, (output, p.output_level, p.level_source)


@pytest.mark.parametrize(
    "text",
    [
        "- Labs unremarkable → believed viral gastroenteritis.",
        "It does seem that you have cellulitis.",
        "Cont metoprolol | call/911 for syncope",
        "Keep the inhaler with you to use when you have asthma attacks.",
        "**#1 Plantar fasciitis** – hx + exam c/w dx\n- Stretching.",
        "Counseling | Lithium AEs (tremor, increased risk of hypothyroidism)",
    ],
)
def test_self_scoring18(text: str) -> None:
    """A text scored against itself keeps every level (both sides read the same words)."""
    r = cuelex.score(text, text, n_boot=0)
    assert r.pairs
    assert all(p.fate == "preserved" for p in r.pairs), [(p.source.target_text, p.fate) for p in r.pairs]
