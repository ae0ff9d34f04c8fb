"""Alignment classes of session 19: a relational adjective said by its noun, a phrase looked for
with its adjective turned noun, an exposure said by what was taken, a derived form past a time
modifier. Every example sentence is written for this file (none is copied from a tune or written
document)."""

from __future__ import annotations

import pytest

from cuelex.scoring.align import adjective_nouns, find_target, noun_phrase, normal_words


@pytest.mark.parametrize(
    ("adjective", "noun"),
    [
        ("anemic", "anemia"),
        ("ischemic", "ischemia"),
        ("arthritic", "arthritis"),
        ("esophageal", "esophagus"),
        ("meniscal", "meniscus"),
        ("diabetic", "diabetes"),
        ("infectious", "infection"),
        ("prostatic", "prostate"),
        ("cirrhotic", "cirrhosis"),
        ("metastatic", "metastasis"),
        ("deficient", "deficiency"),
        ("abdominal", "abdomen"),
    ],
)
def test_relational_adjective_has_its_vocabulary_noun(adjective: str, noun: str) -> None:
    assert noun in adjective_nouns(adjective)


@pytest.mark.parametrize("word", ["renal", "normal", "cardiac", "clinical", "benign", "total", "anemia"])
def test_no_made_up_noun(word: str) -> None:
    """A root the vocabulary does not know gives no noun ("renal": no "renus")."""
    assert adjective_nouns(word) == ()


@pytest.mark.parametrize(
    ("target", "output", "found"),
    [
        ("anemic", "We will check whether you have anemia.", "anemia"),
        ("ischemic", "The test looks for ischemia of the heart muscle.", "ischemia"),
        ("arthritic changes", "The X-ray showed arthritis in both hips.", "arthritis"),
        ("meniscal pathology", "You probably have a meniscus tear.", "meniscus"),
        ("infectious cause", "An infection is possible.", "infection"),
        ("esophageal source", "A problem in the food pipe (esophagus) is possible.", "esophagus"),
        ("diabetic", "This is probably from your diabetes.", "diabetes"),
    ],
)
def test_adjective_target_found_by_its_noun(target: str, output: str, found: str) -> None:
    m = find_target(target, output)
    assert m is not None and m.text == found and m.detail == "derivation", m


def test_adjective_with_a_finding_head_is_not_reduced() -> None:
    """Only heads that add nothing are dropped: "arthritic pain" is not arthritis."""
    assert find_target("arthritic pain", "There is arthritis in your knee.") is None


def test_noun_phrase_turns_each_adjective() -> None:
    assert noun_phrase(normal_words("benign prostatic enlargement")) == ("benign", "prostate", "enlargement")
    assert noun_phrase(normal_words("iron deficient")) == ("iron", "deficiency")
    assert noun_phrase(normal_words("chest pain")) == ("chest", "pain")


@pytest.mark.parametrize(
    ("target", "output"),
    [
        ("benign prostatic enlargement", "Your prostate gland is enlarged, which can raise the PSA."),
        ("iron deficient", "If your iron is low we will start tablets."),
    ],
)
def test_phrase_found_with_its_adjective_turned_noun(target: str, output: str) -> None:
    assert find_target(target, output) is not None


@pytest.mark.parametrize(
    ("target", "output", "found"),
    [
        ("antibiotic use", "You have not taken any antibiotics this year.", "antibiotics"),
        ("steroid exposure", "You had steroids for your asthma last winter.", "steroids"),
    ],
)
def test_exposure_found_by_what_was_taken(target: str, output: str, found: str) -> None:
    m = find_target(target, output)
    assert m is not None and m.text == found, m


def test_derived_form_past_a_time_modifier() -> None:
    m = find_target("recent travel", "You have not traveled since the spring.")
    assert m is not None and m.text == "traveled", m


def test_side_shorthand_has_one_home() -> None:
    """The scorer's title-body side words, the alignment's capital side letters and the words
    always expanded all come from SIDE_SHORTHAND; word_variants.tsv holds no side row."""
    from cuelex.concepts import normalize
    from cuelex.scoring import align, scorer

    sides = normalize.SIDE_SHORTHAND
    assert dict(scorer._SIDE_WORDS) == {k: v for k, (v, _a) in sides.items()}
    assert dict(align._SIDE_LETTERS) == {"R": "right", "L": "left"}
    assert normalize.norm_token("bilat") == "bilateral"
    assert normalize.norm_token("rt") == "rt"  # radiotherapy in general text
    rows = (normalize.DATA_DIR / "word_variants.tsv").read_text(encoding="utf-8").splitlines()
    assert not any(r.split("\t")[0] in sides for r in rows if r and not r.startswith("#"))


def test_bilat_found_for_bilateral() -> None:
    m = find_target("bilateral ankle swelling", "Mild bilat ankle swelling, likely from the new tablet.")
    assert m is not None and m.text.startswith("bilat"), m


@pytest.mark.parametrize(
    ("target", "output", "found"),
    [
        ("Murphy sign", "RUQ tender, Murphy negative.", "Murphy"),
        ("postrenal cause", "Postrenal less likely given normal scan.", "Postrenal"),
        ("adrenal dysfunction", "Ddx: anxiety vs adrenal vs drug effect", "adrenal"),
    ],
)
def test_head_left_off_in_shorthand(target: str, output: str, found: str) -> None:
    m = find_target(target, output)
    assert m is not None and m.text == found and m.detail == "head_ellipsis", m


def test_bare_modifier_before_another_noun_is_not_the_phrase() -> None:
    """"adrenal glands" is an organ, not an adrenal dysfunction."""
    assert find_target("adrenal dysfunction", "The scan of your adrenal glands was clear.") is None


@pytest.mark.parametrize(
    ("target", "output", "found"),
    [
        ("anemia", "Your blood test showed you were a little anemic.", "anemic"),
        ("sepsis", "He did not look septic when he arrived.", "septic"),
    ],
)
def test_noun_target_found_by_its_predicate_adjective(target: str, output: str, found: str) -> None:
    m = find_target(target, output)
    assert m is not None and m.text == found, m


def test_adjective_before_another_noun_is_not_the_noun_target() -> None:
    assert find_target("infection", "We will send you to the infectious disease clinic.") is None
