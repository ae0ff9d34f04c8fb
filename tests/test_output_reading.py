"""Reading a found mention's level in patient-friendly outputs (issue 11): a medical name given to a
hedged or negated phrase (", called atelectasis"; "This is called a pulmonary embolism") takes that
phrase's level; an example takes its head's ("nothing worrying, such as a collapsed lung"); a yes/no
question whether a finding is there asks (UL5); an apposition between dashes is a gloss; single-mark
emphasis ("*might*", "_possible_") is read through; and the phrase table these readings (and the presence predicates) come from,
``cuelex/data/output_reading.tsv``. Examples are written for these tests (the held-out probes are
benchmark/data/level_probes_lay.jsonl, written before the rules)."""

from __future__ import annotations

import pytest
import regex
from _helpers import scored_pair

import cuelex
from cuelex.concepts.vocab import VocabularyError
from cuelex.scoring import scorer


def test_every_row_matches_its_example() -> None:
    rows = scorer.output_reading()
    assert set(rows) == set(scorer.OUTPUT_READING_ROLES)
    for role, entries in rows.items():
        assert entries, role
        for pattern, example in entries:
            assert regex.fullmatch(pattern, example, regex.V1 | regex.IGNORECASE), (role, pattern, example)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("colour\tred\tred", "role must be one of"),
        ("presence\t\tbuilt up", "expected a pattern and an example"),
        ("presence\t(?:x\tx", "does not compile"),
        ("presence\t(?:x)?\tx", "matches the empty string"),
    ],
)
def test_bad_rows_are_named(tmp_path, monkeypatch: pytest.MonkeyPatch, row: str, message: str) -> None:
    (tmp_path / "output_reading.tsv").write_text(f"# test\nrole\tpattern\texample\n{row}\n", encoding="utf-8")
    monkeypatch.setattr(scorer, "DATA_DIR", tmp_path)
    scorer.output_reading.cache_clear()
    try:
        with pytest.raises(VocabularyError, match=message) as err:
            scorer.output_reading()
        assert "output_reading.tsv:3" in str(err.value)
    finally:
        scorer.output_reading.cache_clear()


