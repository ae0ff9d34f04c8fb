"""A parenthesis that opens with its own cue ("(ddx A, B)") is a statement, not a gloss of the phrase before it."""

from __future__ import annotations

import pytest

import cuelex


@pytest.mark.parametrize(
    "text",
    [
        "Likely diverticulitis (ddx colitis, early GE).",
        "Presentation consistent with biliary colic (ddx gastritis, early hepatitis; ulcer less likely).",
    ],
)
def test_labelled_parenthesis_scored_against_itself_is_preserved(text: str) -> None:
    report = cuelex.score(text, text, n_boot=0)
    assert report.pairs
    assert all(p.fate == "preserved" for p in report.pairs), [
        (p.source.target_text, p.fate, p.output_level) for p in report.pairs
    ]


def test_every_item_of_the_labelled_parenthesis_keeps_its_level() -> None:
    src = "Likely diverticulitis; colitis or gastroenteritis possible."
    out = "Likely diverticulitis (ddx colitis, early gastroenteritis)."
    levels = {p.source.target_text: p.output_level.value for p in cuelex.score(src, out, n_boot=0).pairs}
    assert levels == {"diverticulitis": "UL2", "colitis": "UL3", "gastroenteritis": "UL3"}


def test_a_plain_gloss_still_takes_the_level_of_its_phrase() -> None:
    src = "Small pleural effusion cannot be excluded."
    out = "There might be some fluid around the lungs (pleural effusion)."
    (p,) = cuelex.score(src, out, n_boot=0).pairs
    assert p.fate == "preserved"
