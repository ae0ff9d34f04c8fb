"""Reading the level of an output mention in workup and problem-line wordings of rewrite batch 17
(issue 11): a finding inside a written condition ("If CT neg + pain persists → ...", "Cough
persists → CXR"), a modal inside a clause a test checks ("to see whether you might have gout"), an
alternative named as a test's purpose ("echo (r/o effusion; pericarditis vs myocarditis)"), a test
"that checks for" a finding, an assessment label line whose body hedges ("**Assessment:** Gout" /
"- Sx c/w gout"), a short disease name in a heading's body ("presentation c/w Lyme"), a second
cause after "and by", a name with a modifier the mention leaves out (", called hepatic
encephalopathy"), an example of a negated head after "that worry us for", and "less likely to have
been". Examples written for these tests."""

from __future__ import annotations

import pytest
import regex
from _helpers import scored_pair

from cuelex.scoring import scorer


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # a finding in a written condition, with symbols
        (
            "If the cough persists after antibiotics, we will get a chest x-ray.",
            "If CXR nl + cough persists after abx → CT chest.",
            "cough",
            "UL5",
        ),
        (
            "If her headaches do not improve, we can consider an MRI.",
            "- Headaches don't improve → consider MRI brain.",
            "headaches",
            "UL5",
        ),
        # a modal inside a clause a test checks: the extraction reads the whole checked clause
        # (ul5.to_determine_if_modal), so source and output sides agree on UL5
        (
            "We will check whether he has a torn meniscus.",
            "We ordered an MRI to see whether you might have a meniscus tear.",
            "torn meniscus",
            "UL5",
        ),
        # a test "that checks for" a finding
        (
            "We will check for diabetes with an A1c.",
            "We will draw some labs, including one that checks for diabetes.",
            "diabetes",
            "UL5",
        ),
        # an assessment label line whose body hedges
        (
            "Her biopsy is consistent with celiac disease.",
            "**Assessment:** Celiac disease\n\n**Key points:**\n- Biopsy c/w celiac; start gluten-free diet\n",
            "celiac disease",
            "UL2",
        ),
        # a second cause after "and by"
        (
            "His dizziness was most likely due to dehydration and orthostatic hypotension.",
            "Your dizziness was most likely caused by the pills you took and by your low blood pressure, "
            "which has been hard to control.",
            "orthostatic hypotension",
            "UL2",
        ),
        # a name given to a conjunct of a hedged cause, with a modifier the mention leaves out
        (
            "His confusion was most likely due to dehydration and encephalopathy.",
            "Your confusion was most likely caused by dehydration along with a problem in your brain "
            "called hepatic encephalopathy.",
            "encephalopathy",
            "UL2",
        ),
        # an example of a negated head, offered by "that worry us for"
        (
            "There is nothing on exam concerning for testicular cancer.",
            "We did not find any signs on your exam that worry us for testicular cancer.",
            "testicular cancer",
            "UL1",
        ),
        # a perfect infinitive after "less likely"
        (
            "I think this is less likely a kidney stone.",
            "Your doctor feels this was less likely to have been a kidney stone.",
            "kidney stone",
            "HEDGED_ABSENT",
        ),
    ],
)
def test_workup_and_problem_line_levels(source: str, output: str, target: str, level: str) -> None:
    p = scored_pair(source, output, target)
    assert p.output_level.value == level, (p.output_level, p.level_source, p.match.text)


@pytest.mark.parametrize(
    ("source", "output", "target"),
    [
        # a stated finding: no condition opener, no course word before an arrow
        ("If the cough persists, we will get a chest x-ray.", "- Cough x 3 days → started on benzonatate.", "cough"),
        # an assessment line whose body states no hedge
        ("Her exam is consistent with gout.", "**Assessment:** Gout\n- Uric acid high; start colchicine\n", "gout"),
        # the same naming with no hedge before it
        (
            "His confusion was most likely due to dehydration and encephalopathy.",
            "Your confusion was caused by dehydration along with a problem in your brain called hepatic "
            "encephalopathy.",
            "encephalopathy",
        ),
        # a stated cause after "and by" with no hedge before it
        (
            "His dizziness was most likely due to dehydration and orthostatic hypotension.",
            "Your dizziness was caused by the pills you took and by your low blood pressure, "
            "which has been hard to control.",
            "orthostatic hypotension",
        ),
    ],
)
def test_look_alikes_stay_asserted(source: str, output: str, target: str) -> None:
    p = scored_pair(source, output, target)
    assert p.output_level.value == "ASSERTED", (p.output_level, p.level_source, p.match.text)


def test_check_and_condition_rows_come_from_the_table() -> None:
    checked, course = scorer._check_patterns()
    for _pattern, example in scorer.output_reading()["check_whether"]:
        assert checked.match(example + " "), example
    assert course.match(" doesn't improve → MRI")
    assert course.match(" persist on PPI -> EGD")
    assert not course.match(" improved → discharge")
    assert regex.search(scorer._alternation("test_before"), "one that checks for", regex.IGNORECASE)


def test_parenthetical_test_purpose_reads_alternatives_as_checks() -> None:
    out = "Plan: echo (r/o effusion; pericarditis vs myocarditis)."
    s = out.index("myocarditis")
    cue = scorer._tested_for(out, s, s + len("myocarditis"))
    assert cue is not None and cue.level.value == "UL5"
    out2 = "Plan: echo (r/o abnormal wall motion, pericarditis vs myocarditis)."
    s2 = out2.index("myocarditis")
    assert scorer._tested_for(out2, s2, s2 + len("myocarditis")) is not None
