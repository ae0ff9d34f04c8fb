"""spaCy ``Doc`` and ``Span`` extensions of cuelex, registered in one place.

Values live in ``doc.user_data`` as plain msgpack-friendly dicts, so Docs survive ``to_bytes`` and
``nlp.pipe(n_process=2)``; the getters turn them back into typed records.
"""

from __future__ import annotations

from spacy.tokens import Doc, Span

from .levels import Level
from .records import Cue, CueTargetPair

PAIRS_KEY = "cuelex_pairs"
ASSESS_KEY = "cuelex_assessments"


def _cue_pairs(doc: Doc) -> list[CueTargetPair]:
    return [CueTargetPair.model_validate(d) for d in doc.user_data.get(PAIRS_KEY, [])]


def _assessment(span: Span) -> dict | None:
    return span.doc.user_data.get(ASSESS_KEY, {}).get(f"{span.start_char}:{span.end_char}")


def _uncertainty_level(span: Span) -> Level | None:
    found = _assessment(span)
    return Level(found["level"]) if found else None


def _uncertainty_cue(span: Span) -> Cue | None:
    found = _assessment(span)
    return Cue.model_validate(found["cue"]) if found and found.get("cue") else None


def register_extensions() -> None:
    """Register ``Doc._.cue_pairs``, ``Span._.uncertainty_level`` and ``Span._.uncertainty_cue`` (idempotent)."""
    if not Doc.has_extension("cue_pairs"):
        Doc.set_extension("cue_pairs", getter=_cue_pairs)
    if not Span.has_extension("uncertainty_level"):
        Span.set_extension("uncertainty_level", getter=_uncertainty_level)
    if not Span.has_extension("uncertainty_cue"):
        Span.set_extension("uncertainty_cue", getter=_uncertainty_cue)
