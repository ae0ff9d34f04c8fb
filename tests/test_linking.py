"""Concept linking: candidate scoring, target replacement, review flags, offline operation."""

from __future__ import annotations

import pickle
import socket
from pathlib import Path

import pytest

from cuelex import vocab
from cuelex.levels import Level
from cuelex.linking import ConceptMatch, Linker, LinkingError
from cuelex.records import CueTargetPair, Direction

FIXTURE = Path(__file__).parent / "fixtures" / "umls"


@pytest.fixture(scope="session")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # shared by the test modules: the open index is built once per session
    return tmp_path_factory.getbasetemp() / "cuelex-cache"


@pytest.fixture(scope="session")
def linker(cache: Path) -> Linker:
    return Linker(cache_dir=cache).warm()


def make_pair(
    text: str,
    cue: str,
    target: str,
    *,
    direction: Direction = Direction.FORWARD,
    level: Level = Level.UL3,
    sentence: tuple[int, int] | None = None,
    doc_id: str = "doc1",
) -> CueTargetPair:
    cs = text.index(cue)
    ts = text.index(target, cs + len(cue)) if direction is Direction.FORWARD else text.index(target)
    ss, se = sentence if sentence is not None else (0, len(text))
    return CueTargetPair(
        doc_id=doc_id,
        sentence=text[ss:se],
        sentence_start=ss,
        sentence_end=se,
        cue_text=cue,
        cue_start=cs,
        cue_end=cs + len(cue),
        level=level,
        rule_id="test.cue",
        direction=direction,
        target_text=target,
        target_start=ts,
        target_end=ts + len(target),
    )


def link1(linker: Linker, text: str, cue: str, target: str, **kw: object) -> CueTargetPair:
    (out,) = linker.link(text, [make_pair(text, cue, target, **kw)])  # type: ignore[arg-type]
    assert text[out.target_start : out.target_end] == out.target_text
    return out


def test_pna_and_pneumonia_link_to_the_same_concept(linker: Linker) -> None:
    a = link1(linker, "Findings are concerning for possible pneumonia.", "possible", "pneumonia")
    b = link1(linker, "Cannot exclude PNA.", "Cannot exclude", "PNA")
    assert a.cui == b.cui == "C0032285"
    assert a.preferred_name == b.preferred_name == "pneumonia"
    assert b.target_text == "PNA" and b.raw_target_text == "PNA"
    assert (
        "T047" in a.semantic_types and a.link_score is not None and a.link_score >= linker.threshold
    )
    assert not a.needs_review and not b.needs_review


def test_no_evidence_of_pulmonary_embolism_stays_whole(linker: Linker) -> None:
    out = link1(
        linker,
        "No evidence of pulmonary embolism.",
        "No evidence of",
        "pulmonary embolism",
        level=Level.UL1,
    )
    assert out.target_text == "pulmonary embolism"  # not "embolism"
    assert out.cui == "C0034065" and out.level is Level.UL1


def test_broad_raw_span_is_refined_to_the_concept(linker: Linker) -> None:
    text = "CT: no evidence of acute pulmonary embolism in the segmental arteries."
    out = link1(
        linker, text, "no evidence of", "acute pulmonary embolism in the segmental arteries"
    )
    assert out.target_text == "pulmonary embolism"
    assert out.raw_target_text == "acute pulmonary embolism in the segmental arteries"
    assert (out.target_start, out.target_end) == (text.index("pulmonary"), text.index(" in the"))


def test_backward_cue_and_plural(linker: Linker) -> None:
    out = link1(
        linker, "Bilateral pleural effusions are likely.", "are likely",
        "Bilateral pleural effusions", direction=Direction.BACKWARD, level=Level.UL2,
    )  # fmt: skip
    assert out.target_text == "pleural effusions" and out.cui == "C0032227"


