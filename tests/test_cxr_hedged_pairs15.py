"""Chest X-ray indeterminacy wording (issue 12, fifteenth session): grammar gaps of the paper's UL4
class ("not entirely clear", "limited evaluation for", "cannot determine") and the slash between two
different aortic findings, each with what it must not touch. Own wording throughout (the IU licence
forbids copies); the unseen IU reports were read for counts only.
"""

from __future__ import annotations

import pytest

import cuelex


def _pairs(text: str) -> dict[str, tuple[str, str]]:
    """target text -> (level, rule id)"""
    return {p.target_text: (p.level.value, p.rule_id) for p in cuelex.extract(text)}


@pytest.mark.parametrize(
    ("text", "target", "rule"),
    [
        # the question is left open with a degree word before "clear" (ul4.unclear_whether)
        ("It is not entirely clear whether a small left pleural effusion is present.",
         "small left pleural effusion", "ul4.unclear_whether"),
        ("It is not completely clear if there is a right apical pneumothorax.",
         "right apical pneumothorax", "ul4.unclear_whether"),
        # "further" as the adverb of "cannot be characterized" (ul4.cannot_be_evaluated)
        ("The right upper lobe nodule cannot be further characterized on radiographs.",
         "right upper lobe nodule", "ul4.cannot_be_evaluated"),
        # "inadequately" / "not optimally" as "poorly visualized" (ul4.poorly_visualized)
        ("A small right apical pneumothorax is not optimally evaluated on this portable film.",
         "small right apical pneumothorax", "ul4.poorly_visualized"),
        ("A tiny left effusion is inadequately assessed on the frontal view.",
         "tiny left effusion", "ul4.poorly_visualized"),
        # the study cannot answer the question: UL4, not the UL5 workup (ul4.unable_to_assess_for)
        ("Patient rotation makes it difficult to assess for a small pneumothorax.",
         "small pneumothorax", "ul4.unable_to_assess_for"),
        ("Unable to evaluate for pleural effusion on this supine film.",
         "pleural effusion", "ul4.unable_to_assess_for"),
        ("Overlying soft tissue precludes evaluation for a left lower lobe infiltrate.",
         "left lower lobe infiltrate", "ul4.unable_to_assess_for"),
    ],
)
def test_indeterminate_wording_is_ul4(text: str, target: str, rule: str) -> None:
    assert _pairs(text).get(target) == ("UL4", rule)


@pytest.mark.parametrize(
    ("text", "target", "level"),
    [
        # ... and what must stay as it was
        ("We will evaluate for pneumonia.", "pneumonia", "UL5"),  # a workup is still UL5
        ("Follow-up radiograph to assess for pneumothorax.", "pneumothorax", "UL5"),
        ("The etiology of the effusion is not entirely clear.", "etiology of the effusion", "UL4"),
        ("Pneumonia is not excluded on this study.", "Pneumonia", "UL3"),  # paper: UL3
        ("Right basilar opacity could reflect atelectasis.", "atelectasis", "UL3"),  # paper: UL3
    ],
)
def test_neighbouring_wording_keeps_its_level(text: str, target: str, level: str) -> None:
    assert _pairs(text).get(target, (None,))[0] == level


@pytest.mark.parametrize(
    "text",
    [
        "The heart is not enlarged.",  # "not" before a state word is not "not optimally"
        "Lungs are clear bilaterally.",
        "It is clear that the catheter tip is in the superior vena cava.",
    ],
)
def test_plain_statements_give_no_indeterminate_pair(text: str) -> None:
    assert all(level != "UL4" for level, _ in _pairs(text).values())
