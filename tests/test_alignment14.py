"""Alignment of session 14 (issue 11): capital shorthand read inside a phrase ("prostate CA" ~
prostate cancer, ``cuelex/data/phrase_abbreviations.tsv``), the lay parts of new organs and
findings, and two guards on the head-noun tier ("in response to" names no inflammatory response;
"your eyes tear up" no meniscal tear). Sentences are written for these tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cuelex
from cuelex.concepts.vocab import DATA_DIR, VocabularyError, tsv_rows
from cuelex.scoring.align import Aligner, normal_words, phrase_abbreviations, target_parts

COLUMNS = ("abbreviation", "expansion", "example_target", "example_output")
ROWS = list(tsv_rows(DATA_DIR / "phrase_abbreviations.tsv", COLUMNS, "phrase abbreviation table"))
ALIGNER = Aligner()
PROBES = Path(__file__).resolve().parents[1] / "benchmark" / "data" / "lay_concept_probes14.jsonl"


@pytest.mark.parametrize(("line", "cols"), ROWS, ids=[f"{c[0]}:{c[2]}" for _n, c in ROWS])
def test_every_phrase_abbreviation_example_is_found_on_the_shorthand(line: int, cols: list[str]) -> None:
    m = ALIGNER.find(cols[2], cols[3])
    assert m is not None, f"phrase_abbreviations.tsv line {line}: {cols[2]!r} not found in {cols[3]!r}"
    assert (m.tier, m.detail) == ("abbreviation", "phrase")
    assert cols[0] in m.text.split()
    assert normal_words(cols[1]) in phrase_abbreviations()[cols[0]]


@pytest.mark.parametrize(
    ("target", "output"),
    [
        ("breast cancer", "Breast exam normal. Ca 9.4."),  # calcium, not beside the organ
        ("prostate cancer", "Calcium (Ca) level was normal; prostate exam was normal."),
        ("rotator cuff tear", "RC pending; no tear of the meniscus."),  # shorthand alone
        ("colon cancer", "FHx colon polyps; CA 19-9 normal."),
        ("prostate cancer", "Prostate ca screening discussed."),  # lower case is not the table's shorthand
    ],
)
def test_shorthand_is_never_read_alone_or_away_from_its_phrase(target: str, output: str) -> None:
    m = ALIGNER.find(target, output)
    assert m is None or (m.tier, m.detail) != ("abbreviation", "phrase"), m


def test_an_evidence_target_is_found_with_its_finding_in_shorthand() -> None:
    m = ALIGNER.find("concerning symptoms of prostate cancer", "Enlarged prostate, likely BPH; nothing concerning for prostate CA.")
    assert m is not None and m.text == "prostate CA" and m.detail == "evidence"


def test_the_shorthand_keeps_the_source_level_reading() -> None:
    r = cuelex.score("Possible rotator cuff tear.", "R shoulder: possible RC tear, MRI ordered.", n_boot=0)
    (p,) = r.pairs
    assert p.match is not None and p.match.detail == "phrase"
    assert p.output_level is not None and p.output_level.value == "UL3"


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("ca\tcancer\tprostate cancer\tprostate ca\n", "capitalised abbreviation"),
        ("CA\t\tprostate cancer\tprostate CA\n", "capitalised abbreviation"),
        ("CA\tcancer\tprostate cancer\t\n", "an example"),
    ],
)
def test_a_malformed_phrase_abbreviation_row_names_file_and_line(tmp_path: Path, row: str, message: str) -> None:
    bad = tmp_path / "phrase_abbreviations.tsv"
    bad.write_text("# comment\n" + "\t".join(COLUMNS) + "\n" + row, encoding="utf-8")
    with pytest.raises(VocabularyError, match=message) as err:
        phrase_abbreviations(bad)
    assert "phrase_abbreviations.tsv:3" in str(err.value)


@pytest.mark.parametrize(
    ("target", "parts"),
    [
        ("diabetic retinopathy", {"eye", "enlarged"}),
        ("peripheral neuropathy", {"nerve", "enlarged"}),
        ("patellar tendinitis", {"tendon", "inflamed"}),
        ("bursitis", {"bursa", "inflamed"}),
        ("muscular sprain", {"muscle", "strained"}),
        ("lumbar strain", {"lower back", "strained"}),
        ("medial meniscal tear", {"meniscus", "torn"}),
        ("otitis media", {"ear", "inflamed"}),
    ],
)
def test_new_organs_and_findings_decompose(target: str, parts: set[str]) -> None:
    assert {p.name for p in target_parts(normal_words(target))} == parts


@pytest.mark.parametrize(
    ("target", "output", "said"),
    [
        ("diabetic retinopathy", "Keep your eye appointment to check for diabetes-related eye damage.", "eye damage"),
        ("muscular sprain", "Your back pain is most likely from a pulled or strained muscle.", "pulled or strained muscle"),
        ("lateral ligament strain", "You probably stretched a ligament on the outside of your knee.", "stretched a ligament"),
    ],
)
def test_lay_rewordings_of_the_new_parts_are_found(target: str, output: str, said: str) -> None:
    m = ALIGNER.find(target, output)
    assert m is not None and (m.tier, m.detail) == ("parts", "compose") and m.text == said


@pytest.mark.parametrize(
    ("target", "output"),
    [
        ("muscular strain", "Take the muscle relaxer at night; you strained to lift your grandson."),
        ("diabetic retinopathy", "Your eye exam was normal and there is no damage to your feet."),
        ("meniscal tear", "Your eyes tear up in the wind."),
        ("inflammatory response", "Your sugar went up in response to the infection."),
        ("muscle strain", "Your heart muscle looks strained from the fast rhythm."),  # another organ's muscle
    ],
)
def test_the_organ_or_head_in_another_role_is_not_the_target(target: str, output: str) -> None:
    assert ALIGNER.find(target, output) is None


@pytest.mark.parametrize(
    ("target", "output", "said"),
    [
        ("gout exacerbation", "Your gout may flare up again.", "flare"),  # a lay variant keeps its particle
        # since session 18 the whole phrase, a possessive after "in" being no word of it
        ("meniscus tear", "An MRI will check for a tear in your meniscus.", "tear in your meniscus"),
    ],
)
def test_the_head_noun_is_still_found_where_it_names_the_finding(target: str, output: str, said: str) -> None:
    m = ALIGNER.find(target, output)
    assert m is not None and m.text == said


def test_the_held_out_probes_keep_their_measured_result() -> None:
    """benchmark/data/lay_concept_probes14.jsonl was written before this session's build; the
    numbers are those in docs/scoring.md (found 19/19, false matches 1/10: "reaction" is still
    taken for an allergic reaction)."""
    rows = [json.loads(x) for x in PROBES.read_text(encoding="utf-8").splitlines() if x.strip()]
    found = absent_wrong = 0
    for row in rows:
        m = ALIGNER.find(row["target"], row["output"])
        if row["expect"] == "absent":
            absent_wrong += m is not None
            continue
        a = row["output"].find(row["anchor"])
        found += m is not None and a >= 0 and m.start < a + len(row["anchor"]) and a < m.end
    assert (found, absent_wrong) == (19, 1)
