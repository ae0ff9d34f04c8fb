"""The characters a regular expression can start with, read from the stdlib's parse tree.

One reader for two prefilters: the cue scanner groups its patterns by first character
(``engine``), and the sentence splitter tries its list marker only where one can start
(``sentences``). Each passes the character classes it can expand (``categories``)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

try:  # the stdlib's regex parser
    from re import _constants as sre_constants
    from re import _parser as sre_parser
except ImportError:  # Python 3.10
    import sre_constants  # type: ignore[no-redef]
    import sre_parse as sre_parser  # type: ignore[no-redef]

__all__ = ["first_of_item", "first_of_seq", "sre_constants", "sre_parser"]

Categories = Mapping[Any, Collection[str]]
_REPEATS = (
    sre_constants.MAX_REPEAT,
    sre_constants.MIN_REPEAT,
    getattr(sre_constants, "POSSESSIVE_REPEAT", sre_constants.MAX_REPEAT),
)


def first_of_seq(items: list, categories: Categories) -> tuple[set[str] | None, bool]:
    """(characters a parsed sequence can start with, whether it can match the empty string);
    (None, False) when that cannot be worked out (an item other than literals, ranges, the
    ``categories`` classes, groups, alternatives, repeats and zero-width assertions)."""
    out: set[str] = set()
    for op, av in items:
        found, nullable = first_of_item(op, av, categories)
        if found is None:
            return None, False
        out |= found
        if not nullable:
            return out, False
    return out, True


def first_of_item(op: Any, av: Any, categories: Categories) -> tuple[set[str] | None, bool]:
    """:func:`first_of_seq` for one parsed item."""
    c = sre_constants
    if op is c.LITERAL:
        return {chr(av)}, False
    if op is c.IN:
        chars: set[str] = set()
        for o, a in av:
            if o is c.LITERAL:
                chars.add(chr(a))
            elif o is c.RANGE and a[1] - a[0] <= 300:
                chars |= {chr(x) for x in range(a[0], a[1] + 1)}
            elif o is c.CATEGORY and a in categories:
                chars.update(categories[a])
            else:  # negated sets, other classes
                return None, False
        return chars, False
    if op is c.SUBPATTERN:
        return first_of_seq(list(av[-1]), categories)
    if op is c.BRANCH:
        out: set[str] = set()
        nullable = False
        for branch in av[1]:
            found, n = first_of_seq(list(branch), categories)
            if found is None:
                return None, False
            out |= found
            nullable = nullable or n
        return out, nullable
    if op in _REPEATS:
        lo, _hi, sub = av
        found, n = first_of_seq(list(sub), categories)
        return (None, False) if found is None else (found, lo == 0 or n)
    if op in (c.ASSERT, c.ASSERT_NOT, c.AT):
        return set(), True  # zero-width: what follows starts the match
    return None, False
