"""The public functions: ``extract``, ``assess``, ``to_frame`` and engine construction from a config."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from .corpus import check_text
from .extraction.engine import Engine, default_engine
from .records import Assessment, CueTargetPair
from .resources import load_resources

if TYPE_CHECKING:
    import pandas as pd

    from .concepts.linking import Linker

PAIR_COLUMNS: tuple[str, ...] = tuple(CueTargetPair.model_fields)


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
    from .concepts.linking import Linker

    return Linker(vocabulary=vocabulary)


def get_linker(vocabulary: str | Path | None = None) -> Linker:
    """A concept linker for a vocabulary (None: the open vocabulary shipped with cuelex); cached.

    The open index is built on first use into ``$CUELEX_CACHE_DIR`` (default ``~/.cache/cuelex``);
    a licence holder's index comes from ``cuelex vocab build --umls META --out DIR``.
    """
    return _cached_linker(None if vocabulary is None else str(vocabulary))


def extract(
    text: str,
    *,
    doc_id: str | None = None,
    link: bool = False,
    vocabulary: str | Path | None = None,
    deduplicate: bool = False,
    lexicons: str | Path | Sequence[str | Path] | None = None,
    rules_dir: str | Path | None = None,
    extra_lexicons: Sequence[str | Path] = (),
) -> list[CueTargetPair]:
    """Find every uncertainty cue in ``text`` with the clinical target it modifies.

    ``text`` must be valid Unicode: a lone surrogate raises ``ValueError`` with its offset
    (:func:`cuelex.corpus.check_text`, the policy of every entry point).

    With ``link`` (implied by ``vocabulary``) targets are linked to concepts (CUI, preferred
    name, semantic types, link score, review flag); with ``deduplicate`` each target is kept
    once per document, as in the paper's benchmark.

    >>> [(p.cue_text, p.target_text, p.level.value) for p in extract("Possible pneumonia.")]
    [('Possible', 'pneumonia', 'UL3')]
    """
    check_text(text)
    pairs = get_engine(lexicons, rules_dir, extra_lexicons).extract(text, doc_id=doc_id)
    if (link or vocabulary is not None) and pairs:
        pairs = get_linker(vocabulary).link(text, pairs)
    if deduplicate:
        from .concepts.dedup import deduplicate as _dedup

        pairs = _dedup(pairs)
    return pairs


def assess(
    text: str,
    spans: Sequence[tuple[int, int]],
    *,
    lexicons: str | Path | Sequence[str | Path] | None = None,
    rules_dir: str | Path | None = None,
    extra_lexicons: Sequence[str | Path] = (),
) -> list[Assessment]:
    """The certainty level of each given target span (character offsets), for users with their own NER.

    >>> text = "No evidence of pulmonary embolism."
    >>> assess(text, [(15, 33)])[0].level
    <Level.UL1: 'UL1'>
    """
    check_text(text)
    return get_engine(lexicons, rules_dir, extra_lexicons).assess(text, spans)


def to_frame(pairs: Iterable[CueTargetPair]) -> pd.DataFrame:
    """A tidy DataFrame of pairs, one row each, with the columns of ``CueTargetPair`` in order.

    Levels and directions become their string values; tuples (semantic types, modifiers) become
    ``|``-joined strings so the frame writes cleanly to CSV.
    """
    import pandas as pd  # imported on first use: ``import cuelex`` stays light

    rows = []
    for p in pairs:
        if not isinstance(p, CueTargetPair):
            raise TypeError(f"to_frame expects CueTargetPair records, got {type(p).__name__}")
        row = p.model_dump(mode="json")
        for col in ("semantic_types", "modifiers"):
            row[col] = "|".join(row[col])
        rows.append(row)
    frame = pd.DataFrame(rows, columns=list(PAIR_COLUMNS))
    return frame
