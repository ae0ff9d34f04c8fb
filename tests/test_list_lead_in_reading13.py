"""Reading a kept target inside a negated or hedged list in a rewrite (issue 11, session 13): a
lead-in whose negation is written with emphasis marks ("There are **no signs** of:"), an "or" in
the scope of a negation ("nothing broken or out of place": neither), and an example of a head the
extractor gives no pair ("no sign of a new problem such as pneumonia"), read with the extractor's
own cue lexicon. Examples are written for these tests (the held-out probes are
benchmark/data/revision_reading_probes13.jsonl, written before the rules)."""

from __future__ import annotations

import pytest
from _helpers import scored_pair

import cuelex
from cuelex.levels import Level
from cuelex.scoring import score
from cuelex.scoring import scorer


@pytest.mark.parametrize(
    ("output", "level"),
    [
        ("Results:\n- There are **no signs** of:\n  - a pneumothorax\n  - pneumonia\n", "UL1"),
        ("**What we did not find:** the X-ray did __not show__:\n- a pneumothorax\n", "UL1"),
        ("**Possible** causes:\n- a pneumothorax\n", "UL3"),
    ],
)
def test_a_lead_in_is_read_through_emphasis_marks(output: str, level: str) -> None:
    got = scorer._list_lead_in(output, output.index("a pneumothorax"))
    assert got is not None and got[0] is Level(level)
    assert output[got[1].start : got[1].end] == got[1].text


#: An "or" under a negation means neither: the extractor reads it so ("nothing broken or out of
#: place", a list item under "The X-ray did not show:"), for a source and an output alike, so a
#: text scored against itself stays preserved (tests/test_negated_lists.py).


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # an item with an "or" of its own under a negated lead-in: neither
        ("No pulmonary nodules.", "The X-ray did not show:\n- lumps or nodules in the lungs\n", "pulmonary nodules", "UL1"),
        ("No pulmonary nodules.", "**No signs** of:\n- fluid\n- nodules or lumps\n", "pulmonary nodules", "UL1"),
        # under a hedged lead-in the "or" stays a hedge
        ("Possible pulmonary nodules.", "Possible causes:\n- lumps or nodules in the lungs\n", "pulmonary nodules", "UL3"),
    ],
)
def test_an_alternative_item_takes_its_lead_in(source: str, output: str, target: str, level: str) -> None:
    assert scored_pair(source, output, target).output_level.value == level


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        ("No fracture.", "Nothing broken or fractured was found.", "fracture", "UL1"),
        ("No fracture.", "There was nothing fractured or out of place.", "fracture", "UL1"),
        ("No pneumothorax.", "The X-ray did not show a collapsed lung or a pneumothorax.", "pneumothorax", "UL1"),
        # a clause between the negation and the "or": the "or" is a hedge of its own
        ("Possible pneumothorax.", "Nothing is broken, but it may be a bruise or a pneumothorax.", "pneumothorax", "UL3"),
        ("Possible pneumothorax.", "No fluid. This could be a bruise or a pneumothorax.", "pneumothorax", "UL3"),
    ],
)
def test_or_in_the_scope_of_a_negation_means_neither(source: str, output: str, target: str, level: str) -> None:
    assert scored_pair(source, output, target).output_level.value == level


@pytest.mark.parametrize(
    ("text", "targets", "level"),
    [
        ("Nothing broken or fractured was found.", ["broken", "fractured"], "UL1"),
        ("The X-ray did not show:\n- lumps or nodules in the lungs\n", ["lumps", "nodules"], "UL1"),
        ("Results:\n- There are **no signs** of:\n  - a pneumothorax\n  - pneumonia or a collapsed lung\n", ["pneumonia", "collapsed lung"], "UL1"),
        ("We did not find any of these:\n1. a bleed\n2. a clot or a blockage\n", ["clot", "blockage"], "UL1"),
        # the lead-in's list has ended (a shallower item, a hedged lead-in, a plain label): a hedge
        ("- no signs of:\n  - fluid\n- atelectasis or pneumonia\n", ["atelectasis", "pneumonia"], "UL3"),
        ("Possible causes:\n- lumps or nodules in the lungs\n", ["lumps", "nodules"], "UL3"),
        ("Impression:\n- atelectasis or pneumonia at the left base\n", ["atelectasis", "pneumonia"], "UL3"),
        ("Nothing was found. The opacity is atelectasis or pneumonia.", ["atelectasis", "pneumonia"], "UL3"),
    ],
)
def test_the_extractor_reads_or_under_a_negation_as_neither(text: str, targets: list[str], level: str) -> None:
    """The source side of the same reading: the extractor gives each alternative the negation's
    level (or keeps the hedge when no negation governs), and the text scored against itself stays
    preserved."""
    found = {p.target_text: p.level.value for p in cuelex.extract(text)}
    assert all(found.get(t) == level for t in targets), found
    assert all(p.fate == "preserved" for p in score(text, text, n_boot=0).pairs)


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        ("No pneumothorax.", "There is no sign of a new problem such as pneumonia or a pneumothorax.", "pneumothorax", "UL1"),
        ("No pneumothorax.", "The scan did not find any trouble like a pneumothorax.", "pneumothorax", "UL1"),
        ("Possible pneumothorax.", "There may be a new problem like a pneumothorax.", "pneumothorax", "UL3"),
        # an asserted head: the example is asserted
        ("Possible pneumothorax.", "You have a new problem like a pneumothorax.", "pneumothorax", "ASSERTED"),
    ],
)
def test_an_example_of_an_unpaired_head_takes_the_cue_before_it(source: str, output: str, target: str, level: str) -> None:
    assert scored_pair(source, output, target).output_level.value == level


def test_lexicon_cues_are_the_extractors_own() -> None:
    """The window reader finds the extractor's lexicon cues, at the asked levels only, with offsets
    that index the text."""
    engine = scorer._make_scorer().engine
    text = "There is no sign of a new problem and it may be gone."
    negs = scorer._lexicon_cues(text, 0, len(text), engine, frozenset({Level.UL1}))
    assert any(c.text == "no sign of" for c in negs)
    assert all(c.level is Level.UL1 and text[c.start : c.end] == c.text for c in negs)
    hedges = scorer._lexicon_cues(text, 0, len(text), engine, frozenset({Level.UL3}))
    assert hedges and all(c.level is Level.UL3 for c in hedges)


@pytest.mark.parametrize(
    ("source", "output", "level"),
    [
        ("Streaky opacity could reflect atelectasis.", "The streaks could be from part of the lung not being fully inflated (atelectasis).", "UL3"),
        ("Findings likely represent atelectasis.", "This is most likely a small area where the lung isn't fully opening up (atelectasis).", "UL2"),
        ("No atelectasis.", "There is no area where the lung isn't fully opening up (atelectasis).", "UL1"),
    ],
)
def test_a_gloss_of_a_partly_inflated_lung_takes_the_outer_level(source: str, output: str, level: str) -> None:
    """"not being fully inflated", "isn't fully opening up" describe atelectasis (a pseudo-cue,
    rules/pseudo_cues.yaml): the gloss after them takes the statement's level, not a negation."""
    assert scored_pair(source, output, "atelectasis").output_level.value == level
