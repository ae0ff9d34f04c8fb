"""Chest X-ray source-pair classes of issue 12 (tenth session), found in unannotated IU reports:
alternatives before an observation participle ("A/B noted", "A and/or B is noted in ..."), a
comparison of sides before slash alternatives ("right greater than left A/B"), a ranked
differential ("primary differential diagnosis includes"), and
"no significant change in X" (a comparison with the prior film: X is present); batch 9 tune: the
alternatives after an observation whose comma is left out ("airspace opacity atelectasis versus
pneumonitis")."""

from __future__ import annotations

import pytest

import cuelex


def _found(text: str) -> dict[str, str]:
    return {p.target_text: p.level.value for p in cuelex.extract(text)}


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("Bibasilar atelectasis/airspace disease noted.", {"Bibasilar atelectasis", "airspace disease"}),
        ("Air space disease and/or atelectasis is noted in the right lung base.", {"Air space disease", "atelectasis"}),
        ("Scarring or atelectasis is seen at the left base.", {"Scarring", "atelectasis"}),
        ("Left basilar atelectasis versus scar noted.", {"Left basilar atelectasis", "scar"}),
    ],
)
def test_alternatives_before_an_observation_participle(text: str, targets: set[str]) -> None:
    found = _found(text)
    assert {t: found.get(t) for t in targets} == {t: "UL3" for t in targets}, found


@pytest.mark.parametrize(
    "text",
    [
        "She reports nausea/vomiting.",  # a verb of the clause before the list: no alternatives
        "Pneumonia or sepsis was treated and is noted in the chart.",  # another verb first
    ],
)
def test_other_verbs_keep_the_marker_a_conjunction(text: str) -> None:
    assert not [p for p in cuelex.extract(text) if p.level.value == "UL3"], _found(text)


def test_negated_list_before_a_participle_stays_negated() -> None:
    assert _found("No pain or swelling noted.") == {"pain": "UL1", "swelling": "UL1"}


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("Right greater than left atelectasis/airspace disease noted.", {"left atelectasis", "airspace disease"}),
        ("Mild bibasilar, right greater than left airspace disease/atelectasis.", {"left airspace disease", "atelectasis"}),
    ],
)
def test_comparison_of_sides_before_slash_alternatives(text: str, targets: set[str]) -> None:
    found = _found(text)
    assert {t: found.get(t) for t in targets} == {t: "UL3" for t in targets}, found


def test_ranked_differential_is_the_cue_not_a_target() -> None:
    found = _found(
        "Abnormal opacities most suggestive of pulmonary edema, primary differential diagnosis "
        "includes infection and aspiration."
    )
    assert found == {"pulmonary edema": "UL2", "infection": "UL3", "aspiration": "UL3"}


def test_definite_inside_a_negated_list_is_hedged_absence_of_that_member() -> None:
    # "no A, B or definite C" is "no definite C" for its last member, as the stand-alone form
    # (ha.no_definite; ha.definite_in_negated_list). The tenth session read it as UL1 (4 of 5 tune
    # rows then); with batch 13 the tune half's annotators split 3 / 3 on this template, and the
    # level follows the project's own reading of "no definite" (thirteenth session)
    found = _found("No focal consolidation, suspicious pulmonary opacity, pneumothorax or definite pleural effusion.")
    assert found == {
        "focal consolidation": "UL1",
        "suspicious pulmonary opacity": "UL1",
        "pneumothorax": "UL1",
        "pleural effusion": "HEDGED_ABSENT",
    }, found


@pytest.mark.parametrize(
    "text",
    [
        "No significant change in right pneumothorax or pleural fluid.",
        "No interval change in the left pleural effusion.",
    ],
)
def test_no_significant_change_in_is_a_comparison_not_a_negation(text: str) -> None:
    assert cuelex.extract(text) == []


def test_change_in_a_function_stays_negated() -> None:
    assert _found("No change in vision.") == {"vision": "UL1"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Left basilar airspace opacity atelectasis versus pneumonitis.", {"atelectasis": "UL3", "pneumonitis": "UL3"}),
        ("Bibasilar opacities atelectasis or pneumonia.", {"atelectasis": "UL3", "pneumonia": "UL3"}),
        ("Pleural thickening versus small effusion.", {"Pleural thickening": "UL3", "small effusion": "UL3"}),
    ],
)
def test_alternatives_start_after_a_stated_observation(text: str, expected: dict[str, str]) -> None:
    assert _found(text) == expected
