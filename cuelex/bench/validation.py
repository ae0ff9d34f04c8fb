"""Human validation: a stratified review sheet, reading filled sheets, agreement (Cohen's kappa).
"""

from __future__ import annotations

import csv
import io
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
from pydantic import BaseModel, ConfigDict

from ..corpus import (
    neutralize_cell,
)
from .files import bench_documents, text_table
from .format import BenchDocument, BenchError
from .screening import type_order

__all__ = [
    "AgreementReport",
    "VALIDATION_COLUMNS",
    "ValidationAnswer",
    "agreement",
    "cohen_kappa",
    "export_validation",
    "read_validation",
    "validation_sample",
]



# ==================================================================================================
# Human validation
# ==================================================================================================

VALIDATION_COLUMNS: tuple[str, ...] = (
    "doc_id", "doc_type", "pair_index", "sentence", "cue_text", "target_text", "level", "level_meaning",
    "cui", "preferred_name", "correct", "comment",
)  # fmt: skip
_YES = {"yes", "y", "true", "1", "correct"}
_NO = {"no", "n", "false", "0", "incorrect", "wrong"}


def validation_sample(
    benchmark: str | Path | Iterable[BenchDocument], per_type: int = 15, seed: int = 0
) -> list[BenchDocument]:
    """A stratified random sample: ``per_type`` documents of each type (all if fewer), seeded."""
    if not isinstance(per_type, int) or per_type < 1:
        raise BenchError(f"per_type must be a positive integer, got {per_type!r}")
    docs = bench_documents(benchmark)
    by_type: dict[str, list[BenchDocument]] = {}
    for d in docs:
        by_type.setdefault(d.doc_type, []).append(d)
    out = []
    for t in type_order(by_type):
        pool = sorted(by_type[t], key=lambda d: d.doc_id)
        rng = random.Random(f"cuelex-validation:{seed}:{t}")
        out.extend(sorted(rng.sample(pool, min(per_type, len(pool))), key=lambda d: d.doc_id))
    return out


def export_validation(
    benchmark: str | Path | Iterable[BenchDocument],
    path: str | Path,
    *,
    per_type: int = 15,
    seed: int = 0,
) -> pd.DataFrame:
    """Write the reviewer's CSV: one row per pair of a stratified sample, ``correct`` left blank.

    The reviewer answers ``yes`` when both the cue and the target were extracted correctly, else
    ``no`` (the paper's criterion); ``comment`` is free text.
    """
    rows = []
    for d in validation_sample(benchmark, per_type, seed):
        for i, p in enumerate(d.pairs):
            rows.append({
                "doc_id": d.doc_id, "doc_type": d.doc_type, "pair_index": i, "sentence": p.sentence,
                "cue_text": p.cue_text, "target_text": p.target_text, "level": p.level.value,
                "level_meaning": p.level.label, "cui": p.cui or "", "preferred_name": p.preferred_name or "",
                "correct": "", "comment": "",
            })  # fmt: skip
    frame = pd.DataFrame(rows, columns=list(VALIDATION_COLUMNS))
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    # free-text cells that a spreadsheet would run as formulas get a leading apostrophe (the
    # reviewer opens this file in one); ids stay as they are so answers join back exactly
    shown = frame.copy()
    for col in ("sentence", "cue_text", "target_text", "preferred_name"):
        shown[col] = shown[col].map(neutralize_cell)
    shown.to_csv(out, index=False)
    return frame


@dataclass(frozen=True)
class ValidationAnswer:
    """One reviewed pair."""

    doc_id: str
    doc_type: str
    pair_index: int
    correct: bool
    row: int


def read_validation(path: str | Path) -> list[ValidationAnswer]:
    """Read a filled-in review CSV; every problem (missing column, blank or invalid answer,
    repeated pair) is reported together, naming the file and the row (header = row 1)."""
    p = Path(path)
    if not p.is_file():
        raise BenchError(f"{p}: review file not found")
    raw = p.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bom = 3 if raw.startswith(b"\xef\xbb\xbf") else 0
        raise BenchError(
            f"{p}: not valid UTF-8 at byte {exc.start + bom} ({exc.reason}); save the review file "
            "as 'CSV UTF-8'"
        ) from None
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    columns = [c.strip() for c in reader.fieldnames or []]
    reader.fieldnames = columns
    missing = [c for c in ("doc_id", "pair_index", "correct") if c not in columns]
    if missing:
        raise BenchError(f"{p}: missing column(s) {missing}; columns are {columns}")
    answers: list[ValidationAnswer] = []
    errors: list[str] = []
    seen: dict[tuple[str, int], int] = {}
    for n, row in enumerate(reader, start=2):
        doc_id = (row.get("doc_id") or "").strip()
        raw_idx = (row.get("pair_index") or "").strip()
        value = (row.get("correct") or "").strip()
        if not doc_id:
            errors.append(f"row {n}: 'doc_id' is empty")
            continue
        try:
            idx = int(raw_idx)
        except ValueError:
            errors.append(f"row {n}: 'pair_index' is {raw_idx!r}, not a whole number")
            continue
        if not value:
            errors.append(f"row {n} ({doc_id}, pair {idx}): 'correct' is empty; answer yes or no")
            continue
        if value.lower() not in _YES | _NO:
            errors.append(
                f"row {n} ({doc_id}, pair {idx}): 'correct' is {value!r}; expected yes or no"
            )
            continue
        if (doc_id, idx) in seen:
            errors.append(
                f"row {n}: pair ({doc_id}, {idx}) already answered on row {seen[(doc_id, idx)]}"
            )
            continue
        seen[(doc_id, idx)] = n
        answers.append(
            ValidationAnswer(
                doc_id, (row.get("doc_type") or "").strip(), idx, value.lower() in _YES, n
            )
        )
    if errors:
        shown = errors[:20] + ([f"... and {len(errors) - 20} more"] if len(errors) > 20 else [])
        raise BenchError(f"{p}: {len(errors)} invalid answer(s):\n  " + "\n  ".join(shown))
    if not answers:
        raise BenchError(f"{p}: no answers")
    return answers


