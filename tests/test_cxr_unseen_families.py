"""Chest X-ray wording families mined from unseen IU reports (issue 12, thirteenth session).

``benchmark/cxr_unseen_families.py`` counts hedge families in the reports that are in neither half
of the real-text set; the families it found without a pair became lexicon and rule data. Every
sentence here is the project's own wording (the IU licence forbids copies), with what each class
must not touch.
"""

from __future__ import annotations

import pytest

import cuelex


def _pairs(text: str) -> dict[str, str]:
    return {p.target_text: p.level.value for p in cuelex.extract(text)}


@pytest.mark.parametrize(
    ("text", "target", "level"),
    [
        # what a finding looks like (ul2.has_appearance_of, ul2.typical_of)
        ("The lateral rib deformity has the appearance of an old healed fracture.", "old healed fracture", "UL2"),
        ("Flattened hemidiaphragms with the appearance of emphysema.", "emphysema", "UL2"),
        ("The consolidation is most typical of lobar pneumonia.", "lobar pneumonia", "UL2"),
        ("Upper lobe predominant nodules characteristic of silicosis.", "silicosis", "UL2"),
        # its negation leans against the reading (ha.not_typical_of)
        ("The nodular opacity is not typical of a granuloma.", "granuloma", "HEDGED_ABSENT"),
    ],
)
def test_mined_family_gives_its_pair(text: str, target: str, level: str) -> None:
    assert _pairs(text).get(target) == level, _pairs(text)


@pytest.mark.parametrize(
    "text",
    [
        # "nonspecific" describes a finding that is there (as "age-indeterminate"): no UL4 pair
        "Nonspecific interstitial prominence at both lung bases.",
        "The left apical pleural thickening is nonspecific.",
        # a description of the study, not a reading
        "Stable appearance of the chest.",
        "Normal appearance of the cardiomediastinal silhouette.",
        # a comparison with the patient's own history
        "Chest pain typical of his prior angina.",
        # the normal-lung word negated: an abnormal film, not an indeterminate one (pseudo.lungs_not_clear)
        "The lungs are not clear.",
        "Lung parenchyma is not clear.",
    ],
)
def test_mined_family_leaves_alone(text: str) -> None:
    assert [p for p in cuelex.extract(text) if p.level.value != "UL1"] == [], _pairs(text)


def test_not_clear_still_reads_an_open_question() -> None:
    """pseudo.lungs_not_clear is only the lungs' own word: an unclear cause stays UL4."""
    assert _pairs("The cause of the right effusion is not clear.") == {"cause of the right effusion": "UL4"}


def test_strength_orders_the_new_cues() -> None:
    """'typical of' sits with 'in keeping with', above 'looks like'; its negation with 'does not look like'."""
    by_rule = {}
    for text in (
        "The consolidation is most typical of lobar pneumonia.",
        "The rib deformity has the appearance of a healing fracture.",
        "The opacity is not typical of pneumonia.",
        "Findings are in keeping with pulmonary edema.",
        "This does not look like pneumonia.",
    ):
        for p in cuelex.extract(text):
            by_rule[p.rule_id] = p.strength
    assert by_rule["ul2.typical_of"] == by_rule["ul2.in_keeping_with"] == 85
    assert by_rule["ul2.has_appearance_of"] == 65
    assert by_rule["ha.not_typical_of"] == by_rule["ha.does_not_appear"] == 22


@pytest.mark.parametrize(
    ("text", "target"),
    [
        # a degree adverb before a state word stays in a negated target (rules/targets.yaml degree_adverbs)
        ("The cardiac silhouette is not significantly enlarged.", "significantly enlarged"),
        ("The superior mediastinum is not markedly widened.", "markedly widened"),
        # ... and is skipped like any verb form elsewhere
        ("She has not really noticed any swelling.", "swelling"),
        # a trailing "evident" / "visible" says where the finding would be seen, not what it is
        ("No focal airspace consolidation evident.", "focal airspace consolidation"),
        ("No displaced rib fracture visible.", "displaced rib fracture"),
    ],
)
def test_negated_target_boundaries(text: str, target: str) -> None:
    assert _pairs(text).get(target) == "UL1", _pairs(text)


def test_definite_inside_a_negated_list_is_hedged_absence() -> None:
    """'No A, B or definite C' reads C as 'no definite C' (ha.definite_in_negated_list); A and B stay UL1."""
    found = _pairs("No focal airspace disease, pneumothorax or definite pleural fluid.")
    assert found == {"focal airspace disease": "UL1", "pneumothorax": "UL1", "pleural fluid": "HEDGED_ABSENT"}
    assert _pairs("No pneumothorax or definite evidence of a rib fracture.")["rib fracture"] == "HEDGED_ABSENT"
    # a new clause after ", and" is no list member
    assert "small right effusion" not in _pairs("No pneumothorax, and definite small right effusion is seen.")
    # "obvious" is not a withheld certainty in the lexicon ("no obvious" is not hedged absence)
    assert _pairs("No displaced fracture or obvious deformity.")["deformity"] == "UL1"


def test_imaging_request_regions_and_conditions_are_no_targets() -> None:
    """A region named by an imaging request, and "no known potential XXXX", name no finding."""
    assert _pairs("Consider XXXX of the abdomen and pelvis with oral contrast.") == {}
    assert _pairs("Proceed only if there is no known potential XXXX.") == {}
    # a finding of the region still is one; "chest" and "thorax" stay UL4 regions
    assert _pairs("Consider a possible neck abscess.") == {"neck abscess": "UL3"}
    assert _pairs("The upper thorax is poorly visualized.") == {"upper thorax": "UL4"}
    assert _pairs("No potential infection at the site.") == {"infection": "UL1"}
