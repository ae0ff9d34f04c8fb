"""Alignment never invents retention (issue 11): a weak paraphrase match (detail ``related``,
"pneumonia" for consolidation) gives way when another source target of the same document is
matched to that output phrase by name — the phrase says that finding, not the other; and a study
said to look normal ("your chest X-ray looks normal") states no organ's state at all. Examples are written for these tests."""

from __future__ import annotations

from cuelex.scoring import score
from cuelex.scoring.align import AlignedTarget, _yield_named_spans


def _fates(source: str, output: str) -> dict[str, str]:
    r = score(source, output, n_boot=0)
    return {
        p.source.target_text: (p.output_level.value if p.retained and p.output_level is not None else "ABSENT")
        for p in r.pairs
    }


def test_a_phrase_named_by_another_target_is_not_a_paraphrase_of_this_one() -> None:
    fates = _fates("FINDINGS: No focal airspace consolidation. IMPRESSION: No pneumonia.", "Your X-ray shows no pneumonia.")
    assert fates == {"focal airspace consolidation": "ABSENT", "pneumonia": "UL1"}


def test_without_the_named_target_the_paraphrase_still_answers() -> None:
    fates = _fates("FINDINGS: No focal airspace consolidation. No pleural effusion.", "Your X-ray shows no pneumonia.")
    assert fates["focal airspace consolidation"] == "UL1"


def _at(detail: str, start: int, end: int) -> AlignedTarget:
    return AlignedTarget(
        tier="cui", detail=detail, start=start, end=end, text="x" * (end - start), score=80.0,
        context_similarity=0.0, n_candidates=1, candidates=((start, end),),
    )  # fmt: skip


def test_only_weak_matches_yield_and_only_to_a_named_one() -> None:
    related, named, general = _at("related", 5, 14), _at("string", 5, 14), _at("general", 5, 14)
    assert _yield_named_spans([related, named]) == [None, named]
    # a whole-organ statement answering several targets is no name; a named match never yields
    assert _yield_named_spans([related, general]) == [related, general]
    assert _yield_named_spans([named, _at("string", 5, 14)])[0] is named
    # another span: nothing yields
    other = _at("string", 20, 29)
    assert _yield_named_spans([related, other]) == [related, other]
    # targets of one source sentence share the phrase that answers it
    assert _yield_named_spans([related, named], [0, 0]) == [related, named]
    assert _yield_named_spans([related, named], [0, 40]) == [None, named]


def test_targets_of_one_sentence_share_the_answering_phrase() -> None:
    fates = _fates("No focal opacity to suggest pneumonia.", "There is no sign of a lung infection.")
    assert fates == {"focal opacity": "UL1", "pneumonia": "UL1"}


def test_a_normal_study_is_no_organ_state() -> None:
    # FATE_GUIDELINES: "your chest X-ray was normal" mentions no negated finding; the blind fate
    # readers hold to it for whole-organ findings too (thirteenth session: every such call they
    # could be compared on was ABSENT), so the study said to be normal answers nothing
    source = "FINDINGS: No acute bony abnormality. IMPRESSION: No acute cardiopulmonary abnormality."
    assert _fates(source, "Your chest X-ray looks normal.") == {
        "acute bony abnormality": "ABSENT",
        "acute cardiopulmonary abnormality": "ABSENT",
    }
    assert _fates(source, "It was a normal chest X-ray.")["acute cardiopulmonary abnormality"] == "ABSENT"
    # the organs named as such still answer, and a negated problem said of the study does
    fates = _fates(source, "Your chest X-ray looks normal: your heart and lungs look normal, and your bones look fine.")
    assert fates == {"acute bony abnormality": "UL1", "acute cardiopulmonary abnormality": "UL1"}
    assert _fates(source, "Nothing serious showed up on your chest X-ray.")["acute cardiopulmonary abnormality"] == "UL1"
