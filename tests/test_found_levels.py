"""The level of a found target in an output (issue 11, "reading the output"): a linking verb
that hedges a state or finding ("seems well controlled", "appears to be stable"), a hedge that
covers every conjunct of the phrase it opens and the gloss of a later conjunct ("may be due to
heart failure or to extra fluid (volume overload)"), and a leaning toward absence that a "but"
clause leaves open ("less likely but cannot be excluded"), a heading read through the body statement
of the same finding, and alternatives around an "or" in a clause that reads an image. Examples are written for these tests
(the held-out probes are benchmark/data/level_probes.jsonl)."""

from __future__ import annotations

import pytest
from _helpers import scored_pair

from cuelex.scoring import score


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # a hedging linking verb right before the state: probable (UL2)
        ("Reflux: this appears to be well controlled.", "Reflux seems well controlled now.", "well controlled", "UL2"),
        ("Reflux: this appears to be well controlled.", "- Appears well controlled on omeprazole", "well controlled", "UL2"),
        ("Kidney function: this seems stable.", "Your kidney function seems to be stable.", "stable", "UL2"),
        ("Kidney function: this seems stable.", "Kidney function appears fairly stable.", "stable", "UL2"),
        ("Her cough seems consistent with bronchitis.", "Her cough seems to fit with bronchitis.", "bronchitis", "UL2"),
        # not hedged: a plain copula, a hedge on another clause, a negation before the verb
        ("Reflux: this appears to be well controlled.", "Reflux is well controlled now.", "well controlled", "ASSERTED"),
        ("Kidney function: this seems stable.", "It seems odd, but your kidney function is stable.", "stable", "ASSERTED"),
    ],
)
def test_copula_hedge(source: str, output: str, target: str, level: str) -> None:
    assert scored_pair(source, output, target).output_level.value == level


@pytest.mark.parametrize(
    "output", ["Reflux does not seem well controlled.", "Nothing appears well controlled yet.", "It doesn't look well controlled."]
)
def test_negated_copula_is_not_a_hedge(output: str) -> None:
    # a negation before the linking verb is not a probable reading; the rule leaves it alone
    p = scored_pair("Reflux: this appears to be well controlled.", output, "well controlled")
    assert p.level_source != "copula_hedge"
    assert p.output_level.value != "UL2"


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # a later conjunct under the hedge that opens the phrase
        ("Opacity may represent pneumonia or aspiration.", "It may be due to an infection or to aspiration.",
         "aspiration", "UL3"),
        ("Opacities likely atelectasis and scarring.", "These are probably from fluid and some old scarring.",
         "scarring", "UL2"),
        # a rewrite's "w/" or "together with" for the source's "and"
        ("Likely due to constipation and dysreflexia.", "Admission likely 2/2 constipation w/ autonomic dysreflexia (quadriplegia).",
         "dysreflexia", "UL2"),
        ("Likely due to constipation and dysreflexia.", "It was most likely caused by your constipation together with **autonomic dysreflexia**.",
         "dysreflexia", "UL2"),
        # ... and its parenthetical gloss, after a lay phrase or a relative clause
        ("Edema versus volume overload.", "This may be due to fluid in the lungs or to too much fluid in your body (volume overload).",
         "volume overload", "UL3"),
        ("Nodules, concerning for metastases.", "These spots could be cancer that has spread here from another organ (metastases).",
         "metastases", "UL3"),
        # a clause of its own after ", and" is not a conjunct of the hedged phrase
        ("Possible pneumonia. Possible cardiomegaly.", "You may have a chest infection, and the heart is enlarged (cardiomegaly).",
         "cardiomegaly", "ASSERTED"),
        ("Possible pneumonia. Possible scarring.", "There could be pneumonia. Some old scarring is also present.",
         "scarring", "ASSERTED"),
        ("Possible pneumonia. Possible scarring.", "You may have pneumonia but you have scarring too.",
         "scarring", "ASSERTED"),
    ],
)
def test_conjunct_scope(source: str, output: str, target: str, level: str) -> None:
    assert scored_pair(source, output, target).output_level.value == level


