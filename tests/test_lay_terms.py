"""Lay language in alignment: the HPO-derived table, curated lay terms, word variants, lay cues."""

from __future__ import annotations

from pathlib import Path

import pytest

import cuelex
from cuelex import vocab
from cuelex.align import Aligner
from cuelex.normalize import concept_id, concept_ids, norm_token, phrase_key, word_variants
from cuelex.scoring import score

HPO_OBO = vocab.default_hpo_path()
LAY = vocab.read_lay_terms()


def _variant_rows() -> list[list[str]]:
    rows = []
    path = vocab.DATA_DIR / "word_variants.tsv"
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x and not x.startswith("#")]
    for line in lines[1:]:
        rows.append(line.split("\t"))
    return rows


# ------------------------------------------------------------------------------ the HPO table


def test_hpo_table_acknowledges_hpo_and_its_version():
    head = vocab.hpo_table_path().read_text(encoding="utf-8").splitlines()[:2]
    assert "Human Phenotype Ontology (version 2025-01-16)" in head[0]
    assert "http://www.human-phenotype-ontology.org" in head[0]
    attribution = (vocab.DATA_DIR / "HPO_ATTRIBUTION.md").read_text(encoding="utf-8")
    assert "2025-01-16" in attribution and "Köhler" in attribution


def test_hpo_table_holds_layperson_synonyms_with_cuis():
    rows = vocab.read_hpo_table()
    lay = {r.term: r for r in rows if r.term_type == "layperson"}
    assert len(lay) > 6000
    assert lay["Fluid around lungs"].umls_cuis == ("C0032227",)
    assert lay["Collapsed lung"].hpo_id == "HP:0002107"


@pytest.mark.skipif(not HPO_OBO.is_file(), reason="hp.obo is not in ../shared (checkout only)")
def test_hpo_table_is_rebuilt_byte_for_byte(tmp_path: Path):
    out = tmp_path / "hpo.tsv"
    vocab.write_hpo_table(
        vocab.build_hpo_table(HPO_OBO), out, version=vocab.hpo_version(HPO_OBO)
    )
    assert out.read_bytes() == vocab.hpo_table_path().read_bytes()


def test_bad_hpo_and_lay_files_name_the_problem(tmp_path: Path):
    bad = tmp_path / "hpo.tsv"
    bad.write_text("hpo_id\tterm\tterm_type\tumls_cuis\nHP:1\tx\tlabel\t\n", encoding="utf-8")
    with pytest.raises(vocab.VocabularyError, match=r"hpo.tsv:2: bad row"):
        vocab.read_hpo_table(bad)
    lay = tmp_path / "lay.tsv"
    lay.write_text(
        "concept\tlay_term\tstrength\texample_source\texample_output\npneumonia\tlung bug\tsame\t\t\n",
        encoding="utf-8",
    )
    with pytest.raises(vocab.VocabularyError, match="example source and output"):
        vocab.read_lay_terms(lay)
    with pytest.raises(vocab.VocabularyError, match="not found"):
        vocab.build_hpo_table(tmp_path / "missing.obo")


# ------------------------------------------------------------------------------ concepts


@pytest.mark.parametrize(
    ("lay", "term"),
    [
        ("fluid around your lungs", "pleural effusion"),
        ("a collapsed lung", "pneumothorax"),
        ("your heart is enlarged", "cardiomegaly"),
        ("swollen lymph nodes", "lymphadenopathy"),
        ("coughing up blood", "hemoptysis"),
    ],
)
def test_hpo_layperson_terms_join_open_vocabulary_concepts(lay, term):
    assert concept_id(term) in {e.concept_id for e in concept_ids(lay)}


def test_lay_keys_skip_filler_but_keep_prepositions():
    assert phrase_key("fluid around your lungs") == ("fluid", "around", "lung")
    assert phrase_key("heart is enlarged") == phrase_key("enlarged heart")
    assert phrase_key("fluid in the lungs") != phrase_key("fluid around the lungs")


@pytest.mark.parametrize("row", LAY, ids=[f"{t.concept}~{t.lay_term}" for t in LAY])
def test_each_curated_lay_term(row):
    """The concept resolves (to the open vocabulary, or to a concept of its own), and its example
    output is matched on the lay term."""
    assert concept_id(row.concept) is not None or concept_ids(row.concept), row.concept
    m = Aligner().find(row.concept, row.example_output)
    assert m is not None, f"{row.lay_term!r} not found in {row.example_output!r}"
    assert m.tier == "cui", m
    # the match is the lay phrase: it holds every word of the term's key
    assert set(phrase_key(row.lay_term)) <= {norm_token(w) for w in m.text.split()} | set(
        phrase_key(m.text)
    ), (m.text, row.lay_term)
    if row.strength == "related":
        assert m.low_confidence
    r = score(row.example_source, row.example_output, n_boot=0)
    assert any(p.retained for p in r.pairs) or not r.pairs, r.summary()


@pytest.mark.parametrize("row", _variant_rows(), ids=lambda r: r[0])
def test_each_word_variant(row):
    variant, word, source, output = row
    assert norm_token(variant) == word
    pairs = cuelex.extract(source)
    assert pairs, source
    r = score(source, output, n_boot=0)
    assert all(p.retained for p in r.pairs), r.summary()
    assert any(variant.lower() in p.match.text.lower() for p in r.pairs if p.match)


def test_word_variants_leave_capital_abbreviations_to_the_abbreviation_tier():
    assert norm_token("PNA") == "pna" and norm_token("pna") == "pneumonia"
    assert "fx" in word_variants()


# ------------------------------------------------------------------------------ never invent


@pytest.mark.parametrize(
    ("source", "output"),
    [
        # "no signs of infection" is now a weak related paraphrase of a negated consolidation, as
        # the fate readers take it (tests/test_kept_targets.py); an infection elsewhere never is
        ("No focal consolidation.", "Your lungs look clear. Finish the antibiotics for your bladder infection."),
        ("No pleural effusion.", "There is no fluid in your lungs."),
        ("No pericardial effusion.", "There is no fluid around your lungs."),
        ("No L4 fracture.", "An L5 fracture is seen."),
        ("Possible pulmonary nodule.", "Your heart is enlarged."),
        ("No pneumothorax.", "There is a partly collapsed lung."),
        # lay terms found by coverage (benchmark/lay_coverage.py): each names its own finding only
        ("No pleural effusion.", "There is no fluid around your heart."),
        ("No deep vein thrombosis.", "There is no blood clot in your lungs."),
        ("Possible rotator cuff tendinopathy.", "You may have a torn rotator cuff."),
        ("Denies hematochezia.", "You have not had any blood in your urine."),
        ("No fever.", "Your temperature was normal."),
        ("No murmurs.", "We heard no crackling sound in your lungs."),
        ("No pulmonary edema.", "There is no swelling in your legs."),
    ],
)
def test_lay_alignment_does_not_invent_retention(source, output):
    r = score(source, output, n_boot=0)
    assert r.pairs and not any(p.retained for p in r.pairs), r.summary()
