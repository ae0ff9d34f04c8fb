"""Precision guards of the optional semantic alignment tier: which embedding matches to believe.

An embedding model finds lay wordings no lexicon holds ("air leaking around your lung" for a
pneumothorax), and also phrases that only *resemble* the target: the organ's name ("your thyroid
hormone levels" for a thyroid nodule), a test or plan of that organ ("a bone scan" for a skeletal
finding), the complement of the target's of-phrase ("anemia" for "sources of anemia"), another
target of the same source ("no fluid around your lungs" for a pneumothorax when the source also
said "no pleural effusion"). :func:`reject_reason` names the class a candidate falls in, or None
when it passes; it works on numbers already computed (similarities ×100), so every guard is
testable without the model (:class:`SemanticCandidate`, :class:`SemanticTarget`). The aligner
(:mod:`cuelex.scoring.align`) fills them in and applies the alignment-context guards (another body
site, a service after the mention, the patient's past, advice) as to every tier. Numbers and the
held-out probes: docs/scoring.md, "The semantic tier".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..concepts.vocab import DATA_DIR, VocabularyError, tsv_rows

__all__ = [
    "ORGAN_MARGIN",
    "PARTITIVE_HEADS",
    "RIVAL_MARGIN",
    "EMPTY_WORDS",
    "SemanticCandidate",
    "SemanticTarget",
    "nonfinding_words",
    "passing",
    "reject_reason",
    "semantic_confidence",
]

#: Words that say nothing about a finding: an organ followed only by these ("your lungs look
#: normal", "the spleen might be") names the organ, not the target (the fate guidelines: a normal
#: organ is no statement about a specific finding).
EMPTY_WORDS = frozenset(
    """
    is are was were be been being am look looks looked looking appear appears appeared seem seems
    seemed has have had may might could can would will should do does did shows show showed
    normal clear fine healthy okay ok good well unremarkable usual your my you it this that there
    """.split()
)  # fmt: skip
#: A phrase holding an organ or body-site word must be this much more similar to the target than
#: that organ word alone is: it has to say something about the organ, not only name it.
ORGAN_MARGIN = 5.0
#: A phrase at least this much more similar to another source target of the same document than to
#: this one belongs to that target (mutual best assignment; 0: any other target more similar).
RIVAL_MARGIN = 0.0
#: Heads that only measure or point at their complement ("a tiny AMOUNT of fluid", "SIGNS of
#: infection", "an EPISODE of syncope"): the complement carries the concept, so a phrase naming it
#: is no qualifier-only match.
PARTITIVE_HEADS = frozenset(
    """
    amount bit piece degree evidence sign episode area collection quantity volume number trace
    touch component element kind type form spot patch focus
    """.split()
)  # fmt: skip
#: Reasons :func:`reject_reason` returns, one per class of false match.


@dataclass(frozen=True)
class SemanticTarget:
    """What the guards need of a source target: its normal-form words, its head noun (the last word
    before an of-phrase: "sources" of "sources of anemia", "effusion" of "right knee effusion"),
    whether that head is too general to carry the concept ("process", "finding"), the body sites it
    names (its words or its place phrase in the source), whether the source target is itself
    the patient's past, and whether a preposition cut its head off ("sources OF anemia")."""

    words: tuple[str, ...]
    head: str
    head_generic: bool
    sites: frozenset[str] = frozenset()
    past: bool = False
    of_phrase: bool = False


@dataclass(frozen=True)
class SemanticCandidate:
    """An output phrase the model found similar to a target.

    ``words``: its normal-form words; ``score``: similarity ×100 to the target; ``organ_words``:
    the phrase's body-site words (normal form) and
    ``organ_score`` the similarity ×100 of the target to those words alone (None: the phrase names
    no site); ``sentence_sites``: the sites its output sentence names; ``rival_score``: the best
    similarity ×100 of the phrase to another source target of the document (``rival``);
    ``organ_sites``: the body sites its site words name ("lungs" → lung)."""

    start: int
    end: int
    words: tuple[str, ...]
    score: float
    organ_words: tuple[str, ...] = ()
    organ_score: float | None = None
    sentence_sites: frozenset[str] = frozenset()
    rival_score: float = 0.0
    rival: str | None = None
    organ_sites: frozenset[str] = frozenset()


