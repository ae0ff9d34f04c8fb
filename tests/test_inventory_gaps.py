"""Gaps the hedge inventory audit (benchmark/hedge_inventory.py) found, fixed as classes, each with
sentences it must handle and sentences it must not touch. Every sentence is our own wording and
differs from the audit's probes, which stay held out."""

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
        # an evaluation verb with its object before "for": the condition after "for" is the target
        ("The team will evaluate him for latent tuberculosis.", [("latent tuberculosis", "UL5")]),
        ("Dermatology will check the mole for atypia.", [("atypia", "UL5")]),
        ("Please monitor her sodium for overcorrection.", [("overcorrection", "UL5")]),
        ("Screen the patient for depression today.", [("depression", "UL5")]),
        ("Watch the toes for discoloration.", [("discoloration", "UL5")]),
        # a definite phrase after "for" is a purpose or a duration, not a condition
        ("We will check his insurance for the medication.", []),
        ("Monitor the dressing for the first day.", []),
        ("She monitors her blood pressure at home.", []),
    ],
)
def test_evaluation_verb_with_an_object(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the radiologist's follow-up recommendation: the finding is the follow-up target
        ("Contrast-enhanced MRI is recommended to further characterize the adrenal nodule.", [("adrenal nodule", "UL5")]),
        ("Ultrasound in three months to follow the complex cyst.", [("complex cyst", "UL5")]),
        ("Follow-up chest CT in 12 months for the ground-glass nodule.", [("ground-glass nodule", "UL5")]),
        ("A repeat radiograph should document clearing of the right basilar consolidation.",
         [("right basilar consolidation", "UL5")]),
        # description, advice and visits are not
        ("Plaques characterized by silvery scale.", []),
        ("He agreed to follow the exercise program.", []),
        ("She will follow up with cardiology for her atrial fibrillation.", []),
    ],
)
def test_follow_up_targets(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Suboptimal evaluation for a pulmonary nodule because of motion.", [("pulmonary nodule", "UL4")]),
        ("The film is technically limited for evaluation of a pneumothorax.", [("pneumothorax", "UL4")]),
    ],
)
def test_limited_study(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # home-monitoring thresholds and inverted conditionals are patient-specific contingencies
        ("If he loses more than 4 pounds in a week, the diuretic will be reduced.", [("loses more than 4 pounds", "UL5")]),
        ("Call the clinic if her heart rate goes above 120.", [("heart rate", "UL5")]),
        ("Should there be new weakness in the legs, she will go to the emergency department.",
         [("new weakness", "UL5")]),
        # not a threshold, and general advice, are not
        ("If he gains weight, we will lower the dose.", []),
        ("People with heart failure should weigh themselves every morning.", []),
        ("Adults should get a flu shot every year.", []),
    ],
)
def test_contingencies(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a modal in front of an evidential verb weakens it to a possibility
        ("The low sodium could suggest adrenal insufficiency.", [("adrenal insufficiency", "UL3")]),
        # "could" alone is ability, not a hedge
        ("He could walk without assistance.", []),
        # a negated verb with a pronoun object is an action, not a finding
        ("His plan will not cover it.", []),
        ("They cannot afford it.", []),
        # a vaccine or shot is a plan, not a proposition about the patient
        ("We could consider a pneumonia vaccine.", []),
    ],
)
def test_modal_evidential_and_non_findings(text: str, expected: list) -> None:
    assert targets_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the clinician's suspicion said as a clause
        ("My main suspicion is that this is a tension headache.", [("tension headache", "UL3")]),
        # "suggestive but not diagnostic of": the shared object is favoured, not negated
        ("Bone marrow edema, typical but not specific for a stress reaction.", [("stress reaction", "UL2")]),
    ],
)
def test_spoken_suspicion_and_suggestive_not_diagnostic(text: str, expected: list) -> None:
    assert targets_of(text) == expected


def _inventory():
    spec = importlib.util.spec_from_file_location("hedge_inventory", ROOT / "benchmark" / "hedge_inventory.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


def test_inventory_is_well_formed() -> None:
    """Every round-1 entry has at least two probes, every entry cites a documented checklist, and
    every expected target is a substring of its probe sentence."""
    inv = _inventory()
    known = {"bioscope", "context", "radiology", "paper"}
    for entry in inv.INVENTORY:
        assert len(entry.probes) >= 2, entry.cue
    for entry in (*inv.INVENTORY, *inv.ROUND2, *inv.ROUND3):
        assert entry.sources and set(entry.sources) <= known, entry.cue
        assert entry.level in inv.HEDGED, entry.cue
        for sentence, targets in entry.probes:
            for target in targets:
                assert any(alt in sentence or alt.lower() in sentence.lower() for alt in target.split("|")), target


def test_inventory_must_not_sentences_stay_clean() -> None:
    """The precision side of the audit: advice, logistics, plans and normal statements give no pair."""
    inv = _inventory()
    for _cls, sentence, banned in (*inv.MUST_NOT, *inv.MUST_NOT_ROUND2, *inv.MUST_NOT_ROUND3):
        ok, pairs = inv.must_not_result(sentence, banned)
        assert ok, (sentence, pairs)
