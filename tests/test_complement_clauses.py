"""Hedges over a clause as LLM rewrites write them (issue 11, output reading): a hedge whose
complement clause states the target of a subject ("it is likely that you have X", "unclear whether
this is X", "looks like you have X"), a fronted hedge adverb with its comma ("Most likely, this is
X"), a reading named after a hedge ("one possible cause is X"), and a course, not a finding, after
"likely to" ("your pneumonia is likely to improve")."""

from __future__ import annotations

import pytest

import cuelex
from cuelex.align import Aligner
from cuelex.concepts.normalize import lay_key
from cuelex.scoring import score


def _pairs(text: str) -> list[tuple[str, str]]:
    return [(p.target_text, p.level.value) for p in cuelex.extract(text)]


@pytest.mark.parametrize(
    ("text", "target", "level"),
    [
        # a complement clause: "that"/"whether" + subject + copula or "have"
        ("It is likely that you have a kidney stone.", "kidney stone", "UL2"),
        ("It is highly unlikely that she has appendicitis.", "appendicitis", "HEDGED_ABSENT"),
        ("It is unclear whether there is a small fracture.", "small fracture", "UL4"),
        ("It looks like you have a sinus infection.", "sinus infection", "UL2"),
        ("Probably he has the flu.", "flu", "UL2"),
        ("It is likely that the shadow is a scar.", "scar", "UL2"),
        # a fronted hedge adverb and its comma
        ("Most likely, this is a viral rash.", "viral rash", "UL2"),
        ("Possibly, the pain comes from a pinched nerve.", "pain", "UL3"),
        # a reading head after a hedge names what the copula says
        ("One possible cause is a stomach ulcer.", "stomach ulcer", "UL3"),
        ("A possible explanation would be a thyroid problem.", "thyroid problem", "UL3"),
    ],
)
def test_hedge_reaches_the_target_of_its_clause(text, target, level):
    assert (target, level) in _pairs(text)


@pytest.mark.parametrize(
    ("text", "not_target"),
    [
        # a property of the subject keeps the subject as the target
        ("It is unclear whether the lesion is malignant.", "malignant"),
        # "No," answers; it does not reach past its comma
        ("No, you have a cold.", "cold"),
        # a course, not a finding
        ("Your pneumonia is likely to improve with antibiotics.", "pneumonia"),
        ("The rash may go away on its own.", "rash"),
    ],
)
def test_no_hedge_where_the_clause_says_something_else(text, not_target):
    assert not_target not in [t for t, _ in _pairs(text)]


def test_property_of_the_subject_keeps_the_subject():
    assert ("lesion", "UL4") in _pairs("It is unclear whether the lesion is malignant.")


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        ("Possible pneumonia.", "It is highly likely that you have pneumonia.", "pneumonia", "UL2"),
        ("Possible pneumonia.", "There is little chance that this is pneumonia.", "pneumonia", "HEDGED_ABSENT"),
        ("Possible pneumonia.", "We can't be sure whether this is pneumonia.", "pneumonia", "UL4"),
        ("Possible pneumonia.", "Pneumonia is one possibility.", "pneumonia", "UL3"),
        ("Possible pneumonia.", "Your doctors don't think this is pneumonia.", "pneumonia", "HEDGED_ABSENT"),
        ("Possible pneumonia.", "Your pneumonia is likely to improve with antibiotics.", "pneumonia", "ASSERTED"),
        ("Possible pneumonia.", "Most likely, this is pneumonia.", "pneumonia", "UL2"),
    ],
)
def test_output_level_of_clausal_hedges(source, output, target, level):
    r = score(source, output, n_boot=0)
    (p,) = [p for p in r.pairs if p.source.target_text == target]
    assert p.retained
    assert p.output_level.value == level


@pytest.mark.parametrize(
    ("source", "output", "target", "level", "how"),
    [
        # a predicate takes the level of its hedged subject
        ("Evaluate for possible ACL tear.", "An MRI will check whether the ligament is **torn**.", "ACL tear", "UL5", "subject"),
        ("Possible cardiomegaly.", "It is unclear whether the heart is enlarged.", "cardiomegaly", "UL4", None),
        # a gloss in markdown emphasis takes the level of the phrase it glosses
        ("No pneumothorax.", "- **No collapsed lung** (*pneumothorax*) was found.", "pneumothorax", "UL1", "gloss"),
        ("No pleural effusion.", "No fluid has built up around your lungs (_pleural effusion_).", "pleural effusion", "UL1", "gloss"),
        # alternatives with a spaced slash
        ("Heart failure or volume overload.", "Impression: mild heart failure / volume overload.", "volume overload", "UL3", None),
        # a conditional on a finding being found
        ("Evaluate for kidney stones.", "If kidney stones are found, you will see a urologist.", "kidney stones", "UL5", None),
    ],
)
def test_output_level_second_look(source, output, target, level, how):
    r = score(source, output, n_boot=0)
    (p,) = [p for p in r.pairs if p.source.target_text == target]
    assert p.retained
    assert p.output_level.value == level
    if how is not None:
        assert p.level_source == how


