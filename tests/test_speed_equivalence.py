"""The fast paths give exactly what the straightforward paths give, on the same rules.

The optimised engine (prefix-dispatched scanner, direct record construction) is compared with an
engine of the same resources whose scanner is one POSIX alternation of every pattern and whose
records come from ``CueTargetPair.model_construct``: the pairs (offsets, levels, rule ids, every
field) must be identical on the demo corpus and, when the shared IU development reports are
present, on those real chest X-ray reports. Both sides are built at test time from the current
rules, so the test stays valid when rules change.
"""

from __future__ import annotations

import dataclasses
import functools
import pickle
import re

import pytest
import regex
from _helpers import IU_FILE, demo_texts, iu_texts
from _reference import extract_fields, fields, parallel_reference_fields, reference_engine, reference_pool
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cuelex
from cuelex._memo import BoundedMemo
from cuelex.concepts.linking import Linker, _MemoReader, _tagged, _updated
from cuelex.extensions import PAIRS_KEY, encode
from cuelex.extraction import engine as X
from cuelex.extraction import sentences as S
from cuelex.records import CueTargetPair



_reference_engine = reference_engine
_fields = fields


class _Reference:
    """Pairs from the reference engine, computed once per (text, doc id, sentences) for the module:
    the reference scan is slow, and several tests compare against the same demo notes. Many texts
    at once go to two worker processes (tests/_reference.py)."""

    def __init__(self) -> None:
        self._engine: X.Engine | None = None
        self._seen: dict[tuple, list[tuple]] = {}
        self._pool = None  # started on the first prefetch, closed by the fixture

    def prefetch(self, items: list[tuple[str, str | None, bool]]) -> None:
        missing = list(dict.fromkeys(k for k in items if k not in self._seen))
        if len(missing) < 20:
            return
        if self._pool is None:
            self._pool = reference_pool()
        if self._pool is not None:
            self._seen.update(zip(missing, parallel_reference_fields(self._pool, missing), strict=True))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool.join()
            self._pool = None

    def fields(self, text: str, doc_id: str | None = None, every_other_sentence: bool = False) -> list[tuple]:
        key = (text, doc_id, every_other_sentence)
        if key not in self._seen:
            if self._engine is None:
                self._engine = _reference_engine()
            with pytest.MonkeyPatch.context() as m:
                m.setattr(X, "_new_pair", CueTargetPair.model_construct)
                self._seen[key] = extract_fields(self._engine, key)
        return self._seen[key]


@pytest.fixture(scope="module")
def reference():
    ref = _Reference()
    yield ref
    ref.close()


def _compare(texts: list[str], reference: _Reference) -> int:
    fast = cuelex.get_engine()
    got = [_fields(fast.extract(t, doc_id=str(i))) for i, t in enumerate(texts)]
    reference.prefetch([(t, str(i), False) for i, t in enumerate(texts)])
    want = [reference.fields(t, str(i)) for i, t in enumerate(texts)]
    n = 0
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == w, f"document {i} differs"
        n += len(g)
    return n


def test_demo_corpus_same_pairs_as_reference_path(reference):
    texts = demo_texts()
    assert _compare(texts, reference) > 1000


@pytest.mark.skipif(not IU_FILE.exists(), reason="shared IU development reports not present")
def test_iu_reports_same_pairs_as_reference_path(reference):
    texts = iu_texts()
    assert _compare(texts[:600], reference) > 500


def test_scanner_text_with_odd_whitespace_matches_reference():
    """Whitespace runs, tabs, no-break spaces and line breaks inside multi-word cues."""
    fast = cuelex.get_engine()._scan
    ref = X._Scanner(fast.items, dispatch=False)
    text = (
        "Pneumonia is\t\tnot   excluded.\nEffusion is\u00a0not\n seen. It is  unclear\twhether "
        "there is\u2003a mass. No  evidence of\r\nPE; r/o   MI. Cannot  be\n\nexcluded: edema"
    )
    for k in range(0, len(text)):
        piece = text[k:]
        ours = [(m.start(), m.end(), m.lastgroup) for m in fast.finditer(piece)]
        want = [(m.start(), m.end(), m.lastgroup) for m in ref.finditer(piece)]
        assert ours == want


