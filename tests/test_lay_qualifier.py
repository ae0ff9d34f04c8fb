"""A recurrence or persistence qualifier said by a verb after the finding (tier ``normalized``,
detail ``qualifier``): "recurrent symptoms" in "your symptoms have not come back", "persistent
fever" in "the fever has persisted", never an unrelated "came back" or "return". Sentences are
written for these tests."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuelex
from cuelex.scoring.align import Aligner, normal_words

ALIGNER = Aligner()


@pytest.mark.parametrize(
    ("target", "output", "span"),
    [
        ("recurrent symptoms", "So far your symptoms have not come back.", "symptoms have not come back"),
        ("recurrent migraines", "The migraines keep coming back every month.", "migraines keep coming back"),
        ("recurrent infection", "Call us if the infection returns.", "infection returns"),
        ("recurrence of pain", "The pain could come back once the numbing medicine wears off.", "pain could come back"),
        ("recurrent bleeding", "The bleeding happened again on Sunday.", "bleeding happened again"),
        ("recurrent gout", "Your gout may flare up again in the cold months.", "gout may flare up again"),
        ("persistent fever", "The fever persisted through the weekend.", "fever persisted"),
        ("persistent cough", "Your cough is still there after the antibiotics.", "cough is still there"),
        ("persistent pain", "The pain in your left hip has not gone away.", "pain in your left hip has not gone away"),
        ("persistent nausea", "Her nausea lingered for two days.", "nausea lingered"),
    ],
)
def test_the_qualifier_said_by_a_verb_is_found_with_the_finding(target: str, output: str, span: str) -> None:
    m = ALIGNER.find(target, output)
    assert m is not None and m.text == span
    assert (m.tier, m.detail) == ("normalized", "qualifier")


@pytest.mark.parametrize(
    ("target", "output"),
    [
        ("recurrent infection", "Your blood test for infection came back normal."),  # a result
        ("recurrent pain", "Once the pain settled you returned to work."),  # not its subject
        ("recurrent pain", "The pain in your back returned to normal levels."),  # return to a state
        ("recurrent symptoms", "Come back to the clinic if the symptoms get worse."),  # verb first
        ("persistent cough", "Your cough is better, but your back is still sore."),
        ("persistent fever", "After the fever the nurse stayed, and she is still there."),
        ("recurrent symptoms", "Your symptoms got better and you came back to see us."),
    ],
)
def test_an_unrelated_verb_phrase_is_not_the_qualifier(target: str, output: str) -> None:
    m = ALIGNER.find(target, output)
    assert m is None or m.detail != "qualifier"


def test_the_finding_with_its_own_qualifier_word_is_matched_first() -> None:
    m = ALIGNER.find("recurrent symptoms", "No recurrent symptoms. Your symptoms have not come back.")
    assert m is not None and m.text == "recurrent symptoms" and m.detail == "string"


@pytest.mark.parametrize(
    ("source", "output", "level"),
    [
        ("She denies recurrent symptoms.", "So far your symptoms have not come back.", "UL1"),
        ("Recurrent pain is possible.", "The pain may come back after the shot wears off.", "UL3"),
        ("Monitor for recurrent infection.", "Call us if the infection returns.", "UL5"),
    ],
)
def test_the_level_is_read_from_the_verb_phrase(source: str, output: str, level: str) -> None:
    (p,) = cuelex.score(source, output).pairs
    assert p.match is not None and p.match.detail == "qualifier"
    assert p.output_level is not None and p.output_level.value == level


_WORDS = [
    "your", "the", "symptoms", "pain", "have", "has", "not", "may", "come", "came", "back", "returned",
    "to", "work", "normal", "test", "still", "there", "keep", "coming", "again", "happened", "and", ",", ".",
]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), max_size=20), st.sampled_from(["recurrent symptoms", "recurrence of pain", "persistent pain"]))
def test_a_qualifier_match_starts_at_the_finding_and_stays_in_one_segment(words: list[str], target: str) -> None:
    text = " ".join(words)
    m = ALIGNER.find(target, text)
    if m is None or m.detail != "qualifier":
        return
    said = normal_words(m.text)
    assert said[0] in ("symptom", "pain")
    assert not {",", "."} & set(m.text)
