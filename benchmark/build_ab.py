"""A/B of the benchmark build: a git revision's ``cuelex.bench.build`` against the working tree's,
same inputs, output files compared byte for byte.

Run from the repository root (offline; a few minutes on a shared machine):
    .venv/bin/python benchmark/build_ab.py [--rev main] [--notes 3000] [--workers 2] [--chunk 250]

The revision's ``cuelex`` package and its lexicons and rules are exported with ``git archive``
into a temporary folder and imported from there (the editable install's finder is taken out of
``sys.meta_path`` in that process, so nothing of the working tree leaks in). A synthetic
MIMIC-IV-Note-shaped corpus of ``--notes`` notes (``make_synthetic_corpus.py``, 12.5 % discharge
summaries, sentences repeated by a Pitman–Yor process so that the memos are both hit and missed)
is built by each side in a fresh process with ``--workers`` workers and ``--chunk``-note chunks.
The benchmark JSONL and its ``.stats.json``/``.stats.md`` must be identical; the script exits 1
when they differ. Both sides' CPU time (main process and workers) and peak resident memory are
printed with their ratios, and the load average: on a shared machine the ratios, not the
seconds, are the comparison.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_synthetic_corpus import write_corpus  # noqa: E402

#: Pitman–Yor (theta, discount) of the corpus: any values that make sentences both repeat and
#: stay new will do for an identity check (these are near bench_scale.py's fitted ones).
REPETITION = {"radiology": (137.0, 0.76), "discharge": (9300.0, 0.91)}

#: Peak resident memory of the running process in MiB, as code for the runner scripts
#: (``build_ab.py``, ``build_profile.py``, ``bench_scale.py``): ``VmHWM`` of ``/proc/self/status``,
#: the high-water mark of this process's own memory. Not ``ru_maxrss``: Linux carries a process's
#: ``ru_maxrss`` over ``execve``, so a runner started by ``subprocess`` reports at least the peak of
#: the script that started it (``bench_scale.py``'s 100,000-note corpus read whole: 993 MiB).
PEAK_RSS = r"""
def peak_rss_mib():
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
"""

RUNNER = r"""
import json, resource, sys, time
args = json.loads(sys.argv[1])
if args["code"]:
    sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
    sys.path.insert(0, args["code"])
t0 = time.perf_counter()
import cuelex
from cuelex import bench
assert cuelex.__file__.startswith(args["code"] or args["root"]), cuelex.__file__
res = bench.build(args["inputs"], workers=args["workers"], chunk_size=args["chunk"], output=args["output"],
                  per_type=args["per_type"], seed=0, progress=False, restart=True, work_dir=args["work_dir"])
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall_s": time.perf_counter() - t0, "cpu_main_s": me.ru_utime + me.ru_stime,
                  "cpu_workers_s": kids.ru_utime + kids.ru_stime, "maxrss_main_mib": peak_rss_mib(),
                  "maxrss_worker_mib": kids.ru_maxrss / 1024, "notes": res.screening["source_documents"]}))
"""


def export(rev: str, into: Path) -> Path:
    """The package, lexicons and rules of ``rev`` under ``into`` (lexicons and rules where an
    uninstalled ``cuelex`` looks for them: beside the package)."""
    tar = into / "rev.tar"
    subprocess.run(
        ["git", "archive", "--format=tar", "-o", str(tar), rev, "cuelex", "lexicons", "rules"],
        cwd=ROOT,
        check=True,
    )
    with tarfile.open(tar) as tf:
        tf.extractall(into / "code", filter="data")
    return into / "code"


def run(code: Path | None, inputs: list[Path], out: Path, args: argparse.Namespace) -> dict:
    spec = {
        "code": str(code) if code else "",
        "root": str(ROOT),
        "inputs": [str(p) for p in inputs],
        "workers": args.workers,
        "chunk": args.chunk,
        "per_type": args.per_type,
        "output": str(out / "bench.jsonl"),
        "work_dir": str(out / "work"),
    }
    proc = subprocess.run(
        [sys.executable, "-c", PEAK_RSS + RUNNER, json.dumps(spec)], capture_output=True, text=True, cwd=ROOT
    )
    if proc.returncode != 0:
        raise SystemExit(f"build failed ({'old' if code else 'new'}):\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--rev", default="main", help="the old revision (default main)")
    ap.add_argument("--notes", type=int, default=3000, help="notes in the corpus (default 3,000)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--chunk", type=int, default=250, help="notes per chunk (default 250)")
    ap.add_argument(
        "--per-type", type=int, default=50, help="documents per type (default 50: chunks prune)"
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cuelex-build-ab-") as tmp:
        base = Path(tmp)
        write_corpus(base / "corpus", args.notes, seed=3, repetition=REPETITION)
        inputs = [base / "corpus" / "discharge.csv.gz", base / "corpus" / "radiology.csv.gz"]
        code = export(args.rev, base)
        load = os.getloadavg()
        old = run(code, inputs, base / "old", args)
        new = run(None, inputs, base / "new", args)
        load_after = os.getloadavg()
        names = ["bench.jsonl", "bench.stats.json", "bench.stats.md"]
        same = [filecmp.cmp(base / "old" / n, base / "new" / n, shallow=False) for n in names]
        print(f"{old['notes']:,} notes, {args.workers} workers, chunks of {args.chunk}; load average "
              f"{load[0]:.1f} before, {load_after[0]:.1f} after")
        for k in ("cpu_main_s", "cpu_workers_s", "wall_s", "maxrss_main_mib", "maxrss_worker_mib"):
            print(f"  {k:18s} old {old[k]:9.1f}  new {new[k]:9.1f}  old/new {old[k] / max(new[k], 1e-9):.2f}")
        for n, s in zip(names, same, strict=True):
            print(f"  {n}: {'identical' if s else 'DIFFERENT'}")
        if not all(same):
            raise SystemExit(1)


if __name__ == "__main__":
    main()