def test_unlinkable_abbreviation_keeps_raw_span_without_review(linker: Linker) -> None:
    text = "Liver lesion, r/o FNHX."
    pair = make_pair(text, "r/o", "FNHX", level=Level.UL5)
    (out,) = linker.link(text, [pair])
    assert out == pair  # unchanged: no candidate, no error
    assert out.cui is None and out.link_score is None and out.needs_review is False


def test_low_scoring_candidates_are_flagged_for_review(linker: Linker) -> None:
    # the only concept near the raw target lies outside it: scored, but below the threshold
    text = "Possible zorblat pneumonia."
    out = link1(linker, text, "Possible", "zorblat")
    assert out.target_text == "zorblat" and out.cui is None
    assert out.needs_review is True
    assert out.link_score is not None and out.link_score < linker.threshold


def test_scoring_prefers_overlap_proximity_and_direction(linker: Linker) -> None:
    text = "No effusion; possible atelectasis or consolidation."
    pair = make_pair(text, "possible", "atelectasis")

    def cand(word: str) -> ConceptMatch:
        s = text.index(word)
        return ConceptMatch(s, s + len(word), word, "X", word, (), 1.0, word, "quickumls")

    inside = linker.score(pair, cand("atelectasis"))
    near_after = linker.score(pair, cand("consolidation"))
    assert inside is not None and inside > 0.9
    assert near_after is not None and near_after < linker.threshold  # in direction, no overlap
    assert linker.score(pair, cand("effusion")) is None  # far, on the wrong side: not a candidate
    assert linker.score(pair, cand("possible")) is None  # overlaps the cue
    backward = pair.model_copy(update={"direction": Direction.BACKWARD})
    assert linker.score(backward, cand("atelectasis")) < inside  # type: ignore[operator]


def test_generic_heads_do_not_replace_specific_targets(linker: Linker) -> None:
    text = "Possible obscure storage disease."
    out = link1(linker, text, "Possible", "obscure storage disease")
    assert out.target_text != "disease"


def test_abbreviations_in_context(linker: Linker) -> None:
    text = "Evaluate for PEs; hx of CHF and AMS."
    out = link1(linker, text, "Evaluate for", "PEs", level=Level.UL5)
    assert out.cui == "C0034065" and out.target_text == "PEs"
    kinds = {c.text: c.concept_id for c in linker.candidates(text)}
    assert kinds["CHF"] == "C0018802" and "AMS" in kinds
    # case-sensitive: an ordinary word is not an abbreviation
    assert "all" not in {c.text for c in linker.candidates("Negative for all of the above.")}


def test_several_pairs_and_documents_keep_order_and_offsets(linker: Linker) -> None:
    text = "No pneumothorax. Small left effusion; possible atelectasis versus pneumonia."
    s2 = text.index("Small")
    pairs = [
        make_pair(text, "No", "pneumothorax", level=Level.UL1, sentence=(0, s2 - 1)),
        make_pair(text, "possible", "atelectasis", sentence=(s2, len(text))),
        make_pair(text, "possible", "pneumonia", sentence=(s2, len(text))),
    ]
    out = linker.link(text, pairs)
    assert [p.target_text for p in out] == ["pneumothorax", "atelectasis", "pneumonia"]
    assert [p.cui for p in out] == ["C0032326", "C0004144", "C0032285"]
    for p in out:
        assert text[p.target_start : p.target_end] == p.target_text
        assert text[p.cue_start : p.cue_end] == p.cue_text
    assert linker.link(text, []) == []


def test_only_sentences_with_pairs_are_matched(
    linker: Linker, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[int, int]] = []
    original = Linker._window_outcomes  # what link() calls per window (with the pairs' zones)

    def spy(self: Linker, text: str, start: int, end: int, zones: object) -> object:
        seen.append((start, end))
        return original(self, text, start, end, zones)  # type: ignore[arg-type]

    monkeypatch.setattr(Linker, "_window_outcomes", spy)
    filler = "The heart size is normal and the mediastinum is unremarkable. " * 10
    text = filler + "Possible pneumonia. " + filler
    start = len(filler)
    pair = make_pair(
        text, "Possible", "pneumonia", sentence=(start, start + len("Possible pneumonia."))
    )
    (out,) = linker.link(text, [pair])
    assert out.cui == "C0032285"
    assert seen == [(start, start + len("Possible pneumonia."))]
    # a long sentence is matched only around its pairs
    long_sentence = "x" * 0 + ("word " * 200) + "possible pneumonia " + ("word " * 200)
    p2 = make_pair(long_sentence, "possible", "pneumonia")
    seen.clear()
    linker.link(long_sentence, [p2])
    (lo, hi) = seen[0]
    assert hi - lo < 200 and lo <= p2.cue_start and hi >= p2.target_end


