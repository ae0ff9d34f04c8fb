"""The open term table, the supplement, and index building (open table and UMLS-format fixture)."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import pytest

from cuelex import vocab
from cuelex.vocab import VocabularyError

FIXTURE = Path(__file__).parent / "fixtures" / "umls"
DO_DIR = vocab.default_do_dir()


@pytest.fixture(scope="session")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # shared by the test modules: the open index is built once per session
    return tmp_path_factory.getbasetemp() / "cuelex-cache"


@pytest.fixture(scope="session")
def umls_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("umls") / "index"
    return vocab.build_umls_index(FIXTURE, out, semantic_types=None, progress=False)


def by_term(rows: list[vocab.TermRow], term: str) -> list[vocab.TermRow]:
    return [r for r in rows if r.term == term]


# ---- the shipped term table --------------------------------------------------------------------


def test_shipped_table_links_key_findings_and_abbreviations() -> None:
    rows = vocab.read_term_table()
    assert len(rows) > 20000
    (pneumonia,) = by_term(rows, "pneumonia")
    (pna,) = by_term(rows, "PNA")
    assert pneumonia.concept_id == "C0032285"  # the CUI Disease Ontology gives
    assert pna.term_type == "AB" and pna.concept_id == pneumonia.concept_id
    assert by_term(rows, "PE")[0].preferred_name == "pulmonary embolism"
    # findings DO lacks come from the supplement, with a CUI only where one is certain
    assert by_term(rows, "pleural effusion")[0].concept_id == "C0032227"
    assert by_term(rows, "opacity")[0].concept_id == "CLX:opacity"
    assert by_term(rows, "opacities")[0].concept_id == "CLX:opacity"  # generated plural
    # DO classes without a CUI get a stable cuelex id
    assert all(vocab.check_concept_id(r.concept_id) for r in rows)
    assert any(r.concept_id.startswith("CLX:DOID_") for r in rows)
    # one concept per term string
    keys = [r.term.lower() for r in rows if r.term_type != "AB"]
    assert len(keys) == len(set(keys))


def test_stoplisted_acronyms_are_not_abbreviations() -> None:
    rows = vocab.read_term_table()
    abbreviations = {r.term for r in rows if r.term_type == "AB"}
    stop = vocab.read_abbreviation_stoplist()
    supplement = {a for c in vocab.read_supplement() for a in c.abbreviations}
    assert not (abbreviations & stop) - supplement
    assert "ALL" not in abbreviations and "CAN" not in abbreviations


@pytest.mark.skipif(not DO_DIR.is_dir(), reason="Disease Ontology extracts not present")
def test_shipped_table_is_reproducible_from_the_sources(tmp_path: Path) -> None:
    out = tmp_path / "terms.tsv"
    dest, n = vocab.regenerate_term_table(DO_DIR, out)
    assert dest == out and n == len(vocab.read_term_table())
    assert out.read_bytes() == vocab.term_table_path().read_bytes()


def test_term_table_errors_name_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "t.tsv"
    bad.write_text("\t".join(vocab.TERM_TABLE_COLUMNS) + "\nNOT_AN_ID\tfoo\tPT\tfoo\tT047\tx\n")
    with pytest.raises(VocabularyError, match=r"t\.tsv:2: bad concept_id 'NOT_AN_ID'"):
        vocab.read_term_table(bad)
    bad.write_text("concept_id\tterm\n")
    with pytest.raises(VocabularyError, match="expected header"):
        vocab.read_term_table(bad)
    with pytest.raises(VocabularyError, match="does not exist"):
        vocab.read_term_table(tmp_path / "missing.tsv")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("C123\tfoo\tT047\t\t", "neither a CUI nor CLX"),
        ("\tfoo\tT999\t\t", "semantic_type 'T999'"),
        ("\tfoo\tT047\t\tPNA", "abbreviation 'PNA' already defined"),
        ("\tbar\tT047\tpneumonia\t", "term 'pneumonia' already belongs to line"),
        ("CLX:x!\tbaz\tT047\t\t", "only a UMLS CUI can carry"),
    ],
)
def test_supplement_validation(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "supp.tsv"
    header = "\t".join(vocab.SUPPLEMENT_COLUMNS)
    path.write_text(f"# comment\n{header}\n\tpneumonia\tT047\t\tPNA\n{line}\n")
    with pytest.raises(VocabularyError, match=message) as err:
        vocab.read_supplement(path)
    assert "supp.tsv:4:" in str(err.value)


def test_supplement_rows_are_valid() -> None:
    concepts = vocab.read_supplement()
    assert len(concepts) >= 300
    names = {c.preferred_name for c in concepts}
    for finding in (
        "effusion", "opacity", "consolidation", "atelectasis", "cardiomegaly", "nodule",
        "mass", "lesion", "fracture", "hemorrhage", "edema", "pneumothorax", "lymphadenopathy",
        "infiltrate",
    ):  # fmt: skip
        assert finding in names
    abbreviations = {a for c in concepts for a in c.abbreviations}
    assert {"PNA", "PE", "MI", "CHF", "PTX", "AMS", "DVT", "UTI", "CVA"} <= abbreviations


def test_plural_variants() -> None:
    assert vocab._plural_variants("pulmonary nodule") == ["pulmonary nodules"]
    assert vocab._plural_variants("opacity") == ["opacities"]
    assert vocab._plural_variants("metastasis") == ["metastases"]
    assert vocab._plural_variants("embolus") == ["emboli"]
    assert vocab._plural_variants("CHF") == []


def test_rrf_round_trip(tmp_path: Path) -> None:
    rows = [
        vocab.TermRow("C0032285", "pneumonia", "PT", "pneumonia", ("T047",), "DOID:552"),
        vocab.TermRow("C0032285", "PNA", "AB", "pneumonia", ("T047",), "CUELEX"),
    ]
    vocab.write_rrf(rows, tmp_path)
    conso = (tmp_path / "MRCONSO.RRF").read_text().splitlines()
    assert len(conso[0].split("|")) == 19  # 18 fields and the trailing bar
    fields = conso[0].split("|")
    assert (
        fields[0] == "C0032285"
        and fields[1] == "ENG"
        and fields[6] == "Y"
        and fields[14] == "pneumonia"
    )
    assert conso[1].split("|")[11:13] == ["CUELEX", "AB"]
    assert (tmp_path / "MRSTY.RRF").read_text() == "C0032285|T047||Disease or Syndrome||\n"


# ---- index building ---------------------------------------------------------------------------


def test_umls_fixture_index(umls_index: Path) -> None:
    data = vocab.load_index(umls_index)
    assert (
        data.manifest["kind"] == "umls"
        and data.manifest["format_version"] == vocab.INDEX_FORMAT_VERSION
    )
    # medspacy_quickumls layout
    for name in ("umls-simstring.db", "cui-semtypes.db", "lowercase.flag", "database_backend.flag"):
        assert (umls_index / name).exists()
    assert data.concepts["C0032285"].preferred_name == "Pneumonia"  # TS=P, STT=PF, ISPREF=Y row
    assert data.concepts["C0032227"].semantic_types == ("T046",)
    assert "C0004057" in data.concepts  # semantic_types=None keeps the drug
    # "PE" names two concepts in the fixture: the curated supplement decides
    assert data.abbreviations["PE"] == "C0034065"
    assert data.abbreviations["CHF"] == "C0018802"
    assert data.abbreviations["DM"] == "C0011849"  # 2 letters: only because the supplement has it
    assert data.abbreviations["PNA"] == "C0032285"  # supplement abbreviation resolved by CUI


def test_umls_filters(tmp_path: Path) -> None:
    out = vocab.build_umls_index(FIXTURE, tmp_path / "i", progress=False)  # default semantic types
    data = vocab.load_index(out)
    assert "C0004057" not in data.concepts and "C0031809" not in data.concepts
    assert data.manifest["rows_kept"] == 13  # English, not suppressed, disorder types
    out2 = vocab.build_umls_index(FIXTURE, tmp_path / "j", sources=["SNOMEDCT_US"], progress=False)
    assert set(vocab.load_index(out2).concepts) == {"C0032285", "C0034065", "C0032227"}
    with pytest.raises(VocabularyError, match="no rows"):
        vocab.build_umls_index(FIXTURE, tmp_path / "k", sources=["NOPE"], progress=False)
    with pytest.raises(VocabularyError, match="look like T047"):
        vocab.build_umls_index(FIXTURE, tmp_path / "l", semantic_types=["disease"], progress=False)


def test_umls_build_reports_progress(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vocab.build_umls_index(FIXTURE, tmp_path / "i", progress=True)
    err = capsys.readouterr().err
    assert "reading MRCONSO.RRF" in err and "built umls index" in err


def test_umls_build_bad_input(tmp_path: Path) -> None:
    with pytest.raises(VocabularyError, match=r"MRCONSO\.RRF not found"):
        vocab.build_umls_index(tmp_path, tmp_path / "out", progress=False)
    meta = tmp_path / "meta"
    shutil.copytree(FIXTURE, meta)
    (meta / "MRCONSO.RRF").write_text("C0000001|ENG|too few fields\n")
    with pytest.raises(VocabularyError, match=r"MRCONSO\.RRF:1: expected 18"):
        vocab.build_umls_index(meta, tmp_path / "out", progress=False)
    (meta / "MRSTY.RRF").write_text("C0000001|Disease\n")
    with pytest.raises(VocabularyError, match=r"MRSTY\.RRF:1: second field 'Disease'"):
        vocab.build_umls_index(meta, tmp_path / "out", progress=False)
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "x").write_text("keep me")
    with pytest.raises(VocabularyError, match="not empty"):
        vocab.build_umls_index(FIXTURE, busy, progress=False)
    assert (busy / "x").read_text() == "keep me"


def test_open_index_is_cached_and_keyed_by_table(cache: Path, tmp_path: Path) -> None:
    first = vocab.ensure_open_index(cache)
    manifest = first / vocab.MANIFEST_FILE
    stamp = manifest.stat().st_mtime_ns
    assert vocab.ensure_open_index(cache) == first and manifest.stat().st_mtime_ns == stamp
    info = json.loads(manifest.read_text())
    assert info["kind"] == "open" and info["concepts"] > 10000 and info["table_key"] in first.name
    # a changed table gets its own index
    table = tmp_path / "terms.tsv"
    text = vocab.term_table_path().read_text()
    table.write_text(
        text + "CLX:test-only\ttest only finding\tPT\ttest only finding\tT033\tCUELEX\n"
    )
    assert vocab.open_index_key(table) != vocab.open_index_key()


def test_cache_dir_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CUELEX_CACHE_DIR", str(tmp_path / "c"))
    assert vocab.cache_dir() == tmp_path / "c"
    monkeypatch.delenv("CUELEX_CACHE_DIR")
    assert vocab.cache_dir() == Path.home() / ".cache" / "cuelex"


def test_resolve_vocabulary_errors(tmp_path: Path, umls_index: Path) -> None:
    assert vocab.resolve_vocabulary(umls_index) == umls_index
    with pytest.raises(VocabularyError, match="cuelex vocab build --umls"):
        vocab.resolve_vocabulary(FIXTURE)
    with pytest.raises(VocabularyError, match="does not exist"):
        vocab.resolve_vocabulary(tmp_path / "nowhere")
    with pytest.raises(VocabularyError, match="not a QuickUMLS index"):
        vocab.resolve_vocabulary(tmp_path)


# ---- command line -----------------------------------------------------------------------------


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cuelex")
    vocab.add_vocab_subparser(parser.add_subparsers(dest="command"))
    return parser


def test_cli_vocab_build_umls(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "umls-index"
    args = make_parser().parse_args(
        [
            "vocab",
            "build",
            "--umls",
            str(FIXTURE),
            "--out",
            str(out),
            "--semantic-types",
            "all",
            "--quiet",
        ]
    )
    assert args.func(args) == 0
    assert capsys.readouterr().out.strip() == str(out)
    assert "C0004057" in vocab.load_index(out).concepts
    args = make_parser().parse_args(
        ["vocab", "build", "--umls", str(FIXTURE), "--out", str(out), "--quiet"]
    )
    assert args.func(args) == 2  # non-empty output directory, no --force
    assert "not empty" in capsys.readouterr().err
    args = make_parser().parse_args(
        [
            "vocab",
            "build",
            "--umls",
            str(FIXTURE),
            "--out",
            str(out),
            "--force",
            "--quiet",
            "--sources",
            "MSH",
        ]
    )
    assert args.func(args) == 0
    assert vocab.load_index(out).manifest["sources"] == ["MSH"]


def test_cli_vocab_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = make_parser().parse_args(["vocab", "table", "--do-dir", str(tmp_path / "none")])
    assert args.func(args) == 2
    assert "not found" in capsys.readouterr().err


def test_cli_vocab_build_open(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = make_parser().parse_args(["vocab", "build", "--cache-dir", str(cache), "--quiet"])
    assert args.func(args) == 0
    path = Path(capsys.readouterr().out.strip())
    assert path == vocab.ensure_open_index(cache) and (path / vocab.MANIFEST_FILE).is_file()
