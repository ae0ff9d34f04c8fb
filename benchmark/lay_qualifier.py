"""Held-out probes of recurrence and persistence said by a verb: is "recurrent X" found where the
output says "X came back" / "X has not returned" (and "persistent X" in "X is still there"), with
the output level read from that phrase, and is an unrelated "came back" ("the test came back
normal", "come back to the clinic") never taken for it?

Run from the repository root (offline; a few seconds):
    .venv/bin/python benchmark/lay_qualifier.py [--probes FILE] [--show]

``benchmark/data/lay_qualifier_probes.jsonl`` was written before the mechanism and is never
edited afterwards. Each row: source (a sentence with one target), output (own wording), anchor
(the verb phrase), expect "found" (the match covers the anchor and the output level is ``level``)
or "not_anchor" (no match covers the anchor).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import cuelex

HERE = Path(__file__).resolve().parent
PROBES = HERE / "data" / "lay_qualifier_probes.jsonl"


def judge(row: dict) -> tuple[bool, str, bool]:
    """(the row's expectation is met, what was matched and read, a match covers the anchor)."""
    a = row["output"].find(row["anchor"])
    b = a + len(row["anchor"])
    covered = False
    seen = []
    for p in cuelex.score(row["source"], row["output"]).pairs:
        m = p.match
        level = p.output_level.value if p.output_level is not None else "-"
        seen.append(f"{p.source.target_text!r}->{m.text if m else None!r} {level}")
        if m is not None and m.start < b and a < m.end:
            covered = True
            if row["expect"] == "found" and level == row["level"]:
                return True, "; ".join(seen), True
    if row["expect"] == "not_anchor":
        return not covered, "; ".join(seen), covered
    return False, "; ".join(seen), covered


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--probes", type=Path, default=PROBES)
    ap.add_argument("--show", action="store_true", help="print every row with its result")
    args = ap.parse_args(argv)
    rows = [json.loads(line) for line in args.probes.read_text(encoding="utf-8").splitlines() if line.strip()]
    tally: Counter[tuple[str, bool]] = Counter()
    spans = 0
    for row in rows:
        ok, how, covered = judge(row)
        tally[(row["expect"], ok)] += 1
        spans += covered and row["expect"] == "found"
        if args.show or not ok:
            print(f"{'ok ' if ok else 'BAD'} {row['expect']:10} {row['output']}  [{how}]")
    n_found = tally[("found", True)] + tally[("found", False)]
    n_not = tally[("not_anchor", True)] + tally[("not_anchor", False)]
    print(f"found with the right level {tally[('found', True)]}/{n_found} (match covers the verb phrase: {spans}); "
          f"unrelated verb phrases taken {tally[('not_anchor', False)]}/{n_not}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
