"""The linker's inlined score, pair check and n-gram cut give exactly what the plain code gives.

``_score_base`` tests the cue and the target overlap inline and calls ``_eligible`` only for a
neighbour; ``_window_outcomes`` cuts a pair's n-grams at the first one starting after its reach
(n-gram starts never decrease); ``_check_pair`` tests every offset and text in one condition and
names the failing one only on failure. Each is compared with the straightforward form, and the
links of all demo notes and a sample of the IU reports with QuickUMLS's full path.
"""

from __future__ import annotations

import math

import pytest
from _helpers import demo_texts, iu_texts
from hypothesis import given
from hypothesis import strategies as st

import cuelex
from cuelex.concepts import linking as L
from cuelex.concepts.linking import Linker, LinkingError, _MemoReader
from cuelex.records import CueTargetPair, Direction



def _plain_score_base(cs, ce, cand_text, qs, qe, ts, te, d, text):
    """``_score_base`` as written before the inlining: ``_eligible``, ``min``/``max``, ``math.exp``."""
    if not L._eligible(cs, ce, qs, qe, ts, te, text):
        return None
    inter = max(0, min(ce, te) - max(cs, ts))
    overlap = inter / max(1, ce - cs)
    coverage = inter / max(1, te - ts)
    after = cs >= qe
    gap = cs - qe if after else qs - ce
    proximity = math.exp(-max(0, gap) / L.PROXIMITY_SCALE)
    if d is Direction.FORWARD:
        direction = 1.0 if after else 0.0
    elif d is Direction.BACKWARD:
        direction = 0.0 if after else 1.0
    else:
        direction = 1.0
    partial = (
        L.W_OVERLAP * overlap
        + L.W_COVERAGE * coverage
        + L.W_PROXIMITY * proximity
        + L.W_DIRECTION * direction
    )
    generic = (
        cand_text is not None
        and cand_text.lower() in L.GENERIC_HEADS
        and coverage < L.GENERIC_MIN_COVERAGE
    )
    return partial, generic


_WORDS = st.lists(
    st.sampled_from(["pneumonia", "effusion", ",", "or", "with", "and", " ", "left", "x", ";"]),
    min_size=1,
    max_size=12,
).map(" ".join)


@given(_WORDS, st.data())
def test_score_base_equals_plain_form(text, data):
    n = len(text)
    pos = st.integers(0, n)
    qs = data.draw(pos)
    qe = data.draw(st.integers(qs, n))
    ts = data.draw(pos)
    te = data.draw(st.integers(ts, n))
    cs = data.draw(pos)
    ce = data.draw(st.integers(cs, n))
    d = data.draw(st.sampled_from(list(Direction)))
    with_text = data.draw(st.booleans())
    args = (cs, ce, text[cs:ce] if with_text else None, qs, qe, ts, te, d, text if with_text else None)
    assert L._score_base(*args) == _plain_score_base(*args)


def test_score_base_examples():
    text = "Possible right lower lobe pneumonia, or effusion."
    qs, qe, ts, te = 0, 8, 9, 35
    for cs, ce in [(26, 35), (9, 35), (0, 8), (3, 12), (40, 48), (36, 38), (9, 14), (35, 36)]:
        for d in Direction:
            args = (cs, ce, text[cs:ce], qs, qe, ts, te, d, text)
            assert L._score_base(*args) == _plain_score_base(*args)
    # a neighbour behind a separator is no candidate; one on the cue never is
    assert L._score_base(40, 48, "effusion", qs, qe, ts, te, Direction.FORWARD, text) is None
    assert L._score_base(0, 8, "Possible", qs, qe, ts, te, Direction.FORWARD, text) is None
    assert L._score_base(26, 35, "pneumonia", qs, qe, ts, te, Direction.FORWARD, text) is not None


def _pair(text: str, cue: tuple[int, int], target: tuple[int, int], **kw) -> CueTargetPair:
    fields = {
        "doc_id": "d",
        "cue_text": text[cue[0] : cue[1]],
        "cue_start": cue[0],
        "cue_end": cue[1],
        "target_text": text[target[0] : target[1]],
        "target_start": target[0],
        "target_end": target[1],
        "sentence_start": 0,
        "sentence_end": len(text),
    }
    fields.update(kw)
    return cuelex.extract(text)[0].model_copy(update=fields)


