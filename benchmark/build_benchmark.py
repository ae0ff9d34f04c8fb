"""Build a five-level cue–target benchmark from a note collection (paper section 3.1).

A thin wrapper around ``cuelex bench build`` (same options, same code: ``cuelex.bench.build``):

    .venv/bin/python benchmark/build_benchmark.py mimic-iv-note/discharge.csv.gz mimic-iv-note/radiology.csv.gz \
        TCGA_Reports.csv --per-type 200 --seed 0 --workers 2 --work-dir build/bench_work -o build/benchmark.jsonl

Then ``cuelex bench stats build/benchmark.jsonl``, ``cuelex bench export-validation`` and
``cuelex bench agreement`` for the human validation. See docs/benchmark.md.
"""

from __future__ import annotations

import sys

from cuelex.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", "build", *sys.argv[1:]]))
