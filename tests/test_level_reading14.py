"""Reading the level of a kept target in a rewrite (issue 11, session 14), in the extractor's cue
engine so a source and its output are read alike: a later list item that repeats the cue's own
preposition ("may be from A or from B", "due to A, to B, or both"), a modal before the verb that
names where a finding comes from ("can come from"), and a summary's arrow, which ends a statement
("blunting → effusion vs scarring"). Examples are written for these tests (the held-out probes are
benchmark/data/revision_reading_probes14.jsonl, written before the rules)."""

from __future__ import annotations

import pytest
from _helpers import scored_pair

import cuelex
from cuelex.scoring import score


def _levels(text: str) -> dict[str, str]:
    return {p.target_text: p.level.value for p in cuelex.extract(text)}


@pytest.mark.parametrize(
    ("text", "targets", "level"),
    [
        ("The cough may be from asthma or from reflux.", ["asthma", "reflux"], "UL3"),
        ("The pain could be from a pulled muscle, from a kidney stone, or both.", ["pulled muscle", "kidney stone"], "UL3"),
        ("Fatigue may be caused by anemia or by low thyroid.", ["anemia", "low thyroid"], "UL3"),
        ("The swelling is likely due to gout, to an old injury, or both.", ["gout", "old injury"], "UL2"),
        # a preposition other than the cue's own starts no item of its list
        ("The rash may be from a new soap in the bathroom.", ["new soap"], "UL3"),
    ],
)
def test_a_repeated_preposition_keeps_an_item_in_the_cues_list(text: str, targets: list[str], level: str) -> None:
    found = _levels(text)
    assert all(found.get(t) == level for t in targets), found
    assert all(p.fate == "preserved" for p in score(text, text, n_boot=0).pairs)


def test_a_repeated_preposition_after_a_clause_is_no_item() -> None:
    # "from" after a new clause belongs to that clause: the asserted statement keeps no hedge
    found = _levels("The pain may be from a strain, and she came from work.")
    assert found.get("strain") == "UL3" and "work" not in found, found


@pytest.mark.parametrize(
    ("text", "target", "level"),
    [
        ("This can come from a little fluid or from old scarring.", "old scarring", "UL3"),
        ("The fluid might come from an irritated joint lining.", "irritated joint lining", "UL3"),
        ("Your tiredness could also stem from poor sleep.", "poor sleep", "UL3"),
        ("The rash most likely comes from a reaction to a new soap.", "reaction", "UL2"),
    ],
)
def test_a_modal_before_come_from_is_a_hedge(text: str, target: str, level: str) -> None:
    assert _levels(text).get(target) == level


def test_come_from_without_a_modal_states_the_source() -> None:
    # "comes from" alone is the lay "is from": no cue, so a hedged source is read as a drop
    p = scored_pair("Knee pain is likely from a meniscal tear.", "Your knee pain comes from a meniscal tear.", "meniscal tear")
    assert p.output_level.value == "ASSERTED"


@pytest.mark.parametrize(
    ("text", "targets", "absent"),
    [
        ("Mild R CP angle blunting → effusion vs scarring.", ["effusion", "scarring"], "Mild R CP angle blunting"),
        ("- Ankle pain s/p fall -> sprain vs avulsion fx; splint.", ["sprain", "avulsion fx"], "Ankle pain"),
        ("Hip pain => bursitis or tendinitis.", ["bursitis", "tendinitis"], "Hip pain"),
    ],
)
def test_an_arrow_ends_the_statement_before_it(text: str, targets: list[str], absent: str) -> None:
    found = _levels(text)
    assert all(found.get(t) == "UL3" for t in targets), found
    assert not any(absent in t for t in found), found


def test_a_cue_does_not_read_back_across_an_arrow() -> None:
    found = _levels("Cough → possible pneumonia.")
    assert found == {"pneumonia": "UL3"}, found
