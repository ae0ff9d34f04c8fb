"""Held-out probe of alignment on lay rewording: is a source target found when a patient-friendly
revision says it in other words, and never when the revision names a nearby but different finding?

Run from the repository root (offline; about half a minute):
    .venv/bin/python benchmark/lay_rewording_probe.py [--show] [--probes FILE]
    .venv/bin/python benchmark/lay_rewording_probe.py --sample   # re-draws the targets (seeded)

Targets come from UNLABELLED documents: IU chest X-ray reports (``../shared/data/eval/
iu_cxr_dev.jsonl``, read in place, never copied: rows hold ids and character offsets only) and
embedded ACI-BENCH assessment/plan sections, none of them in
``benchmark/data/realtext/documents.jsonl`` (either split) nor in the rewrites' documents. ``--sample``
draws them with a fixed seed: in shuffled order, 40 reports give one random pair each, 25 more
give one random hedged pair (not UL1) each, and 22 ACI sections alternate any pair / a hedged
pair. Of the 87 drawn, one (``aci:D2N048``, target "inability", a fragment of "the inability to
get back to ...") was left out; the other 86 are in ``benchmark/data/lay_rewording_probes.jsonl``.

That file was written BEFORE any change it measures (targets drawn with the extractor of main
e595cd9) and is never edited afterwards. Per target:
``lay`` (how a current LLM would say the finding in a plain patient-friendly revision, same
certainty), ``gloss`` (lay words with a short gloss), and for most a ``negative``: an output that
names a nearby but different finding (another organ or side, the other member of a differential,
a related but distinct condition), where the target must NOT be retained. Each output is scored
alone against the whole source with ``cuelex.score`` defaults; a target is retained when its
source pair is retained with an output level.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

from realtext_docs import ACI_FILE, DOCS_FILE, IU_FILE, aci_section, iu_text, read_jsonl

import cuelex

HERE = Path(__file__).resolve().parent
PROBES = HERE / "data" / "lay_rewording_probes.jsonl"
REWRITES = HERE / "data" / "rewrites_dev" / "outputs.jsonl"
SEED = 20261123


def unlabelled_texts(exclude_used: bool = True) -> dict[str, str]:
    """doc_id -> source text, for every IU report and ACI section in no evaluation set (with
    ``exclude_used=False`` also those in one: a probe drawn earlier may name a document that a
    later batch has since put in an evaluation set, and it is still judged on the same text)."""
    used = {d["doc_id"] for d in read_jsonl(DOCS_FILE)} | {o["doc_id"] for o in read_jsonl(REWRITES)}
    if not exclude_used:
        used = set()
    out = {}
    for r in read_jsonl(IU_FILE):
        if r.get("findings") and r.get("impression") and f"iu:{r['uid']}" not in used:
            out[f"iu:{r['uid']}"] = iu_text(r)
    for n in read_jsonl(ACI_FILE):
        section = aci_section(n["text"])
        if section and f"aci:{n['id']}" not in used:
            out[f"aci:{n['id']}"] = section
    return out


def sample(texts: dict[str, str], seed: int = SEED) -> list[dict]:
    """The seeded draw of source targets described in the module docstring."""
    rng = random.Random(seed)
    iu = [k for k in texts if k.startswith("iu:")]
    aci = [k for k in texts if k.startswith("aci:")]
    rng.shuffle(iu)
    rng.shuffle(aci)
    picked: list[dict] = []

    def take(doc_id: str, hedged: bool) -> bool:
        pairs = [p for p in cuelex.extract(texts[doc_id]) if "XXXX" not in p.target_text and len(p.target_text) > 2]
        if hedged:
            pairs = [p for p in pairs if p.level.value != "UL1"]
        if not pairs:
            return False
        p = rng.choice(pairs)
        picked.append({"doc_id": doc_id, "target": [p.target_start, p.target_end], "level": p.level.value})
        return True

    n_any = n_hedged = 0
    for doc_id in iu:
        if n_any < 40 and take(doc_id, False):
            n_any += 1
        elif n_hedged < 25 and take(doc_id, True):
            n_hedged += 1
        if n_any >= 40 and n_hedged >= 25:
            break
    n_aci = 0
    for doc_id in aci:
        if take(doc_id, n_aci % 2 == 1):
            n_aci += 1
        if n_aci >= 22:
            break
    return picked


def judge(texts: dict[str, str], row: dict) -> tuple[str, str, str | None]:
    """(retained / absent / no pair, how it was matched, output level) for one probe row."""
    report = cuelex.score(texts[row["doc_id"]], row["output"], n_boot=0)
    start, end = row["target"]
    pairs = [sp for sp in report.pairs if (sp.source.target_start, sp.source.target_end) == (start, end)]
    if not pairs:
        return "no pair", "-", None
    sp = pairs[0]
    if sp.retained and sp.output_level is not None:
        return "retained", f"{sp.match.tier}/{sp.match.detail} {sp.match.text!r}", sp.output_level.value
    return "absent", "-", None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--probes", type=Path, default=PROBES)
    ap.add_argument("--show", action="store_true", help="print every row, not only the wrong ones")
    ap.add_argument("--sample", action="store_true", help="print the seeded draw of targets and stop")
    args = ap.parse_args(argv)
    texts = unlabelled_texts()
    if args.sample:
        for i, p in enumerate(sample(texts)):
            s, e = p["target"]
            print(i, p["doc_id"], p["level"], repr(texts[p["doc_id"]][s:e]))
        return 0
    texts = unlabelled_texts(exclude_used=False)
    rows = [json.loads(line) for line in args.probes.read_text(encoding="utf-8").splitlines() if line.strip()]
    tally: Counter = Counter()
    for row in rows:
        got, how, level = judge(texts, row)
        ok = got == row["expect"]
        tally[(row["kind"], ok)] += 1
        if ok and row["expect"] == "retained":
            tally[(row["kind"], "level")] += level == row["source_level"]
        if args.show or not ok:
            s, e = row["target"]
            target = texts[row["doc_id"]][s:e]
            print(f"{'ok ' if ok else 'BAD'} {row['id']:6} {row['kind']:8} {got:8} {level or '-':13} "
                  f"{target!r} ~ {row['output']}  [{how}]")
    for kind in ("lay", "gloss"):
        n = tally[(kind, True)] + tally[(kind, False)]
        print(f"{kind}: retained {tally[(kind, True)]}/{n} = {tally[(kind, True)] / n:.1%}; "
              f"same level as the source {tally[(kind, 'level')]}/{tally[(kind, True)]}")
    n_neg = tally[("negative", True)] + tally[("negative", False)]
    print(f"negative: falsely retained {tally[('negative', False)]}/{n_neg} = {tally[('negative', False)] / n_neg:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
