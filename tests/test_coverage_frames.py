"""Hedge frames found by mining unlabelled reports and notes (benchmark/hedge_coverage.py) that
cuelex left without a pair, with what each rule must not touch. Every sentence is our own wording."""

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
        # a modal or "possibly" in front of a UL2 phrase leaves a possibility (UL3), not UL2
        ("Basilar streaks that may be consistent with atelectasis.", [("atelectasis", "UL3")]),
        ("The effusion could be compatible with heart failure.", [("heart failure", "UL3")]),
        ("Nodular density, possibly compatible with a granuloma.", [("granuloma", "UL3")]),
        ("Lucency might also be consistent with a small pneumothorax.", [("small pneumothorax", "UL3")]),
        # the plain and the strengthened UL2 phrases are untouched
        ("Opacity consistent with pneumonia.", [("pneumonia", "UL2")]),
        ("Findings most consistent with edema.", [("edema", "UL2")]),
    ],
)
def test_modal_before_a_probable_phrase(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Pulmonary hemorrhage would be a consideration given the history.", [("Pulmonary hemorrhage", "UL3")]),
        ("Drug-induced pneumonitis is another consideration.", [("Drug-induced pneumonitis", "UL3")]),
        ("Reticular opacities, with early fibrosis also a possibility.", [("early fibrosis", "UL3")]),
        ("Lymphoma could also be a possibility.", [("Lymphoma", "UL3")]),
        ("Septic emboli are also in the differential.", [("Septic emboli", "UL3")]),
        ("Diagnostic considerations include infection and hemorrhage.", [("infection", "UL3"), ("hemorrhage", "UL3")]),
        # a plan offered as a possibility is no finding; "considering" a plan is no hedge
        ("It would be a consideration to obtain a CT.", []),
        ("Another possibility is to repeat the film in a week.", []),
        ("Considering her age, the heart size is normal.", []),
    ],
)
def test_considerations_and_the_differential(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Volume overload could have this appearance.", [("Volume overload", "UL3")]),
        ("Early consolidation can produce a similar appearance.", [("Early consolidation", "UL3")]),
        ("Pleural thickening might account for these findings.", [("Pleural thickening", "UL3")]),
        # "this appearance" as plain description: nothing to hedge
        ("The mass has this appearance on every prior exam.", []),
    ],
)
def test_a_condition_that_could_look_the_same(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My main concern is for a septic joint.", [("septic joint", "UL3")]),
        ("The concern was that he may have a pulmonary embolus.", [("pulmonary embolus", "UL3")]),
        ("I am worried he has developed a deep vein thrombosis.", [("deep vein thrombosis", "UL3")]),
        ("We are concerned that she is having ongoing bleeding.", [("ongoing bleeding", "UL3")]),
        # the patient's or family's worry, or a worry about a plan, is no hedge on a finding
        ("He is worried that he has gained weight.", []),
        ("His mother's concern is that the medicine is costly.", []),
        ("I am concerned that the pharmacy is closed on weekends.", []),
    ],
)
def test_the_clinicians_concern(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the patient as subject of a condition on the course: the predicate is the target
        ("If he fails to improve, we will get an MRI.", [("If", "fails to improve", "UL5")]),
        ("If she does not improve with therapy, she will call.", [("If", "does not improve", "UL5")]),
        ("If the patient is not better by Monday, repeat the labs.", [("If", "is not better", "UL5")]),
        ("Continue the antibiotic unless he continues to worsen.", [("unless", "continues to worsen", "UL5")]),
        ("If he doesn't get better with rest, call the office.", [("If", "doesn't get better", "UL5")]),
        # telegraphic handoff notes drop the subject
        ("- If fails to improve, consider MRI of the knee", [("If", "fails to improve", "UL5")]),
        ("Recheck Monday; if not improving, start prednisone.", [("if", "not improving", "UL5")]),
        ("If not better in 3 days, return to clinic.", [("If", "not better", "UL5")]),
        # a finding that has not improved (perfect tense) and one that gets more severe
        ("If the knee swelling has not improved, we will aspirate.", [("If", "knee swelling", "UL5")]),
        ("Call sooner if her headaches become more frequent.", [("if", "headaches", "UL5")]),
    ],
)
def test_conditions_on_the_course(text: str, expected: list) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "If it does not improve, call.",  # "it": no named referent
        "If she does not want surgery, we will continue therapy.",  # a preference, not the course
        "If the splint is not comfortable, she may remove it at night.",  # a negation inside a condition
        "She does not improve with rest.",  # no condition: a statement of the course
        "Compare with the outside films if not available today.",  # availability, not the course
        "Continue the brace if not already done.",
    ],
)
def test_conditions_that_are_no_contingency(text: str) -> None:
    assert [p for p in cuelex.extract(text) if p.level.value == "UL5"] == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a decisive qualifier makes a generic head a proposition
        ("IMPRESSION: No acute findings.", [("acute findings", "UL1")]),
        ("No definite acute findings on this film.", [("acute findings", "HEDGED_ABSENT")]),
        ("She reports no new symptoms since the last visit.", [("new symptoms", "UL1")]),
        ("He will call if he has any recurrent symptoms.", [("recurrent symptoms", "UL5")]),
        ("No acute changes are seen in the spine.", [("acute changes", "UL1")]),
        # a generic head alone, or with a descriptive word, stays no target
        ("No findings.", []),
        ("No significant findings.", []),
    ],
)
def test_qualified_generic_heads(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the status of the condition a pronoun stands for, hedged by appears / seems
        ("Type 2 diabetes. This appears to be well controlled on metformin.", [("well controlled", "UL2")]),
        ("Gout. It seems stable since the last flare.", [("stable", "UL2")]),
        ("Asthma. This seems to be under good control.", [("under good control", "UL2")]),
        # a finding compared with a prior study, or the status stated plainly: no pair
        ("The old rib fracture appears stable.", []),
        ("This appears fairly stable compared with the last film.", []),
        ("Wedge deformities which appear stable since the prior study.", []),
        ("Her blood pressure is well controlled.", []),
    ],
)
def test_status_of_a_condition(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a study recommended to show that a finding is stable or old: an evaluation target
        ("Old films would help to establish stability of the nodule.", [("stability of the nodule", "UL5")]),
        ("A three-month follow-up film is advised to confirm stability.", [("stability", "UL5")]),
        ("Outside images could be obtained to determine the chronicity of the fracture.",
         [("chronicity of the fracture", "UL5")]),
        # a passive plan after a modal is no hedge on a finding
        ("The density could be followed up with a repeat film.", []),
        ("This may be further characterized by chest CT.", []),
        ("The nodule has demonstrated stability over two years.", []),
        ("Repeat films to confirm stability and roughly 3 months interval.", [("stability", "UL5")]),
    ],
)
def test_studies_for_stability_and_passive_plans(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a conditional copula between the finding and a backward cue
        ("Pulmonary infarct would be possible in this setting.", [("Pulmonary infarct", "UL3")]),
        ("Empyema would be unlikely with this fluid.", [("Empyema", "HEDGED_ABSENT")]),
        ("Sarcoidosis would also be possible.", [("Sarcoidosis", "UL3")]),
        # a plan or a person before "would be unlikely to": no finding
        ("Surgery would be unlikely to help.", []),
        ("She would be unlikely to tolerate the procedure.", []),
    ],
)
def test_conditional_copula_before_a_backward_cue(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "cue", "target"),
    [
        # the negation that governs "to suggest / to indicate" is the cue of the absent reading
        ("No focal airspace disease to suggest pneumonia.", "No", "pneumonia"),
        ("There is no mediastinal widening to indicate dissection.", "no", "dissection"),
        ("Clear lungs without opacity to suggest aspiration.", "without", "aspiration"),
    ],
)
def test_negation_is_the_cue_of_what_nothing_suggests(text: str, cue: str, target: str) -> None:
    found = {p.target_text: p for p in cuelex.extract(text)}
    p = found[target]
    assert (p.cue_text, p.level.value) == (cue, "UL1")
    assert text[p.cue_start : p.cue_end] == cue
    start = text.index(target)
    a = cuelex.assess(text, [(start, start + len(target))])[0]
    assert a.cue is not None and (a.cue.text, a.cue.start) == (cue, p.cue_start)


def test_plain_suggest_keeps_its_own_cue() -> None:
    p = cuelex.extract("Patchy opacity suggests pneumonia.")[0]
    assert (p.cue_text, p.level.value) == ("suggests", "UL2")
