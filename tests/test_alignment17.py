"""Alignment of session 17 (issue 11): hedged and workup targets of outpatient assessment/plan
sections said in other words: an organ's disease named by its organ alone ("screen for thyroid
disease" ~ "a problem with your thyroid"), an organ cause said as the organ being the cause ("rule
out biliary etiology" ~ "make sure your gallbladder isn't the cause"), a target opened by a
quantity noun ("tiny amount of fluid" ~ "tiny fluid collection"), "wear and tear" as no tear, and
curated lay terms (rows of ``cuelex/data/lay_terms.tsv``, each run by tests/test_lay_terms.py).
Sentences are written for these tests (no tune document text); the probes written before the code
are ``benchmark/data/alignment_probes17.jsonl``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cuelex
from cuelex.scoring.align import Aligner, partitive_inner

ALIGNER = Aligner()
PROBES = Path(__file__).resolve().parents[1] / "benchmark" / "data" / "alignment_probes17.jsonl"
ROWS = [json.loads(x) for x in PROBES.read_text(encoding="utf-8").splitlines() if x.strip()]

#: Probes still missed, each with why (kept so that a later fix shows up as an xpass).
KNOWN_MISSES = {
    "o05": "a verb phrase around the lay words ('a nerve in your wrist is being squeezed')",
    "c01": "'blood vessels of your heart are narrowed': a four-word lay phrase in another order",
    "c03": "heart failure as 'your heart is not pumping': a negation inside the lay wording",
    "e03": "hyperglycemia as 'sugar levels are running high': words between the quantity and 'high'",
    "g01": "GERD as 'acid coming back up': a verb phrase",
    "g03": "peptic ulcer as 'a sore in the lining': 'sore' alone is also the pain adjective",
    "p01": "asthma as 'your airways tighten up': a verb phrase",
    "p02": "sleep apnea as 'your breathing stops during the night': a verb phrase",
    "s01": "nephrolithiasis as 'a stone' with no organ named: the head of a one-word target",
}


def _found(row: dict) -> bool:
    m = ALIGNER.find(row["target"], row["output"])
    if row["expect"] == "absent":
        return m is None
    a = row["output"].find(row["anchor"])
    return m is not None and a >= 0 and m.start < a + len(row["anchor"]) and a < m.end


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_probe_keeps_its_result(row: dict) -> None:
    found = _found(row)
    if row["id"] in KNOWN_MISSES:
        # a known miss that is now found should leave the list (strict, like xpass)
        assert not found, f"{row['id']} is found now: take it out of KNOWN_MISSES"
        pytest.xfail(KNOWN_MISSES[row["id"]])
    assert found, row["id"]


def test_no_negative_probe_is_taken() -> None:
    negatives = [r for r in ROWS if r["expect"] == "absent"]
    assert len(negatives) >= 15
    assert [r["id"] for r in negatives if not _found(r)] == []


def _fates(source: str, output: str) -> list[tuple[str, str | None, str | None]]:
    report = cuelex.score(source, output, n_boot=0)
    return [
        (p.source.target_text, p.output_level.value if p.retained and p.output_level else None,
         p.match.text if p.match else None)
        for p in report.pairs
    ]


@pytest.mark.parametrize(
    ("source", "output", "found"),
    [
        ("Labs today to screen for thyroid disease.", "Blood tests will check for a problem with your thyroid.",
         "problem with your thyroid"),
        ("Creatinine to evaluate for possible renal dysfunction.", "A blood test will look for a kidney problem.",
         "kidney problem"),
        ("Murmur on exam; echo to evaluate for valvular heart disease.",
         "An ultrasound of your heart will look for a problem with your heart valves.", "problem with your heart"),
    ],
)
def test_an_organ_disease_is_a_problem_of_its_organ(source: str, output: str, found: str) -> None:
    (fate,) = _fates(source, output)
    assert fate[1:] == ("UL5", found), fate


def test_another_organ_problem_is_not_an_organ_disease() -> None:
    assert _fates("Labs today to screen for thyroid disease.", "Blood tests will check for a problem with your liver.")[0][1] is None


@pytest.mark.parametrize(
    ("output", "level"),
    [
        ("We will get an ultrasound to make sure your gallbladder is not the cause of the pain.", "UL5"),
        ("We will get an ultrasound to make sure your **gallbladder** isn’t the cause.", None),  # level: task of the reader
        ("The gallbladder may be the source of your pain.", "UL3"),
    ],
)
def test_an_organ_cause_is_the_organ_being_the_cause(output: str, level: str | None) -> None:
    (fate,) = _fates("Right upper quadrant ultrasound to rule out biliary etiology.", output)
    assert fate[2] is not None and fate[2].startswith("gallbladder") and fate[2].endswith(("cause", "source")), fate
    if level is not None:
        assert fate[1] == level


@pytest.mark.parametrize(
    "output",
    [
        "Your gallbladder, the likely cause of the pain, will be checked.",  # no verb: no subject
        "Your kidney may be the cause of the pain.",  # another organ
        "Your gallbladder looks normal. The cause is not clear.",  # another sentence
    ],
)
def test_an_organ_cause_needs_that_organ_as_the_subject(output: str) -> None:
    (fate,) = _fates("Right upper quadrant ultrasound to rule out biliary etiology.", output)
    assert fate[2] is None, fate


@pytest.mark.parametrize(
    ("target", "inner"),
    [
        ("tiny amount of fluid", "tiny fluid"),
        ("small amount of free fluid", "small free fluid"),
        ("a bit of swelling", "swelling"),
        ("trace amount of blood", "trace blood"),
        ("fluid", None),
        ("sources of anemia", None),
    ],
)
def test_a_quantity_noun_opens_its_finding(target: str, inner: str | None) -> None:
    assert partitive_inner(target) == inner


def test_a_quantity_target_is_found_as_its_finding() -> None:
    m = ALIGNER.find("small amount of fluid", "A small fluid pocket sits behind your knee.")
    assert m is not None and m.text.lower().startswith("small fluid")
    assert ALIGNER.find("small amount of fluid", "Drink a small amount of water with each pill.") is None


@pytest.mark.parametrize(
    ("output", "taken"),
    [
        ("The X-ray shows some wear and tear in your shoulder joint.", False),
        ("The MRI may show a tear in one of your shoulder tendons.", True),
        ("There is wear and tear, and a small tear in the tendon.", True),
    ],
)
def test_wear_and_tear_is_no_tear(output: str, taken: bool) -> None:
    m = ALIGNER.find("rotator cuff tear", output)
    assert (m is not None) is taken, m


@pytest.mark.parametrize(
    ("target", "output", "found"),
    [
        ("hyponatremia", "Your sodium level may be a little low.", True),
        ("hypertension", "Your blood pressure has been running high at home.", True),
        ("hyponatremia", "We will check your sodium level.", False),
        ("hypertension", "You have been running three times a week.", False),
    ],
)
def test_a_quantity_said_with_its_level_or_course(target: str, output: str, found: bool) -> None:
    """"level" and "running" inside a lay phrase name the same low or high quantity."""
    assert (ALIGNER.find(target, output) is not None) is found
