"""Benchmark builder (paper section 3.1): from a note collection to a five-level cue–target benchmark.

Pipeline, per input document (a note, or a section of one):

1. **Pre-processing** — MIMIC-IV-Note discharge summaries are cut into Assessment, Brief Hospital
   Course and Discharge Diagnosis documents, radiology reports into Findings and Impression
   (``cuelex.sections`` with ``rules/sections.yaml``); TCGA pathology reports and generic inputs
   are whole documents.
2. **Extraction** — cue–target pairs with concept linking and the paper's per-document
   deduplication (the same steps as ``cuelex.extract(text, link=True, deduplicate=True)``).
3. **Pre-screening** — documents whose pairs cover fewer than ``min_levels`` (2) distinct levels
   of the paper's five (UL1–UL5) are dropped.
4. **Sampling** — ``per_type`` documents per document type, broadest level coverage first (all five
   levels, then four, ...); ties are ordered by a seeded hash of (seed, type, id), a random order
   that does not depend on how the input is chunked or how many processes run, so the same
   inputs and seed give the same benchmark byte for byte.

The result is a JSONL file, one :class:`BenchDocument` per line (``schema_version`` on every line),
read back validated by :func:`load`; :func:`statistics` gives the paper's benchmark statistics;
:func:`export_validation` and :func:`agreement` support the human validation (accuracy, Cohen's
kappa). :func:`build` streams its inputs in chunks over worker processes and resumes an
interrupted run from its work directory; :func:`bench_partition` is the same per-partition step
for Dask's ``map_partitions`` (:func:`build_dask`) or Spark's ``mapInPandas``.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
import logging
import math
import multiprocessing
import os
import random
import shutil
import statistics as _st
import sys
import tempfile
import time
from bisect import insort
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from importlib import resources as importlib_resources
from pathlib import Path
from typing import Any

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .. import __version__
from ..concepts.linking import Linker
from ..corpus import (
    Document,
    InputError,
    Problem,
    _Lines,
    neutralize_cell,
    read_documents,
)
from ..errors import CuelexError
from ..extraction.sections import DOC_TYPES, PROFILES, get_sectionizer
from ..levels import CUE_LEVELS, LEVEL_ORDER, PAPER_LEVELS, Level
from ..pipeline import get_engine, get_linker, run_pipeline
from ..records import CueTargetPair
from ..resources import default_lexicon_dir, default_rules_dir

__all__ = [
    "FORMATS",
    "PARTITION_COLUMNS",
    "SCHEMA_VERSION",
    "VALIDATION_COLUMNS",
    "AgreementReport",
    "BenchDocument",
    "BenchError",
    "BuildOptions",
    "BuildResult",
    "ChunkSummary",
    "InputSpec",
    "SectionInfo",
    "ValidationAnswer",
    "agreement",
    "bench_partition",
    "build",
    "build_dask",
    "cohen_kappa",
    "count_words",
    "demo",
    "demo_corpus",
    "detect_format",
    "export_validation",
    "format_screening",
    "format_stats",
    "iter_load",
    "load",
    "merge_partitions",
    "partition_meta",
    "priority_key",
    "read_validation",
    "resolve_spec",
    "statistics",
    "stats_paths",
    "validation_sample",
    "write_benchmark",
]

log = logging.getLogger(__name__)

#: Version of the benchmark file schema (every line carries it).
SCHEMA_VERSION = 1
#: Input formats understood by :func:`build` ("auto" detects one per input).
FORMATS: tuple[str, ...] = ("auto", "mimic-discharge", "mimic-radiology", "tcga", "generic")
_WORK_FORMAT = 1  # layout version of the work directory (manifest + chunk files)


class BenchError(CuelexError, ValueError):
    """A benchmark cannot be built, read or validated; the message says what and where."""


# ==================================================================================================
# Schema of the benchmark file
# ==================================================================================================


class SectionInfo(BaseModel):
    """Where a section document came from: its header and offsets into the source note.

    ``note[start:end] == document.text``; ``note[header_start:...]`` starts with ``header``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    header: str
    rule_id: str
    header_start: int = Field(ge=0)
    start: int = Field(ge=0)
    end: int = Field(ge=0)


