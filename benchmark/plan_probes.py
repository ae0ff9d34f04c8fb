"""Held-out probes for issue 12: source pairs in ACI-BENCH assessment/plan sections.

``benchmark/data/plan_probes.jsonl`` holds sentences of ACI-BENCH notes (CC BY 4.0) that are in
neither the real-text set nor the batch being annotated: the free notes were sorted by id and every
other one (the even positions) was read for these probes, BEFORE the rules of the session that
added this script; the other half was the one tuned on. A few sentences are cut at a clause. The
probes were never edited afterwards: a fix must generalise to them. Classes: ``contingency``
(a patient-specific "if"/"call if" is UL5 for a finding; the plan it triggers is no target),
``hypothetical-plan``, ``plan-hedge`` (a hedge on a plan, a price or a visit gives no pair),
``non-clinical-list`` (an "or" between providers or drugs is no alternative), ``evaluation``,
``graded-hedge``, ``known-asserted``, ``risk-list`` (a consent list of surgical risks names no plan
as a target). Rows ``q01``–``q38`` (tenth session) were written the same way, before that
session's rules, from the even-position notes outside the batch-9 documents list; they add
``status`` (a condition's hedged status) and ``cause`` (a hedged cause). Rows ``r01``–``r26``
(eleventh session) come from the ACI-BENCH notes outside ``documents_full_after_batch11`` (all
sections, since the plans of those notes are short), read before that session's rules. Rows
``s01``–``s35`` (``doc: written``) are sentences written in the style of plans and terse rewrites
for that session's wording classes, which the free notes do not contain: ``colon-differential``
("Ddx: A vs B", "Likely: X"), ``terse-hedge`` ("X, presumed.", "Prob. X", "sounds like"),
``workup-target`` ("to make sure nothing is broken", "to see if there is X"),
``general-advice`` (advice to patients in general is no pair), ``indeterminate`` and
``course-target`` ("monitor for improvement in X"); each was written before the rule for it.
Rows ``t01``–``t36`` (twelfth session, ``doc: written``) were written in the style of clinic-note
assessments and plans before that session's rules, for ``negated-adherence`` ("has not been taking
his metformin": a drug or device is no target), ``general-advice`` (what a condition or habit does
to people in general), ``non-clinical`` (work, insurance, transport after a hedge or a negation),
and more rows of the contingency, workup, plan-hedge and graded-hedge classes.
Rows ``u01``–``u40`` (thirteenth session, ``doc: written``) were written in the style of clinic-note
plans before that session's rules (27 of 40 right at 9c6681d): more ``workup-target`` wording (a
passive "evaluated / screened / checked for", "check if", "identify / detect any", "distinguish
between A and B", "see if X is contributing", "X screening"), ``purpose-treatment`` (a purpose
clause naming a treatment goal gives no pair), ``order-no-finding`` (orders, medications and
restrictions that name no finding), and more contingency, general-advice and non-clinical rows.
Rows ``v01``–``v21`` (fourteenth session, ``doc: written``) were written before that session's
rules (8 of 21 right at 83a698a): ``course-target`` rows with a bare course noun after a watching
verb ("monitor for progression or changes"), ``treatment-failure`` (a plan conditioned on a
treatment failing to control a finding: "if we cannot get her sugars under control"; a dose or a
time names no finding) and ``non-clinical`` rows with "May" inside a name ("Dr. May", "Point May
Orthopedics").

``benchmark/data/plan_probes15.jsonl`` (fifteenth session, rows ``x01``–``x45``, ``doc: written``, 34 of
45 right at 11a70ee) is read with ``--probes``; its classes are described in benchmark/data/README.md.
``plan_probes16.jsonl`` (rows ``y01``–``y56``) and ``plan_probes17.jsonl`` (seventeenth session, rows
``z01``–``z97``, 86 of 97 right at 0710bef) are read the same way.

A probe is right when every ``expect`` pair is found (level among ``levels``; the cuelex target
lies inside ``target`` and covers ``core``, case aside) and no pair has a target overlapping a
``banned`` phrase.

    .venv/bin/python benchmark/plan_probes.py              # per class and total
    .venv/bin/python benchmark/plan_probes.py --failures   # every probe that is wrong
    .venv/bin/python benchmark/plan_probes.py --probes benchmark/data/plan_probes15.jsonl
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import cuelex

PROBES = Path(__file__).resolve().parent / "data" / "plan_probes.jsonl"


def _span(sentence: str, phrase: str) -> tuple[int, int] | None:
    i = sentence.lower().find(phrase.lower())
    return None if i < 0 else (i, i + len(phrase))


def check(probe: dict) -> list[str]:
    """What is wrong with cuelex's pairs for one probe (an empty list when it is right)."""
    s = probe["sentence"]
    pairs = cuelex.extract(s)
    problems = []
    for exp in probe["expect"]:
        full, core = _span(s, exp["target"]), _span(s, exp["core"])
        ok = any(
            p.level.value in exp["levels"]
            and full[0] <= p.target_start and p.target_end <= full[1]
            and p.target_start <= core[0] and core[1] <= p.target_end
            for p in pairs
        )
        if not ok:
            problems.append(f"missing {exp['levels']} {exp['target']!r}")
    for phrase in probe["banned"]:
        b = _span(s, phrase)
        for p in pairs:
            if max(b[0], p.target_start) < min(b[1], p.target_end):
                problems.append(f"banned {p.level.value} {p.cue_text!r} -> {p.target_text!r}")
    return problems


def load(path: Path = PROBES) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--failures", action="store_true", help="print every probe that is wrong")
    ap.add_argument("--probes", type=Path, default=PROBES, help="probe file (default plan_probes.jsonl)")
    args = ap.parse_args(argv)
    right, total = Counter(), Counter()
    for probe in load(args.probes):
        problems = check(probe)
        total[probe["class"]] += 1
        right[probe["class"]] += not problems
        if problems and args.failures:
            print(f"{probe['id']} [{probe['class']}] {probe['sentence']}\n    " + "\n    ".join(problems))
    for cls in total:
        print(f"{cls:20} {right[cls]}/{total[cls]}")
    print(f"{'total':20} {sum(right.values())}/{sum(total.values())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
