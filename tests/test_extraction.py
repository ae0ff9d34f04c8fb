"""Behaviour of cue–target extraction: directions, scope, coordination, pseudo-cues, conflicts."""

from __future__ import annotations

import pytest
from _helpers import level_of, pairs_of

import cuelex
from cuelex import Level


def targets(text: str) -> dict[str, str]:
    return {t: lv for _, t, lv in pairs_of(text)}


# --- direction -------------------------------------------------------------------------------


def test_forward_cue():
    assert targets("There is no evidence of pulmonary embolism.") == {"pulmonary embolism": "UL1"}


def test_backward_cue():
    assert targets("Pulmonary embolism cannot be excluded.") == {"Pulmonary embolism": "UL3"}


def test_backward_cue_with_copula_and_modifiers():
    assert targets("The 5 mm nodule in the right upper lobe is indeterminate.") == {
        "5 mm nodule": "UL4"
    }


def test_either_direction_cue_both_ways():
    assert targets("Likely pneumonia.") == {"pneumonia": "UL2"}
    assert targets("Pneumonia is likely.") == {"Pneumonia": "UL2"}


def test_question_mark_both_ways():
    assert targets("Indication: ? PE.") == {"PE": "UL5"}
    assert targets("Indication: ?PE") == {"PE": "UL5"}
    assert targets("Reason for exam: pneumonia?") == {"pneumonia": "UL5"}


def test_paper_example_sentence():
    text = (
        "Limited evaluation due to suboptimal contrast timing; no large central filling defect is seen, "
        "but pulmonary embolism cannot be excluded."
    )
    got = targets(text)
    assert got["pulmonary embolism"] == "UL3"
    assert got["large central filling defect"] == "UL1"


# --- coordination ----------------------------------------------------------------------------


def test_coordination_split_under_negation():
    assert targets("No pleural effusion, pneumothorax, or focal consolidation.") == {
        "pleural effusion": "UL1",
        "pneumothorax": "UL1",
        "focal consolidation": "UL1",
    }


def test_coordination_backward():
    assert targets("Effusion and pneumothorax are not seen.") == {
        "Effusion": "UL1",
        "pneumothorax": "UL1",
    }


def test_negative_for_coordination_paper_example():
    assert targets("Negative for PE or pneumonia.") == {"PE": "UL1", "pneumonia": "UL1"}


def test_denies_list_with_prepositional_tail():
    assert targets("She denies any chest pain, shortness of breath, or swelling in her legs.") == {
        "chest pain": "UL1",
        "shortness of breath": "UL1",
        "swelling": "UL1",
    }


def test_clause_after_and_is_not_a_conjunct():
    assert targets("No fever and she is eating well.") == {"fever": "UL1"}


# --- alternatives ----------------------------------------------------------------------------


def test_bare_alternatives_are_possible():
    assert targets("Right basilar opacity, atelectasis or pneumonia.") == {
        "atelectasis": "UL3",
        "pneumonia": "UL3",
    }


def test_versus_alternatives():
    assert targets("Atelectasis versus pneumonia.") == {"Atelectasis": "UL3", "pneumonia": "UL3"}


def test_probable_alternatives_capped_at_possible():
    got = cuelex.extract("Likely atelectasis or pneumonia.")
    assert {p.target_text: p.level for p in got} == {
        "atelectasis": Level.UL3,
        "pneumonia": Level.UL3,
    }
    assert all(p.cue_level is Level.UL2 for p in got)


def test_negation_governs_alternatives():
    assert targets("No effusion or pneumothorax.") == {"effusion": "UL1", "pneumothorax": "UL1"}


def test_evaluation_target_alternatives_stay_ul5():
    assert targets("Evaluate for PE or pneumonia.") == {"PE": "UL5", "pneumonia": "UL5"}


# --- terminators and pseudo-cues -------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Likely atelectasis, although pneumonia is present.",
        "Likely atelectasis; pneumonia is present.",
        "Likely atelectasis but pneumonia is present.",
        "Likely atelectasis, however pneumonia is present.",
    ],
)
def test_terminators_end_scope(text):
    assert level_of(text, "atelectasis") == "UL2"
    assert level_of(text, "pneumonia") == "ASSERTED"


@pytest.mark.parametrize(
    "text",
    [
        "No change in the small left pleural effusion.",
        "No increase in size of the right lower lobe nodule.",
        "No further episodes of chest pain were reported.",
        "Blood cultures grew gram negative rods.",
        "She tolerated the procedure without difficulty.",
    ],
)
def test_pseudo_cues_do_not_fire(text):
    assert pairs_of(text) == []


