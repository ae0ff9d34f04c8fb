"""The benchmark file format: one JSON object a line (:class:`BenchDocument`), its schema version
and the errors of a bad file (:class:`BenchError`).
"""

from __future__ import annotations

import hashlib
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..errors import CuelexError
from ..levels import LEVEL_ORDER, Level
from ..records import CueTargetPair

__all__ = [
    "BenchDocument",
    "BenchError",
    "SCHEMA_VERSION",
    "SectionInfo",
    "count_words",
    "priority_key",
]

#: Version of the benchmark file schema (every line carries it).
SCHEMA_VERSION = 1
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
    This is the file format (validated, frozen, versioned); the input rows it is built from are
    :class:`cuelex.corpus.Document`, and a run reduces it to :class:`cuelex.runner.Document`.
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
