"""Alignment classes of session 20: an abbreviation target looked for by its written-out words in
the concept and parts tiers, a bare "recurrence" said as something coming back, a comparison said by
a sign, summary shorthand and lay names of common findings. Every example sentence is written for
this file (none is copied from a tune or written document)."""

from __future__ import annotations

import pytest

from cuelex.scoring import score
from cuelex.scoring.align import find_target


def _found(target: str, output: str) -> tuple[str, str] | None:
    m = find_target(target, output)
    return None if m is None else (f"{m.tier}/{m.detail}", m.text)


# ------------------------------------------------------------- abbreviation target, written out


@pytest.mark.parametrize(
    ("target", "output", "text"),
    [
        ("DVT", "A scan of the veins in her calf found no blood clot.", "clot"),
        ("DVT", "Compression ultrasound of both legs: no clot in the veins.", "clot"),
    ],
)
def test_abbreviation_target_found_by_its_written_out_parts(target: str, output: str, text: str) -> None:
    """"DVT" is "deep vein thrombosis": its parts (vein + clot) are looked for as for the long form."""
    found = _found(target, output)
    assert found is not None and text in found[1]


@pytest.mark.parametrize(
    ("target", "output"),
    [
        # the written-out form's generic head alone is no match
        ("MRSA", "The skin infection is healing well on the new cream."),
        ("DVT", "Your legs look fine and the swelling is gone."),
    ],
)
def test_abbreviation_target_not_found_by_a_generic_head(target: str, output: str) -> None:
    assert _found(target, output) is None


# ------------------------------------------------------------------------------ bare recurrence


@pytest.mark.parametrize(
    ("target", "output", "text"),
    [
        ("recurrence", "So far the lymphoma has not come back.", "lymphoma has not come back"),
        ("recurrence", "The polyp came back on this year's scope.", "polyp came back"),
        ("relapse", "We will watch closely in case the leukemia returns.", "leukemia returns"),
    ],
)
def test_bare_recurrence_is_something_coming_back(target: str, output: str, text: str) -> None:
    found = _found(target, output)
    assert found == ("normalized/qualifier", text)


@pytest.mark.parametrize(
    "output",
    [
        "Your blood tests came back normal.",
        "The biopsy came back and we will call you.",
        "Please come back to clinic in three months.",
        "You can return to work on Monday.",
        "We will come back to this at your next visit.",
    ],
)
def test_bare_recurrence_not_a_result_a_person_or_a_visit(output: str) -> None:
    assert _found("recurrence", output) is None


def test_bare_recurrence_keeps_its_negation() -> None:
    rep = score("Surveillance CT without evidence of recurrence.", "The scan shows the sarcoma has not come back.", n_boot=0)
    (pair,) = [p for p in rep.pairs if p.source.target_text == "recurrence"]
    assert pair.retained and pair.output_level is not None and pair.output_level.value == "UL1"


# ------------------------------------------------------------------------------- thresholds


@pytest.mark.parametrize(
    ("target", "output", "text"),
    [
        ("fever above 38.5 C", "Return if fever >38.5 C or new rash.", "fever >38.5 C"),
        ("glucose greater than 400", "Call for glucose > 400 twice.", "glucose > 400"),
        ("sodium below 128", "Readmit if sodium <128 on repeat.", "sodium <128"),
        ("temperature over 101", "Call with temperature ≥101.", "temperature ≥101"),
    ],
)
def test_comparison_word_said_by_a_sign(target: str, output: str, text: str) -> None:
    assert _found(target, output) == ("normalized/threshold", text)


@pytest.mark.parametrize(
    ("target", "output"),
    [
        ("fever above 38.5 C", "Fever <38.5 C is fine to treat at home."),  # the other direction
        ("fever above 38.5 C", "Call if glucose >38.5."),  # another finding
        ("below 70", "Hold the dose if <70."),  # no finding word: a number alone is no match
    ],
)
def test_comparison_sign_needs_the_same_direction_and_finding(target: str, output: str) -> None:
    found = _found(target, output)
    assert found is None or found[0] != "normalized/threshold"


# --------------------------------------------------------------------- shorthand and lay names


