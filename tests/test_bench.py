"""Benchmark builder: input formats, pre-screening and sampling, the benchmark file, statistics, human validation, CLI."""

from __future__ import annotations

import csv
import gzip
import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuelex
from cuelex import bench
from cuelex.bench import BenchDocument, BenchError
from cuelex.cli import main as cli_main
from cuelex.levels import Level

FIXTURES = Path(__file__).parent / "fixtures" / "bench"
DISCHARGE = FIXTURES / "discharge.csv"
RADIOLOGY = FIXTURES / "radiology.csv"
TCGA = FIXTURES / "tcga_reports.csv"
NOTES = FIXTURES / "notes.jsonl"
TXT = FIXTURES / "txt"


@pytest.fixture(scope="module")
def mimic(tmp_path_factory):
    """One build over the MIMIC and TCGA fixtures, written to disk (shared by several tests)."""
    out = tmp_path_factory.mktemp("mimic") / "bench.jsonl"
    result = bench.build([DISCHARGE, RADIOLOGY, TCGA], per_type=3, output=out, chunk_size=2)
    return result, out


# -------------------------------------------------------------------------------------------------
# inputs
# -------------------------------------------------------------------------------------------------


def test_format_detection():
    assert bench.detect_format(DISCHARGE) == "mimic-discharge"
    assert bench.detect_format(RADIOLOGY) == "mimic-radiology"
    assert bench.detect_format(TCGA) == "tcga"
    assert bench.detect_format(NOTES) == "generic"
    assert bench.detect_format(TXT) == "generic"
    with pytest.raises(BenchError, match="unknown input format 'mimic'"):
        bench.resolve_spec(DISCHARGE, "mimic")
    with pytest.raises(BenchError, match="unknown section profile 'nursing'"):
        bench.resolve_spec(NOTES, "generic", sections="nursing")


def test_mimic_discharge_sections_become_typed_documents_with_note_offsets(mimic):
    result, _ = mimic
    notes = {r["note_id"]: r for r in csv.DictReader(open(DISCHARGE, newline="", encoding="utf-8"))}
    dis = [d for d in result.documents if d.source == str(DISCHARGE)]
    assert {d.doc_type for d in dis} == {
        "assessment",
        "brief_hospital_course",
        "discharge_diagnosis",
    }
    for d in dis:
        note = notes[d.source_id]["text"]
        assert d.doc_id == f"{d.source_id}#{d.doc_type}"
        assert note[d.section.start : d.section.end] == d.text
        assert note[d.section.header_start :].startswith(d.section.header)
        assert d.meta["subject_id"] == notes[d.source_id]["subject_id"]
        assert d.meta["note_type"] == "DS"
        for p in d.pairs:
            assert d.text[p.cue_start : p.cue_end] == p.cue_text
            assert d.text[p.target_start : p.target_end] == p.target_text
            assert p.doc_id == d.doc_id
    screening = result.screening
    assert screening["source_documents"] == 5 + 6 + 4  # the malformed discharge row is not counted
    assert screening["source_documents_without_sections"] == 1  # 10000005-DS-1


def test_radiology_and_tcga_document_types(mimic):
    result, _ = mimic
    by_type = {}
    for d in result.documents:
        by_type.setdefault(d.doc_type, []).append(d)
    assert set(by_type) == {"assessment", "brief_hospital_course", "discharge_diagnosis",
                            "radiology_findings", "radiology_impression", "pathology"}  # fmt: skip
    assert all(d.section is None and d.source_id == d.doc_id for d in by_type["pathology"])
    assert all(d.doc_id.startswith("TCGA-") for d in by_type["pathology"])
    combined = next(d for d in by_type["radiology_findings"] if d.source_id == "10000003-RR-31")
    assert combined.section.header == "FINDINGS AND IMPRESSION"


