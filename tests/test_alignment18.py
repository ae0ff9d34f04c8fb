"""Alignment of rewrite batch 18 (issue 11, task 113): where SOAP-style summaries, portal messages and
5th-grade revisions keep a source target in other words. A problem title ("**#2 Glomerulonephritis**")
does not end the search when the body says the target in shorthand ("c/f GN"); problem-list
shorthand (PFPS, GN, sz, med-related, bilat, R/L before a word, a capital abbreviation's plural "BPs");
a rising course under a condition ("call if your weight keeps going up", "call if ↑"); a possessive
inside an of-phrase; an organ named as where a problem comes from; a place phrase chained after a
lay organ ("the cushions between the bones in your back"). Sentences are written for these tests
(no tune document text)."""

from __future__ import annotations

import pytest
from _helpers import pair_for

from cuelex.scoring.align import Aligner, _parts_candidates, label_at, normal_words

ALIGNER = Aligner()


def _found(target: str, output: str) -> str | None:
    m = ALIGNER.find(target, output)
    return None if m is None else output[m.start : m.end]


# -- a label does not end the search -----------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "output", "body"),
    [
        ("glomerulonephritis", "**#2 Glomerulonephritis**\n- Urine protein up; biopsy to look for GN.\n", "GN"),
        ("patellofemoral pain syndrome", "**Patellofemoral pain syndrome**\n- Exam fits PFPS; start PT.\n", "PFPS"),
        ("seizures", "**#3 Epilepsy**\n- No sz since the last visit.\n", "sz"),
        ("kidney stones", "**#1 Kidney stones** – third episode\n- Likely passed the stones already.\n", "stones"),
    ],
)
def test_a_title_gives_way_to_the_body_saying_the_target_in_shorthand(target: str, output: str, body: str) -> None:
    got = _found(target, output)
    assert got is not None and got.endswith(body), (target, got)


@pytest.mark.parametrize(
    ("target", "output"),
    [
        ("glomerulonephritis", "**#2 Glomerulonephritis**\n- Biopsy scheduled for next week.\n"),
        ("kidney stones", "**#1 Kidney stones** – third episode\n- Fluids and a strainer; urology referral.\n"),
    ],
)
def test_a_title_is_still_found_when_the_body_never_names_the_target(target: str, output: str) -> None:
    m = ALIGNER.find(target, output)
    assert m is not None and m.start < output.index("\n"), (target, m)


def test_a_bold_title_before_a_dash_is_a_label_a_bold_phrase_inside_a_sentence_is_not() -> None:
    text = "**#1 Kidney stones** – passed two last week\n"
    assert label_at(text, text.index("Kidney"), text.index("** –"))
    text = "She says **kidney stones** run in the family.\n"
    assert not label_at(text, text.index("kidney"), text.index("** run"))


# -- shorthand ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "output", "anchor"),
    [
        ("patellofemoral pain syndrome", "Anterior knee pain; probable PFPS.", "PFPS"),
        ("glomerulonephritis", "Hematuria and edema, concern for GN.", "GN"),
        ("recent seizures", "Doing well on Keppra, denies recent sz.", "sz"),
        ("medication related", "Ankle swelling, seems med-related.", "med-related"),
        ("bilateral knee effusions", "Possible bilat knee effusions.", "bilat"),
        ("right ankle sprain", "Exam fits a R ankle sprain.", "R ankle"),
        ("left olecranon bursitis", "Probable L olecranon bursitis.", "L olecranon"),
    ],
)
def test_problem_list_shorthand_is_the_target(target: str, output: str, anchor: str) -> None:
    got = _found(target, output)
    assert got is not None and anchor in got, (target, got)


@pytest.mark.parametrize(
    ("target", "output"),
    [
        # a capital letter that is no side: rule-out shorthand, a spine region, litres
        ("right pneumonia", "Cough and fever; r/o pneumonia."),
        ("left knee effusion", "L-spine films normal; knee effusion on the right."),
    ],
)
def test_r_and_l_are_sides_only_before_a_word(target: str, output: str) -> None:
    got = _found(target, output)
    assert got is None or not got.startswith(("r", "L")), (target, got)


def test_a_side_letter_keeps_the_other_side_apart() -> None:
    assert _found("left knee effusion", "R knee effusion; the other knee is fine.") is None


def test_a_capital_abbreviation_in_the_plural_is_its_quantity() -> None:
    p = pair_for(
        "Continue lisinopril. She will report any elevated blood pressures to me.",
        "Cont lisinopril; report elevated BPs.",
        "elevated blood pressures",
    )
    assert p.retained and p.match.start >= p.match.end - len("elevated BPs"), p.match


# -- a rising course under a condition --------------------------------------------------------------

RISE_SOURCE = "Start furosemide. He will weigh himself daily and call me if these continue to increase."


@pytest.mark.parametrize(
    ("output", "found"),
    [
        ("Weigh yourself every morning. Call us if your weight keeps going up.", "keeps going up"),
        ("Daily weights; call if continuing to ↑.", "continuing to ↑"),
        ("Daily weights — call if ↑.", "↑"),
        ("Weigh daily. If the number goes up, let us know.", "goes up"),
    ],
)
def test_a_rising_course_under_a_condition_is_the_contingency(output: str, found: str) -> None:
    p = pair_for(RISE_SOURCE, output, "these continue to increase")
    assert p.retained and p.match.detail == "course", (output, p.match)
    assert p.match.text == found
    assert p.output_level.value == "UL5"