def test_direct_construction_equals_model_construct():
    values = dict(
        doc_id=None,
        sentence="Possible pneumonia.",
        sentence_start=0,
        sentence_end=19,
        cue_text="Possible",
        cue_start=0,
        cue_end=8,
        level=cuelex.Level.UL3,
        cue_level=cuelex.Level.UL3,
        rule_id="possible",
        direction=cuelex.Direction.FORWARD,
        target_text="pneumonia",
        target_start=9,
        target_end=18,
        modifiers=(),
    )
    fast = X._new_pair(**values)
    ref = CueTargetPair.model_construct(**values)
    assert X._new_pair.simple
    assert fast == ref
    assert list(fast.__dict__) == list(ref.__dict__)
    assert fast.model_fields_set == ref.model_fields_set
    assert fast.model_dump(mode="json") == ref.model_dump(mode="json")
    assert fast.model_dump(exclude_unset=True) == ref.model_dump(exclude_unset=True)


def test_long_single_line_same_pairs_as_reference_path(reference):
    """A note with its line breaks and sentence punctuation lost: one sentence of 20,000 chars."""
    texts = demo_texts()[:12]
    flat = " ".join(" ".join("".join(c for c in t if c not in ".!?;:").split()) for t in texts)
    assert _compare([flat[:20_000]], reference) > 20


# ----------------------------------------------------------------------------- memo (cold and warm)


def test_memo_cold_and_warm_passes_equal_reference(reference):
    """The per-sentence and per-text memo gives the reference pairs on a cold and a warm pass,
    under other doc ids, and for sentences given by the caller."""
    texts = demo_texts()[:40]  # the demo test's doc ids: the reference pass is shared
    texts += [t[:1500] for t in texts[:10]]  # short enough to be memoised as whole texts
    texts += ["Possible pneumonia.", "Possible pneumonia.", "x Possible pneumonia.", "?PE. ?PE"]
    # sentences given by the caller: the short texts and a dozen notes
    with_sentences = texts[:12] + texts[40:]
    fast = cuelex.get_engine()
    reference.prefetch(
        [(t, str(i), False) for i, t in enumerate(texts)] + [(t, "s", True) for t in with_sentences]
    )
    want = [reference.fields(t, str(i)) for i, t in enumerate(texts)]
    want_sents = [reference.fields(t, "s", every_other_sentence=True) for t in with_sentences]
    fast.clear_memo()
    for doc_prefix in ("", "", "e"):  # cold, warm, warm under other ids
        got = [_fields(fast.extract(t, doc_id=f"{doc_prefix}{i}")) for i, t in enumerate(texts)]
        if doc_prefix == "e":
            for g in got:
                for d, _ in g:
                    d["doc_id"] = d["doc_id"][1:]
        assert got == want
        got_sents = [
            _fields(fast.extract(t, doc_id="s", sentences=fast.sentences(t)[::2]))
            for t in with_sentences
        ]
        assert got_sents == want_sents
    assert fast.extract("Possible pneumonia.")[0].doc_id is None


def test_context_reach_reads_look_behinds():
    assert X._context_reach([]) == 1
    assert X._context_reach([r"\bno\s+"]) == 1
    assert X._context_reach([r"(?<=abc)x", r"no"]) == 9  # three characters, full case folding
    assert X._context_reach([r"(?<!\w)(?:a|b)+"]) == 3
    assert X._context_reach([r"(?<=a+)x"]) is None  # unbounded: memo off
    assert X._context_reach([r"(?w)x"]) is None  # regex-only syntax: memo off


def test_engine_with_unbounded_context_lookbehind_does_not_memoise():
    engine = X.Engine(cuelex.get_engine().resources)
    engine._left_reach = None
    engine.clear_memo()
    text = "Possible pneumonia. No effusion."
    assert engine.extract(text) == cuelex.get_engine().extract(text)
    assert engine._memo == {} and engine._doc_memo == {}


# ------------------------------------------------------------------ scanner on folded (non-ASCII) text

_ALPHABET = [
    "no ", "not ", "possible ", "r/o ", "rule out ", "vs ", "or ", "is not seen", "cannot be excluded",
    "?", "? ", "effusion", "pneumonia", " ", "  ", "\n", "\t", "\u00a0", "\u2003", "\u202f", ".",
    ",", "–", "—", "’", "“", "•", "é", "É", "ß", "\u212a", "İ", "ſ", "\x1c", "\x85", "2/2", "neg",
    "-", ";", "(", ")", "Probable ", "NO ", "Evaluate for ", "and/or ", "x-ray ",
]


@pytest.fixture(scope="module")
def scanners():
    fast = cuelex.get_engine()._scan
    return fast, X._Scanner(fast.items, dispatch=False)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(_ALPHABET), max_size=25))
