"""Kept targets that were read as absent (issue 11): clinic shorthand ("atx", "consol"), the
opacity family said as a lung infection, an effusion said as fluid buildup, an organ cause said as a
problem of that organ, and a raised measurement said of its readings; each with the near wording
that must stay absent. Sentences are written for these tests."""

from __future__ import annotations

import pytest
from _helpers import bench_module

from cuelex.scoring import score


def _pair(source: str, output: str, target: str):
    r = score(source, output, n_boot=0)
    found = [p for p in r.pairs if p.source.target_text == target]
    assert found, [p.source.target_text for p in r.pairs]
    return found[0]


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        ("Streaky bibasilar opacities, likely atelectasis.", "Bibasilar opacities, likely subsegmental atx.", "atelectasis", "UL2"),
        ("Streaky bibasilar opacities, likely atelectasis.", "Bibasilar opacities, likely ATX.", "atelectasis", "UL2"),
        ("No focal consolidation.", "No focal consol, effusion or PTX.", "focal consolidation", "UL1"),
    ],
)
def test_clinic_shorthand_names_the_finding(source: str, output: str, target: str, level: str) -> None:
    p = _pair(source, output, target)
    assert p.retained and p.output_level.value == level, p.match


@pytest.mark.parametrize(
    ("source", "output", "target"),
    [
        ("No focal airspace consolidation.", "There is no area of lung infection and no collapsed lung.", "focal airspace consolidation"),
        ("No focal consolidation.", "Your lungs look clear. You have no signs of infection.", "focal consolidation"),
        ("No evidence of focal airspace disease.", "There is no sign of a lung infection.", "focal airspace disease"),
        ("No focal pulmonary opacity.", "Your lungs are clear, with no signs of infection.", "focal pulmonary opacity"),
    ],
)
def test_an_opacity_said_as_an_infection_is_a_weak_paraphrase(source: str, output: str, target: str) -> None:
    """The fate readers take "no sign of (lung) infection" for a negated consolidation, opacity or
    airspace disease; cuelex keeps it as a ``related`` match, listed for checking."""
    p = _pair(source, output, target)
    assert p.retained and p.output_level.value == "UL1"
    assert (p.match.tier, p.match.detail) == ("cui", "related") and p.match.low_confidence


def test_a_filled_in_lung_names_consolidation() -> None:
    p = _pair("No focal consolidation.", "There is no area of filled-in lung (such as from an infection).", "focal consolidation")
    assert p.retained and p.match.text == "filled-in lung" and p.output_level.value == "UL1"


@pytest.mark.parametrize(
    "output",
    [
        "Your lungs look clear. Finish the antibiotics for your bladder infection.",
        "Your heart is normal in size and there is no fluid around the lungs.",
        # an organ-less "infection" counts only in a sentence naming a site of consolidation's
        # lay names (the lung): never a foot's, a urine sample's or a hand's
        "You will take antibiotics twice a day for 7 days, because it seems that you have an infection.",
        "We'll check a urine sample for infection (urinalysis and urine culture).",
        "Call us if the cut on your hand shows signs of infection.",
    ],
)
def test_an_infection_elsewhere_is_not_the_opacity(output: str) -> None:
    assert not _pair("No focal consolidation.", output, "focal consolidation").retained


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        ("There is no large effusion.", "There is no large fluid buildup around the lungs.", "large effusion", "UL1"),
        ("Trace right effusion cannot be excluded.", "We can't completely rule out a tiny bit of fluid buildup around your right lung.", "Trace right effusion", "UL3"),
        ("Streaky left basilar opacities, which could reflect atelectasis.", "This is most likely a small area of lung that isn't fully inflated.", "atelectasis", "UL2"),
    ],
)
def test_lay_wordings_of_effusion_and_atelectasis(source: str, output: str, target: str, level: str) -> None:
    p = _pair(source, output, target)
    assert p.retained and p.output_level.value == level, p.match


def test_an_effusion_around_the_other_lung_is_not_kept() -> None:
    assert not _pair("Trace right effusion cannot be excluded.", "There is no fluid buildup around your left lung.", "Trace right effusion").retained


