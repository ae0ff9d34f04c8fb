"""Alignment of session 15 (issue 11): a slash list of modifiers sharing one head ("GI/GU bleeding"
names gastrointestinal bleeding), a shorthand arrow as the condition of a course ("No improvement
→ MRI"), and a raised reading whose measured quantity stands earlier in its sentence ("Home BP
daily; call if elevated"), and a measured quantity by its shorthand alone ("BP"). Sentences are written for these tests (clinic-note style, no report
text); ``benchmark/data/alignment_probes15.jsonl`` was written before the build."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _helpers import fates_of

from cuelex.concepts.vocab import DATA_DIR, VocabularyError, tsv_rows
from cuelex.scoring.align import Aligner, arrow_condition, normal_words, quantity_abbreviations

ALIGNER = Aligner()
PROBES = Path(__file__).resolve().parents[1] / "benchmark" / "data" / "alignment_probes15.jsonl"
ROWS = [json.loads(x) for x in PROBES.read_text(encoding="utf-8").splitlines() if x.strip()]


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_held_out_probe_keeps_its_result(row: dict) -> None:
    if row.get("judge") == "pair":
        # a course target is found through its source pair (a UL5 contingency on the course)
        fates = fates_of(row["source"], row["output"], row["target"])
        assert fates, row["id"]
        want = [row["fate"]] if row["expect"] == "found" else ["ABSENT"]
        assert fates == want * len(fates), (row["id"], fates)
        return
    m = ALIGNER.find(row["target"], row["output"])
    if row["expect"] == "absent":
        assert m is None, (row["id"], m)
        return
    a = row["output"].find(row["anchor"])
    assert m is not None and a >= 0 and m.start < a + len(row["anchor"]) and a < m.end, (row["id"], m)
    if "fate" in row:
        assert fates_of(row["source"], row["output"], row["target"]) in ([], [row["fate"]])


@pytest.mark.parametrize(
    ("target", "output", "said"),
    [
        ("gastrointestinal bleeding", "Denies GI/GU/abnormal menstrual bleeding.", "GI/GU/abnormal menstrual bleeding"),
        ("hepatic cysts", "CT: small hepatic/renal cysts.", "hepatic/renal cysts"),
        ("renal cysts", "CT: small hepatic/renal/splenic cysts.", "renal/splenic cysts"),
    ],
)
def test_a_slash_list_of_modifiers_shares_its_head(target: str, output: str, said: str) -> None:
    m = ALIGNER.find(target, output)
    assert m is not None and m.text == said


@pytest.mark.parametrize(
    ("target", "output"),
    [
        ("gastrointestinal bleeding", "GI/GU review negative; no bleeding gums."),  # the list ends before the head
        ("renal cysts", "A/P: renal function normal; liver cysts."),  # "A/P" is one unit, not a list
    ],
)
def test_a_slash_list_never_reaches_past_its_phrase(target: str, output: str) -> None:
    m = ALIGNER.find(target, output)
    assert m is None or m.detail not in ("phrase", "ellipsis"), m


@pytest.mark.parametrize(
    ("text", "arrow"),
    [
        ("No improvement → consider steroid injection.", "→"),
        ("- Not better in 2 wk -> ortho referral", "->"),
        ("No improvement → started gabapentin.", None),  # what was done, not a contingency
        ("No improvement. Ortho → MRI", None),  # the arrow is in another sentence
    ],
)
def test_an_arrow_after_a_course_opening_its_clause_is_its_condition(text: str, arrow: str | None) -> None:
    start = text.find("No") if text.startswith("No") else text.find("Not")
    got = arrow_condition(text, start)
    assert (text[got[0] : got[1]] if got else None) == arrow


def test_the_arrow_reads_the_course_as_a_contingency() -> None:
    fates = fates_of(
        "If his symptoms do not improve, we will consider a steroid injection.",
        "- PT 6 wk\n- No improvement → steroid inj", "symptoms do not improve",
    )
    assert fates == ["UL5"]


def test_a_raised_reading_takes_its_quantity_from_the_same_sentence_only_under_a_condition() -> None:
    assert ALIGNER.find("elevation", "Home BP daily; portal msg if elevated.") is not None
    assert ALIGNER.find("elevation", "Home BP daily; legs elevated at night.") is None
    assert ALIGNER.find("elevation", "Home BP daily.\nCall if elevated swelling.") is None


QUANTITY_COLUMNS = ("abbreviation", "quantity", "example_target", "example_output")
QUANTITY_ROWS = list(tsv_rows(DATA_DIR / "quantity_abbreviations.tsv", QUANTITY_COLUMNS, "quantity abbreviation table"))


@pytest.mark.parametrize(("line", "cols"), QUANTITY_ROWS, ids=[c[0] for _n, c in QUANTITY_ROWS])
def test_every_quantity_abbreviation_example_is_found_on_the_shorthand(line: int, cols: list[str]) -> None:
    m = ALIGNER.find(cols[2], cols[3])
    assert m is not None, f"quantity_abbreviations.tsv line {line}: {cols[2]!r} not found in {cols[3]!r}"
    assert (m.tier, m.detail, m.text) == ("abbreviation", "quantity", cols[0])
    assert cols[0] in quantity_abbreviations()[normal_words(cols[1])]


@pytest.mark.parametrize(
    ("target", "output"),
    [
        ("high blood pressure", "BP 118/76 today; no meds."),  # a finding about the quantity
        ("elevated blood pressures", "BP log reviewed; all readings normal."),
        ("blood pressure", "bp cuff given."),  # lower case is not the table's shorthand
    ],
)
def test_a_finding_about_a_quantity_is_not_its_bare_shorthand(target: str, output: str) -> None:
    m = ALIGNER.find(target, output)
    assert m is None or m.detail != "quantity", m


def test_a_malformed_quantity_row_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "quantity_abbreviations.tsv"
    bad.write_text("# comment\n" + "\t".join(QUANTITY_COLUMNS) + "\nbp\tblood pressure\tblood pressure\tbp 120/80\n", encoding="utf-8")
    with pytest.raises(VocabularyError, match="capital abbreviation") as err:
        quantity_abbreviations(bad)
    assert "quantity_abbreviations.tsv:3" in str(err.value)
