"""Clinical sentence splitting: headers, newlines, numbered lists and colons, with exact character offsets."""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

import regex

from .._memo import BoundedMemo
from ..schema import SentenceRules
from .regexfirst import first_of_seq
from .regexfirst import sre_constants as _sre_constants
from .regexfirst import sre_parser as _sre_parser

_NEWLINES = regex.compile(r"\n", regex.V1)
_WORD = regex.compile(r"\w+", regex.V1)
_LAST_SENTENCE = regex.compile(r"[.;][^\S\n]+")  # the last sentence of a line's text before its colon
_DIGIT_END = regex.compile(r"\d\s*$")  # compiled once (regex.search(str) pays a cache lookup per call)
_NONE_AFTER_COLON = regex.compile(r"\s*(?:none|negative|absent|nil)\b", regex.V1 | regex.IGNORECASE)
# a negation written as a label ("No signs of: A, B, or C", "- **Negative for:** ..."): the label
# governs the list after its colon, so the two are one statement (no header cut)
_NEGATION_LABEL = regex.compile(
    r"[^\S\n]*(?:[-*•+][^\S\n]+)?(?:\*\*|__)?[^\S\n]*(?:no|without|negative\s+for|none\s+of|free\s+of)"
    r"(?:\s+(?:signs?|evidence|findings?)(?:\s+(?:of|for))?)?[^\S\n]*(?:\*\*|__)?[^\S\n]*",
    regex.V1 | regex.IGNORECASE,
)

# A "sentence" longer than this (lost line breaks, OCR output, pasted tables) is cut into windows
# so that per-sentence analysis, which is quadratic in the cues of a sentence, stays linear in
# the length of the text. The longest sentence in the shipped and evaluation corpora is ~900
# characters, so real sentences are never cut.
MAX_SENTENCE_CHARS = 1000
_CLAUSE_CUT = regex.compile(r"(?r)[,;:][\"')\]]*\s", regex.V1)
_SPACE_CUT = regex.compile(r"(?r)\s", regex.V1)

