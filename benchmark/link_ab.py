"""A/B of ``Linker.link``: the linking module of a git revision against the working tree's.

Run from the repository root (offline, a few minutes on a shared machine):
    .venv/bin/python benchmark/link_ab.py [--rev fb019a0] [--rounds 5]

The old ``cuelex/concepts/linking.py`` is read with ``git show REV:...`` and imported beside the
current one (same package, same index, same records), so both linkers run in one process over
the corpora of ``benchmark/speed.py`` (IU reports, ACI-BENCH notes) on the same extracted pairs.
The script first checks that both give the same linked pairs (every field) on every text, else
it stops. Then each round is one cold pass of extraction and of each linker (every memo emptied
at its start; CPU time, ``process_time``), the linkers taking turns every 20 texts in
alternating order. It prints old/new linking time per round with the best and the median, and
the link cost ((extract + link) / extract) each linker gives with the same round's extraction
time: on a shared machine compare the ratios, not the absolute numbers. Printed only.

``--pipeline`` times, in the same kind of turns, what ``cuelex.extract(text, link=True)`` runs
(``speed.py``'s link cost): a plain extract, the old side (``Engine.extract`` then the old
``Linker.link``) and the new side (``cuelex.pipeline.run_pipeline`` with the new linker), each
with its own engine and every memo emptied per round, and prints the link cost each side gives.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable

import speed
from extract_ab import _fields, _load, timed_turns

import cuelex
from cuelex.concepts.linking import Linker
from cuelex.pipeline import run_pipeline

def old_linker_class(rev: str) -> type:
    """``Linker`` as it was at ``rev``, beside the current one."""
    module = _load(rev, "cuelex/concepts/linking.py", "cuelex.concepts._ab_old_linking")
    return module.Linker  # type: ignore[attr-defined, no-any-return]


def _link_runner(linker: Linker, texts: list[str], pairs: list[list]) -> Callable[[int, int], None]:
    def run(lo: int, hi: int) -> None:
        for t, ps in zip(texts[lo:hi], pairs[lo:hi]):
            if ps:
                linker.link(t, ps)

    return run


def _arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--rev", default="fb019a0", help="git revision of the old linking module")
    ap.add_argument(
        "--pipeline",
        action="store_true",
        help="also time extract + link as cuelex.extract(link=True) runs it (old and new)",
    )


def _pipeline_runners(engines: dict, linkers: dict, texts: list[str]) -> dict[str, Callable[[int, int], None]]:
    """A plain extract, the old linked pipeline (extract, then ``link``) and the new one
    (``run_pipeline``), each with its own engine."""

    def plain(lo: int, hi: int) -> None:
        for t in texts[lo:hi]:
            engines["plain"].extract(t)

    def old(lo: int, hi: int) -> None:
        for t in texts[lo:hi]:
            ps = engines["old"].extract(t)
            if ps:
                linkers["old"].link(t, ps)

    def new(lo: int, hi: int) -> None:
        for t in texts[lo:hi]:
            run_pipeline(t, engine=engines["new"], linker=linkers["new"])

    return {"plain": plain, "old": old, "new": new}


def main(argv: list[str] | None = None) -> int:
    args, corpora = speed.ab_setup(
        __doc__,
        argv,
        add_arguments=_arguments,
    )
    engine = cuelex.get_engine()
    linkers = {"old": old_linker_class(args.rev)().warm(), "new": Linker().warm()}
    for name, texts in corpora.items():
        pairs = [engine.extract(t) for t in texts]
        for i, (t, ps) in enumerate(zip(texts, pairs)):
            if _fields(linkers["old"].link(t, ps)) != _fields(linkers["new"].link(t, ps)):
                print(f"{name}: text {i} links differently; stopping")
                return 1
        print(f"{name}: {len(texts)} texts, {sum(map(len, pairs))} pairs, identical links")
    for name, texts in corpora.items():
        ratios, costs = [], {"old": [], "new": []}
        for r in range(args.rounds):
            engine.clear_memo()
            gc.collect()
            t0 = time.process_time()
            pairs = [engine.extract(t) for t in texts]
            extract = time.process_time() - t0
            for linker in linkers.values():
                linker.clear_memo()
            gc.collect()
            took = timed_turns(len(texts), {k: _link_runner(lk, texts, pairs) for k, lk in linkers.items()}, r)
            ratios.append(took["old"] / took["new"])
            for key in took:
                costs[key].append((extract + took[key]) / extract)
            print(
                f"{name} round {r + 1}: extract {extract / len(texts) * 1e6:,.0f} µs/doc, "
                f"link old {took['old'] / len(texts) * 1e6:,.0f}, new "
                f"{took['new'] / len(texts) * 1e6:,.0f} µs/doc, old/new {ratios[-1]:.3f}, "
                f"link cost old {costs['old'][-1]:.2f}x new {costs['new'][-1]:.2f}x"
            )
        print(
            f"{name}: linking old/new best {max(ratios):.3f}, median {statistics.median(ratios):.3f}; "
            f"link cost old {statistics.median(costs['old']):.2f}x -> new "
            f"{statistics.median(costs['new']):.2f}x (median), best "
            f"{min(costs['old']):.2f}x -> {min(costs['new']):.2f}x"
        )
    if args.pipeline:
        base = cuelex.get_engine()
        engines = {k: type(base)(base.resources) for k in ("plain", "old", "new")}
        for name, texts in corpora.items():
            for t in texts:  # the scanners' pattern groups compiled, outside the timed passes
                for e in engines.values():
                    e.extract(t)
            runners = _pipeline_runners(engines, linkers, texts)
            pratios, pcosts = [], {"old": [], "new": []}
            for r in range(args.rounds):
                for e in engines.values():
                    e.clear_memo()
                for linker in linkers.values():
                    linker.clear_memo()
                gc.collect()
                took = timed_turns(len(texts), runners, r)
                pratios.append(took["old"] / took["new"])
                for key in pcosts:
                    pcosts[key].append(took[key] / took["plain"])
                print(
                    f"{name} pipeline round {r + 1}: extract {took['plain'] / len(texts) * 1e6:,.0f} "
                    f"µs/doc, extract+link old {took['old'] / len(texts) * 1e6:,.0f}, new "
                    f"{took['new'] / len(texts) * 1e6:,.0f}, old/new {pratios[-1]:.3f}, link cost old "
                    f"{pcosts['old'][-1]:.2f}x new {pcosts['new'][-1]:.2f}x"
                )
            print(
                f"{name}: extract+link old/new best {max(pratios):.3f}, median "
                f"{statistics.median(pratios):.3f}; link cost old {statistics.median(pcosts['old']):.2f}x "
                f"-> new {statistics.median(pcosts['new']):.2f}x (median), best "
                f"{min(pcosts['old']):.2f}x -> {min(pcosts['new']):.2f}x"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
