"""Alignment of session 16 (issue 11): lay synonyms that share no word with the source target
("multifactorial" ~ "several things", "episodes" ~ "flare-ups", "pinching" ~ "pressing on the
nerve"), "GU" as the urinary tract inside a phrase, a place phrase joined by ", or from ..." that
still names the target's site, a numbered all-bold line as a heading, and one source sentence that
names a target twice keeping its order in the output, and a finding of a body part said by its
verb or adjective of that part ("damage of the tendons" ~ "your tendons may be damaged"), and a
UL5 course written as a noun ("any worsening of her symptoms" ~ "call us if things get worse"). Sentences are written for these tests (no
tune document text); ``benchmark/data/alignment_probes16.jsonl`` holds the probes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _helpers import fates_of

import cuelex
from cuelex.scoring.align import Aligner, label_at, place_after

ALIGNER = Aligner()
PROBES = Path(__file__).resolve().parents[1] / "benchmark" / "data" / "alignment_probes16.jsonl"
ROWS = [json.loads(x) for x in PROBES.read_text(encoding="utf-8").splitlines() if x.strip()]


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_probe_keeps_its_result(row: dict) -> None:
    if row.get("judge") == "pairs":
        # each source pair of the target, in source order, with its own output level
        assert fates_of(row["source"], row["output"], row["target"], ignore_case=True) == row["fates"], row["id"]
        return
    if row.get("judge") == "pair":
        fates = fates_of(row["source"], row["output"], row["target"], ignore_case=True)
        want = [row["fate"]] if row["expect"] == "found" else ["ABSENT"]
        assert fates and fates == want * len(fates), (row["id"], fates)
        return
    m = ALIGNER.find(row["target"], row["output"])
    if row["expect"] == "absent":
        assert m is None, (row["id"], m)
        return
    a = row["output"].find(row["anchor"])
    assert m is not None and a >= 0 and m.start < a + len(row["anchor"]) and a < m.end, (row["id"], m)


def test_a_place_phrase_joined_by_or_counts():
    assert place_after(" from your stomach or bowels, or from your bladder.")[-1] == "bladder"
    # a new clause after "and" is no place of the finding
    assert "kidney" not in place_after(" in the right lung, and your kidneys are fine.")


@pytest.mark.parametrize(
    ("text", "phrase", "label"),
    [
        ("1. **Knee pain – meniscal tear**\n- MRI c/w meniscal tear.", "meniscal tear", True),
        ("2) __Asthma__\nWell controlled.", "Asthma", True),
        ("1. Knee pain, likely a meniscal tear.", "meniscal tear", False),
    ],
)
def test_a_numbered_bold_line_is_a_heading(text: str, phrase: str, label: bool) -> None:
    s = text.find(phrase)
    assert label_at(text, s, s + len(phrase)) is label


def test_order_holds_only_inside_one_passage():
    from cuelex.scoring.align import _in_order

    source = "PFTs suggest asthma or COPD, and the x-ray is consistent with COPD."
    pairs = [p for p in cuelex.extract(source) if p.target_text == "COPD"]
    assert len(pairs) == 2
    near = "Tests suggest asthma or COPD. The x-ray fits with COPD."
    far = "Tests suggest asthma or COPD." + " We talked about diet and exercise." * 8 + " The x-ray fits with COPD."
    for output, kept in ((near, True), (far, False)):
        idx = ALIGNER.index(output)
        cands = [ALIGNER._distinct(ALIGNER._find(p.target_text, idx)) for p in pairs]
        assert bool(_in_order(pairs, cands, idx)) is kept, output