@pytest.mark.parametrize(
    ("source", "output", "target"),
    [
        ("Repeat ultrasound to look for hydronephrosis.", "Repeat US for hydro.", "hydronephrosis"),
        ("Bone scan negative for osteomyelitis.", "Bone scan: no osteo.", "osteomyelitis"),
        ("Not tachycardic; no tachycardia overnight.", "Not tachy overnight.", "tachycardia"),
        ("No syncope.", "Denies syncopal events.", "syncope"),
        ("No new ECG changes.", "Tele stable. No new ECG Δ.", "changes"),
        ("No prior diagnosis of gout.", "No prior gout dx.", "diagnosis of gout"),
        ("Denies syncope.", "He did not pass out at any point.", "syncope"),
        ("No hallucinations.", "She reports hearing voices at night.", "hallucinations"),
        ("Possible oral ulcers.", "He may have mouth sores.", "oral ulcers"),
        ("No meningismus.", "No fever or stiff neck.", "meningismus"),
        ("Rule out a dental abscess.", "We looked for a pocket of pus near the tooth.", "abscess"),
        ("No hypercapnia.", "There was no buildup of carbon dioxide.", "hypercapnia"),
        ("Possible choledocholithiasis.", "There may be a stone in the bile duct.", "choledocholithiasis"),
        ("No otorrhea.", "No ear drainage since the tube was placed.", "otorrhea"),
        ("Concern for anaphylaxis.", "This could have been a severe allergic reaction.", "anaphylaxis"),
    ],
)
def test_shorthand_and_lay_names_found(source: str, output: str, target: str) -> None:
    rep = score(source, output, n_boot=0)
    pairs = [p for p in rep.pairs if target in p.source.target_text]
    assert pairs and all(p.retained for p in pairs), [(p.source.target_text, p.match) for p in rep.pairs]


# ------------------------------------------------------------------------ a specimen is no finding


def test_tested_specimen_is_not_the_finding_part() -> None:
    """"urine" is a lay word of hydr- (hydronephrosis), but "tests of your urine" names what was
    tested: the parts tier does not compose the finding from it."""
    found = _found("hydronephrosis", "Samples of your urine and a scan of both kidneys were sent off today.")
    assert found is None or "urine" not in found[1]


def test_finding_part_after_the_test_still_found() -> None:
    found = _found("nephrolithiasis", "A urine test and a scan of your kidney showed no stones in your kidney.")
    assert found is not None and found[0] == "parts/compose" and "stones" in found[1]


@pytest.mark.parametrize(
    ("source", "output", "target"),
    [
        ("Concern for ovarian torsion.", "We were worried about a twisted ovary.", "ovarian torsion"),
        ("Low suspicion for aortic dissection.", "A tear in the aorta is very unlikely.", "aortic dissection"),
        ("Possible bacteremia.", "There may be bacteria in the blood.", "bacteremia"),
        ("Endocarditis is unlikely.", "An infection of the heart valves is unlikely.", "endocarditis"),
    ],
)
def test_more_lay_names_found(source: str, output: str, target: str) -> None:
    rep = score(source, output, n_boot=0)
    pairs = [p for p in rep.pairs if target in p.source.target_text.lower()]
    assert pairs and all(p.retained for p in pairs), [(p.source.target_text, p.match) for p in rep.pairs]


# -------------------------------------------------------------- initials with a capital word kept


@pytest.mark.parametrize(
    ("target", "output", "text"),
    [
        ("LA enlargement", "TTE: normal EF, no LAE.", "LAE"),
        ("RV dilation", "Echo without RVD.", "RVD"),
        ("paroxysmal AF", "Holter to look for pAF.", "pAF"),
    ],
)
def test_initials_keep_a_capital_word_whole(target: str, output: str, text: str) -> None:
    assert _found(target, output) == ("abbreviation/initials", text)


@pytest.mark.parametrize(
    ("target", "output"),
    [
        ("LA enlargement", "Echo: no LVH."),  # other letters
        ("AF", "Possible pAF."),  # one word: no initials to make
    ],
)
def test_initials_with_capitals_need_all_letters(target: str, output: str) -> None:
    found = _found(target, output)
    assert found is None or found[0] != "abbreviation/initials"


def test_threshold_unit_may_be_left_out() -> None:
    assert _found("fever above 38.5 C", "Return: fever >38.5 or rigors.") == (
        "normalized/threshold",
        "fever >38.5",
    )