@lru_cache(maxsize=1)
def nonfinding_words() -> frozenset[str]:
    """Words (normal form) of ``cuelex/data/semantic_nonfinding.tsv``: tests, studies, treatments,
    measurements of an organ and its normal functions; a phrase holding one is not a finding."""
    path = DATA_DIR / "semantic_nonfinding.tsv"
    columns = ("word", "example_target", "example_phrase")
    out = set()
    for n, cols in tsv_rows(path, columns, "semantic non-finding table"):
        if not cols[0] or not cols[1] or not cols[2]:
            raise VocabularyError(f"{path}:{n}: expected word, example_target, example_phrase")
        out.add(cols[0].lower())
    return frozenset(out)


def _stem_shared(a: str, b: str) -> bool:
    """Same word or the same first five letters ("pinching" ~ "pinched", "overuse" ~ "overusing")."""
    return a == b or (len(a) >= 5 and len(b) >= 5 and a[:5] == b[:5])


def reject_reason(
    cand: SemanticCandidate,
    target: SemanticTarget,
    *,
    ignore: frozenset[str] = frozenset(),
    history: frozenset[str] = frozenset(),
) -> str | None:
    """The class of false match a candidate belongs to, or None when it passes every guard.

    - ``nonfinding``: it holds a test, treatment or normal-function word ("bone scan",
      "thyroid hormone", "bowel movements": :func:`nonfinding_words`);
    - ``history``: it holds a history or advice word ("history of a lung infection") where the
      source target is not the patient's past (``history``: those words);
    - ``qualifier``: the target's head is cut off by a preposition and specific (not a
      :data:`PARTITIVE_HEADS` word such as "amount"), and the phrase
      shares words with the target's complement but not its head: the complement is another
      thing ("anemia", "iron deficiency anemia" for "sources of anemia"); ``ignore``: words that
      never count as shared (size, side and time modifiers, function words), nor do site words;
    - ``organ``: it names a body site and says nothing else (its other words are ``ignore`` or
      :data:`EMPTY_WORDS`: "your lungs look normal", "left wrist"), or it names a site the target
      does not (by its words or its ``sites``) and is not :data:`ORGAN_MARGIN` more similar to the target than the site words
      alone ("thyroid gland" for hypothyroidism);
    - ``anatomy``: the target names body sites and the phrase's sentence names others only;
    - ``rival``: another source target of the document is more similar to it (mutual best).
    """
    words = cand.words
    if any(w in nonfinding_words() for w in words):
        return "nonfinding"
    if not target.past and any(w in history for w in words):
        return "history"
    organs = frozenset(cand.organ_words)
    if target.of_phrase and not target.head_generic and target.head not in PARTITIVE_HEADS:
        own = [t for t in target.words if t not in ignore and t not in organs and t != target.head]
        shared = [w for w in words if w not in ignore and w not in organs and any(_stem_shared(w, t) for t in own)]
        if shared and not any(_stem_shared(w, target.head) for w in words):
            return "qualifier"
    if organs:
        if all(w in organs or w in ignore or w in EMPTY_WORDS for w in words):
            return "organ"
        if (
            cand.organ_score is not None
            and not organs & set(target.words)
            and not cand.organ_sites & target.sites
            and cand.score < cand.organ_score + ORGAN_MARGIN
        ):
            return "organ"
    if target.sites and cand.sentence_sites and not (cand.sentence_sites & target.sites):
        return "anatomy"
    if cand.rival is not None and cand.rival_score > cand.score + RIVAL_MARGIN:
        return "rival"
    return None


def semantic_confidence(score: float, n_words: int) -> float:
    """How much to trust a semantic match that passed the guards: 0.6 at the threshold (60),
    rising to 0.69 at similarity 85; phrases of one or two words 0.05 less. Calibrated on the
    held-out probes (docs/scoring.md): 9 of the 10 guarded semantic matches were right, whose 95%
    Wilson lower bound is 0.60; always below ``LOW_CONFIDENCE`` (0.7), so every semantic match is
    listed for checking."""
    base = 0.6 + 0.09 * max(0.0, min(1.0, (score - 60.0) / 25.0))
    if n_words <= 2:
        base -= 0.05
    return round(base, 2)


def passing(
    cands: Sequence[SemanticCandidate],
    target: SemanticTarget,
    *,
    ignore: frozenset[str] = frozenset(),
    history: frozenset[str] = frozenset(),
) -> list[SemanticCandidate]:
    """The candidates :func:`reject_reason` lets through, in order."""
    return [c for c in cands if reject_reason(c, target, ignore=ignore, history=history) is None]
