"""``cuelex plots INPUT... -o DIR``: every plot that fits each input."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ..report import plots


def _prefixes(inputs: Sequence[str | Path]) -> list[str]:
    """File-name prefixes for several inputs drawn into one folder: each input's name (without
    suffixes); inputs that share a name get their parent folders too. One input: no prefix."""
    if len(inputs) == 1:
        return [""]
    paths = [Path(i) for i in inputs]
    if len({p.resolve() for p in paths}) < len(paths):
        raise ValueError("the same input is given twice")

    def name(p: Path, depth: int) -> str:
        base = p.name.split(".")[0]
        parts = [*p.resolve().parent.parts[-depth:], base] if depth else [base]
        return "_".join(x.strip("/") for x in parts if x.strip("/")) + "_"

    for depth in range(0, 8):
        names = [name(p, depth) for p in paths]
        if len(set(names)) == len(names):
            return names
    raise ValueError(f"cannot tell the inputs apart by name: {[str(p) for p in paths]}")


def cmd_plots(args: argparse.Namespace) -> int:
    """``cuelex plots INPUT... -o DIR``: several inputs get their own file names, and existing
    files are replaced only with ``--overwrite``."""
    formats = args.format or ("svg", "png")
    prefixes = _prefixes(args.input)
    files = []
    for path, prefix in zip(args.input, prefixes, strict=True):
        files += plots.plots_for(path, args.output, formats=formats, prefix=prefix,
                           overwrite=args.overwrite)  # fmt: skip
    for f in files:
        print(f"wrote {f}")
    return 0


def add_plots_subparser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Register ``cuelex plots`` on the CLI's subparsers."""
    p = subparsers.add_parser(
        "plots",
        help="write plots (SVG and PNG) of a run table, score JSON or pairs table",
        description=(
            "Write every plot that fits INPUT: metric bars with CIs (run table: system, task, "
            "condition, TRR, URR, CAR, PCR, OHR [+ <metric>_ci_low/_ci_high]), URR/CAR across iterations "
            "(iteration table), the source x output level heatmap and the level distribution "
            "(score JSON of `cuelex score -o`, or a pairs table such as out/demo_pairs.csv)."
        ),
    )
    p.add_argument("input", metavar="INPUT", nargs="+",
                   help="run table, score JSON or pairs table; several inputs get prefixed names")  # fmt: skip
    p.add_argument("-o", "--output", default="out/plots", help="folder (default out/plots)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace plots already in the folder (default: refuse and name them)")  # fmt: skip
    p.add_argument("--format", action="append", choices=("svg", "png"),
                   help="svg and/or png (repeatable; default both)")  # fmt: skip
    p.set_defaults(func=cmd_plots)
    return p


def main(argv: list[str] | None = None) -> int:
    """``python -m cuelex.plots INPUT -o DIR`` (the same as ``cuelex plots``)."""
    parser = argparse.ArgumentParser(prog="python -m cuelex.plots")
    sub = parser.add_subparsers(dest="command")
    add_plots_subparser(sub)
    args = parser.parse_args(["plots", *(argv if argv is not None else sys.argv[1:])])
    try:
        return int(args.func(args))
    except (ValueError, FileNotFoundError, FileExistsError, TypeError, ImportError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
