"""Concept linking (paper section 3.1, steps 2a–2c): refine raw targets to vocabulary concepts.

For each sentence that holds at least one cue–target pair, QuickUMLS (medSpaCy's
``medspacy_quickumls``) proposes concept candidates, and the curated abbreviation table adds exact,
case-sensitive abbreviation matches ("PNA", "PE", "CHF"). Every candidate near a pair's raw target
is scored::

    score = 0.45 * overlap      # share of the candidate span inside the raw target span
          + 0.15 * coverage     # share of the raw target span covered by the candidate
          + 0.15 * proximity    # exp(-gap / 50), gap = characters between cue and candidate
          + 0.10 * direction    # 1 if the candidate lies on the cue's side (after a forward cue)
          + 0.15 * similarity   # QuickUMLS string similarity (1.0: exact and abbreviation matches)

A generic head ("disease", "process", "infection", …) that covers under 80 % of the raw target
scores half. If the best score reaches the threshold (0.6), the candidate's span and concept replace
the raw target; otherwise the raw target stays, ``link_score`` keeps the best score and
``needs_review`` is set, but only if there was a candidate at all (an abbreviation the vocabulary
does not know is not an error). Nothing here touches the network: the NLTK stopword list that
QuickUMLS wants is shipped in ``cuelex/data/stopwords_english.txt`` and handed to it while the
matcher is constructed.

Usage::

    from cuelex.linking import Linker
    linker = Linker()                      # open vocabulary, index built on first use
    linked = linker.link(text, pairs)      # list[CueTargetPair], same order
"""

from __future__ import annotations

import logging
import math
import os
import re
import sys
import threading
import types
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._memo import BoundedMemo
from ..errors import CuelexError
from ..records import CueTargetPair, Direction
from .index import IndexData, load_index, resolve_vocabulary
from .vocab import read_stopwords

__all__ = [
    "DEFAULT_THRESHOLD",
    "ConceptMatch",
    "Linker",
    "LinkingError",
    "quickumls_stopwords",
]

log = logging.getLogger(__name__)

DEFAULT_THRESHOLD = 0.6
DEFAULT_MATCH_THRESHOLD = 0.8  # QuickUMLS jaccard similarity floor for fuzzy string matches

W_OVERLAP = 0.45
W_COVERAGE = 0.15
W_PROXIMITY = 0.15
W_DIRECTION = 0.10
W_SIMILARITY = 0.15
PROXIMITY_SCALE = 50.0  # characters
NEIGHBOURHOOD = 20  # a candidate not overlapping the raw target must be this close to it
GENERIC_PENALTY = 0.5
GENERIC_MIN_COVERAGE = 0.8
GENERIC_HEADS = frozenset(
    {
        "disease", "diseases", "disorder", "disorders", "syndrome", "condition", "conditions",
        "abnormality", "abnormalities", "finding", "findings", "process", "processes", "change",
        "changes", "problem", "problems", "pathology",
    }
)  # fmt: skip
#: Between a raw target and a neighbouring candidate, these mark another list item or clause.
_SEPARATOR_RE = re.compile(
    r"[,;:.()\[\]/]|\b(?:and|or|nor|versus|vs|but|with|without|than)\b", re.I
)

_DET = ["a", "an", "the", "this", "that", "these", "those", "any", "some", "no", "each", "every"]
_ADP = [
    "of", "in", "on", "at", "by", "for", "with", "from", "to", "into", "within", "without",
    "versus", "vs", "over", "under", "between", "about", "than", "per", "via", "along", "near",
    "around", "after", "before", "during", "throughout", "like", "as",
]  # fmt: skip
_CONJ = ["and", "or", "nor", "but", "either", "neither"]

