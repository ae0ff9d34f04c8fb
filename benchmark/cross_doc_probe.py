"""Cross-document probe of alignment precision: does alignment invent retention?

A source scored against the rewrite of ANOTHER document has almost every target truly absent, so
every "retained" call is a candidate false retention, read by hand. Tune half only: each tune
source is paired (seeded) with outputs of other tune documents — in each of two rounds one of the
same kind (two chest X-ray reports, two ACI sections) and one of the other kind (a plan against
an X-ray rewrite).
Hand verdicts live in ``benchmark/data/cross_doc_verdicts.jsonl`` keyed by ids and character
offsets only (IU text may not be copied into the project): ``verdict`` is ``false`` (the other
output does not state that finding) or ``true`` (it really does, e.g. both X-ray rewrites say
"no collapsed lung"). The rate is false calls over truly absent targets (all targets minus the
``true`` calls); calls without a verdict are listed as unjudged and counted both ways.

    .venv/bin/python benchmark/cross_doc_probe.py            # rate + every retained call
    .venv/bin/python benchmark/cross_doc_probe.py --unjudged # only calls without a verdict
    .venv/bin/python benchmark/cross_doc_probe.py --probes benchmark/data/cross_doc_holdout_probes.jsonl

``--probes`` scores held-out sentence pairs (written before the precision guards they test, then
never edited): each names a source target and whether the output really keeps it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

from realtext_docs import ROOT, load_documents
from realtext_gold import load_rewrites

import cuelex

SEED = 20261123
#: rounds of pairing: each round gives every tune source one same-kind and one other-kind output
ROUNDS = 2
VERDICTS = ROOT / "data" / "cross_doc_verdicts.jsonl"


def probe_pairs(seed: int = SEED) -> list[tuple[dict, dict]]:
    """(source document, other document's output) pairs: per tune source one same-kind, one other-kind."""
    docs = sorted((d for d in load_documents() if d["rewrites"] and d["split"] == "tune"),
                  key=lambda d: d["doc_id"])
    outputs, _fates, _private = load_rewrites()
    by_doc: dict[str, list[dict]] = {}
    for o in sorted(outputs, key=lambda o: o["output_id"]):
        by_doc.setdefault(o["doc_id"], []).append(o)
    pairs = []
    seen = set()
    for round_ in range(ROUNDS):
        rng = random.Random(seed + round_)
        for doc in docs:
            kind = doc["doc_id"].split(":")[0]
            for same in (True, False):
                others = [d["doc_id"] for d in docs if d["doc_id"] != doc["doc_id"]
                          and (d["doc_id"].split(":")[0] == kind) == same and by_doc.get(d["doc_id"])]
                if not others:
                    continue
                out = rng.choice(by_doc[rng.choice(others)])
                if (doc["doc_id"], out["output_id"]) not in seen:
                    seen.add((doc["doc_id"], out["output_id"]))
                    pairs.append((doc, out))
    return pairs


def load_verdicts(path: Path = VERDICTS) -> dict[tuple, dict]:
    """Hand verdicts keyed by (source doc, target start, target end, output id, match start, match end)."""
    if not path.exists():
        return {}
    out = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        if row.get("verdict") not in ("true", "false"):
            raise SystemExit(f"{path}:{lineno}: verdict must be 'true' or 'false', got {row.get('verdict')!r}")
        out[(row["source"], *row["target"], row["output_id"], *row["match"])] = row
    return out


def run(show: str = "all") -> dict:
    verdicts = load_verdicts()
    n_targets = 0
    calls = []
    for doc, out in probe_pairs():
        report = cuelex.score(doc["text"], out["text"], doc_id=f"{doc['doc_id']}|{out['output_id']}", n_boot=0)
        for sp in report.pairs:
            n_targets += 1
            if not (sp.retained and sp.output_level is not None):
                continue
            m = sp.match
            key = (doc["doc_id"], sp.source.target_start, sp.source.target_end, out["output_id"], m.start, m.end)
            v = verdicts.get(key)
            calls.append({"key": key, "verdict": v["verdict"] if v else None, "tier": f"{m.tier}/{m.detail}",
                          "confidence": m.confidence, "target": sp.source.target_text, "text": m.text,
                          "level": sp.output_level.value,
                          "context": out["text"][max(0, m.start - 60):m.end + 60].replace("\n", " ")})
    true = sum(c["verdict"] == "true" for c in calls)
    false = sum(c["verdict"] == "false" for c in calls)
    unjudged = sum(c["verdict"] is None for c in calls)
    return {"n_targets": n_targets, "calls": calls, "true": true, "false": false, "unjudged": unjudged}


def run_probes(path: Path) -> int:
    """Score each held-out probe; print misses and the per-mechanism tally (found / must-not kept)."""
    tally: dict[str, Counter] = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        if row.get("expect") not in ("retained", "absent"):
            raise SystemExit(f"{path}:{lineno}: expect must be 'retained' or 'absent'")
        report = cuelex.score(row["source"], row["output"], n_boot=0)
        pairs = [sp for sp in report.pairs if row["target"].lower() in sp.source.target_text.lower()]
        got = "no pair" if not pairs else (
            "retained" if pairs[0].retained and pairs[0].output_level is not None else "absent")
        t = tally.setdefault(row["mechanism"], Counter())
        t[row["expect"]] += 1
        t[f"{row['expect']}_ok"] += got == row["expect"]
        if got != row["expect"]:
            how = f" ({pairs[0].match.tier}/{pairs[0].match.detail} {pairs[0].match.text!r})" if pairs and pairs[0].match else ""
            print(f"  miss {row['id']}: expected {row['expect']}, got {got}{how}")
    for mech, t in tally.items():
        print(f"{mech}: kept where retained {t['retained_ok']}/{t['retained']}, "
              f"left absent where absent {t['absent_ok']}/{t['absent']}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--unjudged", action="store_true", help="list only calls without a hand verdict")
    parser.add_argument("--probes", type=Path, help="score held-out probe pairs from this JSONL file instead")
    args = parser.parse_args(argv)
    if args.probes is not None:
        return run_probes(args.probes)
    r = run()
    absent = r["n_targets"] - r["true"]
    for c in r["calls"]:
        if args.unjudged and c["verdict"] is not None:
            continue
        print(f"[{c['verdict'] or 'UNJUDGED'}] {json.dumps(list(c['key']))} {c['tier']} conf {c['confidence']:.2f} "
              f"{c['level']} {c['target']!r} ~ {c['text']!r}  …{c['context']}…")
    by_tier = Counter(c["tier"] for c in r["calls"] if c["verdict"] != "true")
    print(f"\nprobe pairs: {len(probe_pairs())}; source targets: {r['n_targets']}; retained calls: {len(r['calls'])} "
          f"(true {r['true']}, false {r['false']}, unjudged {r['unjudged']})")
    lo = r["false"] / absent if absent else float("nan")
    hi = (r["false"] + r["unjudged"]) / absent if absent else float("nan")
    print(f"false retention: {r['false']}/{absent} = {lo:.1%}" +
          (f" (unjudged counted false: {hi:.1%})" if r["unjudged"] else ""))
    print("non-true calls by tier: " + ", ".join(f"{t} {n}" for t, n in by_tier.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
