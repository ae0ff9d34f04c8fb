"""Held-out probes of the optional semantic alignment tier: unseen lay wordings and look-alikes.

Run from the repository root (needs ``cuelex[semantic]`` for the semantic rows):
    .venv/bin/python benchmark/semantic_probes.py [--wrong]

``benchmark/data/semantic_probes.jsonl`` was written for this measurement before the semantic
tier's precision guards (never text of the IU reports or of the development set, never edited
after): 48 ``match`` probes, where a patient-friendly output keeps a source target in words the
lexicons were not built from ("air leaking around your lung", "a stomach bug"), and 45 ``absent``
probes, where the target is gone and the output holds a look-alike: an organ name, another
finding of the same organ, another target of the same source, the patient's past, advice.
Each probe is scored as ``cuelex.score(source, output)``; a ``match`` counts when the source
pair whose target holds ``target`` (the shortest) is retained at a span overlapping ``phrase``, an ``absent`` when it is not
retained. Rows: the default tiers, and the default tiers plus ``semantic``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cuelex
from cuelex.scoring.align import DEFAULT_TIERS

PROBES = Path(__file__).resolve().parent / "data" / "semantic_probes.jsonl"


def load() -> list[dict]:
    """The probes, in file order."""
    with PROBES.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def run(probe: dict, tiers: tuple[str, ...]) -> tuple[bool | None, str]:
    """(right?, what was found) for one probe; right is None when the source target was not extracted."""
    report = cuelex.score(probe["source"], probe["output"], n_boot=0, tiers=list(tiers))
    want = probe["target"].lower()
    pairs = sorted(
        (p for p in report.pairs if want in p.source.target_text.lower()),
        key=lambda p: len(p.source.target_text),
    )
    if not pairs:
        return None, "target not extracted"
    p = pairs[0]
    found = f"{p.match.tier}/{p.match.detail} {p.match.text!r} {p.match.confidence}" if p.retained and p.match else "-"
    if probe["expect"] == "absent":
        return not p.retained, found
    if not p.retained or p.match is None:
        return False, found
    a = probe["output"].find(probe["phrase"])
    if a < 0:
        raise ValueError(f"probe {probe['id']}: phrase {probe['phrase']!r} not in its output")
    b = a + len(probe["phrase"])
    return p.match.start < b and a < p.match.end, found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wrong", action="store_true", help="list the probes answered wrongly")
    parser.add_argument("--default-only", action="store_true", help="only the default tiers")
    args = parser.parse_args(argv)
    probes = load()
    settings = [("default tiers", DEFAULT_TIERS)]
    if not args.default_only:
        settings.append(("default + semantic", (*DEFAULT_TIERS, "semantic")))
    print("| tiers | kept targets found (match) | look-alikes left absent (absent) |")
    print("| --- | --- | --- |")
    wrong: list[str] = []
    for name, tiers in settings:
        right = {"match": 0, "absent": 0}
        total = {"match": 0, "absent": 0}
        for pr in probes:
            ok, found = run(pr, tiers)
            if ok is None:
                wrong.append(f"[{name}] {pr['id']}: {found}")
                continue
            total[pr["expect"]] += 1
            right[pr["expect"]] += ok
            if not ok:
                wrong.append(f"[{name}] {pr['id']} {pr['expect']} {pr['target']!r} in {pr['output']!r}: {found}")
        print(f"| {name} | {right['match']}/{total['match']} | {right['absent']}/{total['absent']} |")
    if args.wrong:
        print()
        for line in wrong:
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
