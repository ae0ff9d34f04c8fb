"""Hypothesis properties: exact offsets, determinism, no crash on arbitrary unicode."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cuelex

CLINICAL_WORDS = [
    "no",
    "possible",
    "pneumonia",
    "effusion",
    "cannot",
    "be",
    "excluded",
    "likely",
    "or",
    "versus",
    "?",
    "rule",
    "out",
    ",",
    ";",
    ".",
    "\n",
    "IMPRESSION:",
    "1.",
    "not",
    "seen",
    "is",
    "unlikely",
    "evaluate",
    "for",
    "and",
    "without",
    "denies",
    "r/o",
    "PE",
    "vs.",
    "but",
    "which",
    "indeterminate",
]
clinical_text = st.lists(st.sampled_from(CLINICAL_WORDS), max_size=40).map(" ".join)
any_text = st.one_of(
    st.text(max_size=300), clinical_text, st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80)
)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(any_text)
def test_offsets_index_text_exactly(text):
    for p in cuelex.extract(text):
        assert text[p.cue_start : p.cue_end] == p.cue_text
        assert text[p.target_start : p.target_end] == p.target_text
        assert text[p.sentence_start : p.sentence_end] == p.sentence
        assert p.sentence_start <= p.target_start < p.target_end <= p.sentence_end
        assert p.target_text.strip() == p.target_text and p.target_text


@SETTINGS
@given(any_text)
def test_deterministic(text):
    assert cuelex.extract(text) == cuelex.extract(text)


@SETTINGS
@given(any_text, st.data())
def test_assess_never_crashes_and_stays_in_range(text, data):
    if not text:
        assert cuelex.assess(text, []) == []
        return
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, len(text)))
    (a,) = cuelex.assess(text, [(start, end)])
    assert a.text == text[start:end]
    if a.cue is not None:
        assert text[a.cue.start : a.cue.end] == a.cue.text


@SETTINGS
@given(any_text)
def test_sentences_cover_text_in_order(text):
    spans = cuelex.get_engine().sentences(text)
    last = 0
    for a, b in spans:
        assert last <= a < b <= len(text)
        assert text[a:b].strip() == text[a:b]
        last = b
    covered = set()
    for a, b in spans:
        covered.update(range(a, b))
    assert all(i in covered for i, ch in enumerate(text) if not ch.isspace())
