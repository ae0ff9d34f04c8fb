"""Reading documents from .txt files, folders, CSV, JSONL and JSON (optionally gzipped): streaming, strict, with file and line of every problem."""

from __future__ import annotations

import codecs
import csv
import gzip
import json
import logging
import os
import re
import sys
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources as importlib_resources
from pathlib import Path
from typing import Any, BinaryIO

from .errors import CuelexError

log = logging.getLogger(__name__)

TEXT_SUFFIXES = (".txt",)
TABLE_SUFFIXES = (".csv", ".tsv", ".jsonl", ".ndjson", ".json")



def demo_corpus_path() -> Path:
    """The embedded demo corpus: 207 ACI-BENCH clinical notes (CC BY 4.0, see ACI_BENCH_README.md)."""
    return Path(str(importlib_resources.files("cuelex.data").joinpath("aci_bench_notes.jsonl")))

class InputError(CuelexError, ValueError):
    """An input file cannot be read as documents at all (missing, unknown format, unknown column)."""


@dataclass(frozen=True)
class Document:
    """One document: its id, text, optional document type and any other columns of its row.

    One of three document types, each for its own reason: this one is an *input row* (any columns,
    no pairs yet) as read from the user's files; :class:`cuelex.runner.Document` is a document a
    system is run on (with the source pairs to score against); :class:`cuelex.bench.BenchDocument`
    is the validated, versioned record of the benchmark file (provenance, levels, pairs)."""

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
    unit: str = "line"  # what ``row`` counts: "line" (1-based, of the file) or "item" (.json array)

    def __str__(self) -> str:
        where = f"{self.source}, {self.unit} {self.row}" if self.row is not None else self.source
        return f"{where}: {self.message}"


def read_documents(
    path: str | Path,
    *,
    text_col: str = "text",
    id_col: str | None = None,
    type_col: str | None = None,
    problems: list[Problem] | None = None,
    encoding: str = "utf-8",
    skip_bad_rows: bool | None = None,
) -> Iterator[Document]:
    """Stream the documents of a .txt file, a folder of .txt files, or a CSV/TSV/JSONL/JSON table (.gz too).

    Files are decoded strictly with ``encoding`` (UTF-8 by default; a leading BOM is dropped): a
    byte sequence that is not valid raises ``InputError`` with the file and byte offset, never a
    replacement character. A bad row (malformed CSV or JSON, a field count that differs from the
    header, a missing or non-text text field, a lone surrogate) raises ``InputError`` naming file
    and line, unless ``skip_bad_rows`` (default: true exactly when a ``problems`` list is given):
    then it is skipped, recorded in ``problems`` and logged as a warning without its text. A
    missing file, unknown format or column, a table without rows, or a truncated .gz (after every
    row before the cut was yielded) raises ``InputError``. A ``.json`` file holds an array of
    objects (or is read as JSONL when it holds one object per line).
    """
    path = Path(path)
    if skip_bad_rows is None:
        skip_bad_rows = problems is not None
    problems = problems if problems is not None else []
    if path.is_dir():
        files = sorted(
            p for p in path.rglob("*") if p.is_file() and file_suffixes(p)[0] in TEXT_SUFFIXES
        )
        if not files:
            raise InputError(f"{path}: folder contains no .txt files")
        for f in files:
            yield from read_documents(
                f,
                text_col=text_col,
                id_col=id_col,
                type_col=type_col,
                problems=problems,
                encoding=encoding,
                skip_bad_rows=skip_bad_rows,
            )
        return
    if not path.is_file():
        raise InputError(f"{path}: file not found")
    suffix, gz = file_suffixes(path)
    ctx = _Rows(path, problems, skip_bad_rows)
    if suffix in TEXT_SUFFIXES:
        yield Document(
            id=path.stem if not gz else Path(path.stem).stem,
            text=read_text_file(path, gz, encoding),
        )
        return
    if suffix in (".csv", ".tsv"):
        yield from _read_csv(
            ctx, gz, "\t" if suffix == ".tsv" else ",", text_col, id_col, type_col, encoding
        )
        return
    if suffix == ".json":
        yield from _read_json(ctx, gz, text_col, id_col, type_col, encoding)
        return
    if suffix in (".jsonl", ".ndjson"):
        yield from _read_jsonl(ctx, TextLines(path, gz, encoding), text_col, id_col, type_col)
        return
    raise InputError(
        f"{path}: unknown input format {suffix!r}; expected .txt, a folder of .txt, .csv, .tsv, "
        ".jsonl or .json (optionally .gz)"
    )


