"""Derive and review ``cuelex/data/lay_parts.tsv`` from the HPO layperson synonyms.

Run from the repository root (offline; a few seconds):
    .venv/bin/python benchmark/build_lay_parts.py [--write] [--candidates N]

The Human Phenotype Ontology pairs clinical terms with layperson synonyms in one class
("Hepatomegaly" ~ "Enlarged liver", "Renal cyst" ~ "Kidney cyst"). Counting, over its classes,
which clinical word pieces (whole words, combining forms such as "hepat-", endings such as
"-megaly") go with which lay words shows the anatomy and finding correspondences that the
compositional alignment tier uses.

- ``--candidates N``: print the N strongest mined correspondences (clinical piece, lay word, number
  of classes, share of the piece's classes, share of the word's classes) for review, marking those
  the table already holds (+). The table itself is reviewed by hand: HPO is mostly about congenital
  anomalies, so many of its strong pairs ("phalan-" ~ "bone") are useless for radiology and
  clinical notes, and some findings radiology needs ("-lithiasis" ~ "stone") are rare in it.
- default: recompute the ``hpo_support`` column (HPO classes whose clinical terms hold the row's
  form and whose layperson synonyms hold one of the row's lay words) and say which rows differ;
  ``--write`` writes it into the table (nothing else in the file changes).

This product uses the Human Phenotype Ontology (version 2025-01-16),
http://www.human-phenotype-ontology.org
"""

from __future__ import annotations

import argparse
import re
from collections import Counter, defaultdict
from pathlib import Path

from cuelex.align import normal_words
from cuelex.concepts.vocab import DATA_DIR, read_hpo_table

TABLE = DATA_DIR / "lay_parts.tsv"
_RAW = re.compile(r"[a-z]+")
_STOP = frozenset("a an the of in on to and or with without at by for from is are be your my their its this that too not no very than".split())


def hpo_classes() -> list[tuple[list[str], list[tuple[str, ...]]]]:
    """Per HPO class with layperson synonyms: (clinical terms lower-cased, lay terms in normal words)."""
    by_id: dict[str, tuple[list[str], list[tuple[str, ...]]]] = defaultdict(lambda: ([], []))
    for r in read_hpo_table():
        clinical, lay = by_id[r.hpo_id]
        if r.term_type == "layperson":
            lay.append(normal_words(r.term))
        else:
            clinical.append(r.term.lower())
    return [v for v in by_id.values() if v[0] and v[1]]


def _has_form(form: str, terms: list[str]) -> bool:
    if form.endswith("-"):
        return any(w.startswith(form[:-1]) for t in terms for w in _RAW.findall(t))
    if form.startswith("-"):
        return any(w.endswith(form[1:]) for t in terms for w in _RAW.findall(t))
    want = normal_words(form)
    return any(_contains(normal_words(t), want) for t in terms)


def _contains(words: tuple[str, ...], part: tuple[str, ...]) -> bool:
    n = len(part)
    return any(words[i : i + n] == part for i in range(len(words) - n + 1))


def support(form: str, lay: str, classes: list[tuple[list[str], list[tuple[str, ...]]]]) -> int:
    """HPO classes whose clinical terms hold ``form`` and whose lay terms hold a lay word of ``lay``."""
    alts = [normal_words(a) for a in lay.split("|")]
    return sum(
        1
        for clinical, lays in classes
        if _has_form(form, clinical) and any(_contains(t, a) for t in lays for a in alts)
    )


def candidates(classes: list[tuple[list[str], list[tuple[str, ...]]]], top: int) -> list[tuple[int, float, float, str, str]]:
    """The strongest (pieces of clinical words) ~ (lay word) associations over HPO classes."""
    pair: Counter[tuple[str, str]] = Counter()
    piece_n: Counter[str] = Counter()
    lay_n: Counter[str] = Counter()
    for clinical, lays in classes:
        pieces = set()
        for t in clinical:
            for w in _RAW.findall(t):
                if len(w) < 5:
                    continue
                for k in range(4, min(9, len(w) + 1)):
                    pieces.add(w[:k] + "-")
                    pieces.add("-" + w[-k:])
        words = {w for t in lays for w in t if w not in _STOP and len(w) > 2}
        piece_n.update(pieces)
        lay_n.update(words)
        pair.update((p, w) for p in pieces for w in words)
    best: dict[str, tuple[int, float, float, str, str]] = {}
    for (p, w), n in pair.items():
        if n < 4:
            continue
        a, b = n / piece_n[p], n / lay_n[w]
        if a >= 0.5 and b >= 0.2 and (w not in best or (n, a) > best[w][:2]):
            best[w] = (n, round(a, 2), round(b, 2), p, w)
    return sorted(best.values(), reverse=True)[:top]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="write the hpo_support column")
    ap.add_argument("--candidates", type=int, default=0, help="print this many mined correspondences")
    args = ap.parse_args(argv)
    classes = hpo_classes()
    lines = TABLE.read_text(encoding="utf-8").splitlines(keepends=True)
    out: list[str] = []
    header_seen = False
    changed = 0
    held: set[tuple[str, str]] = set()
    for line in lines:
        if line.startswith("#") or not line.strip():
            out.append(line)
            continue
        cols = line.rstrip("\n").split("\t")
        if not header_seen:
            header_seen = True
            out.append(line)
            continue
        n = support(cols[1], cols[4], classes)
        held.update((cols[1], w) for w in cols[4].split("|"))
        if str(n) != cols[5]:
            changed += 1
            print(f"{cols[1]:16} {cols[2]:12} hpo_support {cols[5]} -> {n}")
            cols[5] = str(n)
        out.append("\t".join(cols) + "\n")
    print(f"{len(classes):,} HPO classes with layperson synonyms; {changed} rows' hpo_support differ")
    if args.write and changed:
        TABLE.write_text("".join(out), encoding="utf-8")
        print(f"wrote {TABLE}")
    for n, a, b, piece, word in candidates(classes, args.candidates):
        mark = "+" if any(f == piece and w == word for f, w in held) else " "
        print(f"{mark} {piece:14} ~ {word:16} {n:5} classes  {a:.2f} of the piece's, {b:.2f} of the word's")
    return 1 if changed and not args.write else 0


if __name__ == "__main__":
    raise SystemExit(main())
