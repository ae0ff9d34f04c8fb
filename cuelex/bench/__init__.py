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

The package's modules, in the order they build on each other: :mod:`.format` (the file schema),
:mod:`.inputs`, :mod:`.screening` (per-document processing), :mod:`.files` (reading, writing,
statistics), :mod:`.results`, :mod:`.validation`, :mod:`.builder` (local build, demo) and
:mod:`.distributed` (Dask). ``cuelex.bench`` was one module before; ``from cuelex.bench import
NAME`` still resolves every name through the module-level ``__getattr__`` below.
"""

from __future__ import annotations

import importlib

from .. import _compat

#: the submodules, in dependency order: the first that defines a name is its home
_MODULES: tuple[str, ...] = (
    "format",
    "inputs",
    "screening",
    "files",
    "results",
    "validation",
    "builder",
    "distributed",
)


def __getattr__(name: str) -> object:
    """An old ``cuelex.bench.NAME``: from the submodule that defines it (imported on first use),
    or from the module it moved to (:data:`cuelex._compat.MOVED_NAMES`)."""
    if name in _compat.MOVED_NAMES.get(__name__, {}):
        return _compat.moved_attr(__name__, name)
    if not name.startswith("__"):
        for module in _MODULES:
            mod = importlib.import_module(f"{__name__}.{module}")
            if name in getattr(mod, "__all__", ()) or (
                name in vars(mod) and getattr(vars(mod)[name], "__module__", None) == mod.__name__
            ):
                return vars(mod)[name]
        for module in _MODULES:  # private helpers and constants
            mod = importlib.import_module(f"{__name__}.{module}")
            if name in vars(mod):
                return vars(mod)[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
