"""cuelex.runner: run fake systems end to end, cache, resume after a kill, truncated cache, Table 2."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections import Counter

import pandas as pd
import pytest

import cuelex
from cuelex import runner

TEXTS = [
    "Possible pneumonia. No pleural effusion.",
    "Findings likely represent atelectasis. Rule out pulmonary embolism.",
    "Cannot exclude fracture of the left wrist.",
    "No evidence of pneumothorax. Indeterminate hepatic lesion.",
    "Mild cardiomegaly. Concern for early appendicitis.",
    "Evaluate for cholecystitis. Fatty liver is likely.",
]


def make_benchmark(texts=TEXTS):
    """A small benchmark built with cuelex.extract (gold pairs = cuelex's deduplicated pairs)."""
    docs = []
    for i, t in enumerate(texts):
        pairs = cuelex.extract(t, doc_id=f"d{i}", deduplicate=True)
        assert pairs, t
        docs.append({"id": f"d{i}", "text": t, "doc_type": "radiology" if i % 2 else "note", "pairs": pairs})
    return docs


def body(prompt: str) -> str:
    """The document text of a rendered RQ1 prompt ({{input_text}} is the last paragraph)."""
    return prompt.rsplit("\n\n", 1)[1].rstrip("\n")


def copy(prompt: str) -> str:
    return body(prompt)


def delete_cues(prompt: str) -> str:
    text = body(prompt)
    for a, b in sorted({(p.cue_start, p.cue_end) for p in cuelex.extract(text)}, reverse=True):
        text = text[:a] + text[b:]
    return text


class Counting:
    """A system that counts its calls per prompt."""

    def __init__(self, name="counting"):
        self.name = name
        self.calls: Counter[str] = Counter()
        self.lock = threading.Lock()

    def __call__(self, prompt: str) -> str:
        with self.lock:
            self.calls[prompt] += 1
        return body(prompt)


@pytest.fixture(scope="module")
def bench():
    return make_benchmark()


def test_prompts_are_the_papers():
    p = runner.load_prompt("summarization", "guarded")
    assert p.template.startswith("You are a clinical handoff assistant")
    assert "Do not convert uncertain or hedged statements into definite statements." in p.template
    assert "Do not convert" not in runner.load_prompt("revision", "baseline").template
    assert runner.render(p.template, input_text="XYZ").endswith("XYZ\n")
    assert runner.render("Text: {{input text}}", input_text="a") == "Text: a"
    with pytest.raises(ValueError, match="input_text"):
        runner.render("no placeholder", input_text="a")
    with pytest.raises(ValueError, match="no shipped prompt"):
        runner.load_prompt("translation", "baseline")
    single = runner.load_prompt("direct", "single").template
    assert "{{target_id}}" in single and '"uncertainty_level"' in single


def test_end_to_end_copy_and_delete(tmp_path, bench):
    cache = tmp_path / "run.jsonl"
    r1 = runner.run(bench, copy, cache=cache, progress=False)
    r2 = runner.run(bench, delete_cues, cache=cache, progress=False)
    assert (r1.called, r1.cached, r1.failed) == (24, 0, 0)
    assert (r2.called, r2.failed) == (24, 0)
    assert set(r1.records["status"]) == {"ok"}
    scores = runner.score_run(cache, n_boot=50)
    t = scores.table.set_index(["system", "task", "condition"])
    assert len(t) == 8
    n_pairs = sum(len(d["pairs"]) for d in bench)
    for key, row in t.iterrows():
        assert row["n_documents"] == len(bench)
        assert row["n_pairs"] == n_pairs
        assert row["TRR"] == 1.0
        if key[0] == "copy":
            assert (row["URR"], row["CAR"], row["PCR"], row["OHR"]) == (1.0, 0.0, 0.0, 0.0)
        else:
            assert (row["URR"], row["CAR"], row["PCR"], row["OHR"]) == (0.0, 1.0, 0.0, 0.0)
        assert row["URR_ci_low"] <= row["URR"] <= row["URR_ci_high"]
    out = scores.to_csv(tmp_path / "table2.csv")
    back = pd.read_csv(out)
    assert list(back.columns[:5]) == ["system", "task", "condition", "n_documents", "n_pairs"]
    assert "CAR_ci_high" in back.columns
    pytest.importorskip("matplotlib")
    png = scores.plot(tmp_path / "table2.png")
    assert png.stat().st_size > 1000


def test_rerun_calls_nothing_and_new_prompt_is_a_new_key(tmp_path, bench):
    cache = tmp_path / "run.jsonl"
    sys1 = Counting()
    runner.run(bench, sys1, cache=cache, tasks=["summarization"], conditions=["baseline"], progress=False)
    sys2 = Counting()
    again = runner.run(bench, sys2, cache=cache, tasks=["summarization"], conditions=["baseline"], progress=False)
    assert sum(sys2.calls.values()) == 0 and again.cached == len(bench)
    mine = {("summarization", "baseline"): "Shorten this:\n\n{{input_text}}"}
    sys3 = Counting()
    third = runner.run(bench, sys3, cache=cache, tasks=["summarization"], conditions=["baseline"],
                       prompts=mine, progress=False)
    assert third.called == len(bench) and all(p.startswith("Shorten this:") for p in sys3.calls)
    # scoring takes the latest output per (doc, task, condition, system)
    assert runner.score_run(cache, n_boot=0).table["n_documents"].tolist() == [len(bench)]


class Boom(BaseException):
    """Stands in for Ctrl-C / a crash: not an Exception, so the runner does not swallow it."""


def test_interrupt_midway_then_resume_computes_each_key_once(tmp_path, bench):
    cache = tmp_path / "run.jsonl"
    calls: Counter[str] = Counter()
    lock = threading.Lock()
    k = 7

    def flaky(prompt):
        with lock:
            calls[prompt] += 1
            n = sum(calls.values())
        if n > k:
            raise Boom()
        return body(prompt)

    flaky.__name__ = "sys"
    with pytest.raises(Boom):
        runner.run(bench, flaky, cache=cache, max_workers=2, progress=False)
    saved = runner.load_run(cache).done_keys()
    assert k - 2 <= len(saved) <= k  # every returned answer was saved
    counting = Counting(name="sys")
    res = runner.run(bench, counting, cache=cache, max_workers=3, progress=False)
    assert res.cached == len(saved) and res.called == 24 - len(saved)
    # the rerun never called a key saved by the interrupted run, and called every other key once
    saved_shas = {key[-1] for key in saved}
    assert not {runner._sha(p) for p in counting.calls} & saved_shas
    assert set(counting.calls.values()) == {1}
    rc = runner.load_run(cache)
    oks = Counter(tuple(r[f] for f in runner._KEY_FIELDS) for r in rc.results if r["status"] == "ok")
    assert len(oks) == 24 and set(oks.values()) == {1}


KILL_SCRIPT = textwrap.dedent(
    """
    import sys, time, json
    from cuelex import runner
    docs = [json.loads(l) for l in open(sys.argv[1])]
    def slow(prompt):
        time.sleep(0.05)
        return prompt.rsplit("\\n\\n", 1)[1]
    slow.__name__ = "slow"
    print("started", flush=True)
    runner.run(docs, slow, cache=sys.argv[2], max_workers=2, progress=False)
    """
)


def test_killed_subprocess_then_resume(tmp_path):
    docs = [{"id": f"n{i}", "text": f"Possible pneumonia number {i}. No effusion."} for i in range(30)]
    src = tmp_path / "bench.jsonl"
    src.write_text("".join(json.dumps(d) + "\n" for d in docs))
    cache = tmp_path / "run.jsonl"
    script = tmp_path / "kill_me.py"
    script.write_text(KILL_SCRIPT)
    proc = subprocess.Popen([sys.executable, str(script), str(src), str(cache)], stdout=subprocess.PIPE)
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            if cache.exists() and cache.read_text().count('"type": "result"') >= 15:
                break
            assert proc.poll() is None, "the run finished or died before it could be killed"
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(10)
    before = runner.load_run(cache)
    n_before = len(before.done_keys())
    assert 15 <= n_before < 120
    counting = Counting(name="slow")
    res = runner.run(str(src), counting, cache=cache, progress=False)
    assert res.called == 120 - n_before and res.cached == n_before
    assert set(counting.calls.values()) == {1}
    after = runner.load_run(cache)
    oks = Counter(tuple(r[f] for f in runner._KEY_FIELDS) for r in after.results if r["status"] == "ok")
    assert len(oks) == 120 and set(oks.values()) == {1}


def test_truncated_last_line_is_reported_and_ignored(tmp_path, bench):
    cache = tmp_path / "run.jsonl"
    runner.run(bench[:3], copy, cache=cache, tasks="summarization", conditions="baseline", progress=False, limit=2)
    with open(cache, "ab") as fh:  # a crash in mid-write
        fh.write(b'{"type": "result", "doc_id": "d9", "task": "summ')
    rc = runner.load_run(cache)
    assert len(rc.results) == 2
    assert len(rc.problems) == 1 and "truncated last line" in str(rc.problems[0])
    # the next run writes on a fresh line and the fragment stays an isolated, ignored line
    res = runner.run(bench[:3], copy, cache=cache, tasks="summarization", conditions="baseline", progress=False)
    assert (res.called, res.cached) == (1, 2)
    assert any("truncated" in p for p in res.problems)
    rc = runner.load_run(cache)
    assert len(rc.results) == 3 and len(rc.problems) == 1
    assert "unreadable line" in str(rc.problems[0])
    assert runner.score_run(cache, n_boot=0).problems


def test_failures_are_retried_then_recorded_and_the_run_goes_on(tmp_path, bench):
    cache = tmp_path / "run.jsonl"
    attempts: Counter[str] = Counter()

    def shaky(prompt):
        attempts[prompt] += 1
        if "pneumothorax" in prompt:
            raise RuntimeError("always fails")
        if "atelectasis" in prompt and attempts[prompt] < 3:
            raise ConnectionError("transient")
        return body(prompt)

    res = runner.run(bench, shaky, cache=cache, tasks="revision", conditions="baseline",
                     retries=2, backoff=0.001, progress=False)
    assert (res.called, res.failed) == (6, 1)
    rec = res.records.set_index("doc_id")
    assert rec.loc["d3", "status"] == "failed" and "RuntimeError: always fails" in rec.loc["d3", "error"]
    assert rec.loc["d3", "attempts"] == 3 and rec.loc["d1", "attempts"] == 3
    assert rec.loc["d1", "status"] == "ok"
    scores = runner.score_run(cache, n_boot=0)
    assert scores.table["n_documents"].tolist() == [5] and scores.table["n_failed"].tolist() == [1]
    # a rerun retries only the failed key
    counting = Counting(name="shaky")
    again = runner.run(bench, counting, cache=cache, tasks="revision", conditions="baseline", progress=False)
    assert (again.called, again.cached, again.failed) == (1, 5, 0)


def test_not_retryable_and_bad_outputs(tmp_path, bench):
    class Fatal(Exception):
        retryable = False

    n = Counter()

    def bad(prompt):
        n["calls"] += 1
        if "pneumonia" in prompt:
            raise Fatal("401")
        return None  # not text

    res = runner.run(bench[:2], bad, cache=tmp_path / "c.jsonl", tasks="revision", conditions="guarded",
                     retries=3, backoff=0.001, progress=False)
    assert res.failed == 2
    errors = res.records.set_index("doc_id")["error"]
    assert "Fatal" in errors["d0"] and "not text" in errors["d1"]
    assert n["calls"] == 1 + 1  # neither Fatal nor a None answer is retried (same answer again)


def test_bad_arguments(tmp_path, bench):
    with pytest.raises(ValueError, match="stable name"):
        runner.run(bench, lambda p: p, cache=tmp_path / "c.jsonl")
    with pytest.raises(ValueError, match="repeated"):
        runner.run([{"id": 1, "text": "a"}, {"id": 1, "text": "b"}], copy, cache=tmp_path / "c.jsonl")
    with pytest.raises(ValueError, match="needs an 'id'"):
        runner.run([{"text": "a"}], copy, cache=tmp_path / "c.jsonl")
    with pytest.raises(ValueError, match="input_text"):
        runner.run(bench, copy, cache=tmp_path / "c.jsonl", prompts={"summarization/baseline": "nothing"})
    with pytest.raises(FileNotFoundError):
        runner.score_run(tmp_path / "missing.jsonl")


def test_cache_lock_refuses_a_second_writer(tmp_path):
    pytest.importorskip("fcntl")
    a = runner.RunCache(tmp_path / "c.jsonl")
    a.open()
    try:
        with pytest.raises(RuntimeError, match="in use"):
            runner.RunCache(tmp_path / "c.jsonl").open()
    finally:
        a.close()


def test_iterations_chain_outputs(tmp_path, bench):
    seen = []

    def shout(prompt):
        seen.append(body(prompt))
        return body(prompt) + "!"

    res = runner.run(bench[:1], shout, cache=tmp_path / "c.jsonl", tasks="revision", conditions="baseline",
                     iterations=3, progress=False)
    assert res.called == 3
    assert seen == [bench[0]["text"], bench[0]["text"] + "!", bench[0]["text"] + "!!"]


def test_cli_run_and_score(tmp_path, bench, capsys):
    src = tmp_path / "bench.jsonl"
    src.write_text("".join(json.dumps({"id": d["id"], "text": d["text"]}) + "\n" for d in bench[:3]))
    ident = tmp_path / "ident.txt"
    ident.write_text("{{input_text}}")
    from cuelex.cli import build_parser

    parser = build_parser()  # the real command line: cuelex bench run / cuelex bench score
    cache = tmp_path / "run.jsonl"
    args = parser.parse_args(["bench", "run", str(src), "--system", "copy", "--tasks", "revision", "--conditions",
                              "baseline", "--prompt", f"revision/baseline={ident}", "--cache", str(cache), "-q"])
    assert args.func(args) == 0
    out_csv = tmp_path / "t.csv"
    args = parser.parse_args(["bench", "score", str(cache), "-o", str(out_csv), "--n-boot", "0",
                              "--plot", str(tmp_path / "p.png"), "-q"])
    assert args.func(args) == 0
    t = pd.read_csv(out_csv)
    assert t.loc[0, "URR"] == 1.0 and t.loc[0, "system"] == "copy_system"
    with pytest.raises(ValueError, match="base-url"):
        args = parser.parse_args(["bench", "run", str(src), "--cache", str(cache)])
        args.func(args)


def test_no_clinical_text_logged_above_debug(tmp_path, bench, caplog):
    def failing(prompt):
        raise RuntimeError("server echoed: " + prompt)

    with caplog.at_level("INFO", logger="cuelex"):
        runner.run(bench[:1], failing, cache=tmp_path / "c.jsonl", tasks="revision", conditions="baseline",
                   retries=1, backoff=0.001, progress=False)
    assert caplog.records
    assert all("pneumonia" not in r.getMessage() for r in caplog.records)


def test_cuelex_bench_file_end_to_end(tmp_path):
    bench_mod = pytest.importorskip("cuelex.bench")
    from cuelex.levels import Level

    docs = []
    for i, t in enumerate(TEXTS[:4]):
        pairs = tuple(cuelex.extract(t, doc_id=f"b{i}", deduplicate=True))
        present = {p.level for p in pairs}
        levels = tuple(lv for lv in Level if lv in present)
        docs.append(bench_mod.BenchDocument(
            schema_version=bench_mod.SCHEMA_VERSION, doc_id=f"b{i}", doc_type="radiology", source_id=f"b{i}",
            text=t, n_words=bench_mod.count_words(t), levels=levels, n_levels=len(levels), pairs=pairs,
        ))
    path = bench_mod.write_benchmark(docs, tmp_path / "bench.jsonl")
    assert [d.doc_id for d in bench_mod.load(path)] == ["b0", "b1", "b2", "b3"]
    cache = tmp_path / "run.jsonl"
    runner.run(path, copy, cache=cache, tasks="revision", conditions="guarded", progress=False)
    runner.run(docs, delete_cues, cache=cache, tasks="revision", conditions="guarded", progress=False)
    t = runner.score_run(cache, n_boot=0).table.set_index("system")
    n_pairs = sum(len(d.pairs) for d in docs)
    assert t.loc["copy", "n_pairs"] == n_pairs and t.loc["copy", "URR"] == 1.0
    assert t.loc["delete_cues", "CAR"] == 1.0 and t.loc["delete_cues", "n_documents"] == 4