class BenchDocument(BaseModel):
    """One benchmark document: its text, type, provenance and its cue–target pairs.

    Pair offsets index ``text`` exactly. ``levels`` are the distinct levels of the pairs (in the
    order of :class:`cuelex.Level`); ``n_levels`` is the coverage used for sampling (distinct
    levels among the paper's five unless the build counted hedged absence too). ``meta`` keeps the
    other columns of the input row (MIMIC: subject_id, hadm_id, note_type, charttime, ...).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: int
    doc_id: str = Field(min_length=1)
    doc_type: str = Field(min_length=1)
    source: str | None = None
    source_id: str
    section: SectionInfo | None = None
    text: str
    n_words: int = Field(ge=0)
    levels: tuple[Level, ...]
    n_levels: int = Field(ge=0)
    pairs: tuple[CueTargetPair, ...]
    meta: dict[str, Any] = Field(default_factory=dict)

    @field_validator("schema_version")
    @classmethod
    def _supported(cls, value: int) -> int:
        if value != SCHEMA_VERSION:
            raise ValueError(
                f"schema_version {value} is not supported by this version of cuelex (it reads version {SCHEMA_VERSION})"
            )
        return value

    @model_validator(mode="after")
    def _consistent(self) -> BenchDocument:
        text = self.text
        for i, p in enumerate(self.pairs):
            if p.doc_id != self.doc_id:
                raise ValueError(
                    f"pair {i} has doc_id {p.doc_id!r}, not the document's {self.doc_id!r}"
                )
            if text[p.cue_start : p.cue_end] != p.cue_text:
                raise ValueError(
                    f"pair {i}: cue offsets {p.cue_start}-{p.cue_end} do not give cue_text {p.cue_text!r}"
                )
            if text[p.target_start : p.target_end] != p.target_text:
                raise ValueError(
                    f"pair {i}: target offsets {p.target_start}-{p.target_end} do not give target_text {p.target_text!r}"
                )
        present = {p.level for p in self.pairs}
        expected = tuple(lv for lv in LEVEL_ORDER if lv in present)
        if tuple(self.levels) != expected:
            raise ValueError(
                f"levels {[lv.value for lv in self.levels]} differ from the pairs' levels {[lv.value for lv in expected]}"
            )
        if self.n_levels > len(self.levels):
            raise ValueError(
                f"n_levels {self.n_levels} exceeds the number of distinct levels {len(self.levels)}"
            )
        if self.n_words != count_words(text):
            raise ValueError(
                f"n_words {self.n_words} differs from the text's {count_words(text)} words"
            )
        return self


def count_words(text: str) -> int:
    """Length in words: whitespace-separated tokens."""
    return len(text.split())


def priority_key(doc_type: str, doc_id: str, n_levels: int, seed: int) -> tuple[int, str, str]:
    """Sampling order (smaller first): more distinct levels first, then a seeded random order.

    The random part is a keyed hash of (seed, type, id): every document gets the same position
    whatever chunk or process handles it, which makes the sample reproducible under any chunking.
    """
    h = hashlib.blake2b(
        f"{doc_type}\x00{doc_id}".encode(), digest_size=8, key=str(seed).encode()[:64]
    )
    return (-int(n_levels), h.hexdigest(), doc_id)


# ==================================================================================================
# Inputs
# ==================================================================================================


@dataclass(frozen=True)
class InputSpec:
    """How to read one input: columns, the document type of whole documents, section profiles."""

    format: str
    text_col: str = "text"
    id_col: str | None = None
    type_col: str | None = None
    doc_type: str = "document"
    sections: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "text_col": self.text_col,
            "id_col": self.id_col,
            "type_col": self.type_col,
            "doc_type": self.doc_type,
            "sections": list(self.sections),
        }


_FORMAT_SPECS: dict[str, InputSpec] = {
    "mimic-discharge": InputSpec(
        "mimic-discharge", "text", "note_id", None, "discharge", ("discharge",)
    ),
    "mimic-radiology": InputSpec(
        "mimic-radiology", "text", "note_id", None, "radiology", ("radiology",)
    ),
    "tcga": InputSpec("tcga", "text", "patient_filename", None, "pathology", ()),
    "generic": InputSpec("generic"),
}


def _peek_columns(path: Path) -> list[str]:
    name = path.name.lower()
    gz = name.endswith(".gz")
    base = name[:-3] if gz else name
    try:
        raw = (
            gzip.open(path, "rt", encoding="utf-8", errors="replace", newline="")
            if gz
            else open(path, encoding="utf-8", errors="replace", newline="")
        )
        with raw as fh:
            if base.endswith((".csv", ".tsv")):
                return next(csv.reader(fh, delimiter="\t" if base.endswith(".tsv") else ","), [])
            if base.endswith((".jsonl", ".ndjson", ".json")):
                for line in fh:
                    if line.strip():
                        row = json.loads(line)
                        return list(row) if isinstance(row, dict) else []
    except (OSError, EOFError, json.JSONDecodeError, csv.Error):
        return []
    return []


def detect_format(path: str | Path) -> str:
    """The input format of a file: from its name (discharge/radiology) or its columns (patient_filename)."""
    p = Path(path)
    if p.is_dir():
        return "generic"
    name = p.name.lower()
    if "discharge" in name:
        return "mimic-discharge"
    if "radiology" in name:
        return "mimic-radiology"
    columns = set(_peek_columns(p))
    if "patient_filename" in columns:
        return "tcga"
    return "generic"


def _normalise_sections(value: str | Sequence[str] | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        if value in ("none", ""):
            return ()
        if value == "all":
            return PROFILES
        value = [value]
    out = tuple(value)
    for name in out:
        if name not in PROFILES:
            raise BenchError(
                f"unknown section profile {name!r}; expected one of {', '.join(PROFILES)}, 'all' or 'none'"
            )
    return out


def resolve_spec(
    path: str | Path | None,
    input_format: str = "auto",
    *,
    text_col: str | None = None,
    id_col: str | None = None,
    type_col: str | None = None,
    doc_type: str | None = None,
    sections: str | Sequence[str] | None = None,
) -> InputSpec:
    """The :class:`InputSpec` of an input: the format's defaults with any given overrides."""
    if input_format not in FORMATS:
        raise BenchError(
            f"unknown input format {input_format!r}; expected one of {', '.join(FORMATS)}"
        )
    if input_format == "auto":
        if path is None:
            raise BenchError("input format 'auto' needs a file to look at; name the format")
        input_format = detect_format(path)
        log.info("%s: input format %s (detected)", path, input_format)
    spec = _FORMAT_SPECS[input_format]
    changes: dict[str, Any] = {}
    for key, value in (
        ("text_col", text_col),
        ("id_col", id_col),
        ("type_col", type_col),
        ("doc_type", doc_type),
    ):
        if value is not None:
            changes[key] = value
    secs = _normalise_sections(sections)
    if secs is not None:
        changes["sections"] = secs
    return replace(spec, **changes)


