"""Word lists that several stages share (one home each).

``FUNCTION_WORDS``: prepositions, conjunctions and articles that never carry a target's meaning; a
phrase window may not start or end with one (alignment, :mod:`cuelex.scoring.align`; embedding
windows, :mod:`cuelex.concepts.semantic`).
"""

from __future__ import annotations

__all__ = ["FUNCTION_WORDS"]

#: Function words: never the first or last word of a phrase that names a target.
FUNCTION_WORDS: frozenset[str] = frozenset(
    {
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "with",
        "within",
        "from",
        "by",
        "into",
        "and",
        "a",
        "an",
        "the",
    }
)
