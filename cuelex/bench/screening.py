"""Per-document processing, the same for local chunks, Dask partitions and Spark batches:
sections, the pipeline's pairs, coverage screening and the per-type sampler.
"""

from __future__ import annotations

import json
import logging
import math
from bisect import insort
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd

from ..concepts.linking import Linker
from ..corpus import (
    Document,
    InputError,
    Problem,
)
from ..extraction.sections import DOC_TYPES, Section, get_sectionizer
from ..levels import LEVEL_ORDER, PAPER_LEVELS, Level
from ..pipeline import get_engine, get_linker, run_pipeline
from ..records import CueTargetPair
from .format import (
    SCHEMA_VERSION,
    BenchDocument,
    BenchError,
    SectionInfo,
    count_words,
    priority_key,
)
from .inputs import InputOptions, InputSpec

__all__ = [
    "build_options",
    "BuildOptions",
    "PARTITION_COLUMNS",
    "bench_partition",
    "partition_meta",
]

log = logging.getLogger(__name__)



# ==================================================================================================
# Per-document processing: the same for local chunks, Dask partitions and Spark batches
# ==================================================================================================


@dataclass(frozen=True)
class BuildOptions:
    """What decides the content of a benchmark (besides the inputs)."""

    per_type: int = 200
    seed: int = 0
    min_levels: int = 2
    coverage: tuple[Level, ...] = PAPER_LEVELS
    link: bool = True
    vocabulary: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.per_type, int) or self.per_type < 1:
            raise BenchError(
                f"per_type must be a positive number of documents, got {self.per_type!r}"
            )
        if not isinstance(self.seed, int):
            raise BenchError(f"seed must be an integer, got {self.seed!r}")
        if not isinstance(self.min_levels, int) or self.min_levels < 0:
            raise BenchError(f"min_levels must be a non-negative integer, got {self.min_levels!r}")
        cov = tuple(Level.parse(lv) for lv in self.coverage)
        if not cov or Level.ASSERTED in cov:
            raise BenchError("coverage must name cue levels (UL1-UL5, HEDGED_ABSENT)")
        object.__setattr__(self, "coverage", cov)
        if self.vocabulary is not None:
            object.__setattr__(self, "vocabulary", str(self.vocabulary))

    def config(self) -> dict[str, Any]:
        return {
            "per_type": self.per_type,
            "seed": self.seed,
            "min_levels": self.min_levels,
            "coverage": [lv.value for lv in self.coverage],
            "link": self.link,
            "vocabulary": self.vocabulary,
        }


class _Pipeline:
    """Extraction + linking + deduplication, as ``cuelex.extract(text, link=True, deduplicate=True)``."""

    def __init__(self, options: BuildOptions, *, own_linker: bool = False):
        self.engine = get_engine()
        self.linker = None
        if options.link:
            if own_linker:  # a forked worker opens its own QuickUMLS handles
                self.linker = Linker(options.vocabulary)
            else:
                self.linker = get_linker(options.vocabulary)

    def warm(self) -> _Pipeline:
        if self.linker is not None:
            self.linker.warm()
        return self

    def pairs(self, text: str, doc_id: str, *, min_levels: int = 0) -> list[CueTargetPair]:
        """The document's pairs, linked and deduplicated. With ``min_levels`` of 2 or more a
        document with fewer than two pairs is not linked: it cannot cover that many levels, so
        only its pairs' count and levels are read, and neither linking nor deduplication changes
        those of a single pair."""
        if min_levels >= 2 and self.linker is not None:
            pairs = self.engine.extract(text, doc_id=doc_id)
            if len(pairs) < 2:
                return list(pairs)
            return run_pipeline(
                text,
                engine=self.engine,
                linker=self.linker,
                deduplicate=True,
                doc_id=doc_id,
                pairs=pairs,
            )
        return run_pipeline(
            text, engine=self.engine, linker=self.linker, deduplicate=True, doc_id=doc_id
        )


_PIPELINES: dict[BuildOptions, _Pipeline] = {}


