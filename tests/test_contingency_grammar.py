"""Future contingencies, monitoring and workup targets by grammar (issue 12), with what they must
not touch. Every sentence is our own wording, in clinician and radiologist styles."""

from __future__ import annotations

import pytest

import cuelex


def pairs_of(text: str) -> list[tuple[str, str, str]]:
    return [(p.cue_text, p.target_text, p.level.value) for p in cuelex.extract(text)]


def targets_of(text: str) -> list[tuple[str, str]]:
    return [(p.target_text, p.level.value) for p in cuelex.extract(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a condition on how a present finding changes: the conditional word is the cue, whatever
        # verb (plain, lay, contracted, perfect) states the change
        ("If the lesion grows on follow-up, biopsy is recommended.", [("If", "lesion", "UL5")]),
        ("Should the nodule grow on the next scan, a biopsy will be arranged.", [("Should", "nodule", "UL5")]),
        ("If her cough doesn't go away, call the office.", [("If", "cough", "UL5")]),
        ("If your rash comes back, restart the cream.", [("If", "rash", "UL5")]),
        ("If his back pain hasn't improved by then, we will get an MRI.", [("If", "back pain", "UL5")]),
        ("He will call us if the swelling increases.", [("call us if", "swelling", "UL5")]),
    ],
)
def test_condition_on_a_change(text: str, expected: list) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the patient as subject of an onset: becomes, develops, unless ...
        ("If she becomes febrile, blood cultures should be drawn.", [("febrile", "UL5")]),
        ("If he becomes short of breath, he should call 911.", [("short of breath", "UL5")]),
        ("Should he become hypoxic overnight, start oxygen.", [("hypoxic", "UL5")]),
        ("Unless she develops a fever, no antibiotics are needed.", [("fever", "UL5")]),
        # a fronted condition ends at the comma that opens the instruction
        ("If she develops a fever, draw blood cultures.", [("fever", "UL5")]),
        ("If febrile, obtain a chest film.", [("febrile", "UL5")]),
        ("If he has chest pain, give nitroglycerin.", [("chest pain", "UL5")]),
        # ... but a list inside the condition stays a list
        (
            "If she develops fever, chills, or night sweats, call the clinic.",
            [("fever", "UL5"), ("chills", "UL5"), ("night sweats", "UL5")],
        ),
    ],
)
def test_onset_conditionals(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # return precautions and calls with their triggers
        (
            "Return precautions were reviewed for fever, vomiting, or worsening pain.",
            [("fever", "UL5"), ("vomiting", "UL5"), ("worsening pain", "UL5")],
        ),
        ("Strict ED precautions given for any chest pain.", [("chest pain", "UL5")]),
        ("Please call the clinic with any fevers or chills.", [("fevers", "UL5"), ("chills", "UL5")]),
        ("She was told to notify nursing staff for any palpitations.", [("palpitations", "UL5")]),
        # monitoring, observation and testing targets
        ("We will monitor her closely for any recurrence of seizures.", [("seizures", "UL5")]),
        ("He will be observed for signs of alcohol withdrawal.", [("alcohol withdrawal", "UL5")]),
        ("Watch carefully for signs of bleeding.", [("bleeding", "UL5")]),
        ("We will test her for Lyme disease.", [("Lyme disease", "UL5")]),
        ("He is being worked up for lupus.", [("lupus", "UL5")]),
    ],
)
def test_instructions_and_monitoring(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # general advice, plans, permissions and facts: no pair
        "Drink plenty of fluids and rest.",
        "If you have any questions, please call the office.",
        "Call with any questions.",
        "Return precautions discussed with the family.",
        "Return in three months for follow-up.",
        "He returned for a follow-up visit.",
        "She was monitored for two hours after the injection.",
        "If he becomes interested in surgery, we will refer him.",
        "She may also ice the knee after activity.",
        "He may shower tomorrow but should not submerge the incision.",
        "You can resume your normal diet.",
        "No antibiotics are needed at this time.",
        "We will not start insulin yet.",
        "No heavy lifting for two weeks.",
        "If he tolerates the medication, we will increase the dose.",
    ],
)
def test_not_touched(text: str) -> None:
    assert pairs_of(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # hedges a person states about a finding stay cues; a medication can be a cause
        ("She may have a small effusion.", [("small effusion", "UL3")]),
        ("They may represent granulomas.", [("granulomas", "UL3")]),
        ("Leukocytosis is probably due to steroids.", [("steroids", "UL2")]),
        # a tested result is not a workup target
        ("She tested negative for influenza.", [("influenza", "UL1")]),
    ],
)
def test_still_hedged(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # indeterminate: the study or the writer cannot decide
        ("Nondiagnostic evaluation for pulmonary embolism owing to motion.", [("pulmonary embolism", "UL4")]),
        ("The portable film is limited for detection of a small pneumothorax.", [("small pneumothorax", "UL4")]),
        ("Equivocal findings for early appendicitis.", [("early appendicitis", "UL4")]),
        ("It is not clear if he has a tear of the meniscus.", [("tear of the meniscus", "UL4")]),
        ("The nature of the right hilar density is uncertain.", [("right hilar density", "UL4")]),
        # leaning toward absence through a stance verb
        ("Pneumonia is felt to be unlikely given the normal white count.", [("Pneumonia", "HEDGED_ABSENT")]),
        ("A stress fracture was thought to be less likely.", [("stress fracture", "HEDGED_ABSENT")]),
        # a named diagnosis and an unknown cause are not indeterminate readings
        ("History of borderline personality disorder, depression and anxiety.", []),
        ("We do not know the exact cause of her pancreatitis.", []),
        ("The significance of this finding is uncertain.", []),
    ],
)
def test_indeterminate_and_hedged_absence(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The previously seen right apical pneumothorax has resolved.", "right apical pneumothorax"),
        ("Interval resolution of the left basilar consolidation.", "left basilar consolidation"),
        ("There has been complete resolution of the pulmonary edema.", "pulmonary edema"),
        ("Her hives resolved after the antihistamine.", "hives"),
    ],
)
def test_resolved_is_absent_now_and_was_present(text: str, expected: str) -> None:
    (p,) = cuelex.extract(text)
    assert (p.target_text, p.level.value) == (expected, "UL1")
    assert p.modifiers == ("ctx.resolved_was_present",)


