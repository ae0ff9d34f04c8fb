"""Issue 10: the command line a new user meets — ``python -m cuelex``, ``--version``, stdin, workers,
progress, Ctrl-C, no silent overwrites, ``lexicon check`` and ``bench direct``."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import cuelex
from cuelex.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_python_dash_m_cuelex_and_version(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "cuelex", "--version"], capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"cuelex {cuelex.__version__}"


def test_version_flag_through_main(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"cuelex {cuelex.__version__}"


def test_package_is_marked_typed():
    assert (ROOT / "cuelex" / "py.typed").is_file()


# ------------------------------------------------------------------ cuelex lexicon check

GOOD_LEXICON = """\
description: a user's own cues
entries:
  - id: user.cannot_rule_out_entirely
    cue: "cannot be entirely ruled out"
    pattern: 'cannot\\s+be\\s+entirely\\s+ruled\\s+out'
    level: UL3
    direction: backward
    examples:
      - text: "Pneumonia cannot be entirely ruled out."
        target: "Pneumonia"
"""

# the example expects "pneumonia" but the cue's target is "fever" (the cue is before "fever")
WRONG_EXAMPLE = """\
description: an entry whose example does not come out
entries:
  - id: user.query_forward
    cue: "querying"
    pattern: 'querying'
    level: UL3
    direction: forward
    examples:
      - text: "Querying fever, pneumonia not seen."
        target: "pneumonia"
