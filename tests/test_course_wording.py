"""A UL5 contingency on a course or a test result found in a rewrite's own words (issue 11): "if he fails to
improve" ~ "if no improvement", "if you're not getting better", "if physical therapy doesn't help";
"if her symptoms worsen" ~ "if you feel worse"; "if there are abnormalities" ~ "if abnormal"; each read
as the contingency the condition makes it; the same words outside a condition are not the
contingency, and a contingency that is not said at all stays dropped. The phrase table is
``cuelex/data/course_wording.tsv``. Examples are written for these tests."""

from __future__ import annotations

import pytest
import regex
from _helpers import pair_for

import cuelex
from cuelex.concepts.vocab import VocabularyError
from cuelex.scoring import align
from cuelex.scoring.align import course_condition, course_wording

SOURCE = "Low back sprain. Rest and physical therapy. If he fails to improve, we can consider an MRI."
WORSE = "Viral bronchitis. Rest and fluids. If her symptoms worsen, we will consider an inhaler."
RESULT = "We will obtain a kidney ultrasound today. If there are abnormalities on the kidney ultrasound, we will plan next steps."
SYMPTOMS = "Rotator cuff tendinopathy. Physical therapy for six weeks. If her symptoms do not improve, we can consider an injection."


def test_every_row_matches_its_example() -> None:
    path = align.DATA_DIR / "course_wording.tsv"
    rows = [r for _n, r in align.tsv_rows(path, ("role", "pattern", "example"), "course wording table")]
    assert {role for role, _p, _e in rows} == set(align.COURSE_ROLES)
    flags = regex.V1 | regex.IGNORECASE
    for role, pattern, example in rows:
        assert regex.fullmatch(pattern.replace(" ", r"[ \t]+"), example, flags), (pattern, example)
        assert course_wording()[role].fullmatch(example), example


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("better\tx\tx", "role must be one of"),
        ("worse\t\tworse", "expected a pattern and an example"),
        ("worse\t(?:x\tx", "does not compile"),
        ("worse\t(?:x)?\tx", "matches the empty string"),
    ],
)
def test_bad_row_is_named(tmp_path, monkeypatch: pytest.MonkeyPatch, row: str, message: str) -> None:
    (tmp_path / "course_wording.tsv").write_text(f"# test\nrole\tpattern\texample\n{row}\n", encoding="utf-8")
    monkeypatch.setattr(align, "DATA_DIR", tmp_path)
    course_wording.cache_clear()
    try:
        with pytest.raises(VocabularyError, match=message):
            course_wording()
    finally:
        course_wording.cache_clear()



@pytest.mark.parametrize(
    ("source", "target", "output", "found"),
    [
        (SOURCE, "fails to improve", "- Conservative mgmt: rest, PT.\n- If no improvement → MRI.", "no improvement"),
        (SOURCE, "fails to improve", "If you're not getting better, we'll get an MRI to take a closer look.", "not getting better"),
        (SOURCE, "fails to improve", "Rest and therapy first. If you do not get better, we can think about an MRI.", "do not get better"),
        (SYMPTOMS, "symptoms do not improve", "If your shoulder isn't feeling better after that, a steroid shot is an option.", "isn't feeling better"),
        (SYMPTOMS, "symptoms do not improve", "If physical therapy doesn't help, we'll recommend a cortisone shot.", "doesn't help"),
        (SYMPTOMS, "symptoms do not improve", "PT x 6 wks. Cortisone injection if no improvement with PT.", "no improvement"),
        (WORSE, "symptoms worsen", "Rest and drink fluids. If you feel worse, we will think about an inhaler.", "feel worse"),
        (WORSE, "symptoms worsen", "If things get worse, we may add an inhaler.", "get worse"),
        (RESULT, "abnormalities", "- Renal US today.\n- If abnormal → determine next steps.", "abnormal"),
        (RESULT, "abnormalities", "If we see anything unusual, we'll talk with you about the next steps.", "anything unusual"),
        (RESULT, "abnormalities", "We will do a kidney ultrasound. If it shows any problems, we will plan the next steps.", "shows any problems"),
    ],
)
def test_course_said_in_other_words_is_the_contingency(source: str, target: str, output: str, found: str) -> None:
    p = pair_for(source, output, target)
    assert p.retained and p.match.detail == "course", (output, p.match)
    assert p.match.text == found
    assert p.output_level.value == "UL5", (output, p.output_level, p.output_cue)
    assert p.match.low_confidence is False


@pytest.mark.parametrize(
    "output",
    [
        # the same words as a statement, not a condition: not this contingency
        "You are not getting better yet, so we ordered an MRI.",
        # a condition on something else, its course word too far from the condition
        "If you have any questions about the MRI that we discussed at length today, call; rest is no better.",
        # the contingency is not said at all
        "Rest and physical therapy. We will see you in six weeks.",
    ],
)
def test_course_words_outside_a_condition_are_not_the_contingency(output: str) -> None:
    p = pair_for(SOURCE, output, "fails to improve")
    assert not p.retained or p.match.detail != "course", (output, p.match)


def test_condition_word_is_found_in_its_clause_only() -> None:
    text = "If the pain is bad, rest. Then it is no better."
    assert course_condition(text, text.index("no better")) is None
    text = "Injection if no improvement."
    assert course_condition(text, text.index("no improvement")) == (10, 12)


def test_source_course_targets() -> None:
    (p,) = [q for q in cuelex.extract(SOURCE) if q.target_text == "fails to improve"]
    assert align.course_target(p) == "not_better"
    (q,) = [q for q in cuelex.extract(SYMPTOMS) if q.target_text == "symptoms do not improve"]
    assert align.course_target(q)
    (w,) = [q for q in cuelex.extract(WORSE) if q.target_text == "symptoms worsen"]
    assert align.course_target(w) == "worse"
    (a,) = [q for q in cuelex.extract(RESULT) if q.target_text == "abnormalities"]
    assert align.course_target(a) == "abnormal"
    # a specific finding is found by its own words, not by a course
    other = [r for r in cuelex.extract("Call if the cough persists.") if r.target_text == "cough"]
    assert other and align.course_target(other[0]) is None


@pytest.mark.parametrize(
    "output",
    [
        "If everything looks normal, there is nothing more to do. Call if you have questions.",
        "Her last ultrasound showed something unusual years ago; we will do a new one today.",
    ],
)
def test_a_result_not_under_a_condition_is_not_the_contingency(output: str) -> None:
    p = pair_for(RESULT, output, "abnormalities")
    assert not p.retained or p.match.detail != "course", (output, p.match)
