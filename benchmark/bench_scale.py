"""Scale of the benchmark builder: documents per second on one and two cores, peak memory, projection.

    .venv/bin/python benchmark/bench_scale.py                 # 100,000-note run + 1 vs 2 cores, writes docs/benchmark.md
    .venv/bin/python benchmark/bench_scale.py --notes 20000 --no-write    # a quicker look

Steps (every build runs in a fresh Python process, so import, index opening and worker start-up
are part of the time, as for a user):

0. how much real notes repeat their sentences (share of sentences seen earlier in the same
   corpus: IU chest X-ray reports for radiology, ACI-BENCH notes for discharge summaries, the
   report half of the accuracy sets left out), and the Pitman–Yor parameters that make the
   synthetic notes repeat as much (``fit_repetition``: discount from the growth of distinct
   sentences, theta by bisection on the share at the real corpus's size);
1. a synthetic MIMIC-IV-Note-shaped corpus (``make_synthetic_corpus.py``) of ``--notes`` notes
   (12.5 % discharge summaries, as in MIMIC-IV-Note) with that repetition, and a smaller one per
   note kind;
2. end-to-end ``cuelex.bench.build`` (sections, extraction, linking with the open vocabulary,
   deduplication, pre-screening, sampling, writing) on the small corpora with 1 and 2 workers:
   notes per second and section documents per second, for discharge and radiology separately;
3. the full corpus with 2 workers, a work directory and 500-note chunks: wall time and peak
   resident memory of the main process and of the largest worker (``getrusage``);
4. the projected time for MIMIC-IV-Note (331,794 discharge summaries + 2,321,355 radiology reports)
   from the two-worker rates of step 2.

The measured block of ``docs/benchmark.md`` (between the ``scale:begin``/``scale:end`` markers) is
rewritten unless ``--no-write``; the raw numbers go to ``build/bench_scale.json``.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import math
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

import evalcommon as ec  # noqa: E402
from build_ab import PEAK_RSS  # noqa: E402
import realtext_docs as rd  # noqa: E402
from make_synthetic_corpus import (  # noqa: E402
    MIMIC_DISCHARGE,
    MIMIC_RADIOLOGY,
    Repetition,
    discharge_note,
    radiology_note,
    write_corpus,
)

DOC = ROOT / "docs" / "benchmark.md"
ACI_FILE = ROOT / "cuelex" / "data" / "aci_bench_notes.jsonl"
#: the real corpus whose repetition each synthetic note kind copies
REAL_FOR = {"radiology": "IU chest X-ray reports", "discharge": "ACI-BENCH notes"}

RUNNER = r"""
import json, resource, sys, time
t0 = time.perf_counter()
from cuelex import bench
args = json.loads(sys.argv[1])
t1 = time.perf_counter()
res = bench.build(args["inputs"], workers=args["workers"], work_dir=args.get("work_dir"), chunk_size=args["chunk_size"],
                  output=args["output"], per_type=200, seed=0, progress=False, restart=True)
