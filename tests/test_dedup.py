"""Per-document deduplication: each rule of the paper, determinism, document grouping."""

from __future__ import annotations

import itertools

import pytest

from cuelex.dedup import deduplicate, exact_key, specificity
from cuelex.levels import Level
from cuelex.records import CueTargetPair, Direction


def pair(
    target: str,
    level: Level,
    pos: int,
    *,
    cui: str | None = None,
    doc_id: str | None = "d1",
    cue: str = "possible",
) -> CueTargetPair:
    """A pair with its cue at ``pos`` and its target right after (offsets into a notional text)."""
    ts = pos + len(cue) + 1
    return CueTargetPair(
        doc_id=doc_id,
        sentence=f"{cue} {target}",
        sentence_start=pos,
        sentence_end=ts + len(target),
        cue_text=cue,
        cue_start=pos,
        cue_end=pos + len(cue),
        level=level,
        rule_id="test.cue",
        direction=Direction.FORWARD,
        target_text=target,
        target_start=ts,
        target_end=ts + len(target),
        cui=cui,
    )


def targets(pairs: list[CueTargetPair]) -> list[tuple[str, Level]]:
    return [(p.target_text, p.level) for p in pairs]


def test_unique_targets_pass_through_in_document_order() -> None:
    a = pair("pneumonia", Level.UL3, 100)
    b = pair("effusion", Level.UL1, 0)
    assert deduplicate([a, b]) == [b, a]  # sorted by position within the document


def test_exact_duplicates_keep_the_pair_that_fills_a_level_gap() -> None:
    pairs = [
        pair("effusion", Level.UL1, 0),  # unique target: UL1 is covered
        pair("pneumonia", Level.UL1, 50),  # duplicate group: UL1 already covered ...
        pair("Pneumonia", Level.UL3, 100),  # ... UL3 is a gap: this one is kept
        pair("pneumonia", Level.UL5, 150),
    ]
    out = deduplicate(pairs)
    assert targets(out) == [("effusion", Level.UL1), ("Pneumonia", Level.UL3)]


def test_exact_duplicates_without_a_gap_keep_the_first() -> None:
    pairs = [
        pair("effusion", Level.UL3, 0),
        pair("nodule", Level.UL1, 30),
        pair("nodule ", Level.UL3, 60),  # case and whitespace are ignored
        pair("NODULE", Level.UL1, 90),
    ]
    out = deduplicate(pairs)
    # UL1 (nodule) and UL3 (effusion) ... the first "nodule" (UL1) is not covered by the uniques
    assert targets(out) == [("effusion", Level.UL3), ("nodule", Level.UL1)]
    only_dupes = [pair("mass", Level.UL2, 0), pair("mass", Level.UL2, 20)]
    assert deduplicate(only_dupes) == [only_dupes[0]]


def test_coverage_grows_as_groups_are_decided() -> None:
    pairs = [
        pair("pneumonia", Level.UL3, 0),
        pair("pneumonia", Level.UL2, 20),
        pair("edema", Level.UL3, 40),
        pair("edema", Level.UL4, 60),
    ]
    # pneumonia: no uniques, UL3 is a gap -> first (UL3); edema: UL3 now covered -> UL4
    assert targets(deduplicate(pairs)) == [("pneumonia", Level.UL3), ("edema", Level.UL4)]


def test_same_cui_keeps_the_more_specific_surface_form() -> None:
    pairs = [
        pair("PNA", Level.UL3, 0, cui="C0032285"),
        pair("multifocal pneumonia", Level.UL2, 40, cui="C0032285"),
        pair("pneumonia", Level.UL5, 80, cui="C0032285"),
        pair("pleural effusion", Level.UL1, 120, cui="C0032227"),
    ]
    out = deduplicate(pairs)
    assert targets(out) == [("multifocal pneumonia", Level.UL2), ("pleural effusion", Level.UL1)]
    # specificity ignores plurals and case; ties keep the first
    tie = [pair("Effusions", Level.UL3, 0, cui="X"), pair("effusion", Level.UL1, 30, cui="X")]
    assert deduplicate(tie) == [tie[0]]
    assert specificity("the pulmonary emboli") == (2, len("pulmonary embolus"))


def test_pairs_without_cui_are_not_merged_and_cui_rule_can_be_disabled() -> None:
    pairs = [pair("PNA", Level.UL3, 0), pair("pneumonia", Level.UL3, 20)]
    assert deduplicate(pairs) == pairs
    linked = [pair("PNA", Level.UL3, 0, cui="C1"), pair("pneumonia", Level.UL3, 20, cui="C1")]
    assert deduplicate(linked, by_cui=False) == linked


def test_documents_are_deduplicated_separately() -> None:
    pairs = [
        pair("pneumonia", Level.UL3, 0, doc_id="a"),
        pair("pneumonia", Level.UL3, 0, doc_id="b"),
        pair("pneumonia", Level.UL5, 40, doc_id="a"),
    ]
    out = deduplicate(pairs)
    assert [(p.doc_id, p.level) for p in out] == [("a", Level.UL3), ("b", Level.UL3)]


def test_deterministic_under_input_permutation() -> None:
    pairs = [
        pair("effusion", Level.UL1, 0),
        pair("pneumonia", Level.UL1, 30),
        pair("pneumonia", Level.UL3, 60),
        pair("PNA", Level.UL4, 90, cui="C0032285"),
        pair("lobar pneumonia", Level.UL2, 120, cui="C0032285"),
    ]
    expected = deduplicate(pairs)
    for perm in itertools.permutations(pairs):
        assert deduplicate(list(perm)) == expected
    keys = [exact_key(p.target_text) for p in expected]
    assert len(keys) == len(set(keys))


def test_bad_input() -> None:
    with pytest.raises(TypeError, match="item 1 is a str"):
        deduplicate([pair("x", Level.UL3, 0), "pneumonia"])  # type: ignore[list-item]
    assert deduplicate([]) == []
