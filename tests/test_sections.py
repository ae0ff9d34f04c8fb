"""Section splitting of MIMIC-IV-Note discharge summaries and radiology reports (rules/sections.yaml)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from cuelex.schema import ResourceError
from cuelex.sections import DOC_TYPES, Sectionizer, load_section_rules, split_sections

FIXTURES = Path(__file__).parent / "fixtures" / "bench"
RULES = load_section_rules()
EXAMPLES = [
    pytest.param(rule, profile, ex, id=f"{rule.id}-{i}")
    for rule in RULES.rules
    for profile in rule.profiles
    for i, ex in enumerate(rule.examples)
]


@pytest.mark.parametrize(("rule", "profile", "example"), EXAMPLES)
def test_every_rule_example(rule, profile, example):
    sections = split_sections(example.text, profile)
    assert sections, f"{rule.id}: no section in {example.text!r}"
    first = sections[0]
    assert (first.doc_type, first.text) == (example.doc_type, example.body)
    for s in sections:
        assert example.text[s.start : s.end] == s.text
        assert example.text[s.header_start : s.header_end] == s.header


def test_every_section_type_has_a_rule_and_types_are_the_papers():
    types = {r.doc_type for r in RULES.rules if r.doc_type}
    assert types == set(DOC_TYPES) - {"pathology"}
    assert Sectionizer("discharge").doc_types == (
        "assessment",
        "brief_hospital_course",
        "discharge_diagnosis",
    )
    assert Sectionizer("radiology").doc_types == ("radiology_findings", "radiology_impression")


@pytest.mark.parametrize(
    ("header", "doc_type"),
    [
        ("DISCHARGE DIAGNOSES:", "discharge_diagnosis"),
        ("Discharge Diagnosis:", "discharge_diagnosis"),
        ("Discharge Diagnoses", "discharge_diagnosis"),
        ("FINAL DIAGNOSES", "discharge_diagnosis"),
        ("Final Diagnosis:", "discharge_diagnosis"),
        ("Primary diagnosis:", "discharge_diagnosis"),
        ("Primary Diagnoses", "discharge_diagnosis"),
        ("Brief Hospital Course:", "brief_hospital_course"),
        ("BRIEF HOSPITAL COURSE:", "brief_hospital_course"),
        ("Hospital Course:", "brief_hospital_course"),
        ("Assessment and Plan:", "assessment"),
        ("ASSESSMENT & PLAN:", "assessment"),
        ("Assessment/Plan:", "assessment"),
        ("A/P:", "assessment"),
        ("Assessment:", "assessment"),
        ("** Assessment and Plan **", "assessment"),
    ],
)
def test_discharge_header_variants(header, doc_type):
    note = f"History of Present Illness:\nFever.\n{header}\nPossible pneumonia.\nDischarge Instructions:\nRest."
    (section,) = split_sections(note, "discharge")
    assert section.doc_type == doc_type
    assert section.text == "Possible pneumonia."
    assert note[section.start : section.end] == "Possible pneumonia."


@pytest.mark.parametrize(
    ("header", "doc_type"),
    [
        ("IMPRESSION:", "radiology_impression"),
        ("Impression", "radiology_impression"),
        ("Impression:", "radiology_impression"),
        ("IMPRESSIONS:", "radiology_impression"),
        ("CONCLUSION", "radiology_impression"),
        ("Conclusion:", "radiology_impression"),
        ("FINDINGS", "radiology_findings"),
        ("Findings:", "radiology_findings"),
        ("  FINDINGS:  ", "radiology_findings"),
    ],
)
def test_radiology_header_variants(header, doc_type):
    note = f"EXAMINATION: CHEST\nINDICATION: cough\n{header}\n \nLikely atelectasis.\n \nRECOMMENDATION(S): none"
    (section,) = split_sections(note, "radiology")
    assert (section.doc_type, section.text) == (doc_type, "Likely atelectasis.")


def test_header_inside_a_line_or_as_a_word_is_not_a_header():
    note = "FINDINGS:\nThe impression is of a small effusion.\nNo findings of pneumonia.\nImpression of the ribs: normal."
    (section,) = split_sections(note, "radiology")
    assert section.doc_type == "radiology_findings"
    assert section.text.endswith("Impression of the ribs: normal.")


def test_empty_sections_are_left_out_and_profiles_do_not_mix():
    note = "Discharge Diagnosis:\n___\n \nDischarge Condition:\nStable\nIMPRESSION: possible PNA"
    assert split_sections(note, "discharge") == []
    assert [s.doc_type for s in split_sections(note, "radiology")] == ["radiology_impression"]
    assert [s.doc_type for s in split_sections(note, ("discharge", "radiology"))] == [
        "radiology_impression"
    ]


def test_repeated_section_types_are_separate_sections_in_order():
    note = "FINDINGS: No effusion.\nIMPRESSION: Normal.\nADDENDUM:\nFINDINGS: Possible nodule.\nIMPRESSION: ? nodule."
    got = [(s.doc_type, s.text) for s in split_sections(note, "radiology")]
    assert got == [
        ("radiology_findings", "No effusion."),
        ("radiology_impression", "Normal."),
        ("radiology_findings", "Possible nodule."),
        ("radiology_impression", "? nodule."),
    ]


def test_fixture_notes_are_split_with_exact_offsets():
    with open(FIXTURES / "discharge.csv", newline="", encoding="utf-8") as fh:
        notes = [r for r in csv.DictReader(fh) if r.get("text")]
    found = {}
    for row in notes:
        for s in split_sections(row["text"], "discharge"):
            assert row["text"][s.start : s.end] == s.text
            found.setdefault(row["note_id"], []).append(s.doc_type)
    assert found["10000001-DS-1"] == ["brief_hospital_course", "discharge_diagnosis"]
    assert found["10000002-DS-1"] == ["brief_hospital_course", "assessment", "discharge_diagnosis"]
    assert "10000005-DS-1" not in found  # its only target section is empty ("___")


def test_unknown_profile_and_non_text_input():
    with pytest.raises(ValueError, match="unknown section profile 'nursing'"):
        Sectionizer("nursing")
    with pytest.raises(TypeError, match="must be a str"):
        Sectionizer("radiology").sections(None)  # type: ignore[arg-type]


GOOD_RULE = """
  - id: my.findings
    profiles: [radiology]
    doc_type: radiology_findings
    headers: ["findings"]
    examples:
      - {text: "FINDINGS: none", doc_type: radiology_findings, body: "none"}
