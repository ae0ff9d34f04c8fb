"""The one pipeline composition: engine → link → dedup, and the cached engine and linker per
configuration that every entry point shares.

``cuelex.extract``, the spaCy component, the benchmark builder and the scorer all run a text
through :func:`run_pipeline`, so a change to the order or the conditions happens in one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from .concepts.dedup import deduplicate as _deduplicate
from .concepts.linking import Linker
from .extraction.engine import Engine, default_engine
from .records import CueTargetPair
from .resources import load_resources

__all__ = ["get_engine", "get_linker", "run_pipeline"]


def _key(value: object) -> object:
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return tuple(str(Path(v)) for v in value)
    return str(Path(value))  # type: ignore[arg-type]


@lru_cache(maxsize=16)
def _cached_engine(lexicons: object, rules_dir: object, extra: object) -> Engine:
    return Engine(
        load_resources(lexicons=lexicons, rules_dir=rules_dir, extra_lexicons=extra or ())
    )  # type: ignore[arg-type]


def get_engine(
    lexicons: str | Path | Sequence[str | Path] | None = None,
    rules_dir: str | Path | None = None,
    extra_lexicons: Sequence[str | Path] = (),
) -> Engine:
    """An engine for a lexicon/rules configuration (the shipped defaults when all are omitted); cached."""
    if lexicons is None and rules_dir is None and not extra_lexicons:
        return default_engine()
    return _cached_engine(_key(lexicons), _key(rules_dir), _key(list(extra_lexicons)))


@lru_cache(maxsize=4)
def _cached_linker(vocabulary: str | None) -> Linker:
    return Linker(vocabulary=vocabulary)


def get_linker(vocabulary: str | Path | None = None) -> Linker:
    """A concept linker for a vocabulary (None: the open vocabulary shipped with cuelex); cached.

    The open index is built on first use into ``$CUELEX_CACHE_DIR`` (default ``~/.cache/cuelex``);
    a licence holder's index comes from ``cuelex vocab build --umls META --out DIR``.
    """
    return _cached_linker(None if vocabulary is None else str(vocabulary))


def run_pipeline(
    text: str,
    *,
    engine: Engine,
    linker: Linker | None = None,
    deduplicate: bool = False,
    doc_id: str | None = None,
    sentences: Sequence[tuple[int, int]] | None = None,
    pairs: list[CueTargetPair] | None = None,
) -> list[CueTargetPair]:
    """The pairs of ``text``: the engine's, linked to concepts by ``linker`` (if any, and if there
    are pairs), each target kept once per document with ``deduplicate``. ``pairs``: what
    ``engine.extract(text, doc_id=doc_id)`` has just returned, when the caller already has it."""
    if pairs is None:
        if sentences is None:
            pairs = engine.extract(text, doc_id=doc_id)
        else:
            pairs = engine.extract(text, doc_id=doc_id, sentences=sentences)
    if linker is not None and pairs:
        if type(linker).link is Linker.link and isinstance(engine, Engine):
            # the engine's pairs of ``text`` index it by construction: ``link``'s per-pair
            # offset and string checks are skipped (same links)
            pairs = linker._link_checked(text, list(pairs))
        else:
            pairs = linker.link(text, pairs)
    if deduplicate:
        pairs = _deduplicate(pairs)
    return list(pairs)
