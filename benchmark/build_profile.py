"""Where a benchmark build's time and memory go: one worker's steps, and the main process.

Run from the repository root (offline; minutes on a shared machine):
    .venv/bin/python benchmark/build_profile.py --notes 3000            # synthetic corpus made here
    .venv/bin/python benchmark/build_profile.py --inputs A.csv.gz B.csv.gz [--skip-worker]

1. **Worker.** The chunks of the inputs are processed in this process as a worker does
   (``_run_chunk``: sections, extraction, linking, deduplication, screening, records, the chunk
   file) under cProfile (CPU time), after a warm-up chunk and with the memos then emptied; the
   cumulative time of each step is printed as a share of the chunks' time.
2. **Main process.** A build with ``--workers`` workers in a fresh process, its resident memory
   sampled every half second (``/proc/self/statm``), with CPU time of the main process and of the
   workers, and the number of candidates the workers send to the main process (what its
   ``Selector`` holds). Its peak is ``VmHWM`` (``build_ab.PEAK_RSS``), not ``ru_maxrss``, which
   a process started by ``subprocess`` inherits from the script that started it.

The synthetic corpus (``make_synthetic_corpus.py``; 12.5 % discharge summaries, sentences repeated
by a Pitman–Yor process) uses ``build_ab.REPETITION``. Printed only.
"""

from __future__ import annotations

import argparse
import cProfile
import gzip
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_ab import PEAK_RSS, REPETITION  # noqa: E402
from make_synthetic_corpus import write_corpus  # noqa: E402

#: (label, pstats function name pattern) of the steps of a worker's chunk
STEPS = (
    ("sections", "screening.py", "_units"),
    ("extraction", "engine.py", "extract"),
    ("linking", "linking.py", "link"),
    ("deduplication", "dedup.py", "deduplicate"),
    ("word count", "format.py", "count_words"),
    ("records to JSON", "main.py", "model_dump_json"),
    ("chunk file (gzip write)", "gzip.py", "write"),
    ("chunk file (fsync)", "~", "<built-in method posix.fsync>"),
)
#: the steps above that are the pipeline's (the rest of a chunk is the build's own work)
PIPELINE = ("sections", "extraction", "linking", "deduplication")

SAMPLER = r"""
import json, resource, sys, threading, time
args = json.loads(sys.argv[1])
t0 = time.perf_counter()
samples = []
def sample():
    while True:
        with open("/proc/self/statm") as fh:
            samples.append((time.perf_counter() - t0, int(fh.read().split()[1]) * 4096 / 2**20))
        time.sleep(0.5)
threading.Thread(target=sample, daemon=True).start()
from cuelex import bench
t1 = time.perf_counter()
res = bench.build(args["inputs"], workers=args["workers"], chunk_size=args["chunk"], work_dir=args["work_dir"],
                  output=args["output"], per_type=200, seed=0, progress=False, restart=True)
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"import_s": t1 - t0, "wall_s": time.perf_counter() - t0, "build_end_s": time.perf_counter() - t0,
                  "cpu_main_s": me.ru_utime + me.ru_stime, "cpu_workers_s": kids.ru_utime + kids.ru_stime,
                  "maxrss_main_mib": peak_rss_mib(), "maxrss_worker_mib": kids.ru_maxrss / 1024,
                  "notes": res.screening["source_documents"], "samples": samples}))
"""


