"""Concept linking: coverage per level, a hand-checked precision sample, speed and index build time.

Run from the repository root:
    .venv/bin/python benchmark/linking_eval.py [--repeats N] [--no-write]

1. First-use index build: the open vocabulary index is built from the shipped term table into a
   fresh temporary cache (what a user's first ``Linker()`` / ``cuelex.load(link=True)`` does),
   then opened again from the cache (what every later process does).
2. For each corpus — the embedded ACI-BENCH demo notes and the 50 synthetic radiology reports of
   ``benchmark/data/radiology_reports.jsonl`` (written by the lead for timing, never seen while the
   vocabulary was curated: held out) — pairs are extracted with ``cuelex.extract`` and linked with
   the open vocabulary. Reported: share of pairs that get a concept (UMLS CUI or cuelex id) overall
   and per level, share flagged for review, and documents per second for extraction alone and for
   extraction followed by linking (single process, best of N timed passes after a warm-up).
3. Precision: 50 linked demo-corpus pairs (those whose position hashes lowest with a fixed
   seed, so a vocabulary change swaps only the pairs it touches); the verdicts are in
   ``benchmark/data/linking_sample_judgments.tsv`` (hand-checked: is the concept what the target
   means in its sentence?). Pairs of the sample without a verdict are listed as unjudged.

Results are printed and written to ``docs/linking.md`` between the ``linking_eval`` markers.
"""

from __future__ import annotations

import argparse
import csv
import gc
import hashlib
import json
import platform
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import cuelex
from cuelex import vocab
from cuelex.levels import Level
from cuelex.linking import Linker
from cuelex.records import CueTargetPair

sys.path.insert(0, str(Path(__file__).resolve().parent))
import evalcommon as ec  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CORPORA = {
    "ACI-BENCH demo notes": ROOT / "cuelex" / "data" / "aci_bench_notes.jsonl",
    "synthetic radiology reports (held out)": ROOT
    / "benchmark"
    / "data"
    / "radiology_reports.jsonl",
}
JUDGMENTS = ROOT / "benchmark" / "data" / "linking_sample_judgments.tsv"
DOC = ROOT / "docs" / "linking.md"
SAMPLE_SEED = 31337
SAMPLE_SIZE = 50
LEVEL_ORDER = [Level.UL1, Level.HEDGED_ABSENT, Level.UL2, Level.UL3, Level.UL4, Level.UL5]


def read_docs(path: Path) -> list[tuple[str, str]]:
    docs = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                docs.append((str(d["id"]), d["text"]))
    return docs


def best_time(fn, repeats: int) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeats):
        gc.collect()
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def md_table(header: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f} %" if b else "–"


def sample_rank(p: CueTargetPair) -> str:
    key = f"{SAMPLE_SEED}:{p.doc_id}:{p.cue_start}:{p.target_start}"
    return hashlib.sha256(key.encode()).hexdigest()


def sample_key(p: CueTargetPair) -> tuple[str, str, str, str]:
    return (p.doc_id or "", str(p.cue_start), p.target_text, p.cui or "")