def test_malformed_rows_are_reported_with_row_numbers_and_skipped(mimic):
    result, out = mimic
    messages = [str(p) for p in result.problems]
    # a short row (6 of the 8 fields) is named by its line in the file, never padded with blanks
    assert messages == [f"{DISCHARGE}, line 207: 6 field(s), header has 8; line skipped"]
    assert "10000009" not in out.read_text(encoding="utf-8")
    stats_json = json.loads(bench.stats_paths(out)[0].read_text(encoding="utf-8"))
    assert stats_json["problems"] == messages
    generic = bench.build(NOTES, type_col="type", per_type=5)
    assert [(Path(p.source).name, p.row) for p in generic.problems] == [
        ("notes.jsonl", 5),
        ("notes.jsonl", 7),
    ]
    assert "not text but int" in generic.problems[0].message
    assert "malformed JSON" in generic.problems[1].message


def test_gzipped_input_gives_the_same_benchmark(tmp_path):
    gz = tmp_path / "radiology.csv.gz"
    with open(RADIOLOGY, "rb") as src, gzip.open(gz, "wb") as dst:
        shutil.copyfileobj(src, dst)
    plain = bench.build(RADIOLOGY, per_type=3)
    zipped = bench.build(gz, per_type=3)
    assert [d.model_dump(exclude={"source"}) for d in zipped.documents] == [
        d.model_dump(exclude={"source"}) for d in plain.documents
    ]


def test_generic_jsonl_with_type_column_and_folder_of_txt():
    result = bench.build(NOTES, type_col="type", per_type=5)
    types = {d.doc_id: d.doc_type for d in result.documents}
    assert types["clinic-1"] == "clinic_note" and types["ed-1"] == "ed_note"
    assert types["ed-2"] == "document"  # no type value: the default type
    assert "ed-4" not in types  # one distinct paper level only (UL1; HEDGED_ABSENT is not counted)
    folder = bench.build(TXT, doc_type="clinic", per_type=5)
    assert sorted(d.doc_id for d in folder.documents) == ["note_a", "note_b"]  # note_c has no cue
    assert {d.doc_type for d in folder.documents} == {"clinic"}


def test_generic_input_can_be_split_into_sections(tmp_path):
    path = tmp_path / "mine.csv"
    text = "FINDINGS:\nPossible nodule. No effusion.\nIMPRESSION:\nLikely granuloma. Rule out malignancy."
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["id", "body"], ["r1", text]])
    result = bench.build(path, text_col="body", sections="radiology", per_type=5)
    assert [d.doc_id for d in result.documents] == [
        "r1#radiology_findings",
        "r1#radiology_impression",
    ]


def test_missing_input_and_missing_column_are_errors(tmp_path):
    with pytest.raises(cuelex.corpus.InputError, match="file not found"):
        bench.build(tmp_path / "nope.csv")
    with pytest.raises(cuelex.corpus.InputError, match="no column 'patient_filename'"):
        bench.build(RADIOLOGY, input_format="tcga")
    with pytest.raises(BenchError, match="per_type must be a positive"):
        bench.build(RADIOLOGY, per_type=0)
    with pytest.raises(BenchError, match="workers must be a positive"):
        bench.build(RADIOLOGY, workers=0)


def test_pipeline_is_the_same_as_cuelex_extract_with_link_and_dedup(mimic):
    result, _ = mimic
    for d in result.documents[:8]:
        expected = cuelex.extract(d.text, doc_id=d.doc_id, link=True, deduplicate=True)
        assert list(d.pairs) == expected