"""


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        (
            GOOD_RULE.replace('["findings"]', '["find(ings"]'),
            r"entry 0 \(id 'my.findings'\), field 'headers': .*invalid regular expression",
        ),
        (GOOD_RULE.replace('["findings"]', '["(findings)"]'), "capturing group"),
        (GOOD_RULE.replace('["findings"]', '["x*"]'), "matches the empty string"),
        (GOOD_RULE.replace("[radiology]", "[nursing]"), r"field 'profiles.0'"),
        (GOOD_RULE.replace('body: "none"', 'body: "nothing"'), "does not occur in example text"),
        (GOOD_RULE.replace("id: my.findings", "id: Findings"), r"field 'id'"),
    ],
)
def test_bad_section_rules_are_reported_with_file_entry_and_field(tmp_path, rule, message):
    path = tmp_path / "sections.yaml"
    path.write_text("description: test\nrules:\n" + rule, encoding="utf-8")
    with pytest.raises(ResourceError, match=message) as info:
        load_section_rules(path)
    assert str(path) in str(info.value)


def test_a_valid_custom_rule_file_is_usable(tmp_path):
    path = tmp_path / "sections.yaml"
    path.write_text("description: test\nrules:\n" + GOOD_RULE, encoding="utf-8")
    sectionizer = Sectionizer("radiology", load_section_rules(path))
    assert [s.text for s in sectionizer.sections("FINDINGS: Possible PNA.")] == ["Possible PNA."]
