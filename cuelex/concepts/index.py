"""QuickUMLS indexes: building one from MRCONSO/MRSTY rows, the open index built on first use,
and reading an index's sidecars.

:func:`build_umls_index` reads ``MRCONSO.RRF`` / ``MRSTY.RRF`` (English, non-suppressed rows,
optional source and semantic-type filters) and writes a QuickUMLS index with medspacy_quickumls's
own database writers, plus cuelex sidecar files (preferred names, semantic types, case-sensitive
abbreviations, a manifest). The open term table takes the same path: it is written out as
MRCONSO/MRSTY-format rows first (:func:`write_rrf`). :func:`ensure_open_index` builds the open
index on first use into the cache directory (``$CUELEX_CACHE_DIR`` or ``~/.cache/cuelex``), keyed
by a hash of the term table, so linking needs this module at run time. Nothing here touches the
network.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from .vocab import (
    ABBREVIATION_STOPLIST_FILE,
    DATA_DIR,
    SEMANTIC_TYPE_NAMES,
    SUPPLEMENT_SAB,
    TermRow,
    VocabularyError,
    cache_dir,
    clean_term,
    file_sha256,
    is_acronym,
    read_abbreviation_stoplist,
    read_term_table,
    term_table_path,
)

__all__ = [
    "DEFAULT_UMLS_SEMANTIC_TYPES",
    "INDEX_FORMAT_VERSION",
    "Concept",
    "IndexData",
    "build_umls_index",
    "ensure_open_index",
    "load_index",
    "open_index_key",
    "resolve_vocabulary",
    "write_rrf",
]

#: Bumped when the on-disk index layout or the way terms are written changes: old caches rebuild.
INDEX_FORMAT_VERSION = 1
MANIFEST_FILE = "cuelex-index.json"
CONCEPTS_FILE = "cuelex-concepts.tsv"
ABBREVIATIONS_FILE = "cuelex-abbreviations.tsv"

#: Default semantic-type filter for full UMLS builds: the UMLS "Disorders" group plus findings.
#: Pass ``semantic_types=None`` (CLI: ``--semantic-types all``) to keep every type.
DEFAULT_UMLS_SEMANTIC_TYPES: frozenset[str] = frozenset(
    {
        "T019", "T020", "T033", "T037", "T046", "T047", "T048", "T049", "T050",
        "T184", "T190", "T191",
    }
)  # fmt: skip

_RRF_SUPPRESSIBLE = {"O", "E", "Y"}  # MRCONSO SUPPRESS values other than "N"

# --------------------------------------------------------------------------------------------------
# MRCONSO / MRSTY rows (the common format of the open table and a UMLS release)
# --------------------------------------------------------------------------------------------------


def write_rrf(rows: Iterable[TermRow], meta_dir: str | os.PathLike[str]) -> Path:
    """Write term rows as UMLS-format ``MRCONSO.RRF`` and ``MRSTY.RRF`` into ``meta_dir``.

    PT rows become the concept's preferred atom (TS=P, STT=PF, ISPREF=Y); SY and AB rows keep their
    term type in TTY. SAB is ``DO``, ``SYMP`` or ``CUELEX``; CODE is the source id.
    """
    meta = Path(meta_dir)
    meta.mkdir(parents=True, exist_ok=True)
    stys: dict[str, tuple[str, ...]] = {}
    with (meta / "MRCONSO.RRF").open("w", encoding="utf-8") as f:
        for i, r in enumerate(rows, start=1):
            if "|" in r.term or "\n" in r.term:
                raise VocabularyError(
                    f"term {r.term!r} of {r.concept_id} contains '|' or a newline"
                )
            pref = r.term_type == "PT"
            sab = (
                "DO"
                if r.source.startswith("DOID:")
                else "SYMP"
                if r.source.startswith("SYMP:")
                else SUPPLEMENT_SAB
            )
            fields = [
                r.concept_id, "ENG", "P" if pref else "S", f"L{i:07d}", "PF" if pref else "VO",
                f"S{i:07d}", "Y" if pref else "N", f"A{i:07d}", "", "", "", sab, r.term_type,
                r.source or r.concept_id, r.term, "0", "N", "",
            ]  # fmt: skip
            f.write("|".join(fields) + "|\n")
            stys.setdefault(r.concept_id, r.semantic_types)
    with (meta / "MRSTY.RRF").open("w", encoding="utf-8") as f:
        for cid, types in stys.items():
            for tui in types:
                f.write(f"{cid}|{tui}||{SEMANTIC_TYPE_NAMES.get(tui, '')}||\n")
    return meta


# --------------------------------------------------------------------------------------------------
# The index writer (one path for the open table and for UMLS)
# --------------------------------------------------------------------------------------------------


def _normalize_for_index(term: str) -> str:
    from unidecode import unidecode

    return re.sub(r"\s+", " ", unidecode(term).lower()).strip()


def _count_lines(path: Path) -> int:
    n = 0
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            n += chunk.count(b"\n")
    return n


def build_umls_index(
    meta_dir: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    sources: Sequence[str] | None = None,
    semantic_types: Iterable[str] | None = DEFAULT_UMLS_SEMANTIC_TYPES,
    progress: bool = True,
    *,
    language: str = "ENG",
    supplement_abbreviations: bool = True,
    overwrite: bool = False,
    _kind: str = "umls",
    _extra_manifest: dict[str, object] | None = None,
) -> Path:
    """Build a cuelex/QuickUMLS index in ``out_dir`` from ``meta_dir``'s MRCONSO.RRF and MRSTY.RRF.

    Keeps rows with LAT == ``language`` and SUPPRESS == "N", from the given source vocabularies
    (SAB values; None: all) and concepts with at least one of the given semantic types (TUIs; None:
    all). Acronym-shaped strings and TTY AB/ACR rows go to a case-sensitive abbreviation table (an
    acronym naming more than one concept, or shorter than 3 characters, is kept only when the
    curated supplement defines it); every other string goes lowercased to the QuickUMLS index,
    written with medspacy_quickumls's own writers (``quickumls.install.parse_and_encode_ngrams``).
    With ``supplement_abbreviations`` the curated abbreviations (PNA, PE, MI, …) are added, resolved
    to this index's concepts by CUI or by their expansion. No network, no spaCy model, no NLTK data.

    Returns the output directory. Raises :class:`VocabularyError` naming the problem when the input
    files are missing or malformed or ``out_dir`` is a non-empty directory (unless ``overwrite``).
    """
    meta = Path(meta_dir)
    out = Path(out_dir)
    mrconso = meta / "MRCONSO.RRF"
    mrsty = meta / "MRSTY.RRF"
    for p in (mrconso, mrsty):
        if not p.is_file():
            raise VocabularyError(
                f"{p} not found: --umls must point to a UMLS META directory holding "
                "MRCONSO.RRF and MRSTY.RRF"
            )
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        if not overwrite:
            raise VocabularyError(
                f"output directory {out} exists and is not empty (pass overwrite=True / --force)"
            )
        shutil.rmtree(out) if out.is_dir() else out.unlink()
    sab_filter = {s.strip() for s in sources} if sources else None
    sty_filter = {s.strip() for s in semantic_types} if semantic_types is not None else None
    if sty_filter is not None:
        bad = sorted(s for s in sty_filter if not re.match(r"^T\d{3}$", s))
        if bad:
            raise VocabularyError(f"semantic types must look like T047; got {bad}")

    started = time.perf_counter()
    # --- MRSTY: CUI -> TUIs
    concept_stys: dict[str, list[str]] = defaultdict(list)
    with mrsty.open(encoding="utf-8") as f:
        for lineno, line in enumerate(f, start=1):
            parts = line.rstrip("\n").split("|")
            if len(parts) < 2 or not parts[0]:
                if line.strip():
                    raise VocabularyError(
                        f"{mrsty}:{lineno}: expected CUI|TUI|..., got {line.strip()[:80]!r}"
                    )
                continue
            cui, tui = parts[0], parts[1]
            if not re.match(r"^T\d{3}$", tui):
                raise VocabularyError(
                    f"{mrsty}:{lineno}: second field {tui!r} is not a semantic type id (T047)"
                )
            if tui not in concept_stys[cui]:
                concept_stys[cui].append(tui)

    # --- MRCONSO: filter and collect
    total = _count_lines(mrconso)
    bar = tqdm(total=total, desc=f"reading {mrconso.name}", unit="line",
               disable=not progress, file=sys.stderr, mininterval=1.0)
    index_terms: dict[tuple[str, str], int] = {}  # (normalized term, cui) -> preferred flag
    preferred: dict[str, tuple[int, str]] = {}  # cui -> (rank, name)
    acronyms: dict[str, dict[str, bool]] = defaultdict(
        dict
    )  # acronym -> {cui: from curated source}
    kept_rows = 0
    with mrconso.open(encoding="utf-8") as f:
        for lineno, line in enumerate(f, start=1):
            if lineno % 50000 == 0:
                bar.update(lineno - bar.n)
            parts = line.rstrip("\r\n").split("|")
            trailing_bar = line.rstrip("\r\n").endswith("|")
            if len(parts) != (19 if trailing_bar else 18):
                if not line.strip():
                    continue
                raise VocabularyError(
                    f"{mrconso}:{lineno}: expected 18 '|'-separated MRCONSO fields "
                    "(CUI|LAT|TS|LUI|STT|SUI|ISPREF|AUI|SAUI|SCUI|SDUI|SAB|TTY|CODE|STR|SRL|"
                    "SUPPRESS|CVF|), "
                    f"got {len(parts) - (1 if trailing_bar else 0)}"
                )
            cui, lat, ts, stt, ispref, sab, tty, text, suppress = (
                parts[0], parts[1], parts[2], parts[4], parts[6],
                parts[11], parts[12], parts[14], parts[16],
            )  # fmt: skip
            if lat != language or suppress in _RRF_SUPPRESSIBLE:
                continue
            if sab_filter is not None and sab not in sab_filter:
                continue
            stys = concept_stys.get(cui)
            if not stys:
                continue
            if sty_filter is not None and not any(s in sty_filter for s in stys):
                continue
            text = clean_term(text)
            if not text:
                continue
            kept_rows += 1
            rank = 0 if (ts == "P" and stt == "PF" and ispref == "Y") else 1 if ispref == "Y" else 2
            if cui not in preferred or rank < preferred[cui][0]:
                preferred[cui] = (rank, text)
            if tty in ("AB", "ACR") or is_acronym(text):
                acronyms[text][cui] = acronyms[text].get(cui, False) or sab == SUPPLEMENT_SAB
                continue
            key = (_normalize_for_index(text), cui)
            if len(key[0]) < 2:
                continue
            index_terms[key] = max(index_terms.get(key, 0), 1 if ispref == "Y" else 0)
    bar.update(total - bar.n)
    bar.close()
    if not preferred:
        raise VocabularyError(
            f"no rows of {mrconso} passed the filters (language={language}, "
            f"sources={sorted(sab_filter or [])}, "
            f"semantic types={sorted(sty_filter or [])})"
        )

    # --- abbreviations: curated ones win, else unambiguous ontology/UMLS acronyms of >= 3 chars
    stoplist = read_abbreviation_stoplist()
    abbrev: dict[str, str] = {}
    for a, owners in acronyms.items():
        curated = [c for c, cur in owners.items() if cur]
        if len(curated) == 1:
            abbrev[a] = curated[0]
        elif len(owners) == 1 and len(a) >= 3 and a not in stoplist:
            abbrev[a] = next(iter(owners))
    if supplement_abbreviations and _kind != "open":
        by_name: dict[str, set[str]] = defaultdict(set)
        for t, cui in index_terms:
            by_name[t].add(cui)
        for r in read_term_table():
            if r.term_type != "AB" or r.source != SUPPLEMENT_SAB:
                continue
            if r.concept_id in preferred:
                abbrev[r.term] = r.concept_id
                continue
            hits = by_name.get(_normalize_for_index(r.preferred_name), set())
            if len(hits) == 1:
                abbrev[r.term] = next(iter(hits))

    # --- write with medspacy_quickumls's writers
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=str(out.parent)))
    try:
        _write_quickumls(tmp, index_terms, concept_stys, progress)
        with (tmp / CONCEPTS_FILE).open("w", encoding="utf-8") as f:
            f.write("concept_id\tpreferred_name\tsemantic_types\n")
            for cui in sorted(preferred):
                f.write(f"{cui}\t{preferred[cui][1]}\t{','.join(concept_stys[cui])}\n")
        with (tmp / ABBREVIATIONS_FILE).open("w", encoding="utf-8") as f:
            f.write("abbreviation\tconcept_id\n")
            for a in sorted(abbrev):
                f.write(f"{a}\t{abbrev[a]}\n")
        manifest = {
            "format_version": INDEX_FORMAT_VERSION,
            "kind": _kind,
            "meta_dir": str(meta.resolve()) if _kind != "open" else None,
            "language": language,
            "sources": sorted(sab_filter) if sab_filter else None,
            "semantic_types": sorted(sty_filter) if sty_filter is not None else None,
            "rows_kept": kept_rows,
            "concepts": len(preferred),
            "index_terms": len(index_terms),
            "abbreviations": len(abbrev),
            "build_seconds": round(time.perf_counter() - started, 2),
            "built_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            **(_extra_manifest or {}),
        }
        (tmp / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        try:
            os.replace(tmp, out)
        except OSError:
            if (out / MANIFEST_FILE).is_file():  # a concurrent build finished first
                shutil.rmtree(tmp, ignore_errors=True)
            else:
                raise
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if progress:  # the last line of the progress display the caller asked for
        tqdm.write(
            f"built {_kind} index in {out}: {len(preferred):,} concepts, "
            f"{len(index_terms):,} index terms, "
            f"{len(abbrev):,} abbreviations, {time.perf_counter() - started:.1f} s",
            file=sys.stderr,
        )
    return out


def _write_quickumls(
    out: Path,
    index_terms: dict[tuple[str, str], int],
    concept_stys: dict[str, list[str]],
    progress: bool,
) -> None:
    """Write the QuickUMLS databases and flag files (lowercase + unicode-normalized, unqlite)."""
    from quickumls.install import parse_and_encode_ngrams  # imports spacy, never downloads a model

    for name, content in (
        ("lowercase.flag", ""),
        ("normalize-unicode.flag", ""),
        ("language.flag", "ENG"),
        ("database_backend.flag", "unqlite"),
    ):
        (out / name).write_text(content, encoding="utf-8")
    bar = tqdm(total=len(index_terms), desc="writing QuickUMLS index", unit="term",
               disable=not progress, file=sys.stderr, mininterval=1.0)

    def rows() -> Iterator[tuple[str, str, list[str], int]]:
        for i, ((term, cui), pref) in enumerate(sorted(index_terms.items()), start=1):
            if i % 5000 == 0:
                bar.update(i - bar.n)
            yield term, cui, concept_stys[cui], pref
        bar.update(len(index_terms) - bar.n)
        bar.close()

    parse_and_encode_ngrams(
        rows(),
        str(out / "umls-simstring.db"),
        str(out / "cui-semtypes.db"),
        database_backend="unqlite",
    )


# --------------------------------------------------------------------------------------------------
# The default (open) index, built on first use
# --------------------------------------------------------------------------------------------------


def open_index_key(table: str | os.PathLike[str] | None = None) -> str:
    """Cache key of the open index: hash of the term table, the stoplist and the index format."""
    h = hashlib.sha256()
    h.update(f"format={INDEX_FORMAT_VERSION}\n".encode())
    h.update(file_sha256(Path(table) if table else term_table_path()).encode())
    h.update(file_sha256(DATA_DIR / ABBREVIATION_STOPLIST_FILE).encode())
    return h.hexdigest()[:16]


def ensure_open_index(
    cache: str | os.PathLike[str] | None = None,
    *,
    table: str | os.PathLike[str] | None = None,
    progress: bool = False,
) -> Path:
    """Path of the open-vocabulary index, building it first if the cache has none for this table."""
    key = open_index_key(table)
    root = cache_dir(cache)
    out = root / f"open-{key}"
    if (out / MANIFEST_FILE).is_file():
        return out
    root.mkdir(parents=True, exist_ok=True)
    rows = read_term_table(table)
    with tempfile.TemporaryDirectory(prefix="cuelex-rrf-", dir=str(root)) as meta:
        write_rrf(rows, meta)
        if (out / MANIFEST_FILE).is_file():  # another process finished meanwhile
            return out
        if out.exists():  # debris without a manifest (builds rename complete directories only)
            shutil.rmtree(out, ignore_errors=True)
        try:
            build_umls_index(
                meta,
                out,
                sources=None,
                semantic_types=None,
                progress=progress,
                _kind="open",
                _extra_manifest={"table_key": key},
            )
        except VocabularyError:
            if (out / MANIFEST_FILE).is_file():  # lost a race with a concurrent build
                return out
            raise
    return out


def resolve_vocabulary(
    vocabulary: str | os.PathLike[str] | None = None,
    cache: str | os.PathLike[str] | None = None,
    *,
    progress: bool = False,
) -> Path:
    """The index directory for ``vocabulary``: None/"open" → the open index (built on first use),
    a directory built by ``cuelex vocab build`` → itself. Raises VocabularyError otherwise."""
    if vocabulary is None or str(vocabulary) == "open":
        return ensure_open_index(cache, progress=progress)
    p = Path(vocabulary).expanduser()
    if not p.exists():
        raise VocabularyError(f"vocabulary {p} does not exist")
    if (p / "MRCONSO.RRF").is_file():
        raise VocabularyError(
            f"{p} is a UMLS META directory, not an index: run "
            f"`cuelex vocab build --umls {p} --out DIR` "
            "and pass DIR as the vocabulary"
        )
    if not (p / "umls-simstring.db").is_dir() or not (p / "cui-semtypes.db").is_dir():
        raise VocabularyError(
            f"{p} is not a QuickUMLS index (no umls-simstring.db/cui-semtypes.db); "
            "build one with `cuelex vocab build`"
        )
    manifest = p / MANIFEST_FILE
    if manifest.is_file():
        try:
            info = json.loads(manifest.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise VocabularyError(f"{manifest}: unreadable manifest: {exc}") from None
        if info.get("format_version") != INDEX_FORMAT_VERSION:
            raise VocabularyError(
                f"{p} was built by an index format {info.get('format_version')} (this cuelex reads "
                f"{INDEX_FORMAT_VERSION}): rebuild it with `cuelex vocab build`"
            )
    return p


# --------------------------------------------------------------------------------------------------
# Reading an index's sidecars
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Concept:
    concept_id: str
    preferred_name: str
    semantic_types: tuple[str, ...]


@dataclass
class IndexData:
    """The cuelex sidecars of an index: concepts (preferred names, types) and abbreviations."""

    path: Path
    concepts: dict[str, Concept]
    abbreviations: dict[str, str]  # case-sensitive abbreviation -> concept id
    manifest: dict[str, object]

    def concept(self, concept_id: str) -> Concept | None:
        return self.concepts.get(concept_id)


def _sidecar_rows(path: Path, width: int) -> Iterator[list[str]]:
    """The rows of ``width`` fields of a sidecar TSV written by :func:`build_umls_index` (none when
    the file is absent: a plain QuickUMLS directory has no sidecars)."""
    if not path.is_file():
        return
    with path.open(encoding="utf-8") as f:
        next(f, None)  # header
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == width:
                yield parts


def load_index(path: str | os.PathLike[str]) -> IndexData:
    """Read the sidecars of an index directory (a plain QuickUMLS directory gives empty tables)."""
    p = Path(path)
    concepts = {
        cid: Concept(cid, name, tuple(s for s in stys.split(",") if s))
        for cid, name, stys in _sidecar_rows(p / CONCEPTS_FILE, 3)
    }
    abbrevs = {abbr: cid for abbr, cid in _sidecar_rows(p / ABBREVIATIONS_FILE, 2)}
    manifest: dict[str, object] = {}
    mf = p / MANIFEST_FILE
    if mf.is_file():
        manifest = json.loads(mf.read_text(encoding="utf-8"))
    return IndexData(p, concepts, abbrevs, manifest)
