"""Hedges written as labels and in terse wording (issue 12, eleventh session): a hedge label's colon
opens its list instead of ending the sentence ("Ddx: A vs B", "Likely: X"); an either-way cue that
ends its sentence reads back across a comma ("Cellulitis, presumed."); a genus initial stays in the
target ("H. pylori"); "suggests" takes a clause ("suggests he is retaining fluid")."""

from __future__ import annotations

import pytest

import cuelex
from cuelex.extraction.sentences import SentenceSplitter
from cuelex.resources import default_resources


def _pairs(text: str) -> dict[str, tuple[str, str]]:
    return {p.target_text: (p.level.value, p.cue_text) for p in cuelex.extract(text)}


@pytest.mark.parametrize(
    ("text", "target", "level"),
    [
        ("Likely: viral bronchitis.", "viral bronchitis", "UL2"),
        ("Most likely: plantar fasciitis.", "plantar fasciitis", "UL2"),
        ("Leading dx: acute gout flare.", "acute gout flare", "UL2"),
        ("Ddx includes: pleurisy, pericarditis, and costochondritis.", "pericarditis", "UL3"),
        ("Differential: cluster headache vs migraine.", "cluster headache", "UL3"),
        ("Rule out: deep vein thrombosis.", "deep vein thrombosis", "UL5"),
        ("- **Likely:** allergic rhinitis", "allergic rhinitis", "UL2"),
        ("Impression:\nProbable: early cellulitis.", "early cellulitis", "UL2"),
    ],
)
def test_hedge_label_colon_opens_its_list(text: str, target: str, level: str) -> None:
    assert _pairs(text).get(target, (None,))[0] == level, _pairs(text)


def test_hedge_label_is_one_sentence_and_a_plain_header_still_cuts() -> None:
    splitter = SentenceSplitter(default_resources().sentences)
    assert len(splitter.split("Ddx: asthma vs COPD.")) == 1
    assert len(splitter.split("Leading dx: gout.")) == 1
    assert len(splitter.split("Impression: gout.")) == 2


def test_colon_after_a_finding_still_ends_the_scope() -> None:
    # the label rule is about a cue right before the colon, not any colon after a hedge
    pairs = _pairs("Possible pneumonia: follow-up advised.")
    assert pairs.get("pneumonia", (None,))[0] == "UL3"
    assert "follow-up" not in " ".join(pairs)


@pytest.mark.parametrize(
    ("text", "target", "level"),
    [
        ("Gastroenteritis, presumed.", "Gastroenteritis", "UL2"),
        ("Left knee effusion, likely.", "Left knee effusion", "UL2"),
        ("Early cellulitis, possible.", "Early cellulitis", "UL3"),
    ],
)
def test_sentence_final_either_cue_reads_back_across_a_comma(text: str, target: str, level: str) -> None:
    assert _pairs(text).get(target, (None,))[0] == level, _pairs(text)


def test_either_cue_with_a_following_reading_still_reads_forward() -> None:
    pairs = _pairs("Effusion, likely atelectasis.")
    assert pairs.get("atelectasis", (None,))[0] == "UL2"
    assert "Effusion" not in pairs


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("We will test for H. pylori.", "H. pylori"),
        ("Stool studies to look for C. diff.", "C. diff"),
        ("Urine culture to check for E. coli.", "E. coli"),
    ],
)
def test_genus_initial_stays_in_the_target(text: str, target: str) -> None:
    assert _pairs(text).get(target, (None,))[0] == "UL5", _pairs(text)


def test_suggests_takes_a_clause() -> None:
    pairs = _pairs("The swelling of both ankles suggests she is retaining fluid.")
    assert pairs.get("retaining fluid", (None,))[0] == "UL2", pairs


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("Repeat testing to monitor for improvement in the left facial droop.", "improvement in the left facial droop"),
        ("We will watch for worsening in her ankle swelling.", "worsening in her ankle swelling"),
    ],
)
def test_course_noun_keeps_its_finding(text: str, target: str) -> None:
    assert _pairs(text).get(target, (None,))[0] == "UL5", _pairs(text)


@pytest.mark.parametrize(
    "text", ["We will monitor for changes in 6 months.", "We will monitor for changes in a few weeks."]
)
def test_course_noun_before_a_time_gives_no_pair(text: str) -> None:
    # the time is no target; since the fourteenth session the bare course noun after a watching
    # verb is (the real-text gold reads "monitor for progression or changes in 6 months" as UL5)
    pairs = _pairs(text)
    assert set(pairs) <= {"changes"}, pairs
    assert all(v[0] == "UL5" for v in pairs.values()), pairs


def test_second_condition_keeps_the_finding_and_not_the_test() -> None:
    pairs = _pairs("If the ultrasound is normal and his symptoms persist, we will refer him to surgery.")
    assert pairs.get("symptoms persist", (None,))[0] == "UL5", pairs
    assert "ultrasound" not in pairs and "surgery" not in pairs
    # a course verb in the first condition is that condition's own finding
    first = _pairs("If the pain persists and the swelling worsens, call.")
    assert first.get("pain", (None,))[0] == "UL5", first
