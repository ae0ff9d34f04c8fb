"""Shared helpers for the benchmark scripts: baselines, metrics, target location and docs writing.

Not part of the installed package; imported by ``benchmark/*.py`` (the scripts' own directory is on
``sys.path`` when they run as ``.venv/bin/python benchmark/<name>.py``).
"""

from __future__ import annotations

import json
import logging
import os
import platform
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmark"
DOCS = ROOT / "docs"

# --------------------------------------------------------------------------------------------------
# quiet third-party logging (PyRuSH logs every sentence decision at DEBUG through loguru)
# --------------------------------------------------------------------------------------------------


def silence_logging() -> None:
    """Drop loguru's default DEBUG handler (PyRuSH); keep the baselines' stdlib loggers quiet."""
    try:
        from loguru import logger

        logger.remove()
        logger.add(sys.stderr, level="WARNING")
        logger.disable("PyRuSH")
    except ImportError:  # pragma: no cover - loguru comes with PyRuSH
        pass
    for name in ("PyRuSH", "medspacy", "negspacy", "spacy"):
        logging.getLogger(name).setLevel(logging.WARNING)


# --------------------------------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------------------------------


def read_jsonl(path: Path) -> list[dict]:
    rows = []
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise SystemExit(f"{path}:{lineno}: not valid JSON ({exc})") from None
    return rows


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def locate_target(
    sentence: str, target: str, start: int | None, end: int | None
) -> tuple[int, int] | None:
    """Character offsets of ``target`` in ``sentence`` (given offsets first, then a search).

    The given offsets are accepted when the text they cover equals the target case-insensitively
    and with whitespace normalised. Otherwise the target is searched case-insensitively with any
    run of whitespace allowed between its tokens; of several matches the one nearest the given
    start wins.
    Returns ``None`` when the target cannot be found in the sentence.
    """
    if start is not None and end is not None and 0 <= start < end <= len(sentence):
        if _norm(sentence[start:end]) == _norm(target):
            return start, end
    tokens = target.split()
    if not tokens:
        return None
    pattern = r"\s+".join(re.escape(t) for t in tokens)
    matches = list(re.finditer(pattern, sentence, flags=re.IGNORECASE))
    if not matches:
        return None
    anchor = start if start is not None else 0
    best = min(matches, key=lambda m: (abs(m.start() - anchor), m.start()))
    return best.start(), best.end()


# --------------------------------------------------------------------------------------------------
# systems
# --------------------------------------------------------------------------------------------------


class MedspacyContext:
    """medSpaCy's default pipeline (PyRuSH + ConText) with the gold target as the only entity."""

    def __init__(self) -> None:
        silence_logging()
        import medspacy

        self.nlp = medspacy.load()  # medspacy_pyrush, medspacy_target_matcher, medspacy_context
        self.sentencizer = self.nlp.get_pipe("medspacy_pyrush")
        self.context = self.nlp.get_pipe("medspacy_context")
        self.misaligned = 0

    def __call__(self, sentence: str, span: tuple[int, int]) -> dict:
        doc = self.sentencizer(self.nlp.make_doc(sentence))
        ent = doc.char_span(span[0], span[1], label="TARGET", alignment_mode="expand")
        if ent is None:
            self.misaligned += 1
            return {"negated": False, "uncertain": False, "hypothetical": False, "modifiers": ""}
        doc.ents = [ent]
        doc = self.context(doc)
        ent = doc.ents[0]
        mods = "; ".join(
            f"{m.category}:{doc[m.modifier_span[0] : m.modifier_span[1]].text}"
            for m in ent._.modifiers
        )
        return {
            "negated": bool(ent._.is_negated),
            "uncertain": bool(ent._.is_uncertain),
            "hypothetical": bool(ent._.is_hypothetical),
            "modifiers": mods,
        }


class Negspacy:
    """negspacy's ``negex`` (en_clinical termset) on blank English + spaCy's sentencizer."""

    def __init__(self) -> None:
        silence_logging()
        import spacy
        from negspacy.negation import Negex  # noqa: F401  (registers the "negex" factory)

        self.nlp = spacy.blank("en")
        self.nlp.add_pipe("sentencizer")
        self.nlp.add_pipe("negex")
        self.sentencizer = self.nlp.get_pipe("sentencizer")
        self.negex = self.nlp.get_pipe("negex")
        self.misaligned = 0

    def __call__(self, sentence: str, span: tuple[int, int]) -> bool:
        doc = self.sentencizer(self.nlp.make_doc(sentence))
        ent = doc.char_span(span[0], span[1], label="TARGET", alignment_mode="expand")
        if ent is None:
            self.misaligned += 1
            return False
        doc.ents = [ent]
        doc = self.negex(doc)
        return bool(doc.ents[0]._.negex)


def cuelex_assess(sentence: str, span: tuple[int, int]):
    """``cuelex.assess`` on one span; returns the Assessment."""
    import cuelex

    return cuelex.assess(sentence, [span])[0]


def describe_cue(assessment) -> str:
    cue = assessment.cue
    if cue is None:
        return "(no cue)"
    return f"{cue.text!r} [{cue.rule_id}, {cue.level.value}]"


# --------------------------------------------------------------------------------------------------
# metrics
# --------------------------------------------------------------------------------------------------


