"""A list item takes the level of its lead-in (issue 11, reading the output): "Call us if you
notice:" / "Possible causes:" / "Denies:" written once over bullets that carry no cue of their own,
a heading such as "### When to get help" over a numbered list, or a "label:" before the run of
items on one line. The lead-in wording is data, ``cuelex/data/list_lead_ins.tsv``; every row's
example is matched whole by its pattern and read through a list here. Examples are written for
these tests (the held-out probes are benchmark/data/rewrite_scope_probes.jsonl, written before the
rule)."""

from __future__ import annotations

import pytest
from _helpers import scored_pair

from cuelex.concepts.vocab import VocabularyError
from cuelex.levels import Level
from cuelex.scoring import scorer


def test_every_row_matches_its_example_and_reads_a_list() -> None:
    rows = scorer.list_lead_ins()
    assert {level.value for level, _p, _e in rows} >= {"UL1", "UL2", "UL3", "UL5"}
    for level, pattern, example in rows:
        assert pattern.fullmatch(example), (level, example)
        output = f"Your visit today.\n\n**{example}:**\n- chest pain\n- pneumonia\n"
        got = scorer._list_lead_in(output, output.index("pneumonia"))
        assert got is not None and got[0] is level, (example, got)


def test_bad_rows_are_named(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "list_lead_ins.tsv").write_text("# test\nrole\tpattern\texample\nUL9\tx\tx\n", encoding="utf-8")
    monkeypatch.setattr(scorer, "DATA_DIR", tmp_path)
    scorer.list_lead_ins.cache_clear()
    try:
        with pytest.raises(VocabularyError, match="role must be one of") as err:
            scorer.list_lead_ins()
        assert "list_lead_ins.tsv:3" in str(err.value)
    finally:
        scorer.list_lead_ins.cache_clear()


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # a lead-in line ending with ':' over bullets
        ("Call if he experiences dyspnea at rest.",
         "Start Lasix.\n\n**Call MD / 911 for:**\n- weights that keep rising\n- dyspnea at rest\n", "dyspnea", "UL5"),
        ("Possible pneumonia.", "The X-ray shows a shadow.\nPossible causes include:\n- pneumonia\n- a small collapse\n",
         "pneumonia", "UL3"),
        ("She denies hematuria.", "Anemia, new.\nDenies:\n- melena\n- hematuria\n", "hematuria", "UL1"),
        # the lead-in's last sentence only, and a nested list under a parent item ending with ':'
        ("She denies hematuria.", "Hb was 8.2. You told us you have not noticed any of these:\n- hematuria\n",
         "hematuria", "UL1"),
        ("Rule out pulmonary embolism.", "- Workup:\n- Tests to look for:\n  - pulmonary embolism\n  - pneumonia\n",
         "pulmonary embolism", "UL5"),
        # a heading over a numbered list
        ("Return if chest pain recurs.", "### When to get help\n1. Chest pain that comes back.\n2. Fainting.\n",
         "chest pain", "UL5"),
        # a label before the items on the same line
        ("Return if fever develops.", "- **Return precautions:** fever, chills, worsening pain\n", "fever", "UL5"),
        # a lead-in without such wording, or a paragraph between it and the item, gives nothing
        ("Likely pneumonia.", "**Plan:**\n- Treat pneumonia with antibiotics.\n", "pneumonia", "ASSERTED"),
        ("Possible pneumonia.", "Possible causes include:\nWe treated it.\n- pneumonia was found on the X-ray\n",
         "pneumonia", "ASSERTED"),
        # an item with its own cue keeps it
        ("Possible pneumonia.", "Possible causes:\n- no pneumonia on the X-ray\n", "pneumonia", "UL1"),
    ],
)
def test_list_items_take_their_lead_in_level(source: str, output: str, target: str, level: str) -> None:
    p = scored_pair(source, output, target)
    assert p.output_level is Level(level), (output, p.output_level, p.level_source)
    if level not in ("ASSERTED", "UL1"):
        # the lead-in list reading, or the extraction's own cue where the extraction now reads the
        # label itself (ul5.contingency_label: "Return precautions:", twentieth session)
        assert p.output_cue is not None and (
            (p.level_source == "lead_in" and p.output_cue.rule_id == "lead_in.list")
            or (p.level_source == "span" and p.output_cue.rule_id == "ul5.contingency_label")
        ), (p.level_source, p.output_cue)


