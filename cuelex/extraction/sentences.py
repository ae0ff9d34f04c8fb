"""Clinical sentence splitting: headers, newlines, numbered lists and colons, with exact character offsets."""

from __future__ import annotations

import itertools
from functools import lru_cache

import regex

from ..schema import SentenceRules

_TERMINAL = regex.compile(r"[.!?]+[\"')\]]*(?=\s)", regex.V1)
_NEWLINES = regex.compile(r"\n", regex.V1)
_WORD = regex.compile(r"\w+", regex.V1)
_DIGIT_END = regex.compile(r"\d\s*$")  # compiled once (regex.search(str) pays a cache lookup per call)
_NONE_AFTER_COLON = regex.compile(r"\s*(?:none|negative|absent|nil)\b", regex.V1 | regex.IGNORECASE)

# A "sentence" longer than this (lost line breaks, OCR output, pasted tables) is cut into windows
# so that per-sentence analysis, which is quadratic in the cues of a sentence, stays linear in
# the length of the text. The longest sentence in the shipped and evaluation corpora is ~900
# characters, so real sentences are never cut.
MAX_SENTENCE_CHARS = 1000
_CLAUSE_CUT = regex.compile(r"(?r)[,;:][\"')\]]*\s", regex.V1)
_SPACE_CUT = regex.compile(r"(?r)\s", regex.V1)


class SentenceSplitter:
    """Rule-based splitter for clinical text; returns (start, end) spans that index the text exactly.

    Spans are trimmed of surrounding whitespace and never empty. The rules come from
    ``rules/sentences.yaml``; see its description for the boundary conditions.
    """

    def __init__(self, rules: SentenceRules):
        self.rules = rules
        self._abbrev = frozenset(a.lower().rstrip(".") for a in rules.abbreviations)
        self._list = regex.compile(
            r"(?:^[^\S\n]*|(?<=[.;:!?][^\S\n]+))\K" + rules.list_marker, regex.V1 | regex.M
        )
        self._header_colon = regex.compile(r"^[^\S\n]*([^:\n]{1,80}?):(?=\s|$)", regex.V1 | regex.M)

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
        for m in self._list.finditer(text):
            cuts.add(m.start())
        cuts.discard(0)
        bounds = [0, *sorted(c for c in cuts if 0 < c < len(text)), len(text)]
        spans = []
        for a, b in itertools.pairwise(bounds):
            while a < b and text[a].isspace():
                a += 1
            while b > a and text[b - 1].isspace():
                b -= 1
            if b - a > MAX_SENTENCE_CHARS:
                spans.extend(_windows(text, a, b))
            elif a < b:
                spans.append((a, b))
        return spans

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
        for m in _TERMINAL.finditer(text):
            end = m.end()
            nxt = end
            while nxt < len(text) and text[nxt].isspace():
                nxt += 1
            if nxt >= len(text):
                continue
            following = text[nxt]
            if not (following.isupper() or following.isdigit() or following in "-•*▪◦·\"'(["):
                continue
            mark = text[m.start()]
            if mark == "?":
                # "? PE" / "?PE" is a cue, not a question ending: only cut when "?" ends a word.
                if m.start() == 0 or not text[m.start() - 1].isalnum():
                    continue
            if mark == "." and (
                self._abbreviation_before(text, m.start())
                or self._list_number_before(text, m.start())
            ):
                continue
            cuts.add(nxt)

    def _abbreviation_before(self, text: str, dot: int) -> bool:
        i = dot
        while i > 0 and (text[i - 1].isalnum() or text[i - 1] in "./"):
            i -= 1
        word = text[i:dot].lower()
        if not word:
            return False
        if word in self._abbrev:
            return True
        # single letters ("A. Smith") and dotted initialisms ("p.o.")
        return (len(word) == 1 and word.isalpha()) or ("." in word and len(word) <= 6)

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
        return j == 0 or text[j - 1] in "\n.:;!?"

    def _header_cuts(self, text: str, cuts: set[int]) -> None:
        for m in self._header_colon.finditer(text):
            head = m.group(1)
            words = _WORD.findall(head)
            if 0 < len(words) <= self.rules.header_max_tokens and not _DIGIT_END.search(head):
                if _NONE_AFTER_COLON.match(text, m.end()):
                    continue  # "Pericardial effusion: None." is one statement
                cuts.add(m.end())


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
