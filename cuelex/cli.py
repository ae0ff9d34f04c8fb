"""Command line: ``cuelex demo``, ``cuelex extract FILE...`` and the subcommands other modules add."""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from importlib import resources as importlib_resources
from pathlib import Path

from .api import PAIR_COLUMNS, extract, get_engine, to_frame
from .corpus import InputError, Problem, read_documents, refuse_overwrite, safe_csv_frame
from .levels import CUE_LEVELS
from .records import CueTargetPair
from .schema import ResourceError

log = logging.getLogger("cuelex")


def demo_corpus_path() -> Path:
    """The embedded demo corpus: 207 ACI-BENCH clinical notes (CC BY 4.0, see ACI_BENCH_README.md)."""
    return Path(str(importlib_resources.files("cuelex.data").joinpath("aci_bench_notes.jsonl")))


def _summary(pairs: list[CueTargetPair], n_docs: int, seconds: float) -> str:
    levels = Counter(p.level for p in pairs)
    cues = Counter(p.cue_text.lower() for p in pairs)
    lines = [
        f"documents: {n_docs}   cue-target pairs: {len(pairs)}   "
        f"({n_docs / seconds:.0f} documents/s)"
        if seconds > 0
        else f"documents: {n_docs}   pairs: {len(pairs)}",
        "pairs per level: " + ", ".join(f"{lv.value} {levels.get(lv, 0)}" for lv in CUE_LEVELS),
        "most frequent cues: " + ", ".join(f"{c!r} {k}" for c, k in cues.most_common(8)),
    ]
    return "\n".join(lines)


class PairWriter:
    """Writes pairs as they are found to ``OUT.partial`` and renames it to ``OUT`` when closed.

    ``OUT`` therefore only ever holds a complete result; after a failure the pairs of every
    finished document are kept in ``OUT.partial`` (and the error says so). CSV cells that a
    spreadsheet would run as formulas are neutralised (``corpus.neutralize_cell``).
    """

    def __init__(self, out: Path):
        suffix = out.suffix.lower()
        if suffix not in (".csv", ".jsonl", ".ndjson"):
            raise InputError(f"{out}: output must end in .csv or .jsonl")
        self.out = out
        self.partial = out.with_name(out.name + ".partial")
        self.csv = suffix == ".csv"
        out.parent.mkdir(parents=True, exist_ok=True)
        self._fh = open(self.partial, "w", encoding="utf-8", newline="")
        if self.csv:
            self._fh.write(",".join(PAIR_COLUMNS) + "\n")
        self.n = 0

    def write(self, pairs: list[CueTargetPair]) -> None:
        if self.csv:
            if pairs:
                safe_csv_frame(to_frame(pairs)).to_csv(self._fh, index=False, header=False)
        else:
            for p in pairs:
                self._fh.write(json.dumps(p.model_dump(mode="json"), ensure_ascii=False) + "\n")
        self._fh.flush()
        self.n += len(pairs)

    def close(self) -> None:
        """Finish: the partial file becomes the output."""
        self._fh.close()
        os.replace(self.partial, self.out)

    def abandon(self) -> str:
        """Stop after a failure, keeping what was written; a sentence saying where it is."""
        self._fh.close()
        return f"the {self.n} pair(s) of the documents finished before it are in {self.partial}"


def _write_pairs(pairs: list[CueTargetPair], out: Path) -> None:
    writer = PairWriter(out)
    writer.write(pairs)
    writer.close()


