"""The result of a build: chunk summaries, merged partitions and the screening report.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..corpus import (
    Problem,
)
from .files import format_screening, format_stats, statistics, write_benchmark
from .format import BenchDocument, BenchError
from .screening import (
    PARTITION_COLUMNS,
    BuildOptions,
    _add_counts,
    _Candidate,
    Selector,
    type_order,
)

__all__ = [
    "BuildResult",
    "ChunkSummary",
    "merge_partitions",
]



# ==================================================================================================
# Results
# ==================================================================================================


@dataclass(frozen=True)
class ChunkSummary:
    """What a finished chunk reports to the caller of :func:`build` (``on_chunk``)."""

    chunk: str
    source: str
    source_documents: int
    documents: int
    candidates: int
    resumed: bool


@dataclass
class BuildResult:
    """A built benchmark: its documents, statistics, the pre-screening counts and skipped rows."""

    documents: list[BenchDocument]
    stats: dict[str, Any]
    screening: dict[str, Any]
    problems: list[Problem]
    config: dict[str, Any]
    output: Path | None = None
    chunks: int = 0
    chunks_resumed: int = 0
    seconds: float = 0.0

    def report(self, markdown: bool = False) -> str:
        """Statistics and screening tables, as text or Markdown."""
        parts = [
            format_stats(self.stats, markdown=markdown),
            format_screening(self.screening, markdown=markdown),
        ]
        if self.problems:
            parts.append(f"skipped rows/documents: {len(self.problems)} (see the problems list)")
        return "\n\n".join(parts)


def _screening(
    counts: dict[str, dict[str, Any]],
    selected: list[_Candidate],
    per_type: int,
    min_levels: int,
    source_docs: int,
    without_sections: int,
) -> dict[str, Any]:
    sel = Counter(c.doc_type for c in selected)
    by_type = {}
    for t in type_order(counts):
        c = counts[t]
        by_type[t] = {
            "documents": c["documents"],
            "eligible": c["eligible"],
            "selected": sel.get(t, 0),
            "requested": per_type,
            "pairs": c["pairs"],
            "words": c["words"],
            "distinct_levels": {k: c["n_levels"][k] for k in sorted(c["n_levels"], key=int)},
        }
    return {
        "min_levels": min_levels,
        "source_documents": source_docs,
        "source_documents_without_sections": without_sections,
        "documents": sum(c["documents"] for c in counts.values()),
        "eligible": sum(c["eligible"] for c in counts.values()),
        "selected": len(selected),
        "by_type": by_type,
    }


def _finish(
    selector: Selector,
    counts: dict[str, dict[str, Any]],
    source_docs: int,
    without_sections: int,
    problems: list[Problem],
    options: BuildOptions,
    config: dict[str, Any],
    output: str | Path | None,
) -> BuildResult:
    for doc_id in selector.duplicates:
        problems.append(
            Problem(
                "<inputs>",
                None,
                f"document id {doc_id!r} occurs more than once; the later one was skipped",
            )
        )
    chosen = selector.selected()
    documents = [
        BenchDocument.model_validate_json(c.record) for c in chosen if c.record is not None
    ]
    stats = statistics(documents)
    screening = _screening(
        counts, chosen, options.per_type, options.min_levels, source_docs, without_sections
    )
    result = BuildResult(documents, stats, screening, problems, config)
    if output is not None:
        result.output = write_benchmark(
            documents, output, stats=stats, screening=screening, problems=problems, config=config
        )
    return result


def merge_partitions(
    frames: pd.DataFrame | Iterable[pd.DataFrame],
    options: BuildOptions,
    *,
    output: str | Path | None = None,
    config: dict[str, Any] | None = None,
) -> BuildResult:
    """Combine :func:`bench_partition` outputs (in partition order) into the benchmark."""
    frame = (
        frames if isinstance(frames, pd.DataFrame) else pd.concat(list(frames), ignore_index=True)
    )
    missing = [c for c in PARTITION_COLUMNS if c not in frame.columns]
    if missing:
        raise BenchError(f"not a bench_partition output: columns {missing} are missing")
    selector = Selector(options.per_type)
    counts: dict[str, dict[str, Any]] = {}
    problems: list[Problem] = []
    source_docs = without = 0
    for row in frame.itertuples(index=False):
        if row.kind == "candidate":
            key = (-int(row.n_levels), str(row.rank), str(row.doc_id))
            selector.add(_Candidate(key, str(row.doc_type), str(row.doc_id), str(row.payload)))
        elif row.kind == "summary":
            s = json.loads(row.payload)
            source_docs += s["source_documents"]
            without += s["without_sections"]
            _add_counts(counts, s["counts"])
            problems.extend(Problem(*p) for p in s["problems"])
        else:
            raise BenchError(f"not a bench_partition output: unknown row kind {row.kind!r}")
    return _finish(
        selector,
        counts,
        source_docs,
        without,
        problems,
        options,
        config or {"options": options.config()},
        output,
    )
