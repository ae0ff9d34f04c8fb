"""``cuelex bench build | stats | export-validation | agreement`` (and the run commands)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from ..bench.builder import default_workers, build
from ..bench.files import format_stats, statistics, stats_paths
from ..bench.inputs import FORMATS
from ..bench.validation import agreement, export_validation
from ..corpus import Problem, refuse_overwrite
from ..levels import PAPER_LEVELS, Level
from .run import add_direct_subparser, add_run_subparser

# ==================================================================================================
# Command line: cuelex bench build | stats | export-validation | agreement
# ==================================================================================================


def _print_problems(problems: Sequence[Problem], limit: int = 20) -> None:
    for p in problems[:limit]:
        print(f"skipped: {p}", file=sys.stderr)
    if len(problems) > limit:
        print(
            f"skipped: ... and {len(problems) - limit} more (all listed in the .stats.json file)",
            file=sys.stderr,
        )


def _cmd_build(args: argparse.Namespace) -> int:
    coverage = tuple(PAPER_LEVELS) + ((Level.HEDGED_ABSENT,) if args.count_hedged_absent else ())
    if args.output:
        refuse_overwrite(args.output, args.inputs)
    result = build(
        args.inputs,
        input_format=args.format,
        output=args.output,
        per_type=args.per_type,
        seed=args.seed,
        workers=args.workers,
        work_dir=args.work_dir,
        chunk_size=args.chunk_size,
        min_levels=args.min_levels,
        coverage=coverage,
        link=not args.no_link,
        vocabulary=args.vocabulary,
        text_col=args.text_col,
        id_col=args.id_col,
        type_col=args.type_col,
        doc_type=args.doc_type,
        sections=args.sections,
        progress=False if args.quiet else None,
        restart=args.restart,
    )
    print(result.report())
    sj, sm = stats_paths(result.output) if result.output else (None, None)
    resumed = f", {result.chunks_resumed} resumed" if result.chunks_resumed else ""
    print(
        f"\n{len(result.documents)} documents written to {result.output} (statistics: {sj}, {sm}); "
        f"{result.chunks} chunk(s){resumed}, {result.seconds:.1f} s"
    )
    _print_problems(result.problems)
    return 0


def _cmd_stats(args: argparse.Namespace) -> int:
    stats = statistics(args.file)
    if args.json:
        print(json.dumps(stats, indent=2))
    else:
        print(format_stats(stats, markdown=args.markdown))
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    refuse_overwrite(args.output, [args.file])
    frame = export_validation(args.file, args.output, per_type=args.per_type, seed=args.seed)
    print(
        f"{frame['doc_id'].nunique()} documents, {len(frame)} pairs written to {args.output}; "
        "fill the 'correct' column with yes or no"
    )
    return 0


def _cmd_agreement(args: argparse.Namespace) -> int:
    report = agreement(args.a, args.b)
    print(report.model_dump_json(indent=2) if args.json else report.format())
    return 0


def add_bench_subparser(subparsers: Any) -> None:
    """Register ``cuelex bench ...`` on the main parser's subparsers."""
    p = subparsers.add_parser(
        "bench", help="build a five-level cue-target benchmark from notes (paper section 3.1)"
    )
    sub = p.add_subparsers(dest="bench_command", required=True)
    add_run_subparser(sub, run_name="run", score_name="score")  # cuelex bench run / bench score
    add_direct_subparser(sub)  # cuelex bench direct (RQ2)

    b = sub.add_parser(
        "build", help="extract, pre-screen and sample documents into a benchmark JSONL"
    )
    b.add_argument(
        "inputs",
        nargs="+",
        help="MIMIC-IV-Note discharge/radiology CSV(.gz), TCGA CSV, CSV/TSV/JSONL(.gz), folders of .txt",
    )
    b.add_argument(
        "--format",
        choices=FORMATS,
        default="auto",
        help="input format (default: detected per input)",
    )
    b.add_argument(
        "--per-type",
        type=int,
        default=200,
        help="documents sampled per document type (default 200)",
    )
    b.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    b.add_argument(
        "--workers",
        type=int,
        default=default_workers(),
        help="worker processes (default: all usable cores)",
    )
    b.add_argument(
        "--work-dir",
        default=None,
        help="keep finished chunks here; rerunning resumes (default: temporary)",
    )
    b.add_argument(
        "--restart", action="store_true", help="discard what --work-dir holds and start over"
    )
    b.add_argument("--chunk-size", type=int, default=500, help="notes per chunk (default 500)")
    b.add_argument(
        "-o", "--output", default="benchmark.jsonl", help="benchmark file (default benchmark.jsonl)"
    )
    b.add_argument(
        "--min-levels",
        type=int,
        default=2,
        help="drop documents covering fewer distinct levels (default 2)",
    )
    b.add_argument(
        "--count-hedged-absent",
        action="store_true",
        help="count HEDGED_ABSENT as a level for coverage",
    )
    b.add_argument(
        "--no-link",
        action="store_true",
        help="skip concept linking (faster; dedup on exact targets only)",
    )
    b.add_argument(
        "--vocabulary",
        default=None,
        help="concept index from `cuelex vocab build` (default: open vocabulary)",
    )
    b.add_argument("--text-col", default=None, help="text column (generic inputs; default text)")
    b.add_argument("--id-col", default=None, help="document id column (default: id or note_id)")
    b.add_argument("--type-col", default=None, help="document type column (generic inputs)")
    b.add_argument(
        "--doc-type", default=None, help="document type of whole documents without a type column"
    )
    b.add_argument(
        "--sections",
        choices=("discharge", "radiology", "all", "none"),
        default=None,
        help="split generic inputs into sections with these rules",
    )
    b.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    b.set_defaults(func=_cmd_build)

    s = sub.add_parser("stats", help="statistics of a benchmark file")
    s.add_argument("file")
    g = s.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true", help="as JSON")
    g.add_argument("--markdown", action="store_true", help="as Markdown tables")
    s.set_defaults(func=_cmd_stats)

    e = sub.add_parser("export-validation", help="CSV of a stratified sample for human review")
    e.add_argument("file")
    e.add_argument("-o", "--output", required=True, help="CSV to write")
    e.add_argument("--per-type", type=int, default=15, help="documents per type (default 15)")
    e.add_argument("--seed", type=int, default=0)
    e.set_defaults(func=_cmd_export)

    a = sub.add_parser("agreement", help="accuracy and Cohen's kappa of two reviewers' files")
    a.add_argument("a")
    a.add_argument("b")
    a.add_argument("--json", action="store_true")
    a.set_defaults(func=_cmd_agreement)