@pytest.mark.parametrize(
    ("source", "output", "target", "found"),
    [
        ("We will order an ultrasound to rule out biliary etiology.", "These tests are to rule out a problem with your gallbladder or bile ducts.", "biliary etiology", True),
        ("We will order an ultrasound to rule out biliary etiology.", "We will get an ultrasound of your belly and check your liver blood tests.", "biliary etiology", False),
        ("His chest pain is possibly of cardiac etiology.", "Your chest pain may be coming from a heart problem.", "cardiac etiology", True),
        ("His chest pain is possibly of cardiac etiology.", "Your chest pain may be coming from the muscles of your chest wall.", "cardiac etiology", False),
    ],
)
def test_an_organ_cause_is_a_problem_of_that_organ(source: str, output: str, target: str, found: bool) -> None:
    p = _pair(source, output, target)
    assert p.retained is found, p.match
    if found:
        assert (p.match.tier, p.match.detail) == ("cui", "general")


@pytest.mark.parametrize(
    ("output", "said"),
    [
        ("Send us a message on the patient portal if your blood sugar readings go up.", "up"),
        ("Message us through the portal if your sugars are high.", "high"),
    ],
)
def test_a_raised_reading_under_a_condition_is_the_contingency(output: str, said: str) -> None:
    p = _pair("She will contact me via the patient portal for any elevation in her blood sugars.", output, "elevation")
    assert p.retained and p.match.text == said and p.match.detail == "measure"
    assert p.output_level.value == "UL5" and p.level_source in ("span", "measure", "lead_in")


@pytest.mark.parametrize(
    "output",
    [
        "Keep your leg raised and elevated on a pillow when you sit. Check your blood sugar every morning.",
        "We will follow up on your blood sugar readings at the next visit.",
    ],
)
def test_an_elevated_body_part_or_a_follow_up_is_no_raised_reading(output: str) -> None:
    assert not _pair("She will contact me via the patient portal for any elevation in her blood sugars.", output, "elevation").retained


def test_the_not_found_breakdown_prints_counts_only() -> None:
    """``rewrite_eval.py --shapes`` is allowed on the report half: it names shapes, never a row."""
    rewrite_eval = bench_module("rewrite_eval")
    from collections import Counter

    from cuelex.scoring.align import Aligner

    shapes = rewrite_eval.target_shapes("focal airspace consolidation", "No sign of a lung infection.", Aligner(), rewrite_eval._lay_names())
    assert {"qualified", "concept", "out_nothing"} <= shapes and "abbreviation" not in shapes
    assert "abbreviation" in rewrite_eval.target_shapes("PTX", "No collapsed lung.", Aligner(), {})
    assert "out_derived" in rewrite_eval.target_shapes("stenosis", "The valve is narrowed.", Aligner(), {})
    table = rewrite_eval.shape_table({"not_found": {"summary": Counter({"total": 3, "qualified": 2})}})
    assert "| all | 3 |" in table and "| qualified:" in table
    assert "consolidation" not in table


@pytest.mark.parametrize(
    ("target_source", "target", "kept"),
    [
        ("IMPRESSION: No acute cardiopulmonary findings.", "acute cardiopulmonary findings", True),
        ("IMPRESSION: No acute osseous findings.", "acute osseous findings", False),
    ],
)
def test_the_chest_named_in_the_sentence_holds_heart_and_lungs(target_source: str, target: str, kept: bool) -> None:
    p = _pair(target_source, "Your chest X-ray shows no new or urgent problems.", target)
    assert p.retained is kept, p.match
    if kept:
        assert p.output_level.value == "UL1"


def test_a_density_in_the_lung_is_a_pulmonary_density_and_not_one_in_the_bone() -> None:
    src = "Although this may be artifact or a pulmonary density."
    p = _pair(src, "It may be an artifact or a density in the lung.", "pulmonary density")
    assert p.retained and p.output_level.value == "UL3" and p.match.tier == "parts"
    assert not _pair(src, "There may be a density in your bone.", "pulmonary density").retained


def test_a_named_deformity_by_its_name() -> None:
    p = _pair(
        "Hyperlucent lungs, related to cachexia and probable pectus excavatum deformity.",
        "You also have a sunken chest shape (called pectus excavatum), where the breastbone curves inward.",
        "pectus excavatum deformity",
    )
    assert p.retained and p.match.detail == "named"
