"""Extraction cost is linear in text length, also for one long line without sentence punctuation (issue 15, F1)."""

from __future__ import annotations

import time

import cuelex
from cuelex.sentences import MAX_SENTENCE_CHARS, _windows


def _seconds(text: str) -> float:
    best = float("inf")
    for _ in range(3):  # best of three, CPU time: robust to a busy CI machine
        t0 = time.process_time()
        cuelex.extract(text)
        best = min(best, time.process_time() - t0)
    return best


def _prose(n: int) -> str:
    phrase = "possible pneumonia versus atelectasis without effusion likely viral bronchitis "
    return (phrase * (n // len(phrase) + 1))[:n]


def test_unpunctuated_line_is_linear():
    cuelex.extract("Possible pneumonia.")
    for make in (lambda n: ("no " * n)[:n], _prose):
        small, large = _seconds(make(10_000)), _seconds(make(40_000))
        # 4x the text: linear gives ~4x the time, the old quadratic cost ~16x
        assert large / max(small, 1e-3) < 8, (small, large)
        assert large < 10


def test_windows_cover_long_sentence_exactly(engine):
    text = _prose(25_000) + ". Possible pneumonia."
    spans = engine.sentences(text)
    assert all(0 < e - s <= MAX_SENTENCE_CHARS for s, e in spans)
    assert all(not text[s].isspace() and not text[e - 1].isspace() for s, e in spans)
    covered = "".join(text[s:e] for s, e in spans)
    assert covered.replace(" ", "") == text.replace(" ", "")
    # cuts fall at whitespace, never inside a word
    assert all(s == 0 or text[s - 1].isspace() for s, _ in spans)


def test_windows_unbroken_token_and_clause_marks():
    token = "x" * 2500
    assert _windows(token, 0, len(token)) == [(0, 1000), (1000, 2000), (2000, 2500)]
    text = ("word " * 150 + "mass, ") * 5
    spans = _windows(text, 0, len(text.rstrip()))
    assert all(text[e - 1] == "," for _, e in spans[:-1])


def test_real_sentences_are_not_cut(engine):
    sentence = "Possible pneumonia in the right lower lobe " * 20 + "."
    assert len(sentence) < MAX_SENTENCE_CHARS
    assert engine.sentences(sentence) == [(0, len(sentence))]
