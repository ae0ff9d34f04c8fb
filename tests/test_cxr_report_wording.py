"""Chest X-ray report wording of the twelfth session (issue 12): the place a finding is hedged to be
in, "positional" as a hedged reading, "appears to be present", "rather than", "not well
demonstrated", "as well as possible X", and a test name ending a contingency target."""

from __future__ import annotations

import pytest

import cuelex


def _pairs(text: str) -> dict[str, str]:
    return {p.target_text: p.level.value for p in cuelex.extract(text)}


@pytest.mark.parametrize(
    ("text", "target", "level"),
    [
        # a hedge on where a finding or device is (rules/targets.yaml located_prepositions)
        ("Small nodular density on the lateral view, possibly within the right lower lobe.", "right lower lobe", "UL3"),
        ("The catheter tip may be in the superior vena cava.", "superior vena cava", "UL3"),
        ("Airspace disease on the lateral view, probably within the left lower lobe.", "left lower lobe", "UL2"),
        ("A tiny density possibly in a piriform sinus only seen on the lateral view.", "piriform sinus", "UL3"),
        # a trailing "most" opens the next hedge ("most suggestive of"), it is not in the target
        ("Rounded opacity in the left midlung, probably pneumonia most suggestive of aspiration.", "pneumonia", "UL2"),
        # "positional" is an alternative reading, as "artifact" is
        ("Mild levoconvex curvature of the lumbar spine, possibly positional.", "positional", "UL3"),
        # backward "appears to be present" (lexicons/ul2_probable.yaml ul2.appears_present)
        ("Mild hyperinflation appears to be present.", "Mild hyperinflation", "UL2"),
        # "rather than" ends the target: the reading after it is the one the author disfavours
        ("Left basilar opacity, probably scarring rather than infection.", "scarring", "UL2"),
        # UL4 "not well demonstrated"
        ("The known left clavicle fracture is not well demonstrated on this study.", "known left clavicle fracture", "UL4"),
        # the coordinator "as well as" before a hedge is not the phrase "as well as possible"
        ("Large hiatal hernia containing stomach as well as possible colon.", "colon", "UL3"),
        # "dedicated" opens a test name: the contingency target ends before it
        ("If further concern for rib fractures dedicated rib films would better evaluate.", "rib fractures", "UL5"),
    ],
)
def test_reading(text: str, target: str, level: str) -> None:
    assert _pairs(text).get(target) == level, _pairs(text)


@pytest.mark.parametrize(
    "text",
    [
        "Increased opacity, possibly in the setting of aspiration.",  # a frame, not a place
        "The effusion may be in part loculated.",
        "Findings may be in the interim related to edema.",
        "Symptoms likely in 2 weeks.",
        "In general, the patient appears to be in mild distress.",  # "appears to be in": a description
        "There is a lucency that appears to be in the right hemidiaphragm.",
        "Her pain was controlled as well as possible.",  # pseudo.as_possible at a clause end
        "Consider dedicated rib views.",
        "The opacity does not appear to be present on the lateral view.",
    ],
)
def test_no_hedged_pair(text: str) -> None:
    hedged = {t: lv for t, lv in _pairs(text).items() if lv in {"UL2", "UL3", "UL4", "UL5"}}
    assert not hedged, hedged


def test_rather_than_does_not_pair_the_disfavoured_reading() -> None:
    pairs = _pairs("Right basilar opacity, likely atelectasis rather than pneumonia.")
    assert pairs.get("atelectasis") == "UL2" and "pneumonia" not in pairs, pairs


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("No significant hilar adenopathy.", "significant hilar adenopathy"),
        ("No significant pleural effusion or pneumothorax.", "significant pleural effusion"),
    ],
)
def test_significant_stays_in_a_negated_target(text: str, target: str) -> None:
    """'significant' decides the truth of "no significant X" (an insignificant X may be there), so it
    stays in the target as 'acute' and 'large' do (issue 12: decisive qualifiers)."""
    assert _pairs(text).get(target) == "UL1", _pairs(text)


def test_the_next_list_number_is_not_in_the_target() -> None:
    """An inline numbered impression whose item lost its full stop: "2" numbers the next item."""
    text = "IMPRESSION: 1. Cardiomegaly, question small right pleural effusion 2. Clear lungs."
    assert _pairs(text).get("small right pleural effusion") == "UL3", _pairs(text)
    assert _pairs("Possible Mobitz type 2.").get("Mobitz type 2") == "UL3"  # no "1." before it