def test_screening_skips_linking_only_where_it_cannot_change_counts_or_levels():
    """With ``min_levels`` 2 a section with fewer than two pairs is not linked (it can never be
    eligible); its pair count and levels are those of the linked, deduplicated pairs, and a
    section with two or more pairs gets exactly those pairs."""
    from cuelex.bench.screening import BuildOptions, _Pipeline

    pipe = _Pipeline(BuildOptions())
    texts = [
        "Possible pneumonia.",
        "No pneumothorax.",
        "Heart size normal.",
        "Possible left lower lobe pneumonia. No pleural effusion. Questionable PNA.",
        "Pneumonia versus atelectasis. No pneumothorax, no effusion.",
    ]
    seen = set()
    for i, text in enumerate(texts):
        want = cuelex.extract(text, doc_id=str(i), link=True, deduplicate=True)
        got = pipe.pairs(text, str(i), min_levels=2)
        assert len(got) == len(want) and {p.level for p in got} == {p.level for p in want}
        if len(want) >= 2:
            assert got == want
        seen.add(min(len(want), 2))
    assert seen == {0, 1, 2}
    # below two levels asked for, every section is linked
    assert pipe.pairs(texts[0], "0", min_levels=1) == cuelex.extract(
        texts[0], doc_id="0", link=True, deduplicate=True
    )


# -------------------------------------------------------------------------------------------------
# pre-screening and sampling
# -------------------------------------------------------------------------------------------------


def test_prescreening_drops_documents_with_fewer_than_two_levels(mimic):
    result, _ = mimic
    assert all(d.n_levels >= 2 for d in result.documents)
    for t, s in result.screening["by_type"].items():
        below = sum(v for k, v in s["distinct_levels"].items() if int(k) < 2)
        assert s["eligible"] == s["documents"] - below, t
        assert s["selected"] == min(3, s["eligible"])


def test_sampling_takes_broadest_coverage_first(mimic):
    result, _ = mimic
    by_type = {}
    for d in result.documents:
        by_type.setdefault(d.doc_type, []).append(d)
    for t, docs in by_type.items():
        levels = [d.n_levels for d in docs]
        assert levels == sorted(levels, reverse=True), t  # written in sampling order
        dist = result.screening["by_type"][t]["distinct_levels"]
        ranked = sorted(
            (int(k) for k, v in dist.items() for _ in range(v) if int(k) >= 2), reverse=True
        )
        assert levels == ranked[: len(levels)], t  # nothing with more levels was left out


def test_same_inputs_and_seed_give_the_same_bytes_other_seed_other_ties(tmp_path):
    a = bench.build(RADIOLOGY, per_type=2, seed=7, output=tmp_path / "a.jsonl", chunk_size=1)
    b = bench.build(RADIOLOGY, per_type=2, seed=7, output=tmp_path / "b.jsonl", chunk_size=4)
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert [d.doc_id for d in a.documents] == [d.doc_id for d in b.documents]
    keys = {s: sorted(f"d{i}" for i in range(20)) for s in (1, 2)}
    order = {
        s: sorted(keys[s], key=lambda i, s=s: bench.priority_key("t", i, 3, s)) for s in (1, 2)
    }
    assert order[1] != order[2]  # the seed decides the order of equally covered documents
    assert order[1] == sorted(
        keys[1], key=lambda i: bench.priority_key("t", i, 3, 1)
    )  # and is repeatable
    assert bench.priority_key("t", "x", 5, 1) < bench.priority_key("t", "y", 4, 1)  # coverage first


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from("ab"), st.integers(2, 5)), min_size=1, max_size=40),
    st.integers(1, 6),
    st.integers(1, 7),
    st.integers(0, 3),
)
def test_chunked_selection_with_pruning_equals_global_top_n(docs, per_type, chunk, seed):
    cands = [
        bench._Candidate(bench.priority_key(t, f"{t}{i}", lv, seed), t, f"{t}{i}", "{}")
        for i, (t, lv) in enumerate(docs)
    ]
    expected = {
        t: sorted((c for c in cands if c.doc_type == t), key=lambda c: c.key)[:per_type]
        for t in "ab"
    }
    running, final = bench.Selector(per_type), bench.Selector(per_type)
    for start in range(0, len(cands), chunk):
        part = cands[start : start + chunk]
        thresholds = running.thresholds()
        kept = [c for c in part if c.doc_type not in thresholds or c.key < thresholds[c.doc_type]]
        local: dict[str, list] = {}
        for c in kept:
            local.setdefault(c.doc_type, []).append(c)
        for t in local:
            for c in sorted(local[t], key=lambda c: c.key)[:per_type]:
                running.add(c)
                final.add(c)
    got = {t: [c for c in final.selected() if c.doc_type == t] for t in "ab"}
    assert {t: [c.doc_id for c in v] for t, v in got.items()} == {
        t: [c.doc_id for c in v] for t, v in expected.items()
    }


