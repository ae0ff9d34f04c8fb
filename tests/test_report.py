"""The HTML report: offsets, fates, escaping, CLI; and a real headless-Chromium check."""

from __future__ import annotations

import argparse
import base64
import html as html_lib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from cuelex.report import (
    LEVEL_COLORS,
    add_report_subparser,
    load_input,
    render,
    render_corpus,
    render_report,
    render_run,
)
from cuelex.scoring import score, score_frame

ROOT = Path(__file__).resolve().parents[1]
EVIL = '<script>window.__pwned=1;document.title="PWNED"</script>'
SOURCE = (
    "Impression:\r\n1. Possible pneumonia. No effusion or pneumothorax.\n"
    f"2. Rule out PE. {EVIL} \U0001f600 Likely atelectasis at the base.\n"
    '3. Fracture cannot be excluded. <img src=x onerror="window.__pwned=2">'
)
OUTPUT = (
    "Pneumonia. No effusion. \U0001f600 Atelectasis is possible. Evaluate for fracture. "
    f"<b>bold</b> {EVIL}"
)


@pytest.fixture(scope="module")
def report():
    return score(SOURCE, OUTPUT, n_boot=50, doc_id="note-1")


@pytest.fixture(scope="module")
def page(report):
    return render_report(report)


def _data(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="cuelex-data">(.*?)</script>', page, re.S)
    assert m
    return json.loads(m.group(1))


def test_page_is_self_contained(page):
    assert page.startswith("<!DOCTYPE html>")
    # no external asset of any kind
    assert not re.search(r'(src|href)\s*=\s*"(https?:)?//', page)
    assert "<link" not in page and "@import" not in page and "url(" not in page


def test_clinical_text_is_escaped(page):
    assert EVIL not in page
    assert "<b>bold</b>" not in page
    assert "&lt;script&gt;window.__pwned=1" in page
    assert "onerror=&quot;window" in page
    # exactly the two scripts of the page: the JSON data block and the small interaction script
    assert len(re.findall(r"<script", page)) == 2
    # the JSON data block cannot close its <script> early
    m = re.search(r'id="cuelex-data">(.*?)</script>', page, re.S)
    assert "<" not in m.group(1)


def test_every_pair_is_highlighted_at_its_offsets(report, page):
    data = _data(page)
    anns = {a["id"]: a for a in data["annotations"]}
    for i, p in enumerate(report.pairs):
        s = p.source
        assert anns[f"s{i}-cue"]["start"] == s.cue_start and anns[f"s{i}-cue"]["text"] == s.cue_text
        assert anns[f"s{i}-tgt"]["start"] == s.target_start
        assert anns[f"s{i}-tgt"]["text"] == s.target_text
        if p.match is not None:
            o = anns[f"o{i}-tgt"]
            assert (o["start"], o["end"]) == (p.match.start, p.match.end)
            assert OUTPUT[o["start"] : o["end"]] == o["text"]
            assert f'id="out-p{i}"' in page
            assert f'href="#out-p{i}"' in page
            if p.output_cue is not None:
                assert anns[f"o{i}-cue"]["start"] == p.output_cue.start
        else:
            assert f"o{i}-tgt" not in anns
    assert data["fates"] == [p.fate for p in report.pairs]
    assert {"preserved", "certainty_asserted", "over_hedged", "dropped"} <= set(data["fates"])
    # UTF-16 offsets (what the browser counts) shift after the emoji
    emoji_at = SOURCE.index("\U0001f600")
    later = [a for a in data["annotations"] if a["side"] == "source" and a["start"] > emoji_at]
    assert later and all(a["js_start"] == a["start"] + 1 for a in later)


def test_metrics_summary_at_the_top(report, page):
    top = page[: page.index('<div class="panes">')]
    for name in ("TRR", "URR", "CAR", "PCR", "OHR"):
        assert f'data-metric="{name}"' in top
    assert f"{100 * report.trr:.1f}%" in top
    assert f"{100 * report.car:.1f}%" in top


def test_json_round_trip_and_cli(report, tmp_path):
    path = tmp_path / "score.json"
    report.to_json(path, include_text=True)
    kind, data = load_input(path)
    assert kind == "document"
    assert _data(render_report(data))["annotations"] == _data(render_report(report))[
        "annotations"
    ] or len(report.output_pairs)  # in memory the output-only pairs are shown as well
    parser = argparse.ArgumentParser(prog="cuelex")
    add_report_subparser(parser.add_subparsers(dest="command"))
    out = tmp_path / "r" / "report.html"
    args = parser.parse_args(["report", str(path), "-o", str(out)])
    assert args.func(args) == 0
    assert "&lt;script&gt;" in out.read_text(encoding="utf-8")


def test_bad_inputs_are_named(report, tmp_path):
    d = report.to_dict()  # no texts
    with pytest.raises(ValueError, match="no source/output text"):
        render_report(d)
    d = report.to_dict(include_text=True)
    d["pairs"][0]["cue_start"] += 1
    with pytest.raises(ValueError, match=r"pair 0 .*do not index"):
        render_report(d)
    d = report.to_dict(include_text=True)
    d["pairs"][0]["target_end"] = len(SOURCE) + 5
    with pytest.raises(ValueError, match="outside the source text"):
        render_report(d)
    d = report.to_dict(include_text=True)
    d["pairs"][1]["fate"] = "lost"
    with pytest.raises(ValueError, match="unknown fate 'lost'"):
        render_report(d)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_input(bad)
    other = tmp_path / "other.json"
    other.write_text('{"a": 1}', encoding="utf-8")
    with pytest.raises(ValueError, match="not a cuelex score JSON"):
        load_input(other)
    with pytest.raises(FileNotFoundError):
        load_input(tmp_path / "missing.json")
    with pytest.raises(TypeError, match="ScoreReport"):
        render_report(42)


def test_corpus_json(tmp_path):
    df = pd.DataFrame(
        {
            "source": ["Possible pneumonia.", f"No effusion. {EVIL}"],
            "output": ["Pneumonia.", "No effusion."],
            "model": ["a", "b"],
        }
    )
    res = score_frame(df, group_cols=["model"], n_boot=20, progress=False)
    path = tmp_path / "corpus.json"
    res.to_json(path)
    kind, data = load_input(path)
    assert kind == "corpus"
    page = render_corpus(data)
    assert "certainty_asserted" in page and "By group" in page
    assert EVIL not in page and "&lt;script&gt;" in page
    assert render(path) == page


RUN = pd.DataFrame(
    {
        "system": ["gpt", "gpt", "copy", "copy"],
        "task": ["summarization", "revision"] * 2,
        "condition": ["baseline"] * 4,
        "TRR": [0.9, 0.8, 1.0, 1.0],
        "URR": [0.5, 0.6, 1.0, 1.0],
        "CAR": [0.3, 0.2, 0.0, 0.0],
        "PCR": [0.1, 0.1, 0.0, 0.0],
        "OHR": [0.1, 0.1, 0.0, 0.0],
        "URR_ci_low": [0.4, 0.5, 1.0, 1.0],
        "URR_ci_high": [0.6, 0.7, 1.0, 1.0],
    }
)


def test_run_page_with_plots(tmp_path):
    png = base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
    )
    page = render_run(
        RUN,
        {
            "svg": '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>',
            "png": png,
            "b64": base64.b64encode(png).decode(),
        },
    )
    assert page.count("<svg") == 1 and "<?xml" not in page
    assert page.count("data:image/png;base64,") == 2
    assert "[40.0\u201360.0]" in page  # URR CI of gpt / summarization
    assert page.index(">copy<") < page.index(">gpt<")  # sorted by system
    with pytest.raises(ValueError, match=r"lacks column\(s\) \['condition'\]"):
        render_run(RUN.drop(columns="condition"))
    with pytest.raises(ValueError, match="not SVG"):
        render_run(RUN, {"x": "not an image"})
    csv = tmp_path / "run.csv"
    RUN.to_csv(csv, index=False)
    page = render(csv)  # draws the metric bars when matplotlib is there
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "<svg" not in page and ">copy<" in page
    else:
        assert "<svg" in page and "metrics by system" in page
    assert "<svg" not in render(csv, plots=False)


