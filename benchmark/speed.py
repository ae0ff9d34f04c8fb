"""Throughput of cuelex beside medSpaCy's default pipeline, in documents and characters per second.

Run from the repository root:
    .venv/bin/python benchmark/speed.py [--repeats N] [--min-run SECONDS] [--no-write]

Corpora: the embedded ACI-BENCH demo notes (cuelex/data/aci_bench_notes.jsonl, 207 visit notes) and
50 short synthetic radiology reports (benchmark/data/radiology_reports.jsonl). Systems, all single
process on the same texts:
  (a) cuelex.extract(text) per document;
  (b) cuelex.load() (blank English tokenizer + cuelex component) through nlp.pipe;
  (c) medspacy.load() (PyRuSH sentence splitter, TargetMatcher, ConText) through nlp.pipe, with
      PyRuSH's loguru DEBUG output switched off.
Each system is warmed up on the first 25 documents, then timed N times (default 3) over whole
corpus passes (several passes per run for fast systems, so that a run lasts about --min-run
seconds), the systems taking turns; the best run is reported per pass. Results are printed and
written to docs/speed.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import math
import os
import sys
import time
from collections.abc import Callable

import evalcommon as ec

CORPORA = {
    "ACI-BENCH notes": ec.ROOT / "cuelex" / "data" / "aci_bench_notes.jsonl",
    "short radiology reports": ec.BENCH / "data" / "radiology_reports.jsonl",
}


WARMUP_DOCS = 25


def time_pass(run: Callable[[], int], passes: int) -> tuple[float, int]:
    """Seconds per corpus pass over ``passes`` consecutive passes, and one pass's output count."""
    gc.collect()
    out = 0
    t = time.perf_counter()
    for _ in range(passes):
        out = run()
    return (time.perf_counter() - t) / passes, out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--repeats", type=int, default=3, help="timed runs per system and corpus (best is kept)"
    )
    ap.add_argument(
        "--min-run",
        type=float,
        default=1.0,
        help="seconds a timed run should last at least (fast systems make several passes)",
    )
    ap.add_argument("--no-write", action="store_true", help="print only; leave docs/speed.md alone")
    args = ap.parse_args(argv)
    if args.repeats < 1:
        raise SystemExit("--repeats must be at least 1")

    ec.silence_logging()
    import medspacy

    import cuelex

    ec.silence_logging()  # again: importing medspacy/PyRuSH must not re-enable DEBUG output
    cuelex_nlp = cuelex.load()
    medspacy_nlp = medspacy.load()

    def run_extract(texts: list[str]) -> int:
        return sum(len(cuelex.extract(t)) for t in texts)

    def run_cuelex_pipe(texts: list[str]) -> int:
        return sum(len(doc._.cue_pairs) for doc in cuelex_nlp.pipe(texts))

    def run_medspacy_pipe(texts: list[str]) -> int:
        return sum(len(list(doc.sents)) for doc in medspacy_nlp.pipe(texts))

    systems = {
        "cuelex.extract": (run_extract, "cue–target pairs"),
        "cuelex.load() nlp.pipe": (run_cuelex_pipe, "cue–target pairs"),
        "medspacy.load() nlp.pipe": (run_medspacy_pipe, "sentences"),
    }

    results = []  # (corpus, n_docs, n_chars, system, seconds, outputs)
    t_start = time.perf_counter()
    for corpus, path in CORPORA.items():
        if not path.exists():
            raise SystemExit(f"corpus file not found: {path}")
        texts = [r["text"] for r in ec.read_jsonl(path)]
        n_chars = sum(len(t) for t in texts)
        # warm-up on the first documents (caches, lazily compiled patterns, first-call
        # allocations); its duration sets how many corpus passes one timed run makes, so that a
        # run lasts about --min-run seconds
        warm_texts = texts[:WARMUP_DOCS]
        passes = {}
        for system, (fn, _) in systems.items():
            t = time.perf_counter()
            fn(warm_texts)
            est = (time.perf_counter() - t) * len(texts) / len(warm_texts)
            passes[system] = max(1, math.ceil(args.min_run / max(est, 1e-6)))
        # timed runs interleaved round-robin, so that every system sees the same background load
        best = {system: (float("inf"), 0) for system in systems}
        for _ in range(args.repeats):
            for system, (fn, _) in systems.items():
                sec, out = time_pass(lambda fn=fn, texts=texts: fn(texts), passes[system])
                if sec < best[system][0]:
                    best[system] = (sec, out)
        for system in systems:
            seconds, outputs = best[system]
            results.append((corpus, len(texts), n_chars, system, seconds, outputs, passes[system]))
            print(
                f"{corpus:24s} {system:26s} {len(texts) / seconds:9.1f} docs/s "
                f"{n_chars / seconds:12,.0f} chars/s  ({outputs} {systems[system][1]}; "
                f"{passes[system]} pass(es) per timed run)",
                flush=True,
            )
    total = time.perf_counter() - t_start

    rows = []
    for corpus in CORPORA:
        base = next(r for r in results if r[0] == corpus and r[3].startswith("medspacy"))
        base_dps = base[1] / base[4]
        for _c, n_docs, n_chars, system, seconds, _out, passes in (
            r for r in results if r[0] == corpus
        ):
            dps = n_docs / seconds
            ratio = "1.0×" if system.startswith("medspacy") else f"**{dps / base_dps:.1f}×**"
            rows.append(
                [
                    corpus,
                    f"{n_docs} ({n_chars / n_docs:,.0f} chars avg)",
                    system,
                    f"{dps:,.1f}",
                    f"{n_chars / seconds:,.0f}",
                    f"{seconds * 1000:,.1f}",
                    passes,
                    ratio,
                ]
            )
    table = ec.md_table(
        [
            "corpus",
            "docs",
            "system",
            "docs/s",
            "chars/s",
            "ms per corpus pass",
            "passes per run",
            "vs medSpaCy",
        ],
        rows,
    )
    print()
    print(table)
    print(f"\n(total benchmark time {total:.1f}s)")

    if args.no_write:
        return 0

    mi = ec.machine_info()
    try:
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except (AttributeError, OSError):  # pragma: no cover - not on Unix
        load = "n/a"
    vers = ec.versions(["cuelex", "spacy", "medspacy", "PyRuSH", "regex", "pydantic"])
    text = f"""\
# Speed

Documents per second of cuelex beside medSpaCy's default pipeline on the same texts, single
process. The issue's target is **at least 20× medSpaCy's throughput** (medSpaCy's default
pipeline manages about 70 short radiology reports per second on the reference machine; its PyRuSH
sentence splitter is most of that cost).

Reproduce (from the repository root, offline, about two minutes; longer on a busy machine):

```bash
.venv/bin/python benchmark/speed.py            # --repeats N (default 3), --no-write to print only
```

## Result

{table}

Measured {dt.date.today().isoformat()}, best of {args.repeats} timed runs per system and corpus;
"vs medSpaCy" is the docs/s ratio to `medspacy.load()` on the same corpus.
On a shared machine timings can move by a third between invocations when other work runs (see
the load average below); compare ratios from the same run.

## Method

- **Corpora.** *ACI-BENCH notes*: the embedded demo corpus `cuelex/data/aci_bench_notes.jsonl`
  (207 clinical visit notes, CC BY 4.0). *Short radiology reports*:
  `benchmark/data/radiology_reports.jsonl`, 50 synthetic chest radiograph, CT, head CT and
  ultrasound reports (EXAM / INDICATION / COMPARISON / TECHNIQUE / FINDINGS / IMPRESSION, with
  hedges and negations; no patient data; see `benchmark/data/README.md`).
- **Systems.** (a) `cuelex.extract(text)` per document (cuelex's own clinical sentence splitter,
  cue scan, target extraction; no concept linking); (b) `cuelex.load()` — blank English tokenizer +
  the `cuelex` component — through `nlp.pipe(texts)`, so spaCy tokenization and `Doc` creation are
  included; (c) `medspacy.load()` — `medspacy_pyrush`, `medspacy_target_matcher` (no rules loaded),
  `medspacy_context` — through `nlp.pipe(texts)`. PyRuSH logs every sentence decision at DEBUG
  through loguru; the script removes loguru's default handler (only WARNING and above are kept)
  so nothing is written, but PyRuSH still builds its log messages, which is part of what its
  default pipeline costs.
- **Timing.** Each system is first warmed up on the corpus's first {WARMUP_DOCS} documents. A timed
  run is `time.perf_counter` around whole passes over the corpus with outputs consumed (pairs
  counted, sentences iterated), after `gc.collect()`; it makes as many passes as needed to last
  about {args.min_run:g} s (short corpora and fast systems would otherwise be timed over a few tens
  of milliseconds). The systems' timed runs take turns (round-robin, {args.repeats} rounds) so
  that all of them see the same background load; the best run of each, divided by its number of
  passes, is reported.

## Machine

| | |
| --- | --- |
| CPU | {mi["cpu"]} |
| CPU count | {mi["cpu_count"]} (usable by this process: {mi["usable_cpus"]}) |
| Load average (1, 5, 15 min) at the end of the run | {load} |
| Python | {mi["python"]} |
| Platform | {mi["platform"]} |
| Packages | {", ".join(f"{k} {v}" for k, v in vers.items())} |
"""
    out = ec.DOCS / "speed.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out.relative_to(ec.ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