"""


def test_lexicon_check_passes_a_good_file(tmp_path, capsys):
    f = tmp_path / "mine.yaml"
    f.write_text(GOOD_LEXICON, encoding="utf-8")
    assert main(["lexicon", "check", str(f)]) == 0
    assert "1 file(s), 1 entries, 1 examples: ok" in capsys.readouterr().out


def test_lexicon_check_fails_with_entry_id_and_what_came_out(tmp_path, capsys):
    f = tmp_path / "wrong.yaml"
    f.write_text(WRONG_EXAMPLE, encoding="utf-8")
    assert main(["lexicon", "check", str(f)]) == 1
    captured = capsys.readouterr()
    assert "1 example(s) failed" in captured.out
    (line,) = [ln for ln in captured.err.splitlines() if ln.startswith("FAIL")]
    assert "'user.query_forward'" in line
    assert "expected target 'pneumonia' at UL3" in line
    assert "'fever' UL3 (entry user.query_forward)" in line


def test_lexicon_check_names_invalid_files(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(GOOD_LEXICON.replace("level: UL3", "level: UL9"), encoding="utf-8")
    assert main(["lexicon", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.yaml" in err and "level" in err
    dup = tmp_path / "dup.yaml"
    dup.write_text(GOOD_LEXICON.replace("user.cannot_rule_out_entirely", "ul3.possible"),
                   encoding="utf-8")  # fmt: skip
    assert "ul3.possible" in {e.id for e in cuelex.get_engine().resources.cues}
    assert main(["lexicon", "check", str(dup)]) == 2
    assert "'ul3.possible' already defined" in capsys.readouterr().err
    # alone, the shipped rules still refer to the shipped cue ids: named, not a traceback
    assert main(["lexicon", "check", str(dup), "--alone"]) == 2
    assert "unknown cue id(s)" in capsys.readouterr().err
    assert main(["lexicon", "check", str(tmp_path / "missing.yaml")]) == 2
    assert "missing.yaml: lexicon file not found" in capsys.readouterr().err


# ------------------------------------------------------------------ cuelex extract

NOTES = [
    "Possible pneumonia. No pleural effusion.",
    "Pulmonary embolism cannot be excluded.",
    "Findings likely represent atelectasis.",
    "No evidence of pneumothorax.",
] * 5


def _jsonl(path: Path, texts: list[str]) -> Path:
    path.write_text(
        "".join(json.dumps({"id": f"n{i}", "text": t}) + "\n" for i, t in enumerate(texts)),
        encoding="utf-8",
    )
    return path


def test_extract_workers_give_the_same_pairs_in_order(tmp_path):
    src = _jsonl(tmp_path / "notes.jsonl", NOTES)
    one, two = tmp_path / "one.csv", tmp_path / "two.csv"
    assert main(["extract", str(src), "-o", str(one), "-q"]) == 0
    assert main(["extract", str(src), "-o", str(two), "--workers", "2", "-q"]) == 0
    a, b = pd.read_csv(one), pd.read_csv(two)
    assert len(a) == 25 and a.equals(b)  # 5 pairs per cycle of the 4 notes
    assert list(dict.fromkeys(a["doc_id"])) == [f"n{i}" for i in range(20)]
    assert main(["extract", str(src), "--workers", "0"]) == 2


def test_extract_reads_standard_input(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"Possible pneumonia.\n")))
    assert main(["extract", "-", "-q"]) == 0
    out = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert out[["doc_id", "target_text", "level"]].values.tolist() == [["stdin", "pneumonia", "UL3"]]
    table = "".join(json.dumps({"note_id": f"x{i}", "text": t}) + "\n" for i, t in enumerate(NOTES[:2]))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(table.encode())))
    assert main(["extract", "-", "--stdin-format", "jsonl", "-q"]) == 0
    out = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert list(out["doc_id"]) == ["x0", "x0", "x1"]


def test_extract_shows_a_progress_bar_only_on_a_terminal(tmp_path, monkeypatch, capsys):
    src = _jsonl(tmp_path / "notes.jsonl", NOTES[:3])
    assert main(["extract", str(src), "-o", str(tmp_path / "a.csv")]) == 0
    assert "cuelex extract:" not in capsys.readouterr().err  # not a terminal: no bar

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    fake = Tty()
    monkeypatch.setattr("sys.stderr", fake)
    assert main(["extract", str(src), "-o", str(tmp_path / "b.csv")]) == 0
    assert "\rcuelex extract: " in fake.getvalue() and "doc/s" in fake.getvalue()


def test_ctrl_c_in_extract_keeps_finished_documents(tmp_path, monkeypatch, capsys):
    import cuelex.cli as cli

    src = _jsonl(tmp_path / "notes.jsonl", NOTES[:6])
    real = cli.extract
    calls = {"n": 0}

    def interrupted_on_the_fourth(text, **kw):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(text, **kw)

    monkeypatch.setattr(cli, "extract", interrupted_on_the_fourth)
    out = tmp_path / "pairs.csv"
    assert main(["extract", str(src), "-o", str(out), "-q"]) == 130
    err = capsys.readouterr().err.strip().splitlines()
    partial = out.with_name(out.name + ".partial")
    assert len(err) == 1
    assert err[0].startswith("cuelex: interrupted after 3 document(s); the ")
    assert err[0].endswith(f"finished before it are in {partial}")
    # the output path only ever holds a complete result; finished work is in OUT.partial
    assert not out.exists()
    assert sorted(set(pd.read_csv(partial)["doc_id"])) == ["n0", "n1", "n2"]


def test_ctrl_c_in_any_command_is_one_line_and_130(monkeypatch, capsys):
    import cuelex.plots as plots

    def boom(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(plots, "plots_for", boom)
    assert main(["plots", "whatever.csv"]) == 130
    assert capsys.readouterr().err.strip().splitlines() == [
        "cuelex: interrupted (Ctrl-C); finished work is kept"
    ]


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="watches worker processes in /proc")
def test_sigint_to_a_running_extract_with_workers(tmp_path):
    src = _jsonl(tmp_path / "notes.jsonl", NOTES * 2000)  # 40,000 notes: tens of seconds of work
    out = tmp_path / "pairs.csv"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cuelex", "extract", str(src), "-o", str(out), "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, start_new_session=True,
    )  # fmt: skip
    try:
        # wait until the worker processes exist (imports and engine load are done), then a little more
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if children.exists() and len(children.read_text().split()) >= 2:
                break
            time.sleep(0.2)
        else:
            pytest.fail("the worker processes never started")
        time.sleep(2)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        # a failed or timed-out run must not leave the CLI and its workers running
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cuelex: interrupted after "), err
    n = int(lines[0].split("after ")[1].split(" ")[0])
    assert 0 < n < 40_000
    partial = out.with_name(out.name + ".partial")  # OUT holds only complete results
    assert not out.exists()
    assert pd.read_csv(partial)["doc_id"].nunique() == n  # every finished note has pairs


# ------------------------------------------------------------------ cuelex plots: no overwrites


def test_plots_never_overwrite_silently(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    a = tmp_path / "a" / "pairs.csv"
    b = tmp_path / "b" / "pairs.csv"
    for path, level in ((a, "UL1"), (b, "UL3")):
        path.parent.mkdir()
        pd.DataFrame({"level": [level, "UL2"]}).to_csv(path, index=False)
    out = tmp_path / "plots"
    # two inputs to one folder: each gets its own names
    assert main(["plots", str(a), str(b), "-o", str(out), "--format", "svg"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["a_pairs_levels.svg", "b_pairs_levels.svg"]
    # one input into a folder that already holds its plots: refused, naming the file
    single = tmp_path / "single"
    assert main(["plots", str(a), "-o", str(single), "--format", "svg"]) == 0
    before = (single / "levels.svg").read_bytes()
    capsys.readouterr()
    assert main(["plots", str(b), "-o", str(single), "--format", "svg"]) == 2
    assert "levels.svg already exist" in capsys.readouterr().err
    assert (single / "levels.svg").read_bytes() == before
    assert main(["plots", str(b), "-o", str(single), "--format", "svg", "--overwrite"]) == 0
    assert (single / "levels.svg").read_bytes() != before


# ------------------------------------------------------------------ docs and help in step


def test_api_reference_covers_every_public_module():
    ref = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^::: (cuelex(?:\.\w+)?)\s*$", ref, flags=re.M))
    modules = {
        f"cuelex.{p.stem}" for p in (ROOT / "cuelex").glob("*.py") if not p.stem.startswith("_")
    }
    assert modules - documented == set()


def test_help_and_cli_page_name_only_existing_commands(capsys):
    from cuelex.cli import build_parser

    parser = build_parser()
    help_text = parser.format_help()
    for sub in ("bench", "lexicon"):
        with pytest.raises(SystemExit):
            main([sub, "--help"])
        help_text += capsys.readouterr().out
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for text in (help_text, page):
        assert not re.search(r"cuelex run\b|run-score", text)
    assert "cuelex bench direct" in page and "cuelex lexicon check" in page
    assert "--workers" in page and "--overwrite" in page


# ------------------------------------------------------------------ cuelex bench direct (RQ2)

DIRECT_TEXTS = [
    "No pleural effusion. Likely atelectasis. Possible pneumonia.",
    "Indeterminate hepatic lesion. Rule out pulmonary embolism.",
    "No fracture. Findings consistent with cholecystitis. Concern for appendicitis.",
    "Equivocal for diverticulitis. Evaluate for abscess. No pneumothorax.",
    "Findings suggestive of colitis. Cannot exclude small bowel obstruction.",
    "Nondiagnostic evaluation for renal calculus. Monitor for sepsis.",
]


def test_bench_direct_classifies_and_ranks(tmp_path, capsys):
    bench = _jsonl(tmp_path / "bench.jsonl", DIRECT_TEXTS)
    cache, metrics, items = tmp_path / "direct.jsonl", tmp_path / "m.csv", tmp_path / "items.csv"
    argv = ["bench", "direct", str(bench), "--cache", str(cache), "--per-level", "2",
            "--sizes", "2,3", "--per-size", "3", "-o", str(metrics), "--items-out", str(items), "-q"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    for head in ("ULA", "macro-F1", "f1_UL1", "f1_UL5", "exact-rank", "tau"):
        assert head in out
    m = pd.read_csv(metrics).set_index("setting")
    assert list(m.index) == ["N=1", "N=2", "N=3", "N=2-5"]
    # cuelex's own classifier on pairs cuelex extracted: it agrees with itself
    assert (m["ula"] == 1.0).all() and (m["macro_f1"] == 1.0).all()
    assert m.loc["N=2", "exact_rank_accuracy"] == 1.0 and m.loc["N=3", "kendall_tau"] == 1.0
    assert m.loc["N=1", "n"] == 10 and m.loc["N=2-5", "n_bundles"] == 6
    assert len(pd.read_csv(items)) == 10 + 3 * 2 + 3 * 3
    # a rerun answers from the cache (nothing new is appended)
    size = cache.stat().st_size
    assert main(argv) == 0
    assert cache.stat().st_size == size
    assert main(["bench", "direct", str(bench), "--cache", str(cache), "--system", "openai"]) == 2
    assert "--base-url" in capsys.readouterr().err