def prf(gold: Sequence[str], pred: Sequence[str], positive: str) -> dict:
    tp = sum(1 for g, p in zip(gold, pred, strict=True) if g == positive and p == positive)
    fp = sum(1 for g, p in zip(gold, pred, strict=True) if g != positive and p == positive)
    fn = sum(1 for g, p in zip(gold, pred, strict=True) if g == positive and p != positive)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"tp": tp, "fp": fp, "fn": fn, "precision": precision, "recall": recall, "f1": f1}


def macro_f1(gold: Sequence[str], pred: Sequence[str], labels: Sequence[str]) -> float:
    return sum(prf(gold, pred, lab)["f1"] for lab in labels) / len(labels)


def accuracy(gold: Sequence[str], pred: Sequence[str]) -> float:
    return sum(1 for g, p in zip(gold, pred, strict=True) if g == p) / len(gold) if gold else 0.0


def confusion(
    gold: Sequence[str], pred: Sequence[str], labels: Sequence[str]
) -> dict[str, Counter]:
    table = {g: Counter() for g in labels}
    for g, p in zip(gold, pred, strict=True):
        table[g][p] += 1
    return table


def bootstrap_ci(
    gold: Sequence[str],
    pred: Sequence[str],
    metric: Callable[[Sequence[str], Sequence[str]], float],
    n: int = 1000,
    seed: int = 13,
) -> tuple[float, float]:
    """Percentile 95% bootstrap interval of ``metric`` over rows (fixed seed: deterministic)."""
    rng = random.Random(seed)
    size = len(gold)
    values = []
    for _ in range(n):
        idx = [rng.randrange(size) for _ in range(size)]
        values.append(metric([gold[i] for i in idx], [pred[i] for i in idx]))
    values.sort()
    return values[int(0.025 * n)], values[int(0.975 * n) - 1]


# --------------------------------------------------------------------------------------------------
# formatting
# --------------------------------------------------------------------------------------------------


def md_table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |")
    return "\n".join(lines)


def confusion_md(
    table: dict[str, Counter], labels: Sequence[str], extra_cols: Sequence[str] = ()
) -> str:
    cols = list(labels) + [c for c in extra_cols if c not in labels]
    header = ["gold \\ predicted", *cols, "total"]
    rows = []
    for g in labels:
        rows.append([f"**{g}**", *[table[g][c] for c in cols], sum(table[g].values())])
    return md_table(header, rows)


def versions(packages: Sequence[str]) -> dict[str, str]:
    out = {}
    for name in packages:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def machine_info() -> dict[str, str]:
    cpu_model = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                cpu_model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        usable = os.cpu_count() or 0
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": cpu_model,
        "cpu_count": str(os.cpu_count()),
        "usable_cpus": str(usable),
    }


# --------------------------------------------------------------------------------------------------
# marked blocks: a script writes its measured numbers between markers, the prose stays on the page
# --------------------------------------------------------------------------------------------------


class MissingBlock(ValueError):
    """A docs page lacks (or repeats) the markers of a block a script writes into."""


def block_markers(name: str) -> tuple[str, str]:
    """The ``<!-- name:begin -->`` and ``<!-- name:end -->`` markers of block ``name``."""
    return f"<!-- {name}:begin -->", f"<!-- {name}:end -->"


def replace_block(text: str, name: str, body: str, page: Path | str = "the page") -> str:
    """``text`` with the content of block ``name`` replaced by ``body``; nothing else changes.

    A missing, repeated or reversed marker raises :class:`MissingBlock` naming the block and the
    page, so a script never appends to or rewrites the hand-written text around its blocks.
    """
    begin, end = block_markers(name)
    n_begin, n_end = text.count(begin), text.count(end)
    if n_begin != 1 or n_end != 1 or text.index(begin) > text.index(end):
        raise MissingBlock(
            f"{page}: block {name!r} needs one {begin} followed by one {end} "
            f"(found {n_begin} begin and {n_end} end markers); put the markers on the page "
            "where the block belongs"
        )
    head, rest = text.split(begin, 1)
    return f"{head}{begin}\n{body}\n{end}{rest.split(end, 1)[1]}"


def check_blocks(page: Path, names: Iterable[str]) -> None:
    """Raise :class:`MissingBlock` unless ``page`` holds the markers of every block in ``names``."""
    text = page.read_text(encoding="utf-8")
    for name in names:
        replace_block(text, name, "", page)


def write_blocks(page: Path, blocks: Mapping[str, str]) -> None:
    """Write each named block into ``page`` (:func:`replace_block`); the page is written only once
    every block's markers are found."""
    text = page.read_text(encoding="utf-8")
    for name, body in blocks.items():
        text = replace_block(text, name, body, page)
    page.write_text(text, encoding="utf-8")


def write_block(page: Path, name: str, body: str) -> None:
    """Replace the ``<!-- name:begin -->`` … ``<!-- name:end -->`` block of a docs page."""
    write_blocks(page, {name: body})


# --------------------------------------------------------------------------------------------------
# docs/accuracy.md: each eval script owns one marked block; the rest of the page is hand-written
# --------------------------------------------------------------------------------------------------

ACCURACY_MD = DOCS / "accuracy.md"


def write_accuracy_section(name: str, body: str) -> Path:
    """Replace block ``name`` of docs/accuracy.md (:func:`write_block`); the page's prose stays."""
    write_block(ACCURACY_MD, name, body.rstrip("\n"))
    return ACCURACY_MD