@pytest.mark.parametrize(
    "text",
    [
        "The effusion has partially resolved.",
        "Partial resolution of the right effusion.",
        "His cough has not yet resolved.",
    ],
)
def test_not_resolved_stays_present(text: str) -> None:
    assert pairs_of(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a follow-up study to document that a finding goes away: a follow-up target (UL5), not absence
        ("Follow-up film to document resolution of the pneumonia.", "pneumonia"),
        ("A repeat radiograph will confirm complete resolution of the lower lobe infiltrate.", "lower lobe infiltrate"),
    ],
)
def test_resolution_purpose_is_a_follow_up_target(text: str, expected: str) -> None:
    (p,) = cuelex.extract(text)
    assert (p.target_text, p.level.value) == (expected, "UL5")
    assert p.modifiers == ()


def test_never_present_has_no_resolution_modifier() -> None:
    (p,) = cuelex.extract("No pneumothorax.")
    assert p.modifiers == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a plan conditioned on what a pending study will show
        ("If the x-ray shows a fracture, we will refer her to orthopedics.", [("fracture", "UL5")]),
        ("Should the MRI reveal a meniscal tear, arthroscopy is an option.", [("meniscal tear", "UL5")]),
        ("If she shows signs of infection, call the office.", [("infection", "UL5")]),
        # a finding read as the sign of a diagnosis
        ("Calcified hilar nodes indicate prior granulomatous infection.", [("prior granulomatous infection", "UL2")]),
        ("She indicates that she has knee pain.", []),
        ("No interstitial edema to indicate heart failure.", [("interstitial edema", "UL1"), ("heart failure", "UL1")]),
        ("The outside report indicates a diagnosis of lymphoma.", []),
        # the writer's judgement against a finding, not about a plan
        ("I do not think this is a fracture.", [("fracture", "HEDGED_ABSENT")]),
        ("I don't believe she has a hernia.", [("hernia", "HEDGED_ABSENT")]),
        ("I do not think we need to repeat the scan.", []),
        # "without" takes the same evidence qualifiers as "no"
        (
            "Stable cardiomegaly without gross evidence for edema or effusion.",
            [("edema", "UL1"), ("effusion", "UL1")],
        ),
    ],
)
def test_results_signs_and_judgements(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "target", "level", "strength"),
    [
        ("A stress fracture is highly unlikely.", "stress fracture", "HEDGED_ABSENT", 5.0),
        ("I think it is exceedingly unlikely that this is a tumor.", "tumor", "HEDGED_ABSENT", 5.0),
        ("Very likely viral pharyngitis.", "viral pharyngitis", "UL2", 89.5),
        ("The swelling is more likely than not a hematoma.", "hematoma", "UL2", 60.0),
    ],
)
def test_intensified_and_even_odds_hedges(text: str, target: str, level: str, strength: float) -> None:
    (p,) = cuelex.extract(text)
    assert (p.target_text, p.level.value, p.strength) == (target, level, strength)
