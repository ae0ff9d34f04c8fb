"""Source pairs in written hospital-course, discharge and consult sections (issue 12, twentieth
session): contingency lists written as a label before a colon, an "or" inside a contingency's run
(one UL5 run, not alternatives), a slash or "vs" that names things done together or weighed with
the patient (no differential), negations of an action or a value (no finding), a sentence that ends
in a decimal number. Sentences are written for these tests, not taken from tune or written
documents."""

from __future__ import annotations

import pytest

import cuelex


def pairs_of(text: str) -> set[tuple[str, str]]:
    return {(p.target_text, p.level.value) for p in cuelex.extract(text)}


def levels_of(text: str) -> set[str]:
    return {p.level.value for p in cuelex.extract(text)}


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("Return: temperature over 39, worsening headache, stiff neck.",
         ["temperature over 39", "worsening headache", "stiff neck"]),
        ("Return precautions: black stools, fainting, or vomiting blood.", ["black stools", "fainting"]),
        ("ED if: new chest tightness or fainting.", ["new chest tightness", "fainting"]),
        ("Call for: bleeding through the dressing, calf swelling.", ["bleeding", "calf swelling"]),
        # the label may follow a sentence on the same line, or open a bullet
        ("Home today. Return: rigors, confusion.", ["rigors", "confusion"]),
        ("Dispo home.\n- Return to ED for: facial droop, slurred speech\n", ["facial droop", "slurred speech"]),
    ],
)
def test_contingency_label_colon_makes_every_item_ul5(text: str, targets: list[str]) -> None:
    found = pairs_of(text)
    for target in targets:
        assert (target, "UL5") in found


@pytest.mark.parametrize(
    "text",
    [
        "Return precautions: reviewed with the patient and his wife.",
        "Return: in 3 weeks for suture removal.",
        "Return: 2 weeks.",
    ],
)
def test_contingency_label_naming_no_finding_gives_no_pair(text: str) -> None:
    assert "UL5" not in levels_of(text)


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        # an "or" inside a return instruction's run
        ("Call the ward or come back to the ED for headache, numbness of the face or arm, or double vision.",
         ["headache", "numbness of the face"]),
        ("Call if her sugars run consistently above 350 or below 60.", ["below 60"]),
        # a monitored condition
        ("Keep her on the monitor and call cardiology if long pauses or complete heart block are seen.",
         ["long pauses", "complete heart block"]),
        ("Biopsy if new lesions are noted at the next skin check.", ["new lesions"]),
        # an open bound closes its threshold: one item, not "higher" alone
        ("Call for a temperature of 38.5 or higher.", ["temperature of 38.5 or higher"]),
    ],
)
def test_or_inside_a_contingency_run_stays_ul5(text: str, targets: list[str]) -> None:
    found = pairs_of(text)
    for target in targets:
        assert (target, "UL5") in found
    assert "UL3" not in levels_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "Return for a fever over 38, leg pain not eased by your tablets, redness of the calf or thigh,"
        " or new breathlessness.",
        "Come back for headache at night, pain not relieved with ibuprofen, or vomiting.",
    ],
)
def test_negated_participle_in_a_contingency_run_negates_nothing(text: str) -> None:
    # "not eased by your tablets" says what the tablets do, it negates no finding of the list
    assert "UL1" not in levels_of(text)
    assert ("fever over 38", "UL5") in pairs_of(text) or ("headache", "UL5") in pairs_of(text)


def test_person_seen_in_clinic_is_no_monitored_finding() -> None:
    assert "UL5" not in levels_of("Will adjust the dose if she is seen in clinic next week.")


@pytest.mark.parametrize(
    "text",
    [
        # labs, code status, services and guideline bodies joined by a slash
        "Send ESR/CRP with the next draw.",
        "Code status DNR/DNI per daughter.",
        "Will ask PT/OT to see him before discharge.",
        "Her picture meets ACR/EULAR criteria.",
        "AST/ALT mildly up, trend.",
        "Check a spot urine protein/creatinine ratio.",
        # "vs" between risks, or after a discussion or decision verb: a choice between actions
        "Reviewed fall risk vs benefit of anticoagulation with her son.",
        "We will discuss ablation vs continued medical therapy at the next visit.",
        "Offered steroid injection vs physical therapy.",
        # an open bound is no second reading
        "Use an SPF 50 or greater daily.",
    ],
)
def test_slash_and_vs_between_actions_are_no_alternatives(text: str) -> None:
    assert "UL3" not in levels_of(text)


@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        # a slash or "vs" between readings is still a differential
        ("Opacity, CHF/pneumonia.", [("CHF", "UL3"), ("pneumonia", "UL3")]),
        ("We discussed that this is likely gout vs pseudogout.", [("pseudogout", "UL3")]),
        ("Probable viral bronchitis vs early pneumonia.", [("early pneumonia", "UL3")]),
    ],
)
def test_differentials_stay_alternatives(text: str, pairs: list[tuple[str, str]]) -> None:
    found = pairs_of(text)
    for pair in pairs:
        assert pair in found


@pytest.mark.parametrize(
    "text",
    [
        # an action withheld or its effect: no finding is negated
        "A CT angiogram was not pursued given the low pretest probability.",
        "The stool culture was not sent.",
        "Lipase not checked since admission.",
        "Interrogation: 3 runs of NSVT, no therapies delivered.",
        "55M with no significant PMH presents with cough.",
        # tests named by abbreviation and a test's measurement are plans
        "No CTA was pursued given low risk.",
        "I do not recommend celiac testing.",
        # safety restrictions of a counselling note
        "Counseled: no swimming alone, no bathing in the tub, no heights.",
        "No firearms in the home.",
    ],
)
def test_negated_actions_and_restrictions_give_no_pair(text: str) -> None:
    assert cuelex.extract(text) == [] or "UL1" not in levels_of(text)


@pytest.mark.parametrize(
    ("text", "kept", "dropped"),
    [
        # a value or a graded finding after the comma opens a new statement
        ("Platelets 22K without bleeding, 61K at discharge.", "bleeding", "61K"),
        ("Hemodynamically stable, no chest pain, mild dyspnea.", "chest pain", "mild dyspnea"),
    ],
)
def test_value_or_grade_after_comma_ends_a_negated_list(text: str, kept: str, dropped: str) -> None:
    found = pairs_of(text)
    assert (kept, "UL1") in found
    assert all(target != dropped for target, _ in found)


def test_graded_items_joined_by_or_stay_in_the_list() -> None:
    assert ("mild or moderate pain", "UL1") in pairs_of("No fever, mild or moderate pain.")


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("Confusion likely precipitated by a urinary infection.", "urinary infection"),
        ("Flare probably provoked by the heat wave.", "heat wave"),
    ],
)
def test_hedged_trigger_after_by_is_the_target(text: str, target: str) -> None:
    assert (target, "UL2") in pairs_of(text)


def test_sentence_ending_in_a_decimal_is_cut() -> None:
    found = pairs_of("K 3.9, Phos 2.8. Sepsis is a consideration in this patient.")
    assert ("Sepsis", "UL3") in found
    assert all("2.8" not in target for target, _ in found)
