"""spaCy ``Doc`` and ``Span`` extensions of cuelex, registered in one place.

Values live in ``doc.user_data`` as JSON *strings*, so Docs survive ``to_bytes`` and
``nlp.pipe(n_process=2)``; the getters turn them back into typed records. The component's pairs
are a :class:`PairsJSON` on a live Doc: equal to that JSON text (``str()`` gives it) and written
as it wherever the Doc goes (msgpack: ``to_bytes``, ``DocBin``, worker processes; pickle), but
only written then: a Doc that is only read never pays for the JSON.

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
from typing import Any

import srsly
from pydantic import TypeAdapter
from spacy.tokens import Doc, Span

from .levels import Level
from .records import Cue, CueTargetPair

PAIRS_KEY = "cuelex_pairs"
ASSESS_KEY = "cuelex_assessments"

# pydantic-core writes and reads the pairs' JSON in one call: the same text as ``encode`` of
# their ``model_dump(mode="json")`` (a test checks this), at a third of the cost
_PAIR_LIST = TypeAdapter(list[CueTargetPair])

_ALL_PAIR_FIELDS = frozenset(CueTargetPair.model_fields)
_new_pair = CueTargetPair.__new__
_set = object.__setattr__


def encode(value: Any) -> str:
    """JSON text of a ``user_data`` value (what the component stores)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def encode_pairs(pairs: list[CueTargetPair]) -> str:
    """JSON text of a list of pairs, as ``encode([p.model_dump(mode="json") for p in pairs])``."""
    return _PAIR_LIST.dump_json(pairs).decode("utf-8")


class PairsJSON:
    """The JSON text of a list of pairs (``encode_pairs``), written when first needed.

    It equals that text, ``str()`` returns it, and msgpack and pickle write the text itself, so a
    Doc read back from bytes or another process holds the plain string (``Doc.copy`` shares this
    immutable value). Reading ``Doc._.cue_pairs`` on the live Doc copies the pairs instead of
    parsing the text.
    """

    __slots__ = ("_text", "pairs")

    def __init__(self, pairs: tuple[CueTargetPair, ...]) -> None:
        self.pairs = pairs
        self._text: str | None = None

    def __str__(self) -> str:
        if self._text is None:
            self._text = encode_pairs(list(self.pairs))
        return self._text

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PairsJSON):
            return other is self or str(self) == str(other)
        if isinstance(other, str):
            return str(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))

    def __repr__(self) -> str:
        return repr(str(self))

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        return (str, (str(self),))  # unpickled as the JSON text

    def __copy__(self) -> PairsJSON:
        return self  # immutable

    def __deepcopy__(self, memo: dict) -> PairsJSON:
        return self


def _msgpack_text(obj: Any, chain: Any = None) -> Any:
    """srsly's msgpack encoder hook: a :class:`PairsJSON` goes out as its JSON text."""
    if isinstance(obj, PairsJSON):
        return str(obj)
    return obj if chain is None else chain(obj)


# spaCy writes ``user_data`` with srsly's msgpack (Doc.to_bytes, DocBin, nlp.pipe's workers); the
# hook is asked only about objects msgpack cannot write itself, so nothing else changes
srsly.msgpack_encoders.register("cuelex_pairs_json", func=_msgpack_text)


def store_pairs(doc: Doc, pairs: list[CueTargetPair]) -> None:
    """Put ``pairs`` in ``doc.user_data`` (a :class:`PairsJSON`: JSON text when serialised)."""
    doc.user_data[PAIRS_KEY] = PairsJSON(tuple(pairs))


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
    if isinstance(value, PairsJSON):  # stored on this live Doc: copies, not a parse of the JSON
        return [_as_parsed(p) for p in value.pairs]
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