def test_presence_predicates_come_from_the_table() -> None:
    pats = scorer._patterns()
    for _pattern, example in scorer.output_reading()["presence"]:
        assert pats.presence.fullmatch(example), example
    assert pats.negated_presence.match(" has not flared up")
    assert pats.negated_presence.match(" never happened again")
    assert not pats.negated_presence.match(" has not stopped")


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # a name given later in the same sentence takes the level of the clause it names
        ("Findings may represent bronchiectasis.", "Your airways may have become widened, called bronchiectasis.",
         "bronchiectasis", "UL3"),
        ("Likely hydronephrosis.", "The kidney probably has some swelling from backed-up urine, which doctors call hydronephrosis.",
         "hydronephrosis", "UL2"),
        ("Possible hiatal hernia.", "There is no sign that part of your stomach has slipped upward, known as a hiatal hernia.",
         "hiatal hernia", "UL1"),
        # a sentence that names what the sentence before said
        ("Probable cholecystitis.", "Your gallbladder is probably inflamed. Doctors call this cholecystitis.",
         "cholecystitis", "UL2"),
        ("Possible pericardial effusion.", "There might be a little fluid around your heart. It is called a pericardial effusion.",
         "pericardial effusion", "UL3"),
        ("Probable splenomegaly.", "Your spleen seems to be larger than usual. The medical term for this is splenomegaly.",
         "splenomegaly", "UL2"),
        # not a name of a hedged statement: stated plainly, or a hedge in another clause
        ("Possible bronchiectasis.", "Your airways have become widened, called bronchiectasis.", "bronchiectasis", "ASSERTED"),
        ("Possible cholecystitis.", "There may be gallstones, but your gallbladder is inflamed, called cholecystitis.",
         "cholecystitis", "ASSERTED"),
        ("Possible cholecystitis.", "Your gallbladder is inflamed. This is called cholecystitis.", "cholecystitis", "ASSERTED"),
    ],
)
def test_naming_takes_the_named_level(source: str, output: str, target: str, level: str) -> None:
    assert scored_pair(source, output, target).output_level.value == level


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # an example takes its head's level: a negated head, a head that names nothing, a hedged head
        ("No pneumothorax.", "Nothing worrying was seen, such as a pneumothorax.", "pneumothorax", "UL1"),
        ("No pleural effusion.", "The scan did not find anything abnormal like a pleural effusion.", "pleural effusion", "UL1"),
        ("No fracture.", "We saw no sign of anything serious, for example a fracture.", "fracture", "UL1"),
        ("No fracture.", "The scan did not find anything abnormal like a pleural effusion or a fracture.", "fracture", "UL1"),
        ("Possible osteomyelitis.", "This might be a bone problem such as osteomyelitis.", "osteomyelitis", "UL3"),
        ("Possible cellulitis.", "Come back if you have a skin problem such as cellulitis.", "cellulitis", "UL5"),
        # stated plainly: the head is asserted, or "like" is no example lead
        ("Possible pneumothorax.", "The X-ray shows a problem such as a pneumothorax.", "pneumothorax", "ASSERTED"),
        ("Possible pneumothorax.", "It feels like a pneumothorax to you, and the X-ray shows one.", "pneumothorax", "ASSERTED"),
        ("No pneumothorax.", "Nothing was broken, but there is a pneumothorax.", "pneumothorax", "ASSERTED"),
    ],
)
def test_example_takes_the_head_level(source: str, output: str, target: str, level: str) -> None:
    assert scored_pair(source, output, target).output_level.value == level


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # a yes/no question about whether a finding is there asks (UL5)
        ("Possible gout.", "Is it gout? A blood test will help.", "gout", "UL5"),
        ("Possible pneumonia.", "Could this be pneumonia or just a cold? We will check.", "pneumonia", "UL5"),
        ("No chest pain.", "Do you have chest pain? Tell the nurse.", "chest pain", "UL5"),
        # a question answered right after it: the answer is the level
        ("Possible pneumonia.", "**Is it pneumonia?** No. The X-ray looks clear.", "pneumonia", "UL1"),
        ("Possible pneumonia.", "Is it pneumonia?\n- Probably not, but we will check again.", "pneumonia", "HEDGED_ABSENT"),
        ("Possible gout.", "Is it gout? Yes, it is gout.", "gout", "ASSERTED"),
        # a statement, with a question about something else
        ("Possible gout.", "It is gout. Is it painful?", "gout", "ASSERTED"),
    ],
)
def test_yes_no_question(source: str, output: str, target: str, level: str) -> None:
    assert scored_pair(source, output, target).output_level.value == level


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # an apposition between dashes renames the phrase before it, as a gloss in parentheses
        ("Possible pleural effusion.", "There might be some fluid — a pleural effusion — near the base of the lung.",
         "pleural effusion", "UL3"),
        ("No pleural effusion.", "We found no fluid – no pleural effusion – around your lungs.", "pleural effusion", "UL1"),
        ("Probable hydrocele.", "You probably have a small fluid sac — a hydrocele.", "hydrocele", "UL2"),
        # a naming sentence opened after a dash or semicolon
        ("Probable bursitis.", "The sac over your elbow is probably swollen — doctors call this bursitis.", "bursitis", "UL2"),
        ("Possible bursitis.", "The sac over your elbow may be swollen; this is called bursitis.", "bursitis", "UL3"),
        # a clause after the dash, or a plain statement before it, is not an apposition
        ("Possible pneumonia.", "There was no fever — pneumonia was found on the X-ray.", "pneumonia", "ASSERTED"),
        ("Possible hydrocele.", "You have a small fluid sac — a hydrocele — that needs no treatment.", "hydrocele", "ASSERTED"),
    ],
)
def test_dash_apposition_and_naming(source: str, output: str, target: str, level: str) -> None:
    assert scored_pair(source, output, target).output_level.value == level


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # single-mark emphasis is formatting: the words under it are read
        ("Possible pneumothorax.", "There *might* be a small *pneumothorax*.", "pneumothorax", "UL3"),
        ("Possible gout.", "It is _possible_ that you have gout.", "gout", "UL3"),
        ("Probable sprain.", "This is *most likely* a _sprain_ of the ankle.", "sprain", "UL2"),
        # emphasis on a plain statement stays a plain statement
        ("Possible gout.", "You *do* have gout, and it is treatable.", "gout", "ASSERTED"),
        ("Possible gout.", "It is *definitely* gout.", "gout", "ASSERTED"),
    ],
)
def test_single_emphasis_is_read_through(source: str, output: str, target: str, level: str) -> None:
    assert scored_pair(source, output, target).output_level.value == level