def test_check_pair_names_the_failing_field_first_cue_then_target():
    text = "Possible pneumonia."
    ok = _pair(text, (0, 8), (9, 18))
    L._check_pair(text, ok, 0)
    bad_cue = ok.model_copy(update={"cue_text": "Possibly"})
    with pytest.raises(LinkingError, match=r"^pair 3: text\[0:8\] is 'Possible' but cue_text is 'Possibly'"):
        L._check_pair(text, bad_cue, 3)
    both = bad_cue.model_copy(update={"target_text": "pneumonias"})
    with pytest.raises(LinkingError, match=r"cue_text is 'Possibly'"):  # the cue is named first
        L._check_pair(text, both, 0)
    bad_target = ok.model_copy(update={"target_text": "pneumonias"})
    with pytest.raises(LinkingError, match=r"^pair 1: text\[9:18\] is 'pneumonia' but target_text"):
        L._check_pair(text, bad_target, 1)
    outside = ok.model_copy(update={"target_start": 15, "target_end": 40})
    with pytest.raises(LinkingError, match=r"target offsets \[15, 40\) fall outside the text \(length 19\)"):
        L._check_pair(text, outside, 0)
    reversed_cue = ok.model_copy(update={"cue_start": 8, "cue_end": 0})
    with pytest.raises(LinkingError, match=r"cue offsets \[8, 0\) fall outside"):
        L._check_pair(text, reversed_cue, 0)
    bad_sentence = ok.model_copy(update={"sentence_end": 99})
    with pytest.raises(LinkingError, match=r"sentence offsets \[0, 99\) fall outside the text"):
        L._check_pair(text, bad_sentence, 0)


@pytest.fixture(scope="module")
def linker(tmp_path_factory):
    return Linker(cache_dir=tmp_path_factory.getbasetemp() / "cuelex-cache").warm()


def _texts() -> list[str]:
    return demo_texts() + iu_texts(400)


def test_ngram_starts_never_decrease(linker):
    """The bisection in ``_window_outcomes`` relies on it."""
    engine = cuelex.get_engine()
    seen = 0
    for text in _texts()[:80]:
        pairs = engine.extract(text)
        if not pairs:
            continue
        for (s, e), p in zip(linker._windows(text, pairs), pairs):
            segment = text[s:e]
            zone = ((p.target_start - s - L.NEIGHBOURHOOD, p.target_end - s + L.NEIGHBOURHOOD),)
            ngrams, _ = L._zone_ngrams(
                linker._matcher, linker._nlp.make_doc(segment), segment, zone, linker._flags
            )
            starts = [g[0] for g in ngrams]
            assert starts == sorted(starts)
            seen += len(ngrams)
    assert seen > 500


def _reference_link(linker: Linker, text: str, pairs: list[CueTargetPair]) -> list[CueTargetPair]:
    """Every pair scored against every candidate of its window, the candidates from QuickUMLS's
    own ``_match`` on un-memoised readers (POS from the attribute ruler) plus the abbreviations."""
    windows = linker._windows(text, pairs) if pairs else []
    m = linker._matcher
    saved = m.ss_db, m.cuisem_db
    cache: dict[tuple[int, int], list] = {}
    out = []
    try:
        m.ss_db = saved[0].reader if isinstance(saved[0], _MemoReader) else saved[0]
        m.cuisem_db = saved[1].reader if isinstance(saved[1], _MemoReader) else saved[1]
        for w, p in zip(windows, pairs):
            if w not in cache:
                start, end = w
                found = []
                if text[start:end].strip():
                    doc = linker._nlp(text[start:end])
                    for group in m._match(doc, best_match=False, ignore_syntax=False):
                        for g in group:
                            cm = linker._to_match(text, start + g["start"], start + g["end"], g)
                            if cm is not None:
                                found.append(cm)
                    found.extend(linker._abbreviations(text, start, end))
                best: dict = {}
                for c in found:
                    k = (c.start, c.end, c.concept_id)
                    if k not in best or c.similarity > best[k].similarity:
                        best[k] = c
                cache[w] = sorted(
                    best.values(), key=lambda c: (c.start, -(c.end - c.start), c.concept_id)
                )
            out.append(linker._link_one(text, p, cache[w]))
    finally:
        m.ss_db, m.cuisem_db = saved
    return out


