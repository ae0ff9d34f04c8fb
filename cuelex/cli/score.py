"""``cuelex score SOURCE OUTPUT`` and ``cuelex score --table FILE``: the rates of a rewrite."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import pandas as pd

from ..corpus import read_text_file, file_suffixes, refuse_overwrite, safe_csv_frame
from ..scoring.align import DEFAULT_TIERS
from ..scoring.scorer import CHOICES, read_table, score, score_frame


def _read_text(path: str, encoding: str = "utf-8") -> str:
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"{p}: no such file")
    if p.is_dir():
        raise ValueError(f"{p} is a folder; cuelex score SOURCE OUTPUT takes two text files")
    return read_text_file(p, file_suffixes(p)[1], encoding)


def _options_from_args(args: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {
        "n_boot": args.n_boot,
        "seed": args.seed,
        "choice": args.choice,
        "bertscore": args.bertscore,
        "bertscore_model": args.bertscore_model,
        "dedup": args.dedup,
    }
    if args.link:
        opts["linker"] = True
    if args.tiers:
        opts["tiers"] = [t.strip() for t in args.tiers.split(",") if t.strip()]
    if args.semantic:
        opts["tiers"] = [*(opts.get("tiers") or DEFAULT_TIERS), "semantic"]
    if args.fuzzy_threshold is not None:
        opts["fuzzy_threshold"] = args.fuzzy_threshold
    return opts


def cmd_score(args: argparse.Namespace) -> int:
    """``cuelex score``: print a summary; JSON with ``-o``, the pairs table with ``--pairs-out``."""
    try:
        return _cmd_score(args)
    except KeyError as exc:  # a missing column: report it like the CLI's other input errors
        raise ValueError(str(exc.args[0]) if exc.args else str(exc)) from None


def _cmd_score(args: argparse.Namespace) -> int:
    opts = _options_from_args(args)
    if args.table:
        if args.source or args.output_file:
            raise ValueError("give either SOURCE OUTPUT or --table FILE, not both")
        refuse_overwrite(args.output, [args.table]) if args.output else None
        refuse_overwrite(args.pairs_out, [args.table]) if args.pairs_out else None
        read_problems: list[Any] = []
        df = read_table(
            args.table,
            source_col=args.source_col,
            encoding=args.encoding,
            skip_bad_rows=args.skip_bad_rows,
            problems=read_problems,
        )
        for prob in read_problems:
            print(f"skipped: {prob}", file=sys.stderr)
        result = score_frame(
            df,
            source_col=args.source_col,
            output_col=args.output_col,
            group_cols=args.group_col or [],
            id_col=args.id_col,
            errors="skip" if args.skip_bad_rows else "raise",
            progress=None if not args.quiet else False,
            **opts,
        )
        print(f"cuelex score: {args.table}")
        print(result.summary())
        if args.output:
            result.to_json(args.output)
            print(f"JSON written to {args.output}")
        if args.pairs_out:
            _write_pairs_table(result.pairs, args.pairs_out)
            print(f"pairs written to {args.pairs_out}")
        for prob in result.problems.to_dict(orient="records"):
            print(
                f"skipped: row {prob['row']} (id {prob['doc_id']}): {prob['message']}",
                file=sys.stderr,
            )
        return 0
    if not (args.source and args.output_file):
        raise ValueError("cuelex score needs SOURCE and OUTPUT text files, or --table FILE")
    for out in (args.output, args.pairs_out):
        if out:
            refuse_overwrite(out, [args.source, args.output_file])
    report = score(
        _read_text(args.source, args.encoding),
        _read_text(args.output_file, args.encoding),
        doc_id=Path(args.source).stem,
        doc_type=args.doc_type,
        **opts,
    )
    print(f"cuelex score: {args.source} -> {args.output_file}")
    print(report.summary())
    if args.output:
        report.to_json(args.output, include_text=True)
        print(f"JSON written to {args.output}")
    if args.pairs_out:
        _write_pairs_table(report.to_frame(), args.pairs_out)
        print(f"pairs written to {args.pairs_out}")
    return 0


def _write_pairs_table(frame: pd.DataFrame, path: str) -> None:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    if p.suffix.lower() in (".jsonl", ".ndjson"):
        frame.to_json(p, orient="records", lines=True, force_ascii=False)
    elif p.suffix.lower() == ".csv":
        safe_csv_frame(frame).to_csv(p, index=False)
    else:
        raise ValueError(f"{p}: the pairs table must end in .csv or .jsonl")


def add_score_subparser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Register ``cuelex score`` on the CLI's subparsers (``cuelex/cli.py`` calls this)."""
    p = subparsers.add_parser(
        "score",
        help="score a rewrite against its source: TRR, URR, CAR, PCR, OHR and more",
        description=(
            "Score how well an output (summary, rewrite) preserves the certainty of its source. "
            "Either two text files (SOURCE OUTPUT) or --table FILE with one source/output pair "
            "per row "
            "(CSV, TSV or JSONL, optionally .gz)."
        ),
    )
    p.add_argument("source", nargs="?", help="source text file")
    p.add_argument(
        "output_file", nargs="?", metavar="output", help="output (rewrite/summary) text file"
    )
    p.add_argument(
        "--table", help="CSV/TSV/JSONL file of source/output pairs, one document per row"
    )
    p.add_argument(
        "--source-col", default="source", help="source text column of --table (default: source)"
    )
    p.add_argument(
        "--output-col", default="output", help="output text column of --table (default: output)"
    )
    p.add_argument(
        "--id-col", default=None, help="document id column of --table (default: row number)"
    )
    p.add_argument(
        "--group-col",
        action="append",
        help="column to break results down by (repeatable: doc_type, model, ...)",
    )
    p.add_argument(
        "--doc-type", default=None, help="document type of SOURCE (single-document mode)"
    )
    p.add_argument(
        "-o", "--output", default=None, help="write the full report as JSON to this file"
    )
    p.add_argument(
        "--pairs-out", default=None, help="write one row per source pair to this .csv/.jsonl"
    )
    p.add_argument(
        "--tiers",
        default=None,
        help="comma-separated alignment tiers (default: exact,normalized,abbreviation,cui,fuzzy)",
    )
    p.add_argument(
        "--fuzzy-threshold",
        type=float,
        default=None,
        help="rapidfuzz ratio for the fuzzy tier (default 85)",
    )
    p.add_argument(
        "--semantic",
        action="store_true",
        help="add the semantic tier (needs the local MiniLM model)",
    )
    p.add_argument(
        "--choice",
        choices=CHOICES,
        default="context",
        help="which occurrence to read when a target occurs several times",
    )
    p.add_argument(
        "--n-boot",
        type=int,
        default=1000,
        help="bootstrap resamples for confidence intervals (0: none)",
    )
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    p.add_argument(
        "--bertscore",
        action="store_true",
        help='also compute BERTScore (pip install "cuelex[bertscore]")',
    )
    p.add_argument("--bertscore-model", default=None, help="local model directory for BERTScore")
    p.add_argument(
        "--dedup",
        action="store_true",
        help="keep each source target once per document (paper's rules)",
    )
    p.add_argument(
        "--link",
        action="store_true",
        help="link targets to concepts first (open vocabulary; slower)",
    )
    p.add_argument(
        "--skip-bad-rows",
        action="store_true",
        help="skip malformed table lines and rows without text (listed on stderr) instead of failing",
    )
    p.add_argument(
        "--encoding",
        default="utf-8",
        help="encoding of the input files (default: utf-8; invalid bytes are an error, never replaced)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_score)
    return p
