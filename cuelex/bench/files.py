"""Reading and writing benchmark files, and their statistics (``.stats.json`` / ``.stats.md``).
"""

from __future__ import annotations

import json
import os
import statistics as _st
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..corpus import (
    InputError,
    Problem,
    TextLines,
)
from ..levels import CUE_LEVELS
from .format import BenchDocument, BenchError
from .screening import type_order

__all__ = [
    "format_screening",
    "format_stats",
    "iter_load",
    "load",
    "statistics",
    "stats_paths",
    "write_benchmark",
]



# ==================================================================================================
# Reading and writing benchmark files
# ==================================================================================================


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename, so a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def stats_paths(output: str | Path) -> tuple[Path, Path]:
    """Where :func:`write_benchmark` puts the statistics: ``<stem>.stats.json`` and ``<stem>.stats.md``."""
    out = Path(output)
    stem = out.name[: -len(".jsonl")] if out.name.endswith(".jsonl") else out.stem
    return out.with_name(f"{stem}.stats.json"), out.with_name(f"{stem}.stats.md")


def write_benchmark(
    documents: Iterable[BenchDocument],
    path: str | Path,
    *,
    stats: dict[str, Any] | None = None,
    screening: dict[str, Any] | None = None,
    problems: Sequence[Problem] = (),
    config: dict[str, Any] | None = None,
) -> Path:
    """Write the benchmark JSONL (atomically) and its statistics as JSON and Markdown beside it."""
    out = Path(path)
    if out.suffix.lower() not in (".jsonl", ".ndjson"):
        raise BenchError(f"{out}: the benchmark file must end in .jsonl")
    docs = list(documents)
    atomic_write_text(out, "".join(d.model_dump_json() + "\n" for d in docs))
    stats = stats if stats is not None else statistics(docs)
    sj, sm = stats_paths(out)
    payload: dict[str, Any] = {"benchmark": out.name, "statistics": stats}
    if screening is not None:
        payload["screening"] = screening
    if config is not None:
        payload["config"] = config
    payload["problems"] = [str(p) for p in problems]
    atomic_write_text(sj, json.dumps(payload, indent=2) + "\n")
    md = [f"# Benchmark statistics: `{out.name}`", "", format_stats(stats, markdown=True)]
    if screening is not None:
        md += ["", "## Pre-screening and sampling", "", format_screening(screening, markdown=True)]
    if problems:
        md += ["", f"## Skipped ({len(problems)})", ""] + [f"- {p}" for p in list(problems)[:50]]
    atomic_write_text(sm, "\n".join(md) + "\n")
    return out