def profile_worker(inputs: list[Path], chunk: int) -> None:
    """Step shares of one worker's chunks (cProfile; a warm-up chunk first)."""
    from cuelex.bench.builder import _chunked, _ChunkTask, _run_chunk
    from cuelex.bench.inputs import InputOptions
    from cuelex.bench.screening import BuildOptions, _Pipeline
    from cuelex.corpus import read_documents

    options = BuildOptions()
    pipe = _Pipeline(options, own_linker=True).warm()
    tasks = []
    with tempfile.TemporaryDirectory(prefix="cuelex-build-profile-") as tmp:
        for i, path in enumerate(inputs):
            spec = InputOptions().spec(path)
            docs = read_documents(
                path, text_col=spec.text_col, id_col=spec.id_col, type_col=spec.type_col
            )
            for n, part in enumerate(_chunked(docs, chunk)):
                cid = f"{i:03d}-{n:07d}"
                tasks.append(
                    _ChunkTask(cid, str(path), part, spec, options, {}, Path(tmp) / f"{cid}.jsonl.gz")
                )
        _run_chunk(tasks[0], pipe)  # warm-up: the scanner's pattern groups compiled
        pipe.engine.clear_memo()  # then cold memos, as in a worker's first chunk
        if pipe.linker is not None:
            pipe.linker.clear_memo()
        prof = cProfile.Profile(time.process_time)  # CPU time: the machine may be shared
        prof.enable()
        for t in tasks:
            _run_chunk(t, pipe)
        prof.disable()
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    cum = {}
    for (file, _line, name), (_cc, _nc, _tt, ct, _callers) in stats.items():
        cum[(Path(file).name, name)] = cum.get((Path(file).name, name), 0.0) + ct
    total = cum[("builder.py", "_run_chunk")]
    notes = sum(len(t.docs) for t in tasks)
    print(f"worker: {notes:,} notes in {len(tasks)} chunks, {total:.1f} CPU s under cProfile "
          f"({1000 * total / notes:.2f} ms a note with the profiler's overhead)")
    for label, file, name in STEPS:
        t = cum.get((file, name), 0.0)
        print(f"  {label:26s} {t:7.2f} s  {t / total:6.1%}")
    rest = total - sum(cum.get((f, n), 0.0) for label, f, n in STEPS if label in PIPELINE)
    print(f"  {'all but the four above':26s} {rest:7.2f} s  {rest / total:6.1%}")


def profile_main(inputs: list[Path], workers: int, chunk: int) -> None:
    """Memory and CPU of the main process of a ``workers``-worker build."""
    with tempfile.TemporaryDirectory(prefix="cuelex-build-profile-") as tmp:
        spec = {"inputs": [str(p) for p in inputs], "workers": workers, "chunk": chunk,
                "work_dir": str(Path(tmp) / "work"), "output": str(Path(tmp) / "bench.jsonl")}  # fmt: skip
        proc = subprocess.run(
            [sys.executable, "-c", PEAK_RSS + SAMPLER, json.dumps(spec)],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        if proc.returncode != 0:
            raise SystemExit(f"build failed:\n{proc.stderr[-3000:]}")
        r = json.loads(proc.stdout.strip().splitlines()[-1])
        candidates = 0
        for p in sorted((Path(tmp) / "work" / "chunks").glob("*.jsonl.gz")):
            with gzip.open(p, "rt", encoding="utf-8") as fh:
                candidates += sum(1 for _ in fh) - 2  # header and end marker
    rss = r["samples"]
    step = max(1, len(rss) // 12)
    print(f"main process, {workers} workers, {r['notes']:,} notes: CPU main {r['cpu_main_s']:.1f} s, "
          f"workers {r['cpu_workers_s']:.1f} s ({r['cpu_main_s'] / (r['cpu_main_s'] + r['cpu_workers_s']):.1%} "
          f"in the main process); peak RSS main {r['maxrss_main_mib']:.0f} MiB, largest worker "
          f"{r['maxrss_worker_mib']:.0f} MiB; candidates sent to the main process {candidates:,}")
    print("  main RSS (s, MiB): " + ", ".join(f"{t:.0f} {m:.0f}" for t, m in rss[::step] + rss[-1:]))


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--inputs", nargs="*", type=Path, help="input files (default: a synthetic corpus)")
    ap.add_argument("--notes", type=int, default=3000, help="notes of the synthetic corpus")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--chunk", type=int, default=500, help="notes per chunk (default 500)")
    ap.add_argument("--skip-main", action="store_true", help="only the worker profile")
    ap.add_argument("--skip-worker", action="store_true", help="only the main process's build")
    args = ap.parse_args()
    print(f"load average before: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="cuelex-build-corpus-") as tmp:
        inputs = args.inputs
        if not inputs:
            write_corpus(Path(tmp), args.notes, seed=0, repetition=REPETITION)
            inputs = [Path(tmp) / "discharge.csv.gz", Path(tmp) / "radiology.csv.gz"]
        if not args.skip_worker:
            profile_worker(inputs, args.chunk)
        if not args.skip_main:
            profile_main(inputs, args.workers, args.chunk)
    print(f"load average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
