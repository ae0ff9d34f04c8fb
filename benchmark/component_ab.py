"""Where the spaCy component path spends its time beyond the tokenizer and ``extract``.

Run from the repository root (offline, a few minutes on a shared machine):
    .venv/bin/python benchmark/component_ab.py [--rounds N]

Over the IU reports and the ACI-BENCH notes (the corpora of ``benchmark/speed.py``), in one process,
CPU time (``time.process_time``) of: ``cuelex.load()``'s tokenizer alone, ``cuelex.extract``,
``nlp.pipe`` with ``Doc._.cue_pairs`` read (what speed.py times), and the component's steps one
by one; then an A/B, alternating per 25 documents: ``nlp.pipe`` + read with each Doc's pairs JSON
written as well (what the component did for every Doc before that text became lazy) against
without. The steps are timed on a copy of ``CuelexComponent.__call__`` (default configuration,
no linking, no entities) that the script first checks against the component itself: the same
pairs, JSON and spans on every document, else it stops. The measures take turns, in an order
that changes every round, and the medians are printed: on a machine shared with other jobs,
compare the ratios, not the absolute numbers. Printed only (docs/speed.md is speed.py's page).
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable

import speed
from spacy.tokens import Doc

import cuelex
from cuelex.component import CuelexComponent
from cuelex.corpus import check_text
from cuelex.extensions import PAIRS_KEY, store_pairs
from cuelex.pipeline import run_pipeline

STEPS = ("annotations", "run_pipeline", "store", "spans", "entities", "read cue_pairs")


def _replica(comp: CuelexComponent, doc: Doc, clock: dict[str, int]) -> Doc:
    """``CuelexComponent.__call__`` (default configuration, no linker) with a timer per step."""
    now = time.process_time_ns
    t0 = now()
    text = comp.tokenizer.texts.get(doc)
    if text is None:
        text = doc.text
    text = check_text(text, "Doc text")
    sents = None
    if comp.use_doc_sents and doc.has_annotation("SENT_START"):
        sents = [(s.start_char, s.end_char) for s in doc.sents]
    t1 = now()
    pairs = run_pipeline(text, engine=comp.engine, sentences=sents)
    t2 = now()
    store_pairs(doc, pairs)
    t3 = now()
    labels = comp._labels
    spans = []
    for p in pairs:
        span = doc.char_span(
            p.target_start, p.target_end, label=labels[p.level], alignment_mode="expand"
        )
        if span is not None:
            spans.append(span)
    doc.spans[comp.spans_key] = spans
    t4 = now()
    ents = doc.ents if comp.assess_ents and doc.has_annotation("ENT_IOB") else ()
    if ents:
        raise SystemExit("the replica times Docs without entities (cuelex.load() makes none)")
    t5 = now()
    doc._.cue_pairs  # noqa: B018  (read, as speed.py reads it)
    t6 = now()
    for step, (a, b) in zip(STEPS, ((t0, t1), (t1, t2), (t2, t3), (t3, t4), (t4, t5), (t5, t6))):
        clock[step] += b - a
    return doc


def check_replica(nlp, texts: list[str]) -> None:
    """Stop unless the replica gives the component's pairs, JSON and spans on every text."""
    comp = nlp.get_pipe("cuelex")
    clock = dict.fromkeys(STEPS, 0)
    for text, want in zip(texts, nlp.pipe(texts), strict=True):
        got = _replica(comp, nlp.make_doc(text), clock)
        same = (
            got.user_data[PAIRS_KEY] == want.user_data[PAIRS_KEY]
            and got._.cue_pairs == want._.cue_pairs
            and [(s.start, s.end, s.label) for s in got.spans[comp.spans_key]]
            == [(s.start, s.end, s.label) for s in want.spans[comp.spans_key]]
        )
        if not same:
            raise SystemExit("the step replica no longer matches CuelexComponent.__call__")


def measure(nlp, texts: list[str], rounds: int) -> dict[str, float]:
    """Median CPU µs per document of each measure and each step, over ``rounds`` turns."""
    engine = cuelex.get_engine()
    comp = nlp.get_pipe("cuelex")
    tokenizer = nlp.tokenizer
    clock = dict.fromkeys(STEPS, 0)

    def tok() -> None:
        for t in texts:
            tokenizer(t)

    def ext() -> None:
        engine.clear_memo()
        for t in texts:
            cuelex.extract(t)

    def pipe() -> None:
        engine.clear_memo()
        for d in nlp.pipe(texts):
            d._.cue_pairs  # noqa: B018

    def steps() -> None:
        engine.clear_memo()
        for t in texts:
            _replica(comp, tokenizer(t), clock)

    measures: dict[str, Callable[[], None]] = {
        "tokenizer": tok,
        "extract": ext,
        "nlp.pipe + read": pipe,
        "steps": steps,
    }
    seen: dict[str, list[float]] = {name: [] for name in (*measures, *STEPS)}
    names = list(measures)
    n = len(texts)
    for r in range(rounds):
        order = names[r % len(names) :] + names[: r % len(names)]
        if r % 2:
            order.reverse()
        for name in order:
            for step in STEPS:
                clock[step] = 0
            gc.collect()
            t = time.process_time_ns()
            measures[name]()
            seen[name].append((time.process_time_ns() - t) / n / 1000)
            if name == "steps":
                for step in STEPS:
                    seen[step].append(clock[step] / n / 1000)
    return {name: statistics.median(v) for name, v in seen.items()}


def paired(nlp, texts: list[str], rounds: int, chunk: int = 25) -> tuple[float, float]:
    """CPU seconds of ``nlp.pipe`` + read with the JSON written for every Doc (A, the old cost)
    and only when needed (B), alternating per chunk of documents (memo emptied before each)."""
    engine = cuelex.get_engine()
    total = {"A": 0.0, "B": 0.0}
    for r in range(rounds):
        for k in range(0, len(texts), chunk):
            part = texts[k : k + chunk]
            for which in ("AB" if (r + k // chunk) % 2 == 0 else "BA"):
                engine.clear_memo()
                t = time.process_time()
                for d in nlp.pipe(part):
                    if which == "A":
                        str(d.user_data[PAIRS_KEY])
                    d._.cue_pairs  # noqa: B018
                total[which] += time.process_time() - t
    return total["A"], total["B"]


def main(argv: list[str] | None = None) -> int:
    args, corpora = speed.ab_setup(__doc__, argv, rounds=7)
    nlp = cuelex.load()
    for name, texts in corpora.items():
        check_replica(nlp, texts)  # also the first pass: compiles the scanner's pattern groups
        med = measure(nlp, texts, args.rounds)
        base = med["tokenizer"] + med["extract"]
        print(f"\n{name}: {len(texts)} documents, median CPU µs per document of {args.rounds}")
        for key in ("tokenizer", "extract", "nlp.pipe + read", "steps"):
            print(f"  {key:<28}{med[key]:>9.1f}")
        for step in STEPS:
            print(f"    step {step:<23}{med[step]:>9.1f}")
        extra = sum(med[s] for s in STEPS if s != "run_pipeline")
        print(f"  nlp.pipe / (tokenizer + extract)  {med['nlp.pipe + read'] / base:.3f}")
        a, b = paired(nlp, texts, args.rounds)
        print(f"  JSON written / JSON when needed   {a / b:.3f} (alternating per 25 documents)")
        print(f"  steps beside extract / extract    {extra / med['extract']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