def iter_load(path: str | Path) -> Iterator[BenchDocument]:
    """Stream a benchmark file, validating each line; errors name the file and line."""
    p = Path(path)
    if not p.is_file():
        raise BenchError(f"{p}: benchmark file not found")
    seen: dict[str, int] = {}
    try:
        # strict UTF-8: invalid bytes and a truncated .gz are named by file and byte offset
        for n, line in enumerate(TextLines(p, p.name.endswith(".gz"), "utf-8"), start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                hint = (
                    ""
                    if line.endswith("\n")
                    else " (the line is cut off: was the file truncated?)"
                )
                raise BenchError(
                    f"{p}, line {n}: not valid JSON: {exc.msg} at column {exc.colno}{hint}"
                ) from None
            if not isinstance(data, dict):
                raise BenchError(
                    f"{p}, line {n}: expected a JSON object (one document), got {type(data).__name__}"
                )
            if "schema_version" not in data:
                raise BenchError(
                    f"{p}, line {n}: no 'schema_version': not a cuelex benchmark document"
                )
            try:
                doc = BenchDocument.model_validate(data)
            except ValidationError as exc:
                errs = "; ".join(
                    f"{'.'.join(str(x) for x in e['loc']) or '(document)'}: {e['msg']}"
                    for e in exc.errors()[:5]
                )
                raise BenchError(f"{p}, line {n}: invalid document: {errs}") from None
            if doc.doc_id in seen:
                raise BenchError(
                    f"{p}, line {n}: document id {doc.doc_id!r} already on line {seen[doc.doc_id]}"
                )
            seen[doc.doc_id] = n
            yield doc
    except InputError as exc:
        raise BenchError(str(exc)) from None
    except OSError as exc:
        raise BenchError(f"{p}: cannot read: {exc}") from None


def load(path: str | Path) -> list[BenchDocument]:
    """Read a benchmark file back, validated (see :func:`iter_load`)."""
    return list(iter_load(path))


def bench_documents(benchmark: str | Path | Iterable[BenchDocument]) -> list[BenchDocument]:
    """The documents of a benchmark given as a file path (loaded) or as documents already read."""
    if isinstance(benchmark, (str, Path)):
        return load(benchmark)
    docs = list(benchmark)
    for i, d in enumerate(docs):
        if not isinstance(d, BenchDocument):
            raise TypeError(f"item {i} is a {type(d).__name__}, not a BenchDocument")
    return docs


# ==================================================================================================
# Statistics
# ==================================================================================================


def _describe(values: Sequence[float]) -> dict[str, Any]:
    if not values:
        return {"mean": None, "sd": None, "min": None, "max": None}
    return {
        "mean": round(_st.fmean(values), 3),
        "sd": round(_st.stdev(values), 3) if len(values) > 1 else 0.0,
        "min": min(values),
        "max": max(values),
    }


def _doc_stats(docs: list[BenchDocument]) -> dict[str, Any]:
    levels = [d.n_levels for d in docs]
    per_level = Counter(p.level for d in docs for p in d.pairs)
    n_pairs = sum(len(d.pairs) for d in docs)
    return {
        "documents": len(docs),
        "length_words": _describe([d.n_words for d in docs]),
        "distinct_levels": {
            **{k: v for k, v in _describe(levels).items() if k in ("mean", "sd")},
            "distribution": {str(k): v for k, v in sorted(Counter(levels).items())},
        },
        "pairs": n_pairs,
        "pairs_per_document": round(n_pairs / len(docs), 3) if docs else None,
        "pairs_per_level": {lv.value: per_level.get(lv, 0) for lv in CUE_LEVELS},
    }


def statistics(benchmark: str | Path | Iterable[BenchDocument]) -> dict[str, Any]:
    """The paper's benchmark statistics: documents per type, length in words (mean, SD, range),
    distinct levels per document (mean and distribution) and pairs per level, overall and per type.

    SD is the sample standard deviation; distinct levels are each document's ``n_levels``.
    """
    docs = bench_documents(benchmark)
    by_type: dict[str, list[BenchDocument]] = {}
    for d in docs:
        by_type.setdefault(d.doc_type, []).append(d)
    overall = _doc_stats(docs)
    return {
        **overall,
        "documents_per_type": {t: len(by_type[t]) for t in type_order(by_type)},
        "linked_pairs": sum(p.cui is not None for d in docs for p in d.pairs),
        "pairs_needing_review": sum(p.needs_review for d in docs for p in d.pairs),
        "by_type": {t: _doc_stats(by_type[t]) for t in type_order(by_type)},
    }


def text_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], markdown: bool) -> str:
    """Rows as an aligned plain-text table, or as a Markdown table with ``markdown``."""
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in r] for r in rows]
    if markdown:
        lines = [
            "| " + " | ".join(cells[0]) + " |",
            "| " + " | ".join(["---"] + ["---:"] * (len(headers) - 1)) + " |",
        ]
        lines += ["| " + " | ".join(r) + " |" for r in cells[1:]]
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def fmt(r: list[str]) -> str:
        return "  ".join(
            c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r)
        )

    return "\n".join(
        [fmt(cells[0]), "  ".join("-" * w for w in widths)] + [fmt(r) for r in cells[1:]]
    )


def _num(x: Any, digits: int = 1) -> str:
    return "" if x is None else f"{x:,.{digits}f}" if isinstance(x, float) else f"{x:,}"


def format_stats(stats: dict[str, Any], markdown: bool = False) -> str:
    """The statistics as two tables (documents; pairs per level), as text or Markdown."""
    groups = [(t, s) for t, s in stats.get("by_type", {}).items()] + [("all", stats)]
    dist_keys = sorted({int(k) for _, s in groups for k in s["distinct_levels"]["distribution"]})
    head1 = ["type", "documents", "words mean (SD)", "words range", "levels/doc"] + [
        f"{k} levels" for k in dist_keys
    ]
    rows1 = []
    for t, s in groups:
        lw = s["length_words"]
        rng = "" if lw["min"] is None else f"{lw['min']:,}-{lw['max']:,}"
        mean_sd = "" if lw["mean"] is None else f"{lw['mean']:,.1f} ({lw['sd']:,.1f})"
        dl = s["distinct_levels"]
        rows1.append(
            [t, _num(s["documents"]), mean_sd, rng, _num(dl["mean"], 2)]
            + [_num(dl["distribution"].get(str(k), 0)) for k in dist_keys]
        )
    levels = [lv.value for lv in CUE_LEVELS]
    head2 = ["type", "pairs", "pairs/doc", *levels]
    rows2 = [
        [t, _num(s["pairs"]), _num(s["pairs_per_document"], 2)]
        + [_num(s["pairs_per_level"][lv]) for lv in levels]
        for t, s in groups
    ]
    return text_table(head1, rows1, markdown) + "\n\n" + text_table(head2, rows2, markdown)


def format_screening(screening: dict[str, Any], markdown: bool = False) -> str:
    """Pre-screening and sampling counts per type as a table."""
    head = [
        "type",
        "screened",
        f"with >= {screening.get('min_levels', 2)} levels",
        "selected",
        "requested",
    ]
    rows = [
        [t, _num(s["documents"]), _num(s["eligible"]), _num(s["selected"]), _num(s["requested"])]
        for t, s in screening["by_type"].items()
    ]
    rows.append(
        [
            "all",
            _num(screening["documents"]),
            _num(screening["eligible"]),
            _num(screening["selected"]),
            "",
        ]
    )
    note = f"source documents: {screening['source_documents']:,}"
    if screening.get("source_documents_without_sections"):
        note += f" ({screening['source_documents_without_sections']:,} without any target section)"
    return note + "\n\n" + text_table(head, rows, markdown)
