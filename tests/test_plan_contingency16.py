"""Patient-specific future contingencies in plans dictated to the patient (issue 12, sixteenth
session): contracted onsets ("if you're still having"), a second onset after "or", a fronted
"Any X, call us" list, "notify me of any", "if there's any"; follow-up and workup verbs ("so we
can recheck the rash", "to see if you've developed"); and target boundaries of contingencies (a
substance in a specimen, a threshold after a finding, a procedure a return visit is booked for).
Sentences are written for these tests; the held-out probes of
benchmark/data/plan_probes16.jsonl are different sentences."""

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
        ("If you're still having night sweats in two weeks, we will get a chest film.", "night sweats"),
        ("If he's developed a cough by then, he should call us.", "cough"),
        ("Stop the cream if she breaks out in blisters.", "blisters"),
        ("If the swelling spreads or you notice any fever, come in right away.", "fever"),
        ("Any vomiting or confusion, you need to go to the emergency room.", "vomiting"),
        ("Any vomiting or confusion, you need to go to the emergency room.", "confusion"),
        ("Please notify us of any bleeding after the procedure.", "bleeding"),
        ("If there's any drainage from the wound, she will call.", "drainage"),
        ("We'll draw a ferritin to see if she's developed iron deficiency.", "iron deficiency"),
        ("Come back in one week so we can recheck the cellulitis.", "cellulitis"),
    ],
)
def test_a_dictated_contingency_or_follow_up_target_is_ul5(text: str, target: str) -> None:
    assert (target, "UL5") in pairs_of(text)


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("If she sees any blood in her stools, she should call us.", "blood in her stools"),
        ("Call if you see any pus in the urine.", "pus in the urine"),
        ("She will call for a fever above 100.4.", "fever above 100.4"),
        ("Call for any blood sugars greater than 350.", "blood sugars greater than 350"),
    ],
)
def test_a_specimen_or_a_threshold_stays_in_the_contingency_target(text: str, target: str) -> None:
    assert (target, "UL5") in pairs_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "Any questions, please call the office.",
        "If you're still interested in the injection, we can schedule it.",
        "If the store is closed or you get home late, take it in the morning.",
        "Please let us know of any problems with the pharmacy.",
        "He will come back in a week for removal of the stitches.",
        "She will return next month for cauterization.",
        "Come back in two weeks so we can recheck your blood pressure.",
    ],
)
def test_a_plan_or_a_non_clinical_condition_gives_no_ul5_pair(text: str) -> None:
    assert not any(level == "UL5" for _, level in pairs_of(text))


def test_a_threshold_without_a_number_still_cuts_the_target() -> None:
    """"over" before a place is a preposition, not a threshold: the target stops before it."""
    assert ("swelling", "UL5") in pairs_of("Call us if there is swelling over the incision.")


def test_held_out_plan_probes16_hold_their_measured_floor() -> None:
    """plan_probes16.jsonl was written before this session's rules (46 of 56 right at 92155f6 once
    a banned phrase was corrected); the rules of this session bring it to 56 of 56."""
    sys.path.insert(0, str(ROOT / "benchmark"))
    import plan_probes

    probes = plan_probes.load(ROOT / "benchmark" / "data" / "plan_probes16.jsonl")
    assert len(probes) == 56
    right = sum(not plan_probes.check(p) for p in probes)
    assert right >= 54


def test_a_number_of_days_after_over_is_a_time_not_a_threshold() -> None:
    """"headaches over 2 weeks" says how long, not how severe: the target stops before "over"."""
    assert ("headaches", "UL5") in pairs_of("Call if she has headaches over 2 weeks.")


@pytest.mark.parametrize(
    ("text", "finding", "instruction"),
    [
        ("Should he have any vomiting, please let us know.", "vomiting", "let us know"),
        ("If she notices any wheezing, let me know that day.", "wheezing", "let me know"),
        ("If you develop hives, kindly stop the tablets.", "hives", "tablets"),
    ],
)
def test_the_instruction_after_a_fronted_condition_is_no_second_target(
    text: str, finding: str, instruction: str
) -> None:
    pairs = cuelex.extract(text)
    assert any(p.target_text == finding and p.level.value == "UL5" for p in pairs)
    assert not any(instruction in p.target_text for p in pairs)
