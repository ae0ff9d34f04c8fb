"""Regenerate the open term table ``cuelex/data/vocab_terms.tsv`` from the DO extracts.

Run from the repository root (the extracts live in ``../shared/data/vocab/disease-ontology``):

    .venv/bin/python benchmark/build_vocab_table.py [--do-dir DIR] [--out FILE] [--log FILE]

Same as ``cuelex vocab table``. The build is deterministic: running it on unchanged inputs
reproduces the shipped file byte for byte (``tests/test_vocab.py`` checks this). With ``--log`` the
merge decisions (supplement concepts joining ontology concepts, CUI adoptions and overrides,
dropped duplicates) are written to a file for review.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from cuelex import vocab


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--do-dir", type=Path, default=None, help="DO extract directory")
    ap.add_argument("--out", type=Path, default=None, help="output TSV (default: the packaged one)")
    ap.add_argument("--log", type=Path, default=None, help="write the merge log here")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    log = args.log.open("w", encoding="utf-8") if args.log else None
    try:
        dest, n = vocab.regenerate_term_table(args.do_dir, args.out, log=log)
    except vocab.VocabularyError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        if log:
            log.close()
    rows = vocab.read_term_table(dest)
    concepts = {r.concept_id for r in rows}
    with_cui = sum(1 for c in concepts if vocab._CUI_RE.match(c))
    print(
        f"wrote {n:,} rows ({len(concepts):,} concepts, {with_cui:,} with a UMLS CUI, "
        f"{sum(r.term_type == 'AB' for r in rows):,} abbreviations) to {dest} "
        f"in {time.perf_counter() - start:.1f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
