"""A/B of ``Engine.extract``: the engine and splitter of a git revision against the working tree's.

Run from the repository root (offline, a few minutes on a shared machine):
    .venv/bin/python benchmark/extract_ab.py [--rev e595cd9] [--rounds 5] [--no-memo]

The old engine and sentence splitter modules (cuelex/extraction/engine.py and sentences.py) are
read with ``git show REV:...`` and imported beside the current ones (same package, same
resources, same records), so both run in one process over the corpora of ``benchmark/speed.py``
(IU reports, ACI-BENCH notes). The script first checks that both give the same pairs (every
field, memo on and off) on every text, else it stops. Then each round is one cold pass of each engine over the corpus (memos emptied at its
start; CPU time, ``process_time``), the engines taking turns every 20 texts in alternating
order, after a warm-up pass that compiles the scanner's pattern groups. It prints old/new per
round with the best and the median: on a shared machine compare the ratios, not the absolute
numbers. Printed only.

With ``--pipe`` each round also times ``nlp.pipe`` (``cuelex.load()``, ``Doc._.cue_pairs`` read) with
the old engine in the component against the new, and negspacy's pipeline (speed.py's), in the
same turns: the old/new ratio of the pipeline and each one's ratio to negspacy.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import speed

import cuelex
from cuelex.extraction.engine import Engine

ROOT = Path(__file__).resolve().parent.parent
CHUNK = 20  # texts per turn


def _load(rev: str, path: str, name: str, replace: tuple[str, str] | None = None) -> object:
    """The module at ``path`` as it was at ``rev``, imported as ``name`` (inside ``cuelex``)."""
    source = subprocess.run(
        ["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    if replace is not None:
        source = source.replace(*replace)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as fh:
        fh.write(source)
    spec = importlib.util.spec_from_file_location(name, fh.name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def old_engine_class(rev: str) -> type:
    """``Engine`` as it was at ``rev``, with the sentence splitter of ``rev``, beside the current."""
    _load(rev, "cuelex/extraction/sentences.py", "cuelex.extraction._ab_old_sentences")
    module = _load(
        rev,
        "cuelex/extraction/engine.py",
        "cuelex.extraction._ab_old_engine",
        ("from .sentences import", "from ._ab_old_sentences import"),
    )
    return module.Engine  # type: ignore[attr-defined, no-any-return]


def _fields(pairs: list) -> list[dict]:
    return [p.model_dump() for p in pairs]


def timed_turns(n: int, runners: dict[str, Callable[[int, int], None]], round_: int) -> dict[str, float]:
    """CPU seconds each runner takes over items ``[0, n)``, run in turns of CHUNK items (a runner
    is called with a chunk's bounds); the order alternates from chunk to chunk and round to round,
    so a change of machine load falls on both alike."""
    keys = tuple(runners)
    took = dict.fromkeys(keys, 0.0)
    for k in range(0, n, CHUNK):
        for key in keys if (round_ + k // CHUNK) % 2 == 0 else keys[::-1]:
            t0 = time.process_time()
            runners[key](k, k + CHUNK)
            took[key] += time.process_time() - t0
    return took


def _extract_runner(engine: Engine, texts: list[str]) -> Callable[[int, int], None]:
    def run(lo: int, hi: int) -> None:
        for t in texts[lo:hi]:
            engine.extract(t)

    return run


# (label, numerator, denominator) of the time ratios printed per round
_RATIOS = (
    ("extract old/new", "old", "new"),
    ("nlp.pipe old/new", "pipe old", "pipe new"),
    ("nlp.pipe old vs negspacy", "negspacy", "pipe old"),
    ("nlp.pipe new vs negspacy", "negspacy", "pipe new"),
)


def _pipe_runners(engines: dict[str, Engine], texts: list[str]) -> dict[str, Callable[[int, int], None]]:
    """``nlp.pipe`` + reading ``Doc._.cue_pairs`` with each engine in ``cuelex.load()``'s component,
    and negspacy's pipeline of speed.py; each warmed on every text first (tokenizer caches)."""
    neg = speed.build_systems(speed.read_findings())[speed.BASE]
    out: dict[str, Callable[[int, int], None]] = {}
    for key, engine in engines.items():
        nlp = cuelex.load()
        nlp.get_pipe("cuelex").engine = engine
        for d in nlp.pipe(texts):
            d._.cue_pairs  # noqa: B018

        def run(lo: int, hi: int, nlp: object = nlp) -> None:
            for d in nlp.pipe(texts[lo:hi]):  # type: ignore[attr-defined]
                d._.cue_pairs  # noqa: B018

        out[f"pipe {key}"] = run
    neg(texts)
    out["negspacy"] = lambda lo, hi: neg(texts[lo:hi])  # type: ignore[func-returns-value]
    return out


def main(argv: list[str] | None = None) -> int:
    def add_arguments(ap: argparse.ArgumentParser) -> None:
        ap.add_argument("--rev", default="e595cd9", help="git revision of the old engine module")
        ap.add_argument("--no-memo", action="store_true", help="time both engines with memo=False")
        ap.add_argument("--pipe", action="store_true", help="also time nlp.pipe (old/new) and negspacy")

    args, corpora = speed.ab_setup(__doc__, argv, add_arguments=add_arguments)
    resources = cuelex.get_engine().resources
    memo = not args.no_memo
    old = old_engine_class(args.rev)
    engines = {"old": old(resources, memo=memo), "new": Engine(resources, memo=memo)}
    for name, texts in corpora.items():
        for flag in (True, False):
            a = old(resources, memo=flag)
            b = Engine(resources, memo=flag)
            for i, t in enumerate(texts):
                if _fields(a.extract(t, doc_id="x")) != _fields(b.extract(t, doc_id="x")):
                    print(f"{name}: text {i} differs (memo={flag}); stopping")
                    return 1
        print(f"{name}: {len(texts)} texts, identical pairs (memo on and off)")
    for name, texts in corpora.items():
        for engine in engines.values():  # compile the scanner's pattern groups outside the timing
            for t in texts:
                engine.extract(t)
        runners = {k: _extract_runner(e, texts) for k, e in engines.items()}
        # the pipelines get engines of their own: a memo filled by one measure helps no other
        piped = {"old": old(resources, memo=memo), "new": Engine(resources, memo=memo)}
        if args.pipe:
            runners.update(_pipe_runners(piped, texts))
        ratios: dict[str, list[float]] = {}
        for r in range(args.rounds):
            for engine in (*engines.values(), *piped.values()):
                engine.clear_memo()
            gc.collect()
            took = timed_turns(len(texts), runners, r)
            line = [f"{name} round {r + 1}:"]
            for label, a, b in _RATIOS:
                if a in took and b in took:
                    ratios.setdefault(label, []).append(took[a] / took[b])
                    line.append(f"{label} {ratios[label][-1]:.3f}")
            line.append(
                f"(extract old {took['old'] / len(texts) * 1e6:,.0f} µs/doc, "
                f"new {took['new'] / len(texts) * 1e6:,.0f} µs/doc)"
            )
            print(" ".join(line))
        for label, values in ratios.items():
            print(f"{name}: {label} best {max(values):.3f}, median {statistics.median(values):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
