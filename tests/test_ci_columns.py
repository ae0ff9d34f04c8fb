"""Issue 10 (finding 5): one name for confidence-interval columns (``<metric>_ci_low`` /
``<metric>_ci_high``) from ``cuelex bench score`` through ``cuelex report`` and ``cuelex plots``."""

from __future__ import annotations

import re

import pandas as pd
import pytest

import cuelex
from cuelex import runner
from cuelex.report import CI_SUFFIXES, render_run

TEXTS = [
    "Possible pneumonia. No pleural effusion.",
    "Findings likely represent atelectasis. Rule out pulmonary embolism.",
    "Cannot exclude fracture of the left wrist.",
    "No evidence of pneumothorax. Indeterminate hepatic lesion.",
]


def _drop_first_cue(prompt: str) -> str:
    text = prompt.rsplit("\n\n", 1)[1].rstrip("\n")
    pairs = cuelex.extract(text)
    if not pairs:
        return text
    return text[: pairs[0].cue_start] + text[pairs[0].cue_end :]


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> pd.DataFrame:
    bench = [
        {"id": f"d{i}", "text": t, "pairs": cuelex.extract(t, doc_id=f"d{i}", deduplicate=True)}
        for i, t in enumerate(TEXTS)
    ]
    cache = tmp_path_factory.mktemp("run") / "run.jsonl"
    runner.run(bench, _drop_first_cue, cache=cache, tasks=["revision"], conditions=["baseline"],
               progress=False)  # fmt: skip
    return runner.score_run(cache, n_boot=200).table


def test_bench_score_writes_the_one_ci_naming(table):
    assert CI_SUFFIXES == ("_ci_low", "_ci_high")
    for m in ("TRR", "URR", "CAR", "PCR", "OHR"):
        assert {f"{m}_ci_low", f"{m}_ci_high"} <= set(table.columns)
    assert not [c for c in table.columns if c.endswith(("_lo", "_hi"))]


def test_run_report_shows_percentages_with_their_intervals(table):
    page = render_run(table)
    urr, lo, hi = (float(table.loc[0, c]) for c in ("URR", "URR_ci_low", "URR_ci_high"))
    assert lo < urr < hi  # the fixture has a real interval
    assert f"{100 * urr:.1f}%" in page
    assert f"[{100 * lo:.1f}\u2013{100 * hi:.1f}]" in page
    # no raw floats (0.3384615384615385) and no CI columns of their own
    assert not re.search(r">\s*0\.\d{5,}", page)
    assert "URR_ci_low" not in page
    assert "class='table-wrap'" in page and ".table-wrap{max-width:100%;overflow-x:auto}" in page


@pytest.mark.parametrize("via", ["cuelex plots", "RunScores.plot"])
def test_run_plot_has_error_bars(table, tmp_path, via):
    pytest.importorskip("matplotlib")
    from matplotlib.container import ErrorbarContainer

    from cuelex import plots

    if via == "cuelex plots":  # the CSV `cuelex bench score -o` writes, read back by the plots
        csv = tmp_path / "table2.csv"
        table.to_csv(csv, index=False)
        fig = plots.metric_bars(pd.read_csv(csv), fmt="figure")
    else:
        fig = runner.plot_table(table, group_cols=("system", "task", "condition"))
    urr_ax = next(ax for ax in fig.axes if ax.get_title() == "URR")
    errorbars = [c for c in urr_ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(errorbars) == 1  # one system, one task x condition
    segments = errorbars[0].lines[2][0].get_segments()
    (low, high) = segments[0][:, 1]
    assert low == pytest.approx(100 * table.loc[0, "URR_ci_low"])
    assert high == pytest.approx(100 * table.loc[0, "URR_ci_high"])
