"""A/B of ``cuelex.load()`` through ``nlp.pipe``: a git revision against the working tree.

The revision's tokenizer, component, engine and sentence splitter against the working tree's,
with negspacy's pipeline in the same turns.

Run from the repository root (offline, a few minutes on a shared machine):
    .venv/bin/python benchmark/pipe_ab.py [--rev 7b60cd9] [--rounds 5]

``cuelex/component.py``, ``cuelex/extraction/engine.py`` and ``sentences.py`` of the revision are
read with ``git show`` and imported beside the current modules (``extract_ab.py``'s loader; the
old component without its factory registration), each old module using the old modules of the
others and the current shared ones (resources, records, extensions). Each side is a blank
English pipeline with its own tokenizer (``TextKeepingTokenizer`` of its revision) and its own
component and engine, run as ``nlp.pipe`` runs it (the tokenizer's Docs through the component's
``pipe``) with ``Doc._.cue_pairs`` read. The script first checks byte-identical Docs
(``Doc.to_bytes``, pairs JSON included) on every text, else it stops; then each round is a
cold pass (memos emptied) with the measures taking turns every 20 texts (``extract_ab``'s
turns, CPU time). Prints old/new and each side against negspacy, per round, best and median.
"""

from __future__ import annotations

import gc
import importlib.util
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable

import extract_ab
import spacy
import speed
from extract_ab import timed_turns

import cuelex
from cuelex import component as new_component
from cuelex.extraction.engine import Engine
from cuelex.extensions import PAIRS_KEY


def old_modules(rev: str) -> tuple[type, type, type]:
    """(Engine, TextKeepingTokenizer, CuelexComponent) as they were at ``rev``."""
    engine_cls = extract_ab.old_engine_class(rev)
    comp = _load_component(rev)
    return engine_cls, comp.TextKeepingTokenizer, comp.CuelexComponent  # type: ignore[attr-defined]


def _load_component(rev: str) -> object:
    """``cuelex/component.py`` at ``rev``, its relative imports made absolute, no factory."""
    source = subprocess.run(
        ["git", "show", f"{rev}:cuelex/component.py"],
        cwd=extract_ab.ROOT, check=True, capture_output=True, text=True,
    ).stdout
    source = source.replace('@Language.factory("cuelex", default_config=DEFAULT_CONFIG)\n', "")
    source = source.replace("from .", "from cuelex.")
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as fh:
        fh.write(source)
    spec = importlib.util.spec_from_file_location("cuelex._ab_old_component", fh.name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["cuelex._ab_old_component"] = module
    spec.loader.exec_module(module)
    return module


def pipeline(tokenizer_cls: type, component_cls: type, engine: Engine) -> Callable[[list[str]], list]:
    """``nlp.pipe`` of a blank English pipeline with these classes: texts -> Docs."""
    nlp = spacy.blank("en")
    tok = tokenizer_cls(nlp.vocab)
    tok.from_bytes(nlp.tokenizer.to_bytes())
    nlp.tokenizer = tok
    comp = component_cls(nlp)
    comp.engine = engine

    def run(texts: list[str]) -> list:
        return list(comp.pipe(tok(t) for t in texts))

    return run


def main(argv: list[str] | None = None) -> int:
    def add_arguments(ap) -> None:  # type: ignore[no-untyped-def]
        ap.add_argument("--rev", default="7b60cd9", help="git revision of the old modules")

    args, corpora = speed.ab_setup(__doc__, argv, add_arguments=add_arguments)
    resources = cuelex.get_engine().resources
    old_engine, old_tok, old_comp = old_modules(args.rev)
    engines = {"old": old_engine(resources), "new": Engine(resources)}
    pipes = {
        "old": pipeline(old_tok, old_comp, engines["old"]),
        "new": pipeline(new_component.TextKeepingTokenizer, new_component.CuelexComponent, engines["new"]),
    }
    neg = speed.build_systems(speed.read_findings())[speed.BASE]
    for name, texts in corpora.items():
        for a, b in zip(pipes["old"](texts), pipes["new"](texts), strict=True):
            if a.to_bytes() != b.to_bytes() or a._.cue_pairs != b._.cue_pairs:
                print(f"{name}: Docs differ; stopping")
                return 1
            if str(a.user_data[PAIRS_KEY]) != str(b.user_data[PAIRS_KEY]):
                print(f"{name}: pairs JSON differs; stopping")
                return 1
        print(f"{name}: {len(texts)} texts, byte-identical Docs and pairs")
        neg(texts)
        runners: dict[str, Callable[[int, int], None]] = {
            key: (lambda lo, hi, run=run: [d._.cue_pairs for d in run(texts[lo:hi])] and None)
            for key, run in pipes.items()
        }
        runners["negspacy"] = lambda lo, hi: neg(texts[lo:hi]) and None
        ratios: dict[str, list[float]] = {}
        for r in range(args.rounds):
            for engine in engines.values():
                engine.clear_memo()
            gc.collect()
            took = timed_turns(len(texts), runners, r)
            for label, a, b in (
                ("old/new", "old", "new"),
                ("old vs negspacy", "negspacy", "old"),
                ("new vs negspacy", "negspacy", "new"),
            ):
                ratios.setdefault(label, []).append(took[a] / took[b])
            print(
                f"{name} round {r + 1}: "
                + " ".join(f"{k} {v[-1]:.3f}" for k, v in ratios.items())
                + f" (old {took['old'] / len(texts) * 1e6:,.0f} µs/doc,"
                f" new {took['new'] / len(texts) * 1e6:,.0f}, negspacy"
                f" {took['negspacy'] / len(texts) * 1e6:,.0f})"
            )
        for label, values in ratios.items():
            print(f"{name}: {label} best {max(values):.3f}, median {statistics.median(values):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
