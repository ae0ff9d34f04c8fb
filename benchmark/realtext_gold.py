"""Gold annotations of the real-text sets: conversion from the annotators' files, loading, matching.

Annotators (helpers that never saw cuelex's rules or alignment code) wrote each pair as exact
substrings with an occurrence number (see ``docs/accuracy.md``, "Real-text set");
:func:`convert` turns them into character offsets, so the project keeps ids, offsets and labels
and never the chest X-ray report text. Matching a system pair to a gold pair is by target overlap;
a system target is *right* when it lies inside the gold ``target`` span and covers its
``target_core`` span (the shortest span that still states the proposition).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from evalcommon import write_block as write_block  # re-exported for the realtext scripts
from realtext_docs import DATA, read_jsonl

GOLD_FILE = DATA / "gold_pairs.jsonl"
#: Rewrites of ACI-BENCH sections (CC BY 4.0: derivatives allowed) are kept in the project.
REWRITES = DATA.parent / "rewrites_dev"
#: Rewrites of IU chest X-ray reports are derivatives of CC BY-NC-ND text: they are kept outside
#: the project, in ``$CUELEX_PRIVATE_EVAL/rewrites_iu`` (default: ``private-eval/`` beside the
#: checkout), and evaluation covers them only where that folder exists.
PRIVATE_REWRITES = Path(
    os.environ.get("CUELEX_PRIVATE_EVAL") or DATA.parents[2].parent / "private-eval"
) / "rewrites_iu"


def load_rewrites() -> tuple[list[dict], list[dict], bool]:
    """Outputs and fates of the rewrite set: the project's part plus the private IU part if present.

    Returns ``(outputs, fates, private_found)``.
    """
    outputs, fates = read_jsonl(REWRITES / "outputs.jsonl"), read_jsonl(REWRITES / "fates.jsonl")
    found = (PRIVATE_REWRITES / "outputs.jsonl").exists()
    if found:
        outputs += read_jsonl(PRIVATE_REWRITES / "outputs.jsonl")
        fates += read_jsonl(PRIVATE_REWRITES / "fates.jsonl")
    return outputs, fates, found
LEVELS = ("UL1", "HEDGED_ABSENT", "UL2", "UL3", "UL4", "UL5")
_TRIM = " \t\n.,;:()[]-*"


@dataclass(frozen=True)
class GoldPair:
    doc_id: str
    pair_id: str
    level: str
    cue: tuple[int, int]
    target: tuple[int, int]
    core: tuple[int, int]


def _nth(text: str, needle: str, n: int, where: str) -> int:
    start = -1
    for _ in range(max(n, 1)):
        start = text.find(needle, start + 1)
        if start < 0:
            raise ValueError(f"{where}: {needle!r} occurs fewer than {n} times")
    return start


def convert(rows: Iterable[dict], texts: dict[str, str], annotator: str) -> list[dict]:
    """Annotator rows (substrings + occurrences) → offset rows; raises on anything unlocatable."""
    out = []
    for row in rows:
        if row.get("pair_id") is None:
            out.append({"doc_id": row["doc_id"], "pair_id": None, "annotator": annotator})
            continue
        text = texts[row["doc_id"]]
        where = f"{annotator} {row['pair_id']}"
        if row["level"] not in LEVELS:
            raise ValueError(f"{where}: unknown level {row['level']!r}")
        t0 = _nth(text, row["target"], row.get("target_occurrence", 1), where)
        t1 = t0 + len(row["target"])
        core = row.get("target_core") or row["target"]
        c0 = text.find(core, t0)
        if c0 < 0 or c0 + len(core) > t1:
            raise ValueError(f"{where}: target_core {core!r} is not inside target")
        q0 = _nth(text, row["cue"], row.get("cue_occurrence", 1), where)
        out.append(
            {
                "doc_id": row["doc_id"],
                "pair_id": row["pair_id"],
                "level": row["level"],
                "cue_start": q0,
                "cue_end": q0 + len(row["cue"]),
                "target_start": t0,
                "target_end": t1,
                "core_start": c0,
                "core_end": c0 + len(core),
                "annotator": annotator,
            }
        )
    return out


def load_gold(path: Path = GOLD_FILE) -> dict[str, list[GoldPair]]:
    """Gold pairs per document (documents annotated with no pairs map to an empty list)."""
    by_doc: dict[str, list[GoldPair]] = {}
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            row = json.loads(line)
            pairs = by_doc.setdefault(row["doc_id"], [])
            if row.get("pair_id") is None:
                continue
            pairs.append(
                GoldPair(
                    row["doc_id"],
                    row["pair_id"],
                    row["level"],
                    (row["cue_start"], row["cue_end"]),
                    (row["target_start"], row["target_end"]),
                    (row["core_start"], row["core_end"]),
                )
            )
    return by_doc


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(0, min(a[1], b[1]) - max(a[0], b[0]))


def trimmed(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """The span without surrounding whitespace, punctuation and articles."""
    s, e = span
    while s < e and text[s] in _TRIM:
        s += 1
    while e > s and text[e - 1] in _TRIM:
        e -= 1
    for article in ("the ", "a ", "an ", "any "):
        if text[s:e].lower().startswith(article):
            s += len(article)
    return s, e


def target_right(text: str, system: tuple[int, int], gold: GoldPair) -> bool:
    """Inside the gold target span and covering its core (both trimmed)."""
    s, e = trimmed(text, system)
    ts, te = trimmed(text, gold.target)
    cs, ce = trimmed(text, gold.core)
    return ts <= s and e <= te and s <= cs and ce <= e


def match(
    system: Sequence[tuple[int, int]], gold: Sequence[GoldPair]
) -> dict[int, GoldPair]:
    """One-to-one matching of system target spans to gold pairs, largest overlap first."""
    candidates = []
    for i, span in enumerate(system):
        for g in gold:
            ov = _overlap(span, g.target)
            if ov > 0:
                candidates.append((-ov, i, g.pair_id, g))
    candidates.sort(key=lambda c: (c[0], c[1], c[2]))
    used_sys: set[int] = set()
    used_gold: set[str] = set()
    out: dict[int, GoldPair] = {}
    for _ov, i, pid, g in candidates:
        if i in used_sys or pid in used_gold:
            continue
        used_sys.add(i)
        used_gold.add(pid)
        out[i] = g
    return out