def _pipeline_for(options: BuildOptions) -> _Pipeline:
    """The process-wide pipeline for these options (Dask/Spark workers build it on first use)."""
    key = replace(options, per_type=1, seed=0, min_levels=0)
    if key not in _PIPELINES:
        _PIPELINES[key] = _Pipeline(options)
    return _PIPELINES[key]


@dataclass(frozen=True)
class _Unit:
    doc_id: str
    doc_type: str
    source_id: str
    text: str
    section: Section | None  # made a SectionInfo only for the documents that become records
    meta: dict[str, Any]


def _json_safe(value: Any) -> Any:
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float):
        return None if math.isnan(value) else value
    if hasattr(value, "item"):  # numpy scalar
        return _json_safe(value.item())
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    return str(value)


def _units(doc: Document, spec: InputSpec) -> list[_Unit]:
    meta = {k: _json_safe(v) for k, v in doc.meta.items()}
    if not spec.sections:
        return [_Unit(doc.id, doc.doc_type or spec.doc_type, doc.id, doc.text, None, meta)]
    out = []
    seen: Counter[str] = Counter()
    for s in get_sectionizer(
        spec.sections if len(spec.sections) > 1 else spec.sections[0]
    ).sections(doc.text):
        seen[s.doc_type] += 1
        k = seen[s.doc_type]
        doc_id = f"{doc.id}#{s.doc_type}" + (f"#{k}" if k > 1 else "")
        out.append(_Unit(doc_id, s.doc_type, doc.id, s.text, s, meta))
    return out


def _section_info(s: Section | None) -> SectionInfo | None:
    """The benchmark record's provenance of a section (None for a whole note)."""
    if s is None:
        return None
    return SectionInfo(
        header=s.header, rule_id=s.rule_id, header_start=s.header_start, start=s.start, end=s.end
    )


def _empty_counts() -> dict[str, Any]:
    return {"documents": 0, "eligible": 0, "pairs": 0, "words": 0, "n_levels": {}}


def _add_counts(into: dict[str, dict[str, Any]], other: dict[str, dict[str, Any]]) -> None:
    for doc_type, c in other.items():
        t = into.setdefault(doc_type, _empty_counts())
        for k in ("documents", "eligible", "pairs", "words"):
            t[k] += c[k]
        for k, v in c["n_levels"].items():
            t["n_levels"][k] = t["n_levels"].get(k, 0) + v


@dataclass
class _Candidate:
    key: tuple[int, str, str]
    doc_type: str
    doc_id: str
    record: str | None = None  # BenchDocument JSON (None when only the key travels)


@dataclass
class _PartitionResult:
    source_documents: int = 0
    without_sections: int = 0
    counts: dict[str, dict[str, Any]] = field(default_factory=dict)
    candidates: list[_Candidate] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def _process(
    docs: Iterable[Document],
    spec: InputSpec,
    options: BuildOptions,
    pipeline: _Pipeline,
    *,
    source: str | None,
    thresholds: dict[str, tuple[int, str, str]] | None = None,
) -> _PartitionResult:
    """Sections → pairs → pre-screening → this partition's best ``per_type`` documents per type."""
    res = _PartitionResult()
    eligible: dict[str, list[tuple[tuple[int, str, str], BenchDocument]]] = {}
    coverage = set(options.coverage)
    for doc in docs:
        res.source_documents += 1
        units = _units(doc, spec)
        if spec.sections and not units:
            res.without_sections += 1
        for u in units:
            try:
                pairs = pipeline.pairs(u.text, u.doc_id, min_levels=options.min_levels)
            except Exception as exc:  # one bad document must not sink a corpus-sized run
                res.problems.append(
                    Problem(
                        source or "<partition>",
                        None,
                        f"document {u.doc_id!r}: extraction failed ({type(exc).__name__}: {exc}); skipped",
                    )
                )
                log.warning("%s: document %r: extraction failed: %s", source, u.doc_id, exc)
                continue
            present = {p.level for p in pairs}
            n_levels = len(present & coverage)
            c = res.counts.setdefault(u.doc_type, _empty_counts())
            c["documents"] += 1
            c["pairs"] += len(pairs)
            n_words = count_words(u.text)
            c["words"] += n_words
            c["n_levels"][str(n_levels)] = c["n_levels"].get(str(n_levels), 0) + 1
            if n_levels < options.min_levels:
                continue
            c["eligible"] += 1
            key = priority_key(u.doc_type, u.doc_id, n_levels, options.seed)
            if thresholds and u.doc_type in thresholds and key >= thresholds[u.doc_type]:
                continue  # cannot enter the sample: per_type better documents are already known
            record = BenchDocument(
                schema_version=SCHEMA_VERSION,
                doc_id=u.doc_id,
                doc_type=u.doc_type,
                source=source,
                source_id=u.source_id,
                section=_section_info(u.section),
                text=u.text,
                n_words=n_words,
                levels=tuple(lv for lv in LEVEL_ORDER if lv in present),
                n_levels=n_levels,
                pairs=tuple(pairs),
                meta=u.meta,
            )
            bucket = eligible.setdefault(u.doc_type, [])
            insort(bucket, (key, record), key=lambda x: x[0])
            if len(bucket) > options.per_type:
                bucket.pop()
    for doc_type, bucket in eligible.items():
        for key, record in bucket:
            res.candidates.append(
                _Candidate(key, doc_type, record.doc_id, record.model_dump_json())
            )
    return res


