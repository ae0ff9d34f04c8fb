"""Alignment classes of the thirteenth session (issue 11), each with examples written for these
tests in clinic-note style: a raised measurement is its raise said of a reading, never the
quantity alone; the place complement of a finding never stands for it; "CP" is chest pain."""

from __future__ import annotations

import pytest

from cuelex.scoring import score
from cuelex.scoring.align import measure_condition, raised_measurement
from cuelex.scoring.align import normal_words


def _fate(source: str, output: str, target: str) -> tuple[str, str | None]:
    r = score(source, output, n_boot=0)
    for p in r.pairs:
        if p.source.target_text == target:
            fate = p.output_level.value if p.retained and p.output_level is not None else "ABSENT"
            return fate, (p.match.detail if p.match is not None else None)
    raise AssertionError(f"no source pair {target!r}: {[p.source.target_text for p in r.pairs]}")


@pytest.mark.parametrize(
    ("target", "key"),
    [
        ("elevated blood pressures", "elevation"),
        ("elevated blood sugars", "elevation"),
        ("increased weight", "increase"),
        ("high blood pressure", None),  # a condition's name, not a raise of a reading
        ("elevated liver", None),  # not a measured quantity
        ("blood pressure", None),
    ],
)
def test_raised_measurement_targets(target, key):
    assert raised_measurement(normal_words(target)) == key


@pytest.mark.parametrize(
    ("output", "fate"),
    [
        ("Your blood pressure is well controlled. Call us if you see any high readings.", "UL5"),
        ("Call us if your numbers at home are high.", "UL5"),
        ("Continue home BP checks; report elevated readings.", "UL5"),
        # the quantity alone is not its raise
        ("Your blood pressure is well controlled. Keep checking it at home.", "ABSENT"),
    ],
)
def test_a_raised_measurement_is_its_raise_said_of_a_reading(output, fate):
    source = "Hypertension, controlled on amlodipine. She will call me if she has elevated blood pressures."
    assert _fate(source, output, "elevated blood pressures")[0] == fate


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Report elevated readings.", "Report"),
        ("Portal msg for elevated readings.", "msg"),
        ("Notify the clinic of high readings.", "Notify"),
        ("Send a message with any high readings.", "any"),
    ],
)
def test_telling_the_clinic_makes_a_raise_a_contingency(text, word):
    start = text.index("elevated") if "elevated" in text else text.index("high")
    got = measure_condition(text, start)
    assert got is not None and text[got[0] : got[1]] == word


def test_no_telling_verb_no_contingency():
    text = "Your readings were elevated last week."
    assert measure_condition(text, text.index("elevated")) is None


@pytest.mark.parametrize(
    ("source", "output", "target"),
    [
        ("Right knee pain. Probable lateral ligament strain of the right knee.",
         "It looks like the pain is on the outer side of your right knee.", "lateral ligament strain of the right knee"),
        ("I suspect a sprain of the left ankle.", "We will take an X-ray of your left ankle.", "sprain of the left ankle"),
        ("Probable tendinitis of the right wrist.", "You have pain on the thumb side of your right wrist.",
         "tendinitis of the right wrist"),
    ],
)
def test_a_place_complement_never_stands_for_its_finding(source, output, target):
    assert _fate(source, output, target)[0] == "ABSENT"


def test_a_relation_complement_still_answers():
    fate, detail = _fate(
        "We will do a colonoscopy to look for possible sources of bleeding.",
        "A colonoscopy will look for possible causes of your bleeding.",
        "sources of bleeding",
    )
    assert fate != "ABSENT" and detail == "complement"


@pytest.mark.parametrize(
    ("output", "fate"),
    [("- RTC if CP/SOB.", "UL5"), ("Return if you have CP or SOB.", "UL5"), ("No CP today.", "UL1")],
)
def test_cp_is_chest_pain(output, fate):
    source = "He should return if he develops chest pain or shortness of breath."
    assert _fate(source, output, "chest pain")[0] == fate


def test_cp_is_case_sensitive():
    source = "He should return if he develops chest pain or shortness of breath."
    assert _fate(source, "Call the cp clinic with questions.", "chest pain")[0] == "ABSENT"


@pytest.mark.parametrize(
    ("output", "fate"),
    [
        ("Overall, your chest X-ray looks normal for your heart and lungs.", "UL1"),
        ("The X-ray looked normal in the heart and lungs.", "UL1"),
        ("Your chest X-ray looks normal.", "ABSENT"),
        ("Your chest X-ray looks normal for your age.", "ABSENT"),
    ],
)
def test_a_normal_study_answers_only_for_the_organs_it_names(output, fate):
    source = "No acute cardiopulmonary abnormality."
    assert _fate(source, output, "acute cardiopulmonary abnormality")[0] == fate


@pytest.mark.parametrize(
    ("source", "output", "target", "found"),
    [
        ("Palpitations. Possibly a thyroid etiology; TSH ordered.",
         "Your racing heartbeat might have a thyroid cause.", "thyroid etiology", True),
        ("Heartburn. Suspected functional etiology of heartburn.",
         "There is likely also a \"functional\" cause behind your heartburn.", "functional etiology of heartburn", True),
        ("Diarrhea. I suspect an infectious etiology.", "Diarrhea – ? infectious source.", "infectious etiology", True),
        # the kind said elsewhere in the sentence is no cause of that kind
        ("Chronic cough. I suspect an allergic etiology.",
         "The cause of the cough is unclear; allergic rhinitis hx.", "allergic etiology", False),
        ("Palpitations. Possibly a thyroid etiology.", "We do not know the cause yet.", "thyroid etiology", False),
    ],
)
def test_a_cause_is_found_with_another_cause_noun(source, output, target, found):
    fate, detail = _fate(source, output, target)
    assert (fate != "ABSENT") is found
    if found:
        assert detail == "cause"


@pytest.mark.parametrize(
    "text",
    ["You have not had any high readings.", "Your log shows no high readings at all, without any elevated values."],
)
def test_any_under_a_negation_is_no_condition(text):
    start = text.rindex("elevated") if "elevated" in text else text.index("high")
    assert measure_condition(text, start) is None
