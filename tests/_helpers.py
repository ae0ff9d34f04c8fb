"""Small assertion helpers shared by the tests (tests/ is on pytest's pythonpath)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import cuelex
from cuelex.cli import demo_corpus_path
from cuelex.scoring import score

BENCH = Path(__file__).resolve().parent.parent / "benchmark"


def bench_module(name: str):
    """Import a script of ``benchmark/`` (they import each other by bare name, so the folder is on
    ``sys.path`` while the module loads)."""
    import sys

    sys.path.insert(0, str(BENCH))
    try:
        return __import__(name)
    finally:
        sys.path.remove(str(BENCH))


# the shared IU development reports (read-only, beside the repository; skipped when absent)
IU_FILE = Path(
    os.environ.get(
        "CUELEX_IU_REPORTS",
        Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "eval" / "iu_cxr_dev.jsonl",
    )
)


def iu_texts(lines: int | None = None) -> list[str]:
    """The IU reports with a findings or impression section, as ``FINDINGS: …\nIMPRESSION: …``,
    from the first ``lines`` lines of the file (all when None); empty when the file is absent."""
    texts: list[str] = []
    if not IU_FILE.exists():
        return texts
    with open(IU_FILE, encoding="utf-8") as fh:
        for k, line in enumerate(fh):
            if lines is not None and k >= lines:
                break
            r = json.loads(line)
            if r.get("findings") or r.get("impression"):
                texts.append(
                    f"FINDINGS: {(r.get('findings') or '').strip()}\n"
                    f"IMPRESSION: {(r.get('impression') or '').strip()}"
                )
    return texts


def demo_texts() -> list[str]:
    """The texts of the demo corpus shipped with cuelex (ACI-BENCH notes), in file order."""
    with open(demo_corpus_path(), encoding="utf-8") as fh:
        return [json.loads(line)["text"] for line in fh]


def pairs_of(text: str) -> list[tuple[str, str, str]]:
    """(cue text, target text, level) triples of a text, for compact assertions."""
    return [(p.cue_text, p.target_text, p.level.value) for p in cuelex.extract(text)]


def level_of(text: str, target: str, occurrence: int = 0) -> str:
    """The assessed level of the ``occurrence``-th appearance of ``target`` in ``text``."""
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(target, start + 1)
    return cuelex.assess(text, [(start, start + len(target))])[0].level.value


def pair_for(source: str, output: str, target: str):
    """The one scored pair of ``cuelex.score(source, output)`` whose source target is exactly
    ``target`` (found in the output or not)."""
    r = score(source, output, n_boot=0)
    (p,) = [p for p in r.pairs if p.source.target_text == target]
    return p


def scored_pair(source: str, output: str, target: str):
    """:func:`pair_for`, asserting the target was found in the output."""
    p = pair_for(source, output, target)
    assert p.retained, (target, output)
    return p


def fates_of(source: str, output: str, target: str, *, ignore_case: bool = False) -> list[str]:
    """The fate (output level, or ``"ABSENT"``) of every source pair whose target contains
    ``target``, in source order: what the alignment probe files state."""
    def holds(text: str) -> bool:
        return target.lower() in text.lower() if ignore_case else target in text

    report = score(source, output, n_boot=0)
    return [
        p.output_level.value if p.retained and p.output_level is not None else "ABSENT"
        for p in report.pairs
        if holds(p.source.target_text)
    ]
