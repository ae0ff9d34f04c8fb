"""The semantic tier's precision guards, without the embedding model: candidate phrases and their
similarities are given, so every guard runs where torch is not installed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cuelex
from cuelex.concepts.vocab import DATA_DIR, tsv_rows
from cuelex.scoring.align import DEFAULT_TIERS, Aligner, normal_words, place_sites
from cuelex.scoring.semantic_guard import (
    ORGAN_MARGIN,
    SemanticCandidate,
    SemanticTarget,
    nonfinding_words,
    passing,
    reject_reason,
    semantic_confidence,
)

IGNORE = frozenset({"of", "in", "the", "your", "small", "left", "right", "mild"})


def _target(text: str, head: str, *, generic: bool = False, of: bool = False, sites=frozenset(), past=False):
    return SemanticTarget(normal_words(text), head, generic, frozenset(sites), past, of)


def _cand(phrase: str, score: float, *, organ_score=None, sentence_sites=None, rival=None, rival_score=0.0):
    words = normal_words(phrase)
    organs = tuple(w for w in words if place_sites((w,)))
    sites = place_sites(words) if sentence_sites is None else frozenset(sentence_sites)
    return SemanticCandidate(0, len(phrase), words, score, organs, organ_score, sites, rival_score, rival, place_sites(organs))


def _nonfinding_rows():
    return [cols for _n, cols in tsv_rows(DATA_DIR / "semantic_nonfinding.tsv", ("word", "example_target", "example_phrase"), "t")]


@pytest.mark.parametrize("row", _nonfinding_rows(), ids=lambda r: r[0])
def test_every_nonfinding_row_rejects_its_example(row):
    word, target, phrase = row
    assert word in normal_words(phrase), f"{word!r} is not a normal-form word of {phrase!r}"
    t = _target(target, normal_words(target)[-1])
    c = _cand(phrase, 80.0, organ_score=40.0)
    assert reject_reason(c, t, ignore=IGNORE) == "nonfinding"


def test_nonfinding_words_are_read_from_the_data_file():
    assert {"scan", "hormone", "movement", "surgery"} <= nonfinding_words()


@pytest.mark.parametrize(
    ("target", "head", "phrase", "reason"),
    [
        # the complement of an of-phrase is another thing than its head
        ("sources of anemia", "source", "anemia", "qualifier"),
        ("sources of anemia", "source", "iron deficiency anemia", "qualifier"),
        ("causes of the fever", "cause", "fever since Monday", "qualifier"),
        # the head, or other words, pass
        ("sources of anemia", "source", "where the blood loss comes from", None),
        ("sources of anemia", "source", "source of the low blood count", None),
        ("fracture of the left wrist", "fracture", "wrist bone may be cracked", None),
    ],
)
def test_qualifier_guard(target, head, phrase, reason):
    t = _target(target, head, of=True)
    assert reject_reason(_cand(phrase, 70.0), t, ignore=IGNORE) == reason


def test_qualifier_guard_leaves_compounds_and_generic_heads_alone():
    # "too much fluid" is fluid overload: a compound's first noun may carry the concept
    assert reject_reason(_cand("too much fluid", 66.0), _target("fluid overload", "overload"), ignore=IGNORE) is None
    # "old granulomatous" for "previous granulomatous process": "process" carries nothing
    t = _target("previous granulomatous process", "process", generic=True)
    assert reject_reason(_cand("old granulomatous", 77.0), t, ignore=IGNORE) is None


@pytest.mark.parametrize(
    ("target", "phrase", "score", "organ_score", "reason"),
    [
        ("hepatomegaly", "your liver looks normal", 62.0, 60.0, "organ"),  # only the organ and "normal"
        ("pulmonary opacity", "lungs look", 61.0, 55.0, "organ"),
        ("fracture of the left wrist", "left wrist", 78.0, 62.0, "organ"),
        ("hypothyroidism", "thyroid gland", 64.7, 72.0, "organ"),  # less like it than "thyroid" alone
        ("splenomegaly", "spleen is swollen", 75.0, 65.0, None),  # says something of the spleen
        ("gastroenteritis", "stomach bug", 63.7, 48.0, None),
        # the target names the organ itself: the organ alone is no yardstick
        ("ankle sprain", "torn ligament in your ankle", 74.5, 83.0, None),
    ],
)
def test_organ_guard(target, phrase, score, organ_score, reason):
    t = _target(target, normal_words(target)[-1])
    assert reject_reason(_cand(phrase, score, organ_score=organ_score), t, ignore=IGNORE) == reason


def test_organ_margin_is_a_strict_bar():
    t = _target("splenomegaly", "splenomegaly")
    assert reject_reason(_cand("spleen is swollen", 65.0 + ORGAN_MARGIN - 0.1, organ_score=65.0), t, ignore=IGNORE) == "organ"
    assert reject_reason(_cand("spleen is swollen", 65.0 + ORGAN_MARGIN, organ_score=65.0), t, ignore=IGNORE) is None


def test_anatomy_guard_needs_a_conflicting_site():
    t = _target("pulmonary nodule", "nodule", sites={"lung"})
    assert reject_reason(_cand("small round lump", 70.0, sentence_sites={"thyroid"}), t, ignore=IGNORE) == "anatomy"
    assert reject_reason(_cand("small round lump", 70.0, sentence_sites={"lung", "heart"}), t, ignore=IGNORE) is None
    # a sentence that names no site (lay words the site table lacks: "intestines") is not held
    assert reject_reason(_cand("small round lump", 70.0, sentence_sites=()), t, ignore=IGNORE) is None


def test_rival_guard_gives_a_phrase_to_the_target_it_is_nearest():
    t = _target("pneumothorax", "pneumothorax")
    near_other = _cand("fluid around your lungs", 64.0, organ_score=40.0, rival="pleural effusion", rival_score=85.0)
    assert reject_reason(near_other, t, ignore=IGNORE) == "rival"
    near_this = _cand("air leaking around your lung", 70.0, organ_score=40.0, rival="pleural effusion", rival_score=55.0)
    assert reject_reason(near_this, t, ignore=IGNORE) is None


def test_history_guard_unless_the_source_is_past():
    history = frozenset({"history", "father"})
    c = _cand("history of a lung infection", 70.0, organ_score=40.0)
    assert reject_reason(c, _target("pneumonia", "pneumonia"), ignore=IGNORE, history=history) == "history"
    past = _target("pneumonia", "pneumonia", past=True)
    assert reject_reason(c, past, ignore=IGNORE, history=history) is None


def test_passing_keeps_order():
    t = _target("thyroid nodule", "nodule", sites={"thyroid"})
    cands = [_cand("lump in your thyroid", 72.0, organ_score=60.0), _cand("thyroid hormone", 66.0, organ_score=75.0), _cand("small thyroid lump", 70.0, organ_score=60.0)]
    assert [c.words for c in passing(cands, t, ignore=IGNORE)] == [cands[0].words, cands[2].words]


@given(st.floats(0, 100), st.floats(0, 100), st.integers(1, 6), st.integers(1, 6))
def test_semantic_confidence_is_bounded_and_monotone(a, b, n, m):
    lo, hi = sorted((a, b))
    assert 0.0 <= semantic_confidence(lo, n) <= semantic_confidence(hi, n) <= 1.0
    assert semantic_confidence(hi, 1) <= semantic_confidence(hi, 3)
    assert semantic_confidence(hi, max(n, m)) >= semantic_confidence(hi, 2) or max(n, m) <= 2


class _FakeMatcher:
    """The semantic matcher's interface with given similarities (phrase text → target → score)."""

    def __init__(self, table: dict[str, dict[str, float]]):
        self.table = table

    def _score(self, phrase: str, text: str) -> float:
        return self.table.get(phrase, {}).get(text, 10.0)

    def phrases(self, target, idx, threshold):
        return [
            (w, self._score(w.raw, target))
            for w in idx.windows()
            if w.raw in self.table and self._score(w.raw, target) >= threshold
        ]

    def phrase_similarity(self, idx, start, end, text):
        return self._score(idx.text[start:end], text)

    def similarity(self, a, b):
        return self.table.get(b, {}).get(a, 10.0)