def test_counting_hedged_absence_changes_coverage():
    paper = bench.build(NOTES, type_col="type", per_type=5)
    hedged = bench.build(
        NOTES, type_col="type", per_type=5, coverage=[*cuelex.PAPER_LEVELS, Level.HEDGED_ABSENT]
    )
    assert "ed-4" not in {d.doc_id for d in paper.documents}
    assert "ed-4" in {d.doc_id for d in hedged.documents}  # UL1 + HEDGED_ABSENT


# -------------------------------------------------------------------------------------------------
# benchmark file
# -------------------------------------------------------------------------------------------------


def test_load_round_trip_and_stats_files(mimic):
    result, out = mimic
    docs = bench.load(out)
    assert docs == result.documents
    assert all(d.schema_version == bench.SCHEMA_VERSION for d in docs)
    stats_json, stats_md = bench.stats_paths(out)
    saved = json.loads(stats_json.read_text(encoding="utf-8"))
    assert saved["statistics"] == bench.statistics(out) == result.stats
    assert saved["screening"]["selected"] == len(docs)
    md = stats_md.read_text(encoding="utf-8")
    assert "| brief_hospital_course |" in md and "## Pre-screening and sampling" in md


def _lines(out: Path) -> list[str]:
    return out.read_text(encoding="utf-8").splitlines(keepends=True)


def test_truncated_file_is_an_error_naming_the_line(mimic, tmp_path):
    _, out = mimic
    lines = _lines(out)
    bad = tmp_path / "cut.jsonl"
    bad.write_text("".join(lines[:2]) + lines[2][: len(lines[2]) // 2], encoding="utf-8")
    with pytest.raises(BenchError, match=r"cut.jsonl, line 3: not valid JSON.*truncated"):
        bench.load(bad)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda d: d.update(schema_version=99),
            r"line 2: invalid document: schema_version: .*not supported",
        ),
        (lambda d: d.pop("schema_version"), "line 2: no 'schema_version'"),
        (
            lambda d: d["pairs"][0].update(cue_start=d["pairs"][0]["cue_start"] + 1),
            "line 2: .*cue offsets",
        ),
        (lambda d: d.update(levels=["UL1"]), "line 2: .*differ from the pairs' levels"),
        (lambda d: d.update(n_words=1), "line 2: .*n_words"),
        (lambda d: d["pairs"][0].update(level="UL9"), r"line 2: invalid document: pairs\.0\.level"),
    ],
)
def test_malformed_documents_are_errors_naming_line_and_field(mimic, tmp_path, edit, message):
    _, out = mimic
    lines = _lines(out)
    doc = json.loads(lines[1])
    edit(doc)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0] + json.dumps(doc) + "\n", encoding="utf-8")
    with pytest.raises(BenchError, match=message):
        bench.load(bad)


def test_duplicate_document_is_an_error(mimic, tmp_path):
    _, out = mimic
    lines = _lines(out)
    bad = tmp_path / "dup.jsonl"
    bad.write_text(lines[0] + lines[1] + lines[0], encoding="utf-8")
    with pytest.raises(BenchError, match=r"line 3: document id .* already on line 1"):
        bench.load(bad)


def test_load_errors_for_missing_file_and_non_objects(tmp_path):
    with pytest.raises(BenchError, match="not found"):
        bench.load(tmp_path / "none.jsonl")
    bad = tmp_path / "list.jsonl"
    bad.write_text("[1, 2]\n", encoding="utf-8")
    with pytest.raises(BenchError, match="line 1: expected a JSON object"):
        bench.load(bad)
    with pytest.raises(BenchError, match=r"must end in \.jsonl"):
        bench.write_benchmark([], tmp_path / "x.csv")


