"""Per-document deduplication of cue–target pairs (paper section 3.1, after Step 2).

Within each document (pairs grouped by ``doc_id``):

1. **Exact duplicates** — pairs whose target strings are equal ignoring case and runs of whitespace
   keep one pair: the first (in document order) whose level is not yet covered in the document,
   i.e. the one that fills a gap in the document's level coverage; if none fills a gap, the first.
   Coverage starts with the levels of the pairs whose target is unique and grows as each duplicate
   group (taken in order of first occurrence) keeps its pair.
2. **Same concept, different surface form** — among the survivors, pairs that share a ``cui`` keep
   the most specific surface form: the target with the most words in normal form, then the longest
   normal form; ties keep the first in document order. Pairs without a ``cui`` are never merged by
   this rule.

The result has unique targets per document, in document order (by cue offset, then target offset,
then input position), documents in order of first appearance. The function is deterministic and
does not modify its input (pairs are frozen records).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..levels import Level
from ..records import CueTargetPair
from .normalize import normal_form

__all__ = ["deduplicate", "exact_key", "level_coverage", "specificity"]


_WHITESPACE_RUN = re.compile(r"\s+")


def exact_key(target_text: str) -> str:
    """Key of rule 1: the target string, case-folded, whitespace runs collapsed."""
    return _WHITESPACE_RUN.sub(" ", target_text).strip().casefold()


def specificity(target_text: str) -> tuple[int, int]:
    """Key of rule 2: (words, characters) of the target's normal form; larger is more specific."""
    nf = normal_form(target_text)
    return (len(nf.split()), len(nf))


def level_coverage(pairs: Iterable[CueTargetPair]) -> set[Level]:
    """The set of levels the pairs cover."""
    return {p.level for p in pairs}


def deduplicate(pairs: Iterable[CueTargetPair], *, by_cui: bool = True) -> list[CueTargetPair]:
    """Unique targets per document by the two rules above (``by_cui=False``: rule 1 only)."""
    items = list(pairs)
    for i, p in enumerate(items):
        if not isinstance(p, CueTargetPair):
            raise TypeError(f"deduplicate: item {i} is a {type(p).__name__}, not a CueTargetPair")
    docs: dict[str | None, list[int]] = {}
    for i, p in enumerate(items):
        docs.setdefault(p.doc_id, []).append(i)
    out: list[CueTargetPair] = []
    for idxs in docs.values():
        ordered = sorted(idxs, key=lambda i: (items[i].cue_start, items[i].target_start, i))
        kept = _dedup_exact([items[i] for i in ordered])
        if by_cui:
            kept = _dedup_cui(kept)
        out.extend(kept)
    return out


def _dedup_exact(pairs: list[CueTargetPair]) -> list[CueTargetPair]:
    groups: dict[str, list[int]] = {}
    for i, p in enumerate(pairs):
        groups.setdefault(exact_key(p.target_text), []).append(i)
    coverage = {pairs[g[0]].level for g in groups.values() if len(g) == 1}
    keep: set[int] = set()
    for g in groups.values():  # insertion order = order of first occurrence
        if len(g) == 1:
            keep.add(g[0])
            continue
        chosen = next((i for i in g if pairs[i].level not in coverage), g[0])
        keep.add(chosen)
        coverage.add(pairs[chosen].level)
    return [p for i, p in enumerate(pairs) if i in keep]


def _dedup_cui(pairs: list[CueTargetPair]) -> list[CueTargetPair]:
    groups: dict[str, list[int]] = {}
    for i, p in enumerate(pairs):
        if p.cui:
            groups.setdefault(p.cui, []).append(i)
    drop: set[int] = set()
    for g in groups.values():
        if len(g) < 2:
            continue
        best = max(g, key=lambda i: (specificity(pairs[i].target_text), -i))
        drop.update(i for i in g if i != best)
    return [p for i, p in enumerate(pairs) if i not in drop]