def test_links_of_all_demo_notes_and_iu_sample_equal_full_path(linker):
    """Same CUIs, spans, scores and review flags (every field) as QuickUMLS's full path."""
    engine = cuelex.get_engine()
    linker.clear_memo()
    n = linked = 0
    for i, text in enumerate(_texts()):
        pairs = engine.extract(text, doc_id=str(i))
        got = linker.link(text, pairs)
        want = _reference_link(linker, text, pairs)
        assert [(p.__dict__, p.model_fields_set) for p in got] == [
            (p.__dict__, p.model_fields_set) for p in want
        ], f"document {i} differs"
        n += len(got)
        linked += sum(p.cui is not None for p in got)
    assert n > 2000 and linked > 500


def test_a_repeated_text_links_as_a_fresh_linker_links_it(linker):
    """The same text again (the window memo warm), with the same pair objects, with pairs equal but
    for ``doc_id`` (a section repeated in another note), or with pairs that differ otherwise, links
    exactly as a linker that never saw it."""
    engine = cuelex.get_engine()
    text = "Possible small left pleural effusion. No pneumothorax. Questionable PNA, or atelectasis."
    first = engine.extract(text, doc_id="a")
    assert len(first) >= 3
    linker.clear_memo()
    once = linker.link(text, first)
    assert linker.link(text, first) == once  # the same objects: the stored links
    fresh = Linker(cache_dir=linker.cache_dir).warm()

    def fields(pairs):
        return [(p.__dict__, p.model_fields_set) for p in pairs]

    moved = engine.extract(text, doc_id="b")
    assert [p.doc_id for p in moved] == ["b"] * len(moved)
    got, want = linker.link(text, moved), fresh.link(text, moved)
    assert fields(got) == fields(want)
    assert [p.doc_id for p in got] == ["b"] * len(got)
    assert any(p.cui is not None for p in got)
    # an unlinked pair comes back as the object given, as from a fresh linker
    assert [g is m for g, m in zip(got, moved)] == [w is m for w, m in zip(want, moved)]
    # a pair that differs in another field is not replayed
    changed = [moved[0].model_copy(update={"strength": 12.5}), *moved[1:]]
    assert fields(linker.link(text, changed)) == fields(fresh.link(text, changed))
    assert linker.link(text, changed[:1]) == fresh.link(text, changed[:1])
    assert linker.link(text, []) == []


def test_apply_equals_model_copy_of_its_update(linker):
    """``_apply`` writes the link into the copied ``__dict__``: the same values in the same order
    and the same set of fields as ``model_copy`` with the update, for linked and review outcomes
    (a pair without a raw target yet, and one that already has one)."""
    text = "Possible small left pleural effusion. Questionable PNA, or atelectasis."
    pairs = cuelex.get_engine().extract(text)
    assert pairs
    p = pairs[0]
    again = p.model_copy(update={"raw_target_text": "earlier"})
    for pair in (p, again):
        for outcome in ((0.42, None), (0.91, (0, 4, "C0000001", "Name", ("T047",)))):
            want = pair.model_copy(update=L._update_of(text, pair, outcome, 3))
            got = L._apply(text, pair, outcome, 3)
            assert list(got.__dict__.items()) == list(want.__dict__.items())
            assert got.model_fields_set == want.model_fields_set
            assert got == want
    assert L._apply(text, p, None, 0) is p


def test_pipeline_links_the_engines_pairs_as_link_does(linker):
    """``run_pipeline`` hands the engine's own pairs to the linker without ``link``'s per-pair
    checks: the same linked pairs as ``link``."""
    from cuelex.pipeline import run_pipeline

    engine = cuelex.get_engine()
    for i, text in enumerate(_texts()[:120]):
        pairs = engine.extract(text, doc_id=str(i))
        want = linker.link(text, pairs)
        got = run_pipeline(text, engine=engine, linker=linker, doc_id=str(i))
        assert [(p.__dict__, p.model_fields_set) for p in got] == [
            (p.__dict__, p.model_fields_set) for p in want
        ], f"document {i} differs"