# What ``regex`` calls whitespace (\s, the Unicode White_Space property), less the newline; the
# stdlib's \s is a superset (it adds U+001C..U+001F), so _LIST_CONTEXT finds every place where a
# list item may start (a line start, or a space after ``.;:!?``), and each is checked against
# _LINE_SPACE (a test compares the sets).
_LINE_SPACE = frozenset(
    "\t\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
# the non-ASCII ones (a text without them takes the one-scan path of ``_list_cuts``)
_WIDE_SPACE = re.compile("[" + "".join(sorted(c for c in _LINE_SPACE if not c.isascii())) + "]")
_LIST_CONTEXT = re.compile(r"[.;:!?](?=[^\S\n])|\n")  # a list context begins at its end
_SPACE_CLASS = "".join(sorted(_LINE_SPACE | {"\n"})).encode("unicode_escape").decode("ascii")
# sentence-final punctuation before what ``regex`` calls whitespace (plain character classes:
# the stdlib engine finds the same matches, faster)
_TERMINAL = re.compile(r"[.!?]+[\"')\]]*(?=[" + _SPACE_CLASS + "])")
# the same, with the first character after the whitespace that follows (group 1; no match when
# only whitespace follows): the stdlib's \s is str.isspace
_TERMINAL_NEXT = re.compile(_TERMINAL.pattern + r"(?=\s*(.))", re.DOTALL)
_LINE = re.compile(r"\n")
# a run of what str.isalnum() accepts (\w less "_" in the stdlib engine) and "." or "/"
_RUN_CHAR = re.compile(r"[^\W_]|[./]")
_RUN_BEFORE = re.compile(r"(?:[^\W_]|[./])+\Z")  # searched with endpos at the dot
# distinct texts before a dot (and header texts) whose answers a splitter remembers at most
_MEMO_MAX = 8192


class SentenceSplitter:
    """Rule-based splitter for clinical text; returns (start, end) spans that index the text exactly.

    Spans are trimmed of surrounding whitespace and never empty. The rules come from
    ``rules/sentences.yaml``; see its description for the boundary conditions.
    """

    def __init__(self, rules: SentenceRules):
        self.rules = rules
        self._abbrev = frozenset(a.lower().rstrip(".") for a in rules.abbreviations)
        # longer than every abbreviation and every initialism ("." in a word of up to 6 chars)
        self._abbrev_reach = max([6, *map(len, self._abbrev)]) + 1
        self._list = regex.compile(
            r"(?:^[^\S\n]*|(?<=[.;:!?][^\S\n]+))\K" + rules.list_marker, regex.V1 | regex.M
        )
        # the marker alone, tried only where ``_list``'s context holds (see ``_list_cuts``); None
        # when the marker is not one self-contained pattern (then ``_list`` scans the text)
        self._marker = (
            regex.compile(rules.list_marker, regex.V1 | regex.M)
            if _self_contained(rules.list_marker)
            else None
        )
        # the ASCII characters a marker match can start with (None: unknown); an ASCII character
        # outside them cannot start one, so the marker is not tried there
        self._marker_first = _first_ascii(rules.list_marker) if self._marker is not None else None
        # on text whose spaces are ASCII, when no space can start a marker: the one place after each list context
        # where one can (the end of its run of spaces), found in C (see ``_list_cuts``); each
        # match starts with the context's "\n" or ".;:!?" (so the engine skips to those), the
        # text's start apart
        first = self._marker_first
        places = None
        if first and first.isdisjoint(_LINE_SPACE | {"\n"}):
            # (and every non-ASCII character: what may start a marker there is not known)
            starts = "(?=[" + "".join(re.escape(c) for c in sorted(first)) + "]|[^\x00-\x7f])"
            places = (
                re.compile(r"[ \t\x0b\x0c\r]*" + starts),
                re.compile(r"(?:\n|[.;:!?](?=[ \t\x0b\x0c\r]))[ \t\x0b\x0c\r]*" + starts),
            )
        self._marker_places = places
        self._header_colon = regex.compile(r"^[^\S\n]*([^:\n]{1,80}?):(?=\s|$)", regex.V1 | regex.M)
        # a hedge written as a label ("Ddx: A vs B", "- **Likely:** X"): its hedge governs what
        # follows the colon, so the two are one statement (no header cut)
        self._hedge_label = regex.compile(
            r"[^\S\n]*(?:[-*•+][^\S\n]+)?(?:\*\*|__)?[^\S\n]*(?:" + rules.hedge_label
            + r")[^\S\n]*(?:\*\*|__)?[^\S\n]*",
            regex.V1 | regex.IGNORECASE,
        )
        # the abbreviation test depends only on the few characters before a dot, the header test
        # only on the text before a line's colon: answers memoised under those texts (clinical
        # notes end most sentences with the same words and repeat their headers)
        self._abbrev_memo: BoundedMemo[str, bool] = BoundedMemo(_MEMO_MAX)
        self._head_memo: BoundedMemo[str, bool] = BoundedMemo(_MEMO_MAX)

    def __reduce__(self):  # picklable: rebuild from the rules
        return (SentenceSplitter, (self.rules,))

    def split(self, text: str) -> list[tuple[int, int]]:
        """Split ``text`` into sentence spans (start, end)."""
        if not text:
            return []
        cuts = set()
        self._line_cuts(text, cuts)
        self._punct_cuts(text, cuts)
        self._header_cuts(text, cuts)
        cuts.update(self._list_cuts(text))
        n = len(text)
        cuts.discard(0)
        cuts.discard(n)  # every cut is in (0, n] (a header colon may end the text)
        spans = []
        a = 0
        for cut in (*sorted(cuts), n):
            b = cut
            start = cut  # the next span's start
            while a < b and text[a].isspace():
                a += 1
            while b > a and text[b - 1].isspace():
                b -= 1
            if b - a > MAX_SENTENCE_CHARS:
                spans.extend(_windows(text, a, b))
            elif a < b:
                spans.append((a, b))
            a = start
        return spans

    def _list_cuts(self, text: str) -> list[int]:
        """Where list items start: ``[m.start() for m in self._list.finditer(text)]``.

        ``_list`` tries every position of the text (its look-behind makes ``regex`` slow here);
        this tries the marker only where the context can hold (a line start, or the spaces after
        ``.;:!?``), in the order ``finditer`` would: at a line start the longest run of spaces
        first (a greedy ``[^\\S\\n]*``), after punctuation each later position in turn.
        """
        marker = self._marker
        if marker is None:
            return [m.start() for m in self._list.finditer(text)]
        out = []
        end = 0  # where the last marker match ended: finditer goes on from there
        if self._marker_places is not None and (
            text.isascii() or _WIDE_SPACE.search(text) is None
        ):
            # every space of the text is ASCII and cannot start a marker, so of each context only
            # the end of its run of spaces is tried, when an ASCII character that can start a
            # marker or any non-ASCII character is there (the loop below skips the rest): x is
            # the context, q the run's end
            at_start, after = self._marker_places
            found = at_start.match(text)
            places = itertools.chain(
                () if found is None else ((0, found.end()),),
                ((m.start() + 1, m.end()) for m in after.finditer(text)),
            )
            for x, q in places:
                if x < end if x == 0 or text[x - 1] == "\n" else q < end:
                    continue
                m = marker.match(text, q)
                if m is not None:
                    if m.end() == q:
                        return [m.start() for m in self._list.finditer(text)]
                    out.append(q)
                    end = m.end()
            return out
        n = len(text)
        first = self._marker_first
        for x in itertools.chain((0,), (m.end() for m in _LIST_CONTEXT.finditer(text))):
            run = x
            while run < n and text[run] in _LINE_SPACE:
                run += 1
            if x == 0 or text[x - 1] == "\n":  # ^[^\S\n]*: from the longest run of spaces down
                for q in range(run, x - 1, -1) if x >= end else ():
                    if first is not None and (q == n or (text[q] not in first and text[q].isascii())):
                        continue  # no marker starts here (most lines start with a capital)
                    m = marker.match(text, q)
                    if m is not None:
                        if m.end() == q:  # an empty marker match: finditer's own rules apply
                            return [m.start() for m in self._list.finditer(text)]
                        out.append(q)
                        end = m.end()
                        break
                continue
            q = max(x + 1, end)  # (?<=[.;:!?][^\S\n]+): each position after a space, in turn
            while q <= run:
                if first is not None and (q == n or (text[q] not in first and text[q].isascii())):
                    q += 1
                    continue
                m = marker.match(text, q)
                if m is None:
                    q += 1
                    continue
                if m.end() == q:
                    return [m.start() for m in self._list.finditer(text)]
                out.append(q)
                q = end = m.end()
        return out

    def _line_cuts(self, text: str, cuts: set[int]) -> None:
        lines = text.split("\n")
        pos = 0
        prev = None
        for line in lines:
            start = pos
            pos += len(line) + 1
            if prev is None:
                prev = line
                continue
            stripped = line.strip()
            prev_stripped = prev.strip()
            prev = line
            if not stripped or not prev_stripped:
                cuts.add(start)
                continue
            first = stripped[0]
            if (
                prev_stripped[-1] in ".:;!?"
                or self._is_header(prev_stripped)
                or first.isupper()
                or first.isdigit()
                or first in "-•*▪◦·#>"
            ):
                cuts.add(start)

    def _is_header(self, line: str) -> bool:
        words = _WORD.findall(line)
        if not words or len(words) > self.rules.header_max_tokens:
            return False
        letters = [c for c in line if c.isalpha()]
        return bool(letters) and (line.endswith(":") or all(c.isupper() for c in letters))

    def _punct_cuts(self, text: str, cuts: set[int]) -> None:
        for m in _TERMINAL_NEXT.finditer(text):
            following = m.group(1)
            if not (following.isupper() or following.isdigit() or following in "-•*▪◦·\"'(["):
                continue
            start = m.start()
            mark = text[start]
            if mark == "?":
                # "? PE" / "?PE" is a cue, not a question ending: only cut when "?" ends a word.
                if start == 0 or not text[start - 1].isalnum():
                    continue
            if mark == "." and (
                self._abbreviation_before(text, start) or self._list_number_before(text, start)
            ):
                continue
            cuts.add(m.start(1))

    def _abbreviation_before(self, text: str, dot: int) -> bool:
        """Is the run of alphanumerics, "." and "/" before the dot an abbreviation or initial?

        The answer depends only on the characters from one before the longest abbreviation's
        reach up to the dot (fewer at the text's start: the key's length tells which), so it is
        memoised under them.
        """
        lo = max(0, dot - self._abbrev_reach)
        key = text[lo - 1 if lo else 0 : dot]
        found = self._abbrev_memo.get(key)
        if found is None:
            found = self._abbrev_memo.put(key, self._abbreviation_at_end(key, 1 if lo else 0))
        return found

    def _abbreviation_at_end(self, text: str, lo: int) -> bool:
        """``_abbreviation_before`` of the dot at ``len(text)``, looking back no further than ``lo``."""
        # the run of alphanumerics, "." and "/" before the dot, looked for only as far back as
        # the longest abbreviation reaches: a longer run is no abbreviation, initial or initialism
        dot = len(text)
        m = _RUN_BEFORE.search(text, lo, dot)
        if m is None:
            return False
        i = m.start()
        if i == lo and lo > 0 and _RUN_CHAR.match(text, lo - 1):
            return False
        word = text[i:dot].lower()
        if not word:
            return False
        if word in self._abbrev:
            return True
        # single letters ("A. Smith") and dotted initialisms ("p.o."); a decimal number ending a
        # sentence ("Mg 1.7. PE is possible") is no initialism
        return (len(word) == 1 and word.isalpha()) or (
            "." in word and len(word) <= 6 and not word.replace(".", "").isdigit()
        )

    @staticmethod
    def _list_number_before(text: str, dot: int) -> bool:
        """True for the "2." of a numbered list item (the list-marker rule cuts before it)."""
        i = dot
        while i > 0 and text[i - 1].isdigit():
            i -= 1
        if i == dot or dot - i > 2:
            return False
        j = i
        while j > 0 and text[j - 1] in " \t":
            j -= 1
        # (digits right after a dot are the decimals of a number ending a sentence: "Mg 1.7. PE")
        return j == 0 or text[j - 1] == "\n" or (j < i and text[j - 1] in ".:;!?")

    def _header_cuts(self, text: str, cuts: set[int]) -> None:
        header = self._header_colon  # anchored at a line start: tried at each line start only
        if ":" not in text:
            return
        find = text.find
        for x in itertools.chain((0,), (m.end() for m in _LINE.finditer(text))):
            eol = find("\n", x)
            if find(":", x, eol if eol >= 0 else len(text)) < 0:
                continue  # no colon on this line: no header
            m = header.match(text, x)
            if m is None:
                continue
            head = m.group(1)
            found = self._head_memo.get(head)
            if found is None:
                found = self._head_memo.put(head, self._is_header_text(head))
            if found and not _NONE_AFTER_COLON.match(text, m.end()):
                # (not when "Pericardial effusion: None." is one statement)
                cuts.add(m.end())

    def _is_header_text(self, head: str) -> bool:
        """Does the text before a line's colon make a header (a cut after the colon)?"""
        words = _WORD.findall(head)
        if not 0 < len(words) <= self.rules.header_max_tokens or _DIGIT_END.search(head):
            return False
        if _NEGATION_LABEL.fullmatch(head):
            return False  # "No signs of: A, B, or C" is one statement
        if self._hedge_label.fullmatch(_LAST_SENTENCE.split(head)[-1]):
            return False  # "Ddx: A vs B", "Stable. Return: fever, pain" are one statement
        return True


def _self_contained(pattern: str) -> bool:
    """Is ``pattern`` one alternative at its top level, without ``\\K`` (so that matching it
    alone at a position is matching it after the list context)? Unsure answers are False."""
    depth = 0
    in_set = 0
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            if pattern[i + 1 : i + 2] == "K":
                return False
            i += 2
            continue
        if in_set:
            if ch == "[":
                in_set += 1
            elif ch == "]" and pattern[i - 1] not in "[^":
                in_set -= 1
        elif ch == "[":
            in_set = 1
            if pattern[i + 1 : i + 2] == "]" or pattern[i + 1 : i + 3] == "^]":
                return False  # a literal "]" first in a set: not worth reading here
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                return False
        elif ch == "|" and depth == 0:
            return False
        i += 1
    return depth == 0 and not in_set


_ASCII_CATEGORY = {
    _sre_constants.CATEGORY_DIGIT: "0123456789",
    _sre_constants.CATEGORY_SPACE: " \t\n\r\x0b\x0c",  # regex's \s on ASCII (not \x1c-\x1f)
    _sre_constants.CATEGORY_WORD: "".join(chr(c) for c in range(128) if chr(c).isalnum()) + "_",
}
_SET_OPERATIONS = ("[[", "--", "&&", "||", "~~")  # VERSION1 set syntax the stdlib parser misreads


def _first_ascii(pattern: str) -> frozenset[str] | None:
    """The ASCII characters a match of ``pattern`` (``regex``, VERSION1) can start with.

    None when that is not certain: unparsable or VERSION1-only syntax, a pattern that can match
    the empty string, an item other than literals, ranges and digit/space/word classes, or a
    non-ASCII first character under case-insensitive matching (it may fold to ASCII).
    """
    if any(op in pattern for op in _SET_OPERATIONS):
        return None
    try:
        tree = _sre_parser.parse(pattern, 0)
    except Exception:  # regex-module-only syntax
        return None
    ignorecase = bool(tree.state.flags & re.IGNORECASE)
    chars, nullable = first_of_seq(list(tree), _ASCII_CATEGORY)
    if chars is None or nullable:
        return None
    if ignorecase or _has_local_ignorecase(list(tree)):
        if not all(c.isascii() for c in chars):
            return None
        chars = {v for c in chars for v in (c, c.lower(), c.upper())}
    return frozenset(c for c in chars if c.isascii())


def _has_local_ignorecase(items: list) -> bool:
    """Does a group of the parsed pattern switch case-insensitive matching on ("(?i:...)")?"""
    c = _sre_constants
    for op, av in items:
        subs: list = []
        if op is c.SUBPATTERN:
            if av[1] & re.IGNORECASE:
                return True
            subs = [av[-1]]
        elif op is c.BRANCH:
            subs = list(av[1])
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", c.MAX_REPEAT)):
            subs = [av[2]]
        elif op in (c.ASSERT, c.ASSERT_NOT):
            subs = [av[1]]
        if any(_has_local_ignorecase(list(sub)) for sub in subs):
            return True
    return False


def _windows(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """Cut the over-long sentence ``text[a:b]`` into spans of at most ``MAX_SENTENCE_CHARS``.

    Each cut falls in the second half of its window: after the last clause mark (``,;:``) that a
    space follows if there is one, else at the last whitespace, else (one unbroken token) at the
    window's end. Spans are trimmed of whitespace like every other sentence.
    """
    out = []
    while b - a > MAX_SENTENCE_CHARS:
        lo, hi = a + MAX_SENTENCE_CHARS // 2, a + MAX_SENTENCE_CHARS
        m = _CLAUSE_CUT.search(text, lo, hi + 1) or _SPACE_CUT.search(text, lo, hi + 1)
        cut = m.end() - 1 if m is not None else hi
        end = cut
        while end > a and text[end - 1].isspace():
            end -= 1
        out.append((a, end))
        a = cut
        while a < b and text[a].isspace():
            a += 1
    if a < b:
        out.append((a, b))
    return out


@lru_cache(maxsize=8)
def _splitter_for(rules: SentenceRules) -> SentenceSplitter:
    return SentenceSplitter(rules)


def splitter(rules: SentenceRules) -> SentenceSplitter:
    """A cached splitter for a rule set."""
    return _splitter_for(rules)