_TOKEN_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9+]*(?:['\u2019-][A-Za-z0-9+]+)*")
_TOKEN_CHAR = re.compile(r"[A-Za-z0-9+'\u2019-]")  # every character a _TOKEN_RE match can hold
_TOKEN_ATTRS = ["ORTH", "IDX", "LENGTH", "SPACY"]  # what ``_zone_ngrams`` reads of each token


class LinkingError(CuelexError, ValueError):
    """A pair does not fit the text it is linked against (offsets or strings disagree)."""


@dataclass(frozen=True)
class ConceptMatch:
    """A concept candidate: a span of the original text and the vocabulary concept it names."""

    start: int
    end: int
    text: str
    concept_id: str  # UMLS CUI, or a cuelex id (CLX:...) for open-vocabulary concepts without one
    preferred_name: str
    semantic_types: tuple[str, ...]
    similarity: float
    matched_term: str
    method: str  # "quickumls" or "abbreviation"


# --------------------------------------------------------------------------------------------------
# QuickUMLS without NLTK downloads
# --------------------------------------------------------------------------------------------------

_QUICKUMLS_LOCK = threading.Lock()


class _NoDownload:
    def __call__(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError("cuelex never downloads NLTK data; the stopword list ships with cuelex")


def _nltk_shim(words: list[str]) -> types.SimpleNamespace:
    def words_fn(language: str | None = None) -> list[str]:
        if language not in (None, "english"):
            raise LookupError(f"cuelex ships only the English stopword list, not {language!r}")
        return list(words)

    stopwords = types.SimpleNamespace(words=words_fn)
    return types.SimpleNamespace(
        corpus=types.SimpleNamespace(stopwords=stopwords), download=_NoDownload()
    )


def quickumls_stopwords() -> list[str]:
    """The English stopword list cuelex gives QuickUMLS (NLTK's list, shipped as a data file)."""
    return read_stopwords()


def _open_quickumls(path: Path, **kwargs: Any) -> Any:
    """Construct ``quickumls.QuickUMLS`` with cuelex's stopwords and no spaCy model.

    QuickUMLS reads NLTK stopwords in its constructor (and downloads them if missing). For the
    duration of the constructor only, the ``nltk`` name inside ``quickumls.core`` points to a
    stand-in that serves the shipped list and refuses to download; the real module is put back
    afterwards.
    """
    import quickumls.core as core

    shim = _nltk_shim(read_stopwords())
    with _QUICKUMLS_LOCK:
        saved = core.nltk
        core.nltk = shim  # type: ignore[assignment]
        try:
            return core.QuickUMLS(str(path), spacy_component=True, **kwargs)
        finally:
            core.nltk = saved


def _make_nlp() -> Any:
    """A blank English spaCy pipeline (no model download) whose function words carry POS tags.

    QuickUMLS uses POS to keep determiners, prepositions and conjunctions out of span edges.
    """
    import spacy

    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add(patterns=[[{"LOWER": {"IN": _DET}}]], attrs={"POS": "DET"})
    ruler.add(patterns=[[{"LOWER": {"IN": _ADP}}]], attrs={"POS": "ADP"})
    ruler.add(patterns=[[{"LOWER": {"IN": _CONJ}}]], attrs={"POS": "CONJ"})
    return nlp


_POS_OF = {w: pos for words, pos in ((_DET, "DET"), (_ADP, "ADP"), (_CONJ, "CONJ")) for w in words}


def _tagged(nlp: Any, text: str) -> Any:
    """``nlp(text)`` for the pipeline of ``_make_nlp``: its tokens, function words tagged, without
    running the attribute ruler's matcher (a test checks that the tags are the same)."""
    doc = nlp.make_doc(text)
    for tok in doc:
        pos = _POS_OF.get(tok.lower_)
        if pos is not None:
            tok.pos_ = pos
    return doc


# --------------------------------------------------------------------------------------------------
# The linker
# --------------------------------------------------------------------------------------------------


class Linker:
    """Links cue–target pairs to vocabulary concepts. Picklable: it stores paths and settings and
    opens the QuickUMLS matcher lazily (again after unpickling).

    Parameters
    ----------
    vocabulary:
        None (or "open") for the open vocabulary shipped with cuelex, whose index is built on
        first use into the cache; or the directory written by
        ``cuelex vocab build --umls META --out DIR``.
    threshold:
        minimum score for a candidate to replace the raw target (default 0.6).
    match_threshold:
        QuickUMLS similarity floor for fuzzy string matches (default 0.8, jaccard on 3-grams).
    semantic_types:
        keep only concepts with one of these TUIs (None: all).
    cache_dir:
        where the open index is built (default ``$CUELEX_CACHE_DIR`` or ``~/.cache/cuelex``).
    max_window_chars:
        sentences longer than this are matched only around their pairs (± ``context_chars``).
    """

    def __init__(
        self,
        vocabulary: str | os.PathLike[str] | None = None,
        *,
        threshold: float = DEFAULT_THRESHOLD,
        match_threshold: float = DEFAULT_MATCH_THRESHOLD,
        semantic_types: Sequence[str] | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
        window: int = 5,
        max_window_chars: int = 300,
        context_chars: int = 60,
    ) -> None:
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"threshold must be within [0, 1], got {threshold!r}")
        if not 0.0 < match_threshold <= 1.0:
            raise ValueError(f"match_threshold must be within (0, 1], got {match_threshold!r}")
        if window < 1:
            raise ValueError(f"window must be a positive number of tokens, got {window!r}")
        self.vocabulary = None if vocabulary is None else str(vocabulary)
        self.threshold = float(threshold)
        self.match_threshold = float(match_threshold)
        self.semantic_types = None if semantic_types is None else tuple(semantic_types)
        self.cache_dir = None if cache_dir is None else str(cache_dir)
        self.window = int(window)
        self.max_window_chars = int(max_window_chars)
        self.context_chars = int(context_chars)
        self._path: Path | None = None
        if self.vocabulary not in (None, "open"):
            self._path = resolve_vocabulary(self.vocabulary)  # fail fast on a bad directory
        self._index: IndexData | None = None
        self._matcher: Any = None
        self._nlp: Any = None
        # candidates of a window depend on its text alone: segment -> candidates at offset 0
        self._memo: BoundedMemo[str, list[ConceptMatch]] = BoundedMemo(_MEMO_MAX_ENTRIES)
        # QuickUMLS token tests (and "is a determiner") per lexeme
        self._flags: BoundedMemo[int, tuple[bool, bool, bool, bool]] = BoundedMemo(
            8 * _MEMO_MAX_ENTRIES
        )
        # how a window's pairs link depends on its text and their zones alone (see ``link``)
        self._links: BoundedMemo[tuple, dict[tuple, _Outcome]] = BoundedMemo(_MEMO_MAX_ENTRIES)
        # QuickUMLS's matches of an n-gram depend on its string alone
        self._ngrams: BoundedMemo[str, tuple[_NgramMatch, ...]] = BoundedMemo(8 * _MEMO_MAX_ENTRIES)
        # a token's abbreviation matches depend on its string alone
        self._abbrev: BoundedMemo[str, tuple] = BoundedMemo(8 * _MEMO_MAX_ENTRIES)

    # -- pickling: settings only -------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        for k in ("_index", "_matcher", "_nlp"):
            state[k] = None
        state["_memo"] = BoundedMemo(_MEMO_MAX_ENTRIES)
        state["_flags"] = BoundedMemo(8 * _MEMO_MAX_ENTRIES)
        state["_links"] = BoundedMemo(_MEMO_MAX_ENTRIES)
        state["_ngrams"] = BoundedMemo(8 * _MEMO_MAX_ENTRIES)
        state["_abbrev"] = BoundedMemo(8 * _MEMO_MAX_ENTRIES)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state.setdefault("_memo", BoundedMemo(_MEMO_MAX_ENTRIES))
        state.setdefault("_flags", BoundedMemo(8 * _MEMO_MAX_ENTRIES))
        state.setdefault("_links", BoundedMemo(_MEMO_MAX_ENTRIES))
        state.setdefault("_ngrams", BoundedMemo(8 * _MEMO_MAX_ENTRIES))
        state.setdefault("_abbrev", BoundedMemo(8 * _MEMO_MAX_ENTRIES))
        self.__dict__.update(state)

    def __repr__(self) -> str:
        return (
            f"Linker(vocabulary={self.vocabulary!r}, threshold={self.threshold}, "
            f"match_threshold={self.match_threshold})"
        )

    # -- lazy resources ---------------------------------------------------------------------
    @property
    def index_path(self) -> Path:
        """The index directory in use (builds the open index on first access if needed)."""
        if self._path is None:
            if self.vocabulary is None:
                log.info("cuelex: opening the open-vocabulary concept index (built on first use)")
            self._path = resolve_vocabulary(self.vocabulary, self.cache_dir)
        return self._path

    @property
    def index(self) -> IndexData:
        if self._index is None:
            self._index = load_index(self.index_path)
        return self._index

    def _ensure_matcher(self) -> None:
        if self._matcher is None:
            self._matcher = _open_quickumls(
                self.index_path,
                overlapping_criteria="score",
                threshold=self.match_threshold,
                window=self.window,
                similarity_name="jaccard",
                min_match_length=3,
                accepted_semtypes=None if self.semantic_types is None else set(self.semantic_types),
            )
            # the same n-grams recur across windows: their string look-ups are pure, so memoise
            self._matcher.ss_db = _MemoReader(self._matcher.ss_db)
            self._matcher.cuisem_db = _MemoReader(self._matcher.cuisem_db)
        if self._nlp is None:
            self._nlp = _make_nlp()

    def warm(self) -> Linker:
        """Open (and if needed build) everything now instead of on the first call; returns self."""
        self._ensure_matcher()
        _ = self.index
        return self

    def clear_memo(self) -> None:
        """Forget memoised window candidates and look-ups (benchmarks clear it to time cold passes)."""
        self._memo.clear()
        self._flags.clear()
        self._links.clear()
        self._ngrams.clear()
        self._abbrev.clear()
        if self._matcher is not None:
            for db in (self._matcher.ss_db, self._matcher.cuisem_db):
                if isinstance(db, _MemoReader):
                    db.memo.clear()

    # -- candidates ---------------------------------------------------------------------------
    def candidates(self, text: str, start: int = 0, end: int | None = None) -> list[ConceptMatch]:
        """All concept candidates in ``text[start:end]`` (offsets into ``text``), overlapping."""
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        end = len(text) if end is None else end
        if not 0 <= start <= end <= len(text):
            raise ValueError(f"window [{start}, {end}) is outside the text (length {len(text)})")
        return self._candidates(text, start, end)

    def _candidates(self, text: str, start: int, end: int) -> list[ConceptMatch]:
        """``candidates``: QuickUMLS's ``_match(doc, best_match=False, ignore_syntax=False)`` on
        the window plus the abbreviations, one candidate per (span, concept), memoised per window
        text."""
        self._ensure_matcher()
        segment = text[start:end]
        found = self._memo.get(segment)
        if found is not None:  # the same window text: the same candidates, moved
            return [_moved_match(c, start) for c in found] if start else list(found)
        out: list[ConceptMatch] = []
        if segment.strip():
            doc = _tagged(self._nlp, segment)
            groups = self._matcher._get_all_matches(self._matcher._make_ngrams(doc))
            for group in groups:
                for m in group:
                    cm = self._to_match(text, start + m["start"], start + m["end"], m)
                    if cm is not None:
                        out.append(cm)
            out.extend(self._abbreviations(text, start, end))
        # one candidate per (span, concept): the most similar
        best: dict[tuple[int, int, str], ConceptMatch] = {}
        for c in out:
            k = (c.start, c.end, c.concept_id)
            if k not in best or c.similarity > best[k].similarity:
                best[k] = c
        result = sorted(best.values(), key=lambda c: (c.start, -(c.end - c.start), c.concept_id))
        if len(segment) <= _MEMO_MAX_CHARS:
            self._memo.put(segment, [_moved_match(c, -start) for c in result])
        return result

    def _window_outcomes(
        self, text: str, start: int, end: int, zones: tuple[_Zone, ...]
    ) -> dict[_Zone, _Outcome]:
        """How each pair of a window links (``_outcome`` over the window's candidates), from the
        QuickUMLS candidates that can decide it: ``score`` accepts them for the pair and their best
        possible score is not below a score already found for it.

        ``zones`` are the window's pairs as cue start, cue end, target start, target end (offsets
        into the window) and direction. The candidates are kept as plain tuples, deduplicated per
        (span, concept) as ``candidates`` does, and each pair's best is chosen with ``_outcome``'s
        order; a candidate's score is ``_score``'s, its span-dependent part computed once per span
        and pair (``_score_base``).
        """
        self._ensure_matcher()
        segment = text[start:end]
        size = len(segment)
        if not all(
            0 <= z[0] <= size and 0 <= z[1] <= size and 0 <= z[2] <= size and 0 <= z[3] <= size
            for z in zones
        ):
            # (windows always hold their pairs; if not, score every candidate of the window)
            cands = self._candidates(text, start, end)
            return {
                z: self._best_of(
                    text,
                    (z[0] + start, z[1] + start, z[2] + start, z[3] + start, Direction(z[4])),
                    cands,
                    start,
                )
                for z in zones
            }
        if not segment.strip():
            return {z: None for z in zones}
        pairs = [(z[0], z[1], z[2], z[3], _DIRECTION_OF[z[4]]) for z in zones]
        zone = tuple((z[2] - NEIGHBOURHOOD, z[3] + NEIGHBOURHOOD) for z in zones)
        # an abbreviation away from every zone is a candidate for no pair (``_eligible``)
        abbreviations = self._abbreviation_hits(
            text, *_token_bounds(text, start, end, start + min(lo for lo, _ in zone),
                                 start + max(hi for _, hi in zone))
        )  # fmt: skip
        ngrams, text_of = _zone_ngrams(
            self._matcher, self._nlp.make_doc(segment), segment, zone, self._flags
        )
        npairs = len(pairs)
        best: list[float | None] = [None] * npairs
        # (span start, span end, pair) -> ``_score_base`` (None: not a candidate for the pair)
        bases: dict[tuple[int, int, int], tuple[float, bool] | None] = {}

        def base(cs: int, ce: int, k: int) -> tuple[float, bool] | None:
            key = (cs, ce, k)
            got = bases.get(key, _UNSEEN)
            if got is _UNSEEN:
                qs, qe, ts, te, d = pairs[k]
                got = bases[key] = _score_base(
                    cs, ce, segment[cs:ce], qs, qe, ts, te, d, segment
                )
            return got  # type: ignore[return-value]

        def score(cs: int, ce: int, k: int, similarity: float) -> float | None:
            # a candidate for a pair overlaps its target or lies within NEIGHBOURHOOD of it
            p = pairs[k]
            if cs > p[3] + NEIGHBOURHOOD or ce < p[2] - NEIGHBOURHOOD:
                return None
            bs = base(cs, ce, k)
            return None if bs is None else _finish_score(bs, similarity)

        def found(cs: int, ce: int, similarity: float) -> None:
            for k in range(npairs):
                sc = score(cs, ce, k, similarity)
                if sc is not None and (best[k] is None or sc > best[k]):
                    best[k] = sc

        abbrev_cands = []
        for s, e, cid, preferred, stys, _term in abbreviations:
            abbrev_cands.append((s - start, e - start, cid, preferred, stys, 1.0))
            found(s - start, e - start, 1.0)
        kept: dict[int, tuple[_NgramMatch, ...]] = {}
        looked: set[int] = set()
        # n-gram starts never decrease (``_zone_ngrams`` makes them token by token): the n-grams
        # that start after a pair's reach are a tail of the list, cut off by bisection
        ng_starts = [t[0] for t in ngrams]
        ng_ends = [t[1] for t in ngrams]
        # the bound's terms as ``_score`` adds them (same operations in the same order)
        w_overlap, w_coverage = W_OVERLAP, W_COVERAGE
        w_proximity, w_direction, w_similarity = W_PROXIMITY * 1.0, W_DIRECTION * 1.0, W_SIMILARITY * 1.0
        for k, (qs, qe, ts, te, d) in enumerate(pairs):
            # the n-grams near this pair's target, by the cheap bound of their score (highest
            # first, ties in n-gram order): once it falls below the best score found for the pair,
            # no later n-gram can decide the pair's link
            # (the bound before ``_score``'s rounding: rounding keeps the order)
            tl = max(1, te - ts)
            near = []
            apart = []  # n-grams near the target that do not overlap it: the lowest bound, all tied
            reach_lo, reach_hi = ts - NEIGHBOURHOOD, te + NEIGHBOURHOOD
            for g in range(bisect_right(ng_starts, reach_hi)):
                b = ng_ends[g]
                if b < reach_lo:
                    continue
                a = ng_starts[g]
                inter = (b if b < te else te) - (a if a > ts else ts)
                if inter <= 0:
                    apart.append(g)
                    continue
                near.append(
                    (
                        -(
                            w_overlap * (inter / (b - a if b - a > 1 else 1))
                            + w_coverage * (inter / tl)
                            + w_proximity
                            + w_direction
                            + w_similarity
                        ),
                        g,
                    )
                )
            near.sort()
            if apart:
                # (their bound, below every overlapping n-gram's; in n-gram order, as a sort keeps
                # ties)
                floor = -(W_PROXIMITY * 1.0 + W_DIRECTION * 1.0 + W_SIMILARITY * 1.0)
                near.extend((floor, g) for g in apart)
            for neg_ceiling, g in near:
                low = best[k]
                if low is not None and round(-neg_ceiling, 4) < low:
                    break
                if g in looked:
                    continue
                a, b, i, j = ngrams[g]
                bs = base(a, b, k)
                if bs is None:
                    continue  # not a candidate for this pair
                if low is not None and round(bs[0] + W_SIMILARITY * 1.0, 4) < low:
                    continue  # cannot reach its best score (similarity 1, no generic penalty)
                looked.add(g)
                matches = self._ngram_matches(text_of(i, j))
                if matches:
                    kept[g] = matches
                    found(a, b, max(m[3] for m in matches))
        # the candidates in ``candidates``'s order before deduplication (n-grams in order, then
        # abbreviations), one per (span, concept): the first of the most similar
        dedup: dict[tuple[int, int, str], tuple[str, tuple[str, ...], float]] = {}
        for g in sorted(kept):
            a, b = ngrams[g][0], ngrams[g][1]
            for cid, preferred, stys, similarity, _term in kept[g]:
                key = (a, b, cid)
                if key not in dedup or similarity > dedup[key][2]:
                    dedup[key] = (preferred, stys, similarity)
        for cs, ce, cid, preferred, stys, similarity in abbrev_cands:
            key = (cs, ce, cid)
            if key not in dedup or similarity > dedup[key][2]:
                dedup[key] = (preferred, stys, similarity)
        outcomes: dict[_Zone, _Outcome] = {}
        for k, z in enumerate(zones):
            top: tuple[float, int, int, str, str, tuple[str, ...]] | None = None
            for (cs, ce, cid), (preferred, stys, similarity) in dedup.items():
                sc = score(cs, ce, k, similarity)
                if sc is None:
                    continue
                # ``_outcome``'s order: higher score, longer span, earlier start, smaller id
                if (
                    top is None
                    or sc > top[0]
                    or (
                        sc == top[0]
                        and (
                            ce - cs > top[2] - top[1]
                            or (
                                ce - cs == top[2] - top[1]
                                and (cs < top[1] or (cs == top[1] and cid < top[3]))
                            )
                        )
                    )
                ):
                    top = (sc, cs, ce, cid, preferred, stys)
            if top is None:
                outcomes[z] = None
            elif top[0] >= self.threshold:
                outcomes[z] = (top[0], (top[1], top[2], top[3], top[4], tuple(top[5])))
            else:
                outcomes[z] = (top[0], None)
        return outcomes

    def _to_match(self, text: str, s: int, e: int, m: dict[str, Any]) -> ConceptMatch | None:
        cid = str(m["cui"])
        concept = self.index.concept(cid)
        stys = concept.semantic_types if concept else tuple(sorted(m.get("semtypes") or ()))
        if self.semantic_types is not None and not set(stys) & set(self.semantic_types):
            return None
        return ConceptMatch(
            start=s,
            end=e,
            text=text[s:e],
            concept_id=cid,
            preferred_name=concept.preferred_name if concept else str(m.get("term", text[s:e])),
            semantic_types=stys,
            similarity=float(m["similarity"]),
            matched_term=str(m.get("term", "")),
            method="quickumls",
        )

    def _ngram_matches(self, ngram: str) -> tuple[_NgramMatch, ...]:
        """QuickUMLS's matches of one n-gram string (``_get_all_matches``, in its order) that
        ``_to_match`` keeps, as (concept id, preferred name, semantic types, similarity, term):
        a function of the string alone, memoised."""
        found = self._ngrams.get(ngram)
        if found is None:
            matcher = self._matcher
            if not matcher.ss_db.get(_quickumls_key(matcher, ngram)):
                # most n-grams name nothing: QuickUMLS would return no group for them
                return self._ngrams.put(ngram, ())
            out = []
            for group in self._matcher._get_all_matches([(0, len(ngram), ngram)]):
                for m in group:
                    cm = self._to_match(ngram, 0, len(ngram), m)
                    if cm is not None:
                        out.append(
                            (cm.concept_id, cm.preferred_name, cm.semantic_types, cm.similarity,
                             cm.matched_term)
                        )  # fmt: skip
            found = self._ngrams.put(ngram, tuple(out))
        return found

    def _abbreviations(self, text: str, start: int, end: int) -> list[ConceptMatch]:
        """The abbreviation table's exact, case-sensitive matches of the tokens in
        ``text[start:end]`` (a hyphenated token also by its parts), with similarity 1."""
        out: list[ConceptMatch] = []
        for s, e, cid, preferred, stys, term in self._abbreviation_hits(text, start, end):
            out.append(
                ConceptMatch(
                    start=s,
                    end=e,
                    text=text[s:e],
                    concept_id=cid,
                    preferred_name=preferred,
                    semantic_types=stys,
                    similarity=1.0,
                    matched_term=term,
                    method="abbreviation",
                )
            )
        return out

    def _abbreviation_hits(
        self, text: str, start: int, end: int
    ) -> list[tuple[int, int, str, str, tuple[str, ...], str]]:
        """``_abbreviations`` as (start, end, concept id, preferred name, semantic types, matched
        term); what a token gives depends on its string alone and is memoised per token."""
        table = self.index.abbreviations
        if not table:
            return []
        memo = self._abbrev
        out = []
        for tok in _TOKEN_RE.finditer(text, start, end):
            whole = tok.group()
            hits = memo.get(whole)
            if hits is None:
                hits = memo.put(whole, self._token_abbreviations(table, whole))
            if hits:
                t0 = tok.start()
                for offset, length, cid, preferred, stys, term in hits:
                    out.append((t0 + offset, t0 + offset + length, cid, preferred, stys, term))
        return out

    def _token_abbreviations(
        self, table: dict[str, str], whole: str
    ) -> tuple[tuple[int, int, str, str, tuple[str, ...], str], ...]:
        """The abbreviation matches of one token as (offset in the token, length, concept id,
        preferred name, semantic types, matched term)."""
        pieces = [(0, whole)]
        if "-" in whole and whole not in table:
            pos = 0
            for part in whole.split("-"):
                pieces.append((pos, part))
                pos += len(part) + 1
        out = []
        for offset, word in pieces:
            cid, length = _lookup_abbreviation(table, word)
            if cid is None:
                continue
            concept = self.index.concept(cid)
            stys = concept.semantic_types if concept else ()
            if self.semantic_types is not None and not set(stys) & set(self.semantic_types):
                continue
            preferred = concept.preferred_name if concept else word
            out.append((offset, length, cid, preferred, stys, word[:length]))
        return tuple(out)

    def concept_of(self, phrase: str, min_coverage: float = 0.5) -> ConceptMatch | None:
        """The concept a short phrase names ("PNA", "bilateral pleural effusions"), or None.

        Chooses the candidate covering most of the phrase (ties: more similar, earlier); None when
        no candidate covers at least ``min_coverage`` of the phrase's non-space characters.
        """
        text = phrase.strip()
        if not text:
            return None
        best: tuple[tuple[float, float, int], ConceptMatch] | None = None
        length = len(text.replace(" ", ""))
        for c in self.candidates(text):
            cov = len(c.text.replace(" ", "")) / length
            if cov < min_coverage:
                continue
            key = (cov, c.similarity, -c.start)
            if best is None or key > best[0]:
                best = (key, c)
        return best[1] if best else None

    # -- scoring ---------------------------------------------------------------------------------
    def score(
        self, pair: CueTargetPair, cand: ConceptMatch, text: str | None = None
    ) -> float | None:
        """Score of ``cand`` as the target of ``pair``; None when it is not a candidate for it.

        A candidate overlapping the cue is never one. A candidate not overlapping the raw target is
        one only within ``NEIGHBOURHOOD`` characters of it, on the same side of the cue, and (when
        ``text`` is given) with no list or clause separator ("," "or" "with" …) in between.
        """
        return _score(
            cand.start,
            cand.end,
            cand.text,
            cand.similarity,
            pair.cue_start,
            pair.cue_end,
            pair.target_start,
            pair.target_end,
            pair.direction,
            text,
        )

    # -- linking -----------------------------------------------------------------------------------
    def link(self, text: str, pairs: Sequence[CueTargetPair]) -> list[CueTargetPair]:
        """Return the pairs (same order) with targets refined to concepts where the score allows.

        Linked pairs get the concept's span as ``target_text``/``target_start``/``target_end``,
        the old target in ``raw_target_text``, and ``cui`` (a UMLS CUI or a cuelex id),
        ``preferred_name``, ``semantic_types`` and ``link_score``. Unlinked pairs keep their span;
        ``link_score`` is the best score (None without candidates) and ``needs_review`` is set
        when candidates existed but all scored below the threshold. Raises
        :class:`LinkingError` when a pair's offsets do not index ``text``.
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        pairs = list(pairs)
        for i, p in enumerate(pairs):
            _check_pair(text, p, i)
        return self._link_checked(text, pairs)

    def _link_checked(self, text: str, pairs: list[CueTargetPair]) -> list[CueTargetPair]:
        """``link`` for pairs whose offsets and strings are known to index ``text`` (``link``
        has checked them, or the engine has just extracted them from it)."""
        if not pairs:
            return []
        windows = self._windows(text, pairs)
        # A candidate scores for a pair only where ``_eligible`` says so (near the raw target,
        # off the cue): only those of each window are looked up.
        zones: dict[tuple[int, int], set[_Zone]] = {}
        own: list[_Zone] = []
        for w, p in zip(windows, pairs):
            d = p.__dict__  # (the fields, read once; a pair's fields are plain attributes)
            w0 = w[0]
            z = (
                d["cue_start"] - w0,
                d["cue_end"] - w0,
                d["target_start"] - w0,
                d["target_end"] - w0,
                d["direction"]._value_,
            )
            own.append(z)
            got_zones = zones.get(w)
            if got_zones is None:
                zones[w] = {z}
            else:
                got_zones.add(z)
        # How a pair links depends on its window's text and its zone alone (``score`` reads the
        # text between a candidate and the target, both inside the window), and which candidates
        # are looked up on the window's zones: the outcomes are memoised on exactly that.
        # (Windows in the order of their first pair, as the pairs meet them.)
        outcomes: dict[tuple[int, int], dict[_Zone, _Outcome]] = {}
        links = self._links
        for w, zs in zones.items():
            key = (text[w[0] : w[1]], tuple(sorted(zs)) if len(zs) > 1 else tuple(zs))
            got = links.get(key)
            if got is None:
                got = self._window_outcomes(text, w[0], w[1], key[1])
                if w[1] - w[0] <= _MEMO_MAX_CHARS:
                    links.put(key, got)
            outcomes[w] = got
        out: list[CueTargetPair] = []
        for w, z, p in zip(windows, own, pairs):
            outcome = outcomes[w][z]
            out.append(p if outcome is None else _apply(text, p, outcome, w[0]))
        return out

    def _windows(self, text: str, pairs: list[CueTargetPair]) -> list[tuple[int, int]]:
        """Window matched per pair: its sentence, or the part of a long sentence near its pairs."""
        by_sentence: dict[tuple[int, int], list[int]] = {}
        n = len(text)
        for i, p in enumerate(pairs):
            d = p.__dict__  # (the fields, read once; ``min``/``max`` as conditional expressions)
            s, qs, ts = d["sentence_start"], d["cue_start"], d["target_start"]
            if qs < s:
                s = qs
            if ts < s:
                s = ts
            e, qe, te = d["sentence_end"], d["cue_end"], d["target_end"]
            if qe > e:
                e = qe
            if te > e:
                e = te
            key = (s, e if e < n else n)
            idxs = by_sentence.get(key)
            if idxs is None:
                by_sentence[key] = [i]
            else:
                idxs.append(i)
        if len(by_sentence) == 1 and len(pairs) == 1:
            ((s, e),) = by_sentence
            if e - s <= self.max_window_chars:
                return [(s, e)]
        result: list[tuple[int, int]] = [(0, 0)] * len(pairs)
        for (s, e), idxs in by_sentence.items():
            if e - s <= self.max_window_chars:
                w = (s, e)
                for i in idxs:
                    result[i] = w
                continue
            lo = (
                min(min(pairs[i].cue_start, pairs[i].target_start) for i in idxs)
                - self.context_chars
            )
            hi = max(max(pairs[i].cue_end, pairs[i].target_end) for i in idxs) + self.context_chars
            lo, hi = max(s, lo), min(e, hi)
            while lo > s and not text[lo - 1].isspace():
                lo -= 1
            while hi < e and not text[hi].isspace():
                hi += 1
            for i in idxs:
                result[i] = (lo, hi)
        return result

    def _link_one(self, text: str, pair: CueTargetPair, cands: list[ConceptMatch]) -> CueTargetPair:
        return _apply(text, pair, self._outcome(text, pair, cands, 0), 0)

    def _outcome(
        self, text: str, pair: CueTargetPair, cands: list[ConceptMatch], origin: int
    ) -> _Outcome:
        """How ``pair`` links given the candidates of its window (which starts at ``origin``):
        None without a candidate for it, else the best score and the best candidate (offsets from
        ``origin``, concept id, preferred name, semantic types), or None in its place when the
        best score is below the threshold."""
        return self._best_of(
            text,
            (pair.cue_start, pair.cue_end, pair.target_start, pair.target_end, pair.direction),
            cands,
            origin,
        )

    def _best_of(
        self,
        text: str,
        pair: tuple[int, int, int, int, Direction],
        cands: list[ConceptMatch],
        origin: int,
    ) -> _Outcome:
        """``_outcome`` for a pair given as cue start, cue end, target start, target end (offsets
        into ``text``) and direction."""
        scored: list[tuple[float, ConceptMatch]] = []
        for c in cands:
            sc = _score(c.start, c.end, c.text, c.similarity, *pair, text)
            if sc is not None:
                scored.append((sc, c))
        if not scored:
            return None
        scored.sort(key=lambda x: (-x[0], -(x[1].end - x[1].start), x[1].start, x[1].concept_id))
        best_score, best = scored[0]
        if best_score >= self.threshold:
            return best_score, (
                best.start - origin,
                best.end - origin,
                best.concept_id,
                best.preferred_name,
                tuple(best.semantic_types),
            )
        return best_score, None


#: a pair as its window sees it: cue start, cue end, target start, target end (offsets into the
#: window) and direction
_Zone = tuple[int, int, int, int, str]
#: a link decision (``Linker._outcome``)
_Outcome = tuple[float, tuple[int, int, str, str, tuple[str, ...]] | None] | None
#: an n-gram's match: concept id, preferred name, semantic types, similarity, matched term
_NgramMatch = tuple[str, str, tuple[str, ...], float, str]


def _apply(text: str, pair: CueTargetPair, outcome: _Outcome, origin: int) -> CueTargetPair:
    """``pair`` linked as ``outcome`` says (its offsets from ``origin``), or unchanged.

    ``_updated`` with the update written straight into the copied ``__dict__`` (no update dict,
    no second call): the same field values in the same order and the same set of fields."""
    if outcome is None:
        return pair
    if type(pair) is not CueTargetPair or pair.__pydantic_extra__ or pair.__pydantic_private__:
        return _updated(pair, _update_of(text, pair, outcome, origin))
    data = pair.__dict__.copy()
    best_score, best = outcome
    if best is None:
        data["link_score"] = best_score
        data["needs_review"] = True
        keys = _REVIEW_KEYS
    else:
        s, e = best[0] + origin, best[1] + origin
        if data["raw_target_text"] is None:
            data["raw_target_text"] = data["target_text"]
        data["target_text"] = text[s:e]
        data["target_start"] = s
        data["target_end"] = e
        data["cui"] = best[2]
        data["preferred_name"] = best[3]
        data["semantic_types"] = best[4]
        data["link_score"] = best_score
        keys = _LINK_KEYS
    inst = _new_pair(CueTargetPair)
    _object_setattr(inst, "__dict__", data)
    _object_setattr(inst, "__pydantic_fields_set__", pair.__pydantic_fields_set__ | keys)
    _object_setattr(inst, "__pydantic_extra__", None)
    _object_setattr(inst, "__pydantic_private__", None)
    return inst


def _update_of(text: str, pair: CueTargetPair, outcome: _Outcome, origin: int) -> dict[str, Any]:
    """The fields ``_apply`` changes for a (not None) ``outcome``, as a ``model_copy`` update."""
    assert outcome is not None
    best_score, best = outcome
    if best is None:
        return {"link_score": best_score, "needs_review": True}
    s, e = best[0] + origin, best[1] + origin
    return {
        "target_text": text[s:e],
        "target_start": s,
        "target_end": e,
        "raw_target_text": pair.raw_target_text
        if pair.raw_target_text is not None
        else pair.target_text,
        "cui": best[2],
        "preferred_name": best[3],
        "semantic_types": best[4],
        "link_score": best_score,
    }


#: the fields ``_apply`` sets (``_update_of``'s keys, in its order of the dict)
_LINK_KEYS = frozenset(
    ("target_text", "target_start", "target_end", "raw_target_text", "cui", "preferred_name",
     "semantic_types", "link_score")
)  # fmt: skip
_REVIEW_KEYS = frozenset(("link_score", "needs_review"))
_new_pair = CueTargetPair.__new__


_UNSEEN = object()  # a key not in a dict whose values may be None
_exp = math.exp
_DIRECTION_OF = {d.value: d for d in Direction}  # ``Direction(value)`` as a dict

_MEMO_MAX_ENTRIES = 8192  # memoised windows (and look-ups per reader, x8); emptied when full
_MEMO_MAX_CHARS = 2000


def _updated(pair: CueTargetPair, update: dict[str, Any]) -> CueTargetPair:
    """``pair.model_copy(update=update)`` for already-valid values, without pydantic's copy
    machinery: the same ``__dict__`` (updated in place of a copy) and set of fields."""
    if type(pair) is not CueTargetPair or pair.__pydantic_extra__ or pair.__pydantic_private__:
        return pair.model_copy(update=update)
    data = pair.__dict__.copy()
    data.update(update)
    inst = CueTargetPair.__new__(CueTargetPair)
    _object_setattr(inst, "__dict__", data)
    _object_setattr(inst, "__pydantic_fields_set__", pair.__pydantic_fields_set__ | update.keys())
    _object_setattr(inst, "__pydantic_extra__", None)
    _object_setattr(inst, "__pydantic_private__", None)
    return inst


_object_setattr = object.__setattr__


def _moved_match(c: ConceptMatch, delta: int) -> ConceptMatch:
    """``c`` with its offsets moved by ``delta`` (its text stays: the window text is the same)."""
    return ConceptMatch(
        start=c.start + delta,
        end=c.end + delta,
        text=c.text,
        concept_id=c.concept_id,
        preferred_name=c.preferred_name,
        semantic_types=c.semantic_types,
        similarity=c.similarity,
        matched_term=c.matched_term,
        method=c.method,
    )


def _score(
    cs: int,
    ce: int,
    cand_text: str | None,
    similarity: float,
    qs: int,
    qe: int,
    ts: int,
    te: int,
    pair_direction: Direction,
    text: str | None,
) -> float | None:
    """``Linker.score`` on plain values. With ``cand_text`` None the generic-head penalty is not
    applied: with similarity 1.0 that is the highest score a candidate on [cs, ce) can get."""
    base = _score_base(cs, ce, cand_text, qs, qe, ts, te, pair_direction, text)
    return None if base is None else _finish_score(base, similarity)


def _score_base(
    cs: int,
    ce: int,
    cand_text: str | None,
    qs: int,
    qe: int,
    ts: int,
    te: int,
    pair_direction: Direction,
    text: str | None,
) -> tuple[float, bool] | None:
    """The part of ``_score`` that does not depend on the similarity (the sum of its first four
    terms, in ``_score``'s order of addition) and whether the generic-head penalty applies; None
    when [cs, ce) is not a candidate for the pair. Candidates on one span share it."""
    # (integer offsets: the conditional expressions are ``min``/``max`` without the calls)
    if cs < qe and ce > qs:  # ``_eligible``, inline: overlaps the cue, never a target
        return None
    inter = (ce if ce < te else te) - (cs if cs > ts else ts)
    if inter <= 0:
        inter = 0
        if not _eligible(cs, ce, qs, qe, ts, te, text):  # a neighbour: the other tests
            return None
    overlap = inter / (ce - cs if ce - cs > 1 else 1)
    coverage = inter / (te - ts if te - ts > 1 else 1)
    after = cs >= qe
    gap = cs - qe if after else qs - ce
    proximity = _exp(-(gap if gap > 0 else 0) / PROXIMITY_SCALE)
    if pair_direction is Direction.FORWARD:
        direction = 1.0 if after else 0.0
    elif pair_direction is Direction.BACKWARD:
        direction = 0.0 if after else 1.0
    else:
        direction = 1.0
    partial = (
        W_OVERLAP * overlap
        + W_COVERAGE * coverage
        + W_PROXIMITY * proximity
        + W_DIRECTION * direction
    )
    generic = (
        cand_text is not None
        and cand_text.lower() in GENERIC_HEADS
        and coverage < GENERIC_MIN_COVERAGE
    )
    return partial, generic


def _finish_score(base: tuple[float, bool], similarity: float) -> float:
    """``_score`` from its ``_score_base`` and a candidate's similarity."""
    score = base[0] + W_SIMILARITY * min(1.0, similarity)
    if base[1]:
        score *= GENERIC_PENALTY
    return round(score, 4)


def _eligible(
    cs: int, ce: int, qs: int, qe: int, ts: int, te: int, text: str | None
) -> bool:
    """Can the span [cs, ce) be a candidate for the pair with cue [qs, qe) and target [ts, te)?

    Not when it overlaps the cue; when it does not overlap the target, only within
    ``NEIGHBOURHOOD`` characters of it, on the same side of the cue, and (with ``text``) with no
    list or clause separator in between (see ``Linker.score``).
    """
    if cs < qe and ce > qs:  # overlaps the cue: never a target
        return False
    if min(ce, te) - max(cs, ts) <= 0:  # a neighbour of the raw target, on the same side of the cue
        gap_to_target = cs - te if cs >= te else ts - ce
        if gap_to_target > NEIGHBOURHOOD or (cs >= qe) != (ts >= qe):
            return False
        if text is not None:
            between = text[te:cs] if cs >= te else text[ce:ts]
            if _SEPARATOR_RE.search(between):
                return False
    return True


def _zone_ngrams(
    matcher: Any,
    doc: Any,
    segment: str,
    zones: tuple[tuple[int, int], ...],
    flags: BoundedMemo[int, tuple[bool, bool, bool, bool]],
) -> tuple[list[tuple[int, int, int, int]], Callable[[int, int], str]]:
    """The n-grams of QuickUMLS's ``_make_ngrams`` on ``doc`` (``make_doc(segment)``) tagged as
    ``_tagged`` tags it that touch a zone, in the same order, as (start, end, first token, end
    token; end token -1 for a last token on its own), and a function that gives an n-gram's text
    from its two tokens (made only for those looked up). POS tags are set here, on the tokens
    whose tests are not yet known.

    The same loop with each token's tests done once instead of once per n-gram, memoised in
    ``flags`` per lexeme (QuickUMLS's tests read a token's lexeme, POS and lemma; ``_tagged``'s
    POS is a function of the lexeme and the blank pipeline sets no lemma), and start tokens whose
    n-grams all miss the zones skipped. Token offsets and texts come from one ``to_array`` call
    (a token's text is the segment at its offsets) instead of a Token object per token.
    (QuickUMLS's ``sent[j - 1] in invalid_mid_tokens`` compares a Token with ints, which spaCy
    never finds equal, so it never ends a span; it is left out here.)
    """
    n = len(doc)
    if not n:
        return [], _no_text
    window = matcher.window
    min_len = matcher.min_match_length
    top = max(hi for _, hi in zones)
    bottom = min(lo for lo, _ in zones)
    rows = doc.to_array(_TOKEN_ATTRS).tolist()  # per token: orth, offset, length, trailing space
    # Only tokens from ``window - 1`` before the first one that ends at or after ``bottom`` can
    # start an n-gram that reaches a zone, and none from the first one starting after ``top`` on
    # (n-grams reach at most ``window - 1`` tokens further): find both ends by bisection.
    left, right = 0, n
    while left < right:
        mid = (left + right) // 2
        r = rows[mid]
        if r[1] + r[2] < bottom:
            left = mid + 1
        else:
            right = mid
    first = max(0, left - window + 1)
    right = n
    while left < right:
        mid = (left + right) // 2
        if rows[mid][1] > top:
            right = mid
        else:
            left = mid + 1
    stop = left  # the first token starting after ``top``
    # the tokens that n-grams touching a zone can hold, indexed from ``first``
    sub = rows[first : min(n, stop + window - 1)]
    tests = [flags.get(r[0]) for r in sub]
    for k, got in enumerate(tests):
        if got is None:
            t = doc[first + k]
            pos = _POS_OF.get(t.lower_)
            if pos is not None:
                t.pos_ = pos
            tests[k] = flags.put(
                t.orth,
                (
                    matcher._is_valid_token(t),
                    matcher._is_valid_start_token(t),
                    matcher._is_valid_end_token(t),
                    t.pos_ == "DET",
                ),
            )
    starts = [r[1] for r in sub]
    ends = [r[1] + r[2] for r in sub]
    spaces = [r[3] for r in sub]
    valid_end = [t[2] for t in tests]
    skip = [t[3] for t in tests]
    n_sub = n - first  # tokens of the document from ``first`` on
    single = len(zones) == 1

    out: list[tuple[int, int, int, int]] = []
    for i in range(stop - first):
        tests_i = tests[i]
        if not tests_i[0]:
            continue
        a = starts[i]
        if a > top:
            break  # every later n-gram starts after every zone
        last = i + window if i + window < n_sub else n_sub
        if ends[last - 1] < bottom:
            continue  # every n-gram from here ends before every zone
        # an n-gram [a, b) touches a zone (a <= hi and b >= lo) iff b reaches the nearest lo of
        # the zones that do not end before a
        if single:
            if a > top:
                continue
            reach = bottom
        else:
            reach = min([lo for lo, hi in zones if a <= hi], default=None)
            if reach is None:
                continue
        compensate = not tests_i[1]
        if i + 1 == n_sub and tests_i[2] and ends[i] - a >= min_len and ends[i] >= reach:
            out.append((a, ends[i], i, -1))
        for j in range(i + 1, last + 1):
            if compensate:
                compensate = False
                continue
            if not valid_end[j - 1]:
                continue
            b = ends[j - 1]
            if b - a < min_len or b < reach:
                continue
            out.append((a, b, i, j))

    def text_of(i: int, j: int) -> str:
        if j < 0:
            return segment[starts[i] : ends[i]]
        if not any(skip[i:j]):
            # tokens i..j-1 with their trailing spaces are the segment between them; the strip
            # takes the last one's (every other token in the span is whole)
            return segment[starts[i] : ends[j - 1] + spaces[j - 1]].strip()
        return "".join(
            segment[starts[k] : ends[k] + spaces[k]] for k in range(i, j) if not skip[k]
        ).strip()

    return out, text_of


def _no_text(i: int, j: int) -> str:
    raise IndexError("no n-grams in an empty document")


def _quickumls_key(matcher: Any, ngram: str) -> str:
    """The string QuickUMLS's ``_get_all_matches`` looks ``ngram`` up under (its normalisation,
    the same steps in the same order)."""
    if matcher.normalize_unicode_flag:
        ngram = sys.modules["quickumls.core"].unidecode(ngram)  # (the one QuickUMLS calls)
    if matcher.to_lowercase_flag:
        return ngram.lower()  # type: ignore[no-any-return]
    if ngram.isupper() and not matcher.keep_uppercase:
        return ngram.lower()  # type: ignore[no-any-return]
    return ngram


class _MemoReader:
    """A QuickUMLS database reader whose ``get`` results are memoised per key (read-only data)."""

    def __init__(self, reader: Any) -> None:
        self.reader = reader
        self.memo: BoundedMemo[str, Any] = BoundedMemo(8 * _MEMO_MAX_ENTRIES)

    def get(self, key: str) -> Any:
        found = self.memo.get(key)
        if found is None:
            found = self.memo.put(key, tuple(self.reader.get(key)))
        return found

    def __getattr__(self, name: str) -> Any:
        return getattr(self.reader, name)


def _token_bounds(text: str, start: int, end: int, lo: int, hi: int) -> tuple[int, int]:
    """[lo, hi) clamped to [start, end) and widened to where ``_TOKEN_RE`` cannot match across:
    a character that no token holds (or ``start``/``end``), so a scan of the result finds the
    same tokens, whole, as a scan of [start, end) finds there."""
    lo = min(max(lo, start), end)
    hi = max(min(hi, end), lo)
    while lo > start and _TOKEN_CHAR.match(text, lo - 1):
        lo -= 1
    while hi < end and _TOKEN_CHAR.match(text, hi):
        hi += 1
    return lo, hi


def _lookup_abbreviation(table: dict[str, str], word: str) -> tuple[str | None, int]:
    """Concept id and matched length of a token: exact, else without plural "s"/possessive "'s"."""
    if word in table:
        return table[word], len(word)
    if not word.endswith("s"):  # every form read below ends in "s" (most tokens stop here)
        return None, 0
    for suffix in ("'s", "\u2019s", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            base = word[: -len(suffix)]
            if base in table and (suffix != "s" or base[-1].isupper()):
                return table[base], len(word) if suffix == "s" else len(base)
    return None, 0


def _check_pair(text: str, p: CueTargetPair, i: int) -> None:
    if not isinstance(p, CueTargetPair):
        raise LinkingError(f"pair {i}: expected a CueTargetPair, got {type(p).__name__}")
    n = len(text)
    d = p.__dict__  # (the fields, read once; a pair's fields are plain attributes)
    qs, qe, ts, te = d["cue_start"], d["cue_end"], d["target_start"], d["target_end"]
    if not (0 <= qs <= qe <= n and 0 <= ts <= te <= n) or (
        text[qs:qe] != d["cue_text"] or text[ts:te] != d["target_text"]
    ):
        # which test failed, in the order cue then target
        for name, s, e, expected in (
            ("cue", qs, qe, d["cue_text"]),
            ("target", ts, te, d["target_text"]),
        ):
            if not (0 <= s <= e <= n):
                raise LinkingError(
                    f"pair {i}: {name} offsets [{s}, {e}) fall outside the text (length {n})"
                )
            if text[s:e] != expected:
                raise LinkingError(
                    f"pair {i}: text[{s}:{e}] is {text[s:e]!r} but {name}_text is {expected!r}; "
                    "was the pair extracted from a different text?"
                )
    if not (0 <= d["sentence_start"] <= d["sentence_end"] <= n):
        raise LinkingError(
            f"pair {i}: sentence offsets [{p.sentence_start}, {p.sentence_end}) "
            "fall outside the text"
        )
