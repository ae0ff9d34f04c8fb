"""Plots of scores and benchmarks (matplotlib; PNG and SVG), for reports and papers.

* :func:`metric_bars` — TRR/URR/CAR/PCR/OHR per system, task and condition, with CI whiskers
* :func:`confusion_heatmap` — the source × output level confusion matrix
* :func:`iteration_lines` — URR and CAR across compounding iterations (rewrite of a rewrite …)
* :func:`level_distribution` — how many cue–target pairs a benchmark has per level

Every function returns SVG text (``fmt="svg"``, the default: embeddable in HTML with
:func:`cuelex.report.render_run`), PNG bytes (``fmt="png"``) or the matplotlib ``Figure``
(``fmt="figure"``); with ``path=`` the image is also written there. Figures are drawn on
matplotlib's Agg canvas directly, never through ``pyplot``: importing this module does not change
the global backend of your session or notebook.

``cuelex plots INPUT -o DIR`` (or ``python -m cuelex.plots INPUT -o DIR``) writes every plot that
fits INPUT: a run table, a score JSON, an iteration table or a pairs table (``cuelex demo``'s
``out/demo_pairs.csv``). Needs ``pip install "cuelex[plots]"`` (matplotlib).
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

if TYPE_CHECKING:  # matplotlib is imported when a plot is drawn (optional dependency)
    from matplotlib.figure import Figure

from .. import _compat
from ..levels import LEVEL_ORDER as _LEVELS
from ..levels import Level
from ..scoring.metrics import confusion_matrix
from .style import CI_SUFFIXES, LEVEL_COLORS, LEVEL_DARK, METRIC_COLORS, RATES

__all__ = [
    "LEVEL_ORDER",
    "confusion_heatmap",
    "iteration_lines",
    "level_distribution",
    "metric_bars",
    "plots_for",
]

#: Level values in report order (:data:`cuelex.levels.LEVEL_ORDER`).
LEVEL_ORDER: tuple[str, ...] = tuple(lv.value for lv in _LEVELS)
_FORMATS = ("svg", "png", "figure")


def _figure(width: float, height: float) -> Figure:
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise ImportError(
            'cuelex plots need matplotlib: pip install "cuelex[plots]" (or pip install matplotlib)'
        ) from exc
    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)  # attach an Agg canvas: no pyplot, no global backend switch
    return fig


def _save(fig: Figure, target: Any, fmt: str) -> None:
    """savefig with reproducible output (fixed SVG ids, no dates), settings changed locally only."""
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": "cuelex"}):
        fig.savefig(target, format=fmt, metadata=_metadata(fmt))


def _finish(fig: Figure, fmt: str | None, path: str | Path | None) -> Any:
    if path is not None:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        suffix = p.suffix.lower().lstrip(".")
        if suffix not in ("svg", "png", "pdf"):
            raise ValueError(f"{p}: the file name must end in .svg, .png or .pdf")
        _save(fig, p, suffix)
        if fmt is None:
            fmt = suffix if suffix in ("svg", "png") else "figure"
    fmt = fmt or "svg"
    if fmt not in _FORMATS:
        raise ValueError(f"fmt must be one of {_FORMATS}, got {fmt!r}")
    if fmt == "figure":
        return fig
    buf = io.BytesIO()
    _save(fig, buf, fmt)
    data = buf.getvalue()
    return data.decode("utf-8") if fmt == "svg" else data


def save_figure(fig: Figure, path: str | Path | None) -> Any:
    """Write a figure drawn here to ``path`` (.svg, .png or .pdf) and return the path; without a
    path, return the figure (the runner's and compounding's plots end here)."""
    if path is None:
        return fig
    out = Path(path)
    _finish(fig, None, out)
    return out


def _metadata(fmt: str) -> dict[str, Any]:
    # reproducible files: no creation date in SVG/PDF, no software version churn in PNG
    if fmt == "svg":
        return {"Date": None, "Creator": "cuelex"}
    if fmt == "pdf":
        return {"CreationDate": None, "Creator": "cuelex"}
    return {"Software": "cuelex"}


def _frame(table: Any, what: str) -> pd.DataFrame:
    if isinstance(table, pd.DataFrame):
        return table
    if isinstance(table, (list, tuple)) or isinstance(table, Mapping):
        return pd.DataFrame(table)
    raise TypeError(
        f"{what}: expected a pandas DataFrame or a list of rows, got {type(table).__name__}"
    )


def _need(df: pd.DataFrame, cols: Sequence[str], what: str) -> None:
    missing = [c for c in cols if c not in df.columns]
    if missing:
        raise ValueError(f"{what}: missing column(s) {missing} (has {list(df.columns)})")


# --------------------------------------------------------------------------------------------------
# metric bars
# --------------------------------------------------------------------------------------------------


def metric_bars(
    table: Any,
    *,
    metrics: Sequence[str] = RATES,
    fmt: str | None = "svg",
    path: str | Path | None = None,
    title: str | None = None,
) -> Any:
    """Bars of each metric (one panel per metric) per system, grouped by task × condition.

    ``table``: a DataFrame with ``system``, ``task``, ``condition`` and the metric columns (rates
    in 0–1), optionally ``<metric>_ci_low`` / ``<metric>_ci_high`` confidence bounds drawn as
    error bars.
    Missing ``task``/``condition`` columns are allowed (one group).
    """
    df = _frame(table, "metric_bars").copy()
    _need(df, ["system", *metrics], "metric_bars")
    for key in ("task", "condition"):
        if key not in df.columns:
            df[key] = ""
    if df.empty:
        raise ValueError("metric_bars: the table has no rows")
    df["_group"] = [
        " / ".join(str(x) for x in (t, c) if str(x)) or "all"
        for t, c in zip(df["task"], df["condition"], strict=True)
    ]
    systems = list(dict.fromkeys(df["system"].astype(str)))
    groups = list(dict.fromkeys(df["_group"]))
    n = len(metrics)
    fig = _figure(max(6.0, 2.2 * n + 0.25 * len(systems) * len(groups)), 3.6)
    axes = fig.subplots(1, n, sharey=True, squeeze=False)[0]
    width = 0.8 / max(1, len(groups))
    cmap = [
        "#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c",
    ]  # fmt: skip
    for ax, metric in zip(axes, metrics, strict=True):
        for gi, g in enumerate(groups):
            sub = df[df["_group"] == g].copy()
            sub["system"] = sub["system"].astype(str)
            sub = sub.drop_duplicates("system").set_index("system").reindex(systems)
            x = [i + (gi - (len(groups) - 1) / 2) * width for i in range(len(systems))]
            vals = (pd.to_numeric(sub[metric], errors="coerce") * 100).to_numpy()
            yerr = None
            lo, hi = (f"{metric}{s}" for s in CI_SUFFIXES)
            if lo in sub.columns and hi in sub.columns:
                lo_v = (pd.to_numeric(sub[lo], errors="coerce") * 100).to_numpy()
                hi_v = (pd.to_numeric(sub[hi], errors="coerce") * 100).to_numpy()
                # a (2, n) array without NaN: matplotlib's error bars want plain numbers
                yerr = np.nan_to_num(np.vstack([(vals - lo_v).clip(min=0), (hi_v - vals).clip(min=0)]))
            ax.bar(x, vals, width=width * 0.95, color=cmap[gi % len(cmap)], label=g,
                   yerr=yerr, capsize=2, error_kw={"elinewidth": 0.8})  # fmt: skip
        ax.set_title(metric)
        ax.set_xticks(range(len(systems)), systems, rotation=30 if len(systems) > 3 else 0,
                      ha="right" if len(systems) > 3 else "center")  # fmt: skip
        ax.set_ylim(0, 105)
        ax.grid(axis="y", alpha=0.3)
        ax.set_axisbelow(True)
    axes[0].set_ylabel("% (TRR of all pairs; others of retained)")
    if len(groups) > 1 or groups != ["all"]:
        fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center",
                   ncols=min(4, len(groups)), frameon=False)  # fmt: skip
    if title:
        fig.suptitle(title)
    return _finish(fig, fmt, path)


# --------------------------------------------------------------------------------------------------
# confusion heatmap
# --------------------------------------------------------------------------------------------------


def _confusion_frame(confusion: Any) -> pd.DataFrame:
    if hasattr(confusion, "confusion") and not isinstance(confusion, pd.DataFrame):
        c = confusion.confusion  # CorpusScores or Metrics
        return c() if callable(c) else c
    if hasattr(confusion, "metrics") and hasattr(confusion.metrics, "confusion"):
        return confusion.metrics.confusion  # ScoreReport
    if isinstance(confusion, Mapping):
        if "metrics" in confusion:  # a score JSON
            confusion = confusion["metrics"].get("confusion") or {}
        return pd.DataFrame.from_dict(dict(confusion), orient="index")
    if isinstance(confusion, pd.DataFrame):
        if {"source_level", "output_level"} <= set(confusion.columns):  # a pairs table
            return confusion_matrix(confusion)
        return confusion
    raise TypeError(
        "confusion_heatmap: expected a confusion DataFrame, a pairs table, a score JSON dict, "
        f"CorpusScores, Metrics or ScoreReport; got {type(confusion).__name__}"
    )


def confusion_heatmap(
    confusion: Any,
    *,
    normalize: bool = True,
    fmt: str | None = "svg",
    path: str | Path | None = None,
    title: str | None = "source level × output level",
) -> Any:
    """Heatmap of the source × output level matrix; each cell shows its count.

    ``confusion``: ``Metrics.confusion`` / ``CorpusScores.confusion`` (or the object itself, a
    ``ScoreReport``, a score JSON dict, or a pairs table with ``source_level``/``output_level``).
    With ``normalize`` (default) colours are row shares, so rare source levels stay readable.
    Rows without any pair are left out.
    """
    m = _confusion_frame(confusion).fillna(0).astype(int)
    m = m[m.sum(axis=1) > 0]
    if m.empty:
        raise ValueError("confusion_heatmap: the matrix has no pairs")
    shares = m.div(m.sum(axis=1), axis=0) if normalize else m
    fig = _figure(1.0 + 0.9 * len(m.columns), 1.2 + 0.55 * len(m))
    ax = fig.add_subplot()
    im = ax.imshow(shares.to_numpy(dtype=float), cmap="Blues", aspect="auto",
                   vmin=0, vmax=1 if normalize else None)  # fmt: skip
    ax.set_xticks(range(len(m.columns)), [str(c) for c in m.columns], rotation=35, ha="right")
    ax.set_yticks(range(len(m.index)), [str(i) for i in m.index])
    ax.set_xlabel("output level")
    ax.set_ylabel("source level")
    vmax = float(shares.to_numpy().max()) or 1.0
    for i in range(len(m.index)):
        for j in range(len(m.columns)):
            v = int(m.iat[i, j])
            if v:
                dark = float(shares.iat[i, j]) > 0.55 * (1 if normalize else vmax)
                ax.text(j, i, str(v), ha="center", va="center", fontsize=9,
                        color="white" if dark else "black")  # fmt: skip
            if str(m.index[i]) == str(m.columns[j]):
                ax.add_patch(_rect(j, i))
    fig.colorbar(im, ax=ax, label="share of the row" if normalize else "pairs", shrink=0.8)
    if title:
        ax.set_title(title)
    return _finish(fig, fmt, path)


def _rect(x: int, y: int) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, edgecolor="#1a7f37", linewidth=1.5)


# --------------------------------------------------------------------------------------------------
# iterations
# --------------------------------------------------------------------------------------------------


def iteration_lines(
    table: Any,
    *,
    metrics: Sequence[str] = ("URR", "CAR"),
    by: str | None = None,
    fmt: str | None = "svg",
    path: str | Path | None = None,
    title: str | None = "certainty across compounding iterations",
) -> Any:
    """URR and CAR (or ``metrics``) against the iteration number, with optional CI bands.

    ``table``: columns ``iteration`` and the metrics (0–1), optionally ``<metric>_ci_low``/``_ci_high`` and a
    grouping column ``by`` (e.g. ``system``; used automatically when a ``system`` column exists).
    """
    df = _frame(table, "iteration_lines").copy()
    _need(df, ["iteration", *metrics], "iteration_lines")
    if df.empty:
        raise ValueError("iteration_lines: the table has no rows")
    if by is None and "system" in df.columns:
        by = "system"
    groups = list(dict.fromkeys(df[by])) if by else [None]
    fig = _figure(6.4, 3.8)
    ax = fig.add_subplot()
    styles = ["-", "--", ":", "-."]
    for gi, g in enumerate(groups):
        sub = df if g is None else df[df[by] == g]
        sub = sub.sort_values("iteration")
        for metric in metrics:
            x = sub["iteration"].to_numpy()
            y = pd.to_numeric(sub[metric], errors="coerce").to_numpy() * 100
            label = metric if g is None else f"{metric} · {g}"
            ax.plot(x, y, styles[gi % len(styles)], marker="o", markersize=4,
                    color=METRIC_COLORS.get(metric, None), label=label)  # fmt: skip
            lo, hi = (f"{metric}{s}" for s in CI_SUFFIXES)
            if lo in sub.columns and hi in sub.columns:
                ax.fill_between(
                    x,
                    pd.to_numeric(sub[lo], errors="coerce").to_numpy() * 100,
                    pd.to_numeric(sub[hi], errors="coerce").to_numpy() * 100,
                    color=METRIC_COLORS.get(metric, "#888888"),
                    alpha=0.15,
                    linewidth=0,
                )
    ax.set_xlabel("iteration")
    ax.set_ylabel("% of retained pairs")
    ax.set_ylim(0, 105)
    its = sorted(set(df["iteration"]))
    if len(its) <= 20:
        ax.set_xticks(its)
    ax.grid(alpha=0.3)
    ax.legend(frameon=False, fontsize=8)
    if title:
        ax.set_title(title)
    return _finish(fig, fmt, path)


# --------------------------------------------------------------------------------------------------
# level distribution
# --------------------------------------------------------------------------------------------------


def level_distribution(
    levels: Any,
    *,
    column: str | None = None,
    fmt: str | None = "svg",
    path: str | Path | None = None,
    title: str | None = "cue–target pairs per level",
) -> Any:
    """Bars of pair counts per level, in the level's report colour.

    ``levels``: a sequence of levels (``Level`` or strings such as ``"UL3"``), or a DataFrame with a
    ``level`` column (``cuelex.to_frame``, ``out/demo_pairs.csv``) or ``source_level`` column
    (scored pairs); ``column`` names another column.
    """
    if isinstance(levels, pd.DataFrame):
        col = column or next((c for c in ("level", "source_level") if c in levels.columns), None)
        if col is None or col not in levels.columns:
            raise ValueError(
                "level_distribution: the table needs a 'level' or 'source_level' column "
                f"(or column=...); it has {list(levels.columns)}"
            )
        values = list(levels[col])
    elif isinstance(levels, (str, bytes)) or not isinstance(levels, Sequence | pd.Series):
        raise TypeError(
            "level_distribution: expected a sequence of levels or a DataFrame, "
            f"got {type(levels).__name__}"
        )
    else:
        values = list(levels)
    counts: dict[str, int] = dict.fromkeys(LEVEL_ORDER, 0)
    for i, v in enumerate(values):
        try:
            counts[Level.parse(v).value] += 1
        except ValueError as exc:
            raise ValueError(f"level_distribution: item {i}: {exc}") from None
    shown = [lv for lv in LEVEL_ORDER if counts[lv] or lv in ("UL1", "UL2", "UL3", "UL4", "UL5")]
    total = sum(counts.values())
    fig = _figure(6.4, 3.6)
    ax = fig.add_subplot()
    vals = [counts[lv] for lv in shown]
    bars = ax.bar(shown, vals, color=[LEVEL_COLORS[lv] for lv in shown],
                  edgecolor=[LEVEL_DARK[lv] for lv in shown])  # fmt: skip
    for b, v in zip(bars, vals, strict=True):
        pct = f"{100 * v / total:.1f}%" if total else ""
        ax.annotate(f"{v}\n{pct}", (b.get_x() + b.get_width() / 2, v), ha="center", va="bottom",
                    fontsize=8, xytext=(0, 2), textcoords="offset points")  # fmt: skip
    ax.set_ylabel("pairs")
    ax.set_ylim(0, max([*vals, 1]) * 1.25)
    ax.tick_params(axis="x", labelrotation=20)
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    if title:
        ax.set_title(f"{title} (n = {total})")
    return _finish(fig, fmt, path)


# --------------------------------------------------------------------------------------------------
# one command for every plot that fits an input
# --------------------------------------------------------------------------------------------------


def plots_for(
    path: str | Path,
    out_dir: str | Path,
    *,
    formats: Sequence[str] = ("svg", "png"),
    prefix: str = "",
    overwrite: bool = False,
) -> list[Path]:
    """Write every plot that fits the input file to ``out_dir``; return the files written.

    Files are named ``<prefix><plot>.<format>`` (``levels.svg``, ``metrics.png``, …). An existing
    file is never replaced silently: without ``overwrite`` a ``FileExistsError`` names it before
    anything is written.

    * run table (CSV/JSON rows with ``system`` and the rates): ``metric_bars``
    * iteration table (``iteration``, ``URR``, ``CAR``): ``iteration_lines``
    * score JSON (``cuelex score ... -o``): ``confusion_heatmap`` and ``level_distribution``
    * pairs table with ``level``/``source_level`` (``cuelex demo``'s CSV, ``--pairs-out``):
      ``level_distribution`` (and ``confusion_heatmap`` when it has ``output_level``)
    """
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"{p}: no such file")
    for f in formats:
        if f not in ("svg", "png"):
            raise ValueError(f"format must be svg or png, got {f!r}")
    out = Path(out_dir)
    name = p.name.lower()
    jobs: list[tuple[str, Any, Any]] = []  # (stem, function, argument)
    data: Any
    if name.endswith((".csv", ".tsv", ".csv.gz", ".tsv.gz")):
        data = pd.read_csv(p, sep="\t" if ".tsv" in name else ",")
    elif name.endswith((".jsonl", ".ndjson")):
        data = pd.read_json(p, lines=True)
    else:
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{p}: not valid JSON ({exc})") from None
        if isinstance(data, list):
            data = pd.DataFrame(data)
        elif isinstance(data, dict):
            for key in ("table", "rows", "results"):
                if isinstance(data.get(key), list):
                    data = pd.DataFrame(data[key])
                    break
    if isinstance(data, dict):
        if "metrics" not in data or "pairs" not in data:
            raise ValueError(f"{p}: not a cuelex score JSON (needs 'metrics' and 'pairs')")
        jobs.append(("confusion", confusion_heatmap, data))
        if data["pairs"]:
            jobs.append(("levels", level_distribution, pd.DataFrame(data["pairs"])))
    else:
        cols = set(data.columns)
        if {"system", "URR"} <= cols and "iteration" not in cols:
            jobs.append(("metrics", metric_bars, data))
        if {"iteration", "URR", "CAR"} <= cols:
            jobs.append(("iterations", iteration_lines, data))
        if cols & {"level", "source_level"} and "URR" not in cols:
            jobs.append(("levels", level_distribution, data))
        if {"source_level", "output_level"} <= cols:
            jobs.append(("confusion", confusion_heatmap, data))
        if not jobs:
            raise ValueError(
                f"{p}: nothing to plot; expected a run table (system, TRR…OHR), an iteration table "
                f"(iteration, URR, CAR) or a pairs table (level); columns are {sorted(cols)}"
            )
    targets = [out / f"{prefix}{stem}.{f}" for stem, _, _ in jobs for f in formats]
    existing = [t for t in targets if t.exists()]
    if existing and not overwrite:
        raise FileExistsError(
            f"{', '.join(map(str, existing))} already exist(s); pass --overwrite (overwrite=True) "
            "to replace, or write to another folder"
        )
    written = []
    for stem, fn, arg in jobs:
        fig = fn(arg, fmt="figure")
        for f in formats:
            target = out / f"{prefix}{stem}.{f}"
            target.parent.mkdir(parents=True, exist_ok=True)
            _save(fig, target, f)
            written.append(target)
    return written


def __getattr__(name: str) -> object:
    """Names that moved to the command line package (old call sites only)."""
    return _compat.moved_attr(__name__, name)