class Selector:
    """The best ``per_type`` candidates per type; the first of two candidates with one id wins."""

    def __init__(self, per_type: int):
        self.per_type = per_type
        self.buckets: dict[str, list[tuple[tuple[int, str, str], int, _Candidate]]] = {}
        self.seen: set[str] = set()
        self.duplicates: list[str] = []
        self._n = 0

    def add(self, cand: _Candidate) -> None:
        if cand.doc_id in self.seen:
            self.duplicates.append(cand.doc_id)
            return
        self.seen.add(cand.doc_id)
        bucket = self.buckets.setdefault(cand.doc_type, [])
        self._n += 1
        insort(bucket, (cand.key, self._n, cand), key=lambda x: x[0])
        if len(bucket) > self.per_type:
            bucket.pop()

    def thresholds(self) -> dict[str, tuple[int, str, str]]:
        return {t: b[-1][0] for t, b in self.buckets.items() if len(b) >= self.per_type}

    def selected(self) -> list[_Candidate]:
        out = []
        for doc_type in type_order(self.buckets):
            out.extend(c for _, _, c in self.buckets[doc_type])
        return out


def type_order(types: Iterable[str]) -> list[str]:
    """The document types in report order: the known ``DOC_TYPES`` first, others sorted after them."""
    known = [t for t in DOC_TYPES if t in set(types)]
    return known + sorted(t for t in set(types) if t not in DOC_TYPES)



def build_options(
    options: BuildOptions | None = None,
    reading: InputOptions | None = None,
    *,
    input_format: str,
    flat: dict[str, Any],
) -> tuple[BuildOptions, InputOptions]:
    """The option objects of a build (``build``, ``build_dask``): the given ones, or made from the
    keyword form ``flat`` (names of both classes' fields); giving an object and a keyword that
    differs from its default for the same thing is an error, never a silent choice."""
    content = {k: flat[k] for k in _CONTENT_DEFAULTS}
    reading_kw = {k: flat[k] for k in _READING_DEFAULTS}
    if options is None:
        content["coverage"] = tuple(content["coverage"])
        options = BuildOptions(**content)
    elif any(_differs(content[k], d) for k, d in _CONTENT_DEFAULTS.items()):
        raise BenchError("give the build options either as options=BuildOptions(...) or as keywords, not both")
    if reading is None:
        reading = InputOptions(input_format=input_format, **reading_kw)
    elif any(_differs(reading_kw[k], d) for k, d in _READING_DEFAULTS.items()):
        raise BenchError("give the input options either as reading=InputOptions(...) or as keywords, not both")
    return options, reading


_CONTENT_DEFAULTS: dict[str, Any] = {
    "per_type": 200, "seed": 0, "min_levels": 2, "coverage": PAPER_LEVELS, "link": True, "vocabulary": None,
}  # fmt: skip
_READING_DEFAULTS: dict[str, Any] = dict.fromkeys(("text_col", "id_col", "type_col", "doc_type", "sections"))


