"""Graded cue strength: every cue entry carries a probability within its level's band."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import yaml

import cuelex
from cuelex.levels import DEFAULT_STRENGTH, STRENGTH_BANDS, Level, certainty_order
from cuelex.metrics import survey_probabilities
from cuelex.resources import default_lexicon_dir, default_resources
from cuelex.schema import CueEntry, ResourceError, validate

ROOT = Path(__file__).resolve().parents[1]


def test_every_shipped_entry_states_its_strength_in_band():
    for path in sorted(default_lexicon_dir().glob("*.yaml")):
        for raw in yaml.safe_load(path.read_text(encoding="utf-8"))["entries"]:
            assert "strength" in raw, f"{path.name}: {raw['id']} has no strength"
    for entry in default_resources().cues:
        lo, hi = STRENGTH_BANDS[entry.level]
        assert lo <= entry.strength <= hi, entry.id


def test_surveyed_cues_carry_the_survey_median():
    """Cues with a surveyed probability word carry its survey value (probable: documented tie-break)."""
    survey = survey_probabilities()
    by_cue = {}
    for e in default_resources().cues:
        by_cue.setdefault(e.cue.lower(), e)
    rows = list(csv.DictReader((ROOT / "cuelex" / "data" / "cue_probabilities.csv").open()))
    checked = 0
    for row in rows:
        e = by_cue.get(row["cue"])
        if e is None or e.level not in (Level.UL2, Level.HEDGED_ABSENT):
            continue
        expected = survey[row["survey_phrase"]]
        if row["survey_phrase"] in ("probable", "highly likely"):
            # ties "likely" (or the placed "consistent with") at a median of 70 (90); its lower
            # survey mean places it 0.5 below
            assert e.strength == expected - 0.5
        else:
            assert e.strength == pytest.approx(expected), row["cue"]
        checked += 1
    assert checked >= 15


def test_strength_outside_band_is_a_clear_error(tmp_path):
    data = {
        "description": "x",
        "entries": [
            {
                "id": "ul3.my_cue",
                "cue": "my cue",
                "pattern": "my\\s+cue",
                "level": "UL3",
                "strength": 90,
                "direction": "forward",
                "examples": [{"text": "my cue pneumonia", "target": "pneumonia"}],
            }
        ],
    }
    from cuelex.schema import LexiconFile

    with pytest.raises(ResourceError, match=r"ul3.my_cue.*outside the band of level UL3"):
        validate(LexiconFile, data, tmp_path / "x.yaml")
    del data["entries"][0]["strength"]
    lex = validate(LexiconFile, data, tmp_path / "x.yaml")
    assert lex.entries[0].strength == DEFAULT_STRENGTH[Level.UL3]
    assert isinstance(lex.entries[0], CueEntry)


@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        ("Likely pneumonia.", "Probable pneumonia."),
        ("Possible pneumonia.", "Pneumonia cannot be excluded."),
        ("Findings consistent with pneumonia.", "Findings suggestive of pneumonia."),
        ("Suspicious for pneumonia.", "Pneumonia may be present."),
        ("Pneumonia is unlikely.", "Pneumonia is improbable."),
        ("Probably pneumonia.", "Likely pneumonia."),
        ("Pneumonia cannot be excluded.", "Pneumonia cannot be completely excluded."),
        ("Findings compatible with pneumonia.", "Findings in keeping with pneumonia."),
        ("Suspected pneumonia.", "Findings worrisome for pneumonia."),
        ("Pneumonia is less likely.", "Pneumonia is not favored."),
        ("Pneumonia is unlikely.", "Pneumonia is not likely."),
        ("Pneumonia may be present.", "Perhaps pneumonia."),
        ("Atelectasis versus pneumonia.", "Perhaps pneumonia."),
        ("Pneumonia could be present.", "Questionable pneumonia."),
    ],
)
def test_hedges_of_one_level_are_ordered(stronger, weaker):
    a = cuelex.extract(stronger)[0]
    b = cuelex.extract(weaker)[0]
    assert a.level is b.level
    assert certainty_order(a.level, a.strength) > certainty_order(b.level, b.strength)
    assert a.cue.strength == a.strength


def test_strength_on_assessments_and_imposed_levels():
    text = "No pneumonia. Evaluate for possible PE. Atelectasis or pneumonia."
    s1 = text.index("pneumonia")
    s2 = text.index("PE")
    s3 = text.index("Atelectasis")
    a, b, c = cuelex.assess(text, [(s1, s1 + 9), (s2, s2 + 2), (s3, s3 + 11)])
    assert (a.level, a.strength) == (Level.UL1, 0.0)
    # "possible" made UL5 by its context: the UL5 default speaks, not "possible"'s own 50
    assert (b.level, b.strength) == (Level.UL5, DEFAULT_STRENGTH[Level.UL5])
    assert (c.level, c.strength) == (Level.UL3, DEFAULT_STRENGTH[Level.UL3])
    plain = cuelex.assess("Pneumonia.", [(0, 9)])[0]
    assert (plain.level, plain.strength) == (Level.ASSERTED, 100.0)


FAMILIES = [  # one phrase per family of same-claim wordings, within each level
    ["consistent with", "highly likely", "most consistent with", "compatible with", "in keeping with", "indicative of",
     "most likely", "high suspicion for", "presumed", "thought to be", "favored", "suggestive of",
     "probably", "likely", "probable", "appears to be", "suggestion of", "seems to be"],
    ["suspicious for", "suspected", "worrisome for", "more likely than", "suspicion for", "concern for", "is a concern",
     "possible", "possibility of", "may be", "versus", "perhaps", "consider", "could be",
     "questionable", "could be seen with", "might be", "difficult to exclude", "not excluded",
     "cannot be excluded", "cannot be completely excluded"],
    ["less likely", "not favored", "probably not", "likely not", "does not appear to be", "doubt", "unlikely", "not likely",
     "not thought to be", "not suggestive of", "low likelihood of", "low suspicion for",
     "not suspected", "improbable", "highly unlikely"],
]


@pytest.mark.parametrize("family", FAMILIES, ids=["UL2", "UL3", "HEDGED_ABSENT"])
def test_distinct_hedges_are_ordered_without_ties(family):
    """Listed strongest first; every phrase strictly weaker than the one before it."""
    by_cue = {e.cue.lower(): e for e in default_resources().cues}
    values = [by_cue[c].strength for c in family]
    assert all(a > b for a, b in zip(values, values[1:], strict=False)), list(zip(family, values))


@pytest.mark.parametrize(
    ("lay", "clinical"),
    [
        ("c/w", "consistent with"),
        ("your symptoms match", "in keeping with"),
        ("a sign of", "indicative of"),
        ("points to", "suggests"),
        ("probably from", "probably"),
        ("your doctor believes", "I believe"),
        ("look like", "appears to be"),
        ("we suspect", "suspect"),
        ("it is possible that", "possible"),
        ("could also be", "could be"),
        ("there is a chance", "possibility of"),
        ("doctors cannot rule out", "cannot rule out"),
        ("probably is not", "probably not"),
        ("does not look like", "does not appear to be"),
    ],
)
def test_lay_wording_carries_the_strength_of_its_clinical_phrase(lay, clinical):
    """A patient-facing wording says the same as its clinical phrase, so a rewrite that only
    translates it keeps the strength (no tie with an unrelated phrase, no shift)."""
    by_cue = {e.cue.lower(): e for e in default_resources().cues}
    assert by_cue[lay.lower()].strength == by_cue[clinical.lower()].strength
