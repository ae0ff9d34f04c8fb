"""Held-out probes of reading a finding written as a clause: the level an output gives it.

Run from the repository root (offline; a few seconds):
    .venv/bin/python benchmark/clause_probes.py [--wrong]

``benchmark/data/clause_probes.jsonl`` was written for this measurement BEFORE the rules it
measures (never text of the IU reports or of the development set; never edited after). Two
classes of LLM wording: ``complement`` — the finding is the subject and predicate of a clause
governed by a negated, hedged or checking expression ("There is no sign that your spleen is
enlarged", "We want to check that the bone has not broken"); ``verbgroup`` — the hedge sits in
the verb group of the finding's predicate ("Some fluid has probably built up"). ``change`` probes
state the level the guidelines give; ``control`` probes hold a look-alike that must stay as it is
(two statements, a cause hedged instead of the finding). A second round
(``clause_probes_recurrence.jsonl``), ``negated-predicate``: a negation in the verb group of a
presence or recurrence predicate ("your symptoms have not come back", "the pain hasn't returned"). Each probe is scored as
``cuelex.score(source, output)`` with the defaults; a probe is right when the source pair whose
target holds ``target`` is retained with the expected output level.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cuelex

#: One file per round, each written before the rules of its round and never edited after.
PROBES = [
    Path(__file__).resolve().parent / "data" / "clause_probes.jsonl",
    Path(__file__).resolve().parent / "data" / "clause_probes_recurrence.jsonl",
]


def load() -> list[dict]:
    """The probes, in file order."""
    out = []
    for path in PROBES:
        with path.open(encoding="utf-8") as fh:
            out.extend(json.loads(line) for line in fh if line.strip())
    return out


def run(probe: dict) -> tuple[bool, str]:
    """(right?, what was read) for one probe."""
    report = cuelex.score(probe["source"], probe["output"], n_boot=0)
    want = probe["target"].lower()
    pairs = sorted(
        (p for p in report.pairs if want in p.source.target_text.lower()),
        key=lambda p: len(p.source.target_text),
    )
    if not pairs:
        return False, "source target not extracted"
    p = pairs[0]
    if not p.retained or p.output_level is None or p.match is None:
        return False, "not found in the output"
    got = p.output_level.value
    return got == probe["level"], f"{got} at {p.match.text!r} ({p.level_source})"


def report(probes: list[dict], argv: list[str] | None, doc: str, width: int) -> int:
    """Score ``probes`` and print right/total per (class, kind); ``--wrong`` lists the misses."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--wrong", action="store_true", help="list each probe read wrong")
    args = parser.parse_args(argv)
    right: Counter = Counter()
    total: Counter = Counter()
    wrong = []
    for probe in probes:
        key = (probe["class"], probe["kind"])
        ok, what = run(probe)
        total[key] += 1
        right[key] += ok
        if not ok:
            wrong.append(f"  {probe['id']} want {probe['level']}, read {what}: {probe['output']}")
    for key in sorted(total):
        print(f"{key[0]:<{width}} {key[1]:<8} {right[key]}/{total[key]}")
    if args.wrong:
        print("\n".join(wrong))
    return 0


def main(argv: list[str] | None = None) -> int:
    return report(load(), argv, __doc__, 11)


if __name__ == "__main__":
    sys.exit(main())
