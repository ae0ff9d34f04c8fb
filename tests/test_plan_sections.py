"""Source pairs in assessment/plan sections (issue 12, ACI-BENCH part): differentials written as
"the differential for X includes", "plus or minus", movements of an examination, habits joined by "or",
family history, contact channels and "does in fact have". Sentences are written for these tests;
the held-out probes of benchmark/plan_probes.py are different sentences."""

from __future__ import annotations

import pytest

import cuelex


def pairs_of(text: str) -> set[tuple[str, str]]:
    return {(p.target_text, p.level.value) for p in cuelex.extract(text)}


def test_differential_for_a_symptom_lists_alternatives() -> None:
    assert pairs_of("The differential for his hip pain includes bursitis and osteoarthritis.") == {
        ("bursitis", "UL3"),
        ("osteoarthritis", "UL3"),
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the earlier cue keeps its own target; the added diagnosis is the new cue's alone
        ("I suspect a panic attack, plus or minus a contribution from reflux.",
         {("panic attack", "UL3"), ("reflux", "UL3")}),
        ("Acute bronchitis +/- reactive airway disease.", {("reactive airway disease", "UL3")}),
        ("Gastritis with or without underlying peptic ulcer disease.", {("peptic ulcer disease", "UL3")}),
        ("She can take the capsule with or without meals.", set()),
    ],
)
def test_plus_or_minus_adds_a_possibility(text: str, expected: set) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("There is no tenderness with flexion or extension of the wrist.", {("tenderness", "UL1")}),
        ("She reports no pain with internal or external rotation of the shoulder.", {("pain", "UL1")}),
        ("No extrathyroidal extension.", {("extrathyroidal extension", "UL1")}),
    ],
)
def test_movements_of_an_examination_are_no_targets(text: str, expected: set) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "He avoids juice and instead drinks sparkling water or iced tea.",
        "Instead she uses naproxen or acetaminophen at night.",
    ],
)
def test_or_after_a_third_person_verb_is_no_alternative(text: str) -> None:
    assert not any(p.level.value == "UL3" for p in cuelex.extract(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("There is no family history of prostate cancer.", {("family history of prostate cancer", "UL1")}),
        # a hedge on one history item does not reach a family history listed beside it
        ("Given his obesity, possible history of asthma, and family history of stroke, I think "
         "this is likely a TIA.", {("asthma", "UL3"), ("TIA", "UL2")}),
    ],
)
def test_family_history_is_its_own_proposition(text: str, expected: set) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("She will contact me via the portal for any palpitations.", {("palpitations", "UL5")}),
        ("He will call me by phone if he has chest pain.", {("chest pain", "UL5")}),
        ("We will draw a titer to determine if she does in fact have measles.", {("measles", "UL5")}),
    ],
)
def test_contact_channels_and_does_in_fact_have(text: str, expected: set) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We will take photos at each visit to monitor the keloid.", {("keloid", "UL5")}),
        ("We will continue to monitor her hypertension.", set()),
        ("We will follow up on his heart murmur next month.", {("heart murmur", "UL5")}),
        ("Given her balance problems she is at risk for falls.", {("falls", "UL5")}),
        ("An ultrasound will be done to make sure there's no gallstone.", {("gallstone", "UL5")}),
        # home measurements, a device and results name no finding
        ("She will monitor her blood sugars twice a day.", set()),
        ("He should continue to monitor his weight at home.", set()),
        ("His Holter monitor showed rare PVCs.", set()),
        ("I will follow up on the results of the CT.", set()),
    ],
)
def test_monitoring_and_follow_up_targets(text: str, expected: set) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Possible obstructive sleep apnea.", {("obstructive sleep apnea", "UL3")}),
        ("A sleep study will be ordered to evaluate for sleep apnea.", {("sleep apnea", "UL5")}),
        ("He has no history of alcohol use disorder.", {("alcohol use disorder", "UL1")}),
    ],
)
def test_compound_nouns_that_start_with_a_verb(text: str, expected: set) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It sounds like she has a trigger finger.", {("trigger finger", "UL2")}),
        ("It sounds like his reflux is well controlled.", set()),
        ("I think he is suffering from seasonal allergies.", {("seasonal allergies", "UL2")}),
        ("I think it's a stress fracture.", {("stress fracture", "UL2")}),
        ("He is felt to have early cellulitis.", {("early cellulitis", "UL2")}),
        ("Our impression is that this is a contact dermatitis.", {("contact dermatitis", "UL2")}),
    ],
)
def test_spoken_impressions_in_plans(text: str, expected: set) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("He was told to go to the ER for any new weakness.", {("new weakness", "UL5")}),
        ("We will get a CT to see if there's an abscess.", {("abscess", "UL5")}),
        # a test or a treatment as the subject of the condition names no finding
        ("If the blood work comes back abnormal, we will call her.", set()),
        ("She will go to the emergency room if the inhaler is not effective.", set()),
    ],
)
def test_emergency_instructions_and_test_purposes(text: str, expected: set) -> None:
    assert pairs_of(text) == expected
