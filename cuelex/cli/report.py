"""``cuelex report INPUT -o report.html``: a self-contained HTML page."""

from __future__ import annotations

import argparse

from ..corpus import refuse_overwrite
from ..report.html import render, write_report


def cmd_report(args: argparse.Namespace) -> int:
    """``cuelex report INPUT -o report.html``."""
    refuse_overwrite(args.output, [args.input])
    page = render(args.input, plots=not args.no_plots)
    out = write_report(page, args.output)
    print(f"report written to {out}")
    return 0


def add_report_subparser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Register ``cuelex report`` on the CLI's subparsers."""
    p = subparsers.add_parser(
        "report",
        help="write a self-contained HTML report of a score or run JSON",
        description=(
            "Render the JSON of `cuelex score SOURCE OUTPUT -o out.json` as a side-by-side HTML "
            "page (cues in their level's colour, targets underlined, each source pair's fate "
            "linked to the output), the JSON of `cuelex score --table ... -o` as a corpus page, or "
            "a run table (CSV/JSON rows with system, task, condition, TRR, URR, CAR, PCR, OHR) "
            "as a table with plots. No external assets: the page works offline."
        ),
    )
    p.add_argument("input", metavar="INPUT", help="score JSON, corpus JSON or run table")
    p.add_argument("-o", "--output", default="report.html", help="HTML file (default report.html)")
    p.add_argument("--no-plots", action="store_true", help="run tables: leave the plots out")
    p.set_defaults(func=cmd_report)
    return p