@pytest.mark.parametrize(
    "text",
    [
        "Your airways may have become widened, called bronchiectasis.",
        "Your gallbladder is probably inflamed. Doctors call this cholecystitis.",
        "Nothing worrying was seen, such as a pneumothorax.",
        "The scan did not find anything abnormal like a pleural effusion or a fracture.",
        "Is it gout? A blood test will help.",
        "**Is it pneumonia?** No. The X-ray looks clear.",
        "It probably isn't heart failure.",
        "The doctors are not yet sure if you have a blood clot in the lung.",
        "A scan will tell us whether a kidney stone is causing your pain.",
        "There might be some fluid — a pleural effusion — near the base of the lung.",
        "There *might* be a small *pneumothorax*.",
        "It is _possible_ that you have gout.",
    ],
)
def test_a_text_scored_against_itself_is_preserved(text: str) -> None:
    r = scorer.score(text, text, n_boot=0)
    assert all(p.fate == "preserved" for p in r.pairs), [(p.source.target_text, p.fate) for p in r.pairs]


def test_a_condition_named_inside_a_cue_takes_its_level() -> None:
    """ "One sign of dehydration to watch for is dizziness": the condition the sign is of is inside
    the UL5 cue and is read at its level; an object in a cue's slot ("watch the wound for") is not."""
    src = "We discussed his increased risk of dehydration. We will check the wound."
    p = scored_pair(src, "One sign of dehydration to watch for is dizziness.", "dehydration")
    assert (p.output_level.value, p.level_source) == ("UL5", "in_cue")
    r = scorer.score(src, "Watch the wound for redness. Dehydration is a risk.", n_boot=0)
    (q,) = [q for q in r.pairs if q.source.target_text == "dehydration"]
    assert q.level_source != "in_cue"


@pytest.mark.parametrize(
    ("output", "level"),
    [
        ("A small bowel obstruction might be causing your vomiting.", "UL3"),
        ("We are worried a small bowel obstruction might be causing your vomiting.", "UL3"),
        ("A small bowel obstruction may be the cause of your vomiting.", "UL3"),
        ("A small bowel obstruction could be behind your vomiting.", "UL3"),
        ("A small bowel obstruction is most likely what is making you sick.", "UL2"),
        ("A small bowel obstruction is causing your vomiting.", "ASSERTED"),
        ("A small bowel obstruction is not causing your vomiting.", "ASSERTED"),
    ],
)
def test_hedged_cause_predicate_gives_its_subject_the_hedge(output: str, level: str) -> None:
    """A finding proposed as a cause under a hedge ("might be causing", "may be the cause of") is
    hedged; the plain or negated cause predicate says nothing of the subject's certainty."""
    src = "I am concerned she may have a small bowel obstruction causing her vomiting."
    (pair,) = [p for p in cuelex.score(src, output, n_boot=0).pairs if p.source.target_text == "small bowel obstruction"]
    assert pair.output_level is not None and pair.output_level.value == level


@pytest.mark.parametrize(
    ("output", "level"),
    [
        ("Your hip pain is **likely** from **trochanteric bursitis**.", "UL2"),
        ("- Your hip pain is **most likely** caused by **trochanteric bursitis**.", "UL2"),
        ("Your hip pain is __likely__ from trochanteric bursitis.", "UL2"),
        ("**Your hip pain** comes from **trochanteric bursitis**.", "ASSERTED"),
    ],
)
def test_bold_emphasis_on_a_hedge_is_read_through(output: str, level: str) -> None:
    """Bold marks around a hedge split a cue of several words ("likely from"); the output is read
    again without them, as with single marks."""
    src = "ASSESSMENT: Right hip pain, likely trochanteric bursitis."
    (pair,) = [p for p in cuelex.score(src, output, n_boot=0).pairs if p.source.target_text == "trochanteric bursitis"]
    assert pair.output_level is not None and pair.output_level.value == level
