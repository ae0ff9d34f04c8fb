"""Wording classes of dictated assessment-and-plan sections (issue 12, eighteenth session), found
by grouping the errors of the written split: mechanical and duration course verbs of a contingency
("if the knee buckles", "if it lasts longer than", "if the wound has not closed") and a pronoun's
return ("if this recurs", "if it stays elevated"), a state adjective ("if he is vitamin D deficient"), an onset verb said again ("if he develops a
fever or has chills"), a treatment's gain not had ("if she does not
have any improvement", "if he has not had a response"), "other possibilities include", a diagnosis named
"the main concern", and "we do not yet know whether"; and
the non-findings that gave false pairs (receptor status with a hyphen, adherence "consistent with
her insulin", a treatment after "possible", reflexive pronouns, permissions, restricted activities,
a plan's manner or duration, organs as the object of an order's purpose). Every sentence here is
written for these tests, none is copied from a written plan or a tune document."""

from __future__ import annotations

import pytest

import cuelex


def pairs_of(text: str) -> set[tuple[str, str]]:
    return {(p.target_text, p.level.value) for p in cuelex.extract(text)}


@pytest.mark.parametrize(
    ("text", "target", "level"),
    [
        # course verbs of a joint, and a duration, in a condition: UL5 for the finding
        ("If her ankle gives way on the stairs again, she should call the office.", "ankle gives way", "UL5"),
        ("Let me know if his knee buckles while he is walking.", "knee buckles", "UL5"),
        ("Call us if the finger locks up again.", "finger locks up", "UL5"),
        ("If the headache lasts longer than a day, go to the emergency room.", "headache lasts longer", "UL5"),
        # a wound that has not closed, as one that has not healed
        ("If the wound has not closed by Friday, call us.", "wound", "UL5"),
        ("If the incision has not closed in two weeks, we will see her sooner.", "incision", "UL5"),
        # a treatment's gain said with "have", "see" or "had" in a condition: the course is the target
        ("If he does not get much improvement with the splint, we will try an injection.", "does not get much improvement", "UL5"),
        ("If she has not had a good response after two cycles, we will switch agents.", "has not had a good response", "UL5"),
        ("If she does not have any improvement in a month, we will refer her.", "does not have any improvement", "UL5"),
        # a clinical state of the patient named by an adjective in a condition
        ("If he is vitamin D deficient, we will start a supplement.", "vitamin D deficient", "UL5"),
        ("If she turns out to be anemic, we will check iron studies.", "anemic", "UL5"),
        # a condition's onset verb said again before a later item
        ("If he develops a fever or has chills, he should call us.", "chills", "UL5"),
        ("If she has blood clots or is unable to void, she should go to the emergency room.", "unable to void", "UL5"),
        ("Call us if she develops chest pain or is short of breath.", "short of breath", "UL5"),
        ("If he gets a headache or has blurred vision, he will stop the drug.", "blurred vision", "UL5"),
        # "the main concern": a diagnosis named as the leading possibility (as "is a concern")
        ("Septic arthritis is the main concern, so we will tap the joint today.", "Septic arthritis", "UL3"),
        ("Pulmonary embolism remains our leading concern.", "Pulmonary embolism", "UL3"),
        # a further list of diagnoses after the leading one
        ("Other possibilities include viral myocarditis and sarcoidosis.", "sarcoidosis", "UL3"),
        ("Other considerations include lupus, a drug reaction, and vasculitis.", "lupus", "UL3"),
        # a return or a lasting abnormality said of a pronoun in a condition: the course is the target
        ("If it stays elevated on the repeat draw, we will refer her to hematology.", "it stays elevated", "UL5"),
        ("If this recurs after the steroid taper, she will call.", "this recurs", "UL5"),
        ("If these come back, we will freeze them again.", "these come back", "UL5"),
        # the clinician says the question is still open
        ("We told her that we do not yet know whether the lymphoma has relapsed.", "lymphoma", "UL4"),
        # an organ with a finding word stays a target
        ("The bladder wall is thickened, possibly from cystitis.", "cystitis", "UL3"),
        ("Possible kidney stone.", "kidney stone", "UL3"),
        ("Rule out meniscus tear.", "meniscus tear", "UL5"),
    ],
)
def test_a_written_plan_wording_gives_its_pair(text: str, target: str, level: str) -> None:
    assert (target, level) in pairs_of(text)


@pytest.mark.parametrize(
    "text",
    [
        # receptor status written with a hyphen or a dash names the tumour's type
        "She has ER-positive, HER2-negative ductal carcinoma of the right breast.",
        "A hormone receptor–negative tumor was found on the core biopsy.",
        # adherence to a regimen, not a reading
        "She admits she has not been consistent with her insulin since the move.",
        "He has been more consistent with his exercises this month.",
        # a treatment after "possible" is a plan
        "She was sent to allergy for possible penicillin desensitization.",
        "He should be seen within a day for possible steroids.",
        # a reflexive pronoun, a permission, a confirmation, an activity restricted
        "He was told not to drive himself home after the sedation.",
        "The nicotine patch is not contraindicated in her case.",
        "A ligament injury has not been confirmed.",
        "No jogging for six weeks.",
        # a plan's manner or duration
        "Care will probably be conservative with a brace.",
        "Her recovery will likely be slower given her age.",
        "Therapy will probably be lifelong.",
        "We talked about the possibility of overtreatment with screening.",
        "Iron can be taken by tablet or supplement.",
        "Whether he needs a second course of therapy afterward is uncertain.",
        # relief from a treatment, or a condition about coverage, names no finding
        "If she does not have relief from the heat packs, she can add naproxen.",
        "If she does not have insurance coverage, we will use the generic.",
        "If she is able to stop drinking, her liver tests should improve.",
        # an ordinal standing for a test
        "We will draw a second set of cultures if the first is negative.",
        # a later item of a condition that names no finding
        "If she has any questions or is otherwise worried, she should call.",
        # a condition on a pronoun without a course names no finding
        "If it is covered by her insurance, we will start the injection.",
        # a lab named by its test after "recheck", a workup, a candidacy
        "We will recheck his ferritin and CBC after the infusion.",
        "I doubt more workup is needed.",
        "We will talk about implant candidacy at the next visit.",
        # an organ as the object of an order's purpose
        "A renal ultrasound was ordered to assess the kidneys and bladder.",
        "An MRI is planned to evaluate the menisci.",
        "A barium swallow has been ordered to evaluate the esophagus.",
    ],
)
def test_a_non_finding_of_a_written_plan_gives_no_pair(text: str) -> None:
    assert pairs_of(text) == set()


def test_a_timing_after_a_negation_is_no_target() -> None:
    pairs = pairs_of("Measles is unlikely given no rash and the timing.")
    assert ("Measles", "HEDGED_ABSENT") in pairs
    assert not any(t == "timing" for t, _ in pairs)

