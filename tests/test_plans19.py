"""UL5 recall and false pairs in plans (issue 12, nineteenth session): the later items of a
contingency (a count of episodes, "or if she has", "and she continues to feel"), the rest of a
differential a workup excludes ("other causes"), and conditions that are no contingency about the
patient (a measured value crossing a number that decides the clinician's next step, a test's bare
result). Sentences are written for these tests, not taken from tune or written documents."""

from __future__ import annotations

import pytest

import cuelex


def pairs_of(text: str) -> set[tuple[str, str]]:
    return {(p.target_text, p.level.value) for p in cuelex.extract(text)}


@pytest.mark.parametrize(
    ("text", "target"),
    [
        # a count of episodes in a contingency list: the count is part of the finding, the rate's time is not
        ("If she has night sweats, a rash, or more than three episodes of vomiting a day, she should call us.",
         "more than three episodes of vomiting"),
        ("Call if he has chills or more than 6 loose stools per day.", "more than 6 loose stools"),
        # a second condition repeated with "or if ... has"
        ("She will come back if the swelling lasts past a week or if she has a new rash.", "new rash"),
        ("We will repeat the scan if the cough lingers or if he has any blood in the sputum.", "blood in the sputum"),
        # a lasting complaint joined to a first condition by "and"
        ("If the thyroid panel is normal and she continues to have palpitations, we will order a monitor.",
         "palpitations"),
        ("If the iron studies are fine and he still feels exhausted, we will look at his sleep.", "exhausted"),
        # the rest of a differential that a workup excludes
        ("We ordered a chest CT to exclude other causes.", "other causes"),
        ("Labs were sent to rule out other etiologies.", "other etiologies"),
    ],
)
def test_later_contingency_items_and_other_causes_are_ul5(text: str, target: str) -> None:
    assert (target, "UL5") in pairs_of(text)


@pytest.mark.parametrize(
    "text",
    [
        # a measured value crossing a number decides the clinician's next step
        "If her sodium stays above 130, we will keep the dose.",
        "If the platelet count drops below 50,000 we will hold the heparin.",
        "If his home readings are consistently over 150/95, I will add a second agent.",
        # a test's bare result
        "If any of the cultures come back positive, I will call him.",
        "If the antibody panel comes back reactive, we will refer her.",
        # questions or problems in general, and an advised limit
        "Call the clinic if the dressing gets wet or if he has any questions before the visit.",
        "Limit beer to no more than two cans a week.",
    ],
)
def test_titration_rules_test_results_and_limits_give_no_pair(text: str) -> None:
    assert not [p for p in cuelex.extract(text) if p.level.value == "UL5" or "more than" in p.target_text], pairs_of(text)


@pytest.mark.parametrize(
    ("text", "target"),
    [
        # the patient's own instruction keeps its threshold and its finding
        ("If her sugars are above 300, she will call.", "sugars"),
        ("She will call for a fever above 100.4.", "fever above 100.4"),
        ("If the pain comes back, she will call.", "pain"),
    ],
)
def test_a_patients_threshold_instruction_stays_ul5(text: str, target: str) -> None:
    assert (target, "UL5") in pairs_of(text)


def test_other_stays_in_a_target() -> None:
    """"other" narrows the finding ("other infection" leaves the named one aside): it stays in the target."""
    assert ("other infection", "UL3") in pairs_of("Findings could represent other infection.")
    assert ("other abnormality", "UL1") in pairs_of("There is no other abnormality.")
    assert not pairs_of("We discussed other options.")


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("This requires evaluation for an inflammatory arthritis such as gout.", {"inflammatory arthritis", "gout"}),
        ("We will check labs to rule out an endocrine cause such as hypothyroidism or Cushing syndrome.",
         {"endocrine cause", "hypothyroidism", "Cushing syndrome"}),
    ],
)
def test_an_example_after_a_workup_target_is_looked_for_too(text: str, targets: set[str]) -> None:
    """ "evaluation for X such as Y": the example named is a workup target as X is."""
    assert {(t, "UL5") for t in targets} <= pairs_of(text)


def test_an_example_after_a_hedge_or_negation_is_left_alone() -> None:
    """Only a workup's example is read (a hedge's or a negation's list keeps its old reading)."""
    assert pairs_of("Possible infection such as cellulitis.") == {("infection", "UL3")}
    assert pairs_of("No risk factors such as smoking.") == {("risk factors", "UL1")}


@pytest.mark.parametrize(
    "text",
    [
        "Stationary cycling if pain-free, otherwise rest.",
        "He may resume tennis once symptom-free.",
        "Referral to allergy to evaluate for possible penicillin desensitization.",
    ],
)
def test_an_activity_condition_or_a_treatment_is_no_workup_target(text: str) -> None:
    assert not pairs_of(text)


def test_cannot_yet_tell_is_indeterminate() -> None:
    assert ("stress fracture", "UL4") in pairs_of("We cannot yet tell whether it is a stress fracture.")
    assert ("cyst", "UL4") in pairs_of("We can't tell yet if this is a cyst.")


@pytest.mark.parametrize(
    ("text", "wanted", "reason"),
    [
        ("Given her risk factors and leg swelling, pulmonary embolism or pneumonia must be excluded.",
         {"pulmonary embolism", "pneumonia"}, {"risk factors", "leg swelling"}),
        ("Because of the weight loss and night sweats, lymphoma or tuberculosis should be excluded.",
         {"lymphoma", "tuberculosis"}, {"weight loss", "night sweats"}),
        ("Given the fevers, endocarditis, abscess, or osteomyelitis must be excluded.",
         {"endocarditis", "abscess", "osteomyelitis"}, {"fevers"}),
    ],
)
def test_a_fronted_reason_is_not_in_a_backward_list(text: str, wanted: set[str], reason: set[str]) -> None:
    """A backward workup cue's list stops at the comma after a fronted "given" / "because of"."""
    targets = {p.target_text for p in cuelex.extract(text)}
    assert wanted <= targets and not reason & targets, targets


def test_a_plain_backward_list_keeps_its_first_item() -> None:
    assert {"Atelectasis", "effusion", "pneumonia"} <= {
        p.target_text for p in cuelex.extract("Atelectasis, effusion or pneumonia cannot be excluded.")
    }
