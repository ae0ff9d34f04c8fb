"""Cue scan, scope and target extraction, coordination split, alternatives and conflict resolution.

One regex scan (the ``regex`` module, POSIX leftmost-longest) finds cues, pseudo-cues, terminators
and alternative markers; everything downstream works on character offsets into the original text,
so every span it returns indexes that text exactly.
"""

from __future__ import annotations

import logging
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from types import MappingProxyType
from typing import NamedTuple

import regex


from .._memo import BoundedMemo
from ..levels import DEFAULT_STRENGTH, Level, weaker
from ..records import Assessment, Cue, CueTargetPair, Direction
from ..resources import Resources, default_resources
from ..schema import CueEntry
from .regexfirst import first_of_item, first_of_seq
from .regexfirst import sre_constants as _sre_constants
from .regexfirst import sre_parser as _sre_parser
from .sentences import SentenceSplitter

log = logging.getLogger(__name__)

_TOKEN = regex.compile(r"\w+(?:['’.\-]\w+)*|[^\w\s]", regex.V1)
# the same tokens on plain ASCII text (see Engine._analyze_sentence), words and marks apart
_TOKEN_ASCII_PARTS = re.compile(r"(\w+(?:['’.\-]\w+)*)|([^\w\s])")
_NOT_PLAIN_ASCII = re.compile(r"[\x1c-\x1f]")  # whitespace to the stdlib's \s, not to regex's
_FLAGS = regex.IGNORECASE | regex.VERSION1

# kinds of scan matches
CUE, PSEUDO, TERM, ALT, NOTALT = "cue", "pseudo", "term", "alt", "notalt"


def _wrap(pattern: str, word_boundaries: bool) -> str:
    return rf"(?<!\w)(?:{pattern})(?!\w)" if word_boundaries else f"(?:{pattern})"


def _first_chars(pattern: str) -> frozenset[str] | None:
    """Lower-case characters a pattern can start with, or None when that cannot be worked out.

    Used only to dispatch the scan: patterns are grouped by first character so that each position
    of the text is tried against a handful of patterns instead of all of them.
    """
    try:
        tree = _sre_parser.parse(pattern, re.IGNORECASE)
    except Exception:  # regex-module-only syntax: try this pattern everywhere
        return None
    found, nullable = first_of_seq(list(tree), _CATEGORY_CHARS)
    if found is None or nullable:
        return None
    return frozenset(c.lower() for c in found) | frozenset(c.upper() for c in found)


_CATEGORY_CHARS = {
    _sre_constants.CATEGORY_DIGIT: set("0123456789"),
    _sre_constants.CATEGORY_SPACE: set(" \t\n\r\f\v"),
}


def _literal_prefixes(
    pattern: str, k: int = 3, limit: int = 4000, spaces: bool = False, unroll: bool = False
) -> set[str] | None:
    """Lower-case strings (at most ``k`` chars) one of which every match of ``pattern`` starts with.

    None when they cannot be worked out (then the pattern is tried at every candidate position).
    A prefix shorter than ``k`` means the literal part of the pattern ends there. With ``spaces``
    the prefixes are those of the match text with every whitespace run collapsed to one " " (see
    ``_spaced_head``), so that they can reach past ``\\s+`` into the next word; with ``unroll``
    also past a repeated group ("the " of "(?:(?:the|my)\\s+)*concern" goes on to "the concern").
    """
    try:
        tree = _sre_parser.parse(pattern, re.IGNORECASE)
    except Exception:
        return None
    out = _expand(list(tree), {""}, k, limit, spaces, unroll)
    if out is None:
        return None
    prefixes = {p.rstrip(_CLOSED).lower() for p in out}
    return None if "" in prefixes else prefixes


_CLOSED = "\0"  # marks a prefix whose literal part has ended before k characters
# ends a spaced prefix that a non-word character or the text's end must follow ("no" of
# "(?<!\\w)no(?!\\w)"), so that "normal" and "not" do not dispatch to that pattern
_BOUNDARY = "\ue000"
#: The ASCII characters ``\w`` matches (dispatch tests lower-cased heads, word buckets raw text).
_ASCII_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_REPEATS = (
    _sre_constants.MAX_REPEAT,
    _sre_constants.MIN_REPEAT,
    getattr(_sre_constants, "POSSESSIVE_REPEAT", _sre_constants.MAX_REPEAT),
)
_WS_CHAR = regex.compile(r"\s", regex.V1)  # whitespace exactly as the patterns' \s sees it
_WS_RUN = regex.compile(r"\s+", regex.V1)


def _is_word_class(sub: object) -> bool:
    """Is the parsed look-ahead body exactly ``\\w`` (one character class, the word category)?"""
    c = _sre_constants
    items = list(sub)  # type: ignore[call-overload]
    return (
        len(items) == 1
        and items[0][0] is c.IN
        and list(items[0][1]) == [(c.CATEGORY, c.CATEGORY_WORD)]
    )


def _single(sub: object) -> tuple[object, object]:
    """The only item of a repeat's body, or a non-item when the body has several."""
    items = list(sub)  # type: ignore[call-overload]
    if len(items) == 1:
        return items[0]
    return None, None


def _close(heads: set[str], k: int) -> set[str]:
    return {h if len(h) >= k or h.endswith(_CLOSED) else h + _CLOSED for h in heads}


def _space_chars(op, av) -> set[str] | None:  # type: ignore[no-untyped-def]
    """For a single-character item: the characters it matches with whitespace as " ", else None."""
    c = _sre_constants
    if op is c.LITERAL:
        return {" " if _WS_CHAR.match(chr(av)) else chr(av)}
    if op is not c.IN:
        return None
    chars: set[str] = set()
    for o, a in av:
        if o is c.LITERAL:
            chars.add(" " if _WS_CHAR.match(chr(a)) else chr(a))
        elif o is c.RANGE and a[1] - a[0] <= 300:
            chars |= {" " if _WS_CHAR.match(chr(x)) else chr(x) for x in range(a[0], a[1] + 1)}
        elif o is c.CATEGORY and a is c.CATEGORY_SPACE:
            chars.add(" ")
        elif o is c.CATEGORY and a in _CATEGORY_CHARS:
            chars |= _CATEGORY_CHARS[a]
        else:
            return None
    return chars


def _add_chars(heads: set[str], chars: set[str]) -> set[str]:
    """Extend heads by one character each; a space after a space collapses (whitespace runs)."""
    return {h if ch == " " and h.endswith(" ") else h + ch for h in heads for ch in chars}


def _expand(
    items: list, heads: set[str], k: int, limit: int, spaces: bool = False, unroll: bool = False
) -> set[str] | None:
    """Extend each open head by the literal continuations of ``items`` up to length k."""
    c = _sre_constants
    for n, (op, av) in enumerate(items):
        open_heads = {h for h in heads if len(h) < k and not h.endswith(_CLOSED)}
        if not open_heads:
            return heads
        done = heads - open_heads
        rest = items[n + 1 :]
        if spaces and op is c.ASSERT_NOT and av[0] == 1 and _is_word_class(av[1]):
            # "no(?!\\w)": a non-word character (or the text's end) follows the heads that end
            # in a character here; they are closed with the mark, which dispatch reads (see
            # ``_Scanner._pattern_for``). A head ending in a whitespace run stays as it is: the
            # run may give back its last space to the look-ahead
            ends = {h for h in open_heads if h and not h.endswith(" ")}
            heads = (heads - ends) | {h + _BOUNDARY + _CLOSED for h in ends}
            continue
        if op in (c.ASSERT, c.ASSERT_NOT, c.AT):
            continue
        if spaces and op in (c.LITERAL, c.IN):
            chars = _space_chars(op, av)
            if chars is None or len(chars) > 40:
                return done | _close(open_heads, k)
            heads = done | _add_chars(open_heads, chars)
        elif spaces and op in _REPEATS and _space_chars(*_single(av[2])) == {" "}:
            # a whitespace run (\s+, \s*, " +") collapses to one space however long it is
            lo = av[0]
            taken = _expand(rest, _add_chars(open_heads, {" "}), k, limit, spaces, unroll)
            skipped = _expand(rest, open_heads, k, limit, spaces, unroll) if lo == 0 else set()
            if taken is None or skipped is None:
                return None
            return done | taken | skipped
        elif op is c.LITERAL:
            heads = done | {h + chr(av) for h in open_heads}
        elif op is c.IN:
            if any(o is c.CATEGORY and a is c.CATEGORY_SPACE for o, a in av):
                return done | _close(open_heads, k)  # \s also matches unicode spaces
            chars, _ = first_of_item(op, av, _CATEGORY_CHARS)
            if chars is None or len(chars) > 40:
                return done | _close(open_heads, k)
            heads = done | {h + ch for h in open_heads for ch in chars}
        elif op is c.SUBPATTERN:
            sub = _expand(list(av[-1]), open_heads, k, limit, spaces, unroll)
            follow = None if sub is None else _expand(rest, sub, k, limit, spaces, unroll)
            return None if follow is None else done | follow
        elif op is c.BRANCH:
            out: set[str] = set(done)
            for branch in av[1]:
                follow = _expand(list(branch) + rest, open_heads, k, limit, spaces, unroll)
                if follow is None:
                    return None
                out |= follow
            return out
        elif op in _REPEATS:
            lo, hi, sub = av
            once = _expand(list(sub), open_heads, k, limit, spaces, unroll)
            if once is None:
                return None
            taken = None
            if hi >= 2 and unroll and not (once & open_heads):
                # repeated: "(?:(?:the|my)\\s+)*concern" reaches past "the " into "the concern"
                # (the rest of the repeat, then what follows it); each turn lengthens every open
                # head, so this ends at k characters (or at ``limit`` heads: then as below)
                more = hi if hi == c.MAXREPEAT else hi - 1
                again = (c.MAX_REPEAT, (max(lo - 1, 0), more, sub))
                taken = _expand([again, *rest], once, k, limit, spaces, unroll)
            if taken is None:
                if hi != 1:
                    once = _close(once, k)  # repeated: stop extending here
                taken = _expand(rest, once, k, limit, spaces, unroll)
            skipped = _expand(rest, open_heads, k, limit, spaces, unroll) if lo == 0 else set()
            if taken is None or skipped is None:
                return None
            return done | taken | skipped
        else:
            return done | _close(open_heads, k)
        if len(heads) > limit:
            return None
    return heads


# Simple case folding (``(?-f)``) against V1's full case folding: on a text in which no character
# folds to several (no "ß", "ﬁ", "İ"), the two differ only where a set that holds such a character
# ("[\w-]" holds "ß") takes two text characters as one item ("ss"), which changes a match only
# when that item's repetition is bounded outside a look-behind; full folding also costs the
# `regex` module up to a hundred times more on patterns with sets or look-behinds.
_SET = re.compile(r"\[\^?\]?(?:\\.|[^\]\\])*\]")  # a set at a "[" (V1 nested sets: see below)
_UNBOUNDED = re.compile(r"[*+]|\{\d*,\}")
_SET_CLASSES = re.compile(r"\\[A-Za-z]")
# escapes in a set that stand for characters or classes without a character folding to several
_ONE_CHAR_ESCAPES = frozenset({"\\n", "\\t", "\\r", "\\f", "\\v", "\\a", "\\s", "\\d", "\\W"})
_WIDE_CLASSES = frozenset({"\\w", "\\S", "\\D"})  # classes that hold "ß", "ﬁ", "İ"
_RANGE_PAST_ASCII = re.compile(r"[^\x00-\x7f](?<!\\)-(?=.)|(?<!\\)-[^\x00-\x7f]")
_ESCAPED_CHAR = re.compile(r"\\(?:x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|x\{|N\{|0|[1-7][0-7]{2})")


def _one_fold(ch: str) -> bool:
    """Does ``ch`` fold (and change case) to one character? (Python's full case mappings)"""
    return len(ch.casefold()) == 1 and len(ch.lower()) == 1 and len(ch.upper()) == 1


def _sets_and_look_behinds(pattern: str) -> tuple[list[re.Match[str]], list[tuple[int, int]]] | None:
    """The sets of ``pattern`` and the (start, end) of its look-behind groups, escapes skipped;
    None when a set cannot be read (V1 nested sets and set operations)."""
    sets, behinds, stack = [], [], []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            m = _SET.match(pattern, i)
            if m is None or "[" in m.group()[1:] or any(op in m.group() for op in ("--", "&&", "||", "~~")):
                return None
            sets.append(m)
            i = m.end()
            continue
        if c == "(":
            stack.append((i, pattern.startswith(("(?<=", "(?<!"), i)))
        elif c == ")" and stack:
            start, behind = stack.pop()
            if behind:
                behinds.append((start, i + 1))
        i += 1
    return sets, behinds


def _simple_fold_safe(pattern: str) -> bool:
    r"""Does ``pattern`` match with simple case folding exactly as with full case folding, on any
    text whose characters each fold to one? (Conservative: False when unsure.)

    Full folding lets a set that holds a character folding to several ("[\w-]" holds "ß") take
    that many text characters as one item ("ss"); each of them is a word character, which the
    set takes alone too, so this changes nothing where the set repeats without bound or sits in
    a look-behind (which asks only whether a match exists), and only such uses are let through.
    """
    read = _sets_and_look_behinds(pattern)
    if read is None:
        return False
    sets, behinds = read
    for m in _ESCAPED_CHAR.finditer(pattern):
        code = next((g for g in m.groups() if g), None)
        if code is None or not _one_fold(chr(int(code, 16))):
            return False
    if not all(_one_fold(ch) for ch in pattern if not ch.isascii()):
        return False
    for m in sets:
        if m.group().startswith("[^"):
            continue  # a negated set takes one character ("[^a]", "[^\W\d]" never take "ss")
        inner = m.group()[1:-1]
        classes = set(_SET_CLASSES.findall(inner)) - _ONE_CHAR_ESCAPES
        if classes - _WIDE_CLASSES or _RANGE_PAST_ASCII.search(inner):
            return False  # "\p{L}" holds "ß" but not every part of its fold; ranges past ASCII
        if not classes:
            continue  # characters that fold to one: each item takes one character either way
        if _UNBOUNDED.match(pattern, m.end()):
            continue  # "[\w-]+": two characters as one item or as two, the same texts match
        if any(a < m.start() and m.end() < b for a, b in behinds):
            continue  # a look-behind asks only whether some match exists
        return False
    return True