def _aligner(table):
    al = Aligner([*DEFAULT_TIERS])
    al.tiers = (*al.tiers, "semantic")
    al._semantic = _FakeMatcher(table)
    return al


def test_aligner_applies_the_guards_to_semantic_matches():
    # a lay wording no lexicon holds is found, at a confidence listed for checking
    al = _aligner({"air leaking around your lung": {"pneumothorax": 72.0}, "lung": {"pneumothorax": 50.0}})
    r = cuelex.score("Possible pneumothorax.", "There might be some air leaking around your lung.", aligner=al, n_boot=0)
    (p,) = r.pairs
    assert p.retained and (p.match.tier, p.match.text) == ("semantic", "air leaking around your lung")
    assert p.match.confidence == semantic_confidence(72.0, 5) < 0.7


def test_aligner_gives_a_phrase_to_the_other_target_it_is_nearest():
    table = {"fluid around your lungs": {"pneumothorax": 66.0, "pleural effusion": 88.0}}
    r = cuelex.score(
        "Possible pneumothorax. No pleural effusion.", "There is no fluid around your lungs.", aligner=_aligner(table), n_boot=0
    )
    by_target = {p.source.target_text: p for p in r.pairs}
    assert not by_target["pneumothorax"].retained
    assert by_target["pleural effusion"].retained


def test_aligner_rejects_a_test_of_the_organ():
    table = {"thyroid hormone": {"thyroid nodule": 70.0}, "thyroid": {"thyroid nodule": 75.0}}
    r = cuelex.score("Possible thyroid nodule.", "Your thyroid hormone levels are normal.", aligner=_aligner(table), n_boot=0)
    assert not r.pairs[0].retained


def test_partitive_heads_leave_the_concept_to_their_complement():
    t = _target("tiny amount of fluid", "amount", of=True)
    assert reject_reason(_cand("tiny fluid", 88.0), t, ignore=IGNORE) is None
    t = _target("signs of infection", "sign", of=True)
    assert reject_reason(_cand("lung infection", 75.0, organ_score=40.0), t, ignore=IGNORE) is None


def test_organ_contrast_skips_a_site_the_target_names_in_other_words():
    # "pulmonary finding" names the lung: "spot in the lung" is not held to "lung" alone
    t = _target("pulmonary finding", "finding", generic=True, sites={"lung"})
    c = SemanticCandidate(0, 16, normal_words("spot in the lung"), 60.1, ("lung",), 58.0, frozenset({"lung"}), 50.0, "pulmonary density", frozenset({"lung"}))
    assert reject_reason(c, t, ignore=IGNORE) is None
    elsewhere = _target("hypothyroidism", "hypothyroidism")
    assert reject_reason(_cand("thyroid gland", 64.7, organ_score=72.0), elsewhere, ignore=IGNORE) == "organ"