@dataclass
class _Rows:
    """Where rows come from and what to do with a bad one."""

    path: Path
    problems: list[Problem]
    skip: bool
    n_docs: int = 0
    n_bad: int = 0

    def bad(self, row: int | None, message: str, what: str = "line") -> None:
        """Raise for a bad row, or (skipping) record and log it."""
        self.n_bad += 1
        if not self.skip:
            where = f", {what} {row}" if row is not None else ""
            raise InputError(
                f"{self.path}{where}: {message} (use --skip-bad-rows / skip_bad_rows=True to "
                "skip such rows and list them)"
            )
        problem = Problem(str(self.path), row, f"{message}; {what} skipped", what)
        self.problems.append(problem)
        log.warning("%s", problem)

    def empty(self) -> None:
        if self.n_docs == 0 and self.n_bad == 0:
            raise InputError(f"{self.path}: no rows (empty table)")


def file_suffixes(path: Path) -> tuple[str, bool]:
    """A file's format suffix (``.gz`` looked through) and whether it is gzip-compressed."""
    name = path.name.lower()
    gz = name.endswith(".gz")
    if gz:
        name = name[:-3]
    return Path(name).suffix, gz


def _open_binary(path: Path, gz: bool) -> BinaryIO:
    return gzip.open(path, "rb") if gz else open(path, "rb")  # type: ignore[return-value]


class TextLines:
    """The lines of a file (line ends kept), decoded strictly in a streaming way.

    A byte sequence that is not valid in ``encoding`` raises ``InputError`` naming the file, the
    byte offset (of the decompressed stream for .gz) and the line; a .gz file cut short raises
    ``InputError`` after every complete line before the cut was yielded. A UTF-8 byte-order mark
    is dropped. Lines end at "\\n" only (CSV fields and JSON strings may hold other line breaks).
    """

    _CHUNK = 1 << 16

    def __init__(self, path: Path, gz: bool, encoding: str):
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise InputError(f"unknown encoding {encoding!r}") from None
        self.path, self.gz, self.encoding = path, gz, encoding
        self.line_no = 0  # lines yielded so far

    def __iter__(self) -> Iterator[str]:
        decoder = codecs.getincrementaldecoder(self.encoding)(errors="strict")
        consumed = 0
        pending: list[str] = []  # the text of the current line so far (no line end in it)
        bom = codecs.lookup(self.encoding).name == "utf-8"  # drop a UTF-8 byte-order mark
        with _open_binary(self.path, self.gz) as fh:
            while True:
                try:
                    chunk = fh.read(self._CHUNK)
                except (EOFError, OSError, zlib.error) as exc:
                    raise InputError(
                        f"{self.path}: compressed file is truncated or corrupt after byte "
                        f"{consumed} ({exc}); {self.line_no} complete line(s) before it were read"
                    ) from None
                final = not chunk
                try:
                    text = decoder.decode(chunk, final=final)  # buffers an incomplete sequence
                except UnicodeDecodeError as exc:
                    data = exc.object  # the decoder's buffered bytes + this chunk
                    offset = consumed + len(chunk) - len(data) + exc.start
                    line = self.line_no + 1 + data[: exc.start].count(b"\n")
                    raise InputError(
                        f"{self.path}: not valid {self.encoding} at byte "
                        f"{offset} (line {line}): {exc.reason}; give the file's encoding "
                        "(--encoding / encoding=, e.g. cp1252 or latin-1)"
                    ) from None
                consumed += len(chunk)
                if bom and text:
                    text, bom = text.removeprefix("\ufeff"), False
                if "\n" in text:
                    parts = text.split("\n")
                    parts[0] = "".join(pending) + parts[0]
                    pending = [parts.pop()]
                    for part in parts:
                        self.line_no += 1
                        yield part + "\n"
                elif text:
                    pending.append(text)  # a long line: joined once, when it ends
                if final:
                    break
        rest = "".join(pending)
        if rest:
            self.line_no += 1
            yield rest