def read_judgments() -> dict[tuple[str, str, str, str], tuple[str, str]]:
    if not JUDGMENTS.is_file():
        return {}
    out = {}
    with JUDGMENTS.open(encoding="utf-8", newline="") as f:
        rows = (r for r in f if not r.startswith("#"))
        for r in csv.DictReader(rows, delimiter="\t"):
            key = (r["doc_id"], r["cue_start"], r["target_text"], r["cui"])
            out[key] = (r["verdict"], r.get("note", ""))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="timed passes per system (best kept)")
    ap.add_argument("--no-write", action="store_true", help="print only; leave docs/linking.md")
    ap.add_argument("--write-sample", type=Path, help="write the 50-pair sample as TSV for judging")
    args = ap.parse_args(argv)
    out: list[str] = []

    # 1. first-use index build
    with tempfile.TemporaryDirectory(prefix="cuelex-bench-cache-") as tmp:
        t = time.perf_counter()
        path = vocab.ensure_open_index(tmp)
        build_s = time.perf_counter() - t
        manifest = json.loads((path / vocab.MANIFEST_FILE).read_text())
        t = time.perf_counter()
        Linker(cache_dir=tmp).warm()
        open_s = time.perf_counter() - t
    out.append("### First-use index build\n\n")
    out.append(
        md_table(
            ["step", "seconds"],
            [
                ["build the open index from the shipped table (first use)", f"{build_s:.1f}"],
                [
                    "open the cached index + QuickUMLS matcher (every later process)",
                    f"{open_s:.1f}",
                ],
            ],
        )
    )
    out.append(
        f"\nIndex: {manifest['concepts']:,} concepts, {manifest['index_terms']:,} QuickUMLS terms, "
        f"{manifest['abbreviations']:,} abbreviations; about 22 MB on disk.\n\n"
    )

    engine = cuelex.get_engine()
    linker = Linker().warm()  # the user's cache: built once, reused
    sample_pool: list[tuple[CueTargetPair, str]] = []
    for name, path in CORPORA.items():
        docs = read_docs(path)
        extracted = [(doc_id, text, engine.extract(text, doc_id=doc_id)) for doc_id, text in docs]
        linked = [(text, linker.link(text, pairs)) for _doc_id, text, pairs in extracted]
        t_ext = best_time(
            lambda docs=docs: [engine.extract(x, doc_id=i) for i, x in docs], args.repeats
        )
        t_all = best_time(
            lambda docs=docs: [linker.link(x, engine.extract(x, doc_id=i)) for i, x in docs],
            args.repeats,
        )
        pairs = [p for _text, ps in linked for p in ps]
        n = len(pairs)
        n_linked = sum(p.cui is not None for p in pairs)
        n_review = sum(p.needs_review for p in pairs)
        n_cui = sum(bool(p.cui and re.match(r"^C\d{7}$", p.cui)) for p in pairs)
        n_changed = sum(
            p.raw_target_text is not None and p.raw_target_text != p.target_text for p in pairs
        )
        out.append(f"### {name}: {len(docs)} documents, {n:,} pairs\n\n")
        rows = []
        for level in LEVEL_ORDER:
            lp = [p for p in pairs if p.level is level]
            if lp:
                k = sum(p.cui is not None for p in lp)
                r = sum(p.needs_review for p in lp)
                rows.append([level.value, len(lp), k, pct(k, len(lp)), pct(r, len(lp))])
        rows.append(["**all**", n, n_linked, f"**{pct(n_linked, n)}**", pct(n_review, n)])
        out.append(
            md_table(["level", "pairs", "linked", "share linked", "flagged for review"], rows)
        )
        out.append(
            f"\nOf the linked pairs, {pct(n_cui, n_linked)} carry a UMLS CUI "
            "(the rest a cuelex id); "
            f"linking changed the target span of {n_changed:,} pairs ({pct(n_changed, n)}).\n\n"
        )
        out.append(
            md_table(
                ["system", "docs/s", "ms/doc"],
                [
                    [
                        "extraction (`cuelex.extract`)",
                        f"{len(docs) / t_ext:.0f}",
                        f"{1000 * t_ext / len(docs):.1f}",
                    ],
                    [
                        "extraction + linking",
                        f"{len(docs) / t_all:.0f}",
                        f"{1000 * t_all / len(docs):.1f}",
                    ],
                ],
            )
        )
        out.append("\n")
        if name.startswith("ACI"):
            sample_pool = [(p, text) for text, ps in linked for p in ps if p.cui is not None]

    # 3. hand-checked sample
    # the pairs whose position hashes lowest: a vocabulary change only swaps the pairs it touches
    sample = sorted(sample_pool, key=lambda x: sample_rank(x[0]))[:SAMPLE_SIZE]
    sample.sort(key=lambda x: (x[0].doc_id or "", x[0].cue_start))
    judgments = read_judgments()
    verdicts = Counter()
    rows = []
    for p, _text in sample:
        verdict, note = judgments.get(sample_key(p), ("unjudged", ""))
        verdicts[verdict] += 1
        rows.append(
            [
                p.doc_id, p.level.value, f"`{p.cue_text}`", f"`{p.target_text}`",
                f"{p.cui} {p.preferred_name}", f"{p.link_score:.2f}", verdict, note,
            ]
        )  # fmt: skip
    judged = verdicts["correct"] + verdicts["incorrect"]
    out.append(
        f"### Precision on {len(sample)} linked demo-corpus pairs (hash seed {SAMPLE_SEED})\n\n"
    )
    out.append(
        f"Correct: {verdicts['correct']} of {judged} judged → "
        f"**precision {pct(verdicts['correct'], judged)}**"
        + (f"; {verdicts['unjudged']} unjudged" if verdicts["unjudged"] else "")
        + ".\n\n"
    )
    out.append(
        md_table(["doc", "level", "cue", "target", "concept", "score", "verdict", "note"], rows)
    )
    if args.write_sample:
        with args.write_sample.open("w", encoding="utf-8", newline="") as f:
            w = csv.writer(f, delimiter="\t", lineterminator="\n")
            w.writerow(["doc_id", "cue_start", "target_text", "cui", "verdict", "note", "sentence"])
            for p, _text in sample:
                v, note = judgments.get(sample_key(p), ("", ""))
                w.writerow([*sample_key(p), v, note, " ".join(p.sentence.split())])

    out.append(
        f"\n_Measured {time.strftime('%Y-%m-%d')} on {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}, single process._\n"
    )
    body = "".join(out)
    print(body)
    if not args.no_write:
        ec.write_block(DOC, "linking_eval", body.rstrip("\n"))
        print(f"wrote {DOC}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