@pytest.mark.parametrize(
    ("source", "output", "target", "level", "how"),
    [
        # a hedge said of the mention one sentence later, through a demonstrative
        ("Findings are consistent with moderate intermittent asthma.",
         "You have moderate intermittent asthma. Your symptoms are consistent with this type of asthma.",
         "moderate intermittent asthma", "UL2", "anaphor"),
        ("Exam consistent with coronary artery disease.",
         "Coronary artery disease narrows the heart's arteries. Your exam today fits with this condition.",
         "coronary artery disease", "UL2", "anaphor"),
        # a demonstrative of another finding, or a new paragraph, does not carry it back
        ("Exam consistent with coronary artery disease.",
         "You have coronary artery disease. Your knee pain is consistent with this injury.",
         "coronary artery disease", "ASSERTED", "span"),
        ("Exam consistent with coronary artery disease.",
         "You have coronary artery disease.\n\nYour exam today fits with this condition.",
         "coronary artery disease", "ASSERTED", "span"),
    ],
)
def test_a_later_demonstrative_carries_the_hedge(source: str, output: str, target: str, level: str, how: str) -> None:
    p = scored_pair(source, output, target)
    assert (p.output_level, p.level_source) == (Level(level), how), output


@pytest.mark.parametrize(
    ("output", "level"),
    [
        # the mention chosen restates the name (a verbless label line, a definition): the mention
        # that states the finding with a level answers for the source statement
        ("**Assessment:** mild cholecystitis w/ gallstones.\n- Exam and US c/w mild cholecystitis.", "UL2"),
        ("Mild cholecystitis is a condition of the gallbladder.\nYour ultrasound is consistent with mild cholecystitis.",
         "UL2"),
    ],
)
def test_a_restated_name_gives_way_to_the_statement(output: str, level: str) -> None:
    p = scored_pair("Ultrasound is consistent with mild cholecystitis.", output, "mild cholecystitis")
    assert p.output_level is Level(level), (output, p.level_source)
    if level != "ASSERTED":
        # chosen by the restatement rule, or by the sentence context already; the other stays listed
        assert p.level_source in ("restated_elsewhere", "span") and p.level_ambiguous


def test_the_restatement_rule_is_what_chooses_a_label_line() -> None:
    """The probe-style case: the verbless "Assessment:" line ranks first by context; the rule moves
    the choice to the hedged statement."""
    p = scored_pair(
        "Ultrasound is consistent with mild cholecystitis.",
        "**Assessment:** mild cholecystitis w/ gallstones.\n- Exam and US c/w mild cholecystitis.",
        "mild cholecystitis",
    )
    assert (p.output_level, p.level_source) == (Level.UL2, "restated_elsewhere")


@pytest.mark.parametrize(
    ("text", "name", "restates"),
    [
        ("**Assessment:** mild cholecystitis w/ gallstones.", "mild cholecystitis", True),
        ("Overall: emphysema changes, with no sign of a sudden problem.", "emphysema", True),
        ("Coronary artery disease is when the arteries narrow.", "Coronary artery disease", True),
        ("Pneumonia means an infection of the lung.", "Pneumonia", True),
        # statements: an assertion, a label line with a verb, a sentence after the label
        ("You have mild cholecystitis.", "mild cholecystitis", False),
        ("Assessment: the ultrasound shows mild cholecystitis.", "mild cholecystitis", False),
        ("Assessment: stable. Mild cholecystitis was found.", "Mild cholecystitis", False),
    ],
)
def test_what_restates_a_name(text: str, name: str, restates: bool) -> None:
    s = text.index(name)
    assert scorer._restates(text, s, s + len(name)) is restates


@pytest.mark.parametrize(
    ("output", "level"),
    [
        # items in parentheses right after the lead-in phrase
        ("**Counseling done:** spironolactone SEs (gynecomastia, dehydration — watch for dizziness).", "UL5"),
        ("The shadow has possible causes (pneumonia, dehydration or fluid).", "UL3"),
        # a parenthesis after a phrase that is no lead-in, or a gloss, gives nothing
        ("Labs today (sodium low, dehydration on exam).", "ASSERTED"),
    ],
)
def test_items_in_parentheses_after_a_lead_in(output: str, level: str) -> None:
    s = output.index("dehydration")
    got = scorer._list_lead_in(output, s)
    assert (got[0] if got is not None else Level.ASSERTED) is Level(level), output


def test_a_gloss_in_parentheses_is_no_list() -> None:
    text = "There's no sign of pneumonia (a lung infection) and no fluid."
    assert scorer._list_lead_in(text, text.index("infection")) is None


@pytest.mark.parametrize(
    ("output", "level"),
    [
        # a report header in capitals starts a new statement: the words before it lead nothing in
        ("Patient denies cough IMPRESSION: pneumonia", "ASSERTED"),
        ("Possible causes FINDINGS: pneumonia", "ASSERTED"),
        # the header alone, or a short capitalised finding after a lead-in, changes nothing
        ("DENIES: pneumonia", "UL1"),
        ("Call MD for SOB: pneumonia", "UL5"),
    ],
)
def test_a_section_header_closes_a_lead_in_label(output: str, level: str) -> None:
    got = scorer._list_lead_in(output, output.index("pneumonia"))
    assert (got[0] if got is not None else Level.ASSERTED) is Level(level), output
