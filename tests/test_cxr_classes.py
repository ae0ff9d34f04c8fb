"""Chest X-ray source-pair classes of issue 12 (ninth session): a status word after a comma opens a
new statement, alternatives after a reading verb, slash alternatives under a hedge, "adjacent to"
ends a target, a finding not well seen on an older study, "compatible" without "with"."""

from __future__ import annotations

import pytest

import cuelex


def _found(text: str) -> dict[str, str]:
    return {p.target_text: p.level.value for p in cuelex.extract(text)}


@pytest.mark.parametrize(
    ("text", "kept", "dropped"),
    [
        ("No pleural effusion, stable cardiomegaly.", "pleural effusion", "stable cardiomegaly"),
        ("No pneumothorax, normal heart size.", "pneumothorax", "normal heart size"),
        ("Possible small effusion, unchanged mediastinal contours.", "small effusion", "unchanged mediastinal contours"),
        ("Borderline cardiomegaly, stable mediastinal and hilar contours.", "cardiomegaly", "hilar contours"),
    ],
)
def test_status_word_after_comma_opens_a_new_statement(text: str, kept: str, dropped: str) -> None:
    found = _found(text)
    assert kept in found, found
    assert not [t for t in found if dropped in t or t in dropped and t != kept], found


def test_list_without_status_word_still_continues() -> None:
    found = _found("No focal consolidation, pleural effusion, or pneumothorax.")
    assert found == {"focal consolidation": "UL1", "pleural effusion": "UL1", "pneumothorax": "UL1"}


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("The X-ray shows pneumonia or atelectasis.", {"pneumonia", "atelectasis"}),
        ("The CT scan revealed a cyst or abscess in the liver.", {"cyst", "abscess"}),
    ],
)
def test_alternatives_after_a_reading_verb(text: str, targets: set[str]) -> None:
    found = _found(text)
    assert {t: found.get(t) for t in targets} == {t: "UL3" for t in targets}, found


@pytest.mark.parametrize(
    "text",
    ["She shows fatigue or weakness after exercise.", "We can discuss medications or therapies."],
)
def test_reading_verb_does_not_open_lists_of_a_person_or_a_plan(text: str) -> None:
    assert cuelex.extract(text) == []


def test_reading_verb_keeps_a_negated_list_negated() -> None:
    assert _found("The previous film shows no effusion or pneumothorax.") == {
        "effusion": "UL1",
        "pneumothorax": "UL1",
    }


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("Left base opacity may represent atelectasis/pneumonia.", {"atelectasis", "pneumonia"}),
        ("This may represent a focal area of infection/pneumonia.", {"focal area of infection", "pneumonia"}),
        ("Prominence of the left hilum could be due to nodule/lymph node.", {"nodule", "lymph node"}),
    ],
)
def test_slash_alternatives_under_a_hedge_are_two_targets(text: str, targets: set[str]) -> None:
    found = _found(text)
    assert {t: found.get(t) for t in targets} == {t: "UL3" for t in targets}, found


def test_adjacent_to_ends_the_target() -> None:
    found = _found("Small area of atelectasis or infiltrate adjacent to the right hilum.")
    assert found.get("infiltrate") == "UL3", found


@pytest.mark.parametrize(
    ("text", "absent", "level_of"),
    [
        ("Left midlung opacity, not well seen on prior exam, may represent airspace disease.", "Left midlung opacity", ("airspace disease", "UL3")),
        ("There is a left lung opacity, not well appreciated on the previous study.", "left lung opacity", None),
    ],
)
def test_not_well_seen_on_an_older_study_is_no_hedge(text: str, absent: str, level_of: tuple[str, str] | None) -> None:
    found = _found(text)
    assert absent not in found, found
    if level_of is not None:
        assert found.get(level_of[0]) == level_of[1], found


def test_not_well_seen_today_stays_indeterminate() -> None:
    assert _found("The nodule is not well seen on the lateral view.") == {"nodule": "UL4"}


def test_compatible_without_with_hedges_the_reading_not_the_finding() -> None:
    found = _found("Left base opacity compatible XXXX atelectasis or XXXX scarring.")
    assert found == {"atelectasis": "UL3", "scarring": "UL3"}, found


def test_repeated_sentence_gives_the_same_pairs_after_slash_alternatives() -> None:
    # the impression often repeats a findings sentence word for word: the second copy comes from
    # the sentence memo and must carry the same pairs as the first
    one = "Left base opacity may represent atelectasis/pneumonia. No effusion."
    pairs = cuelex.extract(f"FINDINGS: {one}\nIMPRESSION: {one}")
    texts = [(p.target_text, p.level.value) for p in pairs]
    half = len(texts) // 2
    assert texts[:half] == texts[half:], texts
    assert ("pneumonia", "UL3") in texts[:half], texts


def test_a_non_clinical_list_gives_no_alternatives() -> None:
    assert cuelex.extract("He drinks club soda or seltzer daily.") == []


def test_suggested_finding_is_probable_but_a_suggested_plan_is_no_pair() -> None:
    assert _found("Focal subsegmental atelectasis suggested on the lateral view.") == {
        "Focal subsegmental atelectasis": "UL2"
    }
    assert cuelex.extract("Followup imaging in 6 months is suggested.") == []
