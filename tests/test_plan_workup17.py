"""Workup and cause grammar of plans dictated after a visit (issue 12, seventeenth session): the
patient as the object of a workup verb ("evaluate you for", "check you for", "test your blood
for"), the verb "work up" with a determiner in any tense, a purpose clause with a contracted or
demonstrative subject ("to make sure you're not", "to see if you're", "to find out whether it's",
"to make sure this hasn't turned into"), "sounds like" before a bare noun, "get checked for", "we'll reassess the", the organ after "damage
to", a spoken origin, small amount, reassurance or naming after a hedge ("likely coming from", "a bit
of", "probably just", "what we call", "I suspect it's"), spoken confidence ("I'm fairly sure"),
"classic for", and a treatment
blamed by a hedged cause ("likely related to her new medication"). Sentences are written for these
tests; the held-out probes of benchmark/data/plan_probes17.jsonl are different sentences."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import cuelex

ROOT = Path(__file__).resolve().parents[1]


def pairs_of(text: str) -> set[tuple[str, str]]:
    return {(p.target_text, p.level.value) for p in cuelex.extract(text)}


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("Neurology will evaluate you for multiple sclerosis.", "multiple sclerosis"),
        ("I would like to check you for an iron deficiency.", "iron deficiency"),
        ("We will screen you for hepatitis C today.", "hepatitis C"),
        ("The lab will test his urine for protein.", "protein"),
        ("Over the next month we will work up the unexplained weight loss.", "unexplained weight loss"),
        ("We are still working up these recurrent fevers.", "recurrent fevers"),
        ("We will check a blood count to make sure you're not anemic.", "anemic"),
        ("A repeat film in two weeks to make sure this hasn't turned into a pneumonia.", "pneumonia"),
        ("A swallow study will help us figure out if he's aspirating.", "aspirating"),
        ("We will biopsy the lesion to find out whether it's a basal cell carcinoma.", "basal cell carcinoma"),
        ("We will get a PET scan to check for spread to the lymph nodes.", "spread to the lymph nodes"),
        ("Eye exam every year to check for damage to the optic nerve.", "damage to the optic nerve"),
        ("He should see a dermatologist to get checked for skin cancer.", "skin cancer"),
        ("We'll reassess the tinea at your next visit.", "tinea"),
    ],
)
def test_a_dictated_workup_target_is_ul5(text: str, target: str) -> None:
    assert (target, "UL5") in pairs_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "Slowly work up to using it every night.",
        "We will work up the dose of gabapentin over two weeks.",
        "We will call you to see if you're doing better on the new dose.",
        "I'll check to see if it's covered by your insurance.",
        "Make sure that is not a problem for your insurance.",
        "We'll recheck your blood pressure next time.",
    ],
)
def test_a_workup_verb_with_no_finding_gives_no_pair(text: str) -> None:
    assert pairs_of(text) == set()


@pytest.mark.parametrize(
    ("text", "target", "level"),
    [
        ("Overall this sounds like trigeminal neuralgia.", "trigeminal neuralgia", "UL2"),
        ("The heel pain is most likely coming from plantar fasciitis.", "plantar fasciitis", "UL2"),
        ("The knee pain is likely stemming from a patellar tendinopathy.", "patellar tendinopathy", "UL2"),
        ("Probably a bit of bursitis in that shoulder.", "bursitis", "UL2"),
        ("The ankle swelling is likely caused by her new medication.", "new medication", "UL2"),
        ("His dry cough could be related to the blood pressure pills.", "blood pressure pills", "UL3"),
        ("The headaches are probably a side effect of the hormone therapy.",
         "side effect of the hormone therapy", "UL2"),
        ("The sore throat is probably just a virus.", "virus", "UL2"),
        ("Her hand pain is most consistent with what we call De Quervain tenosynovitis.",
         "De Quervain tenosynovitis", "UL2"),
        ("I suspect it's a flare of her psoriasis.", "flare of her psoriasis", "UL3"),
        ("The rash along the belt line is classic for contact dermatitis.", "contact dermatitis", "UL2"),
        ("I'm fairly sure this is a Baker's cyst.", "Baker's cyst", "UL2"),
    ],
)
def test_a_spoken_impression_or_a_hedged_cause_keeps_its_target(text: str, target: str, level: str) -> None:
    assert (target, level) in pairs_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "That sounds like it is getting better.",
        "It sounds like the new brace helped.",
        "It sounds like things are improving.",
        "That sounds like a good plan.",
        "Continue the medication as prescribed.",
        "She will likely benefit from therapy.",
        "We will likely need surgery in the spring.",
        "It's probably nothing serious.",
    ],
)
def test_a_course_a_plan_or_a_treatment_without_a_cause_link_gives_no_pair(text: str) -> None:
    assert pairs_of(text) == set()


def test_damage_to_a_purpose_is_not_an_organ() -> None:
    """"damage to prevent healing": "to" starts a purpose, so the target stops at "damage"."""
    assert ("damage", "UL5") in pairs_of("We will do an x-ray to make sure there is no damage to prevent healing.")


def test_held_out_plan_probes17_hold_their_measured_floor() -> None:
    """plan_probes17.jsonl was written before this session's rules (86 of 97 right at 0710bef); the
    rules of this session bring it to 91 of 97."""
    sys.path.insert(0, str(ROOT / "benchmark"))
    import plan_probes

    probes = plan_probes.load(ROOT / "benchmark" / "data" / "plan_probes17.jsonl")
    assert len(probes) == 97
    right = sum(not plan_probes.check(p) for p in probes)
    assert right >= 90


@pytest.mark.parametrize(
    "text",
    [
        "If you feel up to it, walk for twenty minutes after dinner.",
        "Call us if your daughter has any questions about the dressing.",
        "We will watch for adherence to the low salt diet.",
        "If there is any delay with the prior authorization, call the office.",
        "If he is still having trouble, we will change the plan.",
    ],
)
def test_logistics_and_people_after_a_contingency_give_no_pair(text: str) -> None:
    """A visit's logistics and the people around the patient name no finding of the patient."""
    assert pairs_of(text) == set()


def test_trouble_with_a_function_stays_a_finding() -> None:
    assert ("trouble swallowing", "UL5") in pairs_of("If she has trouble swallowing, she should come in.")


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("Be sure to tell us if you see any pus around the stitches.", "pus"),
        ("If you see signs of infection around the drain, call us.", "infection"),
    ],
)
def test_an_instruction_to_tell_us_of_a_sign_is_a_contingency(text: str, target: str) -> None:
    """"to tell us if you see any X" asks the patient to report an onset (a contingency, UL5); only
    "tell us if you have X" after a test asks the test a question (lay.will_tell_whether)."""
    assert (target, "UL5") in pairs_of(text)


def test_seeing_a_doctor_is_no_onset() -> None:
    assert pairs_of("If she sees the cardiologist next week, send him the notes.") == set()


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("She will weigh herself daily and notify us if these begin to go up.", "these begin to go up"),
        ("Keep a log of your blood pressures and call me if they keep going up.", "keep going up"),
    ],
)
def test_a_rise_of_the_values_the_patient_measures_is_the_contingency(text: str, target: str) -> None:
    """A plural pronoun after "if" standing for home measurements: their rise is the UL5 target."""
    assert (target, "UL5") in pairs_of(text)


def test_a_pronoun_without_a_rise_is_no_measured_value() -> None:
    assert pairs_of("Call us if they have any questions about the forms.") == set()

