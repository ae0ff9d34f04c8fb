"""The concept vocabulary's data tables, read at run time: the open term table
(``cuelex/data/vocab_terms.tsv``), the curated supplement and abbreviation stoplist, the stopword
list, the HPO-derived table and the curated lay terms, all through one TSV reader
(:func:`tsv_rows`) whose errors name file and line; and where index caches live (:func:`cache_dir`).

Normalisation, alignment and linking import this module. Building things lives apart:
:mod:`cuelex.concepts.ontology` turns the DO/SYMP/HPO ontology files into these tables (only
``cuelex vocab table`` and ``benchmark/`` scripts use it), :mod:`cuelex.concepts.index` writes and
reads QuickUMLS indexes (``cuelex vocab build``, and the open index built on first use). The names
that moved there keep working here (``cuelex.vocab.build_umls_index``) through ``__getattr__``.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import regex

from .. import _compat
from ..errors import CuelexError

__all__ = [
    "SEMANTIC_TYPE_NAMES",
    "HpoTerm",
    "LayTerm",
    "SupplementConcept",
    "TermRow",
    "VocabularyError",
    "cache_dir",
    "check_concept_id",
    "clean_term",
    "is_acronym",
    "is_cui",
    "is_hpo_id",
    "read_abbreviation_stoplist",
    "read_hpo_table",
    "read_lay_terms",
    "read_stopwords",
    "read_supplement",
    "read_term_table",
    "slug",
    "term_table_path",
    "tsv_rows",
]

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
TERM_TABLE_FILE = "vocab_terms.tsv"
SUPPLEMENT_FILE = "vocab_supplement.tsv"
ABBREVIATION_STOPLIST_FILE = "vocab_abbreviation_stoplist.txt"
STOPWORDS_FILE = "stopwords_english.txt"

TERM_TABLE_COLUMNS = (
    "concept_id",
    "term",
    "term_type",
    "preferred_name",
    "semantic_types",
    "source",
)
TERM_TYPES = ("PT", "SY", "AB")  # preferred term, synonym, abbreviation/acronym
SUPPLEMENT_SAB = "CUELEX"

#: Names of the UMLS semantic types the open vocabulary uses (MRSTY's STY column).
SEMANTIC_TYPE_NAMES: dict[str, str] = {
    "T019": "Congenital Abnormality",
    "T020": "Acquired Abnormality",
    "T033": "Finding",
    "T034": "Laboratory or Test Result",
    "T037": "Injury or Poisoning",
    "T046": "Pathologic Function",
    "T047": "Disease or Syndrome",
    "T048": "Mental or Behavioral Dysfunction",
    "T049": "Cell or Molecular Dysfunction",
    "T184": "Sign or Symptom",
    "T190": "Anatomical Abnormality",
    "T191": "Neoplastic Process",
}

_CUI_RE = re.compile(r"^C\d{7}$")
_CLX_RE = re.compile(r"^CLX:[A-Za-z0-9_.-]+$")
#: Acronym-like strings ("PNA", "COVID-19", "T2DM", "HFrEF"): matched case-sensitively as whole
#: tokens, never through the lowercased fuzzy QuickUMLS index (where "ALL" would match "all").
_ACRONYM_RE = re.compile(r"^(?=(?:[^A-Z]*[A-Z]){2})[A-Za-z0-9][A-Za-z0-9/+-]{0,9}$")



class VocabularyError(CuelexError, ValueError):
    """A vocabulary file or index is missing, malformed or inconsistent; the message says where."""


# --------------------------------------------------------------------------------------------------
# Term rows and the term table
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TermRow:
    """One term of the open vocabulary: a surface string of a concept."""

    concept_id: str
    term: str
    term_type: str  # PT, SY or AB
    preferred_name: str
    semantic_types: tuple[str, ...]
    source: str  # e.g. "DOID:552", "SYMP:0000099", "CUELEX"


def is_acronym(term: str) -> bool:
    """True for acronym-like strings (at least two capitals, no spaces, at most 10 characters)."""
    return bool(_ACRONYM_RE.match(term)) and not term.isdigit()


def is_cui(text: str) -> bool:
    """True for a UMLS CUI ("C0032285")."""
    return bool(_CUI_RE.match(text))


def is_hpo_id(text: str) -> bool:
    """True for an HPO class id ("HP:0002090")."""
    return bool(_HPO_ID_RE.match(text))


def check_concept_id(concept_id: str) -> bool:
    """True for a concept id of the term table: a UMLS CUI or ``CLX:...``."""
    return bool(_CUI_RE.match(concept_id) or _CLX_RE.match(concept_id))


def slug(text: str) -> str:
    """A stable id fragment: ASCII, lowercase, hyphens ("Ground glass" → "ground-glass")."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def clean_term(text: str) -> str:
    """One space between words, NFC: the form every term read from a source is kept in."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFC", text)).strip()


def term_table_path() -> Path:
    """Path of the term table shipped in the package."""
    return DATA_DIR / TERM_TABLE_FILE


def read_term_table(path: str | os.PathLike[str] | None = None) -> list[TermRow]:
    """Read and validate a term table (default: the shipped one); errors name file and line."""
    path = Path(path) if path is not None else term_table_path()
    return list(_read_term_table_cached(str(path), _mtime(path)))


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        raise VocabularyError(f"term table {path} does not exist") from None


@lru_cache(maxsize=4)
def _read_term_table_cached(path: str, _mtime: float) -> tuple[TermRow, ...]:
    rows: list[TermRow] = []
    for lineno, fields in tsv_rows(Path(path), TERM_TABLE_COLUMNS, "term table"):
        cid, term, ttype, pref, stys, source = fields
        if not check_concept_id(cid):
            raise VocabularyError(
                f"{path}:{lineno}: bad concept_id {cid!r} (want C1234567 or CLX:...)"
            )
        if ttype not in TERM_TYPES:
            raise VocabularyError(
                f"{path}:{lineno}: bad term_type {ttype!r} (want one of {TERM_TYPES})"
            )
        if not term.strip() or not pref.strip():
            raise VocabularyError(f"{path}:{lineno}: empty term or preferred_name")
        sty_tuple = tuple(s for s in stys.split(",") if s)
        for s in sty_tuple:
            if not re.match(r"^T\d{3}$", s):
                raise VocabularyError(
                    f"{path}:{lineno}: bad semantic type {s!r} (want T047 etc.)"
                )
        rows.append(TermRow(cid, term, ttype, pref, sty_tuple, source))
    if not rows:
        raise VocabularyError(f"{path}: the term table has no rows")
    return tuple(rows)


def file_sha256(path: str | os.PathLike[str]) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def read_stopwords() -> list[str]:
    """The NLTK English stopword list shipped as ``cuelex/data/stopwords_english.txt``."""
    path = DATA_DIR / STOPWORDS_FILE
    words = [w.strip() for w in path.read_text(encoding="utf-8").splitlines()]
    return [w for w in words if w and not w.startswith("#")]


# --------------------------------------------------------------------------------------------------
# The curated supplement
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SupplementConcept:
    """One concept of vocab_supplement.tsv (empty id: resolved against DO, else CLX:<slug>)."""

    concept_id: str
    preferred_name: str
    semantic_type: str
    synonyms: tuple[str, ...]
    abbreviations: tuple[str, ...]
    lineno: int


SUPPLEMENT_COLUMNS = ("concept_id", "preferred_name", "semantic_type", "synonyms", "abbreviations")


def read_supplement(path: str | os.PathLike[str] | None = None) -> list[SupplementConcept]:
    """Read and validate the curated supplement; errors name file, line and field."""
    path = Path(path) if path is not None else DATA_DIR / SUPPLEMENT_FILE
    out: list[SupplementConcept] = []
    seen_names: dict[str, int] = {}
    seen_abbr: dict[str, int] = {}
    seen_terms: dict[str, int] = {}
    for lineno, fields in tsv_rows(path, SUPPLEMENT_COLUMNS, "supplement", min_fields=3):
        cid, name, sty, syns, abbrs = (x.strip() for x in fields)
        first, *others = cid.split("+") if cid else [""]
        for part in (first.rstrip("!"), *others):
            if cid and not check_concept_id(part):
                raise VocabularyError(
                    f"{path}:{lineno}: concept_id {part!r} is neither a CUI nor CLX:..."
                )
        if first.endswith("!") and not _CUI_RE.match(first[:-1]):
            raise VocabularyError(
                f"{path}:{lineno}: only a UMLS CUI can carry the override mark '!'"
            )
        name = clean_term(name)
        if not name:
            raise VocabularyError(f"{path}:{lineno}: empty preferred_name")
        if sty not in SEMANTIC_TYPE_NAMES:
            raise VocabularyError(
                f"{path}:{lineno}: semantic_type {sty!r} of {name!r} is not one of "
                f"{sorted(SEMANTIC_TYPE_NAMES)}"
            )
        if name.lower() in seen_names:
            raise VocabularyError(
                f"{path}:{lineno}: preferred_name {name!r} already on line "
                f"{seen_names[name.lower()]}"
            )
        seen_names[name.lower()] = lineno
        syn_t = tuple(clean_term(s) for s in syns.split("|") if s.strip())
        abbr_t = tuple(clean_term(s) for s in abbrs.split("|") if s.strip())
        for term in (name, *syn_t):
            prev = seen_terms.get(term.lower())
            if prev is not None and prev != lineno:
                raise VocabularyError(
                    f"{path}:{lineno}: term {term!r} already belongs to line {prev}"
                )
            seen_terms[term.lower()] = lineno
        for a in abbr_t:
            if " " in a:
                raise VocabularyError(f"{path}:{lineno}: abbreviation {a!r} contains a space")
            if a in seen_abbr:
                raise VocabularyError(
                    f"{path}:{lineno}: abbreviation {a!r} already defined on line "
                    f"{seen_abbr[a]}"
                )
            seen_abbr[a] = lineno
        out.append(SupplementConcept(cid, name, sty, syn_t, abbr_t, lineno))
    return out


def read_abbreviation_stoplist() -> frozenset[str]:
    """Acronyms from the ontologies that must not be used (clinical collisions: ED, CT, NAD, …)."""
    path = DATA_DIR / ABBREVIATION_STOPLIST_FILE
    words = (w.split("#", 1)[0].strip() for w in path.read_text(encoding="utf-8").splitlines())
    return frozenset(w for w in words if w)


def cache_dir(path: str | os.PathLike[str] | None = None) -> Path:
    """``path``, else ``$CUELEX_CACHE_DIR``, else ``~/.cache/cuelex``."""
    if path is not None:
        return Path(path).expanduser()
    env = os.environ.get("CUELEX_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".cache" / "cuelex"


# --------------------------------------------------------------------------------------------------
# Lay language: a term table derived from the Human Phenotype Ontology, and cuelex's curated lay terms
# --------------------------------------------------------------------------------------------------

HPO_TABLE_FILE = "hpo_terms.tsv"
LAY_TERMS_FILE = "lay_terms.tsv"
HPO_TABLE_COLUMNS = ("hpo_id", "term", "term_type", "umls_cuis")
#: label: the class name; exact: an EXACT synonym; layperson: an EXACT synonym typed "layperson".
HPO_TERM_TYPES = ("label", "exact", "layperson")
LAY_TERM_COLUMNS = ("concept", "lay_term", "strength", "example_source", "example_output")
#: same: the lay term names the concept; related: a weaker paraphrase (aligned with low confidence).
LAY_STRENGTHS = ("same", "related")
_HPO_ID_RE = re.compile(r"^HP:\d{7}$")


@dataclass(frozen=True)
class HpoTerm:
    """One row of the derived HPO term table: a name or exact synonym of an HPO class."""

    hpo_id: str
    term: str
    term_type: str  # label, exact or layperson
    umls_cuis: tuple[str, ...]


@dataclass(frozen=True)
class LayTerm:
    """One curated lay term: the concept it names (an open-vocabulary term or a CUI) and a test."""

    concept: str
    lay_term: str
    strength: str
    example_source: str
    example_output: str
    line: int = 0


def hpo_table_path() -> Path:
    """Path of the derived HPO term table shipped in the package."""
    return DATA_DIR / HPO_TABLE_FILE


def read_hpo_table(path: str | os.PathLike[str] | None = None) -> list[HpoTerm]:
    """Read the derived HPO term table (default: the shipped one); errors name file and line."""
    p = Path(path) if path is not None else hpo_table_path()
    return list(_read_hpo_cached(str(p), _mtime(p)))


def tsv_rows(
    path: Path, columns: tuple[str, ...], what: str, *, min_fields: int | None = None
) -> Iterator[tuple[int, list[str]]]:
    """(line number, fields) of each row of a cuelex TSV data file after its header line: the one
    reader of the term table, the supplement, the HPO table and the lay terms. Comments (``#``) and
    blank lines are skipped; rows with ``min_fields`` or more (default: all) fields are padded
    with empty strings; a missing file or header or a wrong field count raises
    ``VocabularyError`` naming file and line."""
    if not path.is_file():
        raise VocabularyError(f"{what} {path} not found")
    least = len(columns) if min_fields is None else min_fields
    header_seen = False
    with path.open(encoding="utf-8") as f:
        for lineno, raw in enumerate(f, start=1):
            line = raw.rstrip("\n").rstrip("\r")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = line.split("\t")
            if not header_seen:
                if tuple(fields) != columns:
                    raise VocabularyError(
                        f"{path}:{lineno}: expected header {'/'.join(columns)}, got {line!r}"
                    )
                header_seen = True
                continue
            if not least <= len(fields) <= len(columns):
                raise VocabularyError(
                    f"{path}:{lineno}: expected {len(columns)} tab-separated fields, "
                    f"got {len(fields)}"
                )
            yield lineno, fields + [""] * (len(columns) - len(fields))
    if not header_seen:
        raise VocabularyError(f"{path}: no header line; is this a cuelex {what}?")


def role_pattern_rows(
    path: Path, roles: tuple[str, ...], what: str
) -> dict[str, list[tuple[str, str]]]:
    """Role → (pattern, example) rows of a ``role/pattern/example`` TSV of phrase patterns (the
    scorer's output reading, the aligner's course wording). A space in a pattern stands for any run
    of spaces or tabs (already expanded in the result); an unknown role, an empty field, a pattern
    that does not compile or that matches the empty string raises ``VocabularyError`` naming file
    and line."""
    rows: dict[str, list[tuple[str, str]]] = {r: [] for r in roles}
    for n, (role, pattern, example) in tsv_rows(path, ("role", "pattern", "example"), what):
        if role not in rows:
            raise VocabularyError(f"{path}:{n}: role must be one of {roles}, got {role!r}")
        if not pattern.strip() or not example.strip():
            raise VocabularyError(f"{path}:{n}: expected a pattern and an example")
        pattern = pattern.replace(" ", r"[ \t]+")
        try:
            compiled = regex.compile(pattern, regex.V1 | regex.IGNORECASE)
        except regex.error as e:
            raise VocabularyError(f"{path}:{n}: pattern {pattern!r} does not compile: {e}") from e
        if compiled.fullmatch(""):
            raise VocabularyError(f"{path}:{n}: pattern {pattern!r} matches the empty string")
        rows[role].append((pattern, example))
    return rows


@lru_cache(maxsize=4)
def _read_hpo_cached(path: str, _mtime: float) -> tuple[HpoTerm, ...]:
    p = Path(path)
    out: list[HpoTerm] = []
    for n, cols in tsv_rows(p, HPO_TABLE_COLUMNS, "HPO term table"):
        hid, term, kind, cuis = cols
        if not _HPO_ID_RE.match(hid) or kind not in HPO_TERM_TYPES or not term:
            raise VocabularyError(f"{p}:{n}: bad row {cols!r}")
        out.append(HpoTerm(hid, term, kind, tuple(c for c in cuis.split("|") if c)))
    return tuple(out)


def lay_terms_path() -> Path:
    """Path of cuelex's curated lay-term file shipped in the package."""
    return DATA_DIR / LAY_TERMS_FILE


def read_lay_terms(path: str | os.PathLike[str] | None = None) -> list[LayTerm]:
    """Read the curated lay terms (default: the shipped file); errors name file and line."""
    p = Path(path) if path is not None else lay_terms_path()
    return list(_read_lay_cached(str(p), _mtime(p)))


@lru_cache(maxsize=4)
def _read_lay_cached(path: str, _mtime: float) -> tuple[LayTerm, ...]:
    p = Path(path)
    out: list[LayTerm] = []
    for n, cols in tsv_rows(p, LAY_TERM_COLUMNS, "lay-term file"):
        concept, lay, strength, ex_src, ex_out = (c.strip() for c in cols)
        if not concept or not lay:
            raise VocabularyError(f"{p}:{n}: concept and lay_term must not be empty")
        if strength not in LAY_STRENGTHS:
            raise VocabularyError(f"{p}:{n}: strength must be one of {LAY_STRENGTHS}")
        if not ex_src or not ex_out:
            raise VocabularyError(f"{p}:{n}: every lay term needs an example source and output")
        out.append(LayTerm(concept, lay, strength, ex_src, ex_out, n))
    return tuple(out)


def __getattr__(name: str) -> object:
    """Names that moved to :mod:`.ontology`, :mod:`.index` or the command line (old call sites)."""
    return _compat.moved_attr(__name__, name)
