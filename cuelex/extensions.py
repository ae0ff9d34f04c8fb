"""spaCy ``Doc`` and ``Span`` extensions of cuelex, registered in one place.

Values live in ``doc.user_data`` as JSON *strings*, so Docs survive ``to_bytes`` and
``nlp.pipe(n_process=2)``; the getters turn them back into typed records.

Why strings and not plain dicts: spaCy ships ``user_data`` between processes with msgpack, and
medSpaCy registers global msgpack decoders (``srsly.msgpack_decoders``) that take over *any* decoded
dict holding a ``"section"``, ``"modifier"``, ``"modifiers"`` or ``"context_graph"`` key — e.g.
``medspacy/section_detection/section.py::deserialize_section`` turns ``{"section": None, ...}`` into
``Section.from_serialized_representation(None)``, which fails with "'NoneType' object is not
subscriptable". Every cue–target pair has a ``section`` field, so as soon as ``import medspacy`` has
run, dicts would be hijacked on the way back from a worker. A string is never passed to an object
hook, whatever decoders are registered.
"""

from __future__ import annotations

import json
import weakref
from typing import Any

from pydantic import TypeAdapter
from spacy.tokens import Doc, Span

from .levels import Level
from .records import Cue, CueTargetPair

PAIRS_KEY = "cuelex_pairs"
ASSESS_KEY = "cuelex_assessments"

# pydantic-core writes and reads the pairs' JSON in one call: the same text as ``encode`` of
# their ``model_dump(mode="json")`` (a test checks this), at a third of the cost
_PAIR_LIST = TypeAdapter(list[CueTargetPair])

# The pairs the component stored on each live Doc, with the very JSON string it stored: reading
# ``Doc._.cue_pairs`` copies them instead of parsing and validating that JSON again (a Doc read
# back from bytes or another process, or a changed value, is not in here: it is parsed)
_STORED: weakref.WeakKeyDictionary[Doc, tuple[str, tuple[CueTargetPair, ...]]] = (
    weakref.WeakKeyDictionary()
)
_ALL_PAIR_FIELDS = frozenset(CueTargetPair.model_fields)
_new_pair = CueTargetPair.__new__
_set = object.__setattr__


def encode(value: Any) -> str:
    """JSON text of a ``user_data`` value (what the component stores)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def encode_pairs(pairs: list[CueTargetPair]) -> str:
    """JSON text of a list of pairs, as ``encode([p.model_dump(mode="json") for p in pairs])``."""
    return _PAIR_LIST.dump_json(pairs).decode("utf-8")


def store_pairs(doc: Doc, pairs: list[CueTargetPair]) -> None:
    """Write ``pairs`` to ``doc.user_data`` as JSON text and remember them for ``Doc._.cue_pairs``."""
    value = encode_pairs(pairs)
    doc.user_data[PAIRS_KEY] = value
    _STORED[doc] = (value, tuple(pairs))


def _as_parsed(pair: CueTargetPair) -> CueTargetPair:
    """A copy of ``pair`` as parsing its JSON gives it: the same values, every field set.

    Built field by field (a third of ``__copy__``'s cost): the model has no private or extra
    attributes (a test compares the copies with parsed pairs, type by type).
    """
    copy = _new_pair(CueTargetPair)
    _set(copy, "__dict__", pair.__dict__.copy())
    _set(copy, "__pydantic_fields_set__", set(_ALL_PAIR_FIELDS))
    _set(copy, "__pydantic_extra__", None)
    _set(copy, "__pydantic_private__", None)
    return copy


def _decoded(value: Any, empty: Any) -> Any:
    if value is None:
        return empty
    if isinstance(value, (str, bytes)):
        return json.loads(value)
    return value  # a Doc written by cuelex ≤ 0.1.0 (plain dicts)


def _cue_pairs(doc: Doc) -> list[CueTargetPair]:
    value = doc.user_data.get(PAIRS_KEY)
    stored = _STORED.get(doc)
    if stored is not None and stored[0] is value:
        return [_as_parsed(p) for p in stored[1]]
    if isinstance(value, (str, bytes)):
        return _PAIR_LIST.validate_json(value)  # parsed and validated in one pass
    return [CueTargetPair.model_validate(d) for d in _decoded(value, [])]


def _assessment(span: Span) -> dict | None:
    found = _decoded(span.doc.user_data.get(ASSESS_KEY), {})
    return found.get(f"{span.start_char}:{span.end_char}")


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
