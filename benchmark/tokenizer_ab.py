"""A/B of ``cuelex.load()``'s tokenizer: spaCy's chunk cache filled for every chunk, or as before.

Run from the repository root (offline, about two minutes on a shared machine):
    .venv/bin/python benchmark/tokenizer_ab.py [--rounds 5]

spaCy caches a whitespace-separated chunk's tokens only while no special case has been met
earlier in the text; a newline is one, so after a note's first line nothing is cached and the
same words are split by the affix rules again in every note. ``TextKeepingTokenizer`` tokenises
each chunk it has not seen before on its own first, which caches it. Over the corpora of
``benchmark/speed.py`` (IU reports, ACI-BENCH notes), in one process: the script first checks
that both tokenizers give byte-identical Docs (``Doc.to_bytes``) and that both pipelines give the
same pairs, else it stops; then it times, CPU time (``process_time``): the first pass of fresh
tokenizers (nothing cached yet), and rounds (each a cold pass: memos emptied at its start) in
which the measures take turns every 25 documents in alternating order: tokenizer A (spaCy's
behaviour, remembering texts as before) and B (the current one), ``nlp.pipe`` +
``Doc._.cue_pairs`` with each (an engine each), and negspacy's pipeline of ``speed.py``. It
prints per-document medians and the ratios: on a shared machine compare the ratios, not the
absolute numbers. Printed only.
"""

from __future__ import annotations

import gc
import statistics
import time
import weakref
from collections.abc import Callable

import speed
import spacy
from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc

import cuelex
from cuelex.component import TextKeepingTokenizer
from cuelex.extraction.engine import Engine

CHUNK = 25  # documents per turn


class SpacyCacheTokenizer(Tokenizer):
    """The tokenizer ``cuelex.load()`` had before: spaCy's, remembering each Doc's text."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.texts: weakref.WeakKeyDictionary[Doc, str] = weakref.WeakKeyDictionary()

    def __call__(self, text: str) -> Doc:
        doc = super().__call__(text)
        self.texts[doc] = text
        return doc


def with_tokenizer(cls: type[Tokenizer]) -> Language:
    """``cuelex.load()`` with its tokenizer replaced by a fresh ``cls`` of the same settings, and
    an engine of its own (so that each pipeline's memo fills as in a pass of its own)."""
    nlp = cuelex.load()
    tok = cls(nlp.vocab)
    tok.from_bytes(spacy.blank("en").tokenizer.to_bytes())
    nlp.tokenizer = tok
    comp = nlp.get_pipe("cuelex")
    comp.tokenizer = tok
    comp.engine = Engine(comp.engine.resources)
    return nlp


def check(a: Language, b: Language, texts: list[str]) -> None:
    """Byte-identical Docs from the two tokenizers and the same pairs from the two pipelines."""
    for text in texts:
        if a.tokenizer(text).to_bytes() != b.tokenizer(text).to_bytes():
            raise SystemExit("the tokenizers differ on a text: stop")
    if [d._.cue_pairs for d in a.pipe(texts)] != [d._.cue_pairs for d in b.pipe(texts)]:
        raise SystemExit("the pipelines give different pairs: stop")


def first_pass(texts: list[str]) -> dict[str, float]:
    """CPU µs per document of one pass of fresh tokenizers (nothing cached)."""
    out = {}
    for name, cls in (("A", SpacyCacheTokenizer), ("B", TextKeepingTokenizer)):
        tok = cls(spacy.blank("en").vocab)
        tok.from_bytes(spacy.blank("en").tokenizer.to_bytes())
        gc.collect()
        t = time.process_time()
        for text in texts:
            tok(text)
        out[name] = (time.process_time() - t) / len(texts) * 1e6
    return out


def rounds_of_turns(
    runners: dict[str, Callable[[list[str]], None]],
    texts: list[str],
    rounds: int,
    start: Callable[[], None],
) -> dict[str, float]:
    """Median over rounds of each runner's CPU µs per document, the runners taking turns every
    CHUNK documents in an order that alternates from chunk to chunk and round to round; ``start``
    runs before each round (it empties the memos: each round is a cold pass)."""
    keys = tuple(runners)
    seen: dict[str, list[float]] = {k: [] for k in keys}
    for r in range(rounds):
        took = dict.fromkeys(keys, 0.0)
        start()
        gc.collect()
        for k in range(0, len(texts), CHUNK):
            part = texts[k : k + CHUNK]
            for key in keys if (r + k // CHUNK) % 2 == 0 else keys[::-1]:
                t = time.process_time()
                runners[key](part)
                took[key] += time.process_time() - t
        for key in keys:
            seen[key].append(took[key] / len(texts) * 1e6)
    return {k: statistics.median(v) for k, v in seen.items()}


def main(argv: list[str] | None = None) -> int:
    args, corpora = speed.ab_setup(__doc__, argv, rounds=5)
    for name, texts in corpora.items():
        cold = first_pass(texts)
        a, b = with_tokenizer(SpacyCacheTokenizer), with_tokenizer(TextKeepingTokenizer)
        check(a, b, texts)  # also warms both caches and compiles the scanner's pattern groups
        neg = speed.build_systems(speed.read_findings())[speed.BASE]

        def pipe(nlp: Language) -> Callable[[list[str]], None]:
            def run(part: list[str]) -> None:
                for d in nlp.pipe(part):
                    d._.cue_pairs  # noqa: B018

            return run

        med = rounds_of_turns(
            {
                "tokenizer A (spaCy's cache)": lambda part: [a.tokenizer(t) for t in part],
                "tokenizer B (every chunk cached)": lambda part: [b.tokenizer(t) for t in part],
                "nlp.pipe + read, A": pipe(a),
                "nlp.pipe + read, B": pipe(b),
                "negspacy": lambda part: neg(part),
            },
            texts,
            args.rounds,
            lambda: [nlp.get_pipe("cuelex").engine.clear_memo() for nlp in (a, b)],
        )
        print(f"\n{name}: {len(texts)} documents, CPU µs per document")
        print(
            f"  first pass, fresh tokenizer  A {cold['A']:9.1f}   B {cold['B']:9.1f}"
            f"   A/B {cold['A'] / cold['B']:.2f}"
        )
        for key, value in med.items():
            print(f"  {key:<34}{value:9.1f}   (median of {args.rounds})")
        ta, tb = med["tokenizer A (spaCy's cache)"], med["tokenizer B (every chunk cached)"]
        pa, pb = med["nlp.pipe + read, A"], med["nlp.pipe + read, B"]
        print(f"  tokenizer A/B {ta / tb:.2f}; nlp.pipe A/B {pa / pb:.2f}")
        neg_us = med["negspacy"]
        print(f"  nlp.pipe vs negspacy (docs/s ratio): A {neg_us / pa:.2f}x, B {neg_us / pb:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