def cohen_kappa(a: Sequence[Any], b: Sequence[Any]) -> float | None:
    """Cohen's kappa of two raters' labels over the same items; None when it is undefined
    (both raters gave one and the same label to every item: chance agreement is 1)."""
    if len(a) != len(b):
        raise ValueError(f"the raters labelled {len(a)} and {len(b)} items")
    if not a:
        raise ValueError("no items to compare")
    n = len(a)
    po = sum(x == y for x, y in zip(a, b, strict=True)) / n
    ca, cb = Counter(a), Counter(b)
    pe = sum(ca[k] * cb.get(k, 0) for k in ca) / (n * n)
    if pe >= 1.0:
        return None
    return (po - pe) / (1 - pe)


class AgreementReport(BaseModel):
    """Accuracy of the extracted pairs by two reviewers, and their agreement."""

    model_config = ConfigDict(frozen=True)

    files: tuple[str, str]
    items: int
    accuracy: float  # mean of the two reviewers' shares of pairs judged correct (the paper's "average accuracy")
    accuracy_a: float
    accuracy_b: float
    observed_agreement: float
    kappa: float | None
    table: dict[str, int]  # "yes/yes", "yes/no", "no/yes", "no/no" (reviewer A / reviewer B)
    by_type: dict[str, dict[str, Any]]

    def format(self) -> str:
        k = "undefined" if self.kappa is None else f"{self.kappa:.3f}"
        lines = [
            f"reviewers: A = {self.files[0]}, B = {self.files[1]}",
            f"pairs reviewed by both: {self.items}",
            f"accuracy: {self.accuracy:.1%} (A {self.accuracy_a:.1%}, B {self.accuracy_b:.1%})",
            f"agreement: {self.observed_agreement:.1%}   Cohen's kappa: {k}",
            "A/B yes/yes {yes/yes}, yes/no {yes/no}, no/yes {no/yes}, no/no {no/no}".format(
                **self.table
            ),
        ]
        rows = [
            [
                t,
                s["items"],
                f"{s['accuracy']:.1%}",
                "" if s["kappa"] is None else f"{s['kappa']:.3f}",
            ]
            for t, s in self.by_type.items()
        ]
        return (
            "\n".join(lines)
            + "\n\n"
            + text_table(["type", "pairs", "accuracy", "kappa"], rows, markdown=False)
        )


def agreement(a: str | Path, b: str | Path) -> AgreementReport:
    """Compare two reviewers' files (from :func:`export_validation`): accuracy and Cohen's kappa.

    Both files must answer the same pairs; any pair only one reviewer answered is an error.
    """
    ans_a, ans_b = read_validation(a), read_validation(b)
    ma = {(x.doc_id, x.pair_index): x for x in ans_a}
    mb = {(x.doc_id, x.pair_index): x for x in ans_b}
    only_a = [k for k in ma if k not in mb]
    only_b = [k for k in mb if k not in ma]
    if only_a or only_b:
        parts = []
        if only_a:
            parts.append(
                f"{len(only_a)} pair(s) only in {a} (first: {only_a[0][0]}, pair {only_a[0][1]}, row {ma[only_a[0]].row})"
            )
        if only_b:
            parts.append(
                f"{len(only_b)} pair(s) only in {b} (first: {only_b[0][0]}, pair {only_b[0][1]}, row {mb[only_b[0]].row})"
            )
        raise BenchError("the review files cover different pairs: " + "; ".join(parts))
    keys = list(ma)
    va = [ma[k].correct for k in keys]
    vb = [mb[k].correct for k in keys]

    def summary(idx: list[int]) -> dict[str, Any]:
        xa, xb = [va[i] for i in idx], [vb[i] for i in idx]
        acc = (sum(xa) + sum(xb)) / (2 * len(idx))
        return {
            "items": len(idx),
            "accuracy": round(acc, 4),
            "kappa": None if (k := cohen_kappa(xa, xb)) is None else round(k, 4),
        }

    types: dict[str, list[int]] = {}
    for i, k in enumerate(keys):
        types.setdefault(ma[k].doc_type or mb[k].doc_type or "(none)", []).append(i)
    table = Counter(
        f"{'yes' if x else 'no'}/{'yes' if y else 'no'}" for x, y in zip(va, vb, strict=True)
    )
    n = len(keys)
    return AgreementReport(
        files=(str(a), str(b)),
        items=n,
        accuracy=(sum(va) + sum(vb)) / (2 * n),
        accuracy_a=sum(va) / n,
        accuracy_b=sum(vb) / n,
        observed_agreement=sum(x == y for x, y in zip(va, vb, strict=True)) / n,
        kappa=cohen_kappa(va, vb),
        table={k: table.get(k, 0) for k in ("yes/yes", "yes/no", "no/yes", "no/no")},
        by_type={t: summary(types[t]) for t in type_order(types)},
    )
