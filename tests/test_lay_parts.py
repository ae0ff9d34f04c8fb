"""Compositional lay matching (alignment tier ``parts``, ``cuelex/data/lay_parts.tsv``): a clinical
target found in lay words of its anatomy and finding parts, and never where the organ is named with
another finding. Sentences are written for these tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuelex
from cuelex.concepts.vocab import DATA_DIR, VocabularyError, tsv_rows
from cuelex.scoring.align import DEFAULT_TIERS, Aligner, lay_parts, normal_words, target_parts

COLUMNS = ("role", "form", "part", "relation", "lay", "hpo_support", "example_target", "example_output")
ROWS = list(tsv_rows(DATA_DIR / "lay_parts.tsv", COLUMNS, "lay parts table"))
PARTS = Aligner(["parts"])


def test_parts_is_a_default_tier_between_concepts_and_fuzzy() -> None:
    assert DEFAULT_TIERS.index("cui") < DEFAULT_TIERS.index("parts") < DEFAULT_TIERS.index("fuzzy")


@pytest.mark.parametrize(("line", "cols"), ROWS, ids=[f"{c[1]}:{c[6]}" for _n, c in ROWS])
def test_every_row_example_is_found_on_its_part(line: int, cols: list[str]) -> None:
    m = PARTS.find(cols[6], cols[7])
    assert m is not None, f"lay_parts.tsv line {line}: {cols[6]!r} not found in {cols[7]!r}"
    assert (m.tier, m.detail) == ("parts", "compose")
    names = {p.name for p in target_parts(normal_words(cols[6]))}
    assert cols[2] in names, f"line {line}: {cols[6]!r} does not decompose into {cols[2]!r}"
    said = normal_words(m.text)
    assert any(
        all(w in said for w in normal_words(alt)) for alt in cols[4].split("|")
    ), f"line {line}: the match {m.text!r} holds no lay word of the row"


@pytest.mark.parametrize(
    ("target", "parts"),
    [
        ("cardiomegaly", {"heart", "enlarged"}),
        ("hepatosplenomegaly", {"liver", "spleen", "enlarged"}),
        ("pericarditis", {"heart", "inflamed"}),
        ("nephrolithiasis", {"kidney", "stone"}),
        ("hydronephrosis", {"kidney", "swollen"}),
        ("small right pleural effusion", {"lung", "fluid"}),
        ("mediastinal lymphadenopathy", {"lymph node", "enlarged"}),
        ("cystitis", {"bladder", "inflamed"}),
        ("liver lesion", {"liver", "lump"}),
    ],
)
def test_targets_decompose_into_parts(target: str, parts: set[str]) -> None:
    assert {p.name for p in target_parts(normal_words(target))} == parts


@pytest.mark.parametrize("target", ["pneumonia", "cystic", "effusion", "colon", "collapse", "hepatic", "focal consolidation"])
def test_targets_without_two_parts_and_a_finding_are_not_composed(target: str) -> None:
    assert target_parts(normal_words(target)) == ()


def test_pleural_is_around_the_lung_pulmonary_inside_it() -> None:
    pleural = {p.name: p.relation for p in target_parts(normal_words("pleural effusion"))}
    pulmonary = {p.name: p.relation for p in target_parts(normal_words("pulmonary edema"))}
    assert pleural["lung"] == "around" and pulmonary["lung"] == "in"


@pytest.mark.parametrize(
    ("target", "output", "lay"),
    [
        ("nephrolithiasis", "A tiny stone is sitting in the left kidney.", "stone"),
        ("cholecystitis", "The gallbladder wall looks irritated.", "irritated"),
        ("splenomegaly", "It seems your spleen has grown a little.", "grown"),
        ("pleural effusion", "A bit of fluid is collecting outside the right lung.", "fluid"),
        ("pulmonary edema", "There is some water inside the lungs.", "water"),
        ("osteopenia", "The bones in your hip are somewhat thinner.", "thinner"),
        ("cervical lymphadenopathy", "You have a few swollen glands in your neck.", "swollen"),
        ("pancreatic mass", "There may be a growth on the pancreas.", "growth"),
    ],
)
def test_lay_wordings_of_the_parts_are_found(target: str, output: str, lay: str) -> None:
    m = PARTS.find(target, output)
    assert m is not None and lay in m.text


@pytest.mark.parametrize(
    ("target", "output"),
    [
        ("cardiomegaly", "Your heart rate was a little fast."),
        ("cardiomegaly", "Your heart beats strongly, but your ankles are swollen."),
        ("nephrolithiasis", "The kidney doctor will see you next week."),
        ("nephrolithiasis", "A stone was found in your gallbladder and your kidneys look healthy."),
        ("pleural effusion", "There is fluid around your heart."),
        ("pleural effusion", "Fluid inside the lungs was not seen."),
        ("pulmonary edema", "No fluid has collected around the lungs."),
        ("hepatomegaly", "Your liver enzymes are a little high."),
        ("right nephrolithiasis", "There is a small stone in your left kidney."),
        ("renal cyst", "Drink plenty of fluids to keep your kidneys working."),
    ],
)
def test_the_organ_with_another_finding_is_not_the_target(target: str, output: str) -> None:
    assert PARTS.find(target, output) is None


@pytest.mark.parametrize(
    ("source", "output", "level"),
    [
        ("Possible nephrolithiasis.", "You may have a small stone in your right kidney.", "UL3"),
        ("No pericardial effusion.", "We did not see any fluid surrounding the heart.", "UL1"),
        ("Cholecystitis cannot be excluded.", "We cannot rule out that your gallbladder is inflamed.", "UL3"),
        ("Possible cholecystitis.", "Your gallbladder is definitely inflamed.", "ASSERTED"),
    ],
)
def test_the_level_is_read_at_the_composed_span(source: str, output: str, level: str) -> None:
    (p,) = cuelex.score(source, output).pairs
    assert p.match is not None and p.match.tier == "parts"
    assert p.match.low_confidence  # a composed match is listed for checking
    assert p.output_level is not None and p.output_level.value == level


HEADER = "\t".join(COLUMNS) + "\n"


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("organ\thepat-\tliver\tin\tliver\t0\thepatitis\tYour liver is inflamed.\n", "role must be one of"),
        ("anatomy\thepat-\tliver\t\tliver\t0\thepatitis\tYour liver is inflamed.\n", "relation in/around"),
        ("finding\t-itis\tinflamed\tin\tinflamed\t0\thepatitis\tYour liver is inflamed.\n", "relation in/around"),
        ("anatomy\thepat-\tliver\tin\tliver\t0\thepatitis\t\n", "an example"),
        ("anatomy\thepat-\tliver\tin\tliver\tmany\thepatitis\tYour liver is inflamed.\n", "hpo_support must be a count"),
    ],
)
def test_a_malformed_row_names_file_and_line(tmp_path: Path, row: str, message: str) -> None:
    bad = tmp_path / "lay_parts.tsv"
    bad.write_text("# comment\n" + HEADER + row, encoding="utf-8")
    with pytest.raises(VocabularyError, match=message) as err:
        lay_parts(bad)
    assert "lay_parts.tsv:3" in str(err.value)


_WORDS = [
    "your", "the", "heart", "kidney", "liver", "lungs", "stone", "fluid", "around", "in", "is", "may",
    "be", "swollen", "bigger", "not", "but", "and", "function", "rate", "inflamed", "gallbladder",
    "left", "right", "looks", "a", "small", ",", ".",
]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(_WORDS), max_size=25),
    st.sampled_from(["cardiomegaly", "nephrolithiasis", "pleural effusion", "cholecystitis", "right renal cyst", "hepatomegaly"]),
)
def test_a_composed_match_holds_a_lay_word_of_every_part_in_one_clause(words: list[str], target: str) -> None:
    text = " ".join(words)
    m = PARTS.find(target, text)
    if m is None:
        return
    said = normal_words(m.text)
    for part in target_parts(normal_words(target)):
        assert any(all(w in said for w in alt) for alt in part.lay), (part.name, m.text)
    assert not {",", "."} & set(m.text) and "but" not in said
