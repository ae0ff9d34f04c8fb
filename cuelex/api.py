"""The public functions: ``extract``, ``assess``, ``to_frame`` and engine construction from a config."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path

import pandas as pd

from .extraction import Engine, default_engine
from .records import Assessment, CueTargetPair
from .resources import load_resources

PAIR_COLUMNS: tuple[str, ...] = tuple(CueTargetPair.model_fields)


def _key(value: object) -> object:
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return tuple(str(Path(v)) for v in value)
    return str(Path(value))  # type: ignore[arg-type]


@lru_cache(maxsize=16)
def _cached_engine(lexicons: object, rules_dir: object, extra: object) -> Engine:
    return Engine(load_resources(lexicons=lexicons, rules_dir=rules_dir, extra_lexicons=extra or ()))  # type: ignore[arg-type]


def get_engine(
    lexicons: str | Path | Sequence[str | Path] | None = None,
    rules_dir: str | Path | None = None,
    extra_lexicons: Sequence[str | Path] = (),
) -> Engine:
    """An engine for a lexicon/rules configuration (the shipped defaults when all are omitted); cached."""
    if lexicons is None and rules_dir is None and not extra_lexicons:
        return default_engine()
    return _cached_engine(_key(lexicons), _key(rules_dir), _key(list(extra_lexicons)))


def extract(
    text: str,
    *,
    doc_id: str | None = None,
    lexicons: str | Path | Sequence[str | Path] | None = None,
    rules_dir: str | Path | None = None,
    extra_lexicons: Sequence[str | Path] = (),
) -> list[CueTargetPair]:
    """Find every uncertainty cue in ``text`` with the clinical target it modifies.

    >>> [(p.cue_text, p.target_text, p.level.value) for p in extract("Possible pneumonia.")]
    [('Possible', 'pneumonia', 'UL3')]
    """
    return get_engine(lexicons, rules_dir, extra_lexicons).extract(text, doc_id=doc_id)


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
    return get_engine(lexicons, rules_dir, extra_lexicons).assess(text, spans)


def to_frame(pairs: Iterable[CueTargetPair]) -> pd.DataFrame:
    """A tidy DataFrame of pairs, one row each, with the columns of ``CueTargetPair`` in order.

    Levels and directions become their string values; tuples (semantic types, modifiers) become
    ``|``-joined strings so the frame writes cleanly to CSV.
    """
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
