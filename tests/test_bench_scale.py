"""Benchmark builder at scale: worker processes, resuming an interrupted run, Dask, Spark-style batches."""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from cuelex import bench
from cuelex.bench import BenchError

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "fixtures" / "bench"
PER_TYPE = 30


def _synthetic():
    spec = importlib.util.spec_from_file_location(
        "make_synthetic_corpus", ROOT / "benchmark" / "make_synthetic_corpus.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """A synthetic MIMIC-shaped radiology file (made by benchmark/make_synthetic_corpus.py) and its
    benchmark from one uninterrupted single-process run: the reference every other run must match."""
    folder = tmp_path_factory.mktemp("corpus")
    counts = _synthetic().write_corpus(folder, 300, seed=11, discharge_share=0.0)
    assert counts == {"discharge": 0, "radiology": 300}
    path = folder / "radiology.csv.gz"
    ref = folder / "reference.jsonl"
    result = bench.build(path, per_type=PER_TYPE, output=ref, chunk_size=300)
    assert result.chunks == 1 and len(result.documents) == 2 * PER_TYPE
    return path, ref


def _chunk_files(work: Path) -> dict[str, tuple[int, int]]:
    return {
        p.name: (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in (work / "chunks").glob("*.jsonl.gz")
    }


def test_two_workers_and_any_chunk_size_give_the_reference_bytes(corpus, tmp_path):
    path, ref = corpus
    seen = []
    result = bench.build(
        path,
        per_type=PER_TYPE,
        output=tmp_path / "b.jsonl",
        workers=2,
        chunk_size=7,
        on_chunk=seen.append,
    )
    assert (tmp_path / "b.jsonl").read_bytes() == ref.read_bytes()
    assert result.chunks == len(seen) == 43  # ceil(300 / 7)
    assert sum(s.source_documents for s in seen) == 300
    assert len({s.chunk for s in seen}) == 43  # every chunk exactly once


def test_interrupted_run_resumes_without_redoing_or_duplicating(corpus, tmp_path):
    path, ref = corpus
    work, out = tmp_path / "work", tmp_path / "b.jsonl"
    calls = []

    def interrupt(summary):
        calls.append(summary)
        if len(calls) == 4:
            raise RuntimeError("injected failure after 4 chunks")

    with pytest.raises(RuntimeError, match="injected failure"):
        bench.build(
            path,
            per_type=PER_TYPE,
            output=out,
            workers=2,
            chunk_size=10,
            work_dir=work,
            on_chunk=interrupt,
        )
    assert not out.exists()
    before = _chunk_files(work)
    assert 4 <= len(before) < 30  # chunks in flight when it failed were finished and kept
    assert json.loads((work / "manifest.json").read_text())["finished"] is False

    seen = []
    result = bench.build(
        path,
        per_type=PER_TYPE,
        output=out,
        workers=2,
        chunk_size=10,
        work_dir=work,
        on_chunk=seen.append,
    )
    assert out.read_bytes() == ref.read_bytes()  # nothing lost, nothing twice
    assert result.chunks == 30 and result.chunks_resumed == len(before)
    assert sorted(s.chunk for s in seen if s.resumed) == sorted(
        n.removesuffix(".jsonl.gz") for n in before
    )
    assert len([s for s in seen if not s.resumed]) == 30 - len(before)
    after = _chunk_files(work)
    assert len(after) == 30
    assert {n: after[n] for n in before} == before  # finished chunks were not rewritten
    assert json.loads((work / "manifest.json").read_text())["finished"] is True


KILLED_RUN = """
import sys
from cuelex import bench
bench.build(sys.argv[1], per_type=int(sys.argv[2]), output=sys.argv[3], workers=2, chunk_size=3, work_dir=sys.argv[4], progress=False)
"""


@pytest.mark.slow
def test_killed_run_resumes_to_the_reference(corpus, tmp_path):
    path, ref = corpus
    work, out = tmp_path / "work", tmp_path / "b.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_RUN, str(path), str(PER_TYPE), str(out), str(work)],
        start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while len(_chunk_files(work) if (work / "chunks").is_dir() else {}) < 5:
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
            assert time.monotonic() < deadline, "the run did not get going"
            time.sleep(0.01)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the run and its worker processes, mid-way
        proc.wait()
    time.sleep(0.2)
    before = _chunk_files(work)
    assert 5 <= len(before) < 100, "the run should have been killed part-way through its 100 chunks"
    assert not out.exists()
    for name in before:  # every chunk file left behind is complete
        with gzip.open(work / "chunks" / name, "rt") as fh:
            assert json.loads(fh.read().splitlines()[-1])["end"] is True
    result = bench.build(
        path, per_type=PER_TYPE, output=out, workers=2, chunk_size=3, work_dir=work
    )
    assert out.read_bytes() == ref.read_bytes()
    assert result.chunks == 100 and result.chunks_resumed >= len(before)
    assert {n: _chunk_files(work)[n] for n in before} == before


def test_work_dir_refuses_other_settings_and_changed_inputs(tmp_path):
    work = tmp_path / "work"
    small = tmp_path / "small.csv"
    small.write_bytes((FIXTURES / "radiology.csv").read_bytes())
    bench.build(small, per_type=2, work_dir=work, chunk_size=2)
    with pytest.raises(BenchError, match=r"different settings or inputs \(differs in: options\)"):
        bench.build(small, per_type=3, work_dir=work, chunk_size=2)
    with pytest.raises(BenchError, match="differs in: chunk_size"):
        bench.build(small, per_type=2, work_dir=work, chunk_size=3)
    small.write_bytes((FIXTURES / "radiology.csv").read_bytes() + b"\n")  # the input changed
    with pytest.raises(BenchError, match="differs in: inputs"):
        bench.build(small, per_type=2, work_dir=work, chunk_size=2)
    result = bench.build(small, per_type=2, work_dir=work, chunk_size=2, restart=True)
    assert (
        result.chunks_resumed == 0 and len(result.documents) == 2
    )  # "small.csv": generic, one type


def test_a_corrupt_chunk_file_is_processed_again(tmp_path):
    work = tmp_path / "work"
    first = bench.build(
        FIXTURES / "radiology.csv",
        per_type=2,
        work_dir=work,
        chunk_size=2,
        output=tmp_path / "a.jsonl",
    )
    victim = sorted((work / "chunks").glob("*.jsonl.gz"))[1]
    victim.write_bytes(victim.read_bytes()[:40])  # cut short (a disk error; renames make this rare)
    again = bench.build(
        FIXTURES / "radiology.csv",
        per_type=2,
        work_dir=work,
        chunk_size=2,
        output=tmp_path / "b.jsonl",
    )
    assert again.chunks_resumed == first.chunks - 1
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


def test_partition_function_in_spark_style_batches_matches_a_local_build(tmp_path):
    """``mapInPandas`` hands the function an iterator of pandas batches; simulate that here."""
    path = FIXTURES / "radiology.csv"
    local = bench.build(path, per_type=2, input_format="mimic-radiology")
    spec = bench.resolve_spec(None, "mimic-radiology")
    options = bench.BuildOptions(per_type=2)
    frame = pd.read_csv(path, dtype=str)

    def map_in_pandas(batches):
        for batch in batches:
            yield bench.bench_partition(batch, spec, options, str(path))

    batches = [frame.iloc[i : i + 2] for i in range(0, len(frame), 2)]
    outputs = list(map_in_pandas(iter(batches)))
    assert all(list(o.columns) == list(bench.PARTITION_COLUMNS) for o in outputs)
    merged = bench.merge_partitions(outputs, options)
    assert [d.model_dump() for d in merged.documents] == [d.model_dump() for d in local.documents]
    assert merged.screening == local.screening


def test_partition_reports_rows_without_text():
    spec = bench.resolve_spec(None, "generic")
    frame = pd.DataFrame({"id": ["a", "b"], "text": ["Possible PE. No effusion.", None]})
    out = bench.bench_partition(frame, spec, bench.BuildOptions(per_type=5), "mine")
    summary = json.loads(out[out["kind"] == "summary"]["payload"].iloc[0])
    assert summary["problems"] == [["mine", 1, "field 'text' is missing; row skipped"]]
    assert out[out["kind"] == "candidate"]["doc_id"].tolist() == ["a"]


@pytest.mark.slow
def test_dask_map_partitions_on_a_local_cluster_matches_a_local_build(tmp_path):
    dd = pytest.importorskip("dask.dataframe")
    distributed = pytest.importorskip("distributed")
    paths = [FIXTURES / "discharge.csv", FIXTURES / "radiology.csv"]
    local = {p.name: bench.build(p, per_type=2) for p in paths}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster):  # fmt: skip
        for path, fmt in zip(paths, ("mimic-discharge", "mimic-radiology"), strict=True):
            ddf = dd.from_pandas(pd.read_csv(path, dtype=str), npartitions=2)
            result = bench.build_dask(
                ddf,
                input_format=fmt,
                per_type=2,
                source=str(path),
                output=tmp_path / f"{path.stem}.jsonl",
            )
            want = local[path.name]
            assert [d.model_dump() for d in result.documents] == [
                d.model_dump() for d in want.documents
            ]
            assert result.screening == want.screening
            assert len(result.problems) == len(want.problems)  # the discharge row without text
            assert result.chunks == 2
            assert bench.load(tmp_path / f"{path.stem}.jsonl") == want.documents


def test_repetition_process_repeats_as_its_parameters_say_and_is_deterministic():
    """The Pitman–Yor sentence process of the scale corpus: a fixed seed gives the same draws, a
    new sentence never equals an earlier one (details are added until it differs), and lower theta
    or discount means more sentences seen before."""
    import random

    mod = _synthetic()

    def run(theta: float, discount: float, seed: int = 4) -> list[str]:
        rng = random.Random(seed)
        proc = mod.Repetition(theta, discount)
        return [proc.draw(rng, lambda: rng.choice(["No effusion.", "Possible PE."])) for _ in range(3000)]

    def repeated(draws: list[str]) -> float:
        return 1 - len(set(draws)) / len(draws)

    a = run(50.0, 0.6)
    assert a == run(50.0, 0.6)
    assert 0.3 < repeated(a) < 0.95
    assert repeated(run(5.0, 0.6)) > repeated(a) > repeated(run(500.0, 0.6))
    assert repeated(run(50.0, 0.3)) > repeated(a) > repeated(run(50.0, 0.9))
    firsts = list(dict.fromkeys(a))  # every new sentence differs from all before it
    assert len(firsts) == len(set(firsts)) and all(s.endswith(".") for s in firsts)
    with pytest.raises(ValueError, match="discount"):
        mod.Repetition(1.0, 1.0)


def test_two_workers_match_the_serial_build_on_a_corpus_with_real_repetition(tmp_path):
    mod = _synthetic()
    counts = mod.write_corpus(
        tmp_path / "c", 160, seed=3, discharge_share=0.25,
        repetition={"radiology": (160.0, 0.75), "discharge": (10_000.0, 0.9)},
    )  # fmt: skip
    assert counts == {"discharge": 40, "radiology": 120}
    paths = [tmp_path / "c" / "discharge.csv.gz", tmp_path / "c" / "radiology.csv.gz"]
    serial = bench.build(paths, per_type=20, output=tmp_path / "a.jsonl", chunk_size=500)
    both = bench.build(paths, per_type=20, output=tmp_path / "b.jsonl", workers=2, chunk_size=13)
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert serial.screening == both.screening and both.chunks == 4 + 10  # ceil(40/13) + ceil(120/13)