def test_folded_prefilter_scan_equals_reference(scanners, pieces):
    """Whatever the text holds (non-ASCII spaces, dashes, quotes, letters whose lower case is
    ASCII or longer), the fast scan equals one POSIX alternation of every pattern."""
    fast, ref = scanners
    text = "".join(pieces)
    ours = [(m.start(), m.end(), m.lastgroup) for m in fast.finditer(text)]
    want = [(m.start(), m.end(), m.lastgroup) for m in ref.finditer(text)]
    assert ours == want


def test_fold_keeps_offsets_and_classes(scanners):
    fast, _ = scanners
    text = "Pain\u00a0– ’t • Straße \u212a x"
    folded = fast._folded(text)
    assert folded is not None and len(folded) == len(text) and folded.isascii()
    assert fast._folded("İ") is None  # lower-casing changes the length: the regex prefilter runs


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(_ALPHABET + ["a", "_", "x", "1", "2,", " , or", "\x01", "\x7f"]), max_size=30))
def test_split_prefilter_stops_equal_one_pattern(scanners, pieces):
    """The three skipping patterns stop exactly where the one prefilter pattern does."""
    fast, _ = scanners
    assert fast._stops_split is not None
    folded = fast._folded("".join(pieces))
    if folded is not None:
        want = [m.start() for m in fast._prefilter_ascii.finditer(folded)]
        assert fast.stops_ascii(folded) == want


def test_split_prefilter_on_hand_made_prefixes():
    """Boundary prefixes start after a non-word character or at 0; free ones anywhere; a
    whitespace-run prefix at each space of a run; a first piece it cannot read gives None."""
    ws = X._ASCII_WS_RUN
    heads = {True: {("n", "o"), (",", ws, "o"), (ws, "v", "s")}, False: {("n", "e", "g"), ("\\?",)}}
    at_start, after_gap, rest = X._split_prefilter(heads)
    one = re.compile(
        r"(?<!\w)(?=" + X._trie_of_pieces(heads[True]) + ")|(?=" + X._trie_of_pieces(heads[False]) + ")"
    )
    for text in ("no neg, or no", "xno xneg?,  or", "a  vs b\tvs ?", "", "no", ",\n or"):
        want = [m.start() for m in one.finditer(text)]
        words = ([0] if at_start.match(text) else []) + [m.end() for m in after_gap.finditer(text)]
        got = sorted(set(words) | {m.start() for m in rest.finditer(text)})
        assert got == want, text
    assert X._split_prefilter({True: {("[ab]", "c")}, False: set()}) is None


_FOLD_ALPHABET = [
    "monitor her ", "for further ", "for evaluation of ", "the patient ", "Dr. ", "have her ",
    "if ", "it is possible ", "pneumonia", "Strasse", "ss", "fi", "st", "ff", "fifth ", "ß", "ẞ", "ﬁ",
    "ﬆ", "İ", "i\u0307", "ſ", "\u212a", " ", "  ", "\n", ".", ",", "-", "’", "é", "worsens ", "or ",
]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(_FOLD_ALPHABET), max_size=20))
def test_simple_folding_scan_equals_full_folding_reference(scanners, pieces):
    """Text that folds one character to one is scanned with simple case folding (the buckets'
    twins); text with "ß", "ﬁ" or "İ" with V1's full folding: both equal the reference (one POSIX
    alternation with full folding), on words whose letters full folding could take together."""
    fast, ref = scanners
    text = "".join(pieces)
    ours = [(m.start(), m.end(), m.lastgroup) for m in fast.finditer(text)]
    want = [(m.start(), m.end(), m.lastgroup) for m in ref.finditer(text)]
    assert ours == want


def test_simple_fold_safety_is_what_regex_does():
    """What ``_simple_fold_safe`` lets through matches the same ASCII texts with both foldings;
    what it refuses can differ (a set holding "ß" takes "ss" as one item under full folding)."""
    texts = ["x ss y", "xssy", "xsy", "xfiy", "ss", "s", "fi", "a ss", "iss", "x ss", "xsssy", "xy"]

    def same(pattern: str) -> bool:
        full = regex.compile(pattern, X._FLAGS)
        simple = regex.compile("(?-f)" + pattern, X._FLAGS)
        return all(
            (lambda a, b: (a and a.span()) == (b and b.span()))(full.match(t, k), simple.match(t, k))
            for t in texts
            for k in range(len(t) + 1)
        )

    safe = [r"x[\w-]+y", r"(?<=[\w)]\s*)s", r"[’']s", r"x[^\W\d]y", r"[a-z]{2}", r"x\w{2}y", r"x[\s-]?s"]
    for p in safe:
        assert X._simple_fold_safe(p), p
        assert same(p), p
    refused = [r"x[\w-]y", r"x[\w]{2}y", r"^[\S.]$", r"x[\p{L}]y", r"[à-ÿ]", "ß", r"\xdf", r"[[a-z]--[e]]"]
    for p in refused:
        assert not X._simple_fold_safe(p), p
    assert not same(r"x[\w-]y") and not same(r"^[\S.]$")  # "xssy", "ss": one item under full folding
    assert fast_scanner_uses_twins()


