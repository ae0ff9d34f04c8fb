"""Cost of the optional semantic alignment tier: time per output with and without it.

Run from the repository root (needs ``cuelex[semantic]``):
    .venv/bin/python benchmark/semantic_cost.py [--split tune]

Scores every rewrite of the split's documents (``benchmark/rewrite_eval.py``'s outputs) once with
the default tiers and once with the semantic tier added, in one process, after loading the model
and warming both paths on one output; prints CPU and wall milliseconds per output. The phrases of
an output are embedded once and shared by all its targets (the cache lives on the output index);
each target is encoded once per matcher. No text is printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from realtext_docs import load_documents
from realtext_gold import load_rewrites

import cuelex
from cuelex.scoring.align import DEFAULT_TIERS, Aligner


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["tune", "report", "all"], default="tune")
    args = parser.parse_args(argv)
    docs = {d["doc_id"]: d for d in load_documents() if d["rewrites"]}
    docs = {k: d for k, d in docs.items() if args.split == "all" or d["split"] == args.split}
    outputs = [o for o in load_rewrites()[0] if o["doc_id"] in docs]
    t = time.perf_counter()
    semantic = Aligner([*DEFAULT_TIERS, "semantic"])
    default = Aligner()
    first = outputs[0]
    cuelex.score(docs[first["doc_id"]]["text"], first["text"], n_boot=0, aligner=semantic)
    cuelex.score(docs[first["doc_id"]]["text"], first["text"], n_boot=0, aligner=default)
    print(f"model load and warm-up: {time.perf_counter() - t:.1f} s")
    print(f"{len(outputs)} outputs ({sum(len(o['text']) for o in outputs) // len(outputs)} characters on average)")
    print("| tiers | CPU ms per output (mean) | wall ms per output (mean) | wall ms (median) |")
    print("| --- | --- | --- | --- |")
    for name, al in (("default", default), ("default + semantic", semantic)):
        walls = []
        c0 = time.process_time()
        for o in outputs:
            w0 = time.perf_counter()
            cuelex.score(docs[o["doc_id"]]["text"], o["text"], n_boot=0, aligner=al)
            walls.append(time.perf_counter() - w0)
        cpu = (time.process_time() - c0) / len(outputs)
        print(f"| {name} | {cpu * 1000:.0f} | {statistics.mean(walls) * 1000:.0f} | {statistics.median(walls) * 1000:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