def test_not_only_is_pseudo():
    assert all(c.lower() != "not" for c, _, _ in pairs_of("Not only pneumonia but also sepsis."))


# --- conflicts and context -------------------------------------------------------------------


def test_longest_cue_wins():
    assert targets("This does not exclude pneumonia.") == {"pneumonia": "UL3"}
    assert targets("PE cannot be ruled out.") == {"PE": "UL3"}
    assert targets("PE was ruled out.") == {"PE": "UL1"}


def test_possible_is_ul3_by_default_and_ul5_under_evaluation():
    assert targets("Possible right lower lobe pneumonia.") == {"right lower lobe pneumonia": "UL3"}
    got = cuelex.extract("CTA chest to evaluate for possible pulmonary embolism.")
    assert [(p.target_text, p.level) for p in got] == [("pulmonary embolism", Level.UL5)]
    assert "ctx.possible_after_evaluation" in got[0].modifiers


def test_could_be_ul3():
    assert targets("This could be pneumonia.") == {"pneumonia": "UL3"}


# --- hedged absence --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("Pneumonia is unlikely.", "Pneumonia"),
        ("Infection is less likely.", "Infection"),
        ("Low suspicion for pulmonary embolism.", "pulmonary embolism"),
        ("I doubt pneumonia.", "pneumonia"),
        ("Malignancy is not favored.", "Malignancy"),
    ],
)
def test_hedged_absence_is_never_asserted_nor_ul1(text, target):
    assert targets(text) == {target: "HEDGED_ABSENT"}
    assert level_of(text, target) == "HEDGED_ABSENT"


# --- records and offsets ---------------------------------------------------------------------


def test_offsets_index_the_text_exactly():
    text = "IMPRESSION:\n1. Possible RLL pneumonia.\n2. No effusion; PE cannot be excluded."
    for p in cuelex.extract(text, doc_id="d1"):
        assert text[p.cue_start : p.cue_end] == p.cue_text
        assert text[p.target_start : p.target_end] == p.target_text
        assert text[p.sentence_start : p.sentence_end] == p.sentence
        assert p.doc_id == "d1"


def test_empty_text_gives_no_pairs():
    assert cuelex.extract("") == []
    assert cuelex.extract("   \n\n ") == []


def test_wrong_type_is_a_clear_error():
    with pytest.raises(TypeError, match="text must be a str"):
        cuelex.extract(b"no pneumonia")  # type: ignore[arg-type]


# --- rules added from the development sets ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "target", "expected"),
    [
        ("Neither pneumothorax nor pleural effusion is present.", "pleural effusion", "UL1"),
        (
            "Likely atelectasis at the left base, and a small left pleural effusion is present.",
            "pleural effusion",
            "ASSERTED",
        ),
        (
            "Doppler evaluation for deep venous thrombosis is negative.",
            "deep venous thrombosis",
            "UL1",
        ),
        ("No focal consolidation to suggest pneumonia.", "pneumonia", "UL1"),
        ("No evidence of progression of the metastatic disease.", "metastatic disease", "ASSERTED"),
        (
            "New consolidation in the left lower lobe, not seen on the prior study.",
            "consolidation",
            "ASSERTED",
        ),
        ("Pericardial effusion: None.", "Pericardial effusion", "UL1"),
        ("Splenomegaly is not appreciated.", "Splenomegaly", "UL1"),
        (
            "Either atelectasis or early pneumonia could account for the opacity.",
            "early pneumonia",
            "UL3",
        ),
        ("Atelectasis is more likely than pneumonia.", "pneumonia", "UL3"),
        ("Scar cannot be differentiated from recurrent tumor.", "Scar", "UL3"),
        ("In general, no change in vision, diplopia or change in hearing.", "diplopia", "UL1"),
        ("His nausea and vomiting resolved.", "nausea", "UL1"),
    ],
)
def test_development_set_rules(text, target, expected):
    assert level_of(text, target) == expected


def test_adjective_conjunct_shares_the_head_noun():
    assert targets("No mediastinal or hilar lymphadenopathy.") == {
        "mediastinal or hilar lymphadenopathy": "UL1"
    }


def test_list_goes_on_after_a_prepositional_phrase():
    assert targets("No effusion in the left lung or pneumothorax.") == {
        "effusion": "UL1",
        "pneumothorax": "UL1",
    }


def test_contrast_technique_is_not_a_negation():
    assert pairs_of("CT HEAD WITHOUT CONTRAST") == []