def fast_scanner_uses_twins() -> bool:
    fast = cuelex.get_engine()._scan
    assert all(fast._fold_safe), "a shipped pattern is not fold-safe: its buckets lose the fast path"
    assert fast._folds_one_to_one("Straße") is False and fast._folds_one_to_one("Pain – é") is True
    return True


def test_text_without_cue_is_not_split(monkeypatch):
    """A text in which the scan finds no cue or alternative gives no pairs without being split;
    a text with one is split as before."""
    engine = X.Engine(cuelex.get_engine().resources, memo=False)
    calls = []
    split = engine.splitter.split
    monkeypatch.setattr(engine.splitter, "split", lambda text: calls.append(text) or split(text))
    assert engine.extract("Heart size normal. Lungs are clear.\nIMPRESSION: Normal chest.") == []
    assert calls == []
    assert [p.target_text for p in engine.extract("Heart size normal. No effusion.")] == ["effusion"]
    assert calls == ["Heart size normal. No effusion."]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["mild", "left", "_x", "x_", "2", "non-specific", "o'brien", "’", ".", "-", " ", "\t",
             "\x1c", "é", "Moderate", "UPPER", "lobe", "effusion", "a.b", "—", "(", "5%"]
        ),
        max_size=8,
    )
)
def test_modifier_only_ascii_path_equals_regex_path(parts):
    """The stdlib tokens of plain ASCII targets give the same answer as the ``regex`` tokens."""
    engine = cuelex.get_engine()
    target = "".join(parts)
    words = [m.group().lower() for m in X._TOKEN.finditer(target) if m.group()[0].isalnum()]
    want = bool(words) and all(w in engine._modifier_words for w in words)
    assert engine._modifier_only_uncached(target) is want


# ------------------------------------------------------------------------------- spaCy component


def test_component_stores_the_same_json_and_pairs_as_model_dump():
    nlp = cuelex.load()
    texts = demo_texts()[:30]
    texts.append("Possible “pneumonia” – r/o\u00a0PE; no effusion\x1f. ?MI 😀")
    for doc, text in zip(nlp.pipe(texts), texts, strict=True):
        pairs = cuelex.extract(text)
        assert doc.user_data[PAIRS_KEY] == encode([p.model_dump(mode="json") for p in pairs])
        got = doc._.cue_pairs
        assert got == pairs
        assert [p.model_fields_set for p in got] == [
            CueTargetPair.model_validate(p.model_dump(mode="json")).model_fields_set
            for p in pairs
        ]


# ----------------------------------------------------------------------------------------- linking


@pytest.fixture(scope="module")
def linker(tmp_path_factory):
    return Linker(cache_dir=tmp_path_factory.getbasetemp() / "cuelex-cache").warm()


def _reference_candidates(linker, text, start, end):
    """Linker.candidates as QuickUMLS's own ``_match`` gives them: every n-gram of the window
    looked up in the un-memoised readers, POS from the attribute ruler, no window memo."""
    segment = text[start:end]
    out = []
    if segment.strip():
        doc = linker._nlp(segment)
        m = linker._matcher
        saved = m.ss_db, m.cuisem_db
        m.ss_db = saved[0].reader if isinstance(saved[0], _MemoReader) else saved[0]
        m.cuisem_db = saved[1].reader if isinstance(saved[1], _MemoReader) else saved[1]
        try:
            groups = m._match(doc, best_match=False, ignore_syntax=False)
        finally:
            m.ss_db, m.cuisem_db = saved
        for group in groups:
            for g in group:
                cm = linker._to_match(text, start + g["start"], start + g["end"], g)
                if cm is not None:
                    out.append(cm)
        out.extend(linker._abbreviations(text, start, end))
    best = {}
    for c in out:
        k = (c.start, c.end, c.concept_id)
        if k not in best or c.similarity > best[k].similarity:
            best[k] = c
    return sorted(best.values(), key=lambda c: (c.start, -(c.end - c.start), c.concept_id))


def _reference_link(linker, text, pairs):
    pairs = list(pairs)
    windows = linker._windows(text, pairs) if pairs else []
    cache = {}
    out = []
    for w, p in zip(windows, pairs):
        if w not in cache:
            cache[w] = _reference_candidates(linker, text, *w)
        out.append(linker._link_one(text, p, cache[w]))
    return out