class _Scanner:
    """Leftmost-longest scan of many patterns at once, dispatched on literal prefixes.

    Each pattern's literal prefixes are read from its parse tree twice: up to three characters of
    raw text (for the prefilter) and up to ``DEPTH`` characters of text whose whitespace runs are
    collapsed to one space (for dispatch; this reaches past the first word, so "is normal" is not
    tried against the two dozen "is not seen" / "is excluded" patterns). A prefilter finds the
    positions where some raw prefix begins; there, only the patterns whose spaced prefix agrees
    with the text's next characters are tried, together, in POSIX (longest-match) mode. The result
    equals one big POSIX alternation over all patterns (a test checks this) for text whose case
    folds one character to one character, at a fraction of the cost.
    """

    _CANDIDATES = regex.compile(r"(?<!\w)\w|[^\w\s]", regex.V1)
    DEPTH = 12  # characters of spaced prefix used for dispatch

    def __init__(self, items: list[tuple[str, bool]], dispatch: bool = True):
        self.items = items
        self.dispatch = dispatch
        anywhere: set[int] = set()
        by_prefix: dict[str, set[int]] = {}
        bounded: set[str] = set()
        free: set[str] = set()
        # for the folded prefilter: spaced prefixes (raw ones where those are unknown)
        heads: dict[bool, set[tuple[str, bool]]] = {True: set(), False: set()}
        for idx, (pattern, wb) in enumerate(items):
            raw = _literal_prefixes(pattern, k=3) if dispatch else None
            if raw is None:
                anywhere.add(idx)
                continue
            (bounded if wb else free).update(regex.escape(p) for p in raw)
            spaced = _literal_prefixes(pattern, k=self.DEPTH, spaces=True)
            if spaced is not None:
                # a "(?!\\w)" inside the pattern ends a prefix in the boundary mark, which dispatch
                # reads; the prefilter looks for text characters only
                spaced = {p.rstrip(_BOUNDARY) for p in spaced}
                heads[wb].update((p, True) for p in spaced)
            else:
                heads[wb].update((p, False) for p in raw)
            # dispatch reads the prefixes further (the prefilter would grow too large to compile
            # with them): with the pattern's word boundaries (a prefix can end in the boundary
            # mark) and past repeated groups; each of these extends one of ``spaced``
            if spaced is not None:
                longer = _literal_prefixes(_wrap(pattern, wb), k=self.DEPTH, spaces=True, unroll=True)
                spaced = longer if longer is not None else spaced
            # "" (spaced prefixes unknown): tried wherever the prefilter stops
            for prefix in spaced if spaced is not None else ("",):
                by_prefix.setdefault(prefix, set()).add(idx)
        self._by_prefix = {k: frozenset(v) for k, v in by_prefix.items()}
        self._always = self._by_prefix.pop("", frozenset())
        self._anywhere_ids = frozenset(anywhere)
        self._compiled: dict[frozenset[int], regex.Pattern] = {}
        # each compiled bucket's simple-folding twin (itself when a pattern is not fold-safe),
        # used on texts in which every character folds to one (see ``_simple_fold_safe``)
        self._twins: dict[regex.Pattern, regex.Pattern] = {}
        self._bucket_ids: dict[regex.Pattern, frozenset[int]] = {}
        self._fold_safe = [_simple_fold_safe(_wrap(p, wb)) for p, wb in items]
        self._one_fold_chars: dict[str, bool] = {}
        self._at: dict[str, regex.Pattern | None] = {}
        # buckets of one word-bounded plain ASCII word ("no", "or"): (word, group name)
        self._words: dict[regex.Pattern, tuple[str, str]] = {}
        # The prefilter stops (zero-width) wherever some prefix begins: on the lower-cased text
        # (case-sensitive, fast) when lower-casing keeps every offset, else case-insensitively.
        self._prefilter_ci = self._CANDIDATES
        self._prefilter = None
        self._prefilter_ascii: re.Pattern[str] | None = None
        # the same stops as ``_prefilter_ascii`` from patterns that skip most characters (see
        # ``_split_prefilter``); None when the prefixes do not allow it
        self._stops_split: tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]] | None = None
        # non-ASCII characters of the prefixes, each folded to its own unused ASCII control code
        marks = sorted(
            {
                ch
                for h in (*heads[True], *heads[False])
                for ch in h[0]
                if not ch.isascii() and not _WS_CHAR.match(ch)
            }
        )
        self._marks = dict(zip(marks, _FOLD_CODES))
        self._fold: dict[str, str | None] = {}  # text character -> ASCII stand-in (cache)
        if not anywhere:
            parts = []
            if bounded:
                parts.append(r"(?<!\w)(?=" + _trie(bounded) + ")")
            if free:
                parts.append("(?=" + _trie(free) + ")")
            source = "|".join(parts) or r"(?!)"
            self._prefilter = regex.compile(source, regex.V1)
            self._prefilter_ci = regex.compile(source, _FLAGS)
            # On ASCII text the stdlib engine reads \w exactly as ``regex`` does, at a third of
            # the cost, and stops only where a whole spaced prefix begins (a spaced prefix's " "
            # is a run of what ``regex`` calls whitespace): a few stops a sentence, not one a word.
            # Other text is folded to ASCII first, one character for one (see ``_folded``).
            ascii_parts = []
            for wb, start in ((True, r"(?<!\w)(?="), (False, "(?=")):
                if heads[wb]:
                    pieces = {tuple(self._piece(ch, sp) for ch in h) for h, sp in heads[wb]}
                    ascii_parts.append(start + _trie_of_pieces(pieces) + ")")
            if len(marks) <= len(_FOLD_CODES):
                self._prefilter_ascii = re.compile("|".join(ascii_parts) or r"(?!)")
                self._stops_split = _split_prefilter(
                    {wb: {tuple(self._piece(ch, sp) for ch in h) for h, sp in heads[wb]} for wb in heads}
                )

    def _piece(self, ch: str, spaced: bool) -> str:
        """The stdlib regex for one prefix character, on folded text."""
        if spaced and ch == " ":
            return _ASCII_WS_RUN
        if ch.isascii():
            return re.escape(ch)
        if _WS_CHAR.match(ch):
            return " "  # a raw prefix's literal non-ASCII space: folded text has " " there
        return re.escape(self._marks.get(ch, ch))

    def _fold_char(self, ch: str) -> str | None:
        """ASCII stand-in for a non-ASCII text character (None: lower-casing changes lengths).

        Its lower-case form when that is ASCII or a prefix character; else a space for what
        ``regex`` calls whitespace, "x" for a word character and DEL for anything else, so that
        every place where a prefix begins in the text still begins there in the folded text.
        """
        low = ch.lower()
        if len(low) != 1:
            return None
        if low.isascii():  # KELVIN SIGN -> "k": a stand-in only if it is as much a word character
            same = bool(_WORD_CHAR.match(ch)) == bool(_WORD_CHAR.match(low))
            return low if same and not _WS_CHAR.match(ch) else None
        if low in self._marks:
            return self._marks[low]
        if _WS_CHAR.match(ch):
            return " "
        return "x" if _WORD_CHAR.match(ch) else "\x7f"

    def _folded(self, text: str) -> str | None:
        """The lower-cased text with every non-ASCII character replaced by its ASCII stand-in."""
        if text.isascii():
            return text.lower()
        fold = self._fold
        out = []
        last = 0
        for m in _NON_ASCII.finditer(text):
            out.append(text[last : m.start()].lower())
            for ch in m.group():
                if ch in fold:
                    code = fold[ch]
                else:
                    code = fold[ch] = self._fold_char(ch)
                if code is None:
                    return None
                out.append(code)
            last = m.end()
        out.append(text[last:].lower())
        return "".join(out)

    def _compile(self, ids: frozenset[int]) -> regex.Pattern:
        """The POSIX alternation of a set of patterns (plus those that may start anywhere), cached."""
        key = ids | self._anywhere_ids
        found = self._compiled.get(key)
        if found is None:
            if not self.dispatch:  # reference path: the patterns as written, one alternation
                parts = [f"(?P<g{i}>{_wrap(*self.items[i])})" for i in sorted(key)]
                found = self._compiled[key] = regex.compile("(?p)" + "|".join(parts), _FLAGS)
                return found
            parts = [
                f"(?P<g{i}>{_possessive_runs(_wrap(*self.items[i]))})" for i in sorted(key)
            ]
            # "|(?!)" never matches; it keeps ``regex`` from first searching the whole rest of
            # the text for a literal that every match must contain (a "required string"), which
            # made each failed match cost time linear in the text's length
            found = self._compiled[key] = regex.compile(
                "(?p)" + "|".join(parts) + "|(?!)", _FLAGS
            )
            self._bucket_ids[found] = key
            if len(key) == 1:
                (i,) = key
                word, wb = self.items[i]
                if wb and word.isascii() and word.isalpha():
                    self._words[found] = (word.lower(), f"g{i}")
        return found

    def _pattern_for(self, head: str) -> regex.Pattern | None:
        """Patterns that may match where the spaced, lower-cased text continues with ``head``."""
        ids = self._always
        by_prefix = self._by_prefix
        for n in range(1, len(head) + 1):
            found = by_prefix.get(head[:n])
            if found is not None:
                ids = ids | found
            # a prefix that a non-word character must follow: unless a word character does
            # (the head's end is the text's end or the depth, where the next one is unknown)
            if n == len(head) or head[n] not in _ASCII_WORD:
                found = by_prefix.get(head[:n] + _BOUNDARY)
                if found is not None:
                    ids = ids | found
        pattern = self._compile(ids) if ids or self._anywhere_ids else None
        if len(self._at) < 100_000:  # bounded cache of head -> compiled bucket
            self._at[head] = pattern
        return pattern

    def _twin(self, pattern: regex.Pattern) -> regex.Pattern:
        """``pattern`` with simple case folding when all its patterns are fold-safe, else itself."""
        ids = self._bucket_ids.get(pattern)
        twin = pattern
        if ids is not None and all(self._fold_safe[i] for i in ids):
            twin = regex.compile("(?-f)" + pattern.pattern, _FLAGS)
        self._twins[pattern] = twin
        return twin

    def _folds_one_to_one(self, text: str) -> bool:
        """Does every character of ``text`` fold to one character (so simple folding may serve)?"""
        if text.isascii():
            return True
        known = self._one_fold_chars
        for m in _NON_ASCII.finditer(text):
            for ch in m.group():
                ok = known.get(ch)
                if ok is None:
                    ok = known[ch] = _one_fold(ch)
                if not ok:
                    return False
        return True

    def __reduce__(self):
        return (_Scanner, (self.items, self.dispatch))

    def stops_ascii(self, folded: str) -> list[int]:
        """Where some prefix begins in folded text: the starts of ``_prefilter_ascii``'s matches."""
        split = self._stops_split
        if split is None:
            return [m.start() for m in self._prefilter_ascii.finditer(folded)]  # type: ignore[union-attr]
        at_start, after_gap, rest = split
        # a word-first prefix that needs a word boundary begins right after a non-word character
        # (or at 0); every other prefix begins at one of the few characters ``rest`` stops at
        words = [m.end() for m in after_gap.finditer(folded)]
        if at_start.match(folded):
            words.insert(0, 0)
        others = [m.start() for m in rest.finditer(folded)]
        if not others:
            return words
        if not words:
            return others
        return sorted(set(words).union(others))

    def finditer(self, text: str) -> Iterable[regex.Match | _WordMatch]:
        """Non-overlapping leftmost-longest matches of all patterns, in text order."""
        if not self.dispatch:  # reference path: one POSIX alternation of every pattern
            for m in self._compile(frozenset()).finditer(text):
                if m.end() > m.start():
                    yield m
            return
        pos = 0
        at = self._at
        words = self._words
        depth = self.DEPTH
        folded = self._folded(text) if self._prefilter_ascii is not None else None
        stops: Iterable[int]
        if folded is not None:
            stops = self.stops_ascii(folded)
        elif self._prefilter is not None and len(low := text.lower()) == len(text):
            stops = [m.start() for m in self._prefilter.finditer(low)]
        else:
            stops = [m.start() for m in self._prefilter_ci.finditer(text, overlapped=True)]
        twins = self._twins if self._folds_one_to_one(text) else None
        for start in stops:
            if start < pos:
                continue
            head = text[start : start + 2 * depth]
            if "  " in head or not head.isprintable():
                head = _spaced_head(text, start, depth)
            elif len(head) > depth:
                head = head[:depth]
            head = head.lower()
            pattern = at[head] if head in at else self._pattern_for(head)
            if pattern is None:
                continue
            word = words.get(pattern)
            if word is not None:
                # one word-bounded ASCII word ("no"): on ASCII text around it, where case folds
                # one character to one, its match is the lower-cased slice and two ASCII \w
                # tests, without the regex engine's per-call cost (a test compares the two)
                end = start + len(word[0])
                if text[start - 1 if start else 0 : end + 1].isascii():
                    if (
                        text[start:end].lower() == word[0]
                        and (start == 0 or text[start - 1] not in _ASCII_WORD)
                        and (end == len(text) or text[end] not in _ASCII_WORD)
                    ):
                        yield _WordMatch(start, end, word[1])
                        pos = end
                    continue
            if twins is not None:
                pattern = twins.get(pattern) or self._twin(pattern)
            m = pattern.match(text, start)
            if m is not None and m.end() > start:
                yield m
                pos = m.end()


class _WordMatch:
    """The part of a ``regex.Match`` that scan consumers read, for a match found without one."""

    __slots__ = ("_start", "_end", "lastgroup")

    def __init__(self, start: int, end: int, group: str) -> None:
        self._start, self._end, self.lastgroup = start, end, group

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end

    def span(self) -> tuple[int, int]:
        return self._start, self._end


_WORD_RUNS = ("\\w+", "[\\w-]+")  # runs made possessive before a required \s (see below)


