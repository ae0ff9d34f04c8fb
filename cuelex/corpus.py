"""Reading documents from .txt files, folders, CSV and JSONL (optionally gzipped), streaming and with row-level error reports."""

from __future__ import annotations

import csv
import gzip
import io
import json
import logging
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

log = logging.getLogger(__name__)

TEXT_SUFFIXES = (".txt",)
TABLE_SUFFIXES = (".csv", ".tsv", ".jsonl", ".ndjson", ".json")


class InputError(ValueError):
    """An input file cannot be read as documents at all (missing, unknown format, unknown column)."""


@dataclass(frozen=True)
class Document:
    """One document: its id, text, optional document type and any other columns of its row."""

    id: str
    text: str
    doc_type: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Problem:
    """A row that was skipped, with where it came from and why."""

    source: str
    row: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.source}, row {self.row}" if self.row is not None else self.source
        return f"{where}: {self.message}"


def _suffixes(path: Path) -> tuple[str, bool]:
    name = path.name.lower()
    gz = name.endswith(".gz")
    if gz:
        name = name[:-3]
    return Path(name).suffix, gz


def _open_text(path: Path, gz: bool) -> TextIO:
    if gz:
        return io.TextIOWrapper(
            gzip.open(path, "rb"), encoding="utf-8", errors="replace", newline=""
        )
    return open(path, encoding="utf-8", errors="replace", newline="")


def read_documents(
    path: str | Path,
    *,
    text_col: str = "text",
    id_col: str | None = None,
    type_col: str | None = None,
    problems: list[Problem] | None = None,
) -> Iterator[Document]:
    """Stream the documents of a .txt file, a folder of .txt files, or a CSV/TSV/JSONL table (.gz too).

    Rows that cannot be used (malformed JSON, missing or non-text text field) are skipped and
    recorded in ``problems`` with their row number (and logged as warnings without their text);
    a file that cannot be read at all, or a column that does not exist, raises ``InputError``.
    """
    path = Path(path)
    problems = problems if problems is not None else []
    if path.is_dir():
        files = sorted(
            p for p in path.rglob("*") if p.is_file() and _suffixes(p)[0] in TEXT_SUFFIXES
        )
        if not files:
            raise InputError(f"{path}: folder contains no .txt files")
        for f in files:
            yield from read_documents(
                f, text_col=text_col, id_col=id_col, type_col=type_col, problems=problems
            )
        return
    if not path.is_file():
        raise InputError(f"{path}: file not found")
    suffix, gz = _suffixes(path)
    if suffix in TEXT_SUFFIXES:
        with _open_text(path, gz) as fh:
            yield Document(id=path.stem if not gz else Path(path.stem).stem, text=fh.read())
        return
    if suffix in (".csv", ".tsv"):
        yield from _read_csv(
            path, gz, "\t" if suffix == ".tsv" else ",", text_col, id_col, type_col, problems
        )
        return
    if suffix in (".jsonl", ".ndjson", ".json"):
        yield from _read_jsonl(path, gz, text_col, id_col, type_col, problems)
        return
    raise InputError(
        f"{path}: unknown input format {suffix!r}; expected .txt, a folder of .txt, .csv, .tsv or .jsonl (optionally .gz)"
    )


def _check_columns(path: Path, columns: list[str], wanted: dict[str, str | None]) -> None:
    for role, col in wanted.items():
        if col is not None and col not in columns:
            raise InputError(
                f"{path}: no column {col!r} (given as the {role} column); columns are {columns}"
            )


def _make_doc(
    source: Path,
    row_no: int,
    row: dict[str, Any],
    text_col: str,
    id_col: str | None,
    type_col: str | None,
    problems: list[Problem],
) -> Document | None:
    text = row.get(text_col)
    if not isinstance(text, str):
        kind = "missing" if text is None else f"not text but {type(text).__name__}"
        problem = Problem(str(source), row_no, f"field {text_col!r} is {kind}; row skipped")
        problems.append(problem)
        log.warning("%s", problem)
        return None
    doc_id = row.get(id_col) if id_col else row.get("id", row.get("note_id"))
    doc_id = str(doc_id) if doc_id not in (None, "") else f"{source.name}:{row_no}"
    doc_type = row.get(type_col) if type_col else None
    meta = {k: v for k, v in row.items() if k not in (text_col, id_col, type_col)}
    return Document(
        id=doc_id, text=text, doc_type=str(doc_type) if doc_type is not None else None, meta=meta
    )


def _read_csv(
    path: Path,
    gz: bool,
    delimiter: str,
    text_col: str,
    id_col: str | None,
    type_col: str | None,
    problems: list[Problem],
) -> Iterator[Document]:
    csv.field_size_limit(min(sys.maxsize, 2**31 - 1))
    with _open_text(path, gz) as fh:
        reader = csv.DictReader(fh, delimiter=delimiter)
        columns = list(reader.fieldnames or [])
        if not columns:
            raise InputError(f"{path}: empty file or no header row")
        _check_columns(path, columns, {"text": text_col, "id": id_col, "type": type_col})
        row_no = 1
        while True:
            try:
                row = next(reader)
            except StopIteration:
                break
            except csv.Error as exc:
                row_no += 1
                problem = Problem(str(path), row_no, f"malformed CSV: {exc}; row skipped")
                problems.append(problem)
                log.warning("%s", problem)
                continue
            row_no += 1
            if None in row:  # more fields than the header has
                problem = Problem(
                    str(path),
                    row_no,
                    f"{len(columns) + len(row[None])} fields, header has {len(columns)}; row skipped",
                )
                problems.append(problem)
                log.warning("%s", problem)
                continue
            doc = _make_doc(path, row_no, row, text_col, id_col, type_col, problems)
            if doc is not None:
                yield doc


def _read_jsonl(
    path: Path,
    gz: bool,
    text_col: str,
    id_col: str | None,
    type_col: str | None,
    problems: list[Problem],
) -> Iterator[Document]:
    with _open_text(path, gz) as fh:
        checked = False
        for row_no, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                problem = Problem(
                    str(path),
                    row_no,
                    f"malformed JSON ({exc.msg} at column {exc.colno}); row skipped",
                )
                problems.append(problem)
                log.warning("%s", problem)
                continue
            if not isinstance(row, dict):
                problem = Problem(
                    str(path),
                    row_no,
                    f"expected a JSON object, got {type(row).__name__}; row skipped",
                )
                problems.append(problem)
                log.warning("%s", problem)
                continue
            if not checked:
                _check_columns(path, list(row), {"text": text_col, "id": id_col, "type": type_col})
                checked = True
            doc = _make_doc(path, row_no, row, text_col, id_col, type_col, problems)
            if doc is not None:
                yield doc