# --------------------------------------------------------------------------------------------------
# headless Chromium
# --------------------------------------------------------------------------------------------------

VALIDATOR = (Path(__file__).with_name("report_check.js")).read_text(encoding="utf-8")


def _chromium() -> str:
    for name in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    pytest.skip("chromium is not installed (apt-get install -y chromium): browser check skipped")


def _chrome_args(tmp_path: Path) -> list[str]:
    return [
        _chromium(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--hide-scrollbars", f"--user-data-dir={tmp_path / 'profile'}",
    ]  # fmt: skip


def _dump_checked(page: str, tmp_path: Path) -> dict:
    i = page.rfind("</body>")
    checked = page[:i] + f"<script>{VALIDATOR}</script>" + page[i:]
    f = tmp_path / "checked.html"
    f.write_text(checked, encoding="utf-8")
    proc = subprocess.run(
        [*_chrome_args(tmp_path), "--window-size=1400,1000", "--dump-dom", f.as_uri()],
        capture_output=True,
        timeout=90,
    )
    dom = proc.stdout.decode("utf-8")
    m = re.search(r'<pre id="cuelex-check">(.*?)</pre>', dom, re.S)
    assert m, f"chromium produced no check result (rc {proc.returncode}): {proc.stderr[-2000:]!r}"
    return json.loads(html_lib.unescape(m.group(1)))


def _rgb(hex_colour: str) -> str:
    h = hex_colour.lstrip("#")
    return "rgb({}, {}, {})".format(*(int(h[k : k + 2], 16) for k in (0, 2, 4)))


def test_report_in_headless_chromium(report, page, tmp_path):
    res = _dump_checked(page, tmp_path)
    assert res["errors"] == []
    # escaping holds: nothing from the notes ran, and the tags show as text
    assert res["pwned"] is False and res["title"] == "cuelex report: note-1"
    assert res["elements_in_panes"] == 0
    assert res["source_text"] == SOURCE  # the pane's text is the note, CR, emoji and all
    assert res["output_text"] == OUTPUT
    assert EVIL in res["source_text"]
    anns = res["annotations"]
    assert len(anns) == len(_data(page)["annotations"]) >= 2 * len(report.pairs)
    for a in anns:
        where = f"{a['side']} {a['id']}"
        assert a["found"] >= 1, f"{where}: no highlight in the page"
        assert a["contiguous"], where
        assert (a["start"], a["end"]) == (a["expected_start"], a["expected_end"]), where
        assert a["text"] == a["expected_text"], where
        assert a["visible"], where
        if a["kind"] == "cue":
            assert a["background"] == _rgb(LEVEL_COLORS[a["level"]]), where
        else:
            assert a["underline"], where
    marks = res["fate_marks"]
    assert [m["fate"] for m in marks] == [p.fate for p in report.pairs]
    assert all(m["target_exists"] for m in marks)
    assert all(m["mark"] not in ("none", "normal", '""') for m in marks)


def test_screenshot_of_demo_report(tmp_path):
    src = (ROOT / "docs" / "examples" / "source.txt").read_text(encoding="utf-8")
    out = (ROOT / "docs" / "examples" / "output.txt").read_text(encoding="utf-8")
    page = render_report(score(src, out, n_boot=100, doc_id="source"))
    res = _dump_checked(page, tmp_path)
    assert res["errors"] == [] and all(
        (a["start"], a["end"]) == (a["expected_start"], a["expected_end"])
        for a in res["annotations"]
    )
    f = tmp_path / "demo.html"
    f.write_text(page, encoding="utf-8")
    shot = tmp_path / "report.png"
    subprocess.run(
        [*_chrome_args(tmp_path), "--window-size=1400,1000", f"--screenshot={shot}", f.as_uri()],
        capture_output=True,
        timeout=90,
    )
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 20_000  # a real page, not a blank one
    # the screenshot in the docs is of this demo (regenerate: see docs/reports.md)
    assert (ROOT / "docs" / "img" / "report.png").stat().st_size > 20_000