def _link_texts() -> list[str]:
    return demo_texts()[:60] + iu_texts(300)


def test_linking_same_cuis_and_spans_as_reference_path(linker):
    """Window memo, memoised look-ups, n-grams limited to what ``score`` can accept and the
    direct POS tagging give exactly the pairs of QuickUMLS's full path (same CUIs, spans, scores)."""
    engine = cuelex.get_engine()
    linker.clear_memo()
    n = linked = 0
    for passes in range(2):  # cold, then warm memo
        for i, text in enumerate(_link_texts()):
            pairs = engine.extract(text, doc_id=str(i))
            got = linker.link(text, pairs)
            want = _reference_link(linker, text, pairs)
            assert _fields(got) == _fields(want), f"document {i} differs (pass {passes})"
            n += len(got)
            linked += sum(p.cui is not None for p in got)
    assert n > 500 and linked > 100


def test_public_candidates_unchanged_by_memo(linker):
    text = "FINDINGS: Possible right lower lobe pneumonia. No pleural effusion or CHF."
    want = _reference_candidates(linker, text, 10, len(text))
    linker.clear_memo()
    assert linker.candidates(text, 10, len(text)) == want
    assert linker.candidates(text, 10, len(text)) == want  # from the memo
    moved = [dataclasses.replace(c, start=c.start + 3, end=c.end + 3) for c in want]
    assert linker.candidates("xx " + text, 13, len(text) + 3) == moved


def test_tagged_pos_equals_attribute_ruler(linker):
    texts = demo_texts()[:20]
    texts.append("Either THE nodule or That As-yet mass, and/or neither nor; per via a an")
    for text in texts:
        ruled = linker._nlp(text)
        tagged = _tagged(linker._nlp, text)
        assert [(t.text, t.pos_) for t in ruled] == [(t.text, t.pos_) for t in tagged]


def test_bounded_memo_empties_when_full_and_pickles():
    memo = BoundedMemo(2)
    assert memo.put("a", 1) == 1 and memo.put("b", 2) == 2
    assert memo.put("c", 3) == 3 and memo == {"c": 3}
    again = pickle.loads(pickle.dumps(memo))
    assert again == memo and again.max_entries == 2 and isinstance(again, BoundedMemo)


def test_memo_stays_bounded(monkeypatch):
    monkeypatch.setattr(X, "_MEMO_MAX_ENTRIES", 3)
    monkeypatch.setattr(X, "_MEMO_MAX_DOCS", 2)
    engine = X.Engine(cuelex.get_engine().resources)
    plain = X.Engine(cuelex.get_engine().resources, memo=False)
    texts = [f"Possible pneumonia {k}. No effusion {k}. ?PE {k}" for k in range(6)] * 2
    for text in texts:
        assert _fields(engine.extract(text)) == _fields(plain.extract(text))
        assert len(engine._memo) <= 3 and len(engine._doc_memo) <= 2
    assert plain._memo == {} and plain._doc_memo == {}


# ---------------------------------------------------------------------------------- sentence splitter

_SPLIT_TEXT = st.text(
    alphabet=st.sampled_from(
        list("ab Z1 2.)-•*:;?!'\"(\n\n\t  ") + ["\r", "\x1c", "\x85", "\u2028", "\xa0", "\u3000", "A"]
    ),
    max_size=60,
)
_MARKERS = [
    "",  # the shipped marker
    r"\s*-",
    r"[ ]?\*(?=\s)",
    r"(?:a|b)\)",
    r"a|b",
    r"(?i)[a-c][.)]",
    r"\d\.",
    r"(?:(?i:a)|\s?[*•])\)?",  # a local case-insensitive group; a marker that may start with a space
    r"(?:Z|[12])(?=\S)",
]


def _reference_cuts(sp: S.SentenceSplitter, text: str) -> tuple[list[int], set[int], set[int]]:
    """List, header and punctuation cuts as the splitter made them with ``regex`` scans only."""
    lists = [m.start() for m in sp._list.finditer(text)]
    headers: set[int] = set()
    for m in sp._header_colon.finditer(text):
        head = m.group(1)
        if 0 < len(S._WORD.findall(head)) <= sp.rules.header_max_tokens and not S._DIGIT_END.search(
            head
        ):
            if not S._NONE_AFTER_COLON.match(text, m.end()):
                headers.add(m.end())
    punct: set[int] = set()
    saved = S._TERMINAL
    S._TERMINAL = regex.compile(r"[.!?]+[\"')\]]*(?=\s)", regex.V1)
    try:
        sp._punct_cuts(text, punct)
    finally:
        S._TERMINAL = saved
    return lists, headers, punct


