"""``cuelex vocab build`` and ``cuelex vocab table``: concept-linking vocabularies and indexes."""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..concepts.index import DEFAULT_UMLS_SEMANTIC_TYPES, build_umls_index, ensure_open_index
from ..concepts.ontology import regenerate_term_table
from ..concepts.vocab import VocabularyError, cache_dir


def _split_list(values: Sequence[str] | None) -> list[str] | None:
    if not values:
        return None
    out: list[str] = []
    for v in values:
        out.extend(x for x in re.split(r"[,\s]+", v) if x)
    return out


def _cmd_build(args: argparse.Namespace) -> int:
    progress = not args.quiet
    try:
        if args.umls is None:
            path = ensure_open_index(args.cache_dir, progress=progress)
            print(path)
            return 0
        stys_arg = _split_list(args.semantic_types)
        if stys_arg is None:
            stys: Iterable[str] | None = DEFAULT_UMLS_SEMANTIC_TYPES
        elif [s.lower() for s in stys_arg] == ["all"]:
            stys = None
        else:
            stys = stys_arg
        out = Path(args.out) if args.out else cache_dir(args.cache_dir) / "umls"
        path = build_umls_index(
            args.umls,
            out,
            sources=_split_list(args.sources),
            semantic_types=stys,
            progress=progress,
            overwrite=args.force,
        )
    except VocabularyError as exc:
        print(f"cuelex vocab build: error: {exc}", file=sys.stderr)
        return 2
    print(path)
    print(f"use it with: cuelex.load(vocabulary={str(path)!r})", file=sys.stderr)
    return 0


def _cmd_table(args: argparse.Namespace) -> int:
    log = sys.stderr if args.verbose else io.StringIO()
    try:
        dest, n = regenerate_term_table(args.do_dir, args.out, log=log)
    except VocabularyError as exc:
        print(f"cuelex vocab table: error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {n:,} rows to {dest}")
    return 0


def add_vocab_subparser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Register ``vocab build`` and ``vocab table`` on an argparse subparsers object.

    Each leaf parser sets ``func``: the CLI calls ``args.func(args)`` and exits with its result.
    """
    vocab = subparsers.add_parser("vocab", help="build concept-linking vocabularies and indexes")
    vsub = vocab.add_subparsers(dest="vocab_command", metavar="{build,table}")
    vsub.required = True

    b = vsub.add_parser(
        "build",
        help="build a QuickUMLS index from a UMLS release (--umls) or the open vocabulary",
        description=(
            "Build a concept index. With --umls META, read MRCONSO.RRF and MRSTY.RRF (English, "
            "non-suppressed rows) and write the index to --out; then use "
            "cuelex.load(vocabulary=OUT). "
            "Without --umls, build the open vocabulary index into the cache and print its path."
        ),
    )
    b.add_argument(
        "--umls", metavar="PATH", help="UMLS META directory holding MRCONSO.RRF and MRSTY.RRF"
    )
    b.add_argument("--out", metavar="DIR", help="output directory (default: CACHE/umls)")
    b.add_argument(
        "--sources",
        nargs="+",
        metavar="SAB",
        help="source vocabularies to keep, e.g. SNOMEDCT_US MSH RXNORM (default: all)",
    )
    b.add_argument(
        "--semantic-types",
        nargs="+",
        metavar="TUI",
        help="semantic types to keep, e.g. T047 T184, or 'all' (default: disorders + findings)",
    )
    b.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="cache directory (default: $CUELEX_CACHE_DIR or ~/.cache/cuelex)",
    )
    b.add_argument("--force", action="store_true", help="replace a non-empty --out directory")
    b.add_argument("--quiet", action="store_true", help="no progress output")
    b.set_defaults(func=_cmd_build)

    t = vsub.add_parser(
        "table",
        help="regenerate the open term table from the Disease Ontology extracts",
        description=(
            "Rebuild cuelex/data/vocab_terms.tsv from the DO/SYMP extracts and "
            "vocab_supplement.tsv."
        ),
    )
    t.add_argument(
        "--do-dir",
        metavar="DIR",
        help="Disease Ontology extract directory (default: ../shared/...)",
    )
    t.add_argument(
        "--out",
        metavar="FILE",
        help="output TSV (default: the packaged cuelex/data/vocab_terms.tsv)",
    )
    t.add_argument("--verbose", action="store_true", help="log merges and overrides")
    t.set_defaults(func=_cmd_table)
    return vocab


def main(argv: Sequence[str] | None = None) -> int:
    """Stand-alone entry point (``python -m cuelex.vocab build --umls PATH``)."""
    parser = argparse.ArgumentParser(prog="cuelex")
    sub = parser.add_subparsers(dest="command")
    add_vocab_subparser(sub)
    args = parser.parse_args(["vocab", *(argv if argv is not None else sys.argv[1:])])
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
