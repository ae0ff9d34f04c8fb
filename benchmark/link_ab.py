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
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
from collections.abc import Callable

import speed
from extract_ab import _fields, _load, timed_turns

import cuelex
from cuelex.concepts.linking import Linker

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


def main(argv: list[str] | None = None) -> int:
    args, corpora = speed.ab_setup(
        __doc__,
        argv,
        add_arguments=lambda ap: ap.add_argument(
            "--rev", default="fb019a0", help="git revision of the old linking module"
        ),
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
