"""Target normalisation for matching a source pair's target in an output text.

* :func:`normal_form` — lowercase, no articles or punctuation, hyphens and slashes as spaces,
  possessive "'s" dropped, each word singular ("The bilateral pleural effusions." →
  "bilateral pleural effusion", "Crohn's disease" → "crohn disease", "ground-glass opacities" →
  "ground glass opacity").
* :func:`expand_abbreviation` — replace whole-word abbreviations by the preferred name of their
  concept, from the vocabulary's abbreviation rows ("r/o PNA" → "r/o pneumonia").
* :func:`concept_id` / :func:`same_concept` — CUI (or cuelex id) equality, through a
  :class:`~cuelex.linking.Linker` when one is given (any vocabulary, partial phrases), else through
  an exact lookup in the shipped open term table (no index needed).
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from . import vocab as _vocab
from .vocab import (
    DATA_DIR,
    VocabularyError,
    cache_dir,
    read_hpo_table,
    read_lay_terms,
    read_term_table,
    slug,
)

if TYPE_CHECKING:
    from .linking import Linker

__all__ = [
    "ConceptIndex",
    "LayEntry",
    "SIDE_SHORTHAND",
    "concept_id",
    "concept_ids",
    "concept_index",
    "general_findings",
    "expand_abbreviation",
    "lay_key",
    "norm_token",
    "normal_form",
    "phrase_key",
    "same_concept",
    "singular",
    "word_variants",
]

_ARTICLES = frozenset({"a", "an", "the"})
_IRREGULAR = {
    "emboli": "embolus",
    "thrombi": "thrombus",
    "calculi": "calculus",
    "bronchi": "bronchus",
    "fungi": "fungus",
    "nuclei": "nucleus",
    "bacteria": "bacterium",
    "diverticula": "diverticulum",
    "vertebrae": "vertebra",
    "metastases": "metastasis",
    "diagnoses": "diagnosis",
    "stenoses": "stenosis",
    "thromboses": "thrombosis",
    "anastomoses": "anastomosis",
    "atelectases": "atelectasis",
    "neoplasms": "neoplasm",
    "pneumothoraces": "pneumothorax",
    "thoraces": "thorax",
    "appendices": "appendix",
    "cervices": "cervix",
    "apices": "apex",
    "varices": "varix",
    "indices": "index",
    "testes": "testis",
    "women": "woman",
    "men": "man",
    "feet": "foot",
    "teeth": "tooth",
    "children": "child",
}
_INVARIANT = frozenset(
    {
        "diabetes", "herpes", "rabies", "scabies", "measles", "mumps", "lupus", "mellitus",
        "pancreas", "virus", "status", "facies", "species", "series", "aids", "feces", "faeces",
        "ascites", "nares", "menses", "biceps", "triceps", "forceps", "rickets", "shingles",
        "hives", "gas", "bias", "atlas", "iris", "pelvis", "axis", "this", "has", "was", "is",
        "its", "always",
        "sepsis", "lens", "bronchiectasis", "plus", "yes", "versus",
    }
)  # fmt: skip
_DASHES = "\\-\u2010\u2011\u2012\u2013\u2014\u2212"


def singular(word: str) -> str:
    """Simple English singular of a lowercase word ("opacities" → "opacity", "masses" → "mass")."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) <= 3 or word in _INVARIANT or not word.isalpha():
        return word
    if word.endswith(("ss", "us", "is", "ous")):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("aches") and not word.endswith(("oaches", "eaches")):
        return word[:-1]  # "headaches" → "headache", "aches" → "ache" (but "approaches", "beaches")
    if word.endswith(("sses", "xes", "zes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


def normal_form(text: str) -> str:
    """Lowercase, articles and punctuation removed, hyphens as spaces, each word singular."""
    if not isinstance(text, str):
        raise TypeError(f"normal_form expects a str, got {type(text).__name__}")
    t = unicodedata.normalize("NFKC", text).lower().replace("\u2019", "'")
    t = re.sub(r"'s\b", "", t)
    t = re.sub(f"[{_DASHES}/]", " ", t)
    t = re.sub(r"(?<=\d)\.(?=\d)", "\x00", t)  # keep decimal points (3.5 cm)
    t = re.sub(r"[^\w\s\x00]|_", " ", t).replace("\x00", ".")
    words = [singular(w) for w in t.split() if w not in _ARTICLES]
    return " ".join(words)


# --------------------------------------------------------------------------------------------------
# Vocabulary lookups
# --------------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _open_tables() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """Open-table maps: abbreviation → concept id, concept id → name, normal form → concept id."""
    abbrev: dict[str, str] = {}
    names: dict[str, str] = {}
    by_form: dict[str, tuple[int, str]] = {}
    for r in read_term_table():
        names.setdefault(r.concept_id, r.preferred_name)
        if r.term_type == "AB":
            abbrev.setdefault(r.term, r.concept_id)
            continue
        nf = normal_form(r.term)
        rank = 0 if r.term_type == "PT" else 1
        if nf and (nf not in by_form or rank < by_form[nf][0]):
            by_form[nf] = (rank, r.concept_id)
    return abbrev, names, {k: v[1] for k, v in by_form.items()}


_TOKEN_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9+]*(?:['\u2019-][A-Za-z0-9+]+)*")


def _abbreviation_table(linker: Linker | None) -> tuple[Mapping[str, str], Mapping[str, str]]:
    if linker is not None:
        idx = linker.index
        return idx.abbreviations, {cid: c.preferred_name for cid, c in idx.concepts.items()}
    abbrev, names, _ = _open_tables()
    return abbrev, names


def expand_abbreviation(
    text: str,
    abbreviations: Mapping[str, str] | None = None,
    *,
    linker: Linker | None = None,
) -> str:
    """Replace each whole-word abbreviation by its expansion ("PNA" → "pneumonia").

    ``abbreviations`` maps abbreviation → expansion text; by default the vocabulary's abbreviation
    rows are used (the linker's index if given, else the open term table), expanding to the
    concept's preferred name. Matching is case-sensitive; a plural "s" is accepted ("PEs").
    Text without abbreviations comes back unchanged.
    """
    if abbreviations is not None:
        table: Mapping[str, str] = abbreviations
        names: Mapping[str, str] = {}
        direct = True
    else:
        table, names = _abbreviation_table(linker)
        direct = False

    def expansion(word: str) -> str | None:
        for cand in (
            word,
            word[:-1] if word.endswith("s") and len(word) > 2 and word[-2].isupper() else None,
        ):
            if cand and cand in table:
                return table[cand] if direct else names.get(table[cand], cand)
        return None

    out: list[str] = []
    pos = 0
    for m in _TOKEN_RE.finditer(text):
        exp = expansion(m.group())
        if exp is None:
            continue
        out.append(text[pos : m.start()])
        out.append(exp)
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def concept_id(text: str, linker: Linker | None = None) -> str | None:
    """The concept id (CUI or cuelex id) a target phrase names, or None.

    With a linker: its best concept covering most of the phrase (any vocabulary). Without: an exact
    lookup of the phrase's normal form (or its abbreviation) in the open term table.
    """
    if linker is not None:
        m = linker.concept_of(text)
        return m.concept_id if m else None
    abbrev, _names, by_form = _open_tables()
    stripped = text.strip()
    for cand in (stripped, stripped[:-1] if stripped.endswith("s") else None):
        if cand and cand in abbrev:
            return abbrev[cand]
    nf = normal_form(text)
    if nf in by_form:
        return by_form[nf]
    expanded = normal_form(expand_abbreviation(text))
    return by_form.get(expanded)


def same_concept(a: str, b: str, linker: Linker | None = None) -> bool:
    """True when two target phrases name the same thing: equal normal forms, equal after
    abbreviation expansion, or the same concept id (see :func:`concept_id`)."""
    na, nb = normal_form(a), normal_form(b)
    if na and na == nb:
        return True
    ea = normal_form(expand_abbreviation(a, linker=linker))
    eb = normal_form(expand_abbreviation(b, linker=linker))
    if ea and ea == eb:
        return True
    ca, cb = concept_id(a, linker), concept_id(b, linker)
    return ca is not None and ca == cb


# --------------------------------------------------------------------------------------------------
# Lay language: one concept index over the open vocabulary, the HPO table and the curated lay terms
# --------------------------------------------------------------------------------------------------

_WORD_RE = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
#: Words a lay phrase may carry without changing what it names ("fluid around YOUR lungs", "heart
#: IS enlarged", "the LEFT lung"): skipped on both sides when lay keys are built. Cue words ("not",
#: "may", "probably") are never skipped: they stay outside a matched phrase so its level is read.
LAY_FILLER = frozenset(
    """
    a an the your my his her their our its this that these those some any
    is are was were be been being am look looks looked looking appear appears appeared seem seems
    seemed little bit slightly somewhat mildly very quite small tiny large big
    right left both bilateral upper lower middle mid top bottom base part area amount of
    """.split()
)  # fmt: skip
#: Lay keys of at most this many words are matched in any word order ("heart enlarged").
LAY_BAG_MAX = 3
_LAY_ORDERED = frozenset({"in", "on", "around", "near", "inside", "within", "from", "to", "not"})


#: Side shorthand → its long form, the one home of it: (long form, expanded in every word's
#: normal form). "bilat" is read as "bilateral" everywhere (:func:`norm_token`); the other forms
#: only where a side is compared ("**Right ankle sprain**" / "c/w R ankle sprain", "rt knee": the
#: scorer's title-body comparison, and the alignment's capital R/L before a word) — a bare "l" or
#: "rt" is no side in general text ("1.5 l", "RT" for radiotherapy).
SIDE_SHORTHAND: Mapping[str, tuple[str, bool]] = MappingProxyType(
    {
        "r": ("right", False),
        "rt": ("right", False),
        "l": ("left", False),
        "lt": ("left", False),
        "bilat": ("bilateral", True),
        "bil": ("bilateral", False),
    }
)


@lru_cache(maxsize=1)
def word_variants() -> dict[str, str]:
    """Shorthand → word ("fx" → "fracture"), from ``cuelex/data/word_variants.tsv`` and the side
    shorthand always expanded (:data:`SIDE_SHORTHAND`)."""
    path = DATA_DIR / "word_variants.tsv"
    out: dict[str, str] = {k: v for k, (v, always) in SIDE_SHORTHAND.items() if always}
    columns = ("variant", "word", "example_source", "example_output")
    for n, cols in _vocab.tsv_rows(path, columns, "word variant table"):
        if not cols[0] or not cols[1]:
            raise VocabularyError(f"{path}:{n}: expected variant, word, example_source, example_output")
        out[cols[0].lower()] = cols[1].lower()
    return out


#: Roles of ``cuelex/data/general_findings.tsv`` (see the file's header).
GENERAL_ROLES = ("head", "qualifier", "organ", "problem", "organ_problem", "urgent", "normal", "study", "related", "size")


@lru_cache(maxsize=1)
def general_findings() -> dict[str, dict[str, tuple[str, ...]]]:
    """Role → word → organ groups, from ``cuelex/data/general_findings.tsv``: the words of a
    whole-organ statement ("No acute cardiopulmonary abnormality") and of its lay wordings ("no
    sudden problems with your heart or lungs", "your heart and lungs look normal")."""
    path = _vocab.DATA_DIR / "general_findings.tsv"
    out: dict[str, dict[str, tuple[str, ...]]] = {r: {} for r in GENERAL_ROLES}
    columns = ("role", "word", "group", "example_source", "example_output")
    for n, cols in _vocab.tsv_rows(path, columns, "general findings table"):
        if not cols[1] or not cols[3] or not cols[4]:
            raise _vocab.VocabularyError(f"{path}:{n}: expected role, word, group, example_source, example_output")
        role, word, group = cols[0], cols[1].lower(), tuple(cols[2].split())
        if role not in out:
            raise _vocab.VocabularyError(f"{path}:{n}: role must be one of {GENERAL_ROLES}, got {role!r}")
        if (role in ("organ", "related", "size")) != bool(group):
            raise _vocab.VocabularyError(f"{path}:{n}: organ, related and size rows name group(s), other rows none")
        out[role][word] = group
    return out


@lru_cache(maxsize=65536)
def norm_token(word: str) -> str:
    """Normal form of one word: NFKC, lower case, no accents or possessive "'s", singular,
    shorthand expanded ("fx" → "fracture")."""
    w = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", word).casefold())
    w = "".join(c for c in w if not unicodedata.combining(c)).replace("\u2019", "'")
    if w.endswith("'s"):
        w = w[:-2]
    if word.isupper() and len(word) > 1:
        return singular(w)  # all-capital abbreviations are the abbreviation tier's ("PNA")
    if len(word) > 2 and word[-1] == "s" and word[:-1].isupper():
        return w[:-1]  # the plural of one ("BPs", "UTIs")
    variants = word_variants()
    if w in variants:
        return variants[w]
    w = singular(w)
    return variants.get(w, w)


#: "bigger than normal", "larger than usual": the lay comparative of "enlarged", so every
#: "enlarged X" of the index (HPO "Enlarged spleen") is also "your spleen is bigger than normal".
_BIGGER = frozenset({"bigger", "larger"})
_NORMAL_SIZE = frozenset({"normal", "usual", "expected", "average"})
#: The words of those comparatives, which no lay key holds any more.
SIZE_WORDS = frozenset(_BIGGER | _NORMAL_SIZE | {"than"})


def _size_words(words: tuple[str, ...] | list[str]) -> tuple[str, ...] | list[str]:
    """``words`` with "bigger/larger than normal/usual" read as "enlarged"."""
    if not _BIGGER.intersection(words):
        return words
    out: list[str] = []
    i = 0
    while i < len(words):
        if (
            words[i] in _BIGGER
            and i + 2 < len(words)
            and words[i + 1] == "than"
            and words[i + 2] in _NORMAL_SIZE
        ):
            out.append("enlarged")
            i += 3
            continue
        out.append(words[i])
        i += 1
    return out


def lay_key(words: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The lay key of normalised words: filler dropped ("fluid around your lungs" → fluid, around,
    lung); short keys without an ordering word are sorted ("heart is enlarged" ~ "enlarged heart")."""
    words = _size_words(words)
    key = tuple(w for w in words if w not in LAY_FILLER)
    if 1 < len(key) <= LAY_BAG_MAX and not any(w in _LAY_ORDERED for w in key):
        return tuple(sorted(key))
    return key


def phrase_key(text: str) -> tuple[str, ...]:
    """:func:`lay_key` of a phrase."""
    return lay_key([norm_token(m.group()) for m in _WORD_RE.finditer(text)])


@dataclass(frozen=True)
class LayEntry:
    """One way of naming a concept in the concept index: where it comes from and how strongly."""

    concept_id: str
    source: str  # vocabulary, hpo, hpo_layperson, lay
    strength: str  # same or related


@dataclass(frozen=True)
class ConceptIndex:
    """Phrase → concepts: ``by_form`` keys are normal forms of open-vocabulary terms, HPO labels and
    exact synonyms, and lay terms; ``by_lay`` keys are :func:`lay_key` forms of HPO layperson
    synonyms and curated lay terms (filler words skipped, short keys in any order)."""

    by_form: dict[str, tuple[LayEntry, ...]]
    by_lay: dict[tuple[str, ...], tuple[LayEntry, ...]]

    def lookup(self, text: str) -> tuple[LayEntry, ...]:
        """Every concept a phrase names (its normal form first, then its lay key)."""
        out = dict.fromkeys(self.by_form.get(normal_form(text), ()))
        out.update(dict.fromkeys(self.by_lay.get(phrase_key(text), ())))
        return tuple(out)


@lru_cache(maxsize=1)
def concept_index() -> ConceptIndex:
    """The concept index of alignment: the open vocabulary, the HPO term table (classes joined to
    open-vocabulary concepts by a shared UMLS CUI or an identical term; a class outside the open
    vocabulary keeps its CUI, else its HPO id) and cuelex's curated lay terms.

    Built once and kept in the cache directory (``$CUELEX_CACHE_DIR`` or ``~/.cache/cuelex``),
    keyed by a hash of the data files it is built from, so later processes load it in a moment.
    """
    import hashlib
    import pickle

    files = ["vocab_terms.tsv", "hpo_terms.tsv", "lay_terms.tsv", "word_variants.tsv"]
    h = hashlib.sha256(b"concept-index-5")
    for name in files:
        st = (DATA_DIR / name).stat()
        h.update(f"{name}:{st.st_size}:{st.st_mtime_ns}".encode())
    path = None
    try:
        path = cache_dir() / f"concept-index-{h.hexdigest()[:16]}.pickle"
        if path.is_file():
            with path.open("rb") as f:
                got = pickle.load(f)
            if isinstance(got, ConceptIndex):
                return got
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError):
        path = None if path is None else path
    index = _build_concept_index()
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            with tmp.open("wb") as f:
                pickle.dump(index, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except OSError:
            pass  # a read-only cache directory only costs the rebuild next time
    return index


def _build_concept_index() -> ConceptIndex:
    _abbrev, _names, by_form_vocab = _open_tables()
    vocab_ids = set(by_form_vocab.values())
    raw = {r.term.lower(): r.concept_id for r in read_term_table() if r.term_type != "AB"}
    by_form: dict[str, dict[str, LayEntry]] = {}
    by_lay: dict[tuple[str, ...], dict[str, LayEntry]] = {}

    def add(table: dict, key: object, entry: LayEntry) -> None:  # type: ignore[type-arg]
        if not key:
            return
        slot = table.setdefault(key, {})
        old = slot.get(entry.concept_id)
        if old is None or (old.strength == "related" and entry.strength == "same"):
            slot[entry.concept_id] = entry

    for form, cid in by_form_vocab.items():
        entry = LayEntry(cid, "vocabulary", "same")
        add(by_form, form, entry)
        words = form.split()
        # "enlarged spleen" ~ "spleen may be enlarged"; never a term that loses a word to the
        # filler list ("small bowel obstruction" must not become "bowel obstruction")
        if 2 <= len(words) <= LAY_BAG_MAX and not any(w in LAY_FILLER for w in words):
            add(by_lay, lay_key(words), entry)
    classes: dict[str, list] = {}  # type: ignore[type-arg]
    for r in read_hpo_table():
        classes.setdefault(r.hpo_id, []).append(r)
    for hid, rows in classes.items():
        cuis = rows[0].umls_cuis
        canon = next((c for c in cuis if c in vocab_ids), None)
        if canon is None:
            canon = next((raw[t] for r in rows if (t := r.term.lower()) in raw), None)
        if canon is None:
            # a class outside the open vocabulary only helps through its lay names
            if not any(r.term_type == "layperson" for r in rows):
                continue
            canon = cuis[0] if cuis else hid
        for r in rows:
            if len(r.term.split()) > 6:
                continue
            if r.term_type == "layperson":
                add(by_lay, _lay_term_key(r.term), LayEntry(canon, "hpo", "same"))
            add(by_form, normal_form(r.term), LayEntry(canon, "hpo", "same"))
    for t in read_lay_terms():
        cid = concept_id(t.concept)
        if cid is None:
            # a finding the open vocabulary lacks ("osseous abnormality"): a concept of its own,
            # named by the clinical term and its lay terms
            if t.strength != "same" or not slug(t.concept):
                raise VocabularyError(
                    f"lay_terms.tsv line {t.line}: concept {t.concept!r} is not in the open "
                    "vocabulary (a new concept needs strength 'same')"
                )
            cid = f"CLX:{slug(t.concept)}"
            add(by_form, normal_form(t.concept), LayEntry(cid, "lay", "same"))
        entry = LayEntry(cid, "lay", t.strength)
        add(by_lay, _lay_term_key(t.lay_term), entry)
        add(by_form, normal_form(t.lay_term), entry)
    return ConceptIndex(
        {k: tuple(v.values()) for k, v in by_form.items()},
        {k: tuple(v.values()) for k, v in by_lay.items()},
    )


def _lay_term_key(term: str) -> tuple[str, ...]:
    """The lay key of a lay term, or () when skipping filler would leave one bare word of a longer
    term ("large heart" must not become "heart")."""
    key = phrase_key(term)
    n_words = len(_WORD_RE.findall(term))
    if len(key) == 1 and n_words > 1:
        return ()
    return key


def concept_ids(text: str) -> tuple[LayEntry, ...]:
    """Every concept a phrase names in :func:`concept_index` (empty when none)."""
    return concept_index().lookup(text)
