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

import re
import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING

from .vocab import read_term_table

if TYPE_CHECKING:
    from .linking import Linker

__all__ = ["concept_id", "expand_abbreviation", "normal_form", "same_concept", "singular"]

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
