"""The Dask build: the same per-document processing, one partition at a time.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..levels import PAPER_LEVELS, Level
from ..pipeline import get_linker
from .format import BenchError
from .inputs import InputOptions
from .results import BuildResult, merge_partitions
from .screening import BuildOptions, bench_partition, build_options, partition_meta

__all__ = [
    "build_dask",
]



# ==================================================================================================
# Dask
# ==================================================================================================


def build_dask(
    frame: Any,
    *,
    input_format: str = "generic",
    per_type: int = 200,
    seed: int = 0,
    min_levels: int = 2,
    coverage: Sequence[Level | str] = PAPER_LEVELS,
    link: bool = True,
    vocabulary: str | Path | None = None,
    text_col: str | None = None,
    id_col: str | None = None,
    type_col: str | None = None,
    doc_type: str | None = None,
    sections: str | Sequence[str] | None = None,
    source: str | None = None,
    output: str | Path | None = None,
    options: BuildOptions | None = None,
    reading: InputOptions | None = None,
) -> BuildResult:
    """Build a benchmark from a Dask DataFrame of input rows with ``map_partitions(bench_partition)``.

    Runs on whatever scheduler is active (a ``distributed.Client`` if one is connected). The
    partition outputs (candidates and counts only) are gathered and merged as in :func:`build`;
    the same inputs and seed give the same benchmark as a local build. ``options`` and ``reading``
    may be given as objects instead of their keywords, as for :func:`~cuelex.bench.builder.build`.
    """
    options, reading = build_options(options, reading, input_format=input_format, flat=dict(
        per_type=per_type, seed=seed, min_levels=min_levels, coverage=coverage, link=link,
        vocabulary=vocabulary, text_col=text_col, id_col=id_col, type_col=type_col,
        doc_type=doc_type, sections=sections))  # fmt: skip
    try:
        import dask.dataframe as dd  # noqa: F401
    except ImportError:  # pragma: no cover - depends on the installation
        raise BenchError("Dask is not installed: pip install 'cuelex[dask]'") from None
    t0 = time.perf_counter()
    if reading.input_format == "auto":
        raise BenchError(
            "build_dask needs an explicit input_format (mimic-discharge, mimic-radiology, tcga or generic)"
        )
    spec = reading.spec(None)
    if options.link:  # build the open index once here rather than in every worker at the same time
        _ = get_linker(options.vocabulary).index_path
    parts = frame.map_partitions(bench_partition, spec, options, source, meta=partition_meta())
    gathered = parts.compute()
    config = {"options": options.config(), "inputs": [{"dask": True, **spec.to_dict()}]}
    result = merge_partitions(gathered, options, output=output, config=config)
    result.chunks = int(frame.npartitions)
    result.seconds = time.perf_counter() - t0
    return result
