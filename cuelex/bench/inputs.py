"""Benchmark inputs: MIMIC-IV-Note discharge and radiology tables, TCGA reports, generic
CSV/TSV/JSONL tables and folders of text; format detection and one :class:`InputSpec` per input.
"""

from __future__ import annotations

import csv
import gzip
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..extraction.sections import PROFILES
from .format import BenchError

__all__ = [
    "InputOptions",
    "FORMATS",
    "InputSpec",
    "detect_format",
    "resolve_spec",
]

log = logging.getLogger(__name__)

#: Input formats understood by :func:`build` ("auto" detects one per input).
FORMATS: tuple[str, ...] = ("auto", "mimic-discharge", "mimic-radiology", "tcga", "generic")


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



@dataclass(frozen=True)
class InputOptions:
    """How a build reads its inputs: the format (``"auto"``: detected per file) and the column,
    document type and section overrides of that format's defaults (:func:`resolve_spec`)."""

    input_format: str = "auto"
    text_col: str | None = None
    id_col: str | None = None
    type_col: str | None = None
    doc_type: str | None = None
    sections: str | Sequence[str] | None = None

    def spec(self, path: str | Path | None) -> InputSpec:
        """The :class:`InputSpec` of one input (``path`` None: no file to detect the format from)."""
        return resolve_spec(
            path,
            self.input_format,
            text_col=self.text_col,
            id_col=self.id_col,
            type_col=self.type_col,
            doc_type=self.doc_type,
            sections=self.sections,
        )

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
