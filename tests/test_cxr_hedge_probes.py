"""Held-out chest X-ray probes (``benchmark/data/cxr_hedge_probes.jsonl``, issue 12): sentences in
the style of unannotated IU reports, written before the rules they test and never edited after.
A row with a ``target`` must give that pair at that level (with a ``target_core``, as the real-text
matching reads a target: a pair inside ``target`` that covers ``target_core``); no pair's target
may overlap an ``absent_target``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cuelex

_PROBES = Path(__file__).resolve().parent.parent / "benchmark" / "data" / "cxr_hedge_probes.jsonl"
_ROWS = [json.loads(line) for line in _PROBES.read_text(encoding="utf-8").splitlines() if line.strip()]
# rows the project reads otherwise, on purpose: c16 and c57 take an anatomical region ("the lung
# apices", "the right costophrenic sulcus") as no target, while the project's limited-evaluation,
# obscured-region and excluded-region cues (ul4.region_obscured, ul4.region_excluded) make the
# region that cannot be assessed the UL4 target
_DISAGREE = {"c16", "c57"}
# rows of the tenth session's round (c26-c62) that the rules do not read yet; kept strict so that a
# rule that starts reading one moves it out of this set. Not fixed from these rows: they are held out
_OPEN = {"c28", "c46", "c56", "c60"}


@pytest.mark.parametrize(
    "row",
    [
        pytest.param(r, marks=pytest.mark.xfail(strict=True, reason="read otherwise on purpose"))
        if r["id"] in _DISAGREE
        else pytest.param(r, marks=pytest.mark.xfail(strict=True, reason="open class, held out"))
        if r["id"] in _OPEN
        else r
        for r in _ROWS
    ],
    ids=[r["id"] for r in _ROWS],
)
def test_cxr_hedge_probe(row: dict) -> None:
    pairs = cuelex.extract(row["text"])
    found = {p.target_text: p.level.value for p in pairs}
    if row["target"] is not None and row.get("target_core"):
        a = row["text"].index(row["target"])
        b = a + len(row["target"])
        c = row["text"].index(row["target_core"], a)
        d = c + len(row["target_core"])
        inside = [p for p in pairs if a <= p.target_start <= c and d <= p.target_end <= b]
        assert any(p.level.value == row["level"] for p in inside), found
    elif row["target"] is not None:
        assert found.get(row["target"]) == row["level"], found
    if row.get("absent_target"):
        a = row["text"].index(row["absent_target"])
        b = a + len(row["absent_target"])
        assert not [p for p in pairs if p.target_start < b and p.target_end > a], found
