"""bench_scale.py's measurements: the corpus repetition counted note by note, and the runners'
peak memory read from the process itself (``ru_maxrss`` carries the starting script's peak)."""

from __future__ import annotations

import csv
import gzip
import json
import subprocess
import sys
from pathlib import Path

from _helpers import bench_module

bs = bench_module("bench_scale")
ba = bench_module("build_ab")
msc = bench_module("make_synthetic_corpus")


def test_corpus_repetition_streamed_equals_the_lists(tmp_path: Path) -> None:
    """The streamed count gives the numbers of the whole-corpus lists it replaced."""
    msc.write_corpus(tmp_path, 60, seed=3, repetition={"radiology": (5.0, 0.5), "discharge": (5.0, 0.5)})
    got = bs.corpus_repetition(tmp_path)
    assert set(got) == {"discharge", "radiology"}
    for path in sorted(tmp_path.glob("*.csv.gz")):
        with gzip.open(path, "rt", encoding="utf-8", newline="") as fh:
            texts = [row["text"] for row in csv.DictReader(fh)]
        sents = bs.sentences_of(texts)
        lines = [ln.strip() for t in texts for ln in t.split("\n") if ln.strip()]
        want = {
            "notes": len(texts),
            "sentences": len(sents),
            "sentences_seen_before": bs.seen_before(sents, [len(sents)])[0],
            "lines_seen_before": bs.seen_before(lines, [len(lines)])[0],
        }
        assert got[path.name.split(".")[0]] == want
        assert 0.0 < want["sentences_seen_before"] < 1.0  # both repeats and new sentences


def test_peak_rss_is_the_runners_own_not_its_parents() -> None:
    """A runner started while this process holds a large block reports its own peak."""
    block = bytearray(300 * 2**20)  # 300 MiB touched in this (parent) process
    block[:: 4096] = b"x" * len(block[:: 4096])
    code = ba.PEAK_RSS + "import json, resource\nprint(json.dumps([peak_rss_mib(), " \
        "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024]))\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    own, _inherited = json.loads(out.stdout)  # (Linux: ``_inherited`` >= 300, the old reading)
    del block
    assert 0 < own < 200  # a bare interpreter, not the parent's 300 MiB
