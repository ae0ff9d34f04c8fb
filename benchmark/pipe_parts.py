"""What ``cuelex.load()``'s ``nlp.pipe`` costs beyond its tokenizer and ``extract``, in whole passes.

Run from the repository root (offline, a few minutes on a shared machine):
    .venv/bin/python benchmark/pipe_parts.py [--rounds 5]

Over the corpora of ``benchmark/speed.py``, in one process, CPU time of whole cold passes (as
``speed.py`` times them: every memo emptied and ``gc.collect()`` before each pass; the measures
take turns, the order reversed every other round), each pipeline with its own engine:

- ``pipe+read``: ``cuelex.load()`` through ``nlp.pipe`` with ``Doc._.cue_pairs`` read (speed.py's row);
- ``pipe``: the same without reading the pairs (the copies made on reading);
- ``bare pipe``: ``cuelex.load(spans_key=None, assess_ents=False, use_doc_sents=False)``, no read
  (no target spans, no annotation checks): the component's floor around ``extract``;
- ``tok;extract``: the same tokenizer, then ``Engine.extract``, per text (no pipeline);
- ``negspacy``: speed.py's negspacy pipeline;
- ``pipe+read, gc off`` and ``extract, gc off`` / ``extract``: the garbage collector's share
  (switched off for that pass only).

Prints medians and best per document. Printed only (docs/speed.md is speed.py's page).
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable

import speed

import cuelex
from cuelex.extraction.engine import Engine


def main(argv: list[str] | None = None) -> int:
    args, corpora = speed.ab_setup(__doc__, argv)
    resources = cuelex.get_engine().resources

    def load(**config: object):  # type: ignore[no-untyped-def]
        nlp = cuelex.load(**config)
        nlp.get_pipe("cuelex").engine = Engine(resources)
        return nlp

    full, bare, tok_nlp = load(), load(spans_key=None, assess_ents=False, use_doc_sents=False), load()
    alone = Engine(resources)
    engines = [full.get_pipe("cuelex").engine, bare.get_pipe("cuelex").engine, alone]
    neg = speed.build_systems(speed.read_findings())[speed.BASE]

    def tok_extract(texts: list[str]) -> None:
        tokenize, extract = tok_nlp.tokenizer, alone.extract
        for t in texts:
            tokenize(t)
            extract(t)

    measures: dict[str, tuple[Callable[[list[str]], object], bool]] = {
        "pipe+read": (lambda T: sum(len(d._.cue_pairs) for d in full.pipe(T)), True),
        "pipe": (lambda T: sum(1 for _ in full.pipe(T)), True),
        "bare pipe": (lambda T: sum(1 for _ in bare.pipe(T)), True),
        "tok;extract": (tok_extract, True),
        "negspacy": (neg, True),
        "pipe+read, gc off": (lambda T: sum(len(d._.cue_pairs) for d in full.pipe(T)), False),
        "extract": (lambda T: sum(len(alone.extract(t)) for t in T), True),
        "extract, gc off": (lambda T: sum(len(alone.extract(t)) for t in T), False),
    }
    keys = list(measures)
    for name, texts in corpora.items():
        for run, _ in measures.values():
            run(texts)  # warm-up: the scanner's pattern groups, the tokenizers' caches
        took: dict[str, list[float]] = {k: [] for k in keys}
        for r in range(args.rounds):
            for key in keys if r % 2 == 0 else keys[::-1]:
                run, collect = measures[key]
                for engine in engines:
                    engine.clear_memo()
                gc.collect()
                if not collect:
                    gc.disable()
                try:
                    t0 = time.process_time()
                    run(texts)
                    took[key].append((time.process_time() - t0) / len(texts) * 1e6)
                finally:
                    gc.enable()
        print(f"\n{name}: {len(texts)} texts, CPU µs per text, median (best) of {args.rounds} rounds")
        for key in keys:
            print(f"  {key:<20}{statistics.median(took[key]):>10,.0f} ({min(took[key]):,.0f})")
        med = {k: statistics.median(v) for k, v in took.items()}
        print(f"  pipe+read vs negspacy {med['negspacy'] / med['pipe+read']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
