"""Alignment of rewrite batch 17 (issue 11, task 106): targets a rewrite kept in other words:
a modifier in a comma list sharing its head ("GI, GU, or menstrual bleeding" names GI bleeding),
a persisting or not-better course said under a condition ("if it keeps going", "if you do not feel
better"), GI bleeding as losing blood in the gut (``lay_parts.tsv``), hypersensitivity as "extra
sensitive" (``lay_terms.tsv``). Sentences are written for these tests (no tune document text)."""

from __future__ import annotations

import pytest
from _helpers import pair_for

from cuelex.scoring.align import Aligner

ALIGNER = Aligner()


def _found(target: str, output: str) -> str | None:
    m = ALIGNER.find(target, output)
    return None if m is None else output[m.start : m.end]


@pytest.mark.parametrize(
    ("target", "output", "anchor"),
    [
        ("gastrointestinal bleeding", "She reports no GI, GU, or vaginal bleeding.", "GI"),
        ("gastrointestinal bleeding", "No GI, bladder or uterine bleeding reported.", "GI"),
        ("hepatic cysts", "There were hepatic, renal, and splenic cysts on the scan.", "hepatic"),
        ("renal cysts", "There were hepatic, renal, and splenic cysts on the scan.", "renal"),
    ],
)
def test_a_comma_list_of_modifiers_shares_its_head(target: str, output: str, anchor: str) -> None:
    got = _found(target, output)
    assert got is not None and anchor in got, (target, output, got)


@pytest.mark.parametrize(
    ("target", "output"),
    [
        # one member before "and": not a list of modifiers
        ("gastrointestinal bleeding", "See GI, and then bleeding precautions were reviewed."),
        # the list is of findings in other sentences or clauses
        ("hepatic cysts", "The liver looked normal. Cysts were seen in the kidney."),
    ],
)
def test_no_shared_head_outside_a_list(target: str, output: str) -> None:
    got = _found(target, output)
    assert got is None or "," not in got, (target, output, got)


COURSE_SOURCE = "Likely rotator cuff strain. PT for six weeks; consider injection if symptoms persist."
NOT_BETTER_SOURCE = "Likely tendinitis. Home exercises; MRI if symptoms do not improve."



@pytest.mark.parametrize(
    ("source", "target", "output", "found"),
    [
        (COURSE_SOURCE, "symptoms persist", "Try therapy first. If the soreness keeps going, a shot may help.", "keeps going"),
        (COURSE_SOURCE, "symptoms persist", "If it does not go away with therapy, we can talk about a shot.", "does not go away"),
        (NOT_BETTER_SOURCE, "symptoms do not improve", "If you don't feel better after the exercises, we'll get an MRI.", "don't feel better"),
    ],
)
def test_a_persisting_course_under_a_condition_is_the_contingency(source: str, target: str, output: str, found: str) -> None:
    p = pair_for(source, output, target)
    assert p.retained and p.match.detail == "course", (output, p.match)
    assert p.match.text == found
    assert p.output_level.value == "UL5"


@pytest.mark.parametrize(
    "output",
    [
        "If you keep taking the pills, call us with any questions.",
        "The stiffness keeps going away with stretching, so keep it up.",
        "Physical therapy for six weeks. We will see you then.",
    ],
)
def test_persisting_words_outside_the_contingency_are_not_it(output: str) -> None:
    p = pair_for(COURSE_SOURCE, output, "symptoms persist")
    assert not p.retained or p.match.detail != "course", (output, p.match)


@pytest.mark.parametrize(
    "output",
    [
        "The scope will look inside your stomach and colon for any place you are losing blood.",
        "A camera test of your bowel can show if you lose blood there.",
    ],
)
def test_gi_bleeding_as_losing_blood_in_the_gut(output: str) -> None:
    assert _found("GI bleed", output) is not None, output


@pytest.mark.parametrize(
    "output",
    [
        "We will check your blood count and look at your stomach.",
        "Blood tests were normal, and your stomach feels better.",
        "You had a nosebleed; the bowel test was normal.",
    ],
)
def test_blood_near_the_gut_is_not_gi_bleeding(output: str) -> None:
    assert _found("GI bleed", output) is None, output


def test_hypersensitivity_as_extra_sensitive() -> None:
    assert _found("hypersensitivity", "The lining of your gullet may be extra sensitive.") is not None
    assert _found("hypersensitivity", "Your skin is sensitive to the sun.") is None


@pytest.mark.parametrize(
    ("target", "output"),
    [
        ("diabetic retinopathy", "The eye specialist will look for eye problems caused by your sugar."),
        ("peripheral neuropathy", "The tingling may come from nerve problems in your legs."),
    ],
)
def test_a_pathy_as_problems_of_its_organ(target: str, output: str) -> None:
    assert _found(target, output) is not None, output


def test_problems_of_another_organ_are_not_the_pathy() -> None:
    assert _found("diabetic retinopathy", "We talked about your kidney problems and new eye drops.") is None


@pytest.mark.parametrize(
    "output",
    [
        "The upset stomach most likely came from the spicy foods you ate on the trip.",
        "Your sugar went up because you were off your diet last week.",
    ],
)
def test_dietary_indiscretion_in_everyday_words(output: str) -> None:
    assert _found("dietary indiscretion", output) is not None, output