def cmd_demo(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    docs = list(read_documents(demo_corpus_path()))
    pairs: list[CueTargetPair] = []
    for doc in docs:
        pairs.extend(
            extract(doc.text, doc_id=doc.id, link=not args.no_link, deduplicate=not args.no_link)
        )
    seconds = time.perf_counter() - t0
    out = Path(args.output)
    _write_pairs(pairs, out)
    print(
        "cuelex demo: ACI-BENCH clinical notes (CC BY 4.0), shipped lexicons and rules, open vocabulary"
    )
    print(_summary(pairs, len(docs), seconds))
    if not args.no_link:
        linked = sum(p.cui is not None for p in pairs)
        print(
            f"linked to a concept: {linked} of {len(pairs)} pairs ({linked / max(len(pairs), 1):.0%})"
        )
    print(f"pairs written to {out}")
    if not args.no_benchmark:
        from .bench import demo, format_screening, format_stats

        stats = demo(out.parent)
        print()
        print(f"benchmark built from the demo corpus ({out.parent / 'demo_benchmark.jsonl'}):")
        print(format_screening(stats["screening"]))
        print(format_stats(stats))
    return 0


def cmd_extract(args: argparse.Namespace) -> int:
    options = dict(
        link=args.link,
        vocabulary=args.vocabulary,
        deduplicate=args.dedup,
        lexicons=args.lexicons,
        rules_dir=args.rules,
        extra_lexicons=args.extra_lexicon or (),
    )
    get_engine(
        args.lexicons, args.rules, args.extra_lexicon or ()
    )  # a bad lexicon fails before any input is read
    if args.output:
        refuse_overwrite(args.output, args.files)
    problems: list[Problem] = []
    pairs: list[CueTargetPair] = []
    n = 0
    t0 = time.perf_counter()
    writer = PairWriter(Path(args.output)) if args.output else None
    try:
        for f in args.files:
            for doc in read_documents(
                f,
                text_col=args.text_col,
                id_col=args.id_col,
                problems=problems,
                encoding=args.encoding,
                skip_bad_rows=args.skip_bad_rows,
            ):
                found = extract(doc.text, doc_id=doc.id, **options)
                if writer is not None:
                    writer.write(found)
                pairs.extend(found)
                n += 1
    except BaseException:
        if writer is not None:
            print(f"cuelex: stopped; {writer.abandon()}", file=sys.stderr)
        raise
    seconds = time.perf_counter() - t0
    if writer is not None:
        writer.close()
    else:
        safe_csv_frame(to_frame(pairs)).to_csv(sys.stdout, index=False)
    print(_summary(pairs, n, seconds), file=sys.stderr)
    for problem in problems:
        print(f"skipped: {problem}", file=sys.stderr)
    return 0


# (module, function that adds its subcommands): each stage of the pipeline owns its CLI
_SUBCOMMANDS: tuple[tuple[str, str], ...] = (
    ("cuelex.vocab", "add_vocab_subparser"),
    ("cuelex.scoring", "add_score_subparser"),
    ("cuelex.bench", "add_bench_subparser"),
    ("cuelex.report", "add_report_subparser"),
    ("cuelex.plots", "add_plots_subparser"),
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cuelex", description=__doc__)
    parser.add_argument(
        "-v", "--verbose", action="count", default=0, help="more log output (-vv: DEBUG)"
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser(
        "demo", help="extract pairs from the embedded demo corpus and print a summary"
    )
    p.add_argument(
        "-o", "--output", default="out/demo_pairs.csv", help="CSV or JSONL file for the pairs"
    )
    p.add_argument("--no-link", action="store_true", help="skip concept linking and deduplication")
    p.add_argument(
        "--no-benchmark", action="store_true", help="skip building the demo benchmark and its statistics"
    )
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser(
        "extract", help="extract cue-target pairs from .txt/.csv/.jsonl files or folders"
    )
    p.add_argument(
        "files", nargs="+", help="inputs: .txt, folder of .txt, .csv/.tsv/.jsonl (optionally .gz)"
    )
    p.add_argument("-o", "--output", help="output .csv or .jsonl (default: CSV on stdout)")
    p.add_argument(
        "--text-col", default="text", help="text column of CSV/JSONL inputs (default: text)"
    )
    p.add_argument(
        "--id-col", default=None, help="document id column (default: id or note_id if present)"
    )
    p.add_argument(
        "--encoding",
        default="utf-8",
        help="encoding of the input files (default: utf-8; invalid bytes are an error, never replaced)",
    )
    p.add_argument(
        "--skip-bad-rows",
        action="store_true",
        help="skip malformed rows (listed on stderr with file and line) instead of stopping",
    )
    p.add_argument(
        "--lexicons", default=None, help="lexicon file or folder replacing the shipped lexicons"
    )
    p.add_argument(
        "--extra-lexicon", action="append", help="lexicon file added to the shipped ones"
    )
    p.add_argument("--rules", default=None, help="rules folder replacing the shipped rules")
    p.add_argument("--link", action="store_true", help="link targets to concepts (open vocabulary)")
    p.add_argument(
        "--vocabulary",
        default=None,
        help="concept index from `cuelex vocab build` (implies --link)",
    )
    p.add_argument(
        "--dedup", action="store_true", help="keep each target once per document (paper's rules)"
    )
    p.set_defaults(func=cmd_extract)

    for module, hook in _SUBCOMMANDS:
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue  # an optional stage that is not part of this installation
        getattr(mod, hook)(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    level = (
        logging.WARNING
        if args.verbose == 0
        else logging.INFO
        if args.verbose == 1
        else logging.DEBUG
    )
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    try:
        return int(args.func(args) or 0)
    except (InputError, ResourceError, ValueError, TypeError, FileNotFoundError) as exc:
        print(f"cuelex: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
