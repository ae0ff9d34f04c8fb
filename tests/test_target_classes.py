"""Hedges whose target is an organ's state or a region that cannot be seen (issue 12, round 4):
"appears" before a word of abnormal morphology is UL2 like "appears to be"; an obscured region is
UL4 like "not well visualized"; "detail" is never a target. Every sentence is
our own wording and differs from benchmark/target_probes.py, whose probes stay held out."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import cuelex

ROOT = Path(__file__).resolve().parents[1]


def targets_of(text: str) -> list[tuple[str, str]]:
    return [(p.target_text, p.level.value) for p in cuelex.extract(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The cardiac silhouette appears enlarged.", [("enlarged", "UL2")]),
        ("Both lungs appear hyperinflated, with flattened diaphragms.", [("hyperinflated", "UL2")]),
        ("The gallbladder looks distended on this study.", [("distended", "UL2")]),
        ("The mediastinum appeared slightly widened.", [("widened", "UL2")]),
        ("The common bile duct seems dilated.", [("dilated", "UL2")]),
        # normal, unchanged or negated appearances stay plain descriptions or hedged absence
        ("The cardiac silhouette appears normal.", []),
        ("The mediastinum appears unchanged from the prior study.", []),
        ("The osseous structures appear grossly intact.", []),
        ("The lungs appear clear.", []),
        ("The aorta does not appear dilated.", [("dilated", "HEDGED_ABSENT")]),
    ],
)
def test_appearance_of_an_abnormal_state(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The right costophrenic sulcus is obscured.", [("right costophrenic sulcus", "UL4")]),
        ("The left lung base is partly obscured by the patient's arm.", [("left lung base", "UL4")]),
        ("The retrocardiac region was obscured on the portable film.", [("retrocardiac region", "UL4")]),
        ("There is obscuration of the right lung apex.", [("right lung apex", "UL4")]),
        # an obscured interface (heart border, hemidiaphragm) is the silhouette sign, a finding
        # of its own, not a region left unseen (fifteenth session; the tune annotators give no pair)
        ("There is obscuration of the left heart border.", []),
        ("The right hemidiaphragm is obscured.", []),
        # a generic object and unobscured regions give no pair
        ("Body habitus obscures detail.", []),
        ("The costophrenic angles are well seen.", []),
        ("The heart border is sharp.", []),
    ],
)
def test_obscured_region_is_indeterminate(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a participle of abnormal morphology ending its conjunct is the finding, not a clause verb
        ("The gallbladder may be distended, with a thick wall.", [("distended", "UL3")]),
        ("The ventricles are possibly dilated, as before.", [("dilated", "UL3")]),
        ("The aorta is not widened, and the lungs are clear.", [("widened", "UL1")]),
        # other participles keep their verb reading ("not resolved" has no finding of its own)
        ("Her cough has not resolved, and she is tired.", []),
    ],
)
def test_state_word_before_a_comma_is_the_finding(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    "text",
    ["Pulmonary detail may be limited.", "Soft tissue could obscure some details."],
)
def test_detail_is_no_target(text: str) -> None:
    assert targets_of(text) == []


def test_round4_probes_are_well_formed_and_must_not_sentences_stay_clean() -> None:
    """Every round-4 probe's expected target is in its sentence; the must-not sentences give no pair."""
    bench = str(ROOT / "benchmark")
    sys.path.insert(0, bench)
    try:
        spec = importlib.util.spec_from_file_location("target_probes", ROOT / "benchmark" / "target_probes.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(bench)
    inv = sys.modules["hedge_inventory"]
    for entry in module.ROUND4:
        assert entry.level in inv.HEDGED
        for sentence, targets in entry.probes:
            for target in targets:
                assert any(alt.lower() in sentence.lower() for alt in target.split("|")), target
    for _cls, sentence, banned in module.MUST_NOT_ROUND4:
        ok, pairs = inv.must_not_result(sentence, banned)
        assert ok, (sentence, pairs)
