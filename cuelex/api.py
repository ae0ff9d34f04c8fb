"""The public functions: ``extract``, ``assess``, ``to_frame`` and engine construction from a config."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .corpus import check_text
from .pipeline import get_engine, get_linker, run_pipeline
from .records import Assessment, CueTargetPair

if TYPE_CHECKING:
    import pandas as pd

PAIR_COLUMNS: tuple[str, ...] = tuple(CueTargetPair.model_fields)


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
    return run_pipeline(
        text,
        engine=get_engine(lexicons, rules_dir, extra_lexicons),
        linker=get_linker(vocabulary) if link or vocabulary is not None else None,
        deduplicate=deduplicate,
        doc_id=doc_id,
    )


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
