"""One home per word list (issue 12): the state words of rules/targets.yaml are the only list of
them; the lexicon cue "appears <state>" names the list (``\\{state_words\\}``) and is derived from it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import cuelex
from cuelex.resources import _with_word_lists, default_resources, load_lexicon_files
from cuelex.schema import ResourceError

ROOT = Path(__file__).resolve().parent.parent


def test_the_lexicon_names_the_list_instead_of_copying_it() -> None:
    raw = yaml.safe_load((ROOT / "lexicons" / "ul2_probable.yaml").read_text(encoding="utf-8"))
    (entry,) = [e for e in raw["entries"] if e["id"] == "ul2.appears_state"]
    assert r"\{state_words\}" in entry["pattern"] and "enlarged" not in entry["pattern"]
    res = default_resources()
    (loaded,) = [c for c in res.cues if c.id == "ul2.appears_state"]
    assert r"\{" not in loaded.pattern
    assert all(w in loaded.pattern for w in res.targets.state_words)


_TARGETS = default_resources().targets


@pytest.mark.parametrize("word", _TARGETS.state_words)
def test_every_state_word_reads_as_probable_after_appears(word: str) -> None:
    pairs = cuelex.extract(f"The structure appears {word} on this view.")
    if word in _TARGETS.modifier_words:
        assert pairs == []  # a modifier alone is no target ("displaced" of a fracture)
        return
    (p,) = pairs
    assert (p.level.value, p.cue_text, p.target_text) == ("UL2", "appears", word)


def test_plain_descriptions_stay_unpaired() -> None:
    assert cuelex.extract("The heart appears normal in size.") == []
    assert cuelex.extract("The bones appear intact.") == []


def test_an_empty_list_named_by_a_pattern_is_an_error() -> None:
    cues = load_lexicon_files([ROOT / "lexicons" / "ul2_probable.yaml"])
    assert _with_word_lists(cues, _TARGETS) != cues
    with pytest.raises(ResourceError, match="state_words"):
        _with_word_lists(cues, _TARGETS.model_copy(update={"state_words": ()}))


@pytest.mark.parametrize(
    "text",
    [
        # an examination heading of system names, not alternative diagnoses
        "Hematology/Lymphatic/Immunology\n- Palpation: No enlarged lymph nodes.",
        # one combination drug with its dose and dosage form
        "Amlodipine/benazepril 5/10 mg capsule. Take 1 capsule daily.",
        "Fluticasone/salmeterol 100 mcg/50 mcg inhalation powder, 1 puff twice daily.",
        # the movements that provoke a symptom
        "No pain with abduction or adduction of the shoulder.",
        "Pain with dorsiflexion or plantarflexion of the ankle.",
    ],
)
def test_headings_drugs_and_movements_are_no_alternatives(text: str) -> None:
    assert [p for p in cuelex.extract(text) if p.rule_id.startswith("alt.")] == []


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("Mild atelectasis/scarring at the left base.", {"Mild atelectasis", "scarring"}),
        ("Atelectasis/Scarring\n- left base", {"Atelectasis", "Scarring"}),
        ("Bibasilar atelectasis and/or consolidation.", {"Bibasilar atelectasis", "consolidation"}),
    ],
)
def test_alternative_findings_stay_possible(text: str, targets: set[str]) -> None:
    found = {p.target_text: p.level.value for p in cuelex.extract(text)}
    assert found == dict.fromkeys(targets, "UL3")


def test_a_movement_word_inside_a_finding_keeps_it() -> None:
    assert [(p.level.value, p.target_text) for p in cuelex.extract("No flexion contracture.")] == [
        ("UL1", "flexion contracture")
    ]