@pytest.mark.parametrize(
    "output",
    [
        # a plain statement after another sentence's hedge stays asserted
        "There may be some fluid. The heart is enlarged.",
        # a negated subject does not negate a predicate of another clause
        "No pneumonia; the heart is enlarged.",
    ],
)
def test_predicate_reading_stays_in_its_clause(output):
    r = score("Probable cardiomegaly.", output, n_boot=0)
    (p,) = [p for p in r.pairs if p.source.target_text == "cardiomegaly"]
    assert p.retained
    assert p.output_level.value == "ASSERTED"


def test_spaced_slash_is_not_a_unit():
    assert not [p for p in cuelex.extract("Heart rate 80 beats / min.") if p.rule_id == "alt.slash"]


@pytest.mark.parametrize(
    ("text", "target", "level"),
    [
        # a vague head after a hedge names nothing: what it is a problem with is the target
        ("This is most likely caused by a problem with the knee cartilage.", "knee cartilage", "UL2"),
        ("You may have an issue with your thyroid gland.", "thyroid gland", "UL3"),
    ],
)
def test_vague_head_after_a_hedge(text, target, level):
    assert (target, level) in _pairs(text)


@pytest.mark.parametrize(
    ("target", "sentence", "found"),
    [
        ("splenomegaly", "Your spleen is bigger than normal.", True),
        ("hepatomegaly", "The liver may be a bit larger than usual.", True),
        ("cardiomegaly", "Your heart is not bigger than normal.", True),
        ("cardiomegaly", "Your liver is bigger than normal.", False),
        ("splenomegaly", "Your spleen is smaller than normal.", False),
    ],
)
def test_bigger_than_normal_is_enlarged(target, sentence, found):
    assert (Aligner().find(target, sentence) is not None) is found


def test_size_words_in_lay_keys():
    assert lay_key(["spleen", "is", "bigger", "than", "normal"]) == lay_key(["enlarged", "spleen"])
    assert lay_key(["bigger", "than", "you"]) != lay_key(["enlarged", "you"])


@pytest.mark.parametrize(
    ("source", "output", "retained"),
    [
        # a long-ago time right after the mention: the patient's past, not the source's finding
        ("Possible recurrent pneumonia.", "You had pneumonia last year.", False),
        ("Possible fracture.", "You broke a bone as a child, and it healed well.", False),
        ("Possible asthma.", "You were told you had asthma as a kid.", False),
        # a recent time, or a time with a verb of its own, keeps the mention
        ("Possible fever.", "You may have had a fever last night.", True),
        ("Possible pneumonia.", "There may be pneumonia; it was worse last year.", True),
    ],
)
def test_long_ago_mention_is_the_past(source, output, retained):
    r = score(source, output, n_boot=0)
    assert r.pairs
    assert r.pairs[0].retained is retained


@pytest.mark.parametrize(
    ("source", "output", "level"),
    [
        # an organ's normal size answers its enlargement at any source level
        ("Possible cardiomegaly.", "Your heart is a normal size.", "UL1"),
        ("Cardiomegaly is likely.", "The heart is probably a normal size.", "HEDGED_ABSENT"),
    ],
)
def test_normal_size_answers_a_hedged_enlargement(source, output, level):
    r = score(source, output, n_boot=0)
    assert r.pairs[0].retained
    assert r.pairs[0].output_level.value == level


@pytest.mark.parametrize(
    ("output", "retained"),
    [
        # risk-reduction advice is not a statement about the patient's state
        ("Taking aspirin may lower your risk of another stroke.", False),
        ("Quitting smoking will reduce the chance of a stroke.", False),
        # a raised risk is a contingency about this patient, read as UL5
        ("You have a higher chance of a stroke.", True),
    ],
)
def test_risk_reduction_advice_is_not_the_finding(output, retained):
    r = score("Possible stroke.", output, n_boot=0)
    assert r.pairs[0].retained is retained
