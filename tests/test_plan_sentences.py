"""Hedged pairs that generalise (issue 12): plan-sentence structure, purpose clauses, conditionals,
hedged absence, and what is not a target in assessment/plan sections. Examples are our own wording."""

from __future__ import annotations

import pytest

import cuelex
from cuelex import Level


def pairs_of(text: str) -> list[tuple[str, str, str]]:
    return [(p.cue_text, p.target_text, p.level.value) for p in cuelex.extract(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a conditional on how the patient's symptoms evolve: the bare word "symptoms" names no
        # finding, so the change of course is part of the target (Engine._course_of_generic)
        (
            "If his symptoms do not improve, we will consider a steroid injection.",
            [("If", "symptoms do not improve", "UL5")],
        ),
        # contracted and lay forms of the change keep the conditional word as the cue
        ("If her symptoms don't get better in a week, she will call.", [("If", "symptoms don't get better", "UL5")]),
        (
            "If her knee pain doesn't improve with bracing, we will order an MRI.",
            [("If", "knee pain", "UL5")],
        ),
        ("If the pain is not better in two weeks, she will return.", [("If", "pain", "UL5")]),
        ("If your cough gets worse, call the office.", [("If", "cough", "UL5")]),
        ("We will repeat the ultrasound yearly unless new symptoms develop.", [("unless", "new symptoms", "UL5")]),
        # the generic word "symptoms" stays no target elsewhere
        ("We reviewed her symptoms today.", []),
        # a negation inside a condition is still no absence
        ("An injection was discussed if physical therapy does not reduce her pain.", []),
    ],
)
def test_conditionals_on_change(text: str, expected: list) -> None:
    assert pairs_of(text) == expected


def test_evaluation_phrase_is_the_cue_of_a_possible_target() -> None:
    (p,) = cuelex.extract("We will get an MRI to evaluate for a possible labral tear.")
    assert (p.cue_text, p.target_text, p.level) == ("to evaluate for", "labral tear", Level.UL5)
    assert p.modifiers == ("ctx.possible_after_evaluation",)
    assert p.strength == 50


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the example after a word that names no finding is the target
        (
            "A renal ultrasound was ordered to rule out any issues such as renal artery stenosis.",
            [("rule out", "renal artery stenosis", "UL5")],
        ),
        ("No issues including fever or chills.", [("No", "fever", "UL1"), ("No", "chills", "UL1")]),
        # a plan headed before "of" is no target
        ("She will most likely require surgery of the right ankle.", []),
        ("There is no treatment of the wart planned.", []),
        # a bare qualifier is no target
        ("The murmur would be more consistent with moderate.", []),
        # an action withheld is adherence, not an absent finding
        ("He admits to not checking his sugars at home.", []),
        ("She is not taking her inhaler.", []),
        ("She has not noticed any blood in the stool.", [("not", "blood in the stool", "UL1")]),
        # actions offered as alternatives are a plan, not a differential
        ("We will either raise the dose or admit him.", []),
        ("Either gout or pseudogout.", [("Either", "gout", "UL3"), ("Either", "pseudogout", "UL3")]),
        # the clinician's own call is no contingency
        ("I will call her surgeon for clearance should an operation be needed.", []),
        ("Call the office if you develop a fever.", [("Call the office if you develop", "fever", "UL5")]),
        # statements about certainty or candidacy
        ("There was no way to confirm it without a biopsy.", []),
        ("He is not a candidate for a valve replacement.", []),
    ],
)
def test_plan_sentences(text: str, expected: list) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("No definite pneumothorax.", [("No definite", "pneumothorax", "HEDGED_ABSENT")]),
        (
            "No definitive effusion or consolidation.",
            [("No definitive", "effusion", "HEDGED_ABSENT"), ("No definitive", "consolidation", "HEDGED_ABSENT")],
        ),
        ("No clear evidence of fracture.", [("No clear evidence of", "fracture", "HEDGED_ABSENT")]),
        ("No gross evidence of fracture.", [("No gross evidence of", "fracture", "UL1")]),
        ("No definite change in the nodule.", []),
        ("No pneumothorax.", [("No", "pneumothorax", "UL1")]),
    ],
)
def test_no_definite_is_hedged_absence(text: str, expected: list) -> None:
    assert pairs_of(text) == expected