def test_bad_input_is_named(linker: Linker) -> None:
    pair = make_pair("Possible pneumonia.", "Possible", "pneumonia")
    with pytest.raises(
        LinkingError, match=r"pair 0: text\[9:18\] is .* but target_text is 'pneumonia'"
    ):
        linker.link("Possible pneumothorax.", [pair])
    with pytest.raises(LinkingError, match="outside the text"):
        linker.link("Possible", [pair])
    with pytest.raises(LinkingError, match="expected a CueTargetPair"):
        linker.link("Possible pneumonia.", [{"target_text": "pneumonia"}])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="text must be a str"):
        linker.link(None, [pair])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threshold"):
        Linker(threshold=1.5)
    with pytest.raises(ValueError, match="is a UMLS META directory"):  # VocabularyError
        Linker(vocabulary=FIXTURE)


def test_linker_is_picklable(linker: Linker, cache: Path) -> None:
    fresh = Linker(cache_dir=cache, threshold=0.65)
    clone = pickle.loads(pickle.dumps(fresh))
    assert clone.threshold == 0.65 and clone._matcher is None
    warm_clone = pickle.loads(pickle.dumps(linker))  # the QuickUMLS matcher is not pickled ...
    assert warm_clone._matcher is None and warm_clone._nlp is None
    out = link1(
        warm_clone, "Cannot exclude PNA.", "Cannot exclude", "PNA"
    )  # ... but reopened lazily
    assert out.cui == "C0032285"


def test_concept_of_phrases(linker: Linker) -> None:
    assert linker.concept_of("PNA").concept_id == "C0032285"  # type: ignore[union-attr]
    assert linker.concept_of("bilateral pleural effusions").concept_id == "C0032227"  # type: ignore[union-attr]
    assert linker.concept_of("zorblat") is None
    assert linker.concept_of("   ") is None


def test_umls_vocabulary_links_through_the_same_path(tmp_path: Path) -> None:
    index = vocab.build_umls_index(FIXTURE, tmp_path / "umls", progress=False)
    umls = Linker(vocabulary=index)
    a = link1(umls, "Findings may represent pneumonia.", "may represent", "pneumonia")
    b = link1(umls, "Evaluate for PE.", "Evaluate for", "PE", level=Level.UL5)
    c = link1(umls, "r/o PNA", "r/o", "PNA")
    assert a.cui == c.cui == "C0032285" and a.preferred_name == "Pneumonia"
    assert b.cui == "C0034065" and b.preferred_name == "Pulmonary Embolism"


def test_nothing_touches_the_network(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import nltk
    import quickumls.core

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("network access attempted")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(nltk, "download", refuse)
    # a fresh cache: the open index is built from the shipped table, then used
    fresh = Linker(cache_dir=tmp_path / "cache")
    out = link1(fresh, "Cannot exclude PNA.", "Cannot exclude", "PNA")
    assert out.cui == "C0032285"
    assert (tmp_path / "cache").is_dir()
    umls = Linker(vocabulary=vocab.build_umls_index(FIXTURE, tmp_path / "umls", progress=False))
    assert link1(umls, "Possible pneumonia.", "Possible", "pneumonia").cui == "C0032285"
    # the stopword stand-in was only in place while QuickUMLS was constructed
    assert quickumls.core.nltk is nltk
    assert fresh._matcher._stopwords >= {"the", "of", "and"}