def test_line_space_is_what_regex_calls_whitespace():
    ws = {chr(c) for c in range(0x110000) if regex.match(r"\s", chr(c), regex.V1)}
    assert S._LINE_SPACE == ws - {"\n"}
    assert all(S._LIST_CONTEXT.match("." + ch) for ch in S._LINE_SPACE)  # stdlib: a superset


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_SPLIT_TEXT, st.sampled_from(range(len(_MARKERS))))
def test_splitter_scans_equal_regex_scans(text, k):
    rules = cuelex.get_engine().splitter.rules
    if k:
        rules = rules.model_copy(update={"list_marker": _MARKERS[k]})
    sp = S.SentenceSplitter(rules)
    assert (sp._marker is None) == (k == 4)  # a top-level alternation: the full scan
    _assert_scans_equal(sp, text)


_ASCII_SPLIT_TEXT = st.text(
    alphabet=st.sampled_from(list("ab Z1 2.)-*:;?!'\"(\n\t  ") + ["\r", "\x0b", "\x0c", "\x1c", "A", "c"]),
    max_size=60,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_ASCII_SPLIT_TEXT, st.sampled_from(range(len(_MARKERS))))
def test_list_cuts_on_ascii_text_equal_regex_scan(text, k):
    """On ASCII text the list cuts come from one stdlib scan for the places after list contexts
    (when no space can start the marker): the same cuts as the full ``regex`` scan."""
    rules = cuelex.get_engine().splitter.rules
    if k:
        rules = rules.model_copy(update={"list_marker": _MARKERS[k]})
    sp = S.SentenceSplitter(rules)
    if k == 0:
        assert sp._marker_places is not None  # the shipped marker takes the fast path
    assert sp._list_cuts(text) == [m.start() for m in sp._list.finditer(text)]


def _assert_scans_equal(sp: S.SentenceSplitter, text: str) -> None:
    """The splitter's list, header and punctuation cuts equal the plain regex scans'."""
    lists, headers, punct = _reference_cuts(sp, text)
    assert sp._list_cuts(text) == lists
    got: set[int] = set()
    sp._header_cuts(text, got)
    assert got == headers
    got = set()
    sp._punct_cuts(text, got)
    assert got == punct


def test_splitter_scans_equal_regex_scans_on_demo_notes():
    sp = cuelex.get_engine().splitter
    texts = demo_texts()
    for text in texts:
        _assert_scans_equal(sp, text)


def _abbreviation_before_by_walking(sp: S.SentenceSplitter, text: str, dot: int) -> bool:
    """The splitter's abbreviation test as it was written first: walk back one character at a time."""
    i = dot
    while i > 0 and (text[i - 1].isalnum() or text[i - 1] in "./"):
        i -= 1
    word = text[i:dot].lower()
    if not word:
        return False
    if word in sp._abbrev:
        return True
    # (a decimal number ending a sentence, "Mg 1.7.", is no initialism: twentieth session)
    return (len(word) == 1 and word.isalpha()) or (
        "." in word and len(word) <= 6 and not word.replace(".", "").isdigit()
    )


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["e.g", "approx", "Dr", "p.r.n", "A", "x", "_", "/", ".", " ", "\n", "İ", "ß", "²", "٣",
             "abcdefgh", "q.i.d.x", "1/2", "mg", "vs", "Straße", "\u00a0", "-"]
        ),
        max_size=12,
    )
)
def test_abbreviation_before_equals_walking_back(parts):
    """The bounded search for the run before a dot answers as the character-by-character walk."""
    sp = cuelex.get_engine().splitter
    text = "".join(parts) + "."
    for dot in range(len(text) + 1):
        assert sp._abbreviation_before(text, dot) == _abbreviation_before_by_walking(sp, text, dot)


def test_first_ascii_of_list_markers():
    """The characters the list-marker prefilter lets through, and None wherever it is unsure."""
    shipped = S._first_ascii(cuelex.get_engine().splitter.rules.list_marker)
    assert shipped is not None and set("0123456789abz-*") <= shipped and not shipped & set("AZ .(")
    assert S._first_ascii(r"(?i)[a-c][.)]") == frozenset("abcABC")
    assert S._first_ascii(r"(?i:k)\)") == frozenset("kK")
    assert S._first_ascii(r"\s*-") == frozenset(" \t\n\r\x0b\x0c-")  # not \x1c-\x1f (regex's \s)
    assert S._first_ascii(r"(?=\d)\w\.") == frozenset(S._ASCII_CATEGORY[S._sre_constants.CATEGORY_WORD])
    assert S._first_ascii(r"(?i)\u212a\.") is None  # KELVIN SIGN folds to ASCII "k"
    assert S._first_ascii(r"[[a-z]--[q]]\.") is None  # VERSION1 set difference
    assert S._first_ascii(r"\p{Lu}\.") is None  # regex-only syntax
    assert S._first_ascii(r"[^a]\.") is None  # a negated set
    assert S._first_ascii(r"x*") is None  # may match empty


