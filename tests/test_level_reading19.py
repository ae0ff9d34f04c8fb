"""Reading the level of an output mention as the writers of rewrite batch 19 wrote it (session 19,
issue 11): I-PASS handoffs and British GP letters write a contingency or a differential once and run
its items inline ("If new numbness, slurred speech, or a droop → 911", "Advised A&E attendance for
fever, rash or neck stiffness", "Other possible causes include X, Y and Z", "Go to A&E if you:" over
bullets, "Safety-netted re …"), and write results and checks in compact form ("RF negative",
"to make sure the ACL is not torn", "cannot be r/o"). Every item of a run takes the run's level, not
only the first one the extraction reads; and the look-alikes stay as they are. The examples are
written for these tests, not taken from the rewrite set."""

from __future__ import annotations

import pytest
from _helpers import scored_pair

import cuelex
from cuelex.scoring import scorer


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # a written condition's run of items: every item, not only the one after "If"
        ("If he has new numbness, slurred speech or a facial droop, he will call 911.",
         "**Contingency:** If new numbness, slurred speech, or a facial droop → call 911.", "slurred speech", "UL5"),
        ("If he has new numbness, slurred speech or a facial droop, he will call 911.",
         "**Contingency:** If new numbness, slurred speech, or a facial droop → call 911.", "facial droop", "UL5"),
        ("If she has a fever, a stiff neck or a rash, she should go to the ER.",
         "If fever, a stiff neck, or a rash, go to the ER.", "stiff neck", "UL5"),
        # a condition written after its consequence, its run of clauses up to the sentence end
        ("If he develops a worsening cough, a fever, or blood in his sputum, he will call.",
         "Phone the clinic if your cough gets worse, you have a fever, or you cough up blood.", "fever", "UL5"),
        ("If he develops black stools, a racing heart, or chest pain, he will go to the emergency room.",
         "Go to A&E if you notice that your stools are black, your heart is racing, or you have chest pain.",
         "chest pain", "UL5"),
        # a lead-in phrase of the same clause over the run of items
        ("If she develops a high fever, a spreading rash, or neck stiffness, she will go to the emergency room.",
         "- Advised ED attendance for high fever, spreading rash or neck stiffness.", "neck stiffness", "UL5"),
        ("Other possibilities include sarcoidosis, lymphoma and tuberculosis.",
         "- Other possible causes include sarcoidosis, lymphoma and tuberculosis.", "lymphoma", "UL3"),
        ("If he develops increasing pain, warmth, or discharge, he will call the office.",
         "- To call with increasing pain, warmth or discharge.", "warmth", "UL5"),
        # a label with its colon inside a paragraph line
        ("Other possibilities include sarcoidosis, lymphoma, and tuberculosis.",
         "Cough for 3 months. Sarcoid is the main concern. Other possibilities: lymphoma, tuberculosis. CT booked.",
         "tuberculosis", "UL3"),
        # a British safety-netting lead-in: a label, a heading, or "Go to A&E if you:" over bullets
        ("Return if he develops a rash or a sore throat.",
         "- Safety-netted re rash, sore throat. Review in 2/52.", "sore throat", "UL5"),
        ("She will go to the emergency room if she feels faint or has chest pain.",
         "Safety-netting\nGo to A&E if you:\n- feel faint\n- have chest pain\n", "chest pain", "UL5"),
        # a short condition after its consequence, ending the sentence
        ("Start insulin if further weight loss occurs.", "- Start insulin if further weight loss.", "weight loss", "UL5"),
        # a parenthetical inside the condition, and a colon after it
        ("Rule out a large tear.",
         "If the scan shows a large (full-thickness) tear, we will discuss surgery.", "large tear", "UL5"),
        ("If pneumonia is confirmed, start antibiotics.", "- If pneumonia confirmed: amoxicillin 5 days.", "pneumonia", "UL5"),
        # a compact negative result
        ("Rheumatoid factor is negative.", "Rheumatoid factor negative, CRP 12.", "Rheumatoid factor", "UL1"),
        ("Rheumatoid factor is negative.", "Sore throat. Rheumatoid factor –ve; treat symptomatically.", "Rheumatoid factor", "UL1"),
        ("Her anxiety screen was negative.", "- Anxiety screen neg. Sleep hygiene advice.", "anxiety screen", "UL1"),
        # a check clause
        ("MRI to confirm that the ACL is intact.", "We will do an MRI to make sure the ACL is not torn.", "ACL", "UL5"),
        ("MRI to confirm that the ACL is intact.", "- MRI knee to look at the cartilage and confirm ACL intact.", "ACL", "UL5"),
        ("Rule out an ankle sprain.", "- An ultrasound to see how bad the ankle sprain is.", "ankle sprain", "UL5"),
        # a compact "cannot be ruled out"
        ("Appendicitis cannot be ruled out.", "RLQ pain; appendicitis cannot be r/o.", "Appendicitis", "UL3"),
    ],
)
def test_batch19_wordings(source: str, output: str, target: str, level: str) -> None:
    p = scored_pair(source, output, target)
    assert p.output_level is not None and p.output_level.value == level, (output, p.output_level, p.level_source)


@pytest.mark.parametrize(
    ("source", "output", "target"),
    [
        # the mention inside an item, after a preposition: not an item of the run
        ("Possible wrist injury.", "Take paracetamol if you have pain from the wrist injury.", "wrist injury"),
        # a new clause after "and" in a run that is not a condition
        ("Possible cough.", "We tested for flu, and you have a cough that will settle.", "cough"),
        # the consequence of a condition is no part of it
        ("Possible ankle swelling.", "If the pain worsens, rest and raise the leg for the ankle swelling.", "ankle swelling"),
        # "make sure" said of a finding that is there (only a negated state is checked for)
        ("Possible cellulitis.", "Your doctor wants to make sure the cellulitis clears up, so finish the tablets.",
         "cellulitis"),
        # a positive result, and a result of a test for another finding
        ("Possible rheumatoid arthritis.", "Rheumatoid arthritis positive, CRP 12.", "rheumatoid arthritis"),
    ],
)
def test_batch19_look_alikes_stay_asserted(source: str, output: str, target: str) -> None:
    p = scored_pair(source, output, target)
    assert p.output_level is not None and p.output_level.value == "ASSERTED", (output, p.output_level, p.level_source)


def test_negative_for_gives_no_compact_result() -> None:
    text = "CT negative for PE."
    assert scorer._negative_result(text, text.index(" negative")) is None
    text = "Lachman –ve, drawer firm."
    cue = scorer._negative_result(text, text.index(" –ve"))
    assert cue is not None and cue.text == "–ve"


@pytest.mark.parametrize(
    "text",
    [
        "**Contingency:** If new numbness, slurred speech, or a facial droop → call 911.",
        "Phone the clinic if your cough gets worse, you have a fever, or you cough up blood.",
        "- Advised ED attendance for high fever, spreading rash or neck stiffness.",
        "- Other possible causes include sarcoidosis, lymphoma and tuberculosis.",
        "Safety-netting\nGo to A&E if you:\n- feel faint\n- have chest pain\n",
        "Rheumatoid factor negative, CRP 12. Appendicitis cannot be r/o.",
    ],
)
def test_batch19_text_scored_against_itself_is_preserved(text: str) -> None:
    r = cuelex.score(text, text, n_boot=0)
    assert all(p.fate == "preserved" for p in r.pairs), [(p.source.target_text, p.fate, p.level_source) for p in r.pairs]