t2 = time.perf_counter()
kb = 1024  # ru_maxrss is in KiB on Linux
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({
    "cpu_main_s": me.ru_utime + me.ru_stime, "cpu_workers_s": kids.ru_utime + kids.ru_stime,
    "import_s": t1 - t0, "build_s": t2 - t1, "total_s": t2 - t0,
    "notes": res.screening["source_documents"], "documents": res.screening["documents"],
    "selected": len(res.documents), "chunks": res.chunks,
    "maxrss_main_mib": peak_rss_mib(),
    "maxrss_worker_mib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / kb,
}))
"""


def run_build(
    inputs: list[Path], workers: int, out: Path, chunk_size: int = 500, work_dir: Path | None = None
) -> dict:
    args = {
        "inputs": [str(p) for p in inputs],
        "workers": workers,
        "chunk_size": chunk_size,
        "output": str(out / "bench.jsonl"),
        "work_dir": str(work_dir) if work_dir else None,
    }
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", PEAK_RSS + RUNNER, json.dumps(args)], capture_output=True, text=True, cwd=ROOT
    )
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"build failed:\n{proc.stderr[-3000:]}")
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    data["wall_s"] = wall
    data["notes_per_s"] = data["notes"] / wall
    data["documents_per_s"] = data["documents"] / wall
    return data


def loadavg() -> str:
    try:
        return ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def fmt_h(seconds: float) -> str:
    h, rem = divmod(seconds, 3600)
    return f"{int(h)} h {int(rem // 60):02d} min"


# ----------------------------------------------------------------------------- repetition of real notes


def real_corpora() -> dict[str, list[str]]:
    """The real notes whose repetition the synthetic kinds copy, without the documents of the
    accuracy sets' report half (benchmark/data/realtext/documents.jsonl): IU chest X-ray reports
    (findings + impression, from ``../shared``; absent on machines without it) and the ACI-BENCH
    notes shipped with cuelex."""
    report = {d["doc_id"] for d in ec.read_jsonl(rd.DOCS_FILE) if d.get("split") == "report"}
    out: dict[str, list[str]] = {}
    if rd.IU_FILE.exists():
        out["radiology"] = [
            rd.iu_text({"findings": r.get("findings") or "", "impression": r.get("impression") or ""})
            for r in ec.read_jsonl(rd.IU_FILE)
            if (r.get("findings") or r.get("impression")) and f"iu:{r['uid']}" not in report
        ]
    out["discharge"] = [
        r["text"] for r in ec.read_jsonl(ACI_FILE) if f"aci:{r['id']}" not in report
    ]
    return out


def sentences_of(texts: list[str]) -> list[str]:
    """The sentences of ``texts`` in order, as cuelex's clinical splitter cuts them (the unit of
    its extraction memo)."""
    import cuelex

    split = cuelex.get_engine().splitter.split
    return [t[a:b] for t in texts for a, b in split(t)]


def seen_before(sentences: list[str], points: list[int]) -> list[float]:
    """Share of the first ``n`` sentences that occurred earlier among them, for each ``n`` of
    ``points`` (ascending)."""
    seen: set[str] = set()
    out, repeats = [], 0
    want = iter(points)
    n_next = next(want, None)
    for i, s in enumerate(sentences, 1):
        repeats += s in seen
        seen.add(s)
        while n_next is not None and i == n_next:
            out.append(repeats / i)
            n_next = next(want, None)
    return out


def synthetic_sentences(kind: str, params: tuple[float, float], n: int, seed: int) -> list[str]:
    """The first ``n`` sentences of synthetic notes of ``kind`` made with ``params``."""
    rng = random.Random(seed)
    process = Repetition(*params)
    make = discharge_note if kind == "discharge" else radiology_note
    out: list[str] = []
    while len(out) < n:
        out.extend(sentences_of([make(rng, process)]))
    return out[:n]


def corpus_repetition(folder: Path) -> dict[str, dict]:
    """Share of sentences and of non-blank lines seen earlier in the same file, per synthetic
    corpus file, and the number of notes. Streamed note by note: only the distinct sentences and
    lines are kept (a 100,000-note corpus read whole took about 1 GB)."""
    import cuelex

    split = cuelex.get_engine().splitter.split
    out = {}
    for path in sorted(folder.glob("*.csv.gz")):
        notes = n_sents = n_lines = sent_repeats = line_repeats = 0
        seen_sents: set[str] = set()
        seen_lines: set[str] = set()
        with gzip.open(path, "rt", encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh):
                text = row["text"]
                notes += 1
                for a, b in split(text):
                    sent = text[a:b]
                    n_sents += 1
                    sent_repeats += sent in seen_sents
                    seen_sents.add(sent)
                for ln in text.split("\n"):
                    line = ln.strip()
                    if line:
                        n_lines += 1
                        line_repeats += line in seen_lines
                        seen_lines.add(line)
        out[path.name.split(".")[0]] = {
            "notes": notes,
            "sentences": n_sents,
            "sentences_seen_before": sent_repeats / n_sents if n_sents else 0.0,
            "lines_seen_before": line_repeats / n_lines if n_lines else 0.0,
        }
    return out


def fit_repetition(kind: str, real: list[str], seed: int = 5) -> dict:
    """(theta, discount) of the Pitman–Yor process that makes synthetic ``kind`` notes repeat their
    sentences as ``real`` does, with the measured curves.

    The discount is the growth exponent of the real corpus's distinct sentences between its first
    half and the whole (``K ~ n ** discount``); theta is then found by bisection (on a log scale)
    so that the synthetic notes' share of sentences seen before, over as many sentences as the
    real corpus has, equals the real share. The quarter and half points are the check.
    """
    n = len(real)
    points = [n // 4, n // 2, n]
    real_curve = seen_before(real, points)
    distinct_half = (1 - real_curve[1]) * points[1]
    distinct_all = (1 - real_curve[2]) * n
    discount = min(0.95, max(0.05, math.log(distinct_all / distinct_half) / math.log(n / points[1])))
    lo, hi = math.log(0.5), math.log(50_000.0)
    for _ in range(14):
        mid = (lo + hi) / 2
        share = seen_before(synthetic_sentences(kind, (math.exp(mid), discount), n, seed), [n])[0]
        if share > real_curve[2]:
            lo = mid  # repeats too much: more new sentences
        else:
            hi = mid
    theta = math.exp((lo + hi) / 2)
    synth_curve = seen_before(synthetic_sentences(kind, (theta, discount), n, seed), points)
    return {
        "theta": theta,
        "discount": discount,
        "sentences": n,
        "points": points,
        "real": real_curve,
        "synthetic": synth_curve,
    }


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--notes", type=int, default=100_000, help="notes in the full run (default 100,000)"
    )
    ap.add_argument(
        "--small",
        type=int,
        default=4_000,
        help="notes per kind for the 1-vs-2-core runs (default 4,000)",
    )
    ap.add_argument(
        "--dir",
        default=str(ROOT / "build" / "bench_scale"),
        help="work folder (default build/bench_scale)",
    )
    ap.add_argument("--skip-full", action="store_true", help="only the 1-vs-2-core runs")
    ap.add_argument(
        "--no-write", action="store_true", help="print, do not rewrite docs/benchmark.md"
    )
    args = ap.parse_args()
    base = Path(args.dir)
    results: dict = {
        "started": time.strftime("%Y-%m-%d %H:%M"),
        "load_before": loadavg(),
        "cpus": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)),
        "python": platform.python_version(),
    }

    # how much the real notes repeat their sentences, and the synthetic notes fitted to it
    repetition: dict[str, tuple[float, float]] = {}
    fits: dict = {}
    for kind, texts in real_corpora().items():
        fit = fit_repetition(kind, sentences_of(texts))
        fits[kind] = fit
        repetition[kind] = (fit["theta"], fit["discount"])
        print(
            f"{kind}: {REAL_FOR[kind]} repeat {', '.join(f'{x:.1%}' for x in fit['real'])} of their first "
            f"{', '.join(f'{n:,}' for n in fit['points'])} sentences; synthetic (theta {fit['theta']:.1f}, "
            f"discount {fit['discount']:.3f}) {', '.join(f'{x:.1%}' for x in fit['synthetic'])}",
            flush=True,
        )
    results["repetition"] = fits

    # start-up cost (import excluded: build() call to return on a 20-note input), per worker count
    tiny = base / "tiny"
    write_corpus(tiny, 20, seed=2, discharge_share=0.0)
    tiny_runs = {
        str(w): run_build([tiny / "radiology.csv.gz"], w, base / f"out_tiny_{w}", chunk_size=10)
        for w in (1, 2)
    }
    startup = {w: r["build_s"] for w, r in tiny_runs.items()}
    startup_cpu = {w: r["cpu_main_s"] + r["cpu_workers_s"] for w, r in tiny_runs.items()}
    results["startup_s"] = startup
    results["startup_cpu_s"] = startup_cpu
    print(
        f"start-up (warm index, fork and warm workers): {startup['1']:.1f} s with 1 worker, {startup['2']:.1f} s with 2",
        flush=True,
    )

    # small corpora, one per note kind (same generator; a different seed from the full corpus)
    rates: dict = {}
    for kind, share in (("discharge", 1.0), ("radiology", 0.0)):
        n = (
            args.small if kind == "radiology" else args.small // 4
        )  # discharge summaries are ~10x longer
        folder = base / f"small_{kind}"
        write_corpus(folder, n, seed=1, discharge_share=share, repetition=repetition)
        path = folder / f"{kind}.csv.gz"
        for workers in (1, 2):
            r = run_build(
                [path], workers, base / f"out_{kind}_{workers}", chunk_size=max(10, n // 20)
            )
            r["steady_notes_per_s"] = r["notes"] / max(r["build_s"] - startup[str(workers)], 1e-9)
            r["steady_documents_per_s"] = r["documents"] / max(
                r["build_s"] - startup[str(workers)], 1e-9
            )
            r["cpu_ms_per_note"] = (
                1000
                * (r["cpu_main_s"] + r["cpu_workers_s"] - startup_cpu[str(workers)])
                / r["notes"]
            )
            r["concurrency"] = (
                r["cpu_main_s"] + r["cpu_workers_s"] - startup_cpu[str(workers)]
            ) / max(r["build_s"] - startup[str(workers)], 1e-9)
            rates[f"{kind}_{workers}"] = r
            print(
                f"{kind:9s} workers={workers}: {r['notes']:,} notes, {r['documents']:,} section documents in "
                f"{r['wall_s']:.1f} s: {r['notes_per_s']:.1f} notes/s end to end, {r['steady_notes_per_s']:.1f} "
                f"notes/s ({r['steady_documents_per_s']:.1f} documents/s) after start-up; {r['cpu_ms_per_note']:.1f} CPU ms/note, "
                f"{r['concurrency']:.2f} cores busy",
                flush=True,
            )
    results["rates"] = rates

    # projection for MIMIC-IV-Note from the steady two-worker rates (start-up is negligible at that size)
    proj = (
        MIMIC_DISCHARGE / rates["discharge_2"]["steady_notes_per_s"]
        + MIMIC_RADIOLOGY / rates["radiology_2"]["steady_notes_per_s"]
    )
    proj1 = (
        MIMIC_DISCHARGE / rates["discharge_1"]["steady_notes_per_s"]
        + MIMIC_RADIOLOGY / rates["radiology_1"]["steady_notes_per_s"]
    )
    results["projection_s_2_workers"] = proj
    results["projection_s_1_worker"] = proj1
    cpu = (
        MIMIC_DISCHARGE * rates["discharge_2"]["cpu_ms_per_note"]
        + MIMIC_RADIOLOGY * rates["radiology_2"]["cpu_ms_per_note"]
    ) / 1000
    results["projection_cpu_s"] = cpu
    print(
        f"CPU time for MIMIC-IV-Note: {fmt_h(cpu)}; on two otherwise idle cores {fmt_h(cpu / 2)}",
        flush=True,
    )
    print(
        f"projected for MIMIC-IV-Note (2,653,149 notes): {fmt_h(proj)} on 2 workers, {fmt_h(proj1)} on 1",
        flush=True,
    )

    if not args.skip_full:
        corpus = base / "full"
        marker = base / "full.json"
        wanted = {"notes": args.notes, "repetition": {k: list(v) for k, v in repetition.items()}}
        if not marker.is_file() or json.loads(marker.read_text()) != wanted:
            write_corpus(corpus, args.notes, seed=0, repetition=repetition)
            marker.write_text(json.dumps(wanted))
        results["full_repetition"] = corpus_repetition(corpus)
        r = run_build(
            [corpus / "discharge.csv.gz", corpus / "radiology.csv.gz"],
            2,
            base / "out_full",
            work_dir=base / "work_full",
        )
        results["full"] = r
        print(
            f"full: {r['notes']:,} notes ({r['documents']:,} section documents) in {r['wall_s']:.0f} s = "
            f"{r['notes_per_s']:.1f} notes/s, {r['documents_per_s']:.1f} documents/s; peak RSS main "
            f"{r['maxrss_main_mib']:.0f} MiB, largest worker {r['maxrss_worker_mib']:.0f} MiB",
            flush=True,
        )
    results["load_after"] = loadavg()
    (ROOT / "build").mkdir(exist_ok=True)
    (ROOT / "build" / "bench_scale.json").write_text(json.dumps(results, indent=2))
    block = render(results)
    print(block)
    if not args.no_write:
        ec.write_block(DOC, "scale", block)
        print(f"updated {DOC}")


def render(res: dict) -> str:
    rows = []
    for kind in ("discharge", "radiology"):
        for w in (1, 2):
            r = res["rates"][f"{kind}_{w}"]
            rows.append(
                f"| {kind} | {w} | {r['notes']:,} | {r['documents']:,} | {r['wall_s']:.1f} | "
                f"{r['notes_per_s']:.1f} | {r['steady_notes_per_s']:.1f} | {r['steady_documents_per_s']:.1f} | "
                f"{r['cpu_ms_per_note']:.1f} | {r['concurrency']:.2f} |"
            )
    d1, d2 = res["rates"]["discharge_1"], res["rates"]["discharge_2"]
    r1, r2 = res["rates"]["radiology_1"], res["rates"]["radiology_2"]
    lines = [
        f"Measured {res['started']} on {res['usable_cpus']} usable cores (AMD EPYC, shared: load average "
        f"{res['load_before']} before and {res['load_after']} after the runs), Python {res['python']}.",
        "",
        "| input | workers | notes | section documents | wall s | notes/s end to end | notes/s after start-up | documents/s after start-up | CPU ms per note | cores busy |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        *rows,
        "",
        f"Start-up (from the `build()` call: opening the concept index, forking and warming the workers; Python "
        f"imports excluded): {res['startup_s']['1']:.1f} s with one worker, {res['startup_s']['2']:.1f} s with two. "
        f"Speed-up from the second core after start-up: {d2['steady_notes_per_s'] / d1['steady_notes_per_s']:.2f}x on "
        f"discharge summaries, {r2['steady_notes_per_s'] / r1['steady_notes_per_s']:.2f}x on radiology reports.",
        "",
        f"**Projected for MIMIC-IV-Note** (331,794 discharge summaries + 2,321,355 radiology reports) from these "
        f"rates: **{fmt_h(res['projection_s_2_workers'])} on two cores** ({fmt_h(res['projection_s_1_worker'])} on one). "
        f"From CPU time instead of wall time (independent of the other load on the machine): "
        f"{fmt_h(res['projection_cpu_s'])} of CPU, **{fmt_h(res['projection_cpu_s'] / 2)} on two otherwise idle cores**.",
    ]
    if res.get("repetition"):
        parts = []
        for kind, fit in res["repetition"].items():
            parts.append(
                f"{kind} notes copy the {REAL_FOR[kind]} ({fit['sentences']:,} sentences, the report half of the "
                f"accuracy sets left out), which repeat {', '.join(f'{x:.1%}' for x in fit['real'])} of their first "
                f"{', '.join(f'{n:,}' for n in fit['points'])} sentences; the synthetic {kind} notes "
                f"{', '.join(f'{x:.1%}' for x in fit['synthetic'])} (theta {fit['theta']:.1f}, discount "
                f"{fit['discount']:.3f})"
            )
        lines += [
            "",
            "**Repetition.** cuelex memoises extraction per sentence and linking per window, so a corpus "
            "that repeats itself more than real notes measures the memos, not the extraction. The synthetic "
            "body sentences therefore follow a Pitman–Yor process fitted to real notes "
            "(`make_synthetic_corpus.py`, `bench_scale.py --help`): its discount is the growth exponent of the "
            "real corpus's distinct sentences (first half to whole), its theta is set by bisection so that the "
            "share of sentences seen earlier matches the real share at the real corpus's size, and the "
            "quarter and half points are the check. Measured in this run: " + "; ".join(parts) + ". "
            "The share grows with the corpus as in real text, so a 100,000-note corpus repeats more than "
            "these samples; MIMIC-IV-Note itself may repeat more or less than this extrapolation.",
        ]
    if "full" in res:
        f = res["full"]
        lines += [
            "",
            f"**{f['notes']:,}-note synthetic corpus** (12.5 % discharge summaries; {f['documents']:,} section documents, "
            f"{f['chunks']} chunks of 500 notes, 2 workers, work directory on): {fmt_h(f['wall_s'])} "
            f"({f['wall_s']:.0f} s), {f['notes_per_s']:.1f} notes/s, {f['documents_per_s']:.1f} section documents/s. "
            f"Peak resident memory: main process {f['maxrss_main_mib']:.0f} MiB, largest worker "
            f"{f['maxrss_worker_mib']:.0f} MiB (about {f['maxrss_main_mib'] + 2 * f['maxrss_worker_mib']:.0f} MiB for the three "
            "processes together, counting shared pages once per process).",
        ]
    if "full_repetition" in res:
        lines += [
            "",
            "Repetition of that corpus (share seen earlier in the same file): "
            + "; ".join(
                f"{kind} {r['notes']:,} notes, {r['sentences']:,} sentences, {r['sentences_seen_before']:.1%} of "
                f"sentences and {r['lines_seen_before']:.1%} of non-blank lines"
                for kind, r in res["full_repetition"].items()
            )
            + ".",
        ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