def test_list_marker_prefilter_keeps_cuts():
    """Positions the prefilter skips hold no marker: the cuts equal those of the plain scan."""
    sp = cuelex.get_engine().splitter
    assert sp._marker_first is not None
    text = "FINDINGS: Heart normal. 1. No effusion.\n  a) Clear. - mild edema. Z. B) x. \u2022 dot.\n2) end"
    assert sp._list_cuts(text) == [m.start() for m in sp._list.finditer(text)]


def test_memo_lists_are_the_callers():
    """Changing a returned list changes neither the memo nor the next call's result."""
    engine = X.Engine(cuelex.get_engine().resources)
    text = "Possible pneumonia. No effusion."
    first = engine.extract(text, doc_id="a")
    want = _fields(first)
    first.clear()
    assert _fields(engine.extract(text, doc_id="a")) == want
    again = engine.extract(text, doc_id="b")
    assert [p.doc_id for p in again] == ["b", "b"]
    assert _fields(engine.extract(text, doc_id="a")) == want


def test_self_contained_patterns():
    assert S._self_contained(r"(?:\d{1,2}[.)]|[a-z][.)]|[-•*▪◦·])(?=\s+\S)")
    assert S._self_contained(r"[|]\|x")
    assert not S._self_contained("a|b")
    assert not S._self_contained(r"a\Kb")
    assert not S._self_contained("(a")
    assert not S._self_contained("[]a]")


def test_pair_update_equals_model_copy():
    p = cuelex.extract("Possible pneumonia.")[0]
    for update in (
        {"link_score": 0.5, "needs_review": True},
        {"target_text": "pneumonia", "cui": "C0032285", "semantic_types": ("T047",)},
    ):
        want = p.model_copy(update=update)
        got = _updated(p, update)
        assert got == want
        assert list(got.__dict__.items()) == list(want.__dict__.items())
        assert got.model_fields_set == want.model_fields_set


# ------------------------------------------------------- memo on and off: every field, every pair

# Pieces of our own wording, joined below so that repeated sentences meet each other, the
# patterns that read past a "." ("neg. for", "Dr. Lee", "E.R.", a parenthesis), headers, lists
# and line breaks in every combination, and sentences recur after different neighbours.
_MEMO_PIECES = [
    "No pneumothorax or pleural effusion.",
    "Heart size normal.",
    "Possible early pneumonia.",
    "Culture neg.",
    "For now no antibiotics.",
    "Please call Dr.",
    "Lee if fever returns.",
    "Return to the E.R.",
    "If pain worsens, come back.",
    "Opacity (atelectasis vs.",
    "pneumonia) in the left base.",
    "IMPRESSION:",
    "1. Probable atelectasis.",
    "- No acute disease.",
    "Rule out PE.",
    "?PE.",
    "Effusion ?",  # a spaced "?" that ends its sentence reads backward, whatever follows it
    "Lungs: clear.",
    "negative for malignancy.",
    "Cannot r.o.",
    "fracture.",
    "Findings may represent edema or infection.",
]
_GLUES = [" ", "  ", "\n", "\n\n", "\t", ". ", " \n"]


def _memo_texts() -> list[str]:
    texts = []
    n = len(_MEMO_PIECES)
    for i in range(n):
        for j in range(n):
            glue = _GLUES[(i + 2 * j) % len(_GLUES)]
            texts.append(_MEMO_PIECES[i] + glue + _MEMO_PIECES[j])
            texts.append(_MEMO_PIECES[j] + glue + _MEMO_PIECES[i] + " " + _MEMO_PIECES[(i + j) % n])
    return texts


def _memo_on_off(texts: list[str]) -> int:
    res = cuelex.get_engine().resources
    on = X.Engine(res)
    off = X.Engine(res, memo=False)
    n = 0
    for rnd in range(2):  # cold, then warm memo (another doc id on the warm pass)
        for i, t in enumerate(texts):
            doc_id = f"{rnd}-{i % 7}"
            got, want = _fields(on.extract(t, doc_id=doc_id)), _fields(off.extract(t, doc_id=doc_id))
            assert got == want, f"text {i} differs (pass {rnd}): {t!r}"
            n += len(got)
    return n


