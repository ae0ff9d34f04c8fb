"""A finding written as a clause in an output (issue 11, "reading the output"): the clause governed
by a negated, hedged or checking expression takes that expression's level ("no sign that the
spleen is swollen"); a hedge in the verb group of a presence predicate sets the level of its
subject and the mention covers the predicate ("fluid has probably built up"), and so does a
negation there ("the pain hasn't come back", written for recurrence); a mention after
", and" with its own verb is not an item of an earlier negated list. Examples are written for these
tests (the held-out probes are benchmark/data/clause_probes.jsonl)."""

from __future__ import annotations

import pytest
from _helpers import scored_pair


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # the complement clause takes the governing expression's level
        ("Possible hepatomegaly.", "There is no sign that your liver is enlarged.", "hepatomegaly", "UL1"),
        ("Possible cardiomegaly.", "We found no indication that the heart is enlarged.", "cardiomegaly", "UL1"),
        ("Possible pleural effusion.", "There is no evidence that fluid has built up around the lungs.",
         "pleural effusion", "UL1"),
        ("Possible splenomegaly.", "Nothing on the scan shows that the spleen is enlarged.", "splenomegaly", "UL1"),
        ("Possible hepatomegaly.", "There is no real reason to believe that your liver is enlarged.",
         "hepatomegaly", "UL1"),
        ("Possible cardiomegaly.", "The doctors are not certain whether your heart is enlarged.", "cardiomegaly", "UL4"),
        # a clause to be checked is a check, whatever polarity it is written in
        ("Rule out rib fracture.", "An X-ray will confirm that no rib is broken.", "rib fracture", "UL5"),
        ("Rule out fracture.", "We want to check that your wrist has not broken.", "fracture", "UL5"),
        # two statements: the negation of the first does not reach the second clause
        ("Possible splenomegaly.", "There is no sign of bleeding; your spleen is enlarged.", "splenomegaly", "ASSERTED"),
        ("Possible cardiomegaly.", "The scan showed that your heart is enlarged.", "cardiomegaly", "ASSERTED"),
        ("Possible cardiomegaly.", "We are not sure why, but your heart is enlarged.", "cardiomegaly", "ASSERTED"),
    ],
)
def test_complement_clause_level(source: str, output: str, target: str, level: str) -> None:
    assert scored_pair(source, output, target).output_level.value == level


@pytest.mark.parametrize(
    ("source", "output", "target", "level", "span"),
    [
        ("Probable pleural effusion.", "Some fluid has most likely collected around the right lung.",
         "pleural effusion", "UL2", "fluid has most likely collected"),
        ("Possible pleural effusion.", "Fluid may be building up around your lungs.",
         "pleural effusion", "UL3", "Fluid may be building up"),
        ("Possible pleural effusion.", "A bit of fluid might have pooled at the base of the lung.",
         "pleural effusion", "UL3", "fluid might have pooled"),
        ("Pleural effusion is unlikely.", "Fluid has probably not collected around the lung.",
         "Pleural effusion", "HEDGED_ABSENT", "Fluid has probably not collected"),
    ],
)
def test_hedge_in_presence_predicate(source: str, output: str, target: str, level: str, span: str) -> None:
    p = scored_pair(source, output, target)
    assert (p.output_level.value, p.level_source, p.match.text) == (level, "predicate", span)
    assert output[p.match.start : p.match.end] == p.match.text


@pytest.mark.parametrize(
    ("source", "output", "target"),
    [
        # a hedge about the finding's cause, course or treatment leaves the finding asserted
        ("Possible pleural effusion.", "The fluid around your lungs might be from an infection.", "pleural effusion"),
        ("Possible pleural effusion.", "Fluid has collected around the lung and may have to be drained.",
         "pleural effusion"),
        ("Possible pleural effusion.", "The fluid around the lung may shrink with treatment.", "pleural effusion"),
        # ", and" opens a clause with its own verb: the earlier negation does not reach it
        ("Possible pleural effusion.", "There is no sign of a collapsed lung, and fluid has collected at the base.",
         "pleural effusion"),
    ],
)
def test_presence_predicate_controls(source: str, output: str, target: str) -> None:
    assert scored_pair(source, output, target).output_level.value == "ASSERTED"


def test_negated_list_still_reaches_its_last_item() -> None:
    # the ", and" rule needs a verb of the item's own: a plain list keeps its negation
    p = scored_pair("No pleural effusion or pneumothorax.",
              "There is no fluid around the lungs, and no collapsed lung.", "pneumothorax")
    assert p.output_level.value == "UL1"


@pytest.mark.parametrize(
    ("source", "output", "target", "span"),
    [
        # a negation in the verb group of a recurrence or presence predicate negates its subject
        ("No recurrent migraines.", "Your migraines have not come back this year.", "recurrent migraines",
         "migraines have not come back"),
        ("No recurrent nosebleeds.", "The nosebleeds haven't returned since the cautery.", "recurrent nosebleeds",
         "nosebleeds haven't returned"),
        ("No recurrent rash.", "The rash on your arm never came back.", "recurrent rash", "rash on your arm never came back"),
        ("No pleural effusion.", "Fluid has not built up around your lungs.", "pleural effusion",
         "Fluid has not built up"),
    ],
)
def test_negated_presence_predicate(source: str, output: str, target: str, span: str) -> None:
    p = scored_pair(source, output, target)
    # a recurrence qualifier matched by its verb ("recurrent" ~ "have not come back") already spans
    # the predicate, so the negation is read inside the match; otherwise the predicate reader does
    assert (p.output_level.value, p.match.text) == ("UL1", span)
    # the qualifier match may carry the engine's own "not" cue inside it
    assert p.level_source in (("predicate", "inner_cue") if p.match.detail == "qualifier" else ("predicate",))


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        ("No recurrent migraines.", "The migraines have come back twice since March.", "recurrent migraines", "ASSERTED"),
        # a negated predicate that is not about presence ("has not stopped") leaves it asserted
        ("No recurrent nosebleeds.", "The nosebleeds have not stopped.", "recurrent nosebleeds", "ASSERTED"),
        # a conditional keeps its own reading
        ("No recurrent rash.", "Call us if the rash comes back.", "recurrent rash", "UL5"),
    ],
)
def test_negated_presence_controls(source: str, output: str, target: str, level: str) -> None:
    assert scored_pair(source, output, target).output_level.value == level