def read_text_file(path: Path, gz: bool, encoding: str) -> str:
    """The whole text of a (possibly gzip-compressed) file, decoded strictly."""
    return "".join(TextLines(path, gz, encoding))


_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(text: str) -> int | None:
    """Offset of the first surrogate code point in ``text`` (not valid Unicode text), else None."""
    if text.isascii():
        return None
    m = _SURROGATE.search(text)
    return m.start() if m else None


def check_text(text: object, what: str = "text") -> str:
    """Return ``text`` if it is a ``str`` of valid Unicode; raise a clear error otherwise.

    The one policy of every entry point (``extract``, ``assess``, ``score``, the spaCy component,
    the file readers): a lone surrogate (e.g. from a JSON ``"\\ud800"`` escape or
    ``errors="surrogateescape"``) cannot be written as UTF-8 and would make offsets ambiguous, so
    it raises ``ValueError`` with its offset instead of being replaced silently.
    """
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, got {type(text).__name__}")
    pos = lone_surrogate(text)
    if pos is not None:
        raise ValueError(
            f"{what} contains a lone surrogate U+{ord(text[pos]):04X} at offset {pos}: not valid "
            "Unicode text (decode the source with the right encoding, or replace surrogates first)"
        )
    return text


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def neutralize_cell(value: Any) -> Any:
    """A text cell that a spreadsheet would run as a formula (starts with = + - @, tab or CR)
    gets a leading apostrophe; anything else is returned unchanged."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def safe_csv_frame(frame: Any) -> Any:
    """A copy of a DataFrame with every text cell passed through :func:`neutralize_cell`.

    Every CSV that cuelex writes goes through this (CSV injection): JSONL output is unchanged.
    """
    from pandas.api.types import is_object_dtype, is_string_dtype

    out = frame.copy()
    for col in out.columns:
        # object columns (pandas 2) and the string dtype (pandas 3's default for text)
        if is_object_dtype(out[col].dtype) or is_string_dtype(out[col].dtype):
            out[col] = out[col].map(neutralize_cell).astype(object)
    return out


def refuse_overwrite(output: str | Path, inputs: Iterable[str | Path]) -> None:
    """Raise ``InputError`` when ``output`` is (or links to) one of ``inputs``."""
    out = Path(output)
    for src in inputs:
        src = Path(src)
        same = out.resolve() == src.resolve()
        if not same and out.exists() and src.exists():
            try:
                same = os.path.samefile(out, src)
            except OSError:
                same = False
        if same:
            raise InputError(f"output {out} is the input file {src}: refusing to overwrite it")


def _check_columns(path: Path, columns: list[str], wanted: dict[str, str | None]) -> None:
    for role, col in wanted.items():
        if col is not None and col not in columns:
            raise InputError(
                f"{path}: no column {col!r} (given as the {role} column); columns are {columns}"
            )


def _make_doc(
    ctx: _Rows,
    row_no: int,
    row: dict[str, Any],
    text_col: str,
    id_col: str | None,
    type_col: str | None,
    what: str = "line",
) -> Document | None:
    text = row.get(text_col)
    if not isinstance(text, str):
        kind = "missing" if text is None else f"not text but {type(text).__name__}"
        ctx.bad(row_no, f"field {text_col!r} is {kind}", what)
        return None
    doc_id = row.get(id_col) if id_col else row.get("id", row.get("note_id"))
    doc_id = str(doc_id) if doc_id not in (None, "") else f"{ctx.path.name}:{row_no}"
    doc_type = row.get(type_col) if type_col else None
    doc_type = str(doc_type) if doc_type is not None else None
    for name, value in ((text_col, text), ("id", doc_id), ("type", doc_type)):
        pos = lone_surrogate(value) if value is not None else None
        if pos is not None:
            ctx.bad(
                row_no,
                f"field {name!r} contains a lone surrogate U+{ord(value[pos]):04X} at character "
                f"{pos} (not valid Unicode text)",
                what,
            )
            return None
    meta = {k: v for k, v in row.items() if k not in (text_col, id_col, type_col)}
    ctx.n_docs += 1
    return Document(id=doc_id, text=text, doc_type=doc_type, meta=meta)


def _read_csv(
    ctx: _Rows,
    gz: bool,
    delimiter: str,
    text_col: str,
    id_col: str | None,
    type_col: str | None,
    encoding: str,
) -> Iterator[Document]:
    """Strict CSV: a stray quote, an unclosed quoted field or a row whose field count
    differs from the header's is a bad row (file and line named), never silently merged."""
    csv.field_size_limit(min(sys.maxsize, 2**31 - 1))
    path = ctx.path
    reader = csv.reader(TextLines(path, gz, encoding), delimiter=delimiter, strict=True)
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise InputError(f"{path}, line {reader.line_num}: malformed CSV header: {exc}") from None
    if not header or not any(h.strip() for h in header):
        raise InputError(f"{path}: empty file or no header row")
    columns = list(header)
    _check_columns(path, columns, {"text": text_col, "id": id_col, "type": type_col})
    while True:
        first_line = reader.line_num + 1
        try:
            fields = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            ctx.bad(first_line, f"malformed CSV: {exc}")
            continue
        if not fields:
            continue  # a blank line
        if len(fields) != len(columns):
            ctx.bad(first_line, f"{len(fields)} field(s), header has {len(columns)}")
            continue
        row = dict(zip(columns, fields, strict=True))
        doc = _make_doc(ctx, first_line, row, text_col, id_col, type_col)
        if doc is not None:
            yield doc
    ctx.empty()


