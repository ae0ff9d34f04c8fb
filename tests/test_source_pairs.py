"""Source pairs a clinician would sign off on (issue 12): each class of error with invented examples."""

from __future__ import annotations

import pytest

import cuelex
from cuelex import Level


def pairs_of(text: str) -> list[tuple[str, str]]:
    return [(p.target_text, p.level.value) for p in cuelex.extract(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # decisive qualifiers stay in the target
        ("No evidence of metastatic carcinoma.", [("metastatic carcinoma", "UL1")]),
        ("No active disease.", [("active disease", "UL1")]),
        ("No acute rib fractures.", [("acute rib fractures", "UL1")]),
        ("No new consolidation.", [("new consolidation", "UL1")]),
        # coordination does not split at adjectives: the modifiers share the head
        (
            "No acute alveolar or interstitial infiltrates.",
            [("acute alveolar or interstitial infiltrates", "UL1")],
        ),
        (
            "Probable left midlung and left basilar atelectasis.",
            [("left midlung and left basilar atelectasis", "UL2")],
        ),
        (
            "No acute or active cardiac, pulmonary or pleural disease.",
            [("acute or active cardiac, pulmonary or pleural disease", "UL1")],
        ),
        ("No pneumothorax or large pleural effusion.", [("pneumothorax", "UL1"), ("large pleural effusion", "UL1")]),
        # non-clinical targets give no pair
        ("Bone scan may be informative.", []),
        ("A CT may be helpful.", []),
        ("Surgery was not guaranteed.", []),
        ("Possible surgical intervention.", []),
        ("Probably benzos.", []),
        ("If there is high clinical concern, consider dedicated rib views.", []),
        ("I do not think we need to do any more work up.", []),
        ("This medication may cause drowsiness.", []),
        # scope
        (
            "This does not look like an acute infiltrate, and more likely represents a granuloma.",
            [("acute infiltrate", "HEDGED_ABSENT"), ("granuloma", "UL2")],
        ),
        ("CXR w/o focal consolidation or effusion.", [("focal consolidation", "UL1"), ("effusion", "UL1")]),
        ("The fracture does not appear to be healing.", []),
        (
            "Hilar fullness consistent with adenopathy and bilateral interstitial opacities.",
            [("adenopathy", "UL2")],
        ),
        ("Findings compatible with known diagnosis of sarcoidosis.", []),
        ("Dizziness and weakness of unclear etiology.", []),
        # levels
        ("Overlying soft tissue limits evaluation for an effusion.", [("effusion", "UL4")]),
        (
            "If continued clinical concern for rib fracture, dedicated rib films are recommended.",
            [("rib fracture", "UL5")],
        ),
        ("Age-indeterminate compression deformity of T8.", []),
        # missing cues
        (
            "The lungs are grossly clear of focal airspace disease, pneumothorax, or pleural effusion.",
            [("focal airspace disease", "UL1"), ("pneumothorax", "UL1"), ("pleural effusion", "UL1")],
        ),
        ("There is right basilar scarring or atelectasis.", [("right basilar scarring", "UL3"), ("atelectasis", "UL3")]),
        (
            "Findings may represent malignancy or malignancy with postobstructive pneumonia.",
            [("malignancy", "UL3"), ("malignancy with postobstructive pneumonia", "UL3")],
        ),
        (
            "Cardiomegaly with mild bibasilar infiltrates versus atelectasis.",
            [("mild bibasilar infiltrates", "UL3"), ("atelectasis", "UL3")],
        ),
        ("Left lower lobe nodule of uncertain identity.", [("Left lower lobe nodule", "UL4")]),
        ("Please correlate clinically for pneumonia.", [("pneumonia", "UL5")]),
        ("I believe she has a lumbar strain.", [("lumbar strain", "UL2")]),
        ("She may apply ice and heat to the area.", []),
        # slash alternatives, but not units
        (
            "Minimal bibasilar atelectasis/airspace disease.",
            [("Minimal bibasilar atelectasis", "UL3"), ("airspace disease", "UL3")],
        ),
        ("Heart rate 80 beats/min.", []),
        # no cue or relation fragments inside targets (issue 11, item 5)
        ("Anemia, likely 2/2 CKD.", [("CKD", "UL2")]),
        ("Dyspnea, c/f PNA.", [("PNA", "UL3")]),
        ("RLL opacity c/w PNA.", [("PNA", "UL2")]),
        ("Anemia likely w/ iron deficiency.", [("iron deficiency", "UL2")]),
        ("No h/o PE.", [("PE", "UL1")]),
        # wording that says nothing about the finding is not part of the target
        ("No visible pneumothorax.", [("pneumothorax", "UL1")]),
        ("Some element of coronary artery disease is possible.", [("coronary artery disease", "UL3")]),
        ("Colonoscopy to assess for potential sources of anemia.", [("sources of anemia", "UL5")]),
        ("No overt edema.", [("overt edema", "UL1")]),
        # plan and action wording gives no pair; a hedge right before a relation keeps its target
        ("The patient does not check his blood sugar at home.", []),
        ("Crestor may be contributing to his elevated liver enzymes.", []),
        ("A urine culture to rule out any need for antibiotics.", []),
        ("If still symptomatic, consider a referral possibly for injections.", []),
        ("Possible etiologies of her chest pain include GERD.", []),
        (
            "I explained that his symptoms are most likely due to rotator cuff tendinopathy.",
            [("rotator cuff tendinopathy", "UL2")],
        ),
    ],
)
def test_source_pairs(text, expected):
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Return if fever develops.", [("fever", "UL5")]),
        ("Call for chest pain or shortness of breath.", [("chest pain", "UL5"), ("shortness of breath", "UL5")]),
        (
            "Return to the ED if she develops nausea, vomiting, fevers or chills.",
            [("nausea", "UL5"), ("vomiting", "UL5"), ("fevers", "UL5"), ("chills", "UL5")],
        ),
        ("Call your doctor if you have fever.", [("fever", "UL5")]),
        ("Seek immediate medical attention if you develop chest pain.", [("chest pain", "UL5")]),
        ("Should she develop hemoptysis, bronchoscopy is indicated.", [("hemoptysis", "UL5")]),
        ("Monitor for signs of bleeding.", [("bleeding", "UL5")]),
        # a plan conditioned on how a present finding evolves: whether it persists is open
        ("If the rash worsens, we will start prednisone.", [("rash", "UL5")]),
        ("Follow up in three weeks if the pain persists.", [("pain", "UL5")]),
        ("Report any elevated blood pressures.", [("elevated blood pressures", "UL5")]),
    ],
)
def test_future_contingencies_are_ul5(text, expected):
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Drink plenty of fluids and avoid alcohol.",
        "She returned for follow-up of her hypertension.",
        "Patient presents with chest pain.",  # a present complaint, not a contingency
        "Patient will return for follow-up in 2 weeks.",
    ],
)
def test_general_advice_and_history_give_no_contingency(text):
    assert not [p for p in cuelex.extract(text) if p.level is Level.UL5]
