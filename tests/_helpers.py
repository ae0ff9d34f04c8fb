"""Small assertion helpers shared by the tests (tests/ is on pytest's pythonpath)."""

from __future__ import annotations

import cuelex
from cuelex.scoring import score


def pairs_of(text: str) -> list[tuple[str, str, str]]:
    """(cue text, target text, level) triples of a text, for compact assertions."""
    return [(p.cue_text, p.target_text, p.level.value) for p in cuelex.extract(text)]


def level_of(text: str, target: str, occurrence: int = 0) -> str:
    """The assessed level of the ``occurrence``-th appearance of ``target`` in ``text``."""
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(target, start + 1)
    return cuelex.assess(text, [(start, start + len(target))])[0].level.value


def scored_pair(source: str, output: str, target: str):
    """The scored pair of ``cuelex.score(source, output)`` whose source target is exactly
    ``target``, asserting there is one and it was found in the output."""
    r = score(source, output, n_boot=0)
    (p,) = [p for p in r.pairs if p.source.target_text == target]
    assert p.retained, (target, output)
    return p
