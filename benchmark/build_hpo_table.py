"""Derive ``cuelex/data/hpo_terms.tsv`` from the Human Phenotype Ontology release file.

Run from the repository root (hp.obo lives in ``../shared/data/vocab/hpo``):

    .venv/bin/python benchmark/build_hpo_table.py [--obo PATH] [--out FILE]

Keeps current classes with their labels, EXACT synonyms (marking the layperson ones) and UMLS CUI
cross-references; the ontology file is read, never changed or shipped. Deterministic: rerunning on
the same release reproduces the shipped table byte for byte (tests/test_lay_terms.py checks this).
This product uses the Human Phenotype Ontology (version 2025-01-16),
http://www.human-phenotype-ontology.org
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from cuelex import vocab


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--obo", type=Path, default=None, help="hp.obo (default: ../shared/...)")
    ap.add_argument("--out", type=Path, default=None, help="output TSV (default: the packaged one)")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    obo = args.obo or vocab.default_hpo_path()
    try:
        rows = vocab.build_hpo_table(obo)
        version = vocab.hpo_version(obo)
    except vocab.VocabularyError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    dest = args.out or vocab.hpo_table_path()
    n = vocab.write_hpo_table(rows, dest, version=version)
    lay = sum(r.term_type == "layperson" for r in rows)
    print(
        f"HPO {version}: wrote {n:,} terms ({lay:,} layperson) of "
        f"{len({r.hpo_id for r in rows}):,} classes to {dest} in {time.perf_counter() - start:.1f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
