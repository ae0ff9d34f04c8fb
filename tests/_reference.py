"""The reference extraction path of test_speed_equivalence, in a module worker processes can import.

The reference engine scans with one POSIX alternation of every pattern, which is slow (about a
tenth of the suite's time on the demo notes); its pairs are computed in two spawned processes when
there are many texts, so both cores work while pytest waits.
"""

from __future__ import annotations

import functools
import multiprocessing
import multiprocessing.pool
import os

import regex

import cuelex
from cuelex.extraction import engine as X
from cuelex.records import CueTargetPair

#: (text, doc id, every other sentence given by the caller)
Item = tuple[str, "str | None", bool]


def reference_engine() -> X.Engine:
    """An engine of the current resources whose scanner is one POSIX alternation of every pattern
    and whose context rules search "preceded by" forwards from the sentence start."""
    fast = cuelex.get_engine()
    ref = X.Engine(fast.resources)
    ref._scan = X._Scanner(fast._scan.items, dispatch=False)
    # context rules' "preceded by" searched forwards from the sentence start (the fast path
    # searches backwards from the cue)
    ref._context = [
        (
            rule,
            regex.compile(f"(?:{rule.preceded_by})\\Z", X._FLAGS) if rule.preceded_by else None,
            after,
        )
        for rule, _before, after in fast._context
    ]
    return ref


def fields(pairs: list[CueTargetPair]) -> list[tuple]:
    """Every field of every pair, and which fields were set: what the equivalence tests compare."""
    return [(p.__dict__, p.model_fields_set) for p in pairs]


def extract_fields(engine: X.Engine, item: Item) -> list[tuple]:
    text, doc_id, every_other_sentence = item
    sentences = engine.sentences(text)[::2] if every_other_sentence else None
    return fields(engine.extract(text, doc_id=doc_id, sentences=sentences))


@functools.lru_cache(maxsize=1)
def _worker_engine() -> X.Engine:
    engine = reference_engine()
    # this process only computes reference pairs: records as pydantic's model_construct makes
    # them (set after the engines are built: building reads the fast constructor's flags)
    X._new_pair = CueTargetPair.model_construct
    return engine


def _worker_fields(item: Item) -> list[tuple]:
    return extract_fields(_worker_engine(), item)


def reference_pool(processes: int = 2) -> multiprocessing.pool.Pool | None:
    """A pool of spawned workers that compute reference pairs (each builds the engines once), or
    None when the machine has one core."""
    if (os.cpu_count() or 1) < 2:
        return None
    return multiprocessing.get_context("spawn").Pool(processes)


def parallel_reference_fields(pool: multiprocessing.pool.Pool, items: list[Item]) -> list[list[tuple]]:
    """The reference fields of ``items`` from the pool's workers, in the order of ``items``."""
    # the longest texts first, so no worker is left with a long tail
    order = sorted(range(len(items)), key=lambda k: -len(items[k][0]))
    got = pool.map(_worker_fields, [items[k] for k in order], chunksize=1)
    out: list[list[tuple]] = [[] for _ in items]
    for k, g in zip(order, got, strict=True):
        out[k] = g
    return out