# -------------------------------------------------------------------------------------------------
# statistics
# -------------------------------------------------------------------------------------------------


def _doc(doc_id: str, doc_type: str, text: str) -> BenchDocument:
    pairs = cuelex.extract(text, doc_id=doc_id)
    present = {p.level for p in pairs}
    return BenchDocument(
        schema_version=1, doc_id=doc_id, doc_type=doc_type, source_id=doc_id, text=text,
        n_words=len(text.split()), levels=tuple(lv for lv in Level if lv in present),
        n_levels=len(present & set(cuelex.PAPER_LEVELS)), pairs=tuple(pairs),
    )  # fmt: skip


def test_statistics_by_hand():
    docs = [
        _doc("a", "impression", "Possible pneumonia. No effusion."),  # 4 words, UL3 + UL1
        _doc(
            "b", "impression", "Likely atelectasis. Indeterminate nodule. Rule out malignancy."
        ),  # 7 words, 3 levels
        _doc(
            "c",
            "pathology",
            "Negative for carcinoma. Suspicious for lymphoma. Margins are equivocal.",
        ),  # 9 words
    ]
    s = bench.statistics(docs)
    assert s["documents"] == 3 and s["documents_per_type"] == {"pathology": 1, "impression": 2}
    assert s["length_words"] == {
        "mean": round(20 / 3, 3),
        "sd": round(((4 - 20 / 3) ** 2 + (7 - 20 / 3) ** 2 + (9 - 20 / 3) ** 2) ** 0.5 / 2**0.5, 3),
        "min": 4,
        "max": 9,
    }
    levels = [d.n_levels for d in docs]
    assert s["distinct_levels"]["mean"] == round(sum(levels) / 3, 3)
    assert sum(s["distinct_levels"]["distribution"].values()) == 3
    assert s["pairs"] == sum(len(d.pairs) for d in docs)
    assert sum(s["pairs_per_level"].values()) == s["pairs"]
    assert s["pairs_per_level"]["UL1"] == 2
    assert s["by_type"]["impression"]["length_words"] == {
        "mean": 5.5,
        "sd": round(4.5**0.5, 3),
        "min": 4,
        "max": 7,
    }
    table = bench.format_stats(s)
    assert table.splitlines()[0].split()[:2] == ["type", "documents"]
    assert any(line.startswith("impression") for line in table.splitlines())
    assert bench.format_stats(s, markdown=True).startswith("| type | documents |")


# -------------------------------------------------------------------------------------------------
# human validation
# -------------------------------------------------------------------------------------------------


def test_cohen_kappa_against_a_hand_computed_example():
    # 10 pairs: A says yes to 7, B to 6; both yes on 5, both no on 2 -> po = 0.7
    a = [1, 1, 1, 1, 1, 1, 1, 0, 0, 0]
    b = [1, 1, 1, 1, 1, 0, 0, 1, 0, 0]
    # pe = 0.7 * 0.6 + 0.3 * 0.4 = 0.54; kappa = (0.7 - 0.54) / (1 - 0.54) = 0.16 / 0.46
    assert bench.cohen_kappa(a, b) == pytest.approx(0.16 / 0.46)
    assert bench.cohen_kappa(a, a) == pytest.approx(1.0)
    assert bench.cohen_kappa([1, 0], [0, 1]) == pytest.approx(-1.0)
    assert bench.cohen_kappa([1, 1, 1], [1, 1, 1]) is None  # chance agreement 1: undefined
    with pytest.raises(ValueError, match="labelled 2 and 1"):
        bench.cohen_kappa([1, 0], [1])


@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=50))
def test_kappa_is_symmetric_and_at_most_one(pairs):
    a, b = [x for x, _ in pairs], [y for _, y in pairs]
    k = bench.cohen_kappa(a, b)
    assert k == bench.cohen_kappa(b, a)
    assert k is None or k <= 1 + 1e-12


