"""A parenthetical after an arrow is not a gloss of the condition before the arrow."""

from __future__ import annotations

import cuelex

# "If X → Y (A vs B)": the arrow starts the consequence; the alternatives in parentheses belong to
# the consequence, not to the condition's target, so they keep their own level (UL3, alternatives)
TEXTS = [
    "If the cough lingers → repeat film (scarring vs infiltrate).",
    "If knee pain does not settle -> physio referral (taping vs bracing).",
]


def test_alternatives_after_an_arrow_keep_their_level_when_a_text_is_scored_against_itself() -> None:
    for text in TEXTS:
        report = cuelex.score(text, text)
        alts = [p for p in report.pairs if p.source.rule_id.startswith("alt.")]
        assert alts, text
        assert all(p.fate == "preserved" and p.output_level == p.source.level for p in alts), [
            (p.source.target_text, p.source.level, p.output_level) for p in alts
        ]
