"""Reading inputs (txt, folders, CSV, JSONL, gz) with row-level problems, and the command line."""

from __future__ import annotations

import gzip
import json

import pandas as pd
import pytest

from cuelex.cli import main
from cuelex.corpus import InputError, read_documents


def test_read_txt_folder_csv_jsonl(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("Possible pneumonia.", encoding="utf-8")
    (tmp_path / "notes" / "b.txt").write_text("No effusion.", encoding="utf-8")
    docs = list(read_documents(tmp_path / "notes"))
    assert [(d.id, d.text) for d in docs] == [("a", "Possible pneumonia."), ("b", "No effusion.")]

    csv_path = tmp_path / "n.csv"
    pd.DataFrame({"note_id": ["x1", "x2"], "text": ['a, "quoted"\nline', "b"]}).to_csv(
        csv_path, index=False
    )
    docs = list(read_documents(csv_path))
    assert [(d.id, d.text) for d in docs] == [("x1", 'a, "quoted"\nline'), ("x2", "b")]

    gz_path = tmp_path / "n.jsonl.gz"
    with gzip.open(gz_path, "wt", encoding="utf-8") as fh:
        fh.write(json.dumps({"id": "j1", "body": "No fever.", "kind": "rad"}) + "\n")
    docs = list(read_documents(gz_path, text_col="body", type_col="kind"))
    assert [(d.id, d.text, d.doc_type) for d in docs] == [("j1", "No fever.", "rad")]


def test_malformed_rows_are_reported_with_row_numbers_and_skipped(tmp_path):
    path = tmp_path / "n.jsonl"
    path.write_text(
        '{"id": 1, "text": "No fever."}\n{"id": 2, "text": \n[1, 2]\n{"id": 4, "text": null}\n{"id": 5, "text": "ok"}\n',
        encoding="utf-8",
    )
    problems = []
    docs = list(read_documents(path, problems=problems))
    assert [d.id for d in docs] == ["1", "5"]
    assert [p.row for p in problems] == [2, 3, 4]
    assert "malformed JSON" in problems[0].message


def test_unknown_column_names_the_column(tmp_path):
    path = tmp_path / "n.csv"
    path.write_text("id,note\n1,hello\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"no column 'text'.*columns are \['id', 'note'\]"):
        list(read_documents(path))


def test_unknown_format(tmp_path):
    path = tmp_path / "n.docx"
    path.write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match="unknown input format"):
        list(read_documents(path))


def test_cli_extract_writes_csv_and_jsonl(tmp_path, capsys):
    src = tmp_path / "n.jsonl"
    src.write_text(
        json.dumps({"id": "d1", "text": "Possible pneumonia. No effusion."}) + "\n",
        encoding="utf-8",
    )
    out = tmp_path / "pairs.csv"
    assert main(["extract", str(src), "-o", str(out)]) == 0
    frame = pd.read_csv(out)
    assert frame[["doc_id", "target_text", "level"]].values.tolist() == [
        ["d1", "pneumonia", "UL3"],
        ["d1", "effusion", "UL1"],
    ]
    out2 = tmp_path / "pairs.jsonl"
    assert main(["extract", str(src), "-o", str(out2)]) == 0
    rows = [json.loads(line) for line in out2.read_text().splitlines()]
    assert [r["level"] for r in rows] == ["UL3", "UL1"]


def test_cli_error_is_clear_and_nonzero(tmp_path, capsys):
    assert main(["extract", str(tmp_path / "missing.csv")]) == 2
    assert "file not found" in capsys.readouterr().err


def test_cli_demo(tmp_path, capsys):
    out = tmp_path / "demo.csv"
    assert main(["demo", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "documents: 207" in text and "pairs per level" in text
    frame = pd.read_csv(out)
    assert len(frame) > 500
    assert set(frame["level"]) >= {"UL1", "UL2", "UL3"}
    assert frame["cui"].notna().mean() > 0.5  # linked with the open vocabulary
    assert "benchmark built from the demo corpus" in text
    from cuelex import bench

    docs = bench.load(tmp_path / "demo_benchmark.jsonl")
    assert docs and all(len({p.level for p in d.pairs}) >= 2 for d in docs)