def test_export_validation_is_stratified_seeded_and_per_pair(mimic, tmp_path):
    result, out = mimic
    frame = bench.export_validation(out, tmp_path / "s.csv", per_type=2, seed=1)
    again = bench.export_validation(result.documents, tmp_path / "s2.csv", per_type=2, seed=1)
    assert (tmp_path / "s.csv").read_bytes() == (tmp_path / "s2.csv").read_bytes()
    assert list(frame.columns) == list(bench.VALIDATION_COLUMNS)
    per_type = frame.groupby("doc_type")["doc_id"].nunique().to_dict()
    available = {t: min(2, n) for t, n in result.stats["documents_per_type"].items()}
    assert per_type == available
    docs = {d.doc_id: d for d in result.documents}
    for row in frame.itertuples():
        pair = docs[row.doc_id].pairs[row.pair_index]
        assert (row.cue_text, row.target_text, row.level) == (
            pair.cue_text,
            pair.target_text,
            pair.level.value,
        )
    assert (frame["correct"] == "").all() or frame["correct"].isna().all()
    assert len(again) == len(frame)
    seeds = {
        s: set(bench.export_validation(out, tmp_path / f"x{s}.csv", per_type=1, seed=s)["doc_id"])
        for s in range(6)
    }
    assert len({frozenset(v) for v in seeds.values()}) > 1  # the seed changes the sample


def _fill(src: Path, dst: Path, answers: list[str]) -> None:
    rows = list(csv.DictReader(open(src, newline="", encoding="utf-8")))
    for row, ans in zip(rows, answers, strict=False):
        row["correct"] = ans
    with open(dst, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(bench.VALIDATION_COLUMNS))
        w.writeheader()
        w.writerows(rows)


def test_agreement_of_two_reviewers(mimic, tmp_path):
    _, out = mimic
    sheet = tmp_path / "sheet.csv"
    frame = bench.export_validation(out, sheet, per_type=15)
    n = len(frame)
    assert n >= 10
    a = ["yes"] * 7 + ["no"] * 3 + ["yes"] * (n - 10)
    b = ["Yes", "y", "YES", "yes", "true", "no", "No", "yes", "n", "no"] + ["yes"] * (n - 10)
    _fill(sheet, tmp_path / "a.csv", a)
    _fill(sheet, tmp_path / "b.csv", b)
    report = bench.agreement(tmp_path / "a.csv", tmp_path / "b.csv")
    ya, yb = 7 + n - 10, 6 + n - 10
    both_yes, both_no = 5 + n - 10, 2
    po = (both_yes + both_no) / n
    pe = (ya / n) * (yb / n) + (1 - ya / n) * (1 - yb / n)
    assert report.items == n
    assert report.accuracy == pytest.approx((ya + yb) / (2 * n))
    assert report.observed_agreement == pytest.approx(po)
    assert report.kappa == pytest.approx((po - pe) / (1 - pe))
    assert report.table == {"yes/yes": both_yes, "yes/no": 2, "no/yes": 1, "no/no": both_no}
    assert sum(t["items"] for t in report.by_type.values()) == n
    assert "Cohen's kappa" in report.format()


