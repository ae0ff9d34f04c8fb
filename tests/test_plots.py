"""Plots: SVG and PNG from run tables, confusion matrices, iterations and level lists."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pandas as pd
import pytest

pytest.importorskip("matplotlib", reason='plots need matplotlib: pip install "cuelex[plots]"')

from cuelex import plots as P
from cuelex.scoring import score, score_frame

RUN = pd.DataFrame(
    [
        {
            "system": s,
            "task": t,
            "condition": c,
            "TRR": 0.9,
            "URR": u,
            "CAR": 0.2,
            "PCR": 0.1,
            "OHR": 0.1,
            "URR_ci_low": u - 0.1,
            "URR_ci_high": u + 0.05,
        }
        for s, u in (("gpt", 0.6), ("copy", 0.9))
        for t in ("summarization", "revision")
        for c in ("baseline", "guarded")
    ]
)


def _svg_ok(svg: str) -> ET.Element:
    root = ET.fromstring(svg.encode("utf-8"))  # well-formed XML
    assert root.tag.endswith("svg")
    return root


def test_backend_untouched_on_import():
    code = (
        "import matplotlib; matplotlib.use('svg'); import cuelex.plots as P; "
        "P.level_distribution(['UL1']); print(matplotlib.get_backend())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "svg"


def test_metric_bars_svg_png_and_file(tmp_path):
    svg = P.metric_bars(RUN)
    _svg_ok(svg)
    assert "summarization / baseline" in svg and "revision / guarded" in svg
    png = P.metric_bars(RUN, fmt="png")
    assert png.startswith(b"\x89PNG")
    out = P.metric_bars(RUN, path=tmp_path / "bars.svg")
    _svg_ok((tmp_path / "bars.svg").read_text(encoding="utf-8"))
    _svg_ok(out)
    # CI whiskers: one errorbar line collection per (panel with CI columns) x group
    fig = P.metric_bars(RUN, metrics=("URR",), fmt="figure")
    assert any(c.__class__.__name__ == "LineCollection" for c in fig.axes[0].collections)
    with pytest.raises(ValueError, match=r"missing column\(s\) \['OHR'\]"):
        P.metric_bars(RUN.drop(columns="OHR"))
    with pytest.raises(ValueError, match="no rows"):
        P.metric_bars(RUN.iloc[:0])
    with pytest.raises(ValueError, match="fmt must be"):
        P.metric_bars(RUN, fmt="jpg")
    with pytest.raises(ValueError, match=r"\.svg, \.png or \.pdf"):
        P.metric_bars(RUN, path=tmp_path / "bars.gif")


def test_confusion_heatmap_from_every_source(tmp_path):
    r = score("Possible pneumonia. No effusion. Likely atelectasis.", "Pneumonia. No effusion.",
              n_boot=0)  # fmt: skip
    svgs = [P.confusion_heatmap(x) for x in (r, r.metrics, r.metrics.confusion, r.to_dict(),
                                            r.to_frame())]  # fmt: skip
    for svg in svgs:
        _svg_ok(svg)
    fig = P.confusion_heatmap(r, fmt="figure")
    texts = sorted(t.get_text() for t in fig.axes[0].texts)
    assert texts == ["1", "1", "1"]  # UL3->ASSERTED, UL1->UL1, UL2->DROPPED
    res = score_frame(pd.DataFrame({"source": ["No PE."], "output": ["PE."]}), n_boot=0,
                      progress=False)  # fmt: skip
    _svg_ok(P.confusion_heatmap(res))
    with pytest.raises(ValueError, match="no pairs"):
        P.confusion_heatmap(pd.DataFrame({"UL1": [0]}, index=["UL1"]))
    with pytest.raises(TypeError, match="confusion_heatmap"):
        P.confusion_heatmap(3)


def test_iteration_lines():
    it = pd.DataFrame({"iteration": [0, 1, 2] * 2, "URR": [1, .8, .6, 1, .9, .85],
                       "CAR": [0, .1, .3, 0, .05, .1], "system": ["a"] * 3 + ["b"] * 3,
                       "URR_ci_low": [1, .7, .5, 1, .8, .8], "URR_ci_high": [1, .9, .7, 1, 1, .9]})  # fmt: skip
    fig = P.iteration_lines(it, fmt="figure")
    labels = [line.get_label() for line in fig.axes[0].lines]
    assert labels == ["URR · a", "CAR · a", "URR · b", "CAR · b"]
    assert list(fig.axes[0].lines[0].get_ydata()) == pytest.approx([100, 80, 60])
    _svg_ok(P.iteration_lines(it.drop(columns="system")))
    with pytest.raises(ValueError, match="iteration"):
        P.iteration_lines(it.drop(columns="iteration"))


def test_level_distribution(tmp_path):
    fig = P.level_distribution(["UL1", "UL1", "ul3", "HEDGED_ABSENT", "5"], fmt="figure")
    heights = {p.get_x(): p.get_height() for p in fig.axes[0].patches}
    assert sorted(heights.values()) == [0, 0, 1, 1, 1, 2]
    assert "n = 5" in fig.axes[0].get_title()
    import cuelex

    frame = cuelex.to_frame(cuelex.extract("Possible pneumonia. No effusion or pneumothorax."))
    _svg_ok(P.level_distribution(frame))
    with pytest.raises(ValueError, match="item 1: unknown level 'UL9'"):
        P.level_distribution(["UL1", "UL9"])
    with pytest.raises(ValueError, match="'level' or 'source_level'"):
        P.level_distribution(pd.DataFrame({"x": [1]}))
    with pytest.raises(TypeError):
        P.level_distribution("UL1")


def test_plots_command(tmp_path):
    run = tmp_path / "run.csv"
    RUN.to_csv(run, index=False)
    r = score("Possible pneumonia. No effusion.", "Pneumonia. No effusion.", n_boot=0)
    js = tmp_path / "score.json"
    r.to_json(js, include_text=True)
    assert P.main([str(run), "-o", str(tmp_path / "a")]) == 0
    assert P.main([str(js), "-o", str(tmp_path / "b"), "--format", "svg"]) == 0
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["metrics.png", "metrics.svg"]
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == ["confusion.svg", "levels.svg"]
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n", encoding="utf-8")
    assert P.main([str(bad), "-o", str(tmp_path / "c")]) == 2
    with pytest.raises(ValueError, match="nothing to plot"):
        P.plots_for(bad, tmp_path / "c")
    assert json.loads(js.read_text())["pairs"]
