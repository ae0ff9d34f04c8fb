"""Command line: ``cuelex`` and ``python -m cuelex``.

The whole command line lives in this package, one module per command group: this module holds
the entry point (:func:`main`, :func:`build_parser`) and the extraction commands (``demo``,
``extract``, ``lexicon check``); :mod:`.vocab`, :mod:`.score`, :mod:`.bench` (with :mod:`.run`),
:mod:`.report` and :mod:`.plots` add theirs. Library modules never parse arguments or print.
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import os
import signal
import sys
import tempfile
import threading
import time
from collections import Counter, deque
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

from .._version import __version__
from ..api import PAIR_COLUMNS, extract, get_engine, to_frame
from ..bench.builder import demo
from ..bench.files import format_screening, format_stats
from ..corpus import (
    Document,
    InputError,
    Problem,
    demo_corpus_path,
    read_documents,
    refuse_overwrite,
    safe_csv_frame,
)
from ..errors import CuelexError
from ..levels import CUE_LEVELS
from ..records import CueTargetPair
from ..resources import load_lexicon_files
from ..schema import ResourceError
from . import bench as _bench
from . import plots as _plots
from . import report as _report
from . import score as _score
from . import vocab as _vocab

log = logging.getLogger("cuelex")

#: ``cuelex --help``'s description (docs/cli.md is generated from it)
DESCRIPTION = (
    "Command line: ``cuelex demo``, ``cuelex extract FILE...`` and the subcommands other modules add."
)


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
        stats = demo(out.parent)
        print()
        print(f"benchmark built from the demo corpus ({out.parent / 'demo_benchmark.jsonl'}):")
        print(format_screening(stats["screening"]))
        print(format_stats(stats))
    return 0


STDIN = "-"


class Interrupted(CuelexError):
    """Ctrl-C during a command, after its finished work was saved (the message says where)."""


def _stdin_documents(args: argparse.Namespace, problems: list[Problem]) -> Iterator[Document]:
    """Documents from standard input: one plain-text document (``txt``), or a CSV/TSV/JSONL table.

    The bytes go through the same strict readers as files (encoding policy, bad rows), with
    ``<stdin>`` in place of a file name in every message.
    """
    stream = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else None
    raw = stream.read() if stream is not None else sys.stdin.read().encode("utf-8")
    with tempfile.TemporaryDirectory(prefix="cuelex-stdin-") as tmp:
        path = Path(tmp) / f"stdin.{args.stdin_format}"
        path.write_bytes(raw)
        found: list[Problem] = []
        try:
            yield from read_documents(
                path,
                text_col=args.text_col,
                id_col=args.id_col,
                problems=found,
                encoding=args.encoding,
                skip_bad_rows=args.skip_bad_rows,
            )
        except InputError as exc:
            raise InputError(str(exc).replace(str(path), "<stdin>")) from None
        finally:
            problems.extend(Problem("<stdin>", pr.row, pr.message) for pr in found)


def _documents(args: argparse.Namespace, problems: list[Problem]) -> Iterator[Document]:
    if args.files.count(STDIN) > 1:
        raise InputError("standard input ('-') can be read only once")
    for f in args.files:
        if f == STDIN:
            yield from _stdin_documents(args, problems)
        else:
            yield from read_documents(
                f,
                text_col=args.text_col,
                id_col=args.id_col,
                problems=problems,
                encoding=args.encoding,
                skip_bad_rows=args.skip_bad_rows,
            )


def _extract_one(item: tuple[str, str, dict[str, Any]]) -> list[CueTargetPair]:
    """The pairs of one document (``item``: id, text, extract options)."""
    doc_id, text, options = item
    return extract(text, doc_id=doc_id, **options)


def _extract_batch(items: list[tuple[str, str, dict[str, Any]]]) -> list[list[CueTargetPair]]:
    """Worker task of ``cuelex extract --workers``: the pairs of a few documents."""
    return [_extract_one(item) for item in items]


def _in_parallel(
    pool: Any, items: Iterator[tuple[str, str, dict[str, Any]]], workers: int, chunk: int = 16
) -> Iterator[list[CueTargetPair]]:
    """Each document's pairs, in input order, from ``workers`` processes; only a few chunks are
    in flight at a time, so a large input streams instead of being read into memory first."""
    pending: deque[Any] = deque()

    def submit() -> bool:
        batch = list(itertools.islice(items, chunk))
        if batch:
            pending.append(pool.submit(_extract_batch, batch))
        return bool(batch)

    for _ in range(4 * workers):
        if not submit():
            break
    while pending:
        done = pending.popleft().result()
        submit()
        yield from done


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the main process (one message, not a traceback per worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _AtomicSteps:
    """Ctrl-C that arrives while one document is being written and counted takes effect once
    both are done, so "interrupted after N" is exactly what the output holds. Only in the main
    thread, and only over Python's default handler (a caller's own handler is left alone)."""

    def __init__(self) -> None:
        self.busy = False
        self.pending = False
        self._previous: Any = None

    def __enter__(self) -> _AtomicSteps:
        if (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        ):
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)

    def _handle(self, signum: int, frame: Any) -> None:
        if self.busy:
            self.pending = True
        else:
            raise KeyboardInterrupt

    def done(self) -> None:
        """End of one step: an interrupt that came during it is raised now."""
        self.busy = False
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt


def _progress_bar(enabled: bool) -> Any:
    if not enabled:
        return None
    return tqdm(desc="cuelex extract", unit="doc", file=sys.stderr, leave=False)


def cmd_extract(args: argparse.Namespace) -> int:
    options: dict[str, Any] = dict(
        link=args.link,
        vocabulary=args.vocabulary,
        deduplicate=args.dedup,
        lexicons=args.lexicons,
        rules_dir=args.rules,
        extra_lexicons=args.extra_lexicon or (),
    )
    if args.workers < 1:
        raise ValueError(f"--workers must be at least 1, got {args.workers}")
    get_engine(
        args.lexicons, args.rules, args.extra_lexicon or ()
    )  # a bad lexicon fails before any input is read
    if args.output:
        refuse_overwrite(args.output, args.files)
    problems: list[Problem] = []
    pairs: list[CueTargetPair] = []
    n = 0
    bar = _progress_bar(not args.quiet and sys.stderr.isatty())
    t0 = time.perf_counter()
    docs = ((d.id, d.text, options) for d in _documents(args, problems))
    writer = PairWriter(Path(args.output)) if args.output else None
    pool = None
    try:
        if args.workers == 1:
            results: Iterator[list[CueTargetPair]] = map(_extract_one, docs)
        else:
            pool = ProcessPoolExecutor(max_workers=args.workers, initializer=_ignore_sigint)
            results = _in_parallel(pool, docs, args.workers)
        with _AtomicSteps() as step:
            for found in results:
                step.busy = True
                if writer is not None:
                    writer.write(found)
                pairs.extend(found)
                n += 1
                step.done()
                if bar is not None:
                    bar.update(1)
    except KeyboardInterrupt:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
            pool = None
        if bar is not None:
            bar.close()
            bar = None
        if writer is not None:
            where = writer.abandon()
        else:
            _emit(pairs, None)
            where = "the pairs of those were written to standard output"
        raise Interrupted(f"interrupted after {n} document(s); {where}") from None
    except BaseException:
        if writer is not None:
            print(f"cuelex: stopped; {writer.abandon()}", file=sys.stderr)
        raise
    finally:
        if pool is not None:
            pool.shutdown()
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - t0
    if writer is not None:
        writer.close()
    else:
        _emit(pairs, None)
    if not args.quiet:
        print(_summary(pairs, n, seconds), file=sys.stderr)
    for problem in problems:
        print(f"skipped: {problem}", file=sys.stderr)
    return 0


def _emit(pairs: list[CueTargetPair], output: str | None) -> None:
    if output:
        _write_pairs(pairs, Path(output))
    else:
        safe_csv_frame(to_frame(pairs)).to_csv(sys.stdout, index=False)


def _lexicon_check(
    files: Sequence[str | Path], *, rules_dir: str | None = None, alone: bool = False
) -> tuple[int, int, list[str]]:
    """Validate lexicon files (schema, regexes, ids unique with the shipped lexicons unless
    ``alone``) and run every example of their entries through the engine.

    Returns (entries, examples, failures); each failure names the file, the entry id, the example
    and what came out instead.
    """
    paths = [Path(f) for f in files]
    for path in paths:
        if not path.is_file():
            raise InputError(f"{path}: lexicon file not found")
    engine = (
        get_engine(paths, rules_dir) if alone else get_engine(None, rules_dir, paths)
    )  # validates every file: schema, regexes, duplicate ids, rule references
    failures: list[str] = []
    n_entries = n_examples = 0
    for path in paths:
        for entry in load_lexicon_files([path]):
            n_entries += 1
            for k, ex in enumerate(entry.examples, 1):
                n_examples += 1
                got = engine.extract(ex.text)
                found = [(p.target_text, p.level.value, p.rule_id) for p in got]
                if ex.target is None:
                    own = [f for f in found if f[2] == entry.id]
                    if own:
                        failures.append(
                            f"{path}: entry {entry.id!r}, example {k} ({ex.text!r}): expected no "
                            f"pair from this entry, got {own}"
                        )
                    continue
                level = (ex.level or entry.level).value
                hits = [f for f in found if f[0] == ex.target]
                if not any(h[1] == level for h in hits):
                    failures.append(
                        f"{path}: entry {entry.id!r}, example {k} ({ex.text!r}): expected target "
                        f"{ex.target!r} at {level}, got "
                        + (", ".join(f"{t!r} {lv} (entry {r})" for t, lv, r in found) or "no pair")
                    )
    return n_entries, n_examples, failures


def cmd_lexicon_check(args: argparse.Namespace) -> int:
    """``cuelex lexicon check FILE...``: validate lexicon files and run their examples."""
    n_entries, n_examples, failures = _lexicon_check(
        args.files, rules_dir=args.rules, alone=args.alone
    )
    for line in failures:
        print(f"FAIL {line}", file=sys.stderr)
    status = "ok" if not failures else f"{len(failures)} example(s) failed"
    print(f"{len(args.files)} file(s), {n_entries} entries, {n_examples} examples: {status}")
    return 1 if failures else 0


# the functions that add each command group's subcommands, in --help order
_SUBCOMMANDS: tuple[Any, ...] = (
    _vocab.add_vocab_subparser,
    _score.add_score_subparser,
    _bench.add_bench_subparser,
    _report.add_report_subparser,
    _plots.add_plots_subparser,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cuelex", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"cuelex {__version__}")
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
        "files",
        nargs="+",
        help="inputs: .txt, folder of .txt, .csv/.tsv/.jsonl (optionally .gz); - reads standard input",
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
    p.add_argument(
        "--workers", type=int, default=1, help="worker processes (default 1; output order is kept)"
    )
    p.add_argument(
        "--stdin-format",
        choices=("txt", "csv", "tsv", "jsonl"),
        default="txt",
        help="what '-' reads: one plain-text document (default) or a table",
    )
    p.add_argument(
        "-q", "--quiet", action="store_true", help="no progress bar and no summary on stderr"
    )
    p.set_defaults(func=cmd_extract)

    p = sub.add_parser("lexicon", help="check your own lexicon files")
    lsub = p.add_subparsers(dest="lexicon_command", required=True)
    c = lsub.add_parser(
        "check",
        help="validate lexicon files and run every example of their entries",
        description=(
            "Validate each FILE (schema, regular expressions, ids unique together with the "
            "shipped lexicons) and run every example of its entries through the extractor, with "
            "the shipped lexicons plus these files (--alone: these files only). Fails (exit 1) "
            "naming the entry id, the example and what came out."
        ),
    )
    c.add_argument("files", nargs="+", metavar="FILE", help="lexicon YAML file(s)")
    c.add_argument("--rules", default=None, help="rules folder replacing the shipped rules")
    c.add_argument(
        "--alone", action="store_true", help="use these files instead of the shipped lexicons"
    )
    c.set_defaults(func=cmd_lexicon_check)

    for add_subparser in _SUBCOMMANDS:
        add_subparser(sub)
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
    except (
        InputError, ResourceError, ValueError, TypeError, FileNotFoundError, FileExistsError
    ) as exc:
        print(f"cuelex: error: {exc}", file=sys.stderr)
        return 2
    except Interrupted as exc:
        print(f"cuelex: {exc}", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        # one line, no traceback; what a command finished is already on disk (run caches are
        # append-only, benchmark builds keep finished chunks in --work-dir)
        print("cuelex: interrupted (Ctrl-C); finished work is kept", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