def _parse_object(ctx: _Rows, row_no: int, raw: str) -> dict[str, Any] | None:
    try:
        row = json.loads(raw)
    except json.JSONDecodeError as exc:
        ctx.bad(row_no, f"malformed JSON ({exc.msg} at column {exc.colno})")
        return None
    if not isinstance(row, dict):
        ctx.bad(row_no, f"expected a JSON object, got {type(row).__name__}")
        return None
    return row


def _read_jsonl(
    ctx: _Rows,
    lines: Iterable[str],
    text_col: str,
    id_col: str | None,
    type_col: str | None,
) -> Iterator[Document]:
    checked = False
    for row_no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        row = _parse_object(ctx, row_no, line)
        if row is None:
            continue
        if not checked:
            _check_columns(ctx.path, list(row), {"text": text_col, "id": id_col, "type": type_col})
            checked = True
        doc = _make_doc(ctx, row_no, row, text_col, id_col, type_col)
        if doc is not None:
            yield doc
    ctx.empty()


def _read_json(
    ctx: _Rows,
    gz: bool,
    text_col: str,
    id_col: str | None,
    type_col: str | None,
    encoding: str,
) -> Iterator[Document]:
    """A .json file: an array of objects (item numbers reported from 1), or JSONL by another name."""
    text = read_text_file(ctx.path, gz, encoding)
    stripped = text.lstrip()
    if not stripped.startswith("["):
        lines = text.split("\n")
        yield from _read_jsonl(ctx, lines, text_col, id_col, type_col)
        return
    try:
        items = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{ctx.path}, line {exc.lineno}: malformed JSON array ({exc.msg} at column {exc.colno})"
        ) from None
    checked = False
    for i, row in enumerate(items, start=1):
        if not isinstance(row, dict):
            ctx.bad(i, f"expected a JSON object, got {type(row).__name__}", "item")
            continue
        if not checked:
            _check_columns(ctx.path, list(row), {"text": text_col, "id": id_col, "type": type_col})
            checked = True
        doc = _make_doc(ctx, i, row, text_col, id_col, type_col, "item")
        if doc is not None:
            yield doc
    ctx.empty()