def test_no_definite_sits_below_the_surveyed_hedged_absence_words() -> None:
    (nd,) = cuelex.extract("No definite effusion.")
    (unlikely,) = cuelex.extract("Effusion is unlikely.")
    (no,) = cuelex.extract("No effusion.")
    assert no.strength < nd.strength < unlikely.strength


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I am concerned about a septic joint.", [("I am concerned about", "septic joint", "UL3")]),
        ("She is concerned about her weight.", []),
        ("I am worried about the swelling in his calf.", []),
        ("His presentation is similar to a cluster headache.", [("presentation is similar to", "cluster headache", "UL2")]),
        ("The opacity is similar to prior.", []),
        ("She is at high risk for falls.", [("is at high risk for", "falls", "UL5")]),
        ("The risks of the procedure include infection.", []),
        ("A small nodule of uncertain origin.", [("of uncertain origin", "small nodule", "UL4")]),
        ("Fatigue of uncertain origin.", []),
        ("Further rib fractures cannot completely be excluded.", [("cannot completely be excluded", "rib fractures", "UL3")]),
    ],
)
def test_new_cues(text: str, expected: list) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a procedure or test name is a plan, not a finding
        ("If the stone has not passed, we can consider lithotripsy.", []),
        ("We may consider a laparoscopic cholecystectomy.", []),
        # a past procedure is part of the patient's state
        ("Pneumobilia, which may be related to prior sphincterotomy.", [("may be related to", "prior sphincterotomy", "UL3")]),
        # the hedge on a named reading falls on what follows the copula
        ("The most likely cause of her cough is postnasal drip.", [("The most likely cause of her cough is", "postnasal drip", "UL2")]),
        # care providers and medications are no findings
        ("He denies any blood thinners.", []),
        ("Monitoring will follow the plan set by either his nephrologist or his primary care provider.", []),
        ("She does not appear related to signs of a stroke.", [("does not appear", "stroke", "HEDGED_ABSENT")]),
        ("She has not had any seizures lately.", [("not", "seizures", "UL1")]),
    ],
)
def test_plans_and_readings(text: str, expected: list) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a clause-taking cue ("I believe", "I suspect", "I think that"): the predicate is the target
        (
            "I believe her numbness is secondary to carpal tunnel syndrome.",
            [("I believe", "carpal tunnel syndrome", "UL2")],
        ),
        ("I suspect his cough is due to postnasal drip.", [("I suspect", "postnasal drip", "UL3")]),
        # the subject is not the target, and the next cue decides
        ("I suspect his back pain is likely a disc herniation.", [("likely", "disc herniation", "UL2")]),
        # a relative clause is not the predicate
        ("I suspect a fracture that was missed on the film.", [("I suspect", "fracture", "UL3")]),
        ("I believe she has a lumbar strain.", [("I believe she has a", "lumbar strain", "UL2")]),
        # a finding the study may hide is indeterminate
        ("Overlying ribs could obscure a small nodule.", [("could obscure", "small nodule", "UL4")]),
        ("The chin obscures the lung apices.", []),
    ],
)
def test_clause_complements_and_hidden_findings(text: str, expected: list) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The tics do not appear to be bothering Maria.", []),
        ("This may be attributing to her mood.", []),
        ("Dietary factors could be involved.", []),
        ("He might be experiencing reflux.", [("might be", "reflux", "UL3")]),
        ("No increasing effusion.", [("No", "increasing effusion", "UL1")]),
    ],
)
def test_verbs_are_not_targets(text: str, expected: list) -> None:
    assert pairs_of(text) == expected
