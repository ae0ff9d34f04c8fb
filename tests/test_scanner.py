"""The dispatched scanner finds exactly what one big POSIX (leftmost-longest) alternation finds."""

from __future__ import annotations

import json

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import cuelex
from cuelex.cli import demo_corpus_path
from cuelex.extraction import _FLAGS, _wrap
from cuelex.extraction.engine import _Scanner

ENGINE = cuelex.get_engine()
BIG = regex.compile(
    "(?p)" + "|".join(f"(?P<g{i}>{_wrap(p, wb)})" for i, (p, wb) in enumerate(ENGINE._scan.items)),
    _FLAGS,
)


def both(text: str) -> tuple[list, list]:
    ours = [(m.start(), m.end(), m.lastgroup) for m in ENGINE._scan.finditer(text)]
    reference = [
        (m.start(), m.end(), m.lastgroup) for m in BIG.finditer(text) if m.end() > m.start()
    ]
    return ours, reference


def test_scanner_equals_posix_alternation_on_demo_corpus():
    """Whole notes, line breaks and all (test_speed_equivalence compares every demo note's
    sentences through the engine; this reads across sentence and line ends)."""
    with open(demo_corpus_path(), encoding="utf-8") as fh:
        texts = [json.loads(line)["text"] for line in fh][:20]
    for text in texts:
        ours, reference = both(text)
        assert ours == reference


WORDS = [
    "no",
    "No",
    "NOT",
    "not seen",
    "is",
    "possible",
    "r/o",
    "R/O",
    "?",
    ";",
    "-",
    " - ",
    "or",
    "vs.",
    "cannot be excluded",
    "likely",
    "unlikely",
    "evaluate for",
    "\u00a0",
    "\t",
    "(",
    "/",
    "denies",
    "x",
]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=25).map("".join))
def test_scanner_equals_posix_alternation_on_cue_soup(text):
    ours, reference = both(text)
    assert ours == reference


# words that begin like a word-bounded literal cue ("no", "or") or a repeated opener of a cue
# ("the", "my", "main" before "concern"), followed by word characters or not: dispatch reads
# prefixes past those (the boundary mark, repeated groups) and must still try every pattern
# that can match
PREFIX_WORDS = [
    "no",
    "No",
    "normal",
    "nodule",
    "no_",
    "no1",
    "or",
    "order",
    "the",
    "The",
    "my",
    "main",
    "concern",
    "suspicion",
    "is",
    "for",
    "that",
    " ",
    "  ",
    "\n",
    ".",
    ",",
    ":",
    "\u212a",  # KELVIN SIGN: a word character that lower-cases to ASCII "k"
    "\u00e9",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PREFIX_WORDS), max_size=20).map("".join))
def test_scanner_equals_posix_alternation_past_boundaries_and_repeats(text):
    ours, reference = both(text)
    assert ours == reference


def test_dispatch_prefixes_read_word_boundaries_and_repeated_groups():
    from cuelex.extraction.engine import _BOUNDARY, _literal_prefixes

    # "no" must be followed by a non-word character: "normal" does not dispatch to it
    assert _literal_prefixes(_wrap("no", True), k=12, spaces=True) == {"no" + _BOUNDARY}
    scan = ENGINE._scan
    assert scan._pattern_for("normal heart") is None or "(?:no)" not in scan._pattern_for(
        "normal heart"
    ).pattern
    # a repeated opener is read past: "the heart" does not dispatch to "the ... concern"
    found = _literal_prefixes(r"(?:(?:the|my)\s+)*concern", k=12, spaces=True, unroll=True)
    assert {"concern", "the concern", "my concern", "the my conce"} <= found
    assert "the " not in found
    # without unrolling (the prefilter's prefixes) the repeat closes the head
    assert "the " in _literal_prefixes(r"(?:(?:the|my)\s+)*concern", k=12, spaces=True)


@pytest.mark.parametrize(
    "pattern", [r"no(?!\w)", r"ddx(?!\w)", r"(?:on|in)\s+(?:the\s+)?ddx(?!\w)(?!/)", r"r/o(?!\w)d?"]
)
def test_a_word_boundary_inside_a_pattern_still_dispatches(pattern):
    """A "(?!\\w)" written inside a pattern (not only the wrap's) leaves its prefixes readable by the
    prefilter: the dispatched scan finds what the reference alternation finds."""
    texts = ["There is no effusion.", "Sarcoid on ddx; ACE sent.", "in the ddx/plan", "r/o PE", "nodule"]
    fast, reference = _Scanner([(pattern, True)]), _Scanner([(pattern, True)], dispatch=False)
    for text in texts:
        assert [m.span() for m in fast.finditer(text)] == [m.span() for m in reference.finditer(text)], text


def test_word_buckets_match_without_the_regex_engine_as_it_would():
    """A bucket of one word-bounded ASCII word ("no", "or") is matched by a slice comparison;
    the same matches as the bucket's compiled pattern, on ASCII and non-ASCII neighbours."""
    scan = ENGINE._scan
    texts = ["No edema.", "no_", "no1 no", "Normal or NOT", "x/no/or", "\u212ano", "no\u212a", "é no é"]
    for text in texts:
        ours, reference = both(text)
        assert ours == reference
    assert {w for w, _ in scan._words.values()} >= {"no", "or"}
    for pattern, (word, group) in scan._words.items():
        for text in (word, word.upper(), f"({word})", f"{word}s", f"_{word}", f"{word} x"):
            m = pattern.match(text, text.find(word[0]) if word[0] in text else 0)
            found = [(x.start(), x.end(), x.lastgroup) for x in scan.finditer(text)]
            if m is not None and m.end() > m.start():
                assert (m.start(), m.end(), m.lastgroup) in found
            else:
                assert all(g != group for _, _, g in found)
