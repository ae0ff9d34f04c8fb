"""Small assertion helpers shared by the tests (tests/ is on pytest's pythonpath)."""

from __future__ import annotations

import cuelex


def pairs_of(text: str) -> list[tuple[str, str, str]]:
    """(cue text, target text, level) triples of a text, for compact assertions."""
    return [(p.cue_text, p.target_text, p.level.value) for p in cuelex.extract(text)]


def level_of(text: str, target: str, occurrence: int = 0) -> str:
    """The assessed level of the ``occurrence``-th appearance of ``target`` in ``text``."""
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(target, start + 1)
    return cuelex.assess(text, [(start, start + len(target))])[0].level.value
