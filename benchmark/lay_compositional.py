"""Held-out probes of compositional lay matching: is a clinical target found in lay words of its
parts ("nephrolithiasis" ~ "a small stone in your right kidney"), and never where the organ is
named with another finding ("your kidney function is fine")?

Run from the repository root (offline; a few seconds):
    .venv/bin/python benchmark/lay_compositional.py [--probes FILE] [--show]

``benchmark/data/lay_compositional_probes.jsonl`` was written before the compositional tier and is
never edited afterwards (it is the held-out evidence that the mechanism generalises); tune on a
separate file with ``--probes``. Each row: target, output (a sentence of a patient-friendly
rewrite, own wording), expect ("found": ``Aligner().find`` must match a span that overlaps the
row's ``anchor`` word; "absent": it must find nothing). A row with ``"judge": "pair"`` is judged
on the scored pair of its target in its ``source`` sentence instead (a UL5 course target is found through its source pair):
"found" when it is retained, "absent" when it is not.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import cuelex
from cuelex.align import Aligner

HERE = Path(__file__).resolve().parent
PROBES = HERE / "data" / "lay_compositional_probes.jsonl"


def judge(aligner: Aligner, row: dict) -> tuple[bool, str]:
    """(the row's expectation is met, how it was matched or "-")."""
    if row.get("judge") == "pair":
        report = cuelex.score(row["source"], row["output"], n_boot=0)
        pairs = [p for p in report.pairs if row["target"] in p.source.target_text]
        kept = [p for p in pairs if p.retained and p.match is not None]
        how = "-" if not kept else f"{kept[0].match.tier}/{kept[0].match.detail}"
        return bool(pairs) and (len(kept) == len(pairs) if row["expect"] == "found" else not kept), how
    m = aligner.find(row["target"], row["output"])
    how = "-" if m is None else f"{m.tier}/{m.detail}"
    if row["expect"] == "absent":
        return m is None, how
    if m is None:
        return False, how
    a = row["output"].find(row["anchor"])
    b = a + len(row["anchor"])
    return a >= 0 and m.start < b and a < m.end, how


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--probes", type=Path, default=PROBES)
    ap.add_argument("--show", action="store_true", help="print every row with its result")
    args = ap.parse_args(argv)
    rows = [json.loads(line) for line in args.probes.read_text(encoding="utf-8").splitlines() if line.strip()]
    aligner = Aligner()
    tally: Counter[str] = Counter()
    hows: Counter[str] = Counter()
    for row in rows:
        ok, how = judge(aligner, row)
        kind = row["expect"]
        tally[(kind, ok)] += 1
        if ok and kind == "found":
            hows[how] += 1
        if args.show or not ok:
            print(f"{'ok ' if ok else 'BAD'} {kind:6} {how:24} {row['target']!r:32} {row['output']}")
    n_found = tally[("found", True)] + tally[("found", False)]
    n_absent = tally[("absent", True)] + tally[("absent", False)]
    print(f"found {tally[('found', True)]}/{n_found}; false matches {tally[('absent', False)]}/{n_absent}")
    print("found by: " + ", ".join(f"{h} {n}" for h, n in hows.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