def _fingerprint(path: Path) -> dict[str, Any]:
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.is_file())
        return {
            "path": str(path.resolve()),
            "files": len(files),
            "size": sum(f.stat().st_size for f in files),
            "mtime_ns": max((f.stat().st_mtime_ns for f in files), default=0),
        }
    st = path.stat()
    return {"path": str(path.resolve()), "size": st.st_size, "mtime_ns": st.st_mtime_ns}


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

    def pairs(self, text: str, doc_id: str) -> list[CueTargetPair]:
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
    section: SectionInfo | None
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
        info = SectionInfo(
            header=s.header,
            rule_id=s.rule_id,
            header_start=s.header_start,
            start=s.start,
            end=s.end,
        )
        out.append(_Unit(doc_id, s.doc_type, doc.id, s.text, info, meta))
    return out


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
                pairs = pipeline.pairs(u.text, u.doc_id)
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
                section=u.section,
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


class _Selector:
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
        for doc_type in _type_order(self.buckets):
            out.extend(c for _, _, c in self.buckets[doc_type])
        return out


def _type_order(types: Iterable[str]) -> list[str]:
    known = [t for t in DOC_TYPES if t in set(types)]
    return known + sorted(t for t in set(types) if t not in DOC_TYPES)


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
    for t in _type_order(counts):
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
    selector: _Selector,
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
    selector = _Selector(options.per_type)
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


# ==================================================================================================
# Reading and writing benchmark files
# ==================================================================================================


def _atomic_write_text(path: Path, text: str) -> None:
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
    _atomic_write_text(out, "".join(d.model_dump_json() + "\n" for d in docs))
    stats = stats if stats is not None else statistics(docs)
    sj, sm = stats_paths(out)
    payload: dict[str, Any] = {"benchmark": out.name, "statistics": stats}
    if screening is not None:
        payload["screening"] = screening
    if config is not None:
        payload["config"] = config
    payload["problems"] = [str(p) for p in problems]
    _atomic_write_text(sj, json.dumps(payload, indent=2) + "\n")
    md = [f"# Benchmark statistics: `{out.name}`", "", format_stats(stats, markdown=True)]
    if screening is not None:
        md += ["", "## Pre-screening and sampling", "", format_screening(screening, markdown=True)]
    if problems:
        md += ["", f"## Skipped ({len(problems)})", ""] + [f"- {p}" for p in list(problems)[:50]]
    _atomic_write_text(sm, "\n".join(md) + "\n")
    return out


def iter_load(path: str | Path) -> Iterator[BenchDocument]:
    """Stream a benchmark file, validating each line; errors name the file and line."""
    p = Path(path)
    if not p.is_file():
        raise BenchError(f"{p}: benchmark file not found")
    seen: dict[str, int] = {}
    try:
        # strict UTF-8: invalid bytes and a truncated .gz are named by file and byte offset
        for n, line in enumerate(_Lines(p, p.name.endswith(".gz"), "utf-8"), start=1):
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


def _documents(benchmark: str | Path | Iterable[BenchDocument]) -> list[BenchDocument]:
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
    docs = _documents(benchmark)
    by_type: dict[str, list[BenchDocument]] = {}
    for d in docs:
        by_type.setdefault(d.doc_type, []).append(d)
    overall = _doc_stats(docs)
    return {
        **overall,
        "documents_per_type": {t: len(by_type[t]) for t in _type_order(by_type)},
        "linked_pairs": sum(p.cui is not None for d in docs for p in d.pairs),
        "pairs_needing_review": sum(p.needs_review for d in docs for p in d.pairs),
        "by_type": {t: _doc_stats(by_type[t]) for t in _type_order(by_type)},
    }


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]], markdown: bool) -> str:
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
    return _table(head1, rows1, markdown) + "\n\n" + _table(head2, rows2, markdown)


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
    return note + "\n\n" + _table(head, rows, markdown)


# ==================================================================================================
# Local build: chunks, worker processes, resumable work directory
# ==================================================================================================

_WORKER: _Pipeline | None = None


def _init_worker(options: BuildOptions) -> None:
    global _WORKER
    _WORKER = _Pipeline(options, own_linker=True).warm()


def _ping(_: int) -> int:
    return os.getpid()


@dataclass
class _ChunkTask:
    chunk: str
    source: str
    docs: list[Document]
    spec: InputSpec
    options: BuildOptions
    thresholds: dict[str, tuple[int, str, str]]
    path: Path


def _chunk_header(task: _ChunkTask, res: _PartitionResult) -> dict[str, Any]:
    return {
        "work_format": _WORK_FORMAT,
        "chunk": task.chunk,
        "source": task.source,
        "source_documents": res.source_documents,
        "first_id": task.docs[0].id if task.docs else None,
        "last_id": task.docs[-1].id if task.docs else None,
        "without_sections": res.without_sections,
        "counts": res.counts,
        "problems": [[p.source, p.row, p.message] for p in res.problems],
    }