@pytest.mark.parametrize(
    "text",
    [
        "Pneumonia less likely but cannot be excluded.",
        "Pneumonia is unlikely, though it has not been ruled out.",
        "Pneumonia is unlikely.",
    ],
)
def test_leaning_with_a_contrast_reads_as_the_source_does(text: str) -> None:
    # an output is read as its source is: scoring a text against itself preserves the pair
    # ("less likely but cannot be excluded" is read the same way on both sides)
    (p,) = score(text, text, n_boot=0).pairs
    assert p.output_level is p.source.level and p.fate == "preserved"


@pytest.mark.parametrize(
    ("source", "output", "target", "level", "body"),
    [
        # the statement under a heading carries the finding: its tail, an abbreviation, the phrase
        ("Exam is consistent with a wrist sprain.", "**1. R wrist sprain** – fell on it; exam c/w sprain.",
         "wrist sprain", "UL2", "sprain"),
        ("Exam is consistent with congestive heart failure.", "**Congestive heart failure**\n- Exam consistent with CHF.",
         "congestive heart failure", "UL2", "CHF"),
    ],
)
def test_heading_takes_the_level_of_its_body(source: str, output: str, target: str, level: str, body: str) -> None:
    p = scored_pair(source, output, target)
    # the body's statement answers, through the heading ("heading_body") or, when the alignment
    # finds the body's own mention first (eighteenth session: a labels-only stage no longer
    # decides), as itself ("span")
    assert (p.output_level.value, p.match.text) == (level, body) and p.level_source in ("heading_body", "span")
    # the heading stays an occurrence of its own: recorded, and the pair flagged ambiguous
    assert len(p.match.candidates) == 2 and p.level_ambiguous


@pytest.mark.parametrize(
    ("source", "output", "target"),
    [
        # the body speaks of something else, or the negation is on a narrower phrase
        ("Probable chest pain.", "**Chest pain** – likely reflux; no pain at night.", "chest pain"),
        ("Possible wrist sprain.", "**Wrist sprain**\n- Swelling down, full grip strength.", "wrist sprain"),
        # a mention inside a sentence is not a heading
        ("Possible wrist sprain.", "The wrist sprain is healing; no sprain of the ankle.", "wrist sprain"),
    ],
)
def test_heading_without_a_body_statement_stays_asserted(source: str, output: str, target: str) -> None:
    p = scored_pair(source, output, target)
    assert p.output_level.value == "ASSERTED" and p.level_source != "heading_body"


def test_a_sentence_at_a_line_start_is_not_a_heading() -> None:
    # "Pneumonia was treated ..." opens a sentence; the later hedged mention is a candidate of its own
    out = "Pneumonia was treated last year.\n- Possible pneumonia again now."
    first = score("Possible pneumonia.", out, n_boot=0, choice="first").pairs[0]
    assert first.match.start == 0 and first.level_source != "heading_body"


@pytest.mark.parametrize(
    ("output", "level"),
    [
        # alternatives in a clause that reads an image or names a cause: a differential (UL3)
        ("The X-ray shows pneumonia or a small area of collapse.", "UL3"),
        ("These shadows are from a small area of collapse or pneumonia.", "UL3"),
        ("The film showed some fluid or pneumonia at the base.", "UL3"),
        # a history's "or", a count, a negated or conditional list: not a differential
        ("She had pneumonia or a bad chest cold last winter, she says.", "ASSERTED"),
        ("The X-ray shows pneumonia; take one or two tablets daily.", "ASSERTED"),
        ("The X-ray does not show pneumonia or a collapse.", "UL1"),
        # the reading word itself on the other side of "or" is no alternative finding
        ("Nothing new seen or pneumonia.", "ASSERTED"),
        ("Shadows seen or pneumonia on the film.", "ASSERTED"),
    ],
)
def test_or_alternative(output: str, level: str) -> None:
    p = scored_pair("Possible pneumonia.", output, "pneumonia")
    assert p.output_level.value == level
    if level == "UL3":
        assert p.output_cue.text == "or"
