"""Compounding (the "broken telephone" of *From "may" to "is"*): rewrite the output again, k times.

``compound(benchmark, system, k=5, task="revision", condition="baseline", cache=PATH)`` runs the
same prompt on each document, then on its own output, k times (:func:`cuelex.runner.run` with
``iterations=k``, so it is cached and resumable), and scores **every iteration against the original
source**: TRR, URR, CAR, PCR, OHR and inflation per iteration, with bootstrap CIs.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from ..report.plots import iteration_lines, save_figure
from .jobs import TABLE2_METRICS, run, score_run

__all__ = ["compound", "compounding_table", "plot_compounding"]


def compound(
    benchmark: Any,
    system: Callable[[str], str],
    *,
    cache: str | os.PathLike[str],
    k: int = 5,
    task: str = "revision",
    condition: str = "baseline",
    name: str | None = None,
    n_boot: int = 1000,
    seed: int = 0,
    progress: bool | None = None,
    **run_options: Any,
) -> pd.DataFrame:
    """Run k successive rewrites and return :func:`compounding_table` of the cache."""
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    res = run(benchmark, system, cache=cache, tasks=[task], conditions=[condition], name=name,
              iterations=k, progress=progress, **run_options)
    return compounding_table(res.cache_path, systems=[res.system], tasks=[task], conditions=[condition],
                             n_boot=n_boot, seed=seed, progress=progress)


def compounding_table(
    cache: str | os.PathLike[str],
    *,
    systems: Sequence[str] | None = None,
    tasks: Sequence[str] | None = None,
    conditions: Sequence[str] | None = None,
    n_boot: int = 1000,
    seed: int = 0,
    progress: bool | None = None,
) -> pd.DataFrame:
    """One row per system × task × condition × iteration: the rates against the original source.

    ``n_documents`` per iteration can shrink when a call failed (a chain stops at its first failure).
    """
    scores = score_run(cache, systems=systems, n_boot=n_boot, seed=seed, progress=progress)
    t = scores.table
    if "iteration" not in t.columns:
        t = t.assign(iteration=1)
    if tasks is not None:
        t = t[t["task"].isin(list(tasks))]
    if conditions is not None:
        t = t[t["condition"].isin(list(conditions))]
    inflation = scores.corpus.by_group
    inflation = inflation[(inflation["metric"] == "inflation") & (inflation["scope"] == "micro")]
    keys = ["system", "task", "condition", "iteration"]
    if "iteration" in inflation.columns:
        inf = inflation[[*keys, "value"]].rename(columns={"value": "inflation"})
        inf["iteration"] = inf["iteration"].astype(int)
        t = t.merge(inf, on=keys, how="left")
    cols = [*keys, "n_documents", "n_pairs"]
    rest = [c for c in t.columns if c not in cols]
    return t[cols + rest].sort_values(keys).reset_index(drop=True)


def plot_compounding(
    table: pd.DataFrame,
    path: str | os.PathLike[str] | None = None,
    *,
    metrics: Sequence[str] = ("URR", "CAR"),
) -> Any:
    """URR and CAR by iteration, one line per system/task/condition, CIs as bands (``cuelex.plots.iteration_lines``).

    Saved to ``path`` and the path returned, else the Figure. Needs matplotlib.
    """
    for m in metrics:
        if m not in TABLE2_METRICS:
            raise ValueError(f"unknown metric {m!r}; choose from {TABLE2_METRICS}")
    frame = table  # <metric>_ci_low/_ci_high: the names the plots read
    keys = [c for c in ("system", "task", "condition") if c in frame.columns]
    if keys:
        frame = frame.assign(run=frame[keys].astype(str).agg(" / ".join, axis=1))
    fig = iteration_lines(frame, metrics=metrics, by="run" if keys else None, fmt="figure")
    return save_figure(fig, path)