def test_review_file_errors_name_file_and_row(mimic, tmp_path):
    _, out = mimic
    sheet = tmp_path / "sheet.csv"
    n = len(bench.export_validation(out, sheet, per_type=15))
    _fill(sheet, tmp_path / "blank.csv", ["yes", "", "maybe"] + ["no"] * (n - 3))
    with pytest.raises(BenchError) as info:
        bench.read_validation(tmp_path / "blank.csv")
    msg = str(info.value)
    assert "blank.csv: 2 invalid answer(s)" in msg
    assert "row 3 (" in msg and "'correct' is empty" in msg
    assert "row 4 (" in msg and "'correct' is 'maybe'" in msg
    frame_rows = list(csv.DictReader(open(sheet, newline="", encoding="utf-8")))
    with open(tmp_path / "nocol.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=["doc_id", "pair_index"], extrasaction="ignore")
        w.writeheader()
        w.writerows(frame_rows)
    with pytest.raises(BenchError, match=r"nocol.csv: missing column\(s\) \['correct'\]"):
        bench.read_validation(tmp_path / "nocol.csv")
    _fill(sheet, tmp_path / "full.csv", ["yes"] * n)
    rows = list(csv.DictReader(open(tmp_path / "full.csv", newline="", encoding="utf-8")))
    with open(tmp_path / "short.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(bench.VALIDATION_COLUMNS))
        w.writeheader()
        w.writerows(rows[:-1])
    with pytest.raises(BenchError, match=r"different pairs: 1 pair\(s\) only in .*full.csv"):
        bench.agreement(tmp_path / "full.csv", tmp_path / "short.csv")
    with open(tmp_path / "dup.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(bench.VALIDATION_COLUMNS))
        w.writeheader()
        w.writerows(rows + rows[:1])
    with pytest.raises(BenchError, match=rf"row {n + 2}: pair .* already answered on row 2"):
        bench.read_validation(tmp_path / "dup.csv")


def test_semicolon_excel_export_is_read(tmp_path):
    path = tmp_path / "excel.csv"
    path.write_text(
        "\ufeffdoc_id;doc_type;pair_index;correct\nd1;t;0;yes\nd1;t;1;No\n", encoding="utf-8"
    )
    answers = bench.read_validation(path)
    assert [(a.doc_id, a.pair_index, a.correct, a.row) for a in answers] == [
        ("d1", 0, True, 2),
        ("d1", 1, False, 3),
    ]


# -------------------------------------------------------------------------------------------------
# command line and demo
# -------------------------------------------------------------------------------------------------


def test_cli_build_stats_export_agreement(tmp_path, capsys):
    out = tmp_path / "b.jsonl"
    code = cli_main(["bench", "build", str(RADIOLOGY), str(TCGA), "--per-type", "2", "--seed", "3",
                     "--workers", "1", "--work-dir", str(tmp_path / "work"), "-o", str(out), "-q"])  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert (
        "radiology_findings" in printed
        and "pathology" in printed
        and f"written to {out}" in printed
    )
    assert len(bench.load(out)) == 6
    assert cli_main(["bench", "stats", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["documents"] == 6
    assert (
        cli_main(
            [
                "bench",
                "export-validation",
                str(out),
                "-o",
                str(tmp_path / "s.csv"),
                "--per-type",
                "1",
            ]
        )
        == 0
    )
    assert "fill the 'correct' column" in capsys.readouterr().out
    n = len(list(csv.DictReader(open(tmp_path / "s.csv", newline="", encoding="utf-8"))))
    _fill(tmp_path / "s.csv", tmp_path / "a.csv", ["yes"] * n)
    _fill(tmp_path / "s.csv", tmp_path / "b.csv", ["no"] + ["yes"] * (n - 1))
    assert cli_main(["bench", "agreement", str(tmp_path / "a.csv"), str(tmp_path / "b.csv")]) == 0
    assert "accuracy:" in capsys.readouterr().out
    assert cli_main(["bench", "agreement", str(tmp_path / "a.csv"), str(tmp_path / "s.csv")]) == 2
    assert "'correct' is empty" in capsys.readouterr().err
    assert cli_main(["bench", "build", str(tmp_path / "missing.csv"), "-o", str(out)]) == 2
    assert "file not found" in capsys.readouterr().err


def test_demo_builds_a_benchmark_from_the_embedded_corpus(tmp_path):
    stats = bench.demo(tmp_path)
    assert stats["documents_per_type"] == {"visit_note": stats["documents"]}
    assert 50 <= stats["documents"] <= 200
    assert stats["screening"]["source_documents"] == 207
    assert stats["distinct_levels"]["mean"] >= 2
    docs = bench.load(tmp_path / "demo_benchmark.jsonl")
    assert len(docs) == stats["documents"]
    assert (tmp_path / "demo_benchmark.stats.md").is_file()
    assert (tmp_path / "demo_validation.csv").is_file()