def test_memo_on_equals_memo_off_on_joined_pieces():
    """Memo on and off give the same pairs, every field, on texts whose sentences recur next
    to other sentences, including those the scan patterns read across."""
    assert _memo_on_off(_memo_texts()) > 500


def test_memo_on_equals_memo_off_on_demo_notes_and_iu_reports():
    texts = demo_texts() + iu_texts()
    assert _memo_on_off(texts) > 1000


def test_a_sentence_reads_nothing_after_its_end():
    """A sentence's pairs depend on nothing after it (the sentence memo's key holds no more), in
    either order of meeting the texts: a spaced "?" ending a sentence reads backward whether or
    not the text goes on ("Effusion ?" then "No pneumothorax."), and a marker's label test stops
    at the sentence's end."""
    res = cuelex.get_engine().resources
    off = X.Engine(res, memo=False)
    texts = ["Effusion ?", "Effusion ?\nNo pneumothorax.", "Effusion ?\n\nIMPRESSION: clear.",
             "Cough or fever\nRash: no", "Cough or fever"]  # fmt: skip
    for order in (texts, texts[::-1]):
        on = X.Engine(res)
        for t in order:
            assert _fields(on.extract(t)) == _fields(off.extract(t)), t
    for t in texts[:3]:
        (q,) = [p for p in off.extract(t) if p.cue_text == "?"]
        assert (q.target_text, q.direction.value, q.level.value) == ("Effusion", "backward", "UL5")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(_MEMO_PIECES), st.sampled_from(_GLUES)), min_size=1, max_size=6))
def test_memo_on_equals_memo_off_property(parts):
    text = "".join(p + g for p, g in parts)
    on, off = _on_off_engines()  # the memo stays warm across examples
    assert _fields(on.extract(text)) == _fields(off.extract(text))
    assert _fields(on.extract(text[::-1])) == _fields(off.extract(text[::-1]))


@functools.lru_cache(maxsize=1)
def _on_off_engines() -> tuple[X.Engine, X.Engine]:
    res = cuelex.get_engine().resources
    return X.Engine(res), X.Engine(res, memo=False)


def test_splitter_memos_answer_as_a_fresh_splitter():
    """The abbreviation and header memos (keyed on the characters before a dot, the text before a
    colon) give the cuts of a splitter that remembers nothing: the same text before a dot or a
    colon in other surroundings, at the text's start, a hedge label and a negation label."""
    rules = cuelex.get_engine().splitter.rules
    warm = S.SentenceSplitter(rules)
    texts = [
        *demo_texts(),
        "Dr. Smith saw her. Ddx: PE vs pneumonia.\nNo signs of: edema.\nFINDINGS: clear. e.g. x",
        "e.g. Dr. A. B. approx. 5 cm. vs. B.\nDdx:\nIMPRESSION: None.\nIMPRESSION: Edema.",
        "xe.g. Pneumonia. ye.g. Effusion.\n1. A. 2. B.\nLikely: PE.\nLikely pneumonia: yes.",
    ]
    for text in texts * 2:  # the second time round every answer comes from the memos
        fresh = S.SentenceSplitter(rules)
        assert warm.split(text) == fresh.split(text)
    assert warm._abbrev_memo and warm._head_memo


_NON_ASCII_SPLIT_TEXT = st.text(
    alphabet=st.sampled_from(
        list("ab Z1 2.)-*:;?!'\"(\n\t  ") + ["\r", "\x1c", "•", "’", "é", "\u212a", "ß", "\u200b", "A"]
    ),
    max_size=60,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_NON_ASCII_SPLIT_TEXT, st.sampled_from(range(len(_MARKERS))))
def test_list_cuts_on_text_with_ascii_spaces_equal_regex_scan(text, k):
    """A non-ASCII text whose spaces are all ASCII ("•" bullets, quotes, KELVIN SIGN) takes the
    one-scan path, trying the marker at every non-ASCII character after a list context: the same
    cuts as the full ``regex`` scan."""
    rules = cuelex.get_engine().splitter.rules
    if k:
        rules = rules.model_copy(update={"list_marker": _MARKERS[k]})
    sp = S.SentenceSplitter(rules)
    assert sp._list_cuts(text) == [m.start() for m in sp._list.finditer(text)]
    assert S._WIDE_SPACE.search(text) is None


def test_wide_space_is_the_non_ascii_whitespace():
    assert set(S._WIDE_SPACE.findall("".join(S._LINE_SPACE))) == {
        c for c in S._LINE_SPACE if not c.isascii()
    }