@pytest.mark.parametrize(
    "output",
    [
        "Your weight went up 3 pounds this week. Keep taking the water pill.",
        "Depression: continues to decline meds. Weigh yourself every day.",
    ],
)
def test_a_rise_outside_a_condition_or_another_verb_is_not_the_contingency(output: str) -> None:
    p = pair_for(RISE_SOURCE, output, "these continue to increase")
    assert not p.retained, (output, p.match)


# -- wordings -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "output", "found"),
    [
        ("flare of his gout", "This is likely a flare of your gout.", "flare of your gout"),
        ("acute exacerbation of her asthma", "Probable acute exacerbation of asthma.", "acute exacerbation of asthma"),
        ("fracture of her wrist", "There may be a fracture of the wrist.", "fracture of the wrist"),
    ],
)
def test_a_possessive_after_a_preposition_is_no_word_of_the_phrase(target: str, output: str, found: str) -> None:
    assert _found(target, output) == found


def test_a_possessive_still_names_whose_it_is_elsewhere() -> None:
    # the bag of words drops a possessive only after a preposition, never at a phrase's start
    assert _found("her asthma", "Asthma is stable.") in (None, "Asthma")


@pytest.mark.parametrize(
    ("target", "output", "anchor"),
    [
        ("pumping dysfunction", "Echo this week; I suspect systolic dysfunction.", "systolic dysfunction"),
        ("pumping dysfunction", "We think there is a problem with how well your heart pumps.", "how well your heart pumps"),
        ("multifactorial", "More than one thing is likely making you tired.", "More than one thing"),
        ("herniated disc", "One of the cushions between the bones in your lower back is bulging.", "cushions"),
        ("benign pituitary adenoma", "The scan shows a growth on your pituitary gland that is not cancer.", "growth"),
    ],
)
def test_lay_wordings_of_batch_18_targets(target: str, output: str, anchor: str) -> None:
    got = _found(target, output)
    assert got is not None and anchor in got, (target, got)


@pytest.mark.parametrize(
    ("target", "output"),
    [
        # another organ, not in a place phrase of the cushion, is what bulges
        ("herniated disc", "The cushions look fine on the scan, but the bowel is bulging."),
        ("pituitary adenoma", "Your pituitary gland looks normal; your growth hormone level is fine."),
    ],
)
def test_lay_parts_keep_other_organs_apart(target: str, output: str) -> None:
    assert _parts_candidates(normal_words(target), ALIGNER.index(output)) == []


BILIARY = "Right upper quadrant ultrasound and labs to rule out biliary etiology."


def test_an_organ_named_as_where_a_problem_comes_from_is_the_organ_cause() -> None:
    p = pair_for(BILIARY, "The scan will check whether the pain could be coming from your gallbladder.", "biliary etiology")
    assert p.retained and p.match.detail == "cause", p.match
    assert p.match.text == "coming from your gallbladder"


@pytest.mark.parametrize(
    "output",
    [
        "The pain is coming from your stomach, so keep taking the acid pill.",
        "Gallstones can come from eating a lot of fatty food.",
    ],
)
def test_a_problem_from_another_organ_is_not_the_organ_cause(output: str) -> None:
    p = pair_for(BILIARY, output, "biliary etiology")
    assert not p.retained or p.match.detail != "cause", (output, p.match)


# -- history words --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "output",
    [
        "Flank pain like his prior kidney stone. CT shows what looks like a new stone.",
        "PMH of kidney stones. CT shows what looks like a new stone.",
    ],
)
def test_a_past_mention_gives_way_to_the_current_one(output: str) -> None:
    p = pair_for("Flank pain. The CT shows what appears to be a recurrent kidney stone.", output, "recurrent kidney stone")
    assert p.retained and p.match.start > output.index("CT"), (output, p.match)


# -- a "<cause> related" target said as where the finding comes from ------------------------------

RELATED = "Mild ankle swelling on exam, but this seems to be medication related."


@pytest.mark.parametrize(
    ("output", "found"),
    [
        ("Your ankles are a bit puffy. This is from your medicines.", "from your medicines"),
        ("Trace ankle edema 2/2 meds.", "2/2 meds"),
        ("The swelling is probably due to the medication.", "due to the medication"),
    ],
)
def test_a_related_cause_is_found_where_the_finding_comes_from_it(output: str, found: str) -> None:
    p = pair_for(RELATED, output, "medication related")
    assert p.retained and p.match.detail == "cause_of", (output, p.match)
    assert p.match.text == found


@pytest.mark.parametrize(
    "output",
    [
        "Your ankles are puffy from standing all day; keep taking your medicines.",
        "We got your records from the clinic. Medication list reviewed.",
    ],
)
def test_a_connective_before_another_cause_is_not_it(output: str) -> None:
    p = pair_for(RELATED, output, "medication related")
    assert not p.retained or p.match.detail != "cause_of", (output, p.match)


def test_the_rise_arrow_is_elevated_before_a_reading() -> None:
    p = pair_for(
        "Diabetes. She is stable and has not had any elevated glucose readings.",
        "DM | Stable, no ↑ glucose readings | cont metformin",
        "elevated glucose readings",
    )
    assert p.retained and p.match.text == "↑ glucose readings", p.match
    assert p.output_level.value == "UL1"


def test_a_rise_that_starts_is_the_rising_course_too() -> None:
    p = pair_for(
        "Check your blood sugars twice a day and call me if these start to rise.",
        "Check sugars twice daily; call if rising.",
        "these start to rise",
    )
    assert p.retained and p.match.detail == "course" and p.match.text == "rising", p.match