def _run_chunk(
    task: _ChunkTask, pipeline: _Pipeline | None = None
) -> tuple[ChunkSummary, list[_Candidate]]:
    """Process one chunk and write its result file atomically (temp file, fsync, rename)."""
    pipe = pipeline or _WORKER or _Pipeline(task.options, own_linker=True)
    res = _process(
        task.docs, task.spec, task.options, pipe, source=task.source, thresholds=task.thresholds
    )
    tmp = task.path.with_name(f".{task.path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=3, mtime=0) as gz:
            w = io.TextIOWrapper(gz, encoding="utf-8")
            w.write(json.dumps(_chunk_header(task, res)) + "\n")
            for c in res.candidates:
                w.write(
                    json.dumps(
                        {
                            "key": list(c.key),
                            "doc_type": c.doc_type,
                            "doc_id": c.doc_id,
                            "record": c.record,
                        }
                    )
                    + "\n"
                )
            w.write(json.dumps({"end": True, "candidates": len(res.candidates)}) + "\n")
            w.flush()
            w.detach()
        raw.flush()
        os.fsync(raw.fileno())
    os.replace(tmp, task.path)
    summary = ChunkSummary(
        task.chunk,
        task.source,
        res.source_documents,
        sum(c["documents"] for c in res.counts.values()),
        len(res.candidates),
        resumed=False,
    )
    return summary, [_Candidate(c.key, c.doc_type, c.doc_id) for c in res.candidates]


def _read_chunk(path: Path) -> tuple[dict[str, Any], list[_Candidate]]:
    """A chunk file's header and candidates; BenchError if it is incomplete or corrupt."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            lines = fh.read().splitlines()
        header = json.loads(lines[0])
        footer = json.loads(lines[-1])
        if header.get("work_format") != _WORK_FORMAT or footer.get("end") is not True:
            raise ValueError("missing header or end marker")
        body = lines[1:-1]
        if footer.get("candidates") != len(body):
            raise ValueError(f"{len(body)} candidates, end marker says {footer.get('candidates')}")
        cands = []
        for line in body:
            d = json.loads(line)
            cands.append(_Candidate(tuple(d["key"]), d["doc_type"], d["doc_id"], d["record"]))  # type: ignore[arg-type]
        return header, cands
    except (OSError, EOFError, IndexError, KeyError, ValueError, gzip.BadGzipFile) as exc:
        raise BenchError(f"{path}: unreadable chunk file ({exc})") from None


class _WorkDir:
    """``manifest.json`` (settings, inputs, progress) and ``chunks/<input>-<chunk>.jsonl.gz``.

    A chunk file exists only once complete (written to a temp file, then renamed), so the files
    themselves say which chunks are done; the manifest pins the settings and inputs they belong to.
    """

    def __init__(self, path: Path, config: dict[str, Any], restart: bool):
        self.path = path
        self.chunks = path / "chunks"
        self.manifest = path / "manifest.json"
        self.config = config
        path.mkdir(parents=True, exist_ok=True)
        if restart:
            if self.chunks.is_dir():
                shutil.rmtree(self.chunks)
            self.manifest.unlink(missing_ok=True)
        if self.manifest.is_file():
            try:
                old = json.loads(self.manifest.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise BenchError(
                    f"{self.manifest}: unreadable manifest ({exc}); use --restart to discard this work directory"
                ) from None
            if old.get("config") != config:
                diff = sorted(
                    k
                    for k in set(old.get("config", {})) | set(config)
                    if old.get("config", {}).get(k) != config.get(k)
                )
                raise BenchError(
                    f"{path} holds a run with different settings or inputs (differs in: {', '.join(diff)}); "
                    "use another work directory, or --restart (restart=True) to discard it"
                )
        elif self.chunks.is_dir() and any(self.chunks.iterdir()):
            raise BenchError(
                f"{path}: chunk files without a manifest; use --restart (restart=True) to discard them"
            )
        self.chunks.mkdir(exist_ok=True)
        for tmp in self.chunks.glob(".*.tmp"):  # left behind by a killed run
            tmp.unlink(missing_ok=True)
        self.done = len(self.existing())
        self.write_manifest(finished=False)

    def chunk_path(self, chunk: str) -> Path:
        return self.chunks / f"{chunk}.jsonl.gz"

    def existing(self) -> dict[str, Path]:
        return {p.name[: -len(".jsonl.gz")]: p for p in self.chunks.glob("*.jsonl.gz")}

    def write_manifest(self, finished: bool) -> None:
        data = {
            "work_format": _WORK_FORMAT,
            "config": self.config,
            "chunks_done": self.done,
            "finished": finished,
            "updated": time.strftime("%Y-%m-%dT%H:%M:%S"),
        }
        _atomic_write_text(self.manifest, json.dumps(data, indent=1) + "\n")


def _resources_digest() -> str:
    h = hashlib.sha256()
    for d in (default_lexicon_dir(), default_rules_dir()):
        for p in sorted(d.glob("*.yaml")):
            h.update(p.name.encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _chunked(docs: Iterable[Document], size: int) -> Iterator[list[Document]]:
    chunk: list[Document] = []
    for d in docs:
        chunk.append(d)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def build(
    inputs: str | Path | Sequence[str | Path],
    *,
    input_format: str = "auto",
    output: str | Path | None = None,
    per_type: int = 200,
    seed: int = 0,
    workers: int = 1,
    work_dir: str | Path | None = None,
    chunk_size: int = 500,
    min_levels: int = 2,
    coverage: Sequence[Level | str] = PAPER_LEVELS,
    link: bool = True,
    vocabulary: str | Path | None = None,
    text_col: str | None = None,
    id_col: str | None = None,
    type_col: str | None = None,
    doc_type: str | None = None,
    sections: str | Sequence[str] | None = None,
    progress: bool | None = None,
    restart: bool = False,
    on_chunk: Callable[[ChunkSummary], None] | None = None,
) -> BuildResult:
    """Build a benchmark from note collections (see the module docstring for the steps).

    ``inputs``: files or folders (MIMIC-IV-Note discharge/radiology CSV(.gz), TCGA CSV, any
    CSV/TSV/JSONL(.gz) with a text column, folders of .txt). ``input_format`` applies to all
    inputs ("auto": detected per input from its name and columns). Inputs are streamed in chunks
    of ``chunk_size`` notes over ``workers`` processes; with ``work_dir`` each finished chunk is
    kept there and a rerun with the same settings skips it. ``progress``: None shows a bar on a
    terminal only, False never. ``on_chunk`` is called after each chunk (finished or resumed).
    Rows that cannot be read and documents that fail are skipped and listed in ``problems``.
    With ``output`` the benchmark JSONL and its statistics (``.stats.json``, ``.stats.md``) are
    written.
    """
    t0 = time.perf_counter()
    paths = [Path(inputs)] if isinstance(inputs, (str, Path)) else [Path(p) for p in inputs]
    if not paths:
        raise BenchError("no inputs given")
    for p in paths:
        if not p.exists():
            raise InputError(f"{p}: file not found")
    if not isinstance(workers, int) or workers < 1:
        raise BenchError(f"workers must be a positive integer, got {workers!r}")
    if not isinstance(chunk_size, int) or chunk_size < 1:
        raise BenchError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    options = BuildOptions(
        per_type=per_type,
        seed=seed,
        min_levels=min_levels,
        coverage=tuple(coverage),
        link=link,
        vocabulary=None if vocabulary is None else str(vocabulary),
    )
    specs = [
        resolve_spec(
            p,
            input_format,
            text_col=text_col,
            id_col=id_col,
            type_col=type_col,
            doc_type=doc_type,
            sections=sections,
        )
        for p in paths
    ]
    config = {
        "cuelex": __version__,
        "resources": _resources_digest(),
        "options": options.config(),
        "chunk_size": chunk_size,
        "inputs": [{**_fingerprint(p), **s.to_dict()} for p, s in zip(paths, specs, strict=True)],
    }
    # warm once, before any fork: engine, sectionizers, concept index (built on first use)
    pipeline = _Pipeline(options)
    for s in specs:
        if s.sections:
            get_sectionizer(s.sections if len(s.sections) > 1 else s.sections[0])
    if pipeline.linker is not None:
        _ = pipeline.linker.index_path
        _ = pipeline.linker.index
        if workers == 1:
            pipeline.warm()

    tmp_dir = None
    if work_dir is None:
        tmp_dir = tempfile.TemporaryDirectory(prefix="cuelex-bench-")
        work_dir = tmp_dir.name
    try:
        wd = _WorkDir(Path(work_dir), config, restart)
        return _run_local(
            paths,
            specs,
            options,
            pipeline,
            wd,
            workers,
            chunk_size,
            progress,
            on_chunk,
            output,
            config,
            t0,
        )
    finally:
        if tmp_dir is not None:
            tmp_dir.cleanup()


def _run_local(
    paths: list[Path],
    specs: list[InputSpec],
    options: BuildOptions,
    pipeline: _Pipeline,
    wd: _WorkDir,
    workers: int,
    chunk_size: int,
    progress: bool | None,
    on_chunk: Callable[[ChunkSummary], None] | None,
    output: str | Path | None,
    config: dict[str, Any],
    t0: float,
) -> BuildResult:
    from tqdm import tqdm

    existing = wd.existing()
    running = _Selector(options.per_type)  # keys only: thresholds for pruning
    order: list[str] = []
    read_problems: list[Problem] = []
    resumed = 0

    executor: ProcessPoolExecutor | None = None
    if workers > 1:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork") if "fork" in methods else None
        executor = ProcessPoolExecutor(
            max_workers=workers, mp_context=ctx, initializer=_init_worker, initargs=(options,)
        )
        # start and warm the workers now, before tqdm starts its monitor thread
        list(executor.map(_ping, range(workers)))
    pending: dict[Future, _ChunkTask] = {}
    bar = tqdm(
        desc="cuelex bench",
        unit=" notes",
        disable=None if progress is None else not progress,
        file=sys.stderr,
        mininterval=0.5,
        dynamic_ncols=True,
    )

    def finished(summary: ChunkSummary, keys: list[_Candidate]) -> None:
        for c in keys:
            running.add(c)
        wd.done += 1
        wd.write_manifest(finished=False)
        bar.update(summary.source_documents)
        if on_chunk is not None:
            on_chunk(summary)

    def drain(block_until: int) -> None:
        while len(pending) > block_until:
            done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for fut in done:
                task = pending.pop(fut)
                try:
                    summary, keys = fut.result()
                except Exception as exc:
                    raise BenchError(
                        f"chunk {task.chunk} of {task.source} failed: {type(exc).__name__}: {exc}"
                    ) from exc
                finished(summary, keys)

    try:
        for i, (path, spec) in enumerate(zip(paths, specs, strict=True)):
            docs = read_documents(
                path,
                text_col=spec.text_col,
                id_col=spec.id_col,
                type_col=spec.type_col,
                problems=read_problems,
            )
            for n, chunk in enumerate(_chunked(docs, chunk_size)):
                cid = f"{i:03d}-{n:07d}"
                order.append(cid)
                if cid in existing:
                    try:
                        header, cands = _read_chunk(existing[cid])
                    except BenchError as exc:
                        log.warning("%s; processing the chunk again", exc)
                        existing.pop(cid)
                    else:
                        got = (header["source_documents"], header["first_id"], header["last_id"])
                        want = (len(chunk), chunk[0].id, chunk[-1].id)
                        if got != want:
                            raise BenchError(
                                f"{existing[cid]}: the input changed since this chunk was made (it covers {got}, "
                                f"the input now gives {want}); use --restart"
                            )
                        resumed += 1
                        for c in cands:
                            running.add(c)
                        bar.update(len(chunk))
                        if on_chunk is not None:
                            on_chunk(
                                ChunkSummary(
                                    cid,
                                    str(path),
                                    len(chunk),
                                    sum(c["documents"] for c in header["counts"].values()),
                                    len(cands),
                                    resumed=True,
                                )
                            )
                        continue
                task = _ChunkTask(
                    cid, str(path), chunk, spec, options, running.thresholds(), wd.chunk_path(cid)
                )
                if executor is None:
                    finished(*_run_chunk(task, pipeline))
                else:
                    drain(block_until=2 * workers - 1)
                    pending[executor.submit(_run_chunk, task)] = task
        drain(block_until=0)
    except BaseException:
        if executor is not None:
            # queued chunks are dropped; running ones still finish and their files are kept
            executor.shutdown(wait=True, cancel_futures=True)
            executor = None
        raise
    finally:
        bar.close()
        if executor is not None:
            executor.shutdown(wait=True)

    # final merge, in input order: deterministic whatever order the chunks finished in
    selector = _Selector(options.per_type)
    counts: dict[str, dict[str, Any]] = {}
    problems = list(read_problems)
    source_docs = without = 0
    for cid in order:
        header, cands = _read_chunk(wd.chunk_path(cid))
        for c in cands:
            selector.add(c)
        _add_counts(counts, header["counts"])
        source_docs += header["source_documents"]
        without += header["without_sections"]
        problems.extend(Problem(*p) for p in header["problems"])
    wd.write_manifest(finished=True)
    result = _finish(selector, counts, source_docs, without, problems, options, config, output)
    result.chunks = len(order)
    result.chunks_resumed = resumed
    result.seconds = time.perf_counter() - t0
    return result


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
) -> BuildResult:
    """Build a benchmark from a Dask DataFrame of input rows with ``map_partitions(bench_partition)``.

    Runs on whatever scheduler is active (a ``distributed.Client`` if one is connected). The
    partition outputs (candidates and counts only) are gathered and merged as in :func:`build`;
    the same inputs and seed give the same benchmark as a local build.
    """
    try:
        import dask.dataframe as dd  # noqa: F401
    except ImportError:  # pragma: no cover - depends on the installation
        raise BenchError("Dask is not installed: pip install 'cuelex[dask]'") from None
    t0 = time.perf_counter()
    if input_format == "auto":
        raise BenchError(
            "build_dask needs an explicit input_format (mimic-discharge, mimic-radiology, tcga or generic)"
        )
    spec = resolve_spec(
        None,
        input_format,
        text_col=text_col,
        id_col=id_col,
        type_col=type_col,
        doc_type=doc_type,
        sections=sections,
    )
    options = BuildOptions(
        per_type=per_type,
        seed=seed,
        min_levels=min_levels,
        coverage=tuple(coverage),
        link=link,
        vocabulary=None if vocabulary is None else str(vocabulary),
    )
    if options.link:  # build the open index once here rather than in every worker at the same time
        _ = get_linker(options.vocabulary).index_path
    parts = frame.map_partitions(bench_partition, spec, options, source, meta=partition_meta())
    gathered = parts.compute()
    config = {"options": options.config(), "inputs": [{"dask": True, **spec.to_dict()}]}
    result = merge_partitions(gathered, options, output=output, config=config)
    result.chunks = int(frame.npartitions)
    result.seconds = time.perf_counter() - t0
    return result


# ==================================================================================================
# Human validation
# ==================================================================================================

VALIDATION_COLUMNS: tuple[str, ...] = (
    "doc_id", "doc_type", "pair_index", "sentence", "cue_text", "target_text", "level", "level_meaning",
    "cui", "preferred_name", "correct", "comment",
)  # fmt: skip
_YES = {"yes", "y", "true", "1", "correct"}
_NO = {"no", "n", "false", "0", "incorrect", "wrong"}


def validation_sample(
    benchmark: str | Path | Iterable[BenchDocument], per_type: int = 15, seed: int = 0
) -> list[BenchDocument]:
    """A stratified random sample: ``per_type`` documents of each type (all if fewer), seeded."""
    if not isinstance(per_type, int) or per_type < 1:
        raise BenchError(f"per_type must be a positive integer, got {per_type!r}")
    docs = _documents(benchmark)
    by_type: dict[str, list[BenchDocument]] = {}
    for d in docs:
        by_type.setdefault(d.doc_type, []).append(d)
    out = []
    for t in _type_order(by_type):
        pool = sorted(by_type[t], key=lambda d: d.doc_id)
        rng = random.Random(f"cuelex-validation:{seed}:{t}")
        out.extend(sorted(rng.sample(pool, min(per_type, len(pool))), key=lambda d: d.doc_id))
    return out


def export_validation(
    benchmark: str | Path | Iterable[BenchDocument],
    path: str | Path,
    *,
    per_type: int = 15,
    seed: int = 0,
) -> pd.DataFrame:
    """Write the reviewer's CSV: one row per pair of a stratified sample, ``correct`` left blank.

    The reviewer answers ``yes`` when both the cue and the target were extracted correctly, else
    ``no`` (the paper's criterion); ``comment`` is free text.
    """
    rows = []
    for d in validation_sample(benchmark, per_type, seed):
        for i, p in enumerate(d.pairs):
            rows.append({
                "doc_id": d.doc_id, "doc_type": d.doc_type, "pair_index": i, "sentence": p.sentence,
                "cue_text": p.cue_text, "target_text": p.target_text, "level": p.level.value,
                "level_meaning": p.level.label, "cui": p.cui or "", "preferred_name": p.preferred_name or "",
                "correct": "", "comment": "",
            })  # fmt: skip
    frame = pd.DataFrame(rows, columns=list(VALIDATION_COLUMNS))
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    # free-text cells that a spreadsheet would run as formulas get a leading apostrophe (the
    # reviewer opens this file in one); ids stay as they are so answers join back exactly
    shown = frame.copy()
    for col in ("sentence", "cue_text", "target_text", "preferred_name"):
        shown[col] = shown[col].map(neutralize_cell)
    shown.to_csv(out, index=False)
    return frame


@dataclass(frozen=True)
class ValidationAnswer:
    """One reviewed pair."""

    doc_id: str
    doc_type: str
    pair_index: int
    correct: bool
    row: int


def read_validation(path: str | Path) -> list[ValidationAnswer]:
    """Read a filled-in review CSV; every problem (missing column, blank or invalid answer,
    repeated pair) is reported together, naming the file and the row (header = row 1)."""
    p = Path(path)
    if not p.is_file():
        raise BenchError(f"{p}: review file not found")
    raw = p.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bom = 3 if raw.startswith(b"\xef\xbb\xbf") else 0
        raise BenchError(
            f"{p}: not valid UTF-8 at byte {exc.start + bom} ({exc.reason}); save the review file "
            "as 'CSV UTF-8'"
        ) from None
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    columns = [c.strip() for c in reader.fieldnames or []]
    reader.fieldnames = columns
    missing = [c for c in ("doc_id", "pair_index", "correct") if c not in columns]
    if missing:
        raise BenchError(f"{p}: missing column(s) {missing}; columns are {columns}")
    answers: list[ValidationAnswer] = []
    errors: list[str] = []
    seen: dict[tuple[str, int], int] = {}
    for n, row in enumerate(reader, start=2):
        doc_id = (row.get("doc_id") or "").strip()
        raw_idx = (row.get("pair_index") or "").strip()
        value = (row.get("correct") or "").strip()
        if not doc_id:
            errors.append(f"row {n}: 'doc_id' is empty")
            continue
        try:
            idx = int(raw_idx)
        except ValueError:
            errors.append(f"row {n}: 'pair_index' is {raw_idx!r}, not a whole number")
            continue
        if not value:
            errors.append(f"row {n} ({doc_id}, pair {idx}): 'correct' is empty; answer yes or no")
            continue
        if value.lower() not in _YES | _NO:
            errors.append(
                f"row {n} ({doc_id}, pair {idx}): 'correct' is {value!r}; expected yes or no"
            )
            continue
        if (doc_id, idx) in seen:
            errors.append(
                f"row {n}: pair ({doc_id}, {idx}) already answered on row {seen[(doc_id, idx)]}"
            )
            continue
        seen[(doc_id, idx)] = n
        answers.append(
            ValidationAnswer(
                doc_id, (row.get("doc_type") or "").strip(), idx, value.lower() in _YES, n
            )
        )
    if errors:
        shown = errors[:20] + ([f"... and {len(errors) - 20} more"] if len(errors) > 20 else [])
        raise BenchError(f"{p}: {len(errors)} invalid answer(s):\n  " + "\n  ".join(shown))
    if not answers:
        raise BenchError(f"{p}: no answers")
    return answers


def cohen_kappa(a: Sequence[Any], b: Sequence[Any]) -> float | None:
    """Cohen's kappa of two raters' labels over the same items; None when it is undefined
    (both raters gave one and the same label to every item: chance agreement is 1)."""
    if len(a) != len(b):
        raise ValueError(f"the raters labelled {len(a)} and {len(b)} items")
    if not a:
        raise ValueError("no items to compare")
    n = len(a)
    po = sum(x == y for x, y in zip(a, b, strict=True)) / n
    ca, cb = Counter(a), Counter(b)
    pe = sum(ca[k] * cb.get(k, 0) for k in ca) / (n * n)
    if pe >= 1.0:
        return None
    return (po - pe) / (1 - pe)


class AgreementReport(BaseModel):
    """Accuracy of the extracted pairs by two reviewers, and their agreement."""

    model_config = ConfigDict(frozen=True)

    files: tuple[str, str]
    items: int
    accuracy: float  # mean of the two reviewers' shares of pairs judged correct (the paper's "average accuracy")
    accuracy_a: float
    accuracy_b: float
    observed_agreement: float
    kappa: float | None
    table: dict[str, int]  # "yes/yes", "yes/no", "no/yes", "no/no" (reviewer A / reviewer B)
    by_type: dict[str, dict[str, Any]]

    def format(self) -> str:
        k = "undefined" if self.kappa is None else f"{self.kappa:.3f}"
        lines = [
            f"reviewers: A = {self.files[0]}, B = {self.files[1]}",
            f"pairs reviewed by both: {self.items}",
            f"accuracy: {self.accuracy:.1%} (A {self.accuracy_a:.1%}, B {self.accuracy_b:.1%})",
            f"agreement: {self.observed_agreement:.1%}   Cohen's kappa: {k}",
            "A/B yes/yes {yes/yes}, yes/no {yes/no}, no/yes {no/yes}, no/no {no/no}".format(
                **self.table
            ),
        ]
        rows = [
            [
                t,
                s["items"],
                f"{s['accuracy']:.1%}",
                "" if s["kappa"] is None else f"{s['kappa']:.3f}",
            ]
            for t, s in self.by_type.items()
        ]
        return (
            "\n".join(lines)
            + "\n\n"
            + _table(["type", "pairs", "accuracy", "kappa"], rows, markdown=False)
        )


def agreement(a: str | Path, b: str | Path) -> AgreementReport:
    """Compare two reviewers' files (from :func:`export_validation`): accuracy and Cohen's kappa.

    Both files must answer the same pairs; any pair only one reviewer answered is an error.
    """
    ans_a, ans_b = read_validation(a), read_validation(b)
    ma = {(x.doc_id, x.pair_index): x for x in ans_a}
    mb = {(x.doc_id, x.pair_index): x for x in ans_b}
    only_a = [k for k in ma if k not in mb]
    only_b = [k for k in mb if k not in ma]
    if only_a or only_b:
        parts = []
        if only_a:
            parts.append(
                f"{len(only_a)} pair(s) only in {a} (first: {only_a[0][0]}, pair {only_a[0][1]}, row {ma[only_a[0]].row})"
            )
        if only_b:
            parts.append(
                f"{len(only_b)} pair(s) only in {b} (first: {only_b[0][0]}, pair {only_b[0][1]}, row {mb[only_b[0]].row})"
            )
        raise BenchError("the review files cover different pairs: " + "; ".join(parts))
    keys = list(ma)
    va = [ma[k].correct for k in keys]
    vb = [mb[k].correct for k in keys]

    def summary(idx: list[int]) -> dict[str, Any]:
        xa, xb = [va[i] for i in idx], [vb[i] for i in idx]
        acc = (sum(xa) + sum(xb)) / (2 * len(idx))
        return {
            "items": len(idx),
            "accuracy": round(acc, 4),
            "kappa": None if (k := cohen_kappa(xa, xb)) is None else round(k, 4),
        }

    types: dict[str, list[int]] = {}
    for i, k in enumerate(keys):
        types.setdefault(ma[k].doc_type or mb[k].doc_type or "(none)", []).append(i)
    table = Counter(
        f"{'yes' if x else 'no'}/{'yes' if y else 'no'}" for x, y in zip(va, vb, strict=True)
    )
    n = len(keys)
    return AgreementReport(
        files=(str(a), str(b)),
        items=n,
        accuracy=(sum(va) + sum(vb)) / (2 * n),
        accuracy_a=sum(va) / n,
        accuracy_b=sum(vb) / n,
        observed_agreement=sum(x == y for x, y in zip(va, vb, strict=True)) / n,
        kappa=cohen_kappa(va, vb),
        table={k: table.get(k, 0) for k in ("yes/yes", "yes/no", "no/yes", "no/no")},
        by_type={t: summary(types[t]) for t in _type_order(types)},
    )


# ==================================================================================================
# Demo
# ==================================================================================================


def demo_corpus() -> Path:
    """The embedded demo corpus: 207 ACI-BENCH visit notes (CC BY 4.0)."""
    return Path(str(importlib_resources.files("cuelex.data").joinpath("aci_bench_notes.jsonl")))


def demo(
    output_dir: str | Path = "out", *, per_type: int = 200, seed: int = 0, progress: bool = False
) -> dict[str, Any]:
    """Build a benchmark from the embedded demo corpus (whole notes, type ``visit_note``).

    Writes ``demo_benchmark.jsonl`` (+ ``.stats.json``/``.stats.md``) and a reviewer sheet
    ``demo_validation.csv`` into ``output_dir``; returns the statistics (:func:`statistics`),
    with the pre-screening counts under ``"screening"``.
    """
    out = Path(output_dir)
    result = build(
        demo_corpus(),
        input_format="generic",
        doc_type="visit_note",
        per_type=per_type,
        seed=seed,
        workers=1,
        output=out / "demo_benchmark.jsonl",
        progress=progress,
    )
    export_validation(result.documents, out / "demo_validation.csv", seed=seed)
    return {**result.stats, "screening": result.screening}