def _differs(value: Any, default: Any) -> bool:
    if isinstance(default, tuple) and not isinstance(value, str):
        return tuple(value) != default
    return value != default

# -- the partition function for Dask (map_partitions) and Spark (mapInPandas) ----------------------

#: Columns of :func:`bench_partition`'s output frame.
PARTITION_COLUMNS: tuple[str, ...] = ("kind", "doc_type", "doc_id", "n_levels", "rank", "payload")


def partition_meta() -> pd.DataFrame:
    """An empty frame with the dtypes of :func:`bench_partition`'s output (Dask's ``meta``)."""
    return pd.DataFrame(
        {
            "kind": pd.Series(dtype=object),
            "doc_type": pd.Series(dtype=object),
            "doc_id": pd.Series(dtype=object),
            "n_levels": pd.Series(dtype="int64"),
            "rank": pd.Series(dtype=object),
            "payload": pd.Series(dtype=object),
        }
    )


def _frame_documents(
    frame: pd.DataFrame, spec: InputSpec, source: str | None
) -> tuple[list[Document], list[Problem]]:
    columns = list(frame.columns)
    for role, col in (("text", spec.text_col), ("id", spec.id_col), ("type", spec.type_col)):
        if col is not None and col not in columns:
            raise InputError(
                f"{source or 'partition'}: no column {col!r} (the {role} column); columns are {columns}"
            )
    docs: list[Document] = []
    problems: list[Problem] = []
    src = source or "partition"
    for index, row in zip(frame.index, frame.to_dict("records"), strict=True):
        text = row.get(spec.text_col)
        if not isinstance(text, str):
            kind = "missing" if _json_safe(text) is None else f"not text but {type(text).__name__}"
            idx = _json_safe(index)
            problems.append(
                Problem(
                    src,
                    idx if isinstance(idx, int) else None,
                    f"field {spec.text_col!r} is {kind}; row skipped",
                )
            )
            continue
        raw_id = row.get(spec.id_col) if spec.id_col else row.get("id", row.get("note_id"))
        raw_id = _json_safe(raw_id)
        doc_id = str(raw_id) if raw_id not in (None, "") else f"{src}:{index}"
        doc_type = _json_safe(row.get(spec.type_col)) if spec.type_col else None
        meta = {
            k: _json_safe(v)
            for k, v in row.items()
            if k not in (spec.text_col, spec.id_col, spec.type_col)
        }
        docs.append(
            Document(
                id=doc_id,
                text=text,
                doc_type=None if doc_type is None else str(doc_type),
                meta=meta,
            )
        )
    return docs, problems


def bench_partition(
    frame: pd.DataFrame,
    spec: InputSpec,
    options: BuildOptions,
    source: str | None = None,
) -> pd.DataFrame:
    """The per-partition step of a distributed build: raw input rows in, candidate documents out.

    ``frame`` has the input's columns (for MIMIC: note_id, text, subject_id, ...). The output has
    one ``kind="candidate"`` row per document that passed pre-screening and is among the
    partition's best ``per_type`` of its type (``payload``: the :class:`BenchDocument` JSON), and
    one ``kind="summary"`` row (``payload``: JSON counts and skipped rows). Concatenate the outputs
    of all partitions and pass them to :func:`merge_partitions`.
    """
    docs, problems = _frame_documents(frame, spec, source)
    res = _process(docs, spec, options, _pipeline_for(options), source=source)
    res.problems[:0] = problems
    rows = [
        {
            "kind": "candidate",
            "doc_type": c.doc_type,
            "doc_id": c.doc_id,
            "n_levels": -c.key[0],
            "rank": c.key[1],
            "payload": c.record,
        }
        for c in res.candidates
    ]
    summary = {
        "source_documents": res.source_documents,
        "without_sections": res.without_sections,
        "counts": res.counts,
        "problems": [[p.source, p.row, p.message] for p in res.problems],
    }
    rows.append(
        {
            "kind": "summary",
            "doc_type": "",
            "doc_id": "",
            "n_levels": 0,
            "rank": "",
            "payload": json.dumps(summary),
        }
    )
    out = pd.DataFrame(rows, columns=list(PARTITION_COLUMNS))
    return out.astype({"n_levels": "int64"})