def _split_prefilter(
    heads: dict[bool, set[tuple[str, ...]]],
) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]] | None:
    """The ASCII prefilter ``(?<!\\w)(?=B)|(?=F)`` (B: the prefixes that need a word boundary, F:
    the others, as stdlib regex pieces) as three patterns that find the same positions.

    That one pattern is tried at every character; these start with one consumed character from a
    set, so the stdlib engine skips every other character in C: ``after_gap`` consumes a non-word
    character and looks for a word-first B prefix after it (most prefixes; the stop is its end),
    ``at_start`` tries them at 0, and ``rest`` consumes the first character of every other prefix
    (punctuation, whitespace, the few F prefixes that start with a letter), one alternative per
    character, with the rest of the prefix in a look-ahead. None when a prefix's first piece is
    neither one literal character nor the whitespace run.
    """
    word_first: set[tuple[str, ...]] = set()
    by_first: dict[str, dict[bool, set[tuple[str, ...]]]] = {}
    for wb, pieces_set in heads.items():
        for pieces in pieces_set:
            first = pieces[0]
            if first == _ASCII_WS_RUN:  # a whitespace run: one alternative per ASCII space
                for ch in _ASCII_SPACES:
                    rest = (_ASCII_WS_RUN[:-1] + "*", *pieces[1:])
                    by_first.setdefault(re.escape(ch), {True: set(), False: set()})[wb].add(rest)
                continue
            ch = first[1:] if first.startswith("\\") else first
            if len(ch) != 1 or first not in (re.escape(ch), ch) or (first == ch and ch in _RE_SPECIAL):
                return None
            if wb and re.fullmatch(r"\w", ch):
                word_first.add(pieces)
            else:
                by_first.setdefault(first, {True: set(), False: set()})[wb].add(pieces[1:])
    branches = []
    for first in sorted(by_first):
        alts = []
        for wb, found in sorted(by_first[first].items(), reverse=True):
            if not found:
                continue
            look = f"(?={_trie_of_pieces(found)})" if all(found) else ""
            alts.append((rf"(?<!\w{first})" if wb else "") + look)
        if "" in alts:  # a one-character prefix without a boundary: every such character
            alts = [""]
        branches.append(first + (alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"))
    words = _trie_of_pieces(word_first) if word_first else "(?!)"
    # they read folded text, which is ASCII: ASCII classes give the same stops, faster
    return (
        re.compile(words, re.ASCII),
        re.compile(rf"[^\w](?={words})", re.ASCII),
        re.compile("|".join(branches) or "(?!)", re.ASCII),
    )


_ASCII_SPACES = "\t\n\x0b\x0c\r "
_RE_SPECIAL = frozenset(".^$*+?{}[]\\|()")


def _possessive_runs(pattern: str) -> str:
    """``pattern`` with each ``\\w+`` / ``[\\w-]+`` that a required ``\\s`` follows made possessive.

    What such a run gives back on backtracking is a word character or "-", which ``\\s`` never
    matches, so no match is lost or gained (the POSIX longest match included); the engine just
    stops retrying every shorter run, which made "if ... (?:[\\w-]+\\s+){0,3}? ..." patterns cost
    tens of microseconds at every "if". Only runs outside character sets are touched, and only
    before ``\\s`` that must match at least once (``\\s``, ``\\s+``, ``\\s+?``; not ``\\s*``).
    """
    out: list[str] = []
    i = 0
    n = len(pattern)
    depth = 0  # character-set nesting (VERSION1 sets nest)
    while i < n:
        ch = pattern[i]
        if depth == 0:
            for run in _WORD_RUNS:
                if pattern.startswith(run, i) and pattern.startswith("\\s", i + len(run)):
                    after = pattern[i + len(run) + 2 : i + len(run) + 3]
                    if after not in ("*", "?", "{"):
                        out.append(run + "+")
                        i += len(run)
                        break
            else:
                if ch == "\\":
                    out.append(pattern[i : i + 2])
                    i += 2
                    continue
                if ch == "[":
                    depth = 1
                    out.append(ch)
                    i += 1
                    if pattern.startswith("^", i):
                        out.append("^")
                        i += 1
                    if pattern.startswith("]", i):  # a literal "]" first in the set
                        out.append("]")
                        i += 1
                    continue
                out.append(ch)
                i += 1
            continue
        if ch == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        out.append(ch)
        i += 1
    return "".join(out)


def _trie(alternatives: Iterable[str]) -> str:
    """One regex for many escaped alternatives, factored on common leading pieces (a trie)."""
    return _trie_of_pieces(_PIECE.findall(alt) for alt in alternatives)


_ASCII_WS_RUN = r"[\t\n\x0b\x0c\r ]+"  # regex's \s on ASCII (the stdlib's \s adds \x1c-\x1f)
_FOLD_CODES = [chr(c) for c in (*range(1, 9), *range(0x0E, 0x1C))]  # neither \s nor \w anywhere
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_WORD_CHAR = regex.compile(r"\w", regex.V1)


def _trie_of_pieces(alternatives: Iterable[Sequence[str]]) -> str:
    """One regex for many alternatives given as sequences of regex pieces, factored as a trie."""
    root: dict = {}
    for alt in alternatives:
        node = root
        for piece in alt:
            node = node.setdefault(piece, {})
        node[""] = {}

    def emit(node: dict) -> str:
        branches = [piece + emit(sub) for piece, sub in sorted(node.items()) if piece]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body  # an alternative may end here

    return emit(root)


_PIECE = regex.compile(r"\\.|.", regex.V1 | regex.DOTALL)  # an escaped character, a character


def _spaced_head(text: str, start: int, depth: int) -> str:
    """The first ``depth`` characters of ``text[start:]`` with every whitespace run made one space."""
    width = 4 * depth
    while True:
        head = _WS_RUN.sub(" ", text[start : start + width])
        if len(head) >= depth or start + width >= len(text):
            return head[:depth]
        width *= 4


class _Construct:
    """``Model.model_construct(**values)`` for already-valid values, without its per-field loop.

    Builds the same ``__dict__`` (fields in declaration order, defaults filled in) and the same
    set of explicitly set fields. Models with aliases, default factories, mutable defaults, extra
    fields, private attributes or a post-init hook go through ``model_construct`` itself.
    """

    _IMMUTABLE = (type(None), bool, int, float, str, tuple, frozenset, Enum)

    def __init__(self, cls: type) -> None:
        self.cls = cls
        fields = cls.__pydantic_fields__  # type: ignore[attr-defined]
        self.order = tuple(fields)
        self.defaults = {n: f.default for n, f in fields.items() if not f.is_required()}
        self._plans: dict[tuple[str, ...], tuple[dict, frozenset[str]] | None] = {}
        self.simple = (
            all(
                f.alias is None
                and f.validation_alias is None
                and f.default_factory is None
                and (f.is_required() or isinstance(f.default, self._IMMUTABLE))
                for f in fields.values()
            )
            and not cls.__pydantic_post_init__  # type: ignore[attr-defined]
            and not cls.__pydantic_root_model__  # type: ignore[attr-defined]
            and not cls.__private_attributes__  # type: ignore[attr-defined]
            and cls.model_config.get("extra") != "allow"  # type: ignore[attr-defined]
        )

    def _plan(self, names: tuple[str, ...]) -> tuple[dict, frozenset[str]] | None:
        """For keyword names that are all fields: the ``__dict__`` template (every field given or
        defaulted, in declaration order, defaults filled in) and the set of fields given."""
        if not set(names) <= set(self.order):
            return None
        template = {
            n: self.defaults.get(n) for n in self.order if n in names or n in self.defaults
        }
        return template, frozenset(names)

    def __call__(self, **values: object) -> object:
        if not self.simple:
            return self.cls.model_construct(**values)  # type: ignore[attr-defined]
        names = tuple(values)
        plan = self._plans.get(names, False)
        if plan is False:
            plan = self._plans[names] = self._plan(names) if len(self._plans) < 64 else None
        if plan is not None:  # the template's order; the given values over its placeholders
            data = plan[0].copy()
            data.update(values)
            given = set(plan[1])
        else:
            defaults = self.defaults
            data = {}
            for name in self.order:
                if name in values:
                    data[name] = values[name]
                elif name in defaults:
                    data[name] = defaults[name]
            given = {n for n in values if n in data}
        inst = self.cls.__new__(self.cls)
        _object_setattr(inst, "__dict__", data)
        _object_setattr(inst, "__pydantic_fields_set__", given)
        _object_setattr(inst, "__pydantic_extra__", None)
        _object_setattr(inst, "__pydantic_private__", None)
        return inst


_object_setattr = object.__setattr__
_new_pair = _Construct(CueTargetPair)
_OFFSETS = ("sentence_start", "sentence_end", "cue_start", "cue_end", "target_start", "target_end")
_MEMO_MAX_ENTRIES = 8192  # memoised sentences per engine (the memo is emptied when full)
_MEMO_MAX_CHARS = 600  # longer sentences are not memoised (they rarely repeat)
_MEMO_MAX_DOC_CHARS = 2000  # nor longer texts as a whole
_MEMO_MAX_DOCS = 4096  # memoised whole texts per engine (a few MB for radiology reports)


def _moved(p: CueTargetPair, delta: int, doc_id: str | None) -> CueTargetPair:
    """``p`` with every offset moved by ``delta`` and the given ``doc_id`` (same fields set)."""
    data = p.__dict__.copy()
    for name in _OFFSETS:
        data[name] += delta
    data["doc_id"] = doc_id
    inst = CueTargetPair.__new__(CueTargetPair)
    _object_setattr(inst, "__dict__", data)
    _object_setattr(inst, "__pydantic_fields_set__", set(p.__pydantic_fields_set__))
    _object_setattr(inst, "__pydantic_extra__", None)
    _object_setattr(inst, "__pydantic_private__", None)
    return inst


def _context_reach(patterns: Iterable[str]) -> int | None:
    """How many characters before a sentence the context patterns can see from inside it.

    Word boundaries and line anchors see one character; a look-behind its maximum width (three
    times, for full case folding). None when some pattern cannot be read this way (the memo is
    then off).
    """
    reach = 1  # also "?" attached to the word before it (Engine._directions)
    for pattern in patterns:
        try:
            tree = _sre_parser.parse(pattern, re.IGNORECASE)
        except Exception:
            return None
        found = _behind(list(tree))
        if found is None:
            return None
        reach = max(reach, found)
    return reach


def _behind(items: list) -> int | None:
    c = _sre_constants
    reach = 0
    for op, av in items:
        subs: list = []
        extra = 0  # how far back the sub-pattern starts (a look-behind's width)
        if op in (c.ASSERT, c.ASSERT_NOT):
            direction, sub = av
            if direction < 0:
                width = sub.getwidth()[1]
                if width >= c.MAXREPEAT:
                    return None
                extra = 3 * width
                reach = max(reach, extra)
            subs = [sub]
        elif op is c.AT:
            reach = max(reach, 1)
        elif op is c.SUBPATTERN:
            subs = [av[-1]]
        elif op is c.BRANCH:
            subs = list(av[1])
        elif op in _REPEATS:
            subs = [av[2]]
        elif op is getattr(c, "ATOMIC_GROUP", None):
            subs = [av]
        elif op is c.GROUPREF_EXISTS:
            subs = [x for x in av[1:] if x is not None]
        elif op not in (c.LITERAL, c.NOT_LITERAL, c.IN, c.ANY, c.GROUPREF):
            return None
        for sub in subs:
            found = _behind(list(sub))
            if found is None:
                return None
            reach = max(reach, extra + found)
    return reach


class _Match(NamedTuple):  # a tuple: built for every scan match, cheaply
    start: int
    end: int
    kind: str
    rule_id: str
    entry: CueEntry | None = None


@dataclass
class _CueHit:
    """A cue in one sentence, with its resolved level and direction."""

    start: int
    end: int
    text: str
    level: Level
    direction: Direction
    entry: CueEntry
    rule_id: str
    context_rule: str | None = None
    is_alternative: bool = False
    # the span reported as the cue when a context rule hands the decision to an earlier negation
    # ("no consolidation to suggest pneumonia": the cue is "no"); scope still runs from the hit
    shown: tuple[int, int, str] | None = None

    @property
    def strength(self) -> float:
        """The entry's strength when the entry's level stands; the level's default otherwise."""
        if self.entry is not None and self.entry.level is self.level and self.entry.strength is not None:
            return self.entry.strength
        return DEFAULT_STRENGTH[self.level]

    @property
    def reported(self) -> tuple[int, int, str]:
        """Start, end and text of the span reported as the cue (``shown``, else the hit)."""
        return self.shown or (self.start, self.end, self.text)

    def as_cue(self) -> Cue:
        start, end, text = self.reported
        return Cue(
            text=text,
            start=start,
            end=end,
            level=self.level,
            rule_id=self.rule_id,
            direction=self.direction,
            strength=self.strength,
        )


@dataclass(slots=True)
class _Tok:
    start: int
    end: int
    low: str
    punct: bool = False  # not a word: the first character is neither alphanumeric nor "_"


@dataclass
class _Reach:
    """One cue reaching one target span (trimmed noun phrase) through its scope."""

    cue: _CueHit
    start: int
    end: int
    side: Direction
    distance: int  # tokens between cue and target
    cover_start: int = -1  # what the cue governs for assess(): the target, or for a backward cue
    cover_end: int = -1  # the whole subject phrase ("testing for BK virus is negative")

    def __post_init__(self) -> None:
        if self.cover_start < 0:
            self.cover_start, self.cover_end = self.start, self.end


@dataclass
class _AltGroup:
    marker_start: int
    marker_end: int
    marker_text: str
    rule_id: str
    members: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class _SentenceAnalysis:
    start: int
    end: int
    text: str  # the sentence
    cues: list[_CueHit]
    reaches: list[_Reach]
    alt_groups: list[_AltGroup]
    # the negation of the lead-in line a list item stands under ("The X-ray did not show:")
    lead_negation: _CueHit | None = None


class _WordList(frozenset):
    """A list of words and multi-word phrases, matched as token runs (longest first).

    As a set it holds the one-token items, so that ``word in wordlist`` is a plain set look-up.
    """

    _phrases: dict[str, list[tuple[str, ...]]]

    def __new__(cls, items: Iterable[str]) -> _WordList:
        items = tuple(items)
        phrases: dict[str, list[tuple[str, ...]]] = {}
        for item in items:
            toks = tuple(t.lower() for t in _TOKEN.findall(str(item)))
            if toks:
                phrases.setdefault(toks[0], []).append(toks)
        for key in phrases:
            phrases[key].sort(key=len, reverse=True)
        self = super().__new__(cls, (k for k, v in phrases.items() if any(len(p) == 1 for p in v)))
        self._phrases = phrases
        self._items = items
        # the longest item in tokens (match_ending_at looks no further back), and the first
        # tokens of items of two or more tokens (a quick "no longer item starts here")
        self._longest = max((len(p) for v in phrases.values() for p in v), default=0)
        self.multi_starts = frozenset(k for k, v in phrases.items() if len(v[0]) > 1)
        return self

    def __reduce__(self):  # type: ignore[override]
        return (_WordList, (self._items,))

    def match_at(self, toks: Sequence[_Tok], i: int, stop: int | None = None) -> int:
        """Length in tokens of the longest item starting at ``toks[i]`` (0 if none)."""
        stop = len(toks) if stop is None else stop
        if i >= stop:
            return 0
        phrases = self._phrases.get(toks[i].low)
        if phrases is None:
            return 0
        for phrase in phrases:  # longest first; the first token is the key
            n = len(phrase)
            if n == 1:
                return 1
            if i + n <= stop:
                for k in range(1, n):
                    if toks[i + k].low != phrase[k]:
                        break
                else:
                    return n
        return 0

    def match_ending_at(self, toks: Sequence[_Tok], j: int, lo: int = 0) -> int:
        """Length of the longest item ending at ``toks[j-1]`` (0 if none)."""
        best = 0
        phrases = self._phrases
        for n in range(1, min(6, self._longest, j - lo) + 1):
            i = j - n
            for phrase in phrases.get(toks[i].low, ()):
                if len(phrase) == n and all(toks[i + k].low == phrase[k] for k in range(n)):
                    best = n
        return best



class Engine:
    """The rule engine behind ``cuelex.extract`` and ``cuelex.assess``. Immutable once built; picklable."""

    def __init__(self, resources: Resources | None = None, *, memo: bool = True):
        self.resources = resources or default_resources()
        self.memo = memo  # memoise per sentence and per text (exact; see ``_memo_key``)
        res = self.resources
        self.splitter = SentenceSplitter(res.sentences)
        self._entries = {c.id: c for c in res.cues}
        items: list[tuple[str, bool]] = []
        self._group_info: list[tuple[str, str, CueEntry | None]] = []

        def add(kind: str, rid: str, pattern: str, wb: bool, entry: CueEntry | None = None) -> None:
            self._group_info.append((kind, rid, entry))
            items.append((pattern, wb))

        for c in res.cues:
            add(ALT if c.id.startswith("alt.") else CUE, c.id, c.pattern, c.word_boundaries, c)
        for r in res.pseudo_cues:
            add(PSEUDO, r.id, r.pattern, r.word_boundaries)
        for r in res.terminators:
            add(TERM, r.id, r.pattern, r.word_boundaries)
        for r in res.alternatives:
            add(ALT, r.id, r.pattern, r.word_boundaries)
        for r in res.not_alternatives:
            add(NOTALT, r.id, r.pattern, r.word_boundaries)
        self._scan = _Scanner(items)
        self._context = [
            (
                rule,
                # searched backwards from the cue ((?r)): the same yes/no as a forward search,
                # without trying every start position of a long sentence (quadratic)
                regex.compile(f"(?r)(?:{rule.preceded_by})\\Z", _FLAGS)
                if rule.preceded_by
                else None,
                regex.compile(f"(?:{rule.followed_by})", _FLAGS) if rule.followed_by else None,
            )
            for rule in res.context
        ]
        # per-sentence memo of extract(): (sentence, left context, matches) -> (the sentence's
        # start, its pairs as first built; a hit moves them by the difference of the starts)
        self._memo: BoundedMemo[tuple, tuple[int, list[CueTargetPair]]] = BoundedMemo(
            _MEMO_MAX_ENTRIES
        )
        # whole texts -> their pairs as first returned (a hit under another doc_id copies them)
        self._doc_memo: BoundedMemo[tuple, list[CueTargetPair]] = BoundedMemo(_MEMO_MAX_DOCS)
        self._left_reach = _context_reach([r.preceded_by for r in res.context if r.preceded_by])
        if not _new_pair.simple or not memo:
            self._left_reach = None  # records are relocated by rebuilding their __dict__
        t = res.targets
        self._strip_leading = _WordList(t.strip_leading)
        # items not stripped before a number ("changes in 6 months"), as token runs
        self._strip_unless_number = frozenset(
            tuple(w.lower() for w in _TOKEN.findall(x)) for x in t.strip_leading_unless_number
        )
        self._strip_trailing = _WordList(t.strip_trailing)
        self._backward_skip = _WordList(t.backward_skip)
        self._breakers = _WordList(t.phrase_breakers)
        self._verbs = _WordList(t.clause_verbs)
        self._verb_like = _WordList(t.verb_like)
        self._verb_suffixes = tuple(t.verb_suffixes)
        self._adjective_suffixes = tuple(t.adjective_suffixes)
        self._modifier_words = frozenset(w.lower() for w in t.modifier_words)
        self._course_nouns = frozenset(w.lower() for w in t.course_nouns)
        self._watch_verbs = frozenset(w.lower() for w in t.watch_verbs)
        self._watch_fillers = frozenset(w.lower() for w in t.watch_fillers)
        self._located_preps = frozenset(w.lower() for w in t.located_prepositions)
        self._location_frames = frozenset(w.lower() for w in t.location_frames)
        self._substance_heads = frozenset(w.lower() for w in t.substance_heads)
        self._to_complement_heads = frozenset(w.lower() for w in t.to_complement_heads)
        self._cause_heads = frozenset(w.lower() for w in t.cause_heads)
        self._specimen_words = frozenset(w.lower() for w in t.specimen_words)
        self._threshold_words = frozenset(w.lower() for w in t.threshold_words)
        self._other_cause_heads = frozenset(w.lower() for w in t.other_cause_heads)
        self._imperative_openers = frozenset(w.lower() for w in t.imperative_openers)
        self._observation_heads = frozenset(w.lower() for w in t.observation_heads)
        self._statement_openers = frozenset(w.lower() for w in t.statement_openers)
        self._normal_states = frozenset(w.lower() for w in t.normal_states)
        self._effect_participles = frozenset(w.lower() for w in t.effect_participles)
        self._reading_verbs = frozenset(w.lower() for w in t.reading_verbs)
        self._observation_participles = frozenset(w.lower() for w in t.observation_participles)
        self._degree_adverbs = frozenset(w.lower() for w in t.degree_adverbs)
        # a plan, test or visit, or a time ("see her back the week of June 14"), is no finding
        self._non_target_heads = frozenset(w.lower() for w in (*t.non_target_heads, *t.time_heads))
        self._procedure_suffixes = tuple(w.lower() for w in t.procedure_suffixes)
        self._body_site_heads = frozenset(w.lower() for w in t.body_site_heads)
        self._body_site_words = self._body_site_heads | frozenset(w.lower() for w in t.body_site_modifiers)
        self._manoeuvre_heads = frozenset(w.lower() for w in t.manoeuvre_heads)
        self._manoeuvre_modifiers = frozenset(w.lower() for w in t.manoeuvre_modifiers)
        self._stated_history = _WordList(t.stated_history_starts)
        self._verb_noun_compounds = _WordList(t.verb_noun_compounds)
        self._state_words = frozenset(w.lower() for w in t.state_words)
        self._copulas = frozenset(w.lower() for w in t.copulas)
        self._subjects = _WordList(t.clause_subjects)
        self._coord = _WordList(t.coordinators)
        self._non_targets = frozenset(w.lower() for w in t.non_targets)
        self._non_target_or_modifier = self._non_targets | self._modifier_words
        # target text -> _modifier_only
        self._modifier_memo: BoundedMemo[str, bool] = BoundedMemo(_MEMO_MAX_ENTRIES)

    def __reduce__(self):  # rebuild from the (picklable) resources in the other process
        return (_rebuild_engine, (self.resources, self.memo))

    # ------------------------------------------------------------------ scanning

    def _scan_text(self, text: str) -> list[_Match]:
        out = []
        info = self._group_info
        make = _Match._make  # tuple.__new__: no Python-level __new__ per match
        for m in self._scan.finditer(text):
            start, end = m.span()
            if start == end:
                continue
            out.append(make((start, end, *info[int(m.lastgroup[1:])])))
        return out

    def lookup(self, phrase: str) -> tuple[str, str, CueEntry | None] | None:
        """(kind, rule id, lexicon entry) of the scan match covering all of ``phrase``, if any.

        Kinds: "cue", "pseudo", "term", "alt", "notalt". Useful to check which entry a cue hits.
        """
        found = self._scan_text(phrase)
        if len(found) == 1 and (found[0].start, found[0].end) == (0, len(phrase)):
            m = found[0]
            return m.kind, m.rule_id, m.entry
        return None

    def sentences(self, text: str) -> list[tuple[int, int]]:
        """Sentence spans of ``text`` from the clinical splitter."""
        return self.splitter.split(text)

    def _analyses(
        self, text: str, sentences: Sequence[tuple[int, int]] | None
    ) -> list[_SentenceAnalysis]:
        return [
            self._analyze_sentence(text, s, e, inside, self._lead_of(text, s, inside))
            for s, e, inside in self._sentence_matches(text, sentences)
        ]

    def _lead_of(self, text: str, s: int, inside: list[_Match]) -> tuple[int, int] | None:
        """The lead-in line a sentence's "or" may stand under (``_lead_in_line``), looked for only
        when an alternative marker is inside; found once per sentence for the memo key and the
        analysis (``_lead_in_negation``)."""
        for m in inside:
            if m.kind == ALT:
                return self._lead_in_line(text, s)
        return None

    def _sentence_matches(
        self, text: str, sentences: Sequence[tuple[int, int]] | None
    ) -> list[tuple[int, int, list[_Match]]]:
        """(start, end, scan matches inside) of each sentence that holds a cue or an alternative."""
        matches = self._scan_text(text)
        cue_starts = [m.start for m in matches if m.kind in (CUE, ALT)]
        if not cue_starts:
            return []  # nothing to analyse in any sentence: the text need not be split
        spans = list(sentences) if sentences is not None else self.sentences(text)
        starts = [m.start for m in matches]
        n_cues = len(cue_starts)
        out = []
        for s, e in spans:
            k = bisect_left(cue_starts, s)
            if k == n_cues or cue_starts[k] >= e:
                continue  # no cue or alternative starts inside: nothing to analyse
            lo, hi = bisect_left(starts, s), bisect_left(starts, e)
            inside = [m for m in matches[lo:hi] if m.end <= e]
            if not any(m.kind in (CUE, ALT) for m in inside):
                continue
            out.append((s, e, inside))
        return out

    def _memo_key(
        self, text: str, s: int, e: int, inside: list[_Match], lead: tuple[int, int] | None
    ) -> tuple | None:
        """What a sentence's pairs depend on (None: not memoised; see ``_memo``).

        The sentence text, its scan matches (a match crossing into it from the sentence before
        changes them), the few characters before it that the context rules' look-behinds,
        word boundaries and "?" attachment can see, and the text of ``lead`` (``_lead_of``).
        """
        if self._left_reach is None or e - s > _MEMO_MAX_CHARS:
            return None
        return (
            text[s:e],
            text[max(0, s - self._left_reach) : s],
            tuple([(m.start - s, m.end - s, m.kind, m.rule_id, id(m.entry)) for m in inside]),
            # a list item's "or" reads its lead-in line (``_lead_in_negation``)
            text[lead[0] : lead[1]] if lead is not None else None,
        )

    def clear_memo(self) -> None:
        """Forget the memoised sentence results (benchmarks clear it to time cold passes)."""
        self._memo.clear()
        self._doc_memo.clear()
        self._modifier_memo.clear()

    # ------------------------------------------------------------------ per sentence

    def _analyze_sentence(
        self, text: str, s: int, e: int, matches: list[_Match], lead_span: tuple[int, int] | None
    ) -> _SentenceAnalysis:
        """Cues, their reaches and the alternative groups of one sentence; ``lead_span`` is its
        lead-in line (``_lead_of``)."""
        toks = []
        # no look-behind: the same tokens as text[s:e]; on ASCII (less the characters the two
        # engines' \s disagree on) the stdlib engine finds the same tokens, faster
        sentence = text[s:e]
        if sentence.isascii() and _NOT_PLAIN_ASCII.search(sentence) is None:
            # lower-casing ASCII keeps every offset and token; every non-space character is in
            # a token, so a token starts at the first place at or after the previous token's
            # end where its text occurs; a word (first group) starts with a word character
            low_sentence = sentence.lower()
            find = low_sentence.find
            pos = 0
            for word, mark in _TOKEN_ASCII_PARTS.findall(low_sentence):
                low = word or mark
                start = find(low, pos)
                pos = start + len(low)
                toks.append(_Tok(s + start, s + pos, low, not word))
        else:
            for m in _TOKEN.finditer(text, s, e):
                low = m.group().lower()
                c = low[0]
                toks.append(_Tok(m.start(), m.end(), low, not (c.isalnum() or c == "_")))
        tstarts = [t.start for t in toks]
        tends = [t.end for t in toks]
        cues: list[_CueHit] = []
        alt_markers: list[_Match] = []
        boundaries: list[tuple[int, int, str]] = []  # (start, end, rule id): terminators and cues
        label_ends = None
        for m in matches:
            if m.kind == CUE:
                hit = self._make_cue(text, s, e, m)
                cues.append(hit)
                boundaries.append((m.start, m.end, m.rule_id))
            elif m.kind == TERM:
                if m.rule_id == "term.colon":
                    if label_ends is None:
                        label_ends = self._label_ends(text, matches)
                    if m.start in label_ends:
                        continue  # "Ddx: A vs B", "Likely: X": a cue's label colon opens its list
                boundaries.append((m.start, m.end, m.rule_id))
            elif m.kind == ALT:
                alt_markers.append(m)
                if m.entry is not None and m.entry.direction is Direction.FORWARD:
                    # "..., plus or minus a contribution from X", "the differential includes": a
                    # forward alternatives cue opens its own list, so it ends an earlier cue's scope
                    boundaries.append((m.start, m.end, m.rule_id))
        boundaries.sort()
        bstarts = [b[0] for b in boundaries]

        def tok_range(a: int, b: int) -> tuple[int, int]:
            """Token index range of tokens wholly inside [a, b)."""
            return bisect_left(tstarts, a), bisect_right(tends, b)

        reaches: list[_Reach] = []
        for cue in cues:
            k = bisect_right(bstarts, cue.start)
            nxt = next((b for b in boundaries[k:] if b[0] >= cue.end), None)
            f_end = nxt[0] if nxt else e
            prev = [b for b in boundaries[: k - 1] if b[1] <= cue.start]
            b_start = prev[-1][1] if prev else s
            prev_rid = prev[-1][2] if prev else None
            directions = self._directions(text, cue, e)
            if Direction.FORWARD in directions:
                i, j = tok_range(cue.end, f_end)
                hedge = cue.level in (Level.UL2, Level.UL3)
                found_fwd = self._forward_targets(
                    toks, i, j, cue.entry.scope_tokens, hedge, examples=cue.level is Level.UL5
                )
                if (
                    nxt is not None
                    and not nxt[2].startswith("term.")
                    and len(found_fwd) == 1
                    and found_fwd[0][1] == j
                    and all(self._is_modifier(toks[t]) for t in range(*found_fwd[0]))
                ):
                    # "consider a fluoroscopic | evaluation for ...": a modifier cut off by the
                    # next cue is no target
                    found_fwd = []
                for a, b in found_fwd:
                    reaches.append(
                        _Reach(cue, toks[a].start, toks[b - 1].end, Direction.FORWARD, a - i)
                    )
            forward_found = bool(reaches) and reaches[-1].cue is cue
            if Direction.BACKWARD in directions and not (
                cue.direction is Direction.EITHER and forward_found
            ):
                # an "either" cue looks backward only when nothing follows it in its clause
                i, j = tok_range(b_start, cue.start)
                either = cue.direction is Direction.EITHER
                if either:
                    # "Cellulitis of the shin, presumed.": an either-way cue that ends its
                    # sentence reads back across the comma (nothing follows it to read forward)
                    either = not all(t.punct for t in toks[slice(*tok_range(cue.end, e))])
                found = self._backward_targets(toks, i, j, either=either, scope=cue.entry.scope_tokens)
                if not found and prev_rid and prev_rid.startswith("term.which") and prev:
                    # "a nodule which is indeterminate": look past the relative pronoun
                    k2 = len(prev) - 1
                    b2 = prev[k2 - 1][1] if k2 >= 1 else s
                    i2, j2 = tok_range(b2, prev[-1][0])
                    if self._only_skippable(toks, tok_range(prev[-1][1], cue.start)):
                        found = self._backward_targets(toks, i2, j2, either=False)
                        j = j2
                for a, b, part_end in found:
                    reaches.append(
                        _Reach(
                            cue,
                            toks[a].start,
                            toks[b - 1].end,
                            Direction.BACKWARD,
                            j - b,
                            toks[a].start,
                            toks[part_end - 1].end,
                        )
                    )
        alt_groups = self._alternative_groups(
            text, toks, alt_markers, boundaries, s, e, tstarts, tends
        )
        lead = self._lead_in_negation(text, lead_span) if alt_groups and lead_span is not None else None
        return _SentenceAnalysis(s, e, sentence, cues, reaches, alt_groups, lead)

    @staticmethod
    def _label_ends(text: str, matches: list[_Match]) -> set[int]:
        """Where a colon right after a forward-reaching cue or alternatives cue would start: a cue
        written as a label ("Ddx:", "Likely:") governs what follows its colon."""
        ends = set()
        for m in matches:
            if m.kind in (CUE, ALT) and m.entry is not None and m.entry.direction is not Direction.BACKWARD:
                k = m.end
                while k < len(text) and text[k] in " \t":
                    k += 1
                ends.add(k)
        return ends

    def _make_cue(self, text: str, s: int, e: int, m: _Match) -> _CueHit:
        entry = m.entry
        assert entry is not None
        level = entry.level
        ctx_id = None
        shown = None
        for rule, before, after in self._context:
            if entry.id not in rule.cue_ids:
                continue
            hit = before.search(text, s, m.start) if before is not None else None
            if before is not None and not hit:
                continue
            if after is not None and not after.match(text, m.end, e):
                continue
            level, ctx_id = rule.set_level, rule.id
            if level is Level.UL1 and hit is not None:
                # a negation earlier in the clause decides ("no edema to indicate heart failure"):
                # it is the cue annotators and readers name, as "no evidence to suggest"
                neg = self._NEGATION_WORD.match(text, hit.start(), m.start)
                if neg is not None:
                    shown = (neg.start(), neg.end(), neg.group(0))
            break
        direction = entry.direction
        return _CueHit(
            m.start, m.end, text[m.start : m.end], level, direction, entry, entry.id, ctx_id,
            shown=shown,
        )

    _NEGATION_WORD = regex.compile(r"no|without|negative\s+for", regex.IGNORECASE)

    @staticmethod
    def _directions(text: str, cue: _CueHit, e: int) -> tuple[Direction, ...]:
        """The directions ``cue`` reads in its sentence (which ends at ``e``)."""
        if cue.direction is Direction.FORWARD:
            return (Direction.FORWARD,)
        if cue.direction is Direction.BACKWARD:
            return (Direction.BACKWARD,)
        if cue.text == "?":
            # "?PE" / "? PE" looks forward, "PE?" looks backward; so does a spaced "PE ?" that
            # ends its sentence (nothing to look forward to; the scorer reads outputs the same way).
            # Only the sentence is read: what follows it is no part of the sentence memo's key.
            attached = cue.start > 0 and text[cue.start - 1].isalnum()
            ends = not any(ch.isalnum() for ch in text[cue.end : e])
            return (Direction.BACKWARD,) if attached or ends else (Direction.FORWARD,)
        return (Direction.FORWARD, Direction.BACKWARD)

    # ------------------------------------------------------------------ targets

    def _clause_start(self, toks: Sequence[_Tok], i: int, j: int) -> bool:
        """Does toks[i:j] start or contain a new clause (subject pronoun first, or a clause verb)?"""
        if i < j and (self._subjects.match_at(toks, i, j) or toks[i].low in self._imperative_openers):
            return True  # "if she has any chills, let me know": the instruction is the main clause
        # a participle right after a noun ("rales or rhonchi noted") does not start a clause
        verbs = self._verbs
        for k in range(i, j):
            low = toks[k].low
            if low in verbs and not self._verb_noun_compounds.match_at(toks, k, j) and not (
                k > i
                and low not in self._copulas
                and self._strip_trailing.match_at(toks, k, k + 1)
            ):
                return True
        return False

    @staticmethod
    def _coord_kind(tok: _Tok) -> str:
        """ "and" for conjunctions that can start a new clause, "or" for the others (or, nor, and/or)."""
        return "and" if tok.low in ("and", "plus", "&", "as") else "or"

    def _split_conjuncts(self, toks: Sequence[_Tok], i: int, j: int) -> list[tuple[int, int, str]]:
        """Split toks[i:j] at commas and coordinators: (start, end, separator-before) parts."""
        parts: list[tuple[int, int, str]] = []
        start, sep = i, ""
        k = i
        coord_first = self._coord._phrases
        while k < j:
            low = toks[k].low
            if (
                low == "("
            ):  # a parenthesis is part of the conjunct it follows: "bleeding (occult or overt)"
                close = next((m for m in range(k + 1, j) if toks[m].low == ")"), None)
                if close is not None:
                    k = close + 1
                    continue
            n = self._coord.match_at(toks, k, j) if low in coord_first else 0
            if low == ",":
                parts.append((start, k, sep))
                # ", and" / ", or": the coordinator is the separator
                n2 = self._coord.match_at(toks, k + 1, j)
                start, sep = k + 1 + n2, (self._coord_kind(toks[k + 1]) if n2 else "comma")
                k = start
                continue
            if n and self._open_bound(toks, k, j):
                k += 2  # "a temperature of 38.0 C or higher": the bound belongs to its threshold
                continue
            if n:
                parts.append((start, k, sep))
                start, sep = k + n, self._coord_kind(toks[k])
                k = start
                continue
            k += 1
        parts.append((start, j, sep))
        return parts

    #: the comparatives that close a threshold after "or" ("38.5 or higher", "SPF 30 or greater")
    _BOUND_WORDS = frozenset({"higher", "greater", "more", "above", "over", "lower", "less", "below", "longer", "worse"})

    def _open_bound(self, toks: Sequence[_Tok], k: int, j: int) -> bool:
        """Is the "or" at toks[k] the open end of a threshold ("fever of 38.0 C (100.4 F) or higher,",
        "SPF 30 or greater", "for 2 days or longer")? A number, its unit or a closing parenthesis
        before it, a comparative and the end of the item after it: one item, not two."""
        if toks[k].low != "or" or k == 0 or k + 1 >= j or toks[k + 1].low not in self._BOUND_WORDS:
            return False
        if k + 2 < j and not toks[k + 2].punct and toks[k + 2].low not in ("and", "or"):
            return False  # "or worse pain": a second item
        prev = toks[k - 1].low
        return prev[:1].isdigit() or prev == ")" or prev in self._UNITS or prev in self._TIME_UNITS

    #: words for "something wrong" that make the organ after "with" the finding ("a problem with
    #: your kidneys", "trouble with the knee")
    _PROBLEM_WORDS = frozenset({"problem", "problems", "issue", "issues", "trouble"})
    _PROBLEM_DETERMINERS = frozenset({"the", "your", "his", "her", "their", "my", "a", "an", "both"})

    def _after_problem_with(self, toks: Sequence[_Tok], i: int) -> bool:
        """True when toks[i] follows "problem/issue/trouble with" (determiners between): the organ
        named there is what is wrong, so a body site is the finding ("may be a problem with your
        kidneys"), unlike the object of a test's purpose ("an ultrasound to assess the kidneys")."""
        p = i - 1
        while p >= 0 and toks[p].low in self._PROBLEM_DETERMINERS:
            p -= 1
        return p >= 1 and toks[p].low == "with" and toks[p - 1].low in self._PROBLEM_WORDS

    def _watched_course(self, toks: Sequence[_Tok], i: int, words: list[str]) -> bool:
        """ "monitor for progression or changes", "watch for any growth": a bare course noun after a
        watching verb and its "for" is the course of the watched finding, so it is the target
        (elsewhere "changes" alone names nothing: "no changes to his medications")."""
        if not words or not self._course_nouns.issuperset(words):
            return False
        m = i - 1
        while m >= 0 and (toks[m].low in self._course_nouns or toks[m].low in self._watch_fillers):
            m -= 1  # "for progression or changes", "for any further growth"
        if m < 1 or toks[m].low != "for":
            return False
        for t in reversed(toks[max(0, m - 4) : m]):  # "monitor (the nodule) for", "watch closely for"
            if t.punct:
                return False
            if t.low in self._watch_verbs:
                return True
        return False

    #: number words a count of episodes may use ("more than three nosebleeds a week")
    _COUNT_WORDS = frozenset({"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve"})
    #: units after a number that make it a size or a dose, not a count ("no more than 2 cm of fluid")
    _UNITS = frozenset({"cm", "mm", "mg", "mcg", "g", "kg", "lb", "lbs", "pounds", "ml", "cc", "l", "%", "percent", "degrees"})
    #: the words before a time unit that make a count a rate ("a day", "per week")
    _RATE_WORDS = frozenset({"a", "an", "per", "each", "every"})

    def _leading_count(self, toks: Sequence[_Tok], k: int, j: int) -> bool:
        """Does toks[k:] open with a count of a finding ("more than 8 bloody stools", "more than
        two falls a month")? A threshold word, "than", a number, then a word that is no plan or time."""
        if k + 3 >= j or toks[k].low not in self._threshold_words or toks[k + 1].low != "than":
            return False
        if k > 0 and toks[k - 1].low in ("no", "not"):
            return False  # "no more than 1 drink a week": a limit advised, not a finding
        num, nxt = toks[k + 2].low, toks[k + 3]
        return (
            (num[0].isdigit() or num in self._COUNT_WORDS)
            and not nxt.punct
            and nxt.low not in self._non_target_heads
            and nxt.low not in self._non_targets
            and nxt.low not in self._UNITS
        )

    def _noun_phrase(self, toks: Sequence[_Tok], i: int, j: int) -> tuple[int, int] | None:
        """The target noun phrase at the start of toks[i:j] (strip leading words, cut at breakers)."""
        if (
            i + 2 < j
            and len(toks[i].low) <= 2
            and (toks[i].low.isdigit() or (len(toks[i].low) == 1 and toks[i].low.isalpha()))
            and toks[i + 1].low in (".", ")")
            and (i == 0 or toks[i - 1].low in (".", ":", ";"))
        ):
            i += 2  # a list number ("2. Minimal bibasilar atelectasis") is not part of the target
        start = i
        strip_leading = self._strip_leading
        leading_first = strip_leading._phrases  # first tokens of its items
        while i < j:
            n = strip_leading.match_at(toks, i, j) if toks[i].low in leading_first else 0
            if (
                n
                and i + n < j
                and toks[i + n].low[0].isdigit()
                and tuple([t.low for t in toks[i : i + n]]) in self._strip_unless_number
            ):
                n = 0  # "changes in 6 months": "in" starts a time, so "changes" is no stripped lead-in
            if n:
                i += n
                continue
            if toks[i].punct:
                i += 1
                continue
            break
        # verbs and adverbs after a negated verb ("has not noticed any blood"): the object is the target
        # (not the first word of a compound noun: "sleep apnea", "use disorder")
        while i < j and not self._verb_noun_compounds.match_at(toks, i, j) and not self._kept_degree(toks, i, j) and (
            toks[i].low in self._verbs
            or toks[i].low in self._verb_like
            or (self._verb_form(toks, i, j) and toks[i].low not in self._modifier_words)
        ):
            if toks[i].low in self._non_targets:
                return None  # "not taking her blood pressures": an action withheld, not a finding
            i += 1
            while i < j and self._strip_leading.match_at(toks, i, j):
                i += self._strip_leading.match_at(toks, i, j)
        k = i
        limit = self.resources.targets.max_tokens
        breakers, verbs = self._breakers, self._verbs
        multi_breakers = breakers.multi_starts
        counted = False
        while k < j and k - i < limit:
            tok = toks[k]
            if (
                tok.low == "."
                and k > i
                and k + 1 < j
                and len(toks[k - 1].low) == 1
                and toks[k - 1].low.isalpha()
                and toks[k - 1].end == tok.start
                and not toks[k + 1].punct
                and toks[k + 1].low.isalpha()
                and toks[k + 1].start == tok.end + 1
            ):
                k += 1  # a genus initial: "H. pylori", "C. diff", "E. coli"
                continue
            if (
                tok.low == "in"
                and k == i + 1
                and toks[i].low in self._course_nouns
                and k + 1 < j
                and not toks[k + 1].low[0].isdigit()
                and not any(t.low in self._TIME_UNITS for t in toks[k + 1 : min(k + 4, j)])
            ):
                k += 1  # "improvement in the hemianopia": the course of a finding, not a place
                continue
            if tok.low == "in" and k > i and toks[k - 1].low in self._substance_heads:
                m = k + 1
                if m < j and toks[m].low in self._DETERMINERS:
                    m += 1
                if m < j and toks[m].low in self._specimen_words:
                    k = m + 1  # "blood in your urine": the specimen is part of the finding, not a place
                    continue
            if k == i and self._leading_count(toks, k, j):
                k += 3  # "more than 8 loose stools a day": the count is part of the finding
                counted = True
                continue
            if counted and tok.low in self._RATE_WORDS and k + 1 < j and toks[k + 1].low in self._TIME_UNITS:
                break  # "... stools a day": the rate's time is no part of the target
            if k > i and tok.low in self._threshold_words:
                m = k + 2 if k + 1 < j and toks[k + 1].low == "than" else k + 1
                if (
                    m < j
                    and toks[m].low[0].isdigit()
                    and not toks[k - 1].punct
                    and not (m + 1 < j and toks[m + 1].low in self._non_target_heads)
                ):
                    k = m + 1  # "a temperature over 101": the threshold is part of the finding
                    continue
            if (
                tok.low == "to"
                and k > i
                and toks[k - 1].low in self._to_complement_heads
                and k + 1 < j
                and (toks[k + 1].low in self._TO_ORGAN_STARTS or toks[k + 1].low in self._body_site_words)
            ):
                k += 1  # "damage to the retina", "injury to the spleen": the organ completes the finding
                continue
            if tok.punct and tok.low not in ("%", "'", "’", "/", "+", "#"):
                break
            if (
                tok.low == "to"
                and i < k < j - 1
                and self._is_modifier(toks[k - 1])
                and self._is_modifier(toks[k + 1])
            ):
                k += 1  # "a moderate to large left pleural effusion": a range, not a preposition
                continue
            if tok.low in breakers or (k > i and tok.low in verbs):
                break
            if k > i and tok.low in multi_breakers and breakers.match_at(toks, k, j) > 1:
                break
            k += 1
        bare_diagnosis = False
        while k > i:
            n = self._strip_trailing.match_ending_at(toks, k, i)
            if n and n < k - i:
                bare_diagnosis = bare_diagnosis or toks[k - 1].low == "diagnosis"
                k -= n
                continue
            if toks[k - 1].punct and toks[k - 1].low != "%":
                k -= 1
                continue
            if k - 1 > i and self._next_list_number(toks, k - 1):
                k -= 1  # "1. Cardiomegaly, question small effusions 2. Edema": the next item's number
                continue
            break
        if k <= i:
            return None
        if bare_diagnosis and all(self._is_modifier(t) for t in toks[i:k] if not t.punct):
            return None  # "without a pathological diagnosis", "no definitive diagnosis": no finding named
        words = [t.low for t in toks[i:k] if not t.punct]
        changing = (
            (words[-1:] in (["symptoms"], ["symptom"]) and self._changes_state(toks, k, j))
            or (len(words) > 1 and words[-1] in self._GENERIC_HEADS and self._DECISIVE.intersection(words[:-1]))
            or self._watched_course(toks, i, words)
            or (len(words) == 2 and words[0] == "other" and words[1] in self._other_cause_heads)
        )
        non_targets = self._non_targets
        plain = non_targets.isdisjoint(words)  # no non-target word (the usual case)
        cause = words[-1:] and words[-1] in self._cause_heads and self._after_cause_link(toks, start, k - 1)
        if not changing and not cause and (
            not words
            or (
                "".join(words).isdigit()  # every word all digits (words are never empty)
                if plain
                else all(w in non_targets or w.isdigit() for w in words)
            )
        ):
            return None  # "informative", "follow-up": no clinical target
        if not changing and not cause and not plain and self._non_target_or_modifier.issuperset(
            [w for w in words[:-1] if not w.endswith("ly")] + words[-1:]
            if words[-1] in self._normal_states
            else words
        ):
            # "additional treatment", "high clinical concern"; an adverb before a normal state
            # counts as neither ("grossly intact", "grossly unremarkable": no finding is named)
            return None
        if words[-1] in self._non_target_heads and not cause:
            return None  # "dedicated rib views", "preoperative counseling": a plan, not a finding
        head = words[words.index("of", 1) - 1] if "of" in words[1:] else words[-1]
        if (head in self._non_target_heads and not (cause and head == words[-1])) or (
            self._procedure_suffixes
            and head.endswith(self._procedure_suffixes)
            and not self._PAST.intersection(words)
        ):
            # "surgery of the left foot", "a lithotripsy", "an echocardiogram": a plan, not a finding
            # (a past procedure, "related to prior sphincterotomy", is part of the patient's state)
            return None
        if (head in self._body_site_heads and self._body_site_words.issuperset(words)
                and (k >= j or toks[k].punct or toks[k].low in ("and", "or", "nor"))
                and not self._after_problem_with(toks, i)):
            # "for evaluation of the left ankle": a body site names no finding ("check that the
            # ankle has not broken" goes on with the predicate that says the finding of the site)
            return None
        if head in self._manoeuvre_heads and self._manoeuvre_modifiers.issuperset(words[: words.index(head)]):
            return None  # "(pain with flexion or) extension of the knee": a movement, not a finding
        if (
            i + 1 < j
            and toks[i].low.endswith("ing")
            and (
                self._is_object_start(toks[i + 1])
                or self._is_person(toks, i + 1)
                or (toks[i].low in self._non_targets and toks[i].low not in self._modifier_words)
            )
        ):
            return None  # "bothering Karen", "overdoing it": a verb with its object
        person = None
        if not self._PERSON_WORDS.isdisjoint([t.low for t in toks[i:k]]):
            person = next((m for m in range(i, k) if self._is_person(toks, m)), None)
        if person is not None:
            # "a fall he incurred": the noun phrase ends before the clause; "I believe he": none
            k = person
            while k > i and toks[k - 1].punct:
                k -= 1
            if k <= i:
                return None
            words = [t.low for t in toks[i:k] if not t.punct]
            if not words or self._non_targets.issuperset(words):
                return None
        if toks[i].low in self._verbs and not self._verb_noun_compounds.match_at(toks, i, k):
            return None
        if k == i + 1 and k < j and toks[k].low in ("by", "with") and toks[i].low in self._effect_participles:
            return None  # "(pain) not eased by rest", "not relieved with nitroglycerin": an effect, no finding
        return i, k

    _CHANGE = regex.compile(
        r"(?:(?:does|do|did|has|have)\s+not\s+|(?:doesn|don|didn|hasn|haven)['’]t\s+|fails?\s+to\s+)"
        r"(?:improved?|resolved?|get\s+better|gotten\s+better|go\s+away|gone\s+away|subsided?)\b"
        r"|(?:is|are)\s+(?:not|no)\s+better\b|(?:isn|aren)['’]t\s+better\b"
        r"|(?:worsen|persist|return|recur|develop|continue|progress|get\s+worse|come\s+back)s?\b",
        regex.IGNORECASE,
    )

    # "no acute findings", "any recurrent symptoms": a decisive qualifier makes a generic head a
    # proposition (an old finding or a past symptom may be present; a new or acute one is not)
    _GENERIC_HEADS = frozenset({"findings", "finding", "symptoms", "symptom", "changes", "change"})
    _DECISIVE = frozenset({"acute", "new", "active", "recurrent", "recurring", "worsening", "residual", "persistent"})

    # what may follow "damage to" when it names an organ ("the retina", "her kidneys", "both knees"),
    # not a purpose ("damage to prevent healing")
    _TO_ORGAN_STARTS = frozenset({"the", "his", "her", "their", "your", "its", "my", "our", "both", "either"})

    _CONDITIONALS = frozenset({"if", "unless"})
    #: onset verbs a condition repeats before a later item ("if she develops A or has B")
    _ONSET_VERBS = frozenset({"has", "have", "develops", "develop", "gets", "get", "notices", "experiences", "is", "are"})
    #: a gain a treatment should bring ("any improvement", "at least a partial response")
    _GAIN = (
        r"(?:(?:any|much|significant|meaningful|real|at\s+least|a|an|some|partial|good|adequate)\s+){0,4}"
        r"(?:improvement|response)"
    )
    _NOT_IMPROVING = regex.compile(
        r"(?:(?:does|do|did)\s+not\s+|(?:doesn|don|didn)['’]t\s+|fails?\s+to\s+)"
        r"(?:improve|get\s+better|respond|recover)\b"
        r"|(?:(?:has|have)\s+not\s+|(?:hasn|haven)['’]t\s+)(?:improved|gotten\s+better|responded|recovered)\b"
        r"|(?:is|are)\s+(?:not|no)\s+(?:better|improved|improving)\b|(?:isn|aren)['’]t\s+(?:better|improved|improving)\b"
        r"|(?:continues?|keeps?)\s+to\s+(?:worsen|decline|deteriorate)\b|(?:worsens|deteriorates|declines)\b"
        r"|not\s+(?:improving|better|improved)\b"
        # "if she does not have any improvement", "if he has not had at least a partial response"
        r"|(?:(?:does|do|did)\s+not\s+|(?:doesn|don|didn)['’]t\s+)(?:have|get|see|notice)\s+" + _GAIN + r"\b"
        r"|(?:(?:has|have)\s+not\s+|(?:hasn|haven)['’]t\s+)(?:had|gotten|seen|noticed)\s+" + _GAIN + r"\b",
        regex.IGNORECASE,
    )
    # a weight threshold of a home-monitoring instruction: "if she gains 3 pounds (in a day)"
    _WEIGHT_CHANGE = regex.compile(
        r"(?:gains?|loses?|puts\s+on)\s+(?:more\s+than\s+|over\s+|at\s+least\s+)?"
        r"(?:\d+(?:\.\d+)?|one|two|three|four|five|ten)\s+(?:pounds?|lbs?|kg|kilograms?|kilos?)\b",
        regex.IGNORECASE,
    )

    #: the words a hedged cause ends on before the thing blamed ("likely related to", "probably caused
    #: by", "could be from", "a side effect of", "a reaction to"), as (word before, last word) or (last
    #: word,); the one home of these links. The value says whether ``_predicate`` also reads the link
    #: after a copula ("I believe her symptoms are secondary to X"); the others are read only as a
    #: hedged cause's link (``_after_cause_link``)
    _CAUSE_LINKS: Mapping[tuple[str, ...], bool] = MappingProxyType({
        ("due", "to"): True, ("secondary", "to"): True, ("related", "to"): True, ("caused", "by"): True,
        ("from",): True, ("attributed", "to"): False, ("reaction", "to"): False, ("induced", "by"): False,
        ("triggered", "by"): False, ("effect", "of"): False, ("effects", "of"): False,
    })

    def _after_cause_link(self, toks: Sequence[_Tok], start: int, i: int) -> bool:
        """True when a hedged cause's link ends before toks[i] from the target's raw start on ("likely
        related to her new medication", "a side effect of the hormone therapy"): the medicine blamed
        is the proposition, not a plan."""
        for p in range(max(start, 1), i + 1):
            last = toks[p - 1].low
            if (last,) in self._CAUSE_LINKS or (p >= 2 and (toks[p - 2].low, last) in self._CAUSE_LINKS):
                return True
        return False

    #: a pronoun after "if" that can stand for values the patient measures (weights, readings) or for
    #: a finding named before ("if it comes back"); only a course after it makes it a target
    _MONITORED_PRONOUNS = frozenset({"these", "they", "those", "it", "this"})
    #: a rise, a return or a lasting abnormality said of a pronoun in a condition ("if these start to
    #: increase", "if it comes back", "if this recurs", "if it stays elevated"): the course is the target
    _RISING = regex.compile(
        r"(?:(?:start|starts|begin|begins|continue|continues|keep|keeps)\s+(?:to\s+)?)?"
        r"(?:increas(?:e|es|ing)|ris(?:e|es|ing)|go(?:es)?\s+up|going\s+up|climb(?:s|ing)?|trend(?:s|ing)?\s+up(?:ward)?"
        r"|recur(?:s|ring)?|come(?:s)?\s+back|worsen(?:s)?|get(?:s)?\s+worse"
        r"|(?:remain|remains|stay|stays)\s+(?:elevated|high|low|abnormal|positive|enlarged|swollen))\b",
        regex.IGNORECASE,
    )

    def _rise_length(self, toks: Sequence[_Tok], i: int) -> int:
        """How many tokens from toks[i] say a rise ("start to increase", "go up"); 0 when none do."""
        m = self._RISING.match(" ".join(t.low for t in toks[i : i + 5]))
        return len(m.group(0).split()) if m is not None else 0

    def _condition_predicate(self, toks: Sequence[_Tok], i: int) -> tuple[int, int] | None:
        """ "if he fails to improve", "if she does not get better", telegraphic "if not improving",
        "if she gains 3 pounds":
        with the patient as the (possibly dropped) subject of a condition on their course, the
        course itself is the contingency, so the predicate is the target (there is no finding
        noun to take)."""
        if (
            1 < i < len(toks)
            and toks[i - 1].low in self._MONITORED_PRONOUNS
            and toks[i - 2].low in self._CONDITIONALS
        ):
            # the cue took the pronoun ("call me if they"): the rise after it is the target
            n = self._rise_length(toks, i)
            return (i, i + n) if n else None
        if i == 0 or i >= len(toks) or toks[i - 1].low not in self._CONDITIONALS:
            return None
        k = i
        if toks[k].low in self._MONITORED_PRONOUNS:
            # "monitor her daily weights and call me if these start to increase": the pronoun stands
            # for the values the patient measures, and their rise is the contingency
            n = self._rise_length(toks, k + 1)
            return (k, k + 1 + n) if n else None
        if toks[k].low in ("the", "this") and k + 1 < len(toks) and toks[k + 1].low in ("patient", "pt", "child"):
            k += 2
        elif self._is_person(toks, k) and toks[k].low not in ("we", "it"):
            k += 1
        elif toks[k].low not in ("fails", "fail", "not"):
            return None  # (telegraphic notes drop the subject: "If fails to improve, MRI")
        # the predicate may run past the scope: its own "not" is a cue that ends the scope
        words = " ".join(t.low for t in toks[k : k + 9])
        m = self._NOT_IMPROVING.match(words) or self._WEIGHT_CHANGE.match(words)
        if m is None:
            return None
        n = len(m.group(0).split())
        return (k, k + n) if k + n <= len(toks) else None

    _SEEMING = frozenset({"appears", "appear", "seems", "seem", "to", "be"})
    _COMPARED = frozenset({"compared", "from", "versus", "relative"})
    _STATUS_ADVERBS = frozenset({"likely", "probably"})
    _NEGATIVE_SUBJECTS = frozenset({"nothing", "none", "neither", "nobody", "not", "never"})
    #: a relative clause after a listed noun describes it; it does not open a new statement
    _RELATIVES = frozenset({"that", "which", "who", "whom"})
    _STATUS = regex.compile(
        r"(?:(?:very|fairly|reasonably|relatively|adequately|well|poorly|not\s+well)\s+)?"
        r"(?:controlled|stable)\b|well-controlled\b|poorly-controlled\b|under\s+(?:good\s+)?control\b",
        regex.IGNORECASE,
    )

    #: words that open a subject owned by the patient ("his blood pressure", "the patient's diabetes")
    _OWNERS = frozenset({"his", "her", "their", "patient's", "patient’s", "pt's"})
    #: determiners that may stand between a substance and its specimen ("blood in the urine")
    _DETERMINERS = frozenset({"the", "a", "an", "his", "her", "your", "their", "my", "its"})
    _CLAUSE_MARKS = frozenset({";", ":", ".", "but", "and", "so", "because", "although", "while"})

    def _owned_subject(self, toks: Sequence[_Tok], m: int) -> bool:
        """Whether the clause ending at toks[m] has a subject the patient owns ("his diabetes
        seems stable", "the patient's blood pressure looked great and appears stable"): a
        condition of this patient, not a finding compared with a prior image. The subject is the
        first word of the clause, or the word after "the"; one coordinated predicate ("... looked
        great and appears stable") is passed over."""
        k, passed_and = m, False
        while k >= 0 and m - k < 16:
            low = toks[k].low
            if low == "and" and not passed_and:
                passed_and = True
            elif low in self._CLAUSE_MARKS or low == ",":
                break
            k -= 1
        start = k + 1
        while start < m and toks[start].low in ("and", "but", "so", "the"):
            start += 1  # ", and his eczema seems stable"; "the patient's"
        return start <= m and toks[start].low in self._OWNERS

    def _status_predicate(self, toks: Sequence[_Tok], i: int, b: int) -> tuple[int, int] | None:
        """ "This appears to be well controlled", "It seems stable", "his diabetes seems stable",
        "blood pressure appears well controlled": in an assessment, the status of the condition
        is the hedged proposition. "Stable" after a noun subject the patient does not own ("the
        granuloma appears stable") is a comparison with a prior study and gives no pair; control
        is said of conditions only. An empty span means: a status compared with a prior study,
        no target at all."""
        m = i - 1
        while m >= 0 and toks[m].low in self._SEEMING:
            m -= 1
        if m == i - 1 and m > 0 and toks[m].low in self._STATUS_ADVERBS and toks[m - 1].low in self._SUBJECT_COPULAS:
            m -= 2  # "his asthma is likely well controlled": the adverb hedges the status as "seems" does
        if m == i - 1 or m < 0:
            return None
        words = " ".join(t.low for t in toks[i : min(b, i + 4)])
        found = self._STATUS.match(words)
        if found is None:
            return None
        controlled = "stable" not in found.group(0)
        if toks[m].low in self._NEGATIVE_SUBJECTS:
            return None  # "nothing appears well controlled": the negation decides
        if toks[m].low not in ("this", "it") and not controlled and not self._owned_subject(toks, m):
            return None
        n = len(found.group(0).split())
        if any(t.low in self._COMPARED for t in toks[i + n : i + n + 3]):
            return (i, i)  # "this appears stable compared to the prior exam": images compared, no pair
        return (i, i + n)

    _CONDITION_OPENERS = frozenset({"if", "unless", "should"})

    def _course_of_generic(self, toks: Sequence[_Tok], i: int, np: tuple[int, int]) -> tuple[int, int]:
        """ "if his symptoms do not improve", "should the symptoms come back": the bare word
        "symptoms" names no finding, so the change of course it is the subject of belongs to the
        target (as the predicate is the target in "if he fails to improve"); a specific finding
        ("if the cough persists") or a qualified one ("unless new symptoms develop") stays alone."""
        s, e = np
        if i == 0:
            return np
        if toks[i - 1].low not in self._CONDITION_OPENERS and not (
            # "if her EGD is normal and her symptoms persist": a second condition
            toks[i - 1].low in ("and", "or")
            and any(t.low in self._CONDITION_OPENERS for t in toks[max(0, i - 14) : i - 1])
        ):
            return np
        if [t.low for t in toks[s:e] if not t.punct] not in (["symptoms"], ["symptom"]):
            return np
        m = self._CHANGE.match(" ".join(t.low for t in toks[e : e + 5]))
        if m is None:
            return np
        return s, min(e + len(m.group(0).split()), len(toks))

    def _changes_state(self, toks: Sequence[_Tok], k: int, j: int) -> bool:
        """ "if his symptoms do not improve", "unless new symptoms develop": the patient's symptoms
        as the subject of a change of state are a finding, not the generic word "symptoms"."""
        if k >= len(toks):
            return False
        words = " ".join(t.low for t in toks[k : k + 4])  # the verb may lie past a cue's scope
        return self._CHANGE.match(words) is not None

    def _extend_repeated_head(
        self,
        toks: Sequence[_Tok],
        np: tuple[int, int],
        b: int,
        earlier: list[tuple[int, int, bool, bool]],
    ) -> tuple[int, int]:
        """ "malignancy or malignancy with postobstructive pneumonia": a conjunct that repeats an
        earlier target keeps the "with ..." phrase that tells the alternatives apart."""
        s, e = np
        if e >= b or toks[e].low != "with":
            return np
        words = [t.low for t in toks[s:e]]
        if not any([t.low for t in toks[a:c]] == words for a, c, _, _ in earlier):
            return np
        rest = self._noun_phrase(toks, e + 1, b)
        return (s, rest[1]) if rest is not None and rest[0] == e + 1 else np

    _PERSONS = frozenset({"he", "she", "we", "they", "you", "it"})
    _PERSON_WORDS = _PERSONS | {"i"}  # what _is_person can say yes to
    _OBJECT_START = frozenset(
        {"the", "a", "an", "his", "her", "their", "my", "your", "our", "it", "him", "them", "me", "us"}
    )

    def _is_person(self, toks: Sequence[_Tok], m: int) -> bool:
        """A personal pronoun ("he", "we", capital "I" but not "type I")."""
        tok = toks[m]
        if tok.low in self._PERSONS:
            return True
        if tok.low == "i" and tok.end - tok.start == 1:
            prev = toks[m - 1].low if m > 0 else ""
            return prev not in ("type", "grade", "stage", "class", "phase", "level", "mobitz")
        return False

    # verb-like words that are adverbs or adjectives, not an instruction's verb
    _NOT_IMPERATIVE = frozenset({"very", "really", "quite", "yet", "able", "sure", "ever", "always"})

    def _imperative(self, tok: _Tok) -> bool:
        """Does a list item starting with this token read as an instruction ("start antibiotics")?"""
        low = tok.low
        return (
            low in self._verb_like
            and low not in self._NOT_IMPERATIVE
            and low not in self._modifier_words
            and not low.endswith("ly")
        )

    def _kept_degree(self, toks: Sequence[_Tok], i: int, j: int) -> bool:
        """A degree adverb before a state word ("not significantly enlarged"): part of the target."""
        return toks[i].low in self._degree_adverbs and i + 1 < j and toks[i + 1].low in self._state_words

    def _is_object_start(self, tok: _Tok) -> bool:
        return tok.low in self._OBJECT_START

    def _is_modifier(self, tok: _Tok) -> bool:
        """A word that modifies a later head noun ("acute", "left", "alveolar"), never a head itself."""
        low = tok.low
        return low in self._modifier_words or (
            len(low) > 4 and low.endswith(self._adjective_suffixes)
        )

    def _has_verb(self, toks: Sequence[_Tok], i: int, j: int) -> bool:
        """Does toks[i:j] have a verb other than a copula, or a subject pronoun?"""
        for k in range(i, j):
            low = toks[k].low
            if low in self._copulas:
                continue
            if low == "there" and k + 1 < j and toks[k + 1].low in self._copulas:
                continue  # existential "there is A or B" offers alternatives like "A or B"
            if low in self._verbs or low in self._verb_like or self._subjects.match_at(toks, k, j):
                return True
            if len(low) >= 4 and low[-1] == "s" and low[:-1] in self._verb_like:
                return True  # "(instead) drinks club soda or seltzer": a third-person verb of a plan or habit
        return False

    _FEEL = frozenset({"feel", "feels", "feeling", "felt"})

    def _verb_form(self, toks: Sequence[_Tok], i: int, j: int) -> bool:
        """ "noticed" in "not noticed any blood", "fully" in "not fully resolved"; not "increased thirst"."""
        low = toks[i].low
        if len(low) <= 4 or "-" in low or not low.endswith(self._verb_suffixes) or low in self._state_words:
            return False
        if i > 0 and toks[i - 1].low in self._FEEL:
            return False  # "continues to feel tired", "feels bloated": the complaint after "feel" is a state
        if i + 1 >= j:
            # "not resolved"; but "splenomegaly", "anomaly" are nouns
            return low.endswith("ed")
        nxt = toks[i + 1].low
        return (
            bool(self._strip_leading.match_at(toks, i + 1, j))
            or nxt in self._verb_like
            or (len(nxt) > 4 and nxt.endswith(self._verb_suffixes))
        )

    def _forward_targets(
        self,
        toks: Sequence[_Tok],
        i: int,
        j: int,
        scope: int | None = None,
        hedge: bool = False,
        examples: bool = False,
    ) -> list[tuple[int, int]]:
        """The targets after a forward cue in toks[i:j]: the conjuncts of its list (``hedge``: a
        UL2/UL3 cue's reading rules; ``examples``: an example after "such as" is a target too)."""
        j = min(j, i + (scope or self.resources.targets.max_scope_tokens))
        pred = self._condition_predicate(toks, i)
        if pred is not None:
            return [pred]  # "if he fails to improve": the course is the target (its "not" may end the scope)
        parts = self._split_conjuncts(toks, i, j)
        out: list[
            tuple[int, int, bool, bool]
        ] = []  # start, end, cut by a preposition, lone adjective
        has_coord = any(sep in ("and", "or") for _, _, sep in parts)
        prev_cut = False
        max_part = self.resources.targets.max_conjunct_tokens
        fronted = False
        for idx, (a, b, sep) in enumerate(parts):
            if a >= b:
                if idx == 0 and hedge and len(parts) > 1 and parts[1][2] == "comma":
                    # "Most likely, this is pneumonia": a fronted hedge adverb and its comma
                    fronted = True
                    continue
                if idx == 0:
                    break
                continue
            if fronted:
                idx, fronted = 0, False
            if idx > 0 and i > 0 and a + 1 < b and toks[a].low == toks[i - 1].low and toks[a].low in self._LINK_WORDS:
                # "may be from A or from B", "due to A, to B, or both": the cue's own preposition
                # said again before a later item leaves that item in the cue's list
                a += 1
            if (
                idx > 0
                and sep == "or"
                and a + 1 < b
                and toks[a].low in self._ONSET_VERBS
                and any(t.low in self._CONDITIONALS for t in toks[max(0, i - 4) : i])
            ):
                # "if he develops a fever or has chills", "if she has clots or is unable to void":
                # the condition's onset verb said again before a later item keeps it in the list
                a += 1
            np = self._noun_phrase(toks, a, b)
            if np is not None and idx > 0 and toks[a].low == "unable" and a + 2 < b and toks[a + 1].low == "to":
                np = (a, a + 3)  # "or is unable to urinate": the inability is the finding
            if idx == 0 and (status := self._status_predicate(toks, i, j)):
                if status[0] < status[1]:
                    out.append((status[0], status[1], False, False))
                break
            if idx == 0 and i > 0 and (
                toks[i - 1].low in self._CLAUSE_TAKERS
                or toks[a].low in self._COMPLEMENTIZERS
                or (toks[a].low in self._PERSONS and a + 1 < b and toks[a + 1].low in self._HAVE)
            ):
                # "it is likely that you have X", "unclear whether this is X", "looks like you
                # have X": the hedge is on what the complement clause says of its subject
                c = a + 1 if toks[a].low in self._COMPLEMENTIZERS else a
                cop = self._subject_copula(toks, c, b) if c < b else None
                if cop is not None:
                    found, empty = self._predicate(toks, cop, b)
                    if empty:
                        break  # "I suspect her chest pain is | likely angina": the next cue decides
                    if (
                        found is not None
                        and c > a
                        and found[1] - found[0] == 1
                        and self._is_modifier(toks[found[0]])
                    ):
                        # "unclear whether the lesion is malignant": a property of the subject
                        found = self._noun_phrase(toks, c, cop)
                    np = found or np
            if idx > 0:
                # later conjuncts must be short noun phrases, not new clauses ("no fever and she is
                # eating well"); a participle after the noun ("or masses noted") is fine
                # "neither A nor B is present" / "no A or B is seen": B is still in the list;
                # "likely A, and B is present": a new clause
                end = b if sep in ("and", "comma") else (np[1] if np else b)
                if np is not None and np[1] < end and toks[np[1]].low in self._RELATIVES:
                    end = np[1]  # "... and uncontrolled hypertension that we have been monitoring"
                if np is None or self._clause_start(toks, a, end) or np[1] - np[0] > max_part:
                    break
                if sep == "comma" and not has_coord and np[1] - np[0] > 4:
                    break
                if (
                    sep == "comma"
                    and toks[a].low in self._statement_openers
                    and not any(s2 == "or" for _, _, s2 in parts[idx + 1 :])
                ):
                    # "no effusion, stable cardiomegaly", "borderline cardiomegaly, normal
                    # mediastinal contours": a status word after the comma opens a new statement;
                    # not inside a list that "or" goes on with ("atelectasis, stable scarring, or
                    # pneumonia")
                    break
                if sep == "comma" and toks[a].low[:1].isdigit() and not has_coord:
                    # "platelets 22K without bleeding, 61K at discharge": a value after the comma
                    # opens a new statement, not another item of the list
                    break
                if sep == "comma" and self._imperative(toks[a]):
                    # "if she develops a fever, draw blood cultures": after a fronted condition
                    # the comma opens the main clause, an instruction, not another list item
                    break
                if hedge and prev_cut and sep in ("and", "comma"):
                    # "possibly fibrosis in the left mid and lower lung zone": after a place
                    # phrase, "and" goes on with the place, not with another reading
                    break
                if hedge and sep in ("and", "comma") and self._stated_history.match_at(toks, a, b):
                    # "possible history of hypertension, and family history of heart disease": a
                    # later item with its own "history of" is a fact stated beside the hedged one
                    break
                if hedge and sep == "and" and toks[np[1] - 1].low in self._observation_heads:
                    # "fullness consistent with adenopathy and bilateral interstitial opacities":
                    # the hedge is on the reading, the later observation is stated plainly
                    break
            elif np is None and hedge and idx == 0 and (place := self._hedged_place(toks, a, b)) is not None:
                np = place  # "density possibly within the left lower lobe": the place is hedged
            elif np is None and (reading := self._reading_after(toks, a, b)) is not None:
                np = reading  # "one possible cause is pneumonia": "cause" names no finding
            elif np is None:
                k = self._example_start(toks, a, b)
                np = self._noun_phrase(toks, k, b) if k is not None else None
                if np is None and idx == 0 and len(parts) > 1 and parts[1][2] == "or" and hedge:
                    # "possibly related to technique or early edema": a first alternative that
                    # names no finding leaves the others as the readings offered
                    continue
                if np is None:
                    break  # nothing usable right after the cue ("no, ..."): nothing further either
            if idx == 0:
                np = self._named_reading(toks, np, b)
                np = self._course_of_generic(toks, i, np)
            cut_by_breaker = np[1] < b and toks[np[1]].low in self._breakers
            prev_cut = cut_by_breaker
            modifiers_only = all(map(self._is_modifier, toks[np[0] : np[1]]))
            if out and out[-1][3] and sep in ("and", "or", "comma") and not modifiers_only:
                # "mediastinal or hilar lymphadenopathy", "no acute alveolar or interstitial
                # infiltrates", "left midlung and left basilar atelectasis": conjuncts made only of
                # modifiers share the later head noun, so the whole coordination is one target
                first = out[-1][0]
                while out and out[-1][3]:
                    first = out.pop()[0]
                out.append((first, np[1], cut_by_breaker, False))
            else:
                np = self._extend_repeated_head(toks, np, b, out)
                out.append((np[0], np[1], cut_by_breaker, modifiers_only))
            if examples and np[1] + 2 < b and toks[np[1]].low == "such" and toks[np[1] + 1].low == "as":
                # "evaluation for a retrocochlear lesion such as a schwannoma": the example named
                # is looked for as well (a later "or" item stays a conjunct of the list)
                example = self._noun_phrase(toks, np[1] + 2, b)
                if example is not None:
                    out.append((example[0], example[1], example[1] < b and toks[example[1]].low in self._breakers, False))
            # a breaker or clause inside the first part ends the list unless a coordinator follows
            if np[1] < b and self._clause_start(toks, np[1], b):
                break
        # a later conjunct of bare modifiers cut off by the next cue ("probable small effusions
        # and minimal questionable edema") is no target
        return [
            (a, b)
            for n, (a, b, _, mods) in enumerate(out)
            if not (
                mods and n > 0 and all(toks[k].low in self._modifier_words for k in range(a, b))
            )
        ]

    #: "changes in 6 months", "improvement in a few weeks": a time after "in", not a finding
    _TIME_UNITS = frozenset({"day", "days", "week", "weeks", "month", "months", "year", "years", "hour", "hours"})

    # a cue ending in one of these takes a clause: "I suspect her pain is X", "it is possible that A is
    # B", "your doctor believes your pain is from X" (the third person of a rewrite)
    _CLAUSE_TAKERS = frozenset(
        {"suspect", "think", "believe", "feel", "that", "seems", "seemed", "appears", "appeared", "suggests", "suggested",
         "suspects", "thinks", "believes"}
    )
    #: the prepositions a cue ends on that a writer repeats before each later item of its list
    _LINK_WORDS = frozenset({"from", "to", "by", "of", "with"})
    _PREDICATE_ADVERBS = frozenset({"also", "just", "still", "really", "all", "more", "most", "mostly", "only"})

    _SUBJECT_COPULAS = frozenset({"is", "are", "was", "were"})
    #: verbs that say where a symptom comes from, as "is from" does
    _SOURCE_VERBS = frozenset({"comes", "come", "stems", "stem"})
    #: a complement clause after a hedge: "likely that ...", "unclear whether ..."
    _COMPLEMENTIZERS = frozenset({"that", "whether"})
    #: "you have X" after a hedge states X of a person as "the pain is X" does of a symptom
    _HAVE = frozenset({"have", "has", "had"})

    #: "appear(s) to be in X" describes how a patient or finding looks, not a hedged place
    _LOOKS = frozenset({"appear", "appears", "appeared", "seem", "seems", "seemed"})

    @staticmethod
    def _next_list_number(toks: Sequence[_Tok], m: int) -> bool:
        """True for the "2" of "1. Cardiomegaly, question small effusions 2. Edema": "1." numbers an
        earlier item of the same sentence, so "2." is the next item's number (its item lost its full
        stop). A sentence "2. Possible rib 3." reads "3" the same way (accepted: rare wording)."""
        low = toks[m].low
        if not (low.isdecimal() and len(low) <= 2 and int(low) > 1) or m + 1 >= len(toks) or toks[m + 1].low != ".":
            return False
        prev = str(int(low) - 1)
        return any(toks[q].low == prev and toks[q + 1].low == "." for q in range(m - 1))

    def _hedged_place(self, toks: Sequence[_Tok], a: int, b: int) -> tuple[int, int] | None:
        """The place right after a hedge and a locative preposition ("possibly within the left lower
        lobe" -> "left lower lobe"), unless its noun names a frame ("in the setting of") or a time."""
        if a >= 3 and toks[a - 1].low == "be" and toks[a - 2].low == "to" and toks[a - 3].low in self._LOOKS:
            return None  # "appears to be in mild distress", "appears to be in the hemidiaphragm": a description
        if a + 1 >= b or toks[a].low not in self._located_preps:
            return None
        np = self._noun_phrase(toks, a + 1, b)
        if np is None:
            return None
        words = {t.low for t in toks[np[0] : np[1]]}
        if words & (self._location_frames | self._TIME_UNITS):
            return None
        return np

    def _subject_copula(self, toks: Sequence[_Tok], a: int, b: int) -> int | None:
        """Index of the copula after a short subject at the start of toks[a:b] ("her pain is"), if
        any; "have" after a personal pronoun counts ("you have", "she has")."""
        if a + 1 < b and toks[a].low in self._PERSONS and toks[a + 1].low in self._HAVE:
            return a + 1
        for k in range(a + 1, min(b, a + 7)):
            low = toks[k].low
            if low in self._SUBJECT_COPULAS:
                return k
            if low in self._SOURCE_VERBS and k + 1 < b and toks[k + 1].low == "from":
                return k  # "the pain in your knee comes from X": "from" links the reading as after "is"
            if low in ("that", "which", "who", ",") or low in self._verbs:
                return None  # "a fracture that was missed": a relative clause, not the predicate
        return None

    def _predicate(
        self, toks: Sequence[_Tok], cop: int, b: int
    ) -> tuple[tuple[int, int] | None, bool]:
        """After a clause-taking cue, what the copula says of the subject is the target ("I believe
        her symptoms are secondary to carpal tunnel syndrome"): (noun phrase or None, whether
        nothing at all follows the copula inside the scope)."""
        k = cop + 1
        while k < b and toks[k].low in self._PREDICATE_ADVERBS:
            k += 1
        for link, after_copula in self._CAUSE_LINKS.items():
            n = len(link)
            if after_copula and tuple(t.low for t in toks[k : k + n]) == link:
                # "due to", "secondary to" end a negation's scope; here they link the reading
                k += n
                b = max(b, min(len(toks), k + self.resources.targets.max_tokens))
                break
        if k >= b:
            return None, True
        return self._noun_phrase(toks, k, b), False

    _PAST = frozenset({"prior", "previous", "recent", "remote", "earlier", "old"})

    _READING_HEADS = frozenset(
        {"etiology", "aetiology", "cause", "explanation", "diagnosis", "source", "reason", "possibility"}
    )

    def _named_reading(self, toks: Sequence[_Tok], np: tuple[int, int], b: int) -> tuple[int, int]:
        """ "the most likely etiology of his pain is constipation": the hedge is on what follows the
        copula, not on the pain."""
        s, e = np
        if e >= b or (toks[e].low not in self._copulas and toks[e].low not in self._MODALS_BEFORE_BE):
            return np
        words = [t.low for t in toks[s:e]]
        head = words[words.index("of") - 1] if "of" in words[1:] else words[-1]
        if e + 1 < b and toks[e].low in self._MODALS_BEFORE_BE and toks[e + 1].low == "be":
            e += 1  # "the likeliest explanation would be X"
        if head not in self._READING_HEADS or e >= b or toks[e].low not in self._copulas:
            return np
        after = self._noun_phrase(toks, e + 1, b)
        return after if after is not None else np

    _VAGUE_HEADS = frozenset({"problem", "problems", "issue", "issues", "trouble"})
    #: "the likeliest explanation would be X": a modal and "be" stand for the copula
    _MODALS_BEFORE_BE = frozenset({"would", "could", "might"})

    def _reading_after(self, toks: Sequence[_Tok], a: int, b: int) -> tuple[int, int] | None:
        """After a hedge, "cause is X", "explanation would be X": the reading the copula names."""
        k = a
        while k < b and (n := self._strip_leading.match_at(toks, k, b)):
            k += n
        if k < b and toks[k].low in ("one", "another", "main", "other"):
            k += 1
        if k + 2 < b and toks[k].low in self._VAGUE_HEADS and toks[k + 1].low in ("with", "in", "of"):
            # "most likely caused by a problem with the rotator cuff tendons": the vague head
            # names nothing; what it is a problem with is the target
            return self._noun_phrase(toks, k + 2, b)
        if k + 2 >= b or toks[k].low not in self._READING_HEADS:
            return None
        k += 1
        if toks[k].low in self._MODALS_BEFORE_BE and toks[k + 1].low == "be":
            k += 1
        if toks[k].low not in self._copulas:
            return None
        return self._noun_phrase(toks, k + 1, b)

    _EXAMPLE_MARKERS = (("such", "as"), ("including",), ("especially",), ("particularly",), ("like",))

    def _example_start(self, toks: Sequence[_Tok], a: int, b: int) -> int | None:
        """ "rule out any issues such as renal artery stenosis": after a word that names no finding,
        the example it introduces is the target (index after the marker, or None)."""
        for k in range(a, min(b, a + 4)):
            for marker in self._EXAMPLE_MARKERS:
                n = len(marker)
                if k > a and k + n < b and tuple(t.low for t in toks[k : k + n]) == marker:
                    if all(t.low in self._non_targets or t.punct for t in toks[a:k]):
                        return k + n
        return None

    def _only_skippable(self, toks: Sequence[_Tok], rng: tuple[int, int]) -> bool:
        i, j = rng
        while j > i:
            n = self._backward_skip.match_ending_at(toks, j, i)
            if not n:
                return False
            j -= n
        return True

    def _backward_targets(
        self,
        toks: Sequence[_Tok],
        i: int,
        j: int,
        either: bool,
        nearest: bool = False,
        scope: int | None = None,
    ) -> list[tuple[int, int, int]]:
        """Targets before a cue as (start, end, conjunct end) token indices, in text order.

        ``scope`` (the entry's ``scope_tokens``) narrows the reach: a cue that follows its target
        as a compound noun ("colon cancer screening") reads only the words just before it."""
        i = max(i, j - (scope or self.resources.targets.max_scope_tokens))
        # skip copulas and adverbs between the target and the cue
        while j > i:
            n = self._backward_skip.match_ending_at(toks, j, i)
            if n:
                j -= n
                continue
            break
        if j > i and toks[j - 1].low == ",":
            if either:
                return []  # "effusion, likely atelectasis": an either-way cue looks forward only
            j -= 1  # "partial small bowel obstruction, resolved"
        if j <= i:
            return []
        parts = self._split_conjuncts(toks, i, j)
        out: list[tuple[int, int, int]] = []
        coord_seen = False
        max_part = self.resources.targets.max_conjunct_tokens
        for idx in range(len(parts) - 1, -1, -1):
            a, b, sep = parts[idx]
            last = idx == len(parts) - 1
            if a >= b:
                break
            if last:
                # the last clause verb or subject before the target starts the clause
                for k in range(b - 1, a - 1, -1):
                    if toks[k].low in self._verbs or (
                        self._breakers.match_at(toks, k, b) == 1 and k == a
                    ):
                        a = k + 1
                        break
                    if nearest and toks[k].low in self._copulas and k + 1 < b:
                        # "blunting reflects pleural thickening or scarring"
                        a = k + 1
                        break
                    if nearest and toks[k].low in self._observation_heads and k + 1 < b:
                        # "left basilar airspace opacity atelectasis versus pneumonitis" (a comma
                        # left out): the observation is stated, the alternatives follow it
                        a = k + 1
                        break
                    if nearest and toks[k].low == "than" and k + 1 < b:
                        # "right greater than left atelectasis/airspace disease": the comparison
                        # of sides qualifies the alternatives; they start after it
                        a = k + 1
                        break
                    if nearest and toks[k].low == "with" and k + 1 < b:
                        # alternatives: "cardiomegaly with mild infiltrates versus atelectasis"
                        # offers the infiltrates, not the cardiomegaly, as the alternative
                        a = k + 1
                        break
            else:
                if b - a > max_part or self._clause_start(toks, a, b):
                    break
            np = self._noun_phrase(toks, a, b)
            if np is None:
                break
            out.append((np[0], np[1], b))
            if sep in ("and", "or"):
                coord_seen = True
            elif sep == "comma":
                # "A, B and C are not seen": a comma list needs a coordinator after it
                if not coord_seen:
                    break
                if self._after_fronted_reason(toks, i, a):
                    # "given her age and the bleeding, hyperplasia or malignancy must be excluded":
                    # the fronted reason before the comma is why, not what, is excluded
                    break
            else:
                break
        out.reverse()
        return out

    #: words that open a fronted reason before the comma of a backward cue's list
    _REASON_OPENERS = frozenset({"given", "because", "considering"})

    def _after_fronted_reason(self, toks: Sequence[_Tok], i: int, a: int) -> bool:
        """Does a fronted reason ("given ...", "because of ...") open the scope toks[i:] and end at
        the first comma, the one just before the conjunct at ``a``?"""
        k = i
        while k > 0 and i - k < 3 and toks[k - 1].low in ("of", "but", "and", ","):
            k -= 1  # "because of", "but given": the opener may stand just before the scope
        opener = any(toks[m].low in self._REASON_OPENERS for m in range(max(k - 1, 0), min(i + 1, len(toks))))
        return opener and a >= 1 and toks[a - 1].low == "," and all(toks[m].low != "," for m in range(i, a - 1))

    # ------------------------------------------------------------------ alternatives

    def _alternative_groups(
        self,
        text: str,
        toks: Sequence[_Tok],
        markers: list[_Match],
        boundaries: list[tuple[int, int, str]],
        s: int,
        e: int,
        tstarts: list[int],
        tends: list[int],
    ) -> list[_AltGroup]:
        if not markers:
            return []
        groups = []
        for m in markers:
            left_b = max((b[1] for b in boundaries if b[1] <= m.start), default=s)
            right_b = min((b[0] for b in boundaries if b[0] >= m.end), default=e)
            li, lj = bisect_left(tstarts, left_b), bisect_right(tends, m.start)
            ri, rj = bisect_left(tstarts, m.end), bisect_right(tends, right_b)
            entry = m.entry
            if entry is None and self._has_verb(toks, li, rj):
                v = self._reading_verb_before(toks, li, lj)
                if v is not None and not self._has_verb(toks, li, v) and not self._has_verb(toks, v + 1, rj):
                    li = v + 1  # "the film shows atelectasis or pneumonia": the reading after the verb
                else:
                    p = self._observed_after(toks, ri, rj)
                    if p is None or self._has_verb(toks, li, p):
                        continue  # "she sits or stands", "we can discuss medications or therapies"
                    rj = p  # "atelectasis/airspace disease noted": the readings before the participle
            if entry is None and self._in_label(text, m.end, e):
                continue  # "Nipple pain or numbness: yes": the topics of a checklist item or heading
            both_sides = entry is None or entry.direction is not Direction.FORWARD
            slash = m.rule_id == "alt.slash"
            if slash and (lj == 0 or self._is_modifier(toks[lj - 1])):
                continue  # "aortic/mitral disease": modifiers sharing a head, not alternatives
            right = self._forward_targets(toks, ri, rj)
            if slash:
                # "atelectasis/scarring, cataracts": the slash joins the two words next to it
                right = [r for r in right[:1] if r[0] == ri]
            if not right:
                continue
            if both_sides:
                left = [
                    (a, b)
                    for a, b, _ in self._backward_targets(toks, li, lj, either=False, nearest=True)
                ]
                if slash:
                    left = [x for x in left[-1:] if x[1] == lj]
                if not left:
                    continue
                # alternatives are short noun phrases on both sides of the marker
                if toks[lj - 1].low == "," and (m.entry is None):
                    continue
                members = left + right
            else:
                members = right
            groups.append(
                _AltGroup(
                    m.start,
                    m.end,
                    text[m.start : m.end],
                    m.rule_id,
                    [(toks[a].start, toks[b - 1].end) for a, b in members],
                )
            )
        return groups

    def _observed_after(self, toks: Sequence[_Tok], i: int, j: int) -> int | None:
        """Index of an observation participle ("noted", "is seen") that is the first verb in
        toks[i:j], if any: "A/B noted" reports where a reading is seen, it adds no clause."""
        for k in range(i, j):
            low = toks[k].low
            if low in self._observation_participles:
                return k if k > i else None
            if low in self._copulas:
                continue
            if low in self._verbs or low in self._verb_like or self._subjects.match_at(toks, k, j):
                return None
        return None

    def _reading_verb_before(self, toks: Sequence[_Tok], i: int, j: int) -> int | None:
        """Index of the last reading verb ("shows", "demonstrated") in toks[i:j], if any: what a
        study shows is a reading, so "A or B" after it offers alternatives as a bare "A or B" does."""
        for k in range(j - 1, i - 1, -1):
            if toks[k].low in self._reading_verbs:
                return k
        return None

    # the rest of a label after a marker: a few words on the same line up to a colon or a spaced dash
    # (the dash between blanks of the same line: a bullet that opens the next line is no label dash)
    _LABEL_REST = regex.compile(r"[^\n.:;?!()\-]{0,60}?(?::|[ \t]-[ \t])")

    def _in_label(self, text: str, end: int, e: int) -> bool:
        """ "Cough or fever: yes", "Hematology/Lymphatic/Immunology - Palpation: ...": a bare marker
        inside a label (a checklist question answered after a colon, an exam heading) joins the
        label's topics, not alternative diagnoses. A report heading in capitals after a list that
        lacks its full stop ("atelectasis or pneumonia IMPRESSION:") is no label of that list.
        Read up to the sentence's end ``e`` only (the sentence memo's key holds no more)."""
        m = self._LABEL_REST.match(text, end, e)
        if m is None:
            return False
        words = m.group(0).rstrip(":- \t").split()
        return bool(words) and not (words[-1].isupper() and len(words[-1]) > 3)

    # ------------------------------------------------------------------ decisions

    def _decide(
        self, analysis: _SentenceAnalysis, start: int, end: int, own_cues: bool = False
    ) -> tuple[_CueHit | None, Level, tuple[str, ...], Direction | None]:
        """Deciding cue, level and modifiers for the span [start, end) in an analysed sentence."""
        best: _Reach | None = None
        for r in analysis.reaches:
            # a cue inside the caller's span does not govern the span as a whole (see below)
            if (
                r.cover_start < end
                and start < r.cover_end
                and not (start <= r.cue.start and r.cue.end <= end)
            ):
                if best is None or self._better(r, best):
                    best = r
        if best is None and own_cues:
            # a cue inside the caller's span ("possible pneumonia" given as the target)
            # only a cue that opens the span counts: in "skin warm and moist without lesion" the
            # span as a whole is affirmed (NegEx convention)
            head = start
            while head < end and not analysis.text[head - analysis.start].isalnum():
                head += 1
            inner = [c for c in analysis.cues if c.start == head and c.end <= end]
            if inner and inner[0].direction is not Direction.BACKWARD:
                c = inner[0]
                best = _Reach(c, start, end, c.direction, 0)
        modifiers: list[str] = []
        cue = best.cue if best else None
        if cue is not None and cue.context_rule and cue.level is Level.UL5:
            # "evaluate for a possible rotator cuff tear": the evaluation phrase is the cue
            cue = self._governing_cue(analysis, cue)
        level = cue.level if cue else Level.ASSERTED
        side = best.side if best else None
        if cue is not None and cue.context_rule:
            modifiers.append(cue.context_rule)
        for g in analysis.alt_groups:
            if not any(a < end and start < b for a, b in g.members):
                continue
            if cue is not None and cue.start >= g.marker_start and cue.end <= g.marker_end:
                continue
            conf = self.resources.conflicts
            if cue is not None and cue.level is Level.UL1 and conf.negation_governs_alternatives:
                break
            if cue is not None and cue.level is Level.HEDGED_ABSENT:
                break
            if cue is None and conf.negation_governs_alternatives:
                neg = self._list_negation(analysis, g) or analysis.lead_negation
                if neg is not None:  # "no signs of A, fluid in or around B, or any C or D"
                    cue, level, side = neg, Level.UL1, Direction.FORWARD
                    break
            if cue is None:
                work = self._list_workup(analysis, g) or self._list_contingency(analysis, g)
                if work is not None:  # "CT to evaluate for PE vs pneumonia", "echo (r/o A; B vs C)"
                    cue, level, side = work, Level.UL5, Direction.FORWARD
                    break
            capped = weaker(level, conf.alternatives_cap)
            if capped is not level or cue is None:
                modifiers.append(g.rule_id)
                if cue is None:
                    entry = self._entries.get(g.rule_id)
                    cue = _CueHit(
                        g.marker_start,
                        g.marker_end,
                        g.marker_text,
                        capped,
                        Direction.EITHER,
                        entry,  # type: ignore[arg-type]
                        g.rule_id,
                        is_alternative=True,
                    )
                    side = Direction.EITHER
                level = capped
            break
        return cue, level, tuple(modifiers), side

    # what may lie between a negated item and the rest of its list: more items, commas, glosses
    # in parentheses, markup; no sentence or clause break ("no signs of A, fluid in or around the
    # lungs, a collapsed lung, or any B"; "no masses in the lungs (lumps or growths)")
    _LIST_REST = regex.compile(r"[\w\s,()*_'/-]{0,200}")

    @staticmethod
    def _last_reach_before(reaches: Sequence[_Reach], first: int) -> _Reach | None:
        """The reach that ends last before ``first`` (the list's last item before a group)."""
        last: _Reach | None = None
        for r in reaches:
            if r.end <= first and (last is None or r.end > last.end):
                last = r
        return last

    def _list_negation(self, analysis: _SentenceAnalysis, g: _AltGroup) -> _CueHit | None:
        """The negation that governs an alternative group no cue reaches: a negation whose last item
        before the group's first unreached member is followed by only list items (with a comma, a
        coordinator or an opening parenthesis) governs the rest of its list ("no signs of A, fluid in or around
        B, a collapsed lung, or any lumps or growths") and a gloss ("no masses (lumps or
        growths)"). No verb, subject, cue or terminator between."""
        negs = [
            r for r in analysis.reaches
            if r.cue.level is Level.UL1 and r.side is Direction.FORWARD
        ]  # fmt: skip
        # the first member no negation reaches, and the last negated item before it
        first = next(
            (a for a, b in g.members if not any(r.start < b and a < r.end for r in negs)), None
        )
        if first is None:
            return None
        last = self._last_reach_before(negs, first)
        if last is None:
            return None
        between = analysis.text[last.end - analysis.start : first - analysis.start]
        return last.cue if self._list_gap(between, self._LIST_REST, ",(") else None

    def _list_gap(self, between: str, rest: regex.Pattern, separators: str, semicolon: bool = False) -> bool:
        """Is ``between`` (from a list's last reached item to a group no cue reaches) only more list
        items? ``rest`` matches it whole, it holds one of ``separators`` or a coordinator, and no
        verb, subject, cue or terminator (a lone ";" is allowed when ``semicolon``)."""
        words = between.lower().split()
        if not rest.fullmatch(between) or not (
            any(c in between for c in separators) or any(w in self._coord for w in words)
        ):
            return False
        if any(w in self._verbs or w in self._verb_like or w in self._copulas for w in words):
            return False
        if any(w in self._subjects for w in words):
            return False
        return not any(
            m.kind == CUE or (m.kind == TERM and not (semicolon and between[m.start : m.end].strip() == ";"))
            for m in self._scan_text(between)
        )  # (a semicolon only separates the purposes of one test)

    # what may lie between a workup target and the alternatives after it: more items, a comma or
    # semicolon between the purposes a test serves, markup; no sentence break
    _WORKUP_REST = regex.compile(r"[\w\s,;()*_'/-]{0,120}")

    def _list_workup(self, analysis: _SentenceAnalysis, g: _AltGroup) -> _CueHit | None:
        """The evaluation cue (UL5, forward) that governs an alternative group no cue reaches: one
        that reaches a member ("CT to evaluate for PE vs pneumonia": both are looked for), or whose
        last target is followed by only list items before the group ("echo (r/o effusion;
        pericarditis vs myocarditis)"). Each alternative of a workup is a workup target (the
        alternatives cap keeps UL5). No verb, subject, cue or terminator between."""
        evals = [
            r for r in analysis.reaches
            if r.cue.level is Level.UL5 and r.side is Direction.FORWARD
        ]  # fmt: skip
        if not evals:
            return None
        for r in evals:
            if any(r.start < b and a < r.end for a, b in g.members):
                return r.cue
        first = min(a for a, _b in g.members)
        last = self._last_reach_before(evals, first)
        if last is None:
            return None
        between = analysis.text[last.end - analysis.start : first - analysis.start]
        before = analysis.text[: last.end - analysis.start]
        if ";" in between and before.count("(") <= before.count(")"):
            return None  # a semicolon outside a test's parenthesis may open a differential
        return last.cue if self._list_gap(between, self._WORKUP_REST, ",;", semicolon=True) else None

    #: the scope (tokens) from which a UL5 cue is a contingency governing a long list (a return or
    #: call instruction, "if she develops"; lexicon entries give these 120): evaluation cues are narrower
    _CONTINGENCY_SCOPE = 100
    _CONDITION_WORDS = frozenset({"if", "when", "unless", "should", "once", "in"})

    def _list_contingency(self, analysis: _SentenceAnalysis, g: _AltGroup) -> _CueHit | None:
        """The contingency (a UL5 return, call or "if she develops" cue) whose run an alternative
        group no cue reaches stands in: "call if her sugars are above 300 or below 70", "return for
        fever, pain not controlled by your pills, yellowing of the skin or eyes": an "or" inside the
        condition run joins things to act on, each UL5, not readings to choose between. No
        terminator between; after a fronted "if" cue, a comma ends the condition unless only list
        items follow it."""
        first = min(a for a, _b in g.members)
        conts = [
            c for c in analysis.cues
            if c.level is Level.UL5 and c.direction is Direction.FORWARD and c.end <= first
            and c.entry is not None and (c.entry.scope_tokens or 0) >= self._CONTINGENCY_SCOPE
        ]  # fmt: skip
        if not conts:
            return None
        cue = max(conts, key=lambda c: c.end)
        own = [r for r in analysis.reaches if r.cue is cue and r.end <= first]
        start = max((r.end for r in own), default=cue.end)
        between = analysis.text[start - analysis.start : first - analysis.start]
        if any(m.kind == TERM and between[m.start : m.end].strip() != ":" for m in self._scan_text(between)):
            return None
        if any(
            c.start >= cue.end and c.end <= first and c.level not in (Level.UL1, Level.UL5)
            for c in analysis.cues
        ):
            return None  # a hedge between reads its own list
        conditional = cue.text.split()[0].lower() in self._CONDITION_WORDS if cue.text.split() else False
        if conditional and "," in between and not self._list_gap(between, self._WORKUP_REST, ","):
            return None  # "if she develops a fever, CT to tell A from B": the main clause after the comma
        return cue

    # a list item line: a bullet or a number opens it
    _ITEM_LINE = regex.compile(r"[ \t]*(?:[-*•+]|\d{1,2}[.)])[ \t]+")
    # what may follow a lead-in's negation before its colon ends the line ("did not show any of these:")
    _LEAD_REST = regex.compile(
        r"[\s*_]*(?:(?:any|of|these|those|the\s+following|following)\b[\s*_]*)*:[\s*_]*", regex.IGNORECASE
    )
    _MARKS = regex.compile(r"[*_]")

    def _lead_in_line(self, text: str, s: int) -> tuple[int, int] | None:
        """The lead-in line of the list item that starts at ``s``: the nearest line above that is
        not a sibling item (an item indented as deep or deeper, or a blank line inside the list)."""
        line_start = text.rfind("\n", 0, s) + 1
        item = self._ITEM_LINE.match(text, line_start)
        if item is None or text[line_start:s].strip(" \t-*•+0123456789.)"):
            return None
        depth = len(text[line_start:item.end()]) - len(text[line_start:item.end()].lstrip(" \t"))
        end = line_start - 1
        for _ in range(40):  # a lead-in this far above is no lead-in of this item
            if end < 0:
                return None
            start = text.rfind("\n", 0, end) + 1
            line = text[start:end]
            if line.strip():
                sib = self._ITEM_LINE.match(line)
                own = len(line) - len(line.lstrip(" \t"))
                if sib is None or own < depth:
                    return start, end
            end = start - 1
        return None

    def _lead_in_negation(self, text: str, span: tuple[int, int]) -> _CueHit | None:
        """The negation a list item's "or" stands under when its lead-in line ends on a negation and
        a colon ("The X-ray did not show:", "**No signs** of:"): the item's alternatives are
        items of the negated list, so neither is present, as in "no A or B" on one line.
        Emphasis marks are blanked (same offsets); only a UL1 cue reaching forward counts.
        ``span`` is the item's lead-in line (``_lead_in_line``)."""
        a, b = span
        line = self._MARKS.sub(" ", text[a:b])
        cues = [m for m in self._scan_text(line) if m.kind == CUE and m.entry is not None]
        if not cues:
            return None
        m = cues[-1]
        if m.entry.level is not Level.UL1 or m.entry.direction is not Direction.FORWARD:
            return None
        if not self._LEAD_REST.fullmatch(line, m.end):
            return None
        return _CueHit(
            a + m.start, a + m.end, text[a + m.start : a + m.end], Level.UL1, Direction.FORWARD,
            m.entry, m.entry.id,
        )

    _BETWEEN_CUES = regex.compile(r"\s*(?:(?:a|an|the|any)\s+)?")

    def _governing_cue(self, analysis: _SentenceAnalysis, cue: _CueHit) -> _CueHit:
        """The UL5 evaluation cue right before a cue a context rule made UL5, else the cue itself."""
        for c in analysis.cues:
            if c.level is Level.UL5 and not c.context_rule and c.end <= cue.start:
                gap = analysis.text[c.end - analysis.start : cue.start - analysis.start]
                if self._BETWEEN_CUES.fullmatch(gap):
                    return _CueHit(
                        c.start, c.end, c.text, c.level, c.direction, c.entry, c.rule_id, cue.context_rule
                    )
        return cue

    def _better(self, a: _Reach, b: _Reach) -> bool:
        if self.resources.conflicts.result_over_evaluation and a.side is not b.side:
            # "evaluation for DVT is negative": the stated result beats the evaluation cue
            back, fwd = (a, b) if a.side is Direction.BACKWARD else (b, a)
            if (
                fwd.cue.level is Level.UL5
                and back.cue.level is not Level.UL5
                and back.distance <= fwd.distance + 1
            ):
                return a is back
        if a.distance != b.distance:
            return a.distance < b.distance
        first = (
            Direction.FORWARD
            if self.resources.conflicts.tie_break == "forward_first"
            else Direction.BACKWARD
        )
        if a.side != b.side:
            return a.side is first
        return a.cue.start < b.cue.start

    # ------------------------------------------------------------------ public

    def extract(
        self,
        text: str,
        doc_id: str | None = None,
        sentences: Sequence[tuple[int, int]] | None = None,
    ) -> list[CueTargetPair]:
        """All cue–target pairs of ``text`` (optionally with precomputed sentence spans)."""
        _check_text(text)
        if sentences is not None:
            sentences = [(a, b) for a, b in sentences]
        doc_key = (text, None if sentences is None else tuple(sentences))
        if len(text) <= _MEMO_MAX_DOC_CHARS:
            done = self._doc_memo.get(doc_key)
            if done is not None:  # the same text again (templated reports): the same pairs
                return [p if p.doc_id == doc_id else _moved(p, 0, doc_id) for p in done]
        pairs: list[CueTargetPair] = []
        memo = self._memo
        for s, e, inside in self._sentence_matches(text, sentences):
            lead = self._lead_of(text, s, inside)
            key = self._memo_key(text, s, e, inside, lead)
            found = memo.get(key) if key is not None else None
            if found is not None:  # the same sentence in the same surroundings: the same pairs
                delta = s - found[0]
                if delta:
                    pairs.extend([_moved(p, delta, doc_id) for p in found[1]])
                else:  # the same place in the text: the stored records, as the text memo gives them
                    pairs.extend([p if p.doc_id == doc_id else _moved(p, 0, doc_id) for p in found[1]])
                continue
            first = len(pairs)
            an = self._analyze_sentence(text, s, e, inside, lead)
            targets: dict[tuple[int, int], None] = {}
            for r in an.reaches:
                targets.setdefault((r.start, r.end))
            members = {span for g in an.alt_groups for span in g.members}
            for g in an.alt_groups:
                for span in g.members:
                    targets.setdefault(span)
                if g.rule_id == "alt.slash":
                    # "may represent atelectasis/pneumonia": a hedge's target is exactly the slash
                    # pair; each alternative is its own target, as with "atelectasis or pneumonia"
                    # (negated lists keep "nausea/vomiting" whole: one absent complaint)
                    pair_span = (g.members[0][0], g.members[-1][1])
                    for r in an.reaches:
                        if (
                            (r.start, r.end) == pair_span
                            and (r.start, r.end) not in members
                            and r.cue.level in (Level.UL2, Level.UL3)
                        ):
                            targets.pop((r.start, r.end), None)
            sentence = text[an.start : an.end]
            for ts, te in sorted(targets):
                if self._modifier_only(text[ts:te]):
                    continue  # "more consistent with moderate": a bare qualifier states nothing
                cue, level, mods, side = self._decide(an, ts, te)
                if cue is None:
                    continue
                cue_start, cue_end, cue_text = cue.reported
                pairs.append(
                    _new_pair(  # values built here are already valid: skip re-validation
                        doc_id=doc_id,
                        sentence=sentence,
                        sentence_start=an.start,
                        sentence_end=an.end,
                        cue_text=cue_text,
                        cue_start=cue_start,
                        cue_end=cue_end,
                        level=level,
                        cue_level=cue.level,
                        rule_id=cue.rule_id,
                        direction=side or cue.direction,
                        target_text=text[ts:te],
                        target_start=ts,
                        target_end=te,
                        modifiers=mods,
                        strength=_strength(cue, level),
                    )
                )
            if key is not None:
                memo.put(key, (s, pairs[first:]))  # frozen records: stored as they are
        pairs.sort(key=lambda p: (p.target_start, p.target_end, p.cue_start))
        pairs = _drop_nested(pairs)
        if len(text) <= _MEMO_MAX_DOC_CHARS and self._left_reach is not None:
            self._doc_memo.put(doc_key, pairs.copy())  # the caller may change its list
        return pairs

    def _modifier_only(self, target: str) -> bool:
        """Is the target made only of qualifier words ("moderate", "left upper")? (memoised)"""
        found = self._modifier_memo.get(target)
        if found is None:
            found = self._modifier_memo.put(target, self._modifier_only_uncached(target))
        return found

    def _modifier_only_uncached(self, target: str) -> bool:
        if target.isascii() and _NOT_PLAIN_ASCII.search(target) is None:  # the same words, faster
            words = [w for w, _ in _TOKEN_ASCII_PARTS.findall(target.lower()) if w[:1].isalnum()]
        else:
            words = [m.group().lower() for m in _TOKEN.finditer(target) if m.group()[0].isalnum()]
        return bool(words) and all(w in self._modifier_words for w in words)

    def assess(
        self,
        text: str,
        spans: Sequence[tuple[int, int]],
        sentences: Sequence[tuple[int, int]] | None = None,
    ) -> list[Assessment]:
        """The level of each caller-supplied target span, with the cue that decided it."""
        _check_text(text)
        checked = [_check_span(text, sp, k) for k, sp in enumerate(spans)]
        sents = list(sentences) if sentences is not None else self.sentences(text)
        analyses = {(a.start, a.end): a for a in self._analyses(text, sents)}
        sstarts = [a for a, _ in sents]
        out = []
        for start, end in checked:
            k = bisect_right(sstarts, start) - 1
            an = None
            if k >= 0:
                sent = sents[k]
                an = analyses.get((sent[0], sent[1]))
                if an is not None and end > an.end:
                    end_in = an.end
                else:
                    end_in = end
            if an is None:
                out.append(
                    Assessment(
                        start=start,
                        end=end,
                        text=text[start:end],
                        level=Level.ASSERTED,
                        strength=DEFAULT_STRENGTH[Level.ASSERTED],
                    )
                )
                continue
            cue, level, mods, _ = self._decide(an, start, end_in, own_cues=True)
            out.append(
                Assessment(
                    start=start,
                    end=end,
                    text=text[start:end],
                    level=level,
                    cue=cue.as_cue() if cue else None,
                    modifiers=mods,
                    strength=_strength(cue, level),
                )
            )
        return out


def _strength(cue: _CueHit | None, level: Level) -> float:
    """Strength of a decided level: the cue's own when it decided the level alone."""
    if cue is not None and cue.level is level:
        return cue.strength
    return DEFAULT_STRENGTH[level]


def _drop_nested(pairs: list[CueTargetPair]) -> list[CueTargetPair]:
    """Where two targets overlap, keep the one decided by the nearer cue (same level and cue: the longer)."""
    out: list[CueTargetPair] = []
    for p in pairs:
        if out and p.target_start < out[-1].target_end:
            q = out[-1]
            if (q.cue_start, q.level) == (p.cue_start, p.level):
                if p.target_end - p.target_start > q.target_end - q.target_start:
                    out[-1] = p
                continue
            dq = _gap(q)
            dp = _gap(p)
            if dp < dq:
                out[-1] = p
            continue
        out.append(p)
    return out


def _gap(p: CueTargetPair) -> int:
    return max(p.target_start - p.cue_end, p.cue_start - p.target_end, 0)


def _check_text(text: object) -> None:
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")


def _check_span(text: str, span: object, index: int) -> tuple[int, int]:
    try:
        start, end = span  # type: ignore[misc]
    except (TypeError, ValueError):
        raise TypeError(f"span {index} must be a (start, end) pair of ints, got {span!r}") from None
    if (
        not (isinstance(start, int) and isinstance(end, int))
        or isinstance(start, bool)
        or isinstance(end, bool)
    ):
        raise TypeError(f"span {index} must be a (start, end) pair of ints, got {span!r}")
    if not 0 <= start < end <= len(text):
        raise ValueError(
            f"span {index} ({start}, {end}) is not a non-empty range inside the text of length {len(text)}"
        )
    return start, end


def _rebuild_engine(resources: Resources, memo: bool) -> Engine:
    return Engine(resources, memo=memo)


@lru_cache(maxsize=1)
def default_engine() -> Engine:
    """The engine on the shipped lexicons and rules, built once per process."""
    return Engine(default_resources())
