"""Held-out probes for issue 11: fates of realistic rewrites of ACI-BENCH notes outside every set.

``benchmark/data/rewrite_class_probes.jsonl`` holds clinician summaries and patient-friendly
revisions written (tenth session, before that session's rules) of the assessment/plan sections of
ACI-BENCH notes (CC BY 4.0) that are in neither ``realtext/documents.jsonl`` nor rewrite batch 9,
each with the fate a reader gives chosen source targets (``ABSENT`` or the output level; a list
where a reader could take either). They were never edited after the rules were changed: a fix must
generalise to them. Classes: ``clinic-hedge`` (the target kept with a clinic-note hedge: "c/w",
"concerning for", "?", "suspected", "r/o", "appears c/w"), ``lay-hedge`` (a patient-friendly
hedge: "seem to have", "looks like", "your symptoms fit with"), ``lay-paraphrase`` (the target in
lay words), ``abbreviation``, ``negation-kept``, ``asserted-kept``.

``benchmark/data/rewrite_scope_probes.jsonl`` (``--probes``; eleventh session, written before that
session's rules, of notes outside rewrite batch 11 as well) adds ``lead-in-list`` (a list item under
a lead-in line or heading that carries the hedge or negation: "Call MD for:", "Denies:", "When to
get help") and ``several-mentions`` (the target said again after its hedged statement: a heading, a
definition, an "Assessment:" label).

    .venv/bin/python benchmark/rewrite_class_probe.py              # per class and total
    .venv/bin/python benchmark/rewrite_class_probe.py --failures   # every wrong expectation

``--probes benchmark/data/kept_target_probes.jsonl`` (eleventh session, issue 11: kept targets read
as ABSENT) runs another file of the same form, written before that session's alignment rules; a
probe there may give its own ``source`` (chest X-ray and plan sentences written for the probes, no
report text) instead of an ACI-BENCH ``doc``. Its classes: ``opacity-infection``, ``shorthand``,
``qualified``, ``relational``, ``measurement``, ``cause``, ``lay-paraphrase``, ``verb-form``,
``abbreviation``, and ``negative`` (a nearby wording that does not keep the target: ABSENT).

``--probes benchmark/data/plan_label_probes.jsonl`` (twelfth session, issue 11: a workup/follow-up
target read as asserted after a "label:") holds clinician summaries of chest X-ray style sources
written for the probes (no report text), written before the plan-label rule. Classes: ``plan-label``
(the target an item of "Workup:", "F/u:", "Pending:", "To check:", "Recs:" …: UL5),
``assessment-label`` ("Dx:", "Impression:", "Findings:": the item is a statement) and
``treatment-label`` ("Plan: abx for pneumonia": a treated condition, not a check).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from realtext_docs import aci_section

import cuelex
from cuelex.data import __file__ as _data_init

PROBES = Path(__file__).resolve().parent / "data" / "rewrite_class_probes.jsonl"
NOTES = Path(_data_init).resolve().parent / "aci_bench_notes.jsonl"
ABSENT = "ABSENT"


def sources() -> dict[str, str]:
    """Assessment/plan section of every shipped ACI-BENCH note, by ``aci:`` document id."""
    out = {}
    for line in NOTES.read_text(encoding="utf-8").splitlines():
        if line.strip():
            note = json.loads(line)
            section = aci_section(note["text"])
            if section:
                out["aci:" + note["id"]] = section
    return out


def check(probe: dict, source: str) -> list[tuple[dict, str]]:
    """(expectation, cuelex fate) for each expectation of one probe; ``no pair`` when cuelex has none."""
    report = cuelex.score(source, probe["output"], n_boot=0)
    results = []
    for exp in probe["expect"]:
        c0 = source.find(exp["context"])
        if c0 < 0:
            raise ValueError(f"{probe['id']}: context {exp['context']!r} not in {probe.get('doc', 'its source')}")
        t0 = source.find(exp["target"], c0)
        span = (t0, t0 + len(exp["target"]))
        best, best_overlap = None, 0
        for p in report.pairs:
            overlap = min(span[1], p.source.target_end) - max(span[0], p.source.target_start)
            if overlap > best_overlap:
                best, best_overlap = p, overlap
        if best is None:
            results.append((exp, "no pair"))
        else:
            fate = best.output_level.value if best.retained and best.output_level is not None else ABSENT
            results.append((exp, fate))
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--failures", action="store_true", help="print every wrong expectation")
    parser.add_argument("--probes", type=Path, default=PROBES,
                        help="another probe file of the same format (rewrite_scope_probes.jsonl: lead-in lists, "
                        "several mentions; kept_target_probes.jsonl: kept targets; plan_label_probes.jsonl: plan labels; "
                        "default: %(default)s)")
    args = parser.parse_args(argv)
    texts = sources()
    right: Counter = Counter()
    total: Counter = Counter()
    for line in args.probes.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        probe = json.loads(line)
        source = probe["source"] if "source" in probe else texts[probe["doc"]]
        for exp, fate in check(probe, source):
            want = exp["fate"] if isinstance(exp["fate"], list) else [exp["fate"]]
            key = (probe["task"], exp["class"])
            total[key] += 1
            right[key] += fate in want
            if args.failures and fate not in want:
                print(f"  {probe['id']} [{probe['task']}/{exp['class']}] {exp['target']!r}: want {want}, cuelex {fate}")
    for key in sorted(total):
        print(f"{key[0]:9s} {key[1]:15s} {right[key]:3d}/{total[key]}")
    for task in ("summary", "revision"):
        r = sum(v for k, v in right.items() if k[0] == task)
        t = sum(v for k, v in total.items() if k[0] == task)
        print(f"{task:9s} {'all':15s} {r:3d}/{t}")
    print(f"{'total':25s} {sum(right.values()):3d}/{sum(total.values())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
