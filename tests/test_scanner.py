"""The dispatched scanner finds exactly what one big POSIX (leftmost-longest) alternation finds."""

from __future__ import annotations

import json

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

import cuelex
from cuelex.cli import demo_corpus_path
from cuelex.extraction import _FLAGS, _wrap

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
    with open(demo_corpus_path(), encoding="utf-8") as fh:
        texts = [json.loads(line)["text"] for line in fh][:60]
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
