"""Scoring a rewrite: did the certainty of each source cue–target pair survive in the output?

``score(source, output)`` extracts the source's cue–target pairs (or takes yours), finds each target
in the output (:mod:`cuelex.align`), reads the level the output gives that occurrence with the same
engine (``ASSERTED`` when no cue governs it), gives every pair its fate and computes the metrics of
:mod:`cuelex.metrics`. ``score_frame(df, ...)`` does the same for a table of source/output pairs
and returns tidy pandas tables. ``add_score_subparser`` adds ``cuelex score`` to the CLI.

>>> r = score("Possible pneumonia.", "Pneumonia.")
>>> [(p.source.target_text, p.source.level.value, p.output_level.value, p.fate) for p in r.pairs]
[('pneumonia', 'UL3', 'ASSERTED', 'certainty_asserted')]
>>> r.metrics.value("CAR")
1.0
"""

from __future__ import annotations

import json
import logging
import math
import sys
import time
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import EllipsisType, MappingProxyType
from typing import Any

import pandas as pd
import regex
from pydantic import BaseModel, ConfigDict

from ..concepts.normalize import SIDE_SHORTHAND, expand_abbreviation, same_concept
from ..concepts.vocab import DATA_DIR, role_pattern_rows
from ..corpus import InputError, check_text, lone_surrogate, read_documents
from ..corpus import file_suffixes as _suffixes
from ..levels import Level
from ..pipeline import get_engine, get_linker, run_pipeline
from ..records import Cue, CueTargetPair, Direction
from . import markdown as _md
from . import metrics as M
from .align import AlignedTarget, Aligner, OutputIndex, course_condition, measure_condition
from .bertscore import bertscore as _bertscore
from .bertscore import resolve_model_path

log = logging.getLogger(__name__)

__all__ = [
    "CHOICES",
    "CorpusScores",
    "ScoreReport",
    "ScoredPair",
    "score",
    "score_frame",
]

#: How an occurrence is chosen when the target occurs more than once in the output.
#: ``context`` (default): the documented choice rule of :mod:`cuelex.align`; ``first``: the earliest
#: occurrence; ``lenient``: an occurrence at the source's level if there is one (an upper bound on
#: URR, for sensitivity analyses), else the ``context`` choice.
CHOICES = ("context", "first", "lenient")


class ScoredPair(BaseModel):
    """One source pair with its alignment, output level and fate."""

    model_config = ConfigDict(frozen=True)

    source: CueTargetPair
    fate: str
    match: AlignedTarget | None = None
    output_level: Level | None = None
    output_cue: Cue | None = None
    candidate_levels: tuple[Level, ...] = ()
    level_source: str | None = None
    p_source: float | None = None
    p_output: float | None = None

    @property
    def retained(self) -> bool:
        return self.match is not None

    @property
    def metric(self) -> str | None:
        """The paper's rate this pair counts toward (URR, CAR, PCR, OHR), None when dropped."""
        return M.FATE_METRIC.get(self.fate)

    @property
    def commitment_shift(self) -> int | None:
        """Output commitment minus source commitment (positive: toward certainty)."""
        if self.output_level is None:
            return None
        return self.output_level.commitment - self.source.level.commitment

    @property
    def direction(self) -> str | None:
        """ "inflation", "deflation" or "none" (None when dropped)."""
        d = self.commitment_shift
        if d is None:
            return None
        return "inflation" if d > 0 else "deflation" if d < 0 else "none"

    @property
    def negation_flip(self) -> bool:
        return self.source.level is Level.UL1 and self.output_level is Level.ASSERTED

    @property
    def polarity_flip(self) -> bool:
        if self.output_level is None:
            return False
        a, b = self.source.level.polarity, self.output_level.polarity
        return {a, b} == {"present", "absent"}

    @property
    def calibrated_shift(self) -> float | None:
        if self.p_source is None or self.p_output is None:
            return None
        return round(self.p_output - self.p_source, 4)

    @property
    def level_ambiguous(self) -> bool:
        """True when the output's occurrences of the target do not all have the same level."""
        return len(set(self.candidate_levels)) > 1

    def row(self) -> dict[str, Any]:
        """A flat dict: one row of :meth:`ScoreReport.to_frame`."""
        s, m, c = self.source, self.match, self.output_cue
        return {
            "doc_id": s.doc_id,
            "sentence": s.sentence,
            "cue_text": s.cue_text,
            "cue_start": s.cue_start,
            "cue_end": s.cue_end,
            "rule_id": s.rule_id,
            "source_level": s.level.value,
            "target_text": s.target_text,
            "target_start": s.target_start,
            "target_end": s.target_end,
            "cui": s.cui,
            "fate": self.fate,
            "metric": self.metric,
            "tier": m.tier if m else None,
            "match_detail": m.detail if m else None,
            "match_score": m.score if m else None,
            "context_similarity": m.context_similarity if m else None,
            "match_confidence": m.confidence if m else None,
            "low_confidence": bool(m.low_confidence) if m else False,
            "match_concept": m.concept if m else None,
            "n_candidates": m.n_candidates if m else 0,
            "alternatives": (
                "; ".join(f"{s}-{e}:{lv.value}" for (s, e), lv in
                          list(zip(m.candidates, self.candidate_levels, strict=False))[1:])
                if m and len(m.candidates) > 1 else ""
            ),  # fmt: skip
            "level_ambiguous": self.level_ambiguous,
            "level_source": self.level_source,
            "output_text": m.text if m else None,
            "output_start": m.start if m else None,
            "output_end": m.end if m else None,
            "output_level": self.output_level.value if self.output_level else None,
            "output_cue": c.text if c else None,
            "output_cue_start": c.start if c else None,
            "output_cue_end": c.end if c else None,
            "output_rule_id": c.rule_id if c else None,
            "commitment_shift": self.commitment_shift,
            "direction": self.direction,
            "negation_flip": self.negation_flip,
            "polarity_flip": self.polarity_flip,
            "p_source": self.p_source,
            "p_output": self.p_output,
            "calibrated_shift": self.calibrated_shift,
        }


PAIR_COLUMNS: tuple[str, ...] = tuple(
    ScoredPair(
        source=CueTargetPair(
            sentence="x", sentence_start=0, sentence_end=1, cue_text="x", cue_start=0,
            cue_end=1, level=Level.UL1, rule_id="x", direction="forward", target_text="x",
            target_start=0, target_end=1,
        ),
        fate=M.DROPPED,
    ).row()
)  # fmt: skip


def _json_safe(v: Any) -> Any:
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return None
    if isinstance(v, dict):
        return {str(k): _json_safe(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_json_safe(x) for x in v]
    if hasattr(v, "item") and not isinstance(v, (str, bytes)):
        try:
            return _json_safe(v.item())
        except (AttributeError, ValueError):
            return v
    return v


def _fmt_pct(v: float | None) -> str:
    return "  n/a" if v is None else f"{100 * v:5.1f}%"


def _fmt_ci(lo: float | None, hi: float | None) -> str:
    if lo is None or hi is None:
        return ""
    return f"  [{100 * lo:.1f}–{100 * hi:.1f}]"


def _summary_lines(
    m: M.Metrics, pair_frame: pd.DataFrame, bert: Mapping[str, Any] | None
) -> list[str]:
    ov = m.overall[m.overall["scope"] == "micro"].set_index("metric")
    n = int(ov.loc["TRR", "denominator"] or 0)
    ret = int(ov.loc["TRR", "numerator"] or 0)
    n_docs = m.settings.get("n_documents", 0)
    scored = m.settings.get("n_documents_scored", n_docs)
    docs = f"{scored}" if scored == n_docs else f"{scored} ({n_docs} with source pairs)"
    lines = [f"documents: {docs}   source pairs |S|: {n}   retained |S+|: {ret}"]
    ci_pct = round(100 * m.settings.get("ci", 0.95))
    unit = m.settings.get("ci_unit", "pair")
    lines.append(f"{'metric':<6} {'value':>6}   {ci_pct}% bootstrap CI (resampling {unit}s)")
    for name in M.RATES:
        row = ov.loc[name]
        lines.append(f"{name:<6} {_fmt_pct(row['value'])}{_fmt_ci(row['ci_low'], row['ci_high'])}")
    fates = Counter(pair_frame["fate"]) if len(pair_frame) else Counter()
    lines.append("fates: " + ", ".join(f"{f} {fates.get(f, 0)}" for f in M.FATES))
    infl, defl = ov.loc["inflation", "value"], ov.loc["deflation", "value"]
    ratio = ov.loc["inflation_deflation_ratio", "value"]
    ratio_s = (
        "n/a"
        if ratio is None or (isinstance(ratio, float) and math.isnan(ratio))
        else ("inf" if math.isinf(ratio) else f"{ratio:.2f}")
    )
    lines.append(
        f"inflation {_fmt_pct(infl).strip()}, deflation {_fmt_pct(defl).strip()}, ratio {ratio_s}"
    )
    nf = ov.loc["negation_flip_rate"]
    pf = ov.loc["polarity_flip_rate"]
    lines.append(
        "negation flips (UL1 -> ASSERTED): "
        f"{int(nf['numerator'] or 0)}/{int(nf['denominator'] or 0)}   "
        f"polarity flips: {int(pf['numerator'] or 0)}/{int(pf['denominator'] or 0)}"
    )
    cs = ov.loc["calibrated_shift"]
    if cs["value"] is not None and not (isinstance(cs["value"], float) and math.isnan(cs["value"])):
        lines.append(
            f"calibrated certainty shift: {cs['value']:+.1f} percentage points "
            f"(mean |shift| {ov.loc['abs_calibrated_shift', 'value']:.1f}; "
            f"{int(cs['denominator'])} pair(s) with survey probabilities)"
        )
    if len(pair_frame):
        tiers = Counter(t for t in pair_frame["tier"] if isinstance(t, str))
        amb = int((pair_frame["n_candidates"] > 1).sum())
        lamb = int(pair_frame["level_ambiguous"].sum())
        lines.append(
            "alignment: "
            + (", ".join(f"{t} {k}" for t, k in tiers.most_common()) or "nothing aligned")
            + f"   ambiguous {amb} (levels differ {lamb})"
        )
    if bert:
        lines.append(
            f"BERTScore F1 {bert['f1']:.4f} "
            f"(P {bert['precision']:.4f}, R {bert['recall']:.4f}; {bert['model']})"
        )
    return lines


@dataclass
class ScoreReport:
    """The result of :func:`score`: every source pair with its fate, and the metrics."""

    pairs: list[ScoredPair]
    metrics: M.Metrics
    source: str
    output: str
    doc_id: str | None = None
    doc_type: str | None = None
    output_pairs: list[CueTargetPair] = field(default_factory=list)
    config: dict[str, Any] = field(default_factory=dict)
    bertscore: dict[str, Any] | None = None

    # the paper's five numbers, micro (pooled over this document's pairs)
    @property
    def trr(self) -> float | None:
        return self.metrics.value("TRR")

    @property
    def urr(self) -> float | None:
        return self.metrics.value("URR")

    @property
    def car(self) -> float | None:
        return self.metrics.value("CAR")

    @property
    def pcr(self) -> float | None:
        return self.metrics.value("PCR")

    @property
    def ohr(self) -> float | None:
        return self.metrics.value("OHR")

    def to_frame(self) -> pd.DataFrame:
        """One row per source pair (columns :data:`PAIR_COLUMNS` plus ``doc_type``)."""
        rows = [p.row() for p in self.pairs]
        frame = pd.DataFrame(rows, columns=list(PAIR_COLUMNS))
        frame.insert(1, "doc_type", self.doc_type)
        return frame

    def to_html(self, path: str | Path | None = None) -> str:
        """Self-contained HTML page of this report (``cuelex.report.render_report``); written to path when given."""
        from ..report.html import render_report, write_report

        page = render_report(self)
        if path is not None:
            write_report(page, path)
        return page

    def to_dict(self, *, include_text: bool = False) -> dict[str, Any]:
        """JSON-safe dict: config, metrics tables, pairs (and the texts with ``include_text``)."""
        d: dict[str, Any] = {
            "doc_id": self.doc_id,
            "doc_type": self.doc_type,
            "config": self.config,
            "rates": self.metrics.rates(),
            "metrics": self.metrics.to_dict(),
            "bertscore": self.bertscore,
            "pairs": [_json_safe(p.row()) for p in self.pairs],
        }
        if include_text:
            d["source"] = self.source
            d["output"] = self.output
        return _json_safe(d)

    def to_json(
        self, path: str | Path | None = None, *, indent: int = 2, include_text: bool = False
    ) -> str:
        """The report as JSON text; written to ``path`` as well when given."""
        text = json.dumps(
            self.to_dict(include_text=include_text), indent=indent, ensure_ascii=False
        )
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            Path(path).write_text(text + "\n", encoding="utf-8")
        return text

    def to_check(self) -> list[ScoredPair]:
        """Retained pairs whose alignment a user should check: low match confidence (a weak lay
        paraphrase, a head-noun or fuzzy match), or occurrences that disagree in level."""
        return [
            p for p in self.pairs if p.match is not None and (p.match.low_confidence or p.level_ambiguous)
        ]

    def summary(self, *, pairs: bool = True) -> str:
        """A readable summary: the rates with CIs, fates, directions, and (optionally) each pair."""
        frame = self.to_frame()
        lines = _summary_lines(self.metrics, frame, self.bertscore)
        check = self.to_check()
        if check:
            lines.append(f"alignments to check: {len(check)}")
            for p in check:
                m = p.match
                assert m is not None
                why = []
                if m.low_confidence:
                    why.append(f"{m.tier}/{m.detail}, confidence {m.confidence:.2f}")
                if p.level_ambiguous:
                    why.append("occurrences differ in level: " + ", ".join(lv.value for lv in p.candidate_levels))
                lines.append(f"  {p.source.target_text!r} -> {m.text!r}: " + "; ".join(why))
        if pairs and self.pairs:
            lines.append("pairs:")
            for p in self.pairs:
                s = p.source
                where = (
                    f"{p.output_level.value:<13} via {p.match.tier}"
                    + (f" ({p.match.n_candidates} occurrences)" if p.match.n_candidates > 1 else "")
                    if p.match and p.output_level
                    else "-"
                )
                lines.append(
                    f"  {s.level.value:<13} {s.cue_text!r} -> {s.target_text!r}: "
                    f"{p.fate:<18} {where}"
                )
        return "\n".join(lines)

    def __repr__(self) -> str:
        r = self.metrics.rates()
        vals = ", ".join(f"{k}={'n/a' if v is None else f'{v:.3f}'}" for k, v in r.items())
        return f"ScoreReport(doc_id={self.doc_id!r}, pairs={len(self.pairs)}, {vals})"


# --------------------------------------------------------------------------------------------------
# Scoring one document
# --------------------------------------------------------------------------------------------------


@dataclass
class _Scorer:
    """Everything that stays the same across documents: engine, aligner, options."""

    engine: Any
    aligner: Aligner
    linker: Any = None
    choice: str = "context"
    anchors: bool = True
    dedup: bool = False

    def config(self) -> dict[str, Any]:
        return {
            **self.aligner.config(),
            "choice": self.choice,
            "anchors": self.anchors,
            "dedup": self.dedup,
            "linked": self.linker is not None,
        }

    def pairs_for(
        self, source: str, doc_id: str | None, source_pairs: Sequence[CueTargetPair] | None
    ) -> list[CueTargetPair]:
        if source_pairs is None:
            return run_pipeline(
                source, engine=self.engine, linker=self.linker, deduplicate=self.dedup, doc_id=doc_id
            )
        out = []
        for i, p in enumerate(source_pairs):
            if not isinstance(p, CueTargetPair):
                raise TypeError(
                    f"source_pairs[{i}] must be a CueTargetPair, got {type(p).__name__}"
                )
            if not (0 <= p.target_start < p.target_end <= len(source)) or (
                source[p.target_start : p.target_end] != p.target_text
            ):
                raise ValueError(
                    f"source_pairs[{i}] (target {p.target_text!r} at "
                    f"{p.target_start}:{p.target_end}) "
                    "does not index the source text; pairs must come from this source"
                )
            out.append(p)
        return out

    def score_pairs(
        self, source: str, output: str, pairs: list[CueTargetPair]
    ) -> tuple[list[ScoredPair], list[CueTargetPair]]:
        sentences = self.engine.sentences(output)
        idx: OutputIndex = self.aligner.index(output, sentences)
        output_pairs = self.engine.extract(output, sentences=sentences)
        if self.linker is not None and output_pairs and any(p.cui for p in pairs):
            output_pairs = self.linker.link(output, output_pairs)
        matches = self.aligner.align(
            pairs, idx, source_length=len(source), output_pairs=output_pairs
        )
        spans = sorted({sp for m in matches if m is not None for sp in m.candidates})
        assessed = (
            dict(zip(spans, self.engine.assess(output, spans, sentences=sentences), strict=False))
            if spans
            else {}
        )
        ordered = sorted(output_pairs, key=lambda q: q.cue_start)
        by_cue = (ordered, [q.cue_start for q in ordered])
        plain_pairs: list[CueTargetPair] | None = None  # the output read without emphasis marks
        tested_memo: dict[tuple[int, int], Cue | None] = {}

        def tested_for(span: tuple[int, int]) -> Cue | None:
            # a span's test phrase is read once: for the candidate levels and the chosen mention
            if span not in tested_memo:
                tested_memo[span] = _tested_for(output, span[0], span[1])
            return tested_memo[span]

        scored = []
        for p, m in zip(pairs, matches, strict=False):
            # a cue's survey probability speaks for the pair only if the cue decided its level alone
            # (not capped by alternatives, not changed by a context rule)
            own = p.cue_level is None or p.cue_level is p.level
            p_source = M.cue_probability(p.cue_text if own else None, p.level, anchors=self.anchors)
            if m is None:
                scored.append(ScoredPair(source=p, fate=M.DROPPED, p_source=p_source))
                continue
            cand_levels = tuple(assessed[sp].level for sp in m.candidates)
            if m.candidate_details:
                cand_levels = tuple(
                    _NORMAL_MEANS.get(lv, lv) if d == "cui/normal" else lv
                    for lv, d in zip(cand_levels, m.candidate_details, strict=False)
                )
            if len(m.candidates) > 1:
                # an occurrence a test phrase names is a check (read below for the chosen one too)
                cand_levels = tuple(
                    Level.UL5 if lv is Level.ASSERTED and assessed[sp].cue is None and tested_for(sp)
                    else lv
                    for sp, lv in zip(m.candidates, cand_levels, strict=False)
                )  # fmt: skip
            k = 0
            if self.choice == "first":
                k = min(range(len(m.candidates)), key=lambda i: m.candidates[i])
            elif self.choice == "lenient":
                k = next((i for i, lv in enumerate(cand_levels) if lv is p.level), 0)
            if k:
                s, e = m.candidates[k]
                update: dict[str, Any] = {"start": s, "end": e, "text": output[s:e]}
                if len(m.candidate_details) > k:
                    update["tier"], update["detail"] = m.candidate_details[k].split("/", 1)
                m = m.model_copy(update=update)
            a = assessed[(m.start, m.end)]
            level, cue, how = a.level, a.cue, "span"
            if cue is not None and m.start < cue.start and cue.end < m.end and cue.rule_id.startswith("alt."):
                # an "or" inside the matched phrase belongs to it ("problems with your heart or
                # lungs"): read the level of the phrase's first word instead
                first = regex.match(r"[\w'’-]+", output[m.start : m.end])
                if first:
                    (b,) = self.engine.assess(output, [(m.start, m.start + first.end())], sentences=sentences)
                    if b.cue is not None and b.cue.rule_id.startswith("alt."):
                        level, cue = Level.ASSERTED, None  # the same "or" again: no cue of its own
                    else:
                        level, cue = b.level, b.cue
                    how = "phrase_head"
            pred = None
            if level is Level.ASSERTED and cue is None:
                pred = _predicate_pair(output, m.end, by_cue)
                if pred is None and m.detail == "qualifier":
                    # "the nosebleeds haven't returned": a qualifier said by its verb already spans
                    # the predicate, so its negation stands inside the match
                    pred = _negated_presence_within(output, m.start, m.end)
            if pred is None and level is Level.ASSERTED and cue is None:
                caused = _cause_predicate(output, m.start, m.end, self.engine, sentences)
                if caused is not None:
                    # "a blockage might be causing your pain": the proposed cause takes the hedge
                    level, cue = caused
                    how = "cause_predicate"
            if pred is not None:
                # "some fluid has probably built up": the hedge in the finding's own verb group
                level, cue, span_end = pred
                how = "predicate"
            else:
                level, cue, again = _reread(output, m.start, m.end, by_cue, level, cue, self.engine)
                how = again if again != "span" else how
                span_end = m.end
                if level is Level.ASSERTED and cue is None and _EMPHASIS.search(output):
                    if plain_pairs is None:
                        plain = _unemphasised(output)
                        plain_pairs = self.engine.extract(plain, sentences=sentences)
                    under = _emphasised_reading(output, m.start, m.end, plain_pairs)
                    if under is not None:
                        level, cue, how = under.level, _as_cue(under), "emphasis"
            if self.choice == "context" and level is Level.ASSERTED and cue is None:
                body = _heading_body_pair(output, m.start, m.end, by_cue)
                if body is not None:
                    # the statement under the heading carries the finding; the heading stays an
                    # alternative occurrence, so the pair is flagged ambiguous
                    span = (body.target_start, body.target_end)
                    if span not in m.candidates:
                        cand_levels = (*cand_levels, body.level)
                        m = m.model_copy(
                            update={
                                "candidates": (*m.candidates, span),
                                "candidate_details": (*m.candidate_details, "heading/body")
                                if m.candidate_details
                                else (),
                                "n_candidates": m.n_candidates + 1,
                            }
                        )
                    m = m.model_copy(update={"start": span[0], "end": span[1], "text": output[span[0] : span[1]]})
                    level, cue, how = body.level, _as_cue(body), "heading_body"
                    span_end = m.end
            if level is Level.ASSERTED and cue is None:
                host = _cue_around(m.start, m.end, by_cue)
                if host is not None:
                    level, cue, how = host.level, _as_cue(host), "in_cue"
            # the mention line's inline label: matched once for the lead-in and the plan label
            line_label: regex.Match[str] | None | EllipsisType = ...
            if level is Level.ASSERTED and cue is None:
                line_label = _md.inline_label(output, output.rfind("\n", 0, m.start) + 1)
                listed = _list_lead_in(output, m.start, line_label)
                if listed is not None:
                    # an item of a list whose lead-in carries the hedge or negation
                    level, cue, how = listed[0], listed[1], "lead_in"
            if level is Level.ASSERTED and cue is None:
                planned = _plan_label(output, m.start, line_label)
                if planned is not None:
                    # an item of a plan label: something to look for, not a stated finding
                    level, cue, how = Level.UL5, planned, "plan_label"
            if level is Level.ASSERTED and cue is None:
                # (a hedge the extraction reads on the mention is kept: the same text scored
                # against itself must keep every level — an alternative "functional vs
                # hypersensitivity" that a test names stays the alternative)
                tested = tested_for((m.start, m.end))
                if tested is not None:
                    # "rapid strep test today", "retinopathy screen", "CT for appendicitis": the
                    # finding is what a test looks for, not a stated finding
                    level, cue, how = Level.UL5, tested, "test"
            if level is Level.ASSERTED and cue is None:
                cond = _condition_clause(output, m.start, m.end)
                if cond is not None:
                    # "If EGD nl + sx persist → PPI trial", "Sx persist → consider injection": a
                    # finding in a written condition is a contingency
                    level, cue, how = Level.UL5, cond, "condition"
            if level is Level.ASSERTED and cue is None:
                checked = _checked_hedge(output, m.start, m.end)
                if checked is not None:
                    # "an ultrasound to assess whether blood supply is adequate": the subject of
                    # the clause a test checks is something to look for
                    level, cue, how = Level.UL5, checked, "check_whether"
            if level is Level.ASSERTED and cue is None:
                back = _anaphoric_hedge(output, m.start, m.end, by_cue)
                if back is not None:
                    level, cue, how = back.level, _as_cue(back), "anaphor"
            if level is Level.ASSERTED and cue is None:
                again = _checked_pronoun(output, m.end)
                if again is not None:
                    # "… called a murmur. We will do an ultrasound of your heart to check on it.":
                    # the finding is what the test looks at again
                    level, cue, how = Level.UL5, again, "anaphor_check"
            if (
                self.choice == "context"
                and level is Level.ASSERTED
                and cue is None
                and len(m.candidates) > 1
                and _restates(output, m.start, m.end)
            ):
                # the chosen mention only restates the name (a definition, a verbless label line);
                # the mention that states the finding with a level is the one that corresponds to
                # the source statement (the gold guideline); the restatement stays an alternative
                alt = next(
                    (
                        i for i, (sp, lv) in enumerate(zip(m.candidates, cand_levels, strict=False))
                        if sp != (m.start, m.end) and lv is not Level.ASSERTED
                        and not _restates(output, sp[0], sp[1])
                    ),
                    None,
                )  # fmt: skip
                if alt is not None:
                    s0, e0 = m.candidates[alt]
                    upd: dict[str, Any] = {"start": s0, "end": e0, "text": output[s0:e0]}
                    if len(m.candidate_details) > alt:
                        upd["tier"], upd["detail"] = m.candidate_details[alt].split("/", 1)
                    m = m.model_copy(update=upd)
                    span_end = e0
                    a = assessed[(s0, e0)]
                    level, cue, how = a.level, a.cue, "restated_elsewhere"
            if m.detail in ("course", "measure") and level is not Level.UL5:
                # a course of not getting better under a condition ("if no improvement", "if you
                # aren't feeling better"), a raised reading likewise ("if your readings go up"):
                # the condition makes it a contingency, whatever its "not"
                cond = (course_condition if m.detail == "course" else measure_condition)(output, m.start)
                if cond is not None:
                    level, how = Level.UL5, m.detail
                    cue = Cue(
                        text=output[cond[0] : cond[1]], start=cond[0], end=cond[1], level=Level.UL5,
                        rule_id=f"ul5.{m.detail}_condition", direction=Direction.FORWARD,
                    )  # fmt: skip
            if m.detail == "normal":
                # "your heart and lungs look normal" states the general finding's absence; only a
                # cue inside the statement qualifies it ("probably look normal", "are not normal"),
                # never a negation of an earlier list item ("no collapsed lung, and your bones
                # look fine")
                inner = _inner_cue(m.start, m.end, by_cue)
                level = inner.level if inner is not None else Level.ASSERTED
                cue, how = None, "normal"
                level = _NORMAL_MEANS.get(level, level)
            if self.choice == "context" and level is not p.level:
                verdict = _label_verdict(output, m.start, m.end, self.engine)
                if verdict is not None and verdict.level is not level:
                    # "ACS (primary concern): ECG nl, trop neg x2 → ruled out": the verdict that closes
                    # the item is its label's level; the hedge before it still answers a source
                    # statement at the hedge's own level (the item says both)
                    level, cue, how = verdict.level, verdict, "label_verdict"
            if self.choice == "context" and len(m.candidates) > 1:
                alt = _same_role_alternative(p.level, (m.start, m.end), level, m.candidates, cand_levels)
                if alt is not None:
                    # the chosen mention plays another role than the source statement (a check or
                    # plan against a stated finding, or the reverse): the occurrence in the source's
                    # role corresponds to it; the other stays an alternative, so the pair is flagged
                    s0, e0 = m.candidates[alt]
                    upd = {"start": s0, "end": e0, "text": output[s0:e0]}
                    if len(m.candidate_details) > alt:
                        upd["tier"], upd["detail"] = m.candidate_details[alt].split("/", 1)
                    cand_levels = tuple(
                        level if sp == (m.start, m.end) else lv
                        for sp, lv in zip(m.candidates, cand_levels, strict=False)
                    )
                    m = m.model_copy(update=upd)
                    span_end = e0
                    level, how = cand_levels[alt], "same_role"
                    cue = assessed[(s0, e0)].cue if assessed[(s0, e0)].level is level else None
            if self.choice == "context" and p.level is Level.UL5 and level is not Level.UL5:
                short = _short_name_checked(output, p.target_text, (m.start, m.end))
                if short is not None:
                    # "Lyme titer sent", "to determine if Lyme is present" beside "c/w Lyme disease":
                    # the workup mention is the one in the source's role; the other stays an
                    # alternative, so the pair is flagged
                    s0, e0, check = short
                    cand_levels = (*cand_levels, Level.UL5)
                    m = m.model_copy(
                        update={
                            "start": s0, "end": e0, "text": output[s0:e0], "tier": "normalized",
                            "detail": "short_name", "candidates": (*m.candidates, (s0, e0)),
                            "candidate_details": (*m.candidate_details, "normalized/short_name")
                            if m.candidate_details
                            else (),
                            "n_candidates": m.n_candidates + 1,
                        }
                    )  # fmt: skip
                    level, cue, how, span_end = Level.UL5, check, "short_name_check", e0
            if self.choice == "context" and k == 0 and len(m.candidates) > 1:
                cand_levels = tuple(
                    lv if sp != (m.start, m.end) else level
                    for sp, lv in zip(m.candidates, cand_levels, strict=False)
                )
            if span_end != m.end:
                # the mention covers the predicate that carries the finding
                m = m.model_copy(update={"end": span_end, "text": output[m.start : span_end]})
            scored.append(
                ScoredPair(
                    source=p,
                    fate=M.classify(p.level, level),
                    match=m,
                    output_level=level,
                    output_cue=cue,
                    candidate_levels=cand_levels,
                    level_source=how,
                    p_source=p_source,
                    p_output=M.cue_probability(
                        cue.text if cue is not None and cue.level is level else None,
                        level,
                        anchors=self.anchors,
                    ),
                )
            )
        return scored, output_pairs


#: Markdown emphasis around a word or short phrase ("*might*", "_possible_", "a small
#: *pneumothorax*", "is **likely** from"): the extractor's word boundaries do not see through a
#: single mark ("_" is a word character), and a bold mark splits a cue of several words ("likely
#: from", "most likely caused by"), so a mention it leaves unread is read again in a copy with the
#: marks blanked (same offsets).
_EMPHASIS = regex.compile(
    r"(?<![\w*])(\*\*|__|[*_])(?=[^\s*_])([^*_\n]{1,80}?)(?<=[^\s*_])\1(?![\w*])", regex.V1
)


def _emphasised_reading(output: str, start: int, end: int, plain_pairs: list[CueTargetPair]) -> CueTargetPair | None:
    """The pair of the emphasis-free copy whose target covers a mention the output's own reading left
    asserted ("There *might* be a small *pneumothorax*", "It is _possible_ that this is gout"), when
    an emphasis mark stands in its sentence: the mark is formatting, not wording. The source has
    no pair there either (its reading is the same), so a text scored against itself stays preserved."""
    for q in plain_pairs:
        if q.rule_id.startswith("alt.") or not (q.target_start <= start and end <= q.target_end + 1):
            continue
        if _EMPHASIS.search(output[q.sentence_start : q.sentence_end]):
            return q
    return None


#: What a "normal" statement's level says of the general finding it answers: "the lungs look
#: normal" is its absence, "the lungs do not look normal" its presence, "probably normal" a
#: leaning toward absence.
_NORMAL_MEANS = {
    Level.ASSERTED: Level.UL1,
    Level.UL1: Level.ASSERTED,
    Level.UL2: Level.HEDGED_ABSENT,
    Level.HEDGED_ABSENT: Level.UL2,
}

_GLOSS_LEAD = regex.compile(
    r"\(\s*(?:[*_]{1,2})?\s*(?:(?:also\s+)?(?:called|known\s+as|termed|named)|i\.?e\.?,?|that\s+is,?|=|or)?\s*"
    r"(?:[^()]{0,40}?(?:\s+or|\s+and|,|/)\s*)?(?:an?\s+|the\s+)?(?:[*_]{1,2})?$",
    regex.V1 | regex.IGNORECASE,
)


#: Between a subject and its predicate: "the ligament is **torn**", "the heart looks enlarged".
_PREDICATE_OF = regex.compile(
    r"\s*(?:\*\*|__)?\s*(?:is|are|was|were|be|been|looks?|seems?|appears?|remains?)"
    r"(?:\s+(?:[a-z]+ly|still|also|now))?\s*(?:\*\*|__)?\s*",
    regex.V1 | regex.IGNORECASE,
)
#: An alternative marker that offers a choice ("inj vs CTR"), never a second name of one thing.
_VERSUS = regex.compile(r"vs\.?|versus", regex.V1 | regex.IGNORECASE)
_AFTER_PAREN = regex.compile(r"\([^()\n]{1,40}\)[ \t]*$", regex.V1)
_GLOSS_PREDICATE = regex.compile(r"\b(?:is|are|was|were|be|looks?|seems?|appears?)\b", regex.V1 | regex.IGNORECASE)


#: A bare negation right before a mention ("not enlarged", "not significantly enlarged"), not
#: "whether or not" and not "not only".
_BARE_NOT = regex.compile(
    r"(?<![\w'’])(?<!\bor\s)(not|no)[ \t]+(?:(?:significantly|markedly|grossly|much|particularly|very)[ \t]+)?$",
    regex.V1 | regex.IGNORECASE,
)
#: A bare "no"/"without" before a short list the mention continues ("CT head: no bleed or fx",
#: "without fever, chills or rash"): the negation governs every item (the extractor reads none of
#: them when the first is no finding it knows).
#: A negated "have" before a finding that the extractor's lexicon has no cue for ("you never had",
#: "she has never had", "have not had any"): read as "no".
_NEVER_HAD = (
    r"never[ \t]+(?:had|has|have|experienced|noticed|developed|got|gotten)"
    r"|(?:have|has|had)[ \t]+(?:never|not)[ \t]+(?:had|experienced|noticed|developed)"
    r"|(?:haven|hasn|hadn)['’]t[ \t]+(?:had|experienced|noticed|developed)"
)
_NEVER_HAD_BEFORE = regex.compile(
    rf"(?<![\w'’])({_NEVER_HAD})[ \t]+(?:(?:any|an?)[ \t]+)?(?:[*_]{{1,2}})?$", regex.V1 | regex.IGNORECASE
)
_BARE_NO_LIST = regex.compile(
    rf"(?<![\w'’])(no|without|{_NEVER_HAD})[ \t]+(?:(?:any|other|an?)[ \t]+)?"
    r"(?P<items>(?:[A-Za-z][\w'’-]*(?:[ \t]+[A-Za-z][\w'’-]*){0,3}"
    r"(?:[ \t]*,[ \t]*(?:or[ \t]+|nor[ \t]+)?|[ \t]+(?:or|nor)[ \t]+|/))*)"
    r"(?:(?!(?:in|of|with|from|to|for|on|at|since|after|before|change|changes|improvement|relief|"
    r"longer|more|further|worsening|response|need|needs)\b)[A-Za-z][\w'’-]*[ \t]+){0,2}$",
    regex.V1 | regex.IGNORECASE,
)


def _bare_no_list(output: str, start: int, end: int) -> regex.Match[str] | None:
    """The bare negation of a list the mention is an item of (:data:`_BARE_NO_LIST`): a later item
    needs the list closed by "or"/"nor"/"/" (before the mention or after it, up to a clause word),
    and no clause word may break it ("no fever, cough for 3 days" is no list)."""
    m = _BARE_NO_LIST.search(output, max(0, start - 100), start)
    if m is None or _CLAUSE_WORDS.search(output, m.end(1), start):
        return None
    if m.group("items") is None or not m.group("items").strip():
        return m  # the first item: "never had face swelling"
    between = output[m.end(1) : start]
    if regex.search(r"(?:\b(?:or|nor)|/)[ \t]*(?:[A-Za-z][\w'’-]*[ \t]+){0,2}$", between, regex.IGNORECASE):
        return m
    rest = regex.split(r"[.;:!?\n()]", output[end : end + 120], maxsplit=1)[0]
    stop = _CLAUSE_WORDS.search(rest)
    rest = rest[: stop.start()] if stop is not None else rest
    if regex.search(r"\b(?:or|nor)\b|/", rest, regex.IGNORECASE):
        return m
    return None


#: Words that start a new clause inside a sentence: a negation before them does not reach a list
#: after them ("no fluid, but there may be scarring or atelectasis").
_CLAUSE_WORDS = regex.compile(
    r"\b(?:but|although|though|however|while|whereas|which|that|is|are|was|were|may|might|could|"
    r"can|possible|possibly|likely|probably|be|has|have|had|shows?|showed|seen|noted|suggests?|"
    r"because|so|if|unless|except|either|whether)\b",
    regex.V1 | regex.IGNORECASE,
)


def _list_negation(
    output: str, start: int, by_cue: tuple[list[CueTargetPair], list[int]]
) -> CueTargetPair | None:
    """The negation that governs a whole list an alternative marker was read in ("no signs of
    infection, fluid in or around the lungs, a collapsed lung, or any lumps"): the nearest earlier
    negated output pair of the same sentence, with only list items between (commas, "or"/"and",
    no clause break). A negation written after its own item ("X excluded, Y or Z") governs none."""
    ordered, cue_starts = by_cue
    for q in reversed(ordered[: bisect_left(cue_starts, start)]):
        if q.rule_id.startswith("alt."):
            continue
        if not (q.sentence_start <= start < q.sentence_end) or q.target_end > start:
            return None
        if q.level is not Level.UL1 or q.cue_start >= q.target_end:
            # a negation written after its item ("pneumonia excluded") governs no list after it
            return None
        between = output[q.target_end : start]
        if (
            len(between) > 200
            or regex.search(r"[.;:!?\n]", between)
            or _CLAUSE_WORDS.search(between)
            or "," not in between and not _COORD.search(between)
        ):
            return None
        # a list is closed by a coordinator: right before this item ("..., or swollen lymph
        # nodes") or later, with only list items between ("..., a collapsed lung, or lumps")
        if _COORD_LAST.search(between) or _COORD_LAST_ITEM.search(between):
            return q
        rest = regex.split(r"[.;:!?\n]", output[start : q.sentence_end], maxsplit=1)[0]
        if _COORD.search(rest) and not _CLAUSE_WORDS.search(rest):
            return q
        return None
    return None


#: A negation written as a label before a list ("**No signs of:** a collapsed lung, fluid ...",
#: "- Negative for: ..."): it governs every item of the list on its line.
_NEG_LABEL = regex.compile(
    r"[ \t]*(?:[-*•+][ \t]+)?(?:\*\*|__)?[ \t]*((?:no|without|negative[ \t]+for|none[ \t]+of|ruled[ \t]+out)"
    r"(?:[ \t]+(?:signs?|evidence|sign)(?:[ \t]+(?:of|for))?)?)[ \t]*(?:\*\*|__)?[ \t]*:[ \t]*(?:\*\*|__)?",
    regex.V1 | regex.IGNORECASE,
)


def _negation_label(output: str, start: int) -> Cue | None:
    """The negation label that opens the line of a mention, when only list items lie between."""
    ls = output.rfind("\n", 0, start) + 1
    m = _NEG_LABEL.match(output, ls, start)
    if m is None:
        return None
    between = output[m.end() : start]
    if len(between) > 300 or regex.search(r"[.;!?]", between) or _CLAUSE_WORDS.search(between):
        return None
    return Cue(
        text=m.group(1), start=m.start(1), end=m.end(1), level=Level.UL1, rule_id="ul1.no",
        direction=Direction.FORWARD,
    )  # fmt: skip


_COORD = regex.compile(r"\b(?:or|and|nor)\b", regex.V1 | regex.IGNORECASE)
_COORD_LAST = regex.compile(
    r"\b(?:or|and|nor)\s+(?:(?:no|any|a|an|the|other|signs?\s+of)\s+){0,3}$", regex.V1 | regex.IGNORECASE
)

#: The last item of a negated list opened by its own modifiers ("not noticed any bleeding from
#: your bowels, in your urine, or unusual period bleeding"): a coordinator, then up to three
#: words before the mention (the caller has already refused clause words between).
_COORD_LAST_ITEM = regex.compile(
    r",[ \t]*(?:or|and|nor)[ \t]+(?:[\w'’-]+[ \t]+){0,3}$", regex.V1 | regex.IGNORECASE
)


def _inner_cue(
    start: int, end: int, by_cue: tuple[list[CueTargetPair], list[int]]
) -> CueTargetPair | None:
    """The output pair whose cue lies inside [start, end), nearest the end (not an alternative)."""
    ordered, cue_starts = by_cue
    best = None
    for q in ordered[bisect_left(cue_starts, start) : bisect_left(cue_starts, end)]:
        if q.cue_end <= end and not q.rule_id.startswith("alt."):
            best = q
    return best


def _cue_around(
    start: int, end: int, by_cue: tuple[list[CueTargetPair], list[int]]
) -> CueTargetPair | None:
    """The output pair whose cue's own words contain [start, end) as the complement of "of" ("one
    sign OF DEHYDRATION to watch for is dizziness"): a condition named inside the cue is what the
    cue is about, at its level (an object in a cue's slot, "watch THE WOUND for", is not)."""
    ordered, cue_starts = by_cue
    for q in reversed(ordered[bisect_left(cue_starts, max(0, start - 200)) : bisect_right(cue_starts, start)]):
        if q.cue_start <= start and end <= q.cue_end and not q.rule_id.startswith("alt."):
            lead = q.cue_text[: start - q.cue_start]
            return q if _OF_BEFORE.search(lead) else None
    return None


_OF_BEFORE = regex.compile(r"(?<![\w'’])of[ \t]+(?:(?:an?|the|your|his|her|their)[ \t]+)?$", regex.V1 | regex.IGNORECASE)


def _as_cue(q: CueTargetPair) -> Cue:
    return Cue(
        text=q.cue_text, start=q.cue_start, end=q.cue_end, level=q.cue_level or q.level,
        rule_id=q.rule_id, direction=q.direction,
    )  # fmt: skip


#: Words of a verb group before or between a predicate's cue and its head: auxiliaries and a few
#: aspect/degree adverbs ("has", "may have", "might be", "has started to", "has partly").
_AUX = (
    r"(?:has|have|had|is|are|was|were|be|been|being|will|would|also|still|now|already|partly|"
    r"partially|slightly|slowly|just|started\s+to|begun\s+to|beginning\s+to|starting\s+to)"
)
#: A short place phrase between a subject and its verb group: "the swelling IN YOUR LEG has".
_POSTMOD = r"(?:[ \t]+(?:in|on|around|near|at|of)[ \t]+(?:(?:the|your|his|her|their|a|an|this|that)[ \t]+)?[\w-]+)?"
_VERB_GROUP = regex.compile(rf"{_POSTMOD}(?:[ \t]+{_AUX})*[ \t]+", regex.V1 | regex.IGNORECASE)
#: Roles of ``cuelex/data/output_reading.tsv`` (see the file's header).
OUTPUT_READING_ROLES = (
    "presence", "naming", "naming_anaphor", "example", "empty_head", "cause", "test", "test_before", "test_result",
    "before_ul2", "before_ul3", "after_ul1", "after_ha", "after_ul2", "after_ul3", "after_ul4", "after_ul5",
    "after_check", "check_whether", "condition_course", "check_pronoun",
    "result_negative",
)


@lru_cache(maxsize=1)
def output_reading() -> dict[str, tuple[tuple[str, str], ...]]:
    """Role → (pattern, example) rows of ``cuelex/data/output_reading.tsv``: the phrases the scorer
    reads a found mention's level by (presence predicates, naming, examples), kept as data. A
    space in a pattern stands for any run of spaces or tabs; a bad row raises ``VocabularyError``
    naming file and line."""
    rows = role_pattern_rows(DATA_DIR / "output_reading.tsv", OUTPUT_READING_ROLES, "output reading table")
    return {r: tuple(v) for r, v in rows.items()}


def _alternation(role: str) -> str:
    return "(?:" + "|".join(p for p, _ in output_reading()[role]) + ")"


@dataclass(frozen=True)
class _ReadingPatterns:
    """The compiled patterns of :func:`output_reading`, built once on first use."""

    #: "fluid has built up", "the pain has come back": a presence predicate (its head word at a target)
    presence: Any
    #: a negation in the verb group of a presence predicate: "the pain hasn't returned", "the
    #: swelling in your leg has not come back", "your symptoms never came back"
    negated_presence: Any
    #: ", called X", ", which doctors call X", right before the mention
    naming: Any
    #: "This is called X", "Doctors call this X" opening the mention's sentence
    naming_anaphor: Any
    #: ", such as X", "like X", right before the mention or before the list it ends
    example: Any
    #: "nothing", "anything": a head that names no finding
    empty_head: Any
    #: " might be causing", " is probably the cause of": a hedged verb group and a cause predicate
    #: after a mention (group ``pred``: the predicate)
    cause: Any


@lru_cache(maxsize=1)
def _patterns() -> _ReadingPatterns:
    flags = regex.V1 | regex.IGNORECASE
    presence = _alternation("presence") + r"\b"
    article = r"(?:[ \t]+(?:an?|the|any|some))?[ \t]+(?:[*_]{1,2})?"
    return _ReadingPatterns(
        presence=regex.compile(presence, flags),
        negated_presence=regex.compile(
            rf"{_POSTMOD}[ \t]+(?:(?:has|have|had|is|are|was|were|did|does|do)(?:(?P<neg>n[’']t)|[ \t]+(?P<neg>not))|(?P<neg>never))"
            rf"(?:[ \t]+{_AUX})*[ \t]+{presence}",
            flags,
        ),
        naming=regex.compile(rf"(?P<lead>{_alternation('naming')}){article}$", flags),
        naming_anaphor=regex.compile(
            rf"[ \t]*(?:[-*•+][ \t]+)?(?P<lead>{_alternation('naming_anaphor')}){article}$", flags
        ),
        example=regex.compile(rf"(?P<lead>{_alternation('example')}){article}", flags),
        empty_head=regex.compile(
            rf"(?<![\w'’])(?P<head>{_alternation('empty_head')})(?:[ \t]+[\w-]+){{0,3}}[ \t]*,?$", flags
        ),
        cause=regex.compile(
            rf"{_POSTMOD}(?:[ \t]+(?:{_HEDGE_GROUP_WORDS}))+[ \t]+(?:what[ \t]+(?:is|are)[ \t]+)?"
            rf"(?P<pred>{_alternation('cause')})\b",
            flags,
        ),
    )


#: The levels a hedged cause predicate gives its subject.
_CAUSE_LEVELS = frozenset({Level.UL2, Level.UL3, Level.UL4})
#: Words of a verb group that may carry a hedge before a cause predicate ("may well be", "is most
#: likely", "could also be").
_HEDGE_GROUP_WORDS = (
    r"may|might|could|can|would|will|is|are|was|were|be|been|probably|likely|most|possibly|perhaps|"
    r"also|partly|partially|well|still"
)


def _cause_predicate(
    output: str, start: int, end: int, engine: Any, sentences: list[tuple[int, int]]
) -> tuple[Level, Cue] | None:
    """(level, cue) when a mention is the subject of a hedged cause predicate: "a blockage might be
    causing your pain", "iron deficiency is probably the reason for your tiredness". The hedge in
    the verb group, or of a clause-taking cue before the subject ("we are worried a blockage might
    be causing"), is read by assessing the predicate; only a hedge (UL2–UL4) before the predicate
    counts: "is not causing" says nothing of the subject's presence."""
    found = _patterns().cause.match(output, end)
    if found is None:
        return None
    (a,) = engine.assess(output, [found.span("pred")], sentences=sentences)
    if a.cue is not None and a.level in _CAUSE_LEVELS and a.cue.end <= found.start("pred"):
        return a.level, a.cue
    # the extractor takes no target at a verb ("might be | causing"): the longest cue among the
    # verb group's own words decides
    found_cues = _lexicon_cues(output, end, found.start("pred"), engine, _CAUSE_LEVELS)
    if not found_cues:
        return None
    best = max(found_cues, key=lambda c: (c.end - c.start, -c.start))
    return best.level, best


def _lexicon_cues(
    output: str, lo: int, hi: int, engine: Any, levels: frozenset[Level], forward_only: bool = False
) -> list[Cue]:
    """Every run of one to four words of ``output[lo:hi]`` that is a whole cue of the extractor's
    own lexicon (:meth:`Engine.lookup`) at one of ``levels``, in text order: how the scorer reads a
    stretch the extractor gave no pair (a verb group, a head that names no finding) with the same cue
    engine instead of a word list of its own. Each is read forward, over what follows it;
    ``forward_only`` leaves out the cues written after their item ("pneumonia excluded")."""
    words = list(regex.finditer(r"[\w'’]+", output[lo:hi]))
    out: list[Cue] = []
    for i in range(len(words)):
        for j in range(i, min(len(words), i + 4)):
            s0, e0 = lo + words[i].start(), lo + words[j].end()
            hit = engine.lookup(output[s0:e0])
            if hit is None or hit[0] != "cue" or hit[2] is None or hit[2].level not in levels:
                continue
            if forward_only and hit[2].direction is Direction.BACKWARD:
                continue
            out.append(Cue(
                text=output[s0:e0], start=s0, end=e0, level=hit[2].level, rule_id=hit[1],
                direction=Direction.FORWARD,
            ))  # fmt: skip
    return out


def _predicate_pair(
    output: str, end: int, by_cue: tuple[list[CueTargetPair], list[int]]
) -> tuple[Level, Cue, int] | None:
    """(level, cue, end of the predicate) when a mention is the subject of a presence predicate
    whose verb group carries a cue: "some fluid has probably built up", "fluid might be
    collecting", "the pain hasn't returned". The mention's level is the cue's."""
    ordered, cue_starts = by_cue
    for q in ordered[bisect_left(cue_starts, end) : bisect_left(cue_starts, end + 60)]:
        if q.rule_id.startswith("alt.") or not (q.sentence_start <= end < q.sentence_end):
            continue
        if q.cue_end > q.target_start or not _VERB_GROUP.fullmatch(output, end, q.cue_start):
            continue
        gap = output[q.cue_end : q.target_start]
        if gap and not _VERB_GROUP.fullmatch(output, q.cue_end, q.target_start):
            continue
        if _patterns().presence.match(output, q.target_start, q.target_end):
            return q.level, _as_cue(q), q.target_end
    neg = _patterns().negated_presence.match(output, end)
    return None if neg is None else _negated_presence_within(output, end, neg.end())


def _negated_presence_within(output: str, start: int, end: int) -> tuple[Level, Cue, int] | None:
    """(UL1, cue, end) when the match ``start:end`` ends in a negated presence predicate ("the rash
    on your arm never came back"), as a recurrence qualifier matched by its verb does."""
    neg = _patterns().negated_presence.search(output, start, end)
    if neg is None or neg.end() != end:
        return None
    cue = Cue(
        text=neg.group("neg"), start=neg.start("neg"), end=neg.end("neg"), level=Level.UL1,
        rule_id="ul1.not", direction=Direction.FORWARD,
    )  # fmt: skip
    return Level.UL1, cue, end


#: The complementizer that opens a clause governed by what stands before it ("no sign THAT the
#: spleen is swollen", "not sure WHETHER", "does not look LIKE").
_COMPLEMENTIZER = regex.compile(r"\b(?:that|whether|if|like|as[ \t]+if|as[ \t]+though)\b", regex.V1 | regex.IGNORECASE)
#: What may stand between a complementizer and the mention: the clause's subject words, with no
#: break and no second clause ("that your left", "whether there is").
_CLAUSE_BREAK = regex.compile(
    r"[.;:!?,()\n]|\b(?:and|but|or|because|although|though|while|which|who|so|then|that|whether|if)\b",
    regex.V1 | regex.IGNORECASE,
)


def _complement_governor(
    output: str, start: int, by_cue: tuple[list[CueTargetPair], list[int]]
) -> CueTargetPair | None:
    """The output pair that governs the complement clause a mention stands in: its cue ends the
    governing expression right before the complementizer ("not sure whether", "it is possible that")
    or its target is the expression's head noun ("no SIGN that", "no INDICATION that"). The clause's
    subject and predicate are the finding, so the governor's level is the mention's."""
    ordered, cue_starts = by_cue
    lo = max(0, start - 80)
    comp = None
    for c in _COMPLEMENTIZER.finditer(output, lo, start):
        comp = c
    if comp is None or _CLAUSE_BREAK.search(output, comp.end(), start):
        return None
    for q in reversed(ordered[bisect_left(cue_starts, comp.start() - 120) : bisect_left(cue_starts, comp.start())]):
        if q.rule_id.startswith("alt.") or not (q.sentence_start <= start < q.sentence_end):
            continue
        if q.cue_end > comp.end():
            continue
        # the cue includes the complementizer, ends right before it, or names the expression's head
        head = q.target_end if q.cue_end <= q.target_start else q.cue_end
        if q.cue_end == comp.end() or 0 <= comp.start() - max(q.cue_end, head) <= 2:
            return q
        return None
    return None


_AND_NEW_SUBJECT = regex.compile(
    r",[ \t]*and[ \t]+(?:(?:some|a|an|the|your|his|her|their|more)[ \t]+)?$", regex.V1 | regex.IGNORECASE
)
_FINITE_AFTER = regex.compile(
    r"[ \t]+(?:has|have|had|is|are|was|were|will|may|might|could|can)\b", regex.V1 | regex.IGNORECASE
)


def _own_clause(output: str, list_end: int, start: int, end: int) -> bool:
    """Whether a mention after ", and" is the subject of a clause of its own ("no sign of pneumonia,
    and fluid has built up"), which an earlier negation does not reach."""
    return bool(_AND_NEW_SUBJECT.search(output[list_end:start]) and _FINITE_AFTER.match(output, end))


#: A linking verb that hedges the state or finding it links to ("seems well controlled",
#: "appears to be stable", "looks like it is healing", "seem to fit with migraine", "seems to
#: have pneumonia"): the guidelines' "appears to be", a probable reading (UL2). It must end right
#: before the mention, with only degree adverbs or an article between.
_COPULA_HEDGE = regex.compile(
    r"(?<![\w'’])(?P<cue>(?:seem|appear|look)(?:s|ed)?)"
    r"(?:[ \t]+(?:to[ \t]+(?:be|have|fit(?:[ \t]+with)?|match)"
    r"|like[ \t]+(?:it|this|that|they|he|she)(?:[ \t]+(?:is|are|has|have)|['’]s)))?"
    r"(?:[ \t]+(?:an?|the|a[ \t]+condition[ \t]+called|[a-z]+ly|still|now|fairly|pretty|quite|very))*"
    r"[ \t]+(?:\*\*|__)?$",
    regex.V1 | regex.IGNORECASE,
)
#: A negation in the same stretch before the linking verb: "does not seem", "nothing looks".
_NEG_BEFORE = regex.compile(r"(?<![\w'’])(?:not|no|nothing|never|none)[ \t]+(?:[\w'’]+[ \t]+){0,2}$|n['’]t[ \t]+$", regex.V1 | regex.IGNORECASE)


def _copula_hedge(output: str, start: int) -> Cue | None:
    """The hedging linking verb right before a mention ("seems well controlled"), unless a
    negation stands before the verb ("does not seem enlarged" is read by the negation)."""
    m = _COPULA_HEDGE.search(output, max(0, start - 60), start)
    if m is None or _NEG_BEFORE.search(output, max(0, m.start() - 30), m.start()):
        return None
    return _copula_cue(m.group("cue"), m.start("cue"))


@lru_cache(maxsize=1)
def _before_patterns() -> tuple[tuple[Level, Any], ...]:
    """(level, compiled pattern) of the ``before_*`` rows of ``cuelex/data/output_reading.tsv``,
    each ending right before a mention (an article, "a condition called" and emphasis may stand
    between)."""
    flags = regex.V1 | regex.IGNORECASE
    tail = (
        r")(?:[ \t]+(?:an?|the|some|possible))?(?:[ \t]+(?:condition|problem|disease|illness|infection)"
        r"[ \t]+(?:called|named|known[ \t]+as))?[ \t]+(?:\*\*|__|[*_])?$"
    )
    return tuple(
        (level, regex.compile(r"(?<![\w'’])(?P<cue>" + pattern + tail, flags))
        for role, level in (("before_ul2", Level.UL2), ("before_ul3", Level.UL3))
        for pattern, _example in output_reading()[role]
    )


def _before_hedge(output: str, start: int) -> Cue | None:
    """A hedge written right before a mention that the extractor's lexicon has no cue for ("make us
    CONCERNED ABOUT a condition called Kawasaki disease", "fevers FELT TO REFLECT septic emboli"),
    unless a negation stands before it ("not worried about a clot")."""
    for level, pattern in _before_patterns():
        m = pattern.search(output, max(0, start - 80), start)
        if m is not None and not _NEG_BEFORE.search(output, max(0, m.start() - 30), m.start()):
            s, e = m.span("cue")
            return Cue(text=output[s:e], start=s, end=e, level=level, rule_id=f"before.{level.value.lower()}",
                       direction=Direction.FORWARD)
    return None


#: A likelihood noun before a mention ("the CHANCE THAT YOU HAVE giant cell arteritis", "pretest
#: PROBABILITY OF GCA") ...
_CHANCE_BEFORE = regex.compile(
    r"(?<![\w'’])(?:(?:pre-?test|clinical|overall)[ \t]+)?(?:chance|probability|likelihood|odds)"
    r"(?:[ \t]+(?:that|of))?(?:[ \t]+(?:you|he|she|they|it|the[ \t]+patient|this)[ \t]+(?:have|has|had|is|are|was))?"
    r"(?:[ \t]+(?:an?|the|having))?[ \t]+(?:\*\*|__)?$",
    regex.V1 | regex.IGNORECASE,
)
#: ... and its degree right after it ("… IS HIGH", "… felt to be LOW", "GCA HIGH;"), which gives the level.
_CHANCE_AFTER = regex.compile(
    r"(?:\*\*|__)?[ \t]+(?:(?:is|are|was|seems|remains|felt[ \t]+to[ \t]+be|thought[ \t]+to[ \t]+be|considered)[ \t]+)?"
    r"(?:(?:very|quite|fairly|relatively)[ \t]+)?(?P<deg>high|low|small|moderate|intermediate)\b(?![ \t]+(?:for|in|of)\b)",
    regex.V1 | regex.IGNORECASE,
)
_CHANCE_LEVELS = MappingProxyType({
    "high": Level.UL2, "moderate": Level.UL3, "intermediate": Level.UL3, "low": Level.HEDGED_ABSENT,
    "small": Level.HEDGED_ABSENT,
})


def _chance_frame(output: str, start: int, end: int) -> Cue | None:
    """The level a likelihood frame around a mention gives it ("the chance that you have X is high":
    UL2; "… is moderate": UL3; "pretest probability of X low": hedged absent), or None."""
    before = _CHANCE_BEFORE.search(output, max(0, start - 80), start)
    if before is None:
        return None
    after = _CHANCE_AFTER.match(output, end)
    if after is None:
        return None
    s, e = after.span("deg")
    return Cue(text=output[s:e], start=s, end=e, level=_CHANCE_LEVELS[after.group("deg").lower()],
               rule_id="lay.chance_frame", direction=Direction.BACKWARD)


def _copula_cue(text: str, start: int) -> Cue:
    """The UL2 cue of a hedging linking verb ("seems", "looks like") at ``start``."""
    return Cue(
        text=text, start=start, end=start + len(text), level=Level.UL2,
        rule_id="ul2.copula_hedge", direction=Direction.FORWARD,
    )  # fmt: skip


#: Words that open a clause of its own between two conjuncts ("might have pneumonia, and your
#: heart IS enlarged"): a hedge on the first conjunct does not reach past them.
_CONJUNCT_CLAUSE = regex.compile(
    r"\b(?:is|are|was|were|has|have|had|will|shows?|showed|but|although|though|however|while|"
    r"whereas|because|so|if|unless|except|no|not|without|never)\b",
    regex.V1 | regex.IGNORECASE,
)
#: The stretch from a hedged target to a later conjunct: an optional place phrase, relative
#: clause and parenthesis on the first conjunct, then the coordinator (also a rewrite's "w/",
#: "together with", "as well as", "plus" for the source's "and"), a repeated preposition ("or TO",
#: "and FROM") and a determiner.
_CONJUNCT_LEAD = regex.compile(
    r"(?:[ \t]+(?:in|on|around|of|at|near|within)[ \t]+[^.;:!?,()\n]{1,40}?)?"
    r"(?:[ \t]+(?:that|which|who)[ \t]+[^.;:!?,()\n]{1,60}?)?(?:[ \t]*\([^()\n]{1,60}\))?[ \t]*,?[ \t]*"
    r"(?:and/or|or|and|versus|vs\.?|w/|together[ \t]+with|along[ \t]+with|as[ \t]+well[ \t]+as|plus)[ \t]+"
    r"(?:(?:to|from|for|of|with|by|due[ \t]+to)[ \t]+)?"
    r"(?:(?:an?|the|some|other|more|your|his|her|their)[ \t]+)?",
    regex.V1 | regex.IGNORECASE,
)


def _conjunct_of_hedged(
    output: str, start: int, by_cue: tuple[list[CueTargetPair], list[int]], gloss: bool
) -> CueTargetPair | None:
    """The hedged output pair whose target is the first conjunct of the phrase a mention stands in
    ("could be an infection or ASPIRATION", "may be due to heart failure or to too much fluid
    (VOLUME OVERLOAD)", "probably from fluid and from partly collapsed lung (ATELECTASIS)"): a
    hedge before coordinated findings covers each of them. ``gloss``: ``start`` is the opening
    parenthesis of a gloss, so a lay phrase of a few words may stand before it."""
    ordered, cue_starts = by_cue
    words = 10 if gloss else 3
    for q in reversed(ordered[bisect_left(cue_starts, start - 250) : bisect_left(cue_starts, start)]):
        if q.rule_id.startswith("alt.") or not (q.sentence_start <= start < q.sentence_end):
            continue
        if q.target_end > start or q.cue_start > q.target_start:
            continue
        if q.level in (Level.ASSERTED, Level.UL1):
            return None  # the nearest pair decides; a negated list is :func:`_list_negation`'s
        lead = _CONJUNCT_LEAD.match(output, q.target_end, start)
        if lead is None:
            return None
        rest = output[lead.end() : start]
        if regex.search(r"[.;:!?,()\n]", rest) or len(rest.split()) > words:
            return None
        if _CONJUNCT_CLAUSE.search(output, q.target_end, start):
            rel = output[q.target_end : lead.end()]
            # "that have partly collapsed" describes the first conjunct; any other verb opens a clause
            if _CONJUNCT_CLAUSE.search(rest) or not regex.match(r"[ \t]+(?:that|which|who)\b", rel, regex.IGNORECASE):
                return None
            if regex.search(r"\b(?:but|although|though|however|because|so|if|unless|no|not|never|without)\b", rel, regex.IGNORECASE):
                return None
        return q
    return None


#: The hedged levels a cause cue may carry over to a second cause ("likely caused by A and by B").
_CAUSE_HEDGE_LEVELS = frozenset({Level.UL2, Level.UL3, Level.UL4})
#: "and by", "and from", "and to" right before a mention: a second cause in the same construction.
_PARALLEL_LEAD = regex.compile(
    r",?[ \t]+(?:and|or|as[ \t]+well[ \t]+as)[ \t]+(?P<prep>by|from|to)[ \t]+(?:(?:an?|the|your|his|her|their|some)[ \t]+)?$",
    regex.V1 | regex.IGNORECASE,
)


def _parallel_cause(output: str, start: int, engine: Any) -> Cue | None:
    """The hedged cause cue that ends in the preposition a mention repeats ("most likely caused
    by the food you ate AND BY your high blood pressure", "probably due to X and to Y"): the hedge
    covers the second cause too, even when the first is no finding of its own."""
    lead = _PARALLEL_LEAD.search(output, max(0, start - 30), start)
    if lead is None or engine is None:
        return None
    prep = lead.group("prep").lower()
    lo = max(_clause_start(output, lead.start()), lead.start() - 120)
    found = [
        c for c in _lexicon_cues(output, lo, lead.start(), engine, _CAUSE_HEDGE_LEVELS, forward_only=True)
        if regex.search(rf"\b{prep}$", c.text, regex.IGNORECASE)
    ]
    if not found:
        return None
    last = max(found, key=lambda c: (c.end, c.end - c.start))
    between = output[last.end : lead.start()]
    if regex.search(r"[.;:!?()\n,]", between) or _CONJUNCT_CLAUSE.search(between) or len(between.split()) > 8:
        return None
    return last


#: What may stand between a hedged cause cue and the lay cause it names: an article or possessive
#: and up to three words of the phrase ("caused by | the | foods you ate", "from | eating | foods
#: outside your diet"), no punctuation.
_CAUSE_GAP = regex.compile(r"[ \t]+(?:[\w'’-]+[ \t]+){0,3}", regex.V1)


def _hedged_cause_before(output: str, start: int, engine: Any) -> Cue | None:
    """The hedged cause cue that ends right before a mention's phrase ("most likely caused by the
    foods you ate", "probably from eating salty food"): the cause the rewrite offers takes its
    hedge, when the extractor kept no pair for it (a lay phrase is no finding of its own). Only a
    cue ending in "by", "from", "to" or "of" counts."""
    if engine is None:
        return None
    lo = max(_clause_start(output, start), start - 80)
    found = [
        c for c in _lexicon_cues(output, lo, start, engine, _CAUSE_HEDGE_LEVELS, forward_only=True)
        if regex.search(r"\b(?:by|from|to|of)$", c.text, regex.IGNORECASE)
    ]
    if not found:
        return None
    last = max(found, key=lambda c: (c.end, c.end - c.start))
    gap = output[last.end : start]
    if gap and (not _CAUSE_GAP.fullmatch(gap) or _CLAUSE_WORDS.search(gap)):
        return None
    return last


# The heading-and-body layout around a mention (heading prefix and suffix, the "complaint – finding"
# title, the blank line and the next heading) lives in cuelex/scoring/markdown.py.


#: Heads a disease name is often shortened without ("Lyme disease" → "Lyme").
_GENERIC_DISEASE_HEADS = frozenset("disease syndrome infection disorder".split())
#: Side words a title and its body write short or long ("**Right ankle sprain**" / "c/w R ankle
#: sprain", "bilat" / "bilateral"): compared as their long form.
_SIDE_WORDS = MappingProxyType({k: long for k, (long, _always) in SIDE_SHORTHAND.items()})
#: A body target that names the title's own diagnosis ("**#1 Gout** – sx + labs c/w dx").
_TITLE_REFERENCES = frozenset("dx diagnosis".split())
#: Labels whose line states the assessment ("**Assessment:** Hepatitis C", "Dx: gout").
_ASSESSMENT_LABEL = regex.compile(
    r"(?:assessment|impression|dx|diagnos[ie]s|working[ \t]+dx|problem|a/p)", regex.V1 | regex.IGNORECASE
)
#: A full stop at the end of a line (it closes an assessment label's name).
_FULL_STOP = regex.compile(r"\.[ \t]*(?=\n|$)", regex.V1)
#: A line that is only a label ("**Key points:**", "Plan:"): the body of an assessment line goes on
#: under it.
_LABEL_ONLY_LINE = regex.compile(r"[ \t]*(?:\*\*|__)?[ \t]*[A-Za-z][\w /&-]{1,30}:[ \t]*(?:\*\*|__)?[ \t]*\n", regex.V1)


def _assessment_line(output: str, ls: int, start: int, body_start: int) -> int | None:
    """Where the body of an assessment label line starts when a mention is the line's whole
    statement ("**Assessment:** Hepatitis C" / "- Initial labs c/w HCV"): after the line, one blank
    line and a label-only line ("**Key points:**"); None when the line is not such a label line."""
    label = _md.inline_label(output, ls)
    if label is None or label.end() > start or not _ASSESSMENT_LABEL.fullmatch(label.group("label").strip()):
        return None
    stop = _FULL_STOP.match(output, body_start)
    if stop is not None:
        body_start = stop.end()  # a full stop closes the name: "**Assessment:** Right ankle sprain."
    if output[label.end() : start].strip(" \t*_") or (body_start < len(output) and output[body_start] != "\n"):
        return None
    gap = _md.BLANK_AFTER_HEADING.match(output, body_start)
    nxt = gap.end() if gap is not None else body_start + 1
    only = _LABEL_ONLY_LINE.match(output, nxt)
    return only.end() if only is not None else nxt


def _heading_body_pair(
    output: str, start: int, end: int, by_cue: tuple[list[CueTargetPair], list[int]]
) -> CueTargetPair | None:
    """The output pair in the body of a heading mention that states the same finding with a level
    ("**R elbow contusion** – exam c/w contusion", "### Reflux disease / consistent with GERD"):
    headings never assert a finding by themselves, the statement under them does. The body pair's
    target is the heading's own words (or their tail, "contusion"), an abbreviation of them
    (initials "CAD", a vocabulary abbreviation "GERD") or the same concept ("nephrolithiasis"); a
    negation counts only on the heading's whole phrase ("**Bleeding** / no further bleeding"), so
    "no pain at rest" under "Chest pain" stays a statement of its own."""
    ls = output.rfind("\n", 0, start) + 1
    after = _md.HEADING_SUFFIX.match(output, end)
    body_start = after.end()
    assessed = _assessment_line(output, ls, start, body_start)
    if assessed is not None:
        body_start = assessed
    elif not _md.HEADING_PREFIX.fullmatch(output, ls, start):
        label = _md.HEADING_LABEL_PREFIX.fullmatch(output, ls, start)
        closed = label is not None and (
            label.group("hash") or (label.group("bold") and label.group("bold") in after.group())
        )
        if not closed or (body_start < len(output) and output[body_start] != "\n"):
            return None  # a label line only when the title ends with the mention
    if (
        assessed is None and body_start < len(output) and output[body_start] != "\n"
        and not regex.search(r"[*_:–—-]", after.group())
    ):  # fmt: skip
        return None  # the line goes on with the sentence the mention stands in
    gap = _md.BLANK_AFTER_HEADING.match(output, body_start) if assessed is None else None
    if gap is not None:
        body_start = gap.end()  # "**Migraine**\n\n- possible migraine": the body after one blank line
    stop = output.find("\n\n", body_start)
    stop = min(len(output), body_start + 400) if stop == -1 else min(stop, body_start + 400)
    nxt = _md.NEXT_HEADING.search(output, body_start, stop)
    stop = nxt.start() if nxt is not None else stop
    words = [_SIDE_WORDS.get(w.lower(), w.lower()) for w in regex.findall(r"[\w]+", output[start:end])]
    if not words:
        return None
    initials = "".join(w[0] for w in words) if len(words) >= 2 else None
    ordered, cue_starts = by_cue
    for q in ordered[bisect_left(cue_starts, body_start - 200) : bisect_left(cue_starts, stop)]:
        if q.rule_id.startswith("alt.") or q.level is Level.ASSERTED:
            continue
        if not (body_start <= q.target_start and q.target_end <= stop):
            continue
        tw = [_SIDE_WORDS.get(w.lower(), w.lower()) for w in regex.findall(r"[\w]+", q.target_text)]
        if not tw:
            continue
        if q.level is not Level.UL1 and len(tw) == 1 and tw[0] in _TITLE_REFERENCES:
            return q  # "**#1 Gout** – exam c/w dx": the hedge is said of the title's diagnosis
        same = tw == words
        tail = len(tw) < len(words) and words[-len(tw) :] == tw
        # or the body names a kind of it: "**Ankle sprain** – c/w lateral ankle sprain"
        tail = tail or (len(tw) > len(words) and tw[-len(words) :] == words)
        abbrev = len(tw) == 1 and (
            tw[0] == initials
            or [w.lower() for w in regex.findall(r"[\w]+", expand_abbreviation(q.target_text))] == words
        )
        # or a short name without its generic head: "**Lyme disease**" / "presentation c/w Lyme"
        short = (
            len(tw) == 1 and len(words) == 2 and words[0] == tw[0] and words[1] in _GENERIC_DISEASE_HEADS
        )
        if same or (q.level is not Level.UL1 and (tail or abbrev or short)):
            return q
        if same_concept(q.target_text, output[start:end]):
            # the body names the heading's finding by a synonym of the vocabulary ("**Kidney
            # stone** – sx c/w nephrolithiasis", "**Pneumonia** / no PNA on CXR")
            return q
    return None


@lru_cache(maxsize=256)
def _short_name_patterns(short: str, head: str) -> tuple[Any, Any]:
    """Compiled once per name: the short name as a whole word, and its head right after it."""
    flags = regex.V1 | regex.IGNORECASE
    return (
        regex.compile(rf"(?<![\w'’-]){regex.escape(short)}(?![\w'’-])", flags),
        regex.compile(rf"[ \t]+{regex.escape(head)}", flags),
    )


def _short_name_checked(output: str, target: str, chosen: tuple[int, int]) -> tuple[int, int, Cue] | None:
    """An occurrence of a disease's short name ("Lyme" for "Lyme disease") outside the chosen
    mention that a test names ("Lyme titer sent") or a checked clause opens on ("to determine if
    Lyme is present"): (start, end, the UL5 cue), the first such; None otherwise."""
    words = target.split()
    if len(words) != 2 or words[1].lower() not in _GENERIC_DISEASE_HEADS or len(words[0]) < 3:
        return None
    name, head = _short_name_patterns(words[0], words[1])
    for found in name.finditer(output):
        s, e = found.span()
        if chosen[0] <= s < chosen[1] or head.match(output, e):
            continue  # the chosen mention itself, or the full name (an exact candidate already)
        check = _tested_for(output, s, e) or _checked_hedge(output, s, e)
        if check is not None:
            return s, e, check
    return None


#: Levels a list lead-in gives its items (the roles of ``cuelex/data/list_lead_ins.tsv``).
LIST_LEAD_IN_ROLES = ("UL1", "HEDGED_ABSENT", "UL2", "UL3", "UL4", "UL5")


@lru_cache(maxsize=1)
def list_lead_ins() -> tuple[tuple[Level, Any, str], ...]:
    """(level, compiled pattern, example) rows of ``cuelex/data/list_lead_ins.tsv``: the lead-in
    wording that puts the items of a list at a level ("Call us if you notice:", "Possible causes:",
    "Denies:"). A bad row raises ``VocabularyError`` naming file and line."""
    rows = role_pattern_rows(DATA_DIR / "list_lead_ins.tsv", LIST_LEAD_IN_ROLES, "list lead-in table")
    flags = regex.V1 | regex.IGNORECASE
    return tuple(
        (Level(role), regex.compile(pattern, flags), example) for role in LIST_LEAD_IN_ROLES for pattern, example in rows[role]
    )


def _lead_in_line(output: str, line_start: int) -> tuple[int, int] | None:
    """The span of the lead-in a list item at ``line_start`` hangs from: the nearest line above
    that is not an item (continuation lines of an item are passed over) when it ends with ':' or is
    a heading or a question (a Q&A heading: "What should you watch for?"), or a less indented item
    that ends with ':' (a nested list); a blank line ends the
    list. Only the lead-in's last sentence counts ("Your Hb was low. You have not noticed:")."""
    own_end = output.find("\n", line_start)
    own = output[line_start : len(output) if own_end == -1 else own_end]
    indent = len(own) - len(own.lstrip())
    end = line_start - 1
    for _ in range(40):
        if end <= 0:
            return None
        start = output.rfind("\n", 0, end) + 1
        line = output[start:end]
        if not line.strip():
            return None
        tail = line.rstrip().rstrip("*_").rstrip()
        if _md.item_marker(line):
            if len(line) - len(line.lstrip()) < indent and tail.endswith(":"):
                return start, end
        elif _md.is_heading_line(line, "lead_in") or tail.endswith((":", "?")):
            # a question over the items is a lead-in too ("What side effects should you watch for?")
            cut = max(line.rfind(c, 0, len(tail) - 1) for c in ".!?")
            return (start + cut + 1 if cut >= 0 else start), end
        elif not line[:1].isspace():
            return None  # a paragraph line between the lead-in and the item: not its list
        end = start - 1
    return None


def _list_lead_in(
    output: str, start: int, label: regex.Match[str] | None | EllipsisType = ...
) -> tuple[Level, Cue] | None:
    """The level a list's lead-in gives a mention that is one of its items ("**Call us if you
    notice:**\n- dyspnea at rest", "Possible causes:\n- pneumonia", "Denies:\n- GI bleeding",
    "### When to get help\n1. …"), or a "label:" before the run of items on the mention's own line
    ("- Return precautions: chest pain, fever"), or in parentheses right after the lead-in phrase
    ("spironolactone SEs (gynecomastia, dehydration)"): an LLM output writes the hedge once and lists
    the findings under it without a cue each. Lead-in wording is data (:func:`list_lead_ins`); a
    lead-in without such wording ("Plan:", "## Your heart") gives nothing. ``label``: the line's
    :func:`~cuelex.scoring.markdown.inline_label` match when the caller has it (None: no label)."""
    ls = output.rfind("\n", 0, start) + 1
    spans = []
    if label is ...:
        label = _md.inline_label(output, ls)
    if label is not None and label.end() <= start and not regex.search(r"[.!?;]", output[label.end() : start]):
        spans.append(label.span("label"))
    if _md.item_marker(output, ls):
        lead = _lead_in_line(output, ls)
        if lead is not None:
            spans.append(lead)
    paren = output.rfind("(", ls, start)
    close = output.find(")", start, start + 200) if paren != -1 else -1
    if (
        paren != -1
        and ")" not in output[paren:start]
        and not regex.search(r"[.!?;:]", output[paren:start])
        and regex.search(r",|\b(?:or|and)\b", output[paren : close if close != -1 else start])
    ):  # a list, not a gloss ("no sign of pneumonia (a lung infection)")
        # a run of items in parentheses after the lead-in phrase: "spironolactone SEs (gynecomastia,
        # dehydration)"; the phrase is the words right before "(" back to a clause break
        back = max(output.rfind(c, ls, paren) for c in ".;:!?(),")
        spans.append((back + 1 if back >= ls else ls, paren))
    for lo, hi in spans:
        head = _md.section_head_end(output, lo, hi)
        if head is not None and head.start() > lo and regex.search(r"\p{Ll}", output[lo : head.start()]):
            lo = head.start()  # "… denies IMPRESSION: PE": the report header starts a new statement
        # "There are **no signs** of:": emphasis marks are formatting, not wording (same offsets)
        text = output[:lo] + _unemphasised(output[lo:hi])
        best = None
        for level, pattern, _example in list_lead_ins():
            for m in pattern.finditer(text, lo, hi):
                if best is None or m.end() > best[1].end():
                    best = (level, m)
        if best is not None:
            level, m = best
            return level, Cue(
                text=output[m.start() : m.end()], start=m.start(), end=m.end(), level=level,
                rule_id="lead_in.list", direction=Direction.FORWARD,
            )  # fmt: skip
    return _inline_lead_in(output, start)


#: What separates the items of a run written inline: a comma (with "or"/"and" after it), or "or"/"and".
_RUN_SEP = regex.compile(r"[ \t]*,[ \t]*(?:(?:or|and)[ \t]+)?|[ \t]+(?:or|and)[ \t]+", regex.V1 | regex.IGNORECASE)
#: A lead-in that opens a condition: its items may be clauses ("call if your breathing gets worse,
#: you have a fever, or …").
_CONDITION_END = regex.compile(r"\b(?:if|when|should|in[ \t]+case|unless)\b", regex.V1 | regex.IGNORECASE)
#: A subject pronoun: in a run that is not a condition, an item opening a new clause ("… and you have").
_SUBJECT = regex.compile(r"(?<![\w'’])(?:you|he|she|they|we|i|it|there)(?![\w'’])", regex.V1 | regex.IGNORECASE)


#: A preposition before the mention inside its own item: the mention is then part of another item.
_RUN_PREPOSITION = regex.compile(
    r"(?<![\w'’])(?:of|from|in|on|with|for|to|at|by|about|after|before|since|during|because|due)(?![\w'’])",
    regex.V1 | regex.IGNORECASE,
)


#: A piece that opens a clause of its own, not an item: "but …", "which …", "called …".
_CLAUSE_OPEN = regex.compile(
    r"[ \t]*(?:but|so|yet|because|although|though|while|whereas|which|who|that|called|where|as|since|then|otherwise)(?![\w'’])",
    regex.V1 | regex.IGNORECASE,
)
#: A finite verb in a run that is no condition: the piece is a clause ("the scan was clear").
_FINITE = regex.compile(
    r"(?<![\w'’])(?:is|are|was|were|has|have|had|will|would|can|may|might|could|should|did|does|do|shows?|showed)(?![\w'’])",
    regex.V1 | regex.IGNORECASE,
)


#: "or"/"and" in a separator of an inline run: the items were joined, not just listed.
_JOINER = regex.compile(r"\b(?:or|and)\b", regex.V1 | regex.IGNORECASE)
#: A label's colon right after a lead-in ("Other possibilities: typhoid, dengue").
_LABEL_COLON = regex.compile(r"(?:\*\*|__)?[ \t]*:(?:\*\*|__)?", regex.V1)
#: The rest of a mention's own piece of a run, up to the next separator or clause mark.
_OWN_PIECE = regex.compile(r"[^,;.:!?()\[\]\n→]*", regex.V1)
#: Where a written condition's run ends: the sentence, a colon or parenthesis, an arrow, "then".
_CONDITION_STOP = regex.compile(r"[.;!?\n:()]|→|->|=>|[ \t]then\b", regex.V1 | regex.IGNORECASE)


def _item_run(between: str, clausal: bool) -> tuple[int, bool] | None:
    """Whether ``between`` (from the end of a lead-in or condition opener to a mention) is a run of
    inline list items ending in the mention's own item: (number of items before it, whether an
    "or"/"and" joined them); None when it is prose. Items are short (clauses allowed in a
    condition), the mention's own item has at most a few words before it."""
    if regex.search(r"[.;:!?()\[\]\n→=]", between) or len(between) > 220:
        return None
    pieces = _RUN_SEP.split(between)
    own = pieces[-1].split()
    if len(own) > (4 if clausal else 2) or _RUN_PREPOSITION.search(pieces[-1]):
        return None  # "if you have pain FROM the injury": the mention is inside an item, not one
    for piece in pieces[:-1]:
        n = len(piece.split())
        if n == 0 or n > (12 if clausal else 6):
            return None
    if any(_CLAUSE_OPEN.match(piece) for piece in pieces[1:]):
        return None  # "…, but your gallbladder is inflamed, called …": a new clause, no item
    if not clausal and any(_SUBJECT.search(piece) or _FINITE.search(piece) for piece in pieces):
        return None
    joined = any(_JOINER.search(sep.group()) for sep in _RUN_SEP.finditer(between))
    return len(pieces) - 1, joined


def _inline_lead_in(output: str, start: int) -> tuple[Level, Cue] | None:
    """The level a lead-in of the same clause gives a mention that is one item of the inline run after
    it ("Advised ED attendance for fever, painful skin or facial swelling", "Other possible causes
    include typhoid, dengue and acute HIV", "Call the office if your breathing gets worse, you have a
    fever, or …"): the extraction reads the first item after the lead-in; the scorer reads every
    item of the run. Lead-in wording is :func:`list_lead_ins`; the run is :func:`_item_run`."""
    lo = _clause_start(output, start)
    text = output[:lo] + _unemphasised(output[lo:start])
    best = None
    for level, pattern, _example in list_lead_ins():
        for m in pattern.finditer(text, lo, start):
            if best is None or m.end() > best[1].end():
                best = (level, m)
    if best is None:
        return None
    level, m = best
    clausal = _CONDITION_END.search(output, m.start(), m.end()) is not None and level is Level.UL5
    # a label's colon right after the lead-in: "… today. Other possibilities: typhoid, dengue"
    label = _LABEL_COLON.match(output[m.end() : start])
    if _item_run(output[m.end() + (label.end() if label else 0) : start], clausal) is None:
        return None
    if not clausal:
        # "no sign of a collapsed lung, and fluid has collected": the mention's own piece goes on
        # with a verb of its own, a new clause rather than an item of the run
        tail = _OWN_PIECE.match(output, start)
        if tail is not None and _FINITE.search(tail.group()):
            return None
    return level, Cue(
        text=output[m.start() : m.end()], start=m.start(), end=m.end(), level=level,
        rule_id="lead_in.run", direction=Direction.FORWARD,
    )  # fmt: skip


def _unemphasised(text: str) -> str:
    """``text`` with its markdown emphasis marks blanked (:data:`_EMPHASIS`; same offsets)."""
    return _EMPHASIS.sub(lambda e: " " * len(e.group(1)) + e.group(2) + " " * len(e.group(1)), text)


#: Roles of ``cuelex/data/plan_labels.tsv``.
PLAN_LABEL_ROLES = ("plan", "treated")


@lru_cache(maxsize=1)
def plan_labels() -> dict[str, tuple[tuple[Any, str], ...]]:
    """Role → (compiled pattern, example) rows of ``cuelex/data/plan_labels.tsv``: the labels whose
    items are things to look for ("Workup:", "F/u:", "Pending:") and the treatment words that make an
    item a treated condition instead. A bad row raises ``VocabularyError`` naming file and line."""
    rows = role_pattern_rows(DATA_DIR / "plan_labels.tsv", PLAN_LABEL_ROLES, "plan label table")
    flags = regex.V1 | regex.IGNORECASE
    return {role: tuple((regex.compile(p, flags), e) for p, e in rows[role]) for role in PLAN_LABEL_ROLES}


@lru_cache(maxsize=1)
def _test_patterns() -> tuple[Any, Any, Any, Any, Any]:
    """Compiled (test noun after a mention, test noun + "for" before it, test word right before it,
    result word, test noun + "(" before it) patterns from the ``test``, ``test_before`` and
    ``test_result`` rows of ``cuelex/data/output_reading.tsv``."""
    flags = regex.V1 | regex.IGNORECASE
    test = _alternation("test")
    qualifier = r"(?:[ \t-]+(?:[A-Z0-9]{1,3}|rapid|antigen|pcr|antibody|serology))?"
    after = regex.compile(rf"{qualifier}[ \t-]+(?P<test>{test})(?![\w/-])", flags)
    before = regex.compile(
        rf"(?<![\w/-])(?P<test>{test})(?:[ \t]+[\w/-]+){{0,3}}?[ \t]+for"
        r"(?:[ \t]+(?:an?|the|any|possible|suspected))?[ \t]+$",
        flags,
    )
    rapid = regex.compile(rf"(?<![\w/-])(?P<test>{_alternation('test_before')})[ \t]+$", flags)
    result = regex.compile(rf"(?<![\w/-]){_alternation('test_result')}(?![\w/-])", flags)
    # "Ultrasound (gallstones)", "CBC, iron panel (anemia, B12 deficiency)": the mention is an item
    # of a parenthetical right after the test noun
    paren = regex.compile(
        rf"(?<![\w/-])(?P<test>{test})[ \t]*\((?:[^()\n]{{0,60}}?(?:[,;]|[ \t](?:vs\.?|versus|or))[ \t]*)?$", flags
    )
    return after, before, rapid, result, paren


#: What ends a clause for a test phrase's result: a sentence end, ";", an arrow, a line end.
_TEST_CLAUSE_END = regex.compile(r"[.;!?\n]|→|->|=>")
#: A condition before a result word ("if positive", "in case it is positive"): no result yet; a
#: rule-out names the finding, not a result ("r/o abnormal acid exposure").
_IF_BEFORE = regex.compile(
    r"(?<![\w'’])(?:if|whether|in case|once|when|until)\W+(?:(?:\w+)\W+){0,3}$"
    r"|(?<![\w'’])(?:r/o|rule[ \t]+out|ruling[ \t]+out|to[ \t]+exclude)[ \t]+$",
    regex.IGNORECASE,
)


def _tested_for(output: str, start: int, end: int) -> Cue | None:
    """The test phrase that names a mention as what it looks for ("Rapid strep test today",
    "diabetic retinopathy screen", "CT abdomen for appendicitis", "rapid flu", "Ultrasound
    (gallstones)", "f/u for signs of infection"), as a UL5 cue; None
    when the clause gives the result ("strep test positive", "a positive flu swab", "CT for
    appendicitis showed ...") or no test names it. Tables: ``test``, ``test_before``, ``test_result``
    rows of ``cuelex/data/output_reading.tsv``."""
    after, before, rapid, result, paren = _test_patterns()
    lo = _clause_start(output, start)
    end_m = _TEST_CLAUSE_END.search(output, end)
    hi = end_m.start() if end_m is not None else len(output)
    found = after.match(output, end, hi) or before.search(output, max(lo, start - 60), start)
    if found is None:
        found = rapid.search(output, max(lo, start - 40), start)
    if found is None and regex.match(r"[^()\n]{0,60}\)", output[end:]):
        # a ";" inside the parenthetical separates its items, not clauses: "study (r/o X; Y vs Z)"
        open_at = output.rfind("(", max(0, start - 80), start)
        plo = lo
        if open_at != -1 and open_at < lo and "\n" not in output[open_at:start] and ")" not in output[open_at:start]:
            plo = max(output.rfind(c, 0, open_at) for c in ".;!?\n") + 1
            hi = max(hi, output.find(")", end) + 1)
            lo = plo
        found = paren.search(output, max(plo, start - 80), start)
    if found is None:
        return None
    for r in result.finditer(output, lo, hi):
        if not _IF_BEFORE.search(output, max(lo, r.start() - 40), r.start()):
            return None
    s, e = found.span("test")
    return Cue(text=output[s:e], start=s, end=e, level=Level.UL5, rule_id="lead_in.test", direction=Direction.FORWARD)


#: A clause opener that makes what follows a written condition ("If", "Should", "In case").
_IF_OPEN = regex.compile(r"(?<![\w'’/])(?:if|should|in[ \t]+case|unless)[ \t]+", regex.V1 | regex.IGNORECASE)
#: What ends a condition before its consequence: an arrow, a comma, "then".
_CONSEQUENCE = regex.compile(r"[^.;!?\n,:→]{0,60}?(?:→|->|=>|,|:|[ \t]then\b)", regex.V1 | regex.IGNORECASE)


@lru_cache(maxsize=1)
def _check_patterns() -> tuple[Any, Any]:
    """Compiled (checked clause opener, course of a condition before an arrow) patterns from the
    ``check_whether`` and ``condition_course`` rows of ``cuelex/data/output_reading.tsv``."""
    flags = regex.V1 | regex.IGNORECASE
    checked = regex.compile(rf"(?<![\w'’])(?:{_alternation('check_whether')})[ \t]+", flags)
    course = regex.compile(
        rf"[ \t]+(?:{_alternation('condition_course')})(?![\w'’])[^.;!?\n→]{{0,40}}?(?:→|->|=>)", flags
    )
    return checked, course


def _clause_start(output: str, start: int) -> int:
    """Where the clause of a position opens: after a sentence end, ";", a line break or an arrow."""
    ls = max(output.rfind(c, 0, start) for c in ".;!?\n") + 1
    arrow = max(output.rfind(a, ls, start) for a in ("→", "->", "=>"))
    return max(ls, arrow + (2 if output.startswith("->", arrow) or output.startswith("=>", arrow) else 1))


def _condition_clause(output: str, start: int, end: int) -> Cue | None:
    """The written condition a mention stands in ("If EGD nl + sx persist → ...", "if the rash
    spreads, ..."; or "Sx persist → consider injection": the mention opens its clause and a course
    word of ``condition_course`` leads to an arrow), as a UL5 cue; None otherwise. The condition
    must end in its consequence (arrow, comma, "then") within the sentence."""
    lo = _clause_start(output, start)
    opener = None
    for o in _IF_OPEN.finditer(output, lo, start):
        opener = o
    if opener is not None:
        # a parenthetical inside the condition is no boundary: "if the MRI shows a serious (high-grade) tear,"
        between = _PARENTHETICAL.sub("", output[opener.end() : start])
        if (
            len(between) <= 40 and not regex.search(r"[,:()]", between) and _CONSEQUENCE.match(output, end)
        ) or _condition_list(output, between, end) or _condition_last(output, lo, opener, between, end):
            return Cue(
                text=opener.group().strip(), start=opener.start(), end=opener.start() + len(opener.group().strip()),
                level=Level.UL5, rule_id="ul5.written_condition", direction=Direction.FORWARD,
            )  # fmt: skip
        return None
    lead = output[lo:start]
    if regex.fullmatch(r"[ \t]*(?:[-*•+][ \t]+|\d+[.)][ \t]+)?(?:\*\*)?", lead):
        found = _check_patterns()[1].match(output, end)
        if found is not None:
            w = regex.match(r"[ \t]+", output[end:]).end()
            word = regex.match(r"[\w'’ ]+?(?=[ \t]*(?:$|[^\w'’ ]|[ \t](?:on|despite|after|with|in|at)\b))", output[end + w :])
            text_end = end + w + (word.end() if word else 0)
            return Cue(
                text=output[end + w : text_end] or output[end:found.end()], start=end + w,
                end=text_end if text_end > end + w else found.end(), level=Level.UL5,
                rule_id="ul5.condition_course", direction=Direction.BACKWARD,
            )  # fmt: skip
    return None


#: A short parenthetical inside a clause: "(high-grade)", "(esp. the knee)".
_PARENTHETICAL = regex.compile(r"[ \t]*\([^()\n]{1,40}\)", regex.V1)


#: A negated state after a checked mention: "… is not torn", "… hasn't spread", "… isn't there".
_NOT_STATE = regex.compile(r"[ \t]+(?:is|are|was|were|has|have|had)(?:n['’]t|[ \t]+not)\b", regex.V1 | regex.IGNORECASE)


def _condition_last(output: str, lo: int, opener: regex.Match[str], between: str, end: int) -> bool:
    """Whether a short condition written after its consequence ends the sentence with the mention:
    "start zoledronic acid if further bone loss.", "message us sooner if the rash is spreading."
    (the consequence comes first, so the sentence end closes the condition)."""
    if not regex.search(r"\w", output[lo : opener.start()]) or regex.search(r"[,:()]", between):
        return False
    if len(between.split()) > 3:
        return False
    return regex.match(r"[ \t]*(?:[.!;]|\n|$)", output[end:]) is not None


def _condition_list(output: str, between: str, end: int) -> bool:
    """Whether a mention is one item of a written condition's run of items ("If new weakness, vision
    loss, or worst headache → ED", "If fever, chills, or a spreading rash, then …"): the items from
    the opener to the mention (:func:`_item_run`), the rest of the run after it, then the
    consequence (an arrow or "then"; a comma only right after the run's last item, the one after
    "or"/"and"), within the sentence."""
    if "," not in between:
        return False
    run = _item_run(between, clausal=True)
    if run is None:
        return False
    joined = run[1]
    stop = _CONDITION_STOP.search(output, end, end + 200)
    if stop is None:
        return False
    rest = output[end : stop.start()]
    pieces = _RUN_SEP.split(rest)
    seps = [sep.group() for sep in _RUN_SEP.finditer(rest)]
    if any(len(piece.split()) > (5 if i == 0 else 12) for i, piece in enumerate(pieces)):
        return False
    if stop.group().strip() in ("→", "->", "=>", "then"):
        return joined or any(_JOINER.search(sep) for sep in seps)
    # "If fever, chills, or a rash, call us": the consequence follows the comma after the last item
    if not seps:
        return False
    if joined:
        return "," in seps[0] and len(pieces[0].split()) <= 5
    last_or = next((i for i, sep in enumerate(seps) if regex.search(r"\b(?:or|and)\b", sep, regex.IGNORECASE)), None)
    return last_or is not None and len(seps) > last_or + 1 and "," in seps[last_or + 1]


def _checked_hedge(output: str, start: int, end: int | None = None) -> Cue | None:
    """The opener of a checked clause ("to check whether", "to see if") right before a mention as
    the clause's subject ("to assess whether BLOOD SUPPLY is adequate"), as a UL5 cue; None when
    the mention stands outside such a clause. (A modal the extraction reads inside the clause, "to
    check whether you MAY have", keeps its own level: a text scored against itself keeps its levels.)"""
    lo = max(_clause_start(output, start), start - 60)
    opener = None
    for o in _check_patterns()[0].finditer(output, lo, start):
        opener = o
    if opener is None or not regex.fullmatch(
        r"(?:(?:the|your|his|her|their|an?|any|some|this)[ \t]+)?", output[opener.end() : start], regex.IGNORECASE
    ):
        return None
    if (
        end is not None
        and regex.search(r"\b(?:make sure|ensure)\b", opener.group(), regex.IGNORECASE)
        and not _NOT_STATE.match(output, end)
    ):
        # "to make sure the ACL is not torn" checks for the finding; "to make sure the infection
        # clears up" is said of a finding that is there
        return None
    return Cue(
        text=opener.group().strip(), start=opener.start(), end=opener.start() + len(opener.group().strip()),
        level=Level.UL5, rule_id="lead_in.check_whether", direction=Direction.FORWARD,
    )  # fmt: skip


def _plan_label(
    output: str, start: int, label: regex.Match[str] | None | EllipsisType = ...
) -> Cue | None:
    """The plan label that opens the line of a mention, when the mention is one of its items
    ("Workup: CT chest for pulmonary nodule", "- F/u: repeat CXR, underlying pneumonia"): the finding
    is something to look for (UL5), as after a plan verb. No sentence end may stand between label and
    mention, nor a treatment word ("Plan: abx for pneumonia") or a verb that makes the item a
    statement ("Plan: since she has pneumonia"); an assessment label ("Dx:") is no plan label.
    ``label``: the line's :func:`~cuelex.scoring.markdown.inline_label` match when the caller has
    it (None: no label), so that it is matched once for the lead-in and the plan label."""
    if label is ...:
        label = _md.inline_label(output, output.rfind("\n", 0, start) + 1)
    if label is None or label.end() > start:
        return None
    between = output[label.end() : start]
    if regex.search(r"[.!?]", between) or _STATEMENT_VERB.search(between):
        return None
    rows = plan_labels()
    name = label.group("label").strip()
    if not any(pattern.fullmatch(name) for pattern, _example in rows["plan"]):
        return None
    if any(pattern.search(between) for pattern, _example in rows["treated"]):
        return None
    lo, hi = label.span("label")
    return Cue(
        text=output[lo:hi], start=lo, end=hi, level=Level.UL5, rule_id="lead_in.plan_label",
        direction=Direction.FORWARD,
    )  # fmt: skip


#: The start of the next list item on the next line (a bullet or number), or nothing.
_NEXT_ITEM = regex.compile(r"[ \t]*(?:\n[ \t]*(?:[-*•]|\d{1,2}[.)])[ \t]+)?", regex.V1)
#: Generic heads a demonstrative refers back to a diagnosis with ("fits with THIS CONDITION"); a
#: "type of", "kind of" or "form of" phrase counts only with the mention's own last word ("this type
#: of asthma").
_ANAPHOR_HEADS = frozenset("condition problem diagnosis disease illness".split())
_DEMONSTRATIVE = regex.compile(r"(?<![\w'’])(?:this|that|these|those)[ \t]+$", regex.V1 | regex.IGNORECASE)


def _anaphoric_hedge(
    output: str, start: int, end: int, by_cue: tuple[list[CueTargetPair], list[int]]
) -> CueTargetPair | None:
    """The pair of the next sentence that hedges a mention by referring back to it ("You have
    moderate intermittent asthma. Your symptoms are consistent with this type of asthma.", "… Your
    exam today fits with this condition."): its target opens with a demonstrative and is a generic
    head ("condition", "type of …") or the mention's own last word. The mention then states no more
    than that pair does: the hedge is said of it, one sentence later."""
    sent_end = min((i for i in (output.find(c, end) for c in ".!?") if i != -1), default=-1)
    if sent_end == -1 or "\n\n" in output[end:sent_end]:
        return None
    # the next sentence may open the next list item ("- … (PFPS).\n- Your symptoms fit with this
    # condition.")
    item = _NEXT_ITEM.match(output, sent_end + 1)
    nxt_start = item.end() if item is not None else sent_end + 1
    nxt_end = min((i for i in (output.find(c, nxt_start) for c in ".!?\n") if i != -1), default=len(output))
    if "\n\n" in output[sent_end:nxt_end]:
        return None
    last = regex.findall(r"[\w-]+", output[start:end].lower())
    ordered, cue_starts = by_cue
    for q in ordered[bisect_left(cue_starts, sent_end + 1) : bisect_left(cue_starts, nxt_end)]:
        if q.rule_id.startswith("alt.") or q.level is Level.ASSERTED or q.target_end > nxt_end:
            continue
        if not _DEMONSTRATIVE.search(output, max(0, q.target_start - 8), q.target_start):
            continue
        words = regex.findall(r"[\w-]+", q.target_text.lower())
        if words and ((len(words) == 1 and words[0] in _ANAPHOR_HEADS) or (last and words[-1] == last[-1])):
            return q
    return None


@lru_cache(maxsize=1)
def _check_pronoun_pattern() -> Any:
    """A purpose said of a pronoun (``check_pronoun`` rows, then "it"/"this"/"that" closing the
    phrase): "to check on it", "to follow up on this, and …"."""
    return regex.compile(
        r"(?<![\w'’])" + _alternation("check_pronoun").replace(" ", r"[ \t]+")
        + r"[ \t]+(?P<pron>it|this|that)(?=[ \t]*(?:[,.;:!?)\n]|$)|[ \t]+(?:and|with|again|soon|today|"
        r"closely|later|next|over|in|at)\b)",
        regex.V1 | regex.IGNORECASE,
    )


def _checked_pronoun(output: str, end: int) -> Cue | None:
    """The purpose phrase of one of the next two sentences of the paragraph whose pronoun points
    back to a mention that closes its own sentence ("… a sound in your heart called a murmur. It
    has been heard before. We will order an ultrasound to follow up on it."). A sentence between
    must point back too (a pronoun or demonstrative in it), so the pronoun still has the mention as
    its antecedent."""
    stop = regex.compile(r"[ \t*_)\]]*[.!?]", regex.V1).match(output, end)
    if stop is None:
        return None  # the mention does not close its sentence
    pos = stop.end()
    for k in range(2):
        nxt = regex.compile(r"[^.!?]*[.!?]|[^.!?]+$", regex.V1).match(output, pos)
        if nxt is None or "\n\n" in nxt.group() or not nxt.group().strip():
            return None
        sentence = nxt.group()
        found = _check_pronoun_pattern().search(sentence)
        if found is not None:
            s0, e0 = pos + found.start(), pos + found.end()
            return Cue(
                text=output[s0:e0], start=s0, end=e0, level=Level.UL5, rule_id="ul5.check_pronoun",
                direction=Direction.BACKWARD,
            )  # fmt: skip
        if k == 0 and not regex.search(r"(?<![\w'’])(?:it|this|that|these|they)(?![\w'’])", sentence, regex.IGNORECASE):
            return None
        pos = nxt.end()
    return None


#: A mention that restates a name rather than a claim: defined right after it ("X is when …", "X
#: means …", "X is a condition …").
_DEFINED_AFTER = regex.compile(
    r"(?:\*\*|__)?[ \t]+(?:(?:is|are)[ \t]+(?:when|what[ \t]+happens|an?[ \t]+(?:[\w-]+[ \t]+){0,2}"
    r"(?:condition|disease|infection|problem|illness|term|word|name)\b)|means\b|refers[ \t]+to\b|"
    r"(?:happens|occurs)[ \t]+when\b)",
    regex.V1 | regex.IGNORECASE,
)
#: A verb that would make the text after a "label:" a statement of its own.
_STATEMENT_VERB = regex.compile(
    r"(?<![\w'’])(?:is|are|was|were|has|have|had|shows?|showed|looks?|seems?|appears?|fits?|suggests?|"
    r"may|might|could|will|would|can|should|likely|probably|possibly|found|confirmed|diagnosed)(?![\w'’])",
    regex.V1 | regex.IGNORECASE,
)


def _same_role_alternative(
    source_level: Level,
    chosen: tuple[int, int],
    level: Level,
    candidates: Sequence[tuple[int, int]],
    cand_levels: Sequence[Level],
) -> int | None:
    """The index of the best-ranked other occurrence that plays the source statement's role when the
    chosen one does not, else None. Roles: a check, plan or contingency (UL5) against a stated
    finding (any other level). "Possible ACL tear" corresponds to "you may have a torn ACL", not
    to "an MRI to check for an ACL tear" in the same rewrite, and "MRI to evaluate for a tear" the
    reverse. A stated alternative must carry a level of its own (not an asserted name or heading)."""
    plan = source_level is Level.UL5
    if (level is Level.UL5) == plan:
        return None
    for i, (span, lv) in enumerate(zip(candidates, cand_levels, strict=False)):
        if span == chosen:
            continue
        if (lv is Level.UL5) if plan else lv not in (Level.UL5, Level.ASSERTED):
            return i
    return None


def _restates(output: str, start: int, end: int) -> bool:
    """True when a mention restates the finding's name rather than a claim about the patient: a
    definition ("Coronary artery disease is when …") or a verbless "label: name" line ("**Assessment:**
    mild cholecystitis w/ gallstones.", "Overall: emphysema changes")."""
    if _DEFINED_AFTER.match(output, end):
        return True
    ls = output.rfind("\n", 0, start) + 1
    colon = output.rfind(":", ls, start)
    if colon == -1 or regex.search(r"[.;!?]", output[colon:start]):
        return False
    stop = min((i for i in (output.find(c, end) for c in ".;!?\n") if i != -1), default=len(output))
    return not _STATEMENT_VERB.search(output, colon, stop)


#: Findings offered as alternatives around an "or" the extractor left (it skips an "or" in a clause
#: with a verb, "she sits or stands"): the mention, then "or" and another noun phrase ("shows
#: scarring OR small areas of collapse"), or a noun phrase and "or" before it ("from bronchitis OR
#: an early pneumonia"). Not counts ("one or two"), "with or without", "or so/more/less/both".
_NOT_ALT_WORDS = (
    r"(?:not|so|more|less|worse|better|both|other|else|one|two|three|four|few|several|with|without|"
    r"in|on|at|to|of|for|from|by|and|either|whether|right|left|once|twice|sooner|later|now)"
)
_OR_AFTER = regex.compile(
    rf"(?:\*\*|__)?[ \t]+(?P<cue>or|and/or|versus|vs\.?)[ \t]+(?!{_NOT_ALT_WORDS}\b)"
    r"(?:(?:an?|some|the)[ \t]+)?[A-Za-z][\w-]{2,}",
    regex.V1 | regex.IGNORECASE,
)
_OR_BEFORE = regex.compile(
    rf"(?<![\w'’])(?!{_NOT_ALT_WORDS}\b)[A-Za-z][\w-]{{2,}}[ \t]+(?P<cue>or|and/or|versus|vs\.?)[ \t]+"
    r"(?:(?:an?|some|the)[ \t]+)?(?:\*\*|__)?$",
    regex.V1 | regex.IGNORECASE,
)
#: What makes a clause other than a statement of findings: a negation, a condition, a question.
_NOT_STATEMENT = regex.compile(
    r"\b(?:no|not|without|never|denies|denied|if|when|unless|whether|call|return|watch|check|rule|any)\b|n['’]t\b|\?",
    regex.V1 | regex.IGNORECASE,
)


#: A clause that reads an image or names a cause: there "X or Y" is a differential ("the X-ray
#: shows scarring or collapse", "your cough is from bronchitis or pneumonia"), while in a history
#: "numbness or tingling", "pain or pressure" describe one complaint.
_READING = regex.compile(
    r"\b(?:shows?|showed|shown|showing|seen|see|saw|looks?|image|images|x-?rays?|scans?|films?|"
    r"represents?|reflects?|from|due[ \t]+to|caused[ \t]+by|because[ \t]+of)\b",
    regex.V1 | regex.IGNORECASE,
)


def _or_alternative(output: str, start: int, end: int) -> Cue | None:
    """The "or" that offers a mention as one of alternative findings, in a clause that reads an
    image or names a cause and states findings (no negation, condition or question before the
    mention in its clause)."""
    clause = max(output.rfind(c, 0, start) for c in ".;:!?\n") + 1
    if _NOT_STATEMENT.search(output, clause, start) or not _READING.search(output, clause, start):
        return None
    m = _OR_AFTER.match(output, end) or _OR_BEFORE.search(output, max(clause, start - 60), start)
    if m is None or _NOT_STATEMENT.search(m.group()):
        return None
    if not _READING.search(output, clause, min(start, m.start())):
        return None  # the reading word must stand before the alternatives, not be one ("seen or X")
    return Cue(
        text=m.group("cue"), start=m.start("cue"), end=m.end("cue"), level=Level.UL3,
        rule_id="alt.or", direction=Direction.BACKWARD,
    )  # fmt: skip


#: Where a clause ends inside a sentence: a phrase named or exemplified after it belongs to the
#: clause it ends, not to one before ("no fluid, but your heart is enlarged, called cardiomegaly").
_NAMED_CLAUSE_BREAK = regex.compile(
    r"[;:()\n]|\b(?:but|although|though|however|while|whereas|because|unless|except)\b"
    r"|\b(?:and|or)\b[^,]{0,40}?\b(?:is|are|was|were|has|have|had|looks?|seems?)\b",
    regex.V1 | regex.IGNORECASE,
)
#: A negation before "anything" in its sentence: "did not show anything serious", "no sign of anything".
_NEG_WORD = regex.compile(r"(?<![\w'’])(?:no|not|never|without)(?![\w'’])|n['’]t\b", regex.V1 | regex.IGNORECASE)
#: A yes/no question about a finding: an auxiliary and a pronoun subject open the sentence ("Is it
#: pneumonia?", "Could this be a kidney stone?", "Is there any fluid?", "Do you have chest pain?").
_YES_NO_LEAD = regex.compile(
    r"[ \t]*(?:[-*•+][ \t]+)?(?:#{1,6}[ \t]*)?(?:\*\*|__)?(?:is|are|was|were|could|can|might|may|would|does|do|did|has|have)[ \t]+"
    r"(?:it|this|that|there|you|he|she|they)(?:[ \t]+(?:be|been|have|has|had|got|get|just))*"
    r"(?:[ \t]+(?:an?|the|any|some|signs?[ \t]+of))*[ \t]+(?:\*\*|__)?$",
    regex.V1 | regex.IGNORECASE,
)

#: The rest of a question after its mention, up to its "?".
_QUESTION_END = regex.compile(r"[^.!?\n]{0,60}?\?", regex.V1)
#: The answer word that may follow a yes/no question, and the level it gives the finding asked about.
_ANSWER_LEVELS = {
    "no": Level.UL1, "not": Level.UL1, "probably not": Level.HEDGED_ABSENT,
    "unlikely": Level.HEDGED_ABSENT, "probably": Level.UL2, "likely": Level.UL2,
    "possibly": Level.UL3, "maybe": Level.UL3, "perhaps": Level.UL3, "yes": Level.ASSERTED,
}  # fmt: skip
_ANSWER = regex.compile(
    r"(?:[ \t]*(?:\*\*|__))?[ \t]*(?:\n[ \t]*)?(?:[-*•+][ \t]+)?(?:\*\*|__)?[ \t]*"
    r"(?P<word>probably[ \t]+not|no|not|unlikely|probably|likely|possibly|maybe|perhaps|yes)\b",
    regex.V1 | regex.IGNORECASE,
)


def _sentence_start(output: str, start: int) -> int:
    """Where the sentence (or line) holding ``start`` begins, by its punctuation."""
    return max(output.rfind(c, 0, start) for c in ".!?\n") + 1


def _governing_pair(
    output: str, lo: int, hi: int, by_cue: tuple[list[CueTargetPair], list[int]]
) -> CueTargetPair | None:
    """The last output pair (not an alternative) whose cue and target lie in ``[lo, hi)`` with no
    clause break between its target and ``hi``: the statement a later name or example refers to."""
    ordered, cue_starts = by_cue
    for q in reversed(ordered[bisect_left(cue_starts, lo) : bisect_left(cue_starts, hi)]):
        if q.rule_id.startswith("alt.") or q.target_end > hi or q.cue_end > hi:
            continue
        if hi - max(q.target_end, q.cue_end) > 120 or _NAMED_CLAUSE_BREAK.search(output, max(q.target_end, q.cue_end), hi):
            return None
        return q
    return None


def _named(
    output: str, start: int, by_cue: tuple[list[CueTargetPair], list[int]]
) -> tuple[Level, Cue] | None:
    """The level of the phrase a mention names: in its own sentence after a comma ("the shadow could
    mean that part of the lung has collapsed, called atelectasis"), or opening the next sentence
    ("there may be a clot in your lungs. This is called a pulmonary embolism"): a medical name
    takes the level of the statement it names, as a parenthetical gloss does. In the second case the
    last hedged or negated statement of the sentence before, or its hedging linking verb ("your
    heart looks like it is bigger than normal")."""
    pats = _patterns()
    sent = _sentence_start(output, start)
    # "…is probably inflamed — doctors call this cholecystitis": a dash or ";" opens the naming too
    brk = max(output.rfind(c, sent, start) for c in ";—–")
    if brk >= sent and pats.naming_anaphor.fullmatch(output, brk + 1, start) is not None:
        q = _governing_pair(output, sent, brk, by_cue)
        return None if q is None else (q.level, _as_cue(q))
    if sent == 0 or pats.naming_anaphor.fullmatch(output, sent, start) is None:
        lead = pats.naming.search(output, max(sent, start - 60), start)
        if lead is None:
            # a modifier of the name the mention leaves out: "a reaction called AUTONOMIC dysreflexia"
            for k in (1, 2):
                mods = regex.search(rf"(?<![\w'’-])(?:[\w'’-]+[ \t]+){{{k}}}$", output[max(sent, start - 40) : start])
                if mods is None:
                    break
                cut = start - len(mods.group())
                lead = pats.naming.search(output, max(sent, cut - 60), cut)
                if lead is not None:
                    break
        if lead is None:
            return None
        q = _governing_pair(output, sent, lead.start("lead"), by_cue)
        return None if q is None else (q.level, _as_cue(q))
    prev = _sentence_start(output, sent - 1)
    q = _governing_pair(output, prev, sent, by_cue)
    if q is not None:
        return q.level, _as_cue(q)
    for m in _LINKING_HEDGE.finditer(output[prev:sent]):
        if not _NEG_BEFORE.search(output, max(prev, prev + m.start() - 30), prev + m.start()):
            return Level.UL2, _copula_cue(m.group(1), prev + m.start(1))
    return None


#: A hedging linking verb anywhere in the sentence a naming sentence follows ("your heart looks
#: like it is bigger than normal. This is called cardiomegaly").
_LINKING_HEDGE = regex.compile(r"(?<![\w'’])(seems?|appears?|looks?)[ \t]+(?:like|to)\b", regex.IGNORECASE)


def _example_of(
    output: str, start: int, by_cue: tuple[list[CueTargetPair], list[int]], engine: Any = None
) -> tuple[Level, Cue] | None:
    """The level of the head a mention is an example of ("nothing worrying on the X-ray, such as a
    collapsed lung", "did not show anything serious like pneumonia or fluid", "might be an infection
    such as pneumonia", "return if you have symptoms such as chest pain"): the head's pair, or a
    negated head that names no finding ("nothing", "no sign of anything") as a negation."""
    pats = _patterns()
    sent = _sentence_start(output, start)
    lead = None
    for m in pats.example.finditer(output, max(sent, start - 160), start):
        lead = m
    if lead is None:
        return None
    between = output[lead.end() : start]
    if between and not (
        (_COORD_LAST.search(between) or regex.search(r",[ \t]*$", between))
        and not _CLAUSE_WORDS.search(between)
        and not regex.search(r"[.;:!?()\n]", between)
    ):
        return None  # only earlier list items of the same example list may stand between
    q = _governing_pair(output, sent, lead.start("lead"), by_cue)
    if q is not None and 0 <= lead.start("lead") - q.target_end <= 40:
        return q.level, _as_cue(q)
    if engine is not None:
        # a head the extractor gives no pair ("no sign of a new problem such as …", "there may be a
        # new problem like …"): the extractor's own cue right before it, read over the head
        near = _cue_before(output, sent, lead.start("lead"), engine, _READ_LEVELS)
        if near is not None:
            return near.level, near
    head = pats.empty_head.search(output, sent, lead.start("lead"))
    if head is None:
        return None
    hs, he = head.span("head")
    if head.group("head").lower() != "anything":
        return Level.UL1, Cue(
            text=head.group("head"), start=hs, end=he, level=Level.UL1, rule_id="lay.nothing",
            direction=Direction.FORWARD,
        )  # fmt: skip
    neg = None
    for neg in _NEG_WORD.finditer(output, sent, hs):
        pass
    if neg is None:
        return None
    return Level.UL1, Cue(
        text=neg.group(), start=neg.start(), end=neg.end(), level=Level.UL1, rule_id="ul1.not",
        direction=Direction.FORWARD,
    )  # fmt: skip


#: Levels a cue read by :func:`_cue_before` may give: every level a cue states.
_READ_LEVELS = frozenset(lv for lv in Level if lv is not Level.ASSERTED)
#: The words a head phrase may have between the cue before it and what follows: a short noun phrase
#: ("a new problem", "any trouble"), no clause break.
_HEAD_GAP = regex.compile(r"[ \t]*(?:[\w'’-]+[ \t]+){0,3}[\w'’-]+[ \t]*,?[ \t]*", regex.V1)


def _cue_before(output: str, lo: int, hi: int, engine: Any, levels: frozenset[Level]) -> Cue | None:
    """The extractor's lexicon cue (:func:`_lexicon_cues`) that ends nearest ``hi`` in
    ``output[lo:hi]`` (the longest of those), when only a short head phrase of up to four words
    with no clause word stands between it and ``hi`` ("no sign of | a new problem | such as")."""
    found = _lexicon_cues(output, max(lo, hi - 120), hi, engine, levels, forward_only=True)
    if not found:
        return None
    last = max(found, key=lambda c: (c.end, c.end - c.start))
    gap = output[last.end : hi]
    if gap.strip() and (not _HEAD_GAP.fullmatch(gap) or _CLAUSE_WORDS.search(gap)):
        return None
    return last


#: An apposition between dashes right before a mention: "a little fluid — a small pleural effusion —".
_DASH_BEFORE = regex.compile(r"[ \t](?:—|–|--)[ \t]+(?:(?:an?|the|some)[ \t]+)?(?:[*_]{1,2})?$", regex.V1 | regex.IGNORECASE)
#: After the mention: its own gloss at most, then the closing dash or the sentence's end.
_DASH_AFTER = regex.compile(r"(?:[*_]{1,2})?[ \t]*(?:\([^()\n]{1,40}\))?[ \t]*(?:—|–|--|[.;!?\n]|$)", regex.V1)


def _dash_apposition(
    output: str, start: int, end: int, by_cue: tuple[list[CueTargetPair], list[int]]
) -> CueTargetPair | None:
    """The pair a dash apposition renames ("there may be a little fluid — a small pleural effusion —
    around the lung"): the mention is a gloss set off by dashes instead of parentheses, so it takes
    the level of the phrase right before the opening dash. Only a bare noun phrase stands between
    the dashes ("— pneumonia was diagnosed" is a clause of its own)."""
    dash = _DASH_BEFORE.search(output, max(0, start - 20), start)
    if dash is None or not _DASH_AFTER.match(output, end):
        return None
    open_at = dash.start()
    ordered, cue_starts = by_cue
    for q in reversed(ordered[bisect_left(cue_starts, open_at - 200) : bisect_left(cue_starts, open_at)]):
        if q.rule_id.startswith("alt.") or not (q.sentence_start <= start < q.sentence_end):
            continue
        between = output[q.target_end : open_at]
        if q.target_end <= open_at and len(between) <= 40 and not regex.search(r"[.;:!?,()—–]", between):
            return q
        return None
    return None


#: A list item opened by the mention as its label ("- ACS (primary concern): …", "**PE**: …"): the
#: label's own parenthesis and emphasis, then its colon.
_LABEL_OPEN = regex.compile(r"[ \t]*(?:\([^()\n]{1,60}\))?[ \t]*(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]", regex.V1)
#: The verdict that closes such an item after an arrow ("… HEART 3 → ruled out", "… D-dimer nl → neg").
_VERDICT_END = regex.compile(
    r"(?:→|->|=>)[ \t]*(?:\*\*|__)?(?P<cue>[^→\n;.()]{1,30}?)(?:\*\*|__)?[ \t]*\.?[ \t]*$", regex.V1
)
_ITEM_MARK = regex.compile(r"[ \t]*(?:(?:[-*•+]|\d{1,2}[.)])[ \t]+)?(?:\*\*|__)?[ \t]*$", regex.V1)


def _label_verdict(output: str, start: int, end: int, engine: Any) -> Cue | None:
    """The verdict after an arrow that closes a list item the mention is the label of ("- ACS
    (primary concern): ECG nl; trop neg x2 → ruled out"): the label's level (UL1 to UL4), or None.
    The workup between is the evidence, not another finding's statement."""
    if engine is None:
        return None
    ls = output.rfind("\n", 0, start) + 1
    if not _ITEM_MARK.fullmatch(output, ls, start) or _LABEL_OPEN.match(output, end) is None:
        return None
    le = output.find("\n", end)
    le = len(output) if le == -1 else le
    found = _VERDICT_END.search(output, end, le)
    if found is None:
        return None
    text = found.group("cue").strip()
    read = _after_level(text, "→", engine) if text else None
    if read is None or read[0] is Level.UL5:
        return None
    s = found.start("cue") + found.group("cue").index(text)
    return Cue(text=text, start=s, end=s + len(text), level=read[0], rule_id=read[1], direction=Direction.BACKWARD)


#: Levels a hedge written after a mention may give it ("PNA, likely", "DVT — not excluded",
#: "Pneumonia (r/o)", "Appendicitis: unlikely"); a plain negation after a label is read elsewhere.
_AFTER_LEVELS = frozenset({Level.HEDGED_ABSENT, Level.UL2, Level.UL3, Level.UL4, Level.UL5})
#: After a mention: its closing emphasis, up to three more words of its noun phrase (group
#: ``gap``: "Gout FLARE – likely"; no relation word, which would hand the hedge to what follows:
#: "knee pain 2/2 OA – likely"), a separator (group ``sep``: comma, colon, dash, arrow, opening
#: parenthesis, a table's cell border, or a bare space for a cue written after its item: "Gout
#: suspected, uric acid pending"), one short phrase (group ``cue``), an optional "over/vs"
#: alternative ("favored over bronchitis"), then the phrase's end: a closing parenthesis,
#: punctuation, a cell border, a spaced dash, emphasis or the line end.
_AFTER_GAP = (
    r"(?P<gap>(?:[ \t]+(?!(?:from|due|to|of|with|2/2|secondary|after|and|or|vs|versus|s/p|w/|in|on|at|for|by|no|not|"
    r"is|are|was|were|likely|probably|possibly|possible|probable|suspected|presumed|improving|worsening|"
    r"resolv\w*|stable|(?:un)?controlled|better|worse|ongoing|persistent|recurrent|noted|seen|present|"
    r"confirmed|treated|diagnosed|today|now|again)\b)[\w'’/-]+){1,3})"
)
_AFTER_SEP = r"(?P<sep>,|:|\(|\||[ \t]*(?:—|–|--?|→|->)(?=[ \t])"
#: The hedge may be followed by its reason in parentheses ("GERD possible (postprandial pattern)",
#: "Dissection: low suspicion (equal pulses)") before the phrase ends; an arrow ends it too ("SAH
#: primary concern → CT head").
_AFTER_TAIL = (
    r"[ \t]*(?:\*\*|__|[*_])?(?P<cue>[^()\n,;:.*_—–|]{1,50}?)(?:\*\*|__|[*_])?"
    r"(?:[ \t]+(?:over|vs\.?|versus|rather[ \t]+than)[ \t]+[^()\n;.]{1,60}?)?"
    r"(?:[ \t]+\([^()\n]{1,100}\)(?=[ \t]*(?:[.;,:!|]|[ \t](?:—|–|--?|→|->)[ \t]|\n|$)))?"
    r"[ \t]*(?:\)|[.;,:!|]|(?:\*\*|__)|[ \t]+(?:—|–|--?)[ \t]|(?:→|->|=>)|(?=\n)|$)"
)
_AFTER_HEDGE = regex.compile(
    rf"(?:\*\*|__|[*_])?[ \t]*{_AFTER_SEP}|(?<=[\w*_][ \t]))" + _AFTER_TAIL, regex.V1 | regex.IGNORECASE
)
#: The same after more words of the mention's phrase: only with a written separator.
_AFTER_HEDGE_GAP = regex.compile(
    rf"(?:\*\*|__|[*_])?{_AFTER_GAP}(?:\*\*|__|[*_])?[ \t]*{_AFTER_SEP})" + _AFTER_TAIL,
    regex.V1 | regex.IGNORECASE,
)

#: A concessive second hedge after the first: ", though not fully excluded" (group ``cue``).
_AFTER_BUT = regex.compile(
    r"[ \t]*(?:but|though|although|yet|however)[ \t]+(?P<cue>[^()\n,;:.*_—–]{1,30}?)[ \t]*(?:[).;,:!]|(?=\n)|$)",
    regex.V1 | regex.IGNORECASE,
)


@lru_cache(maxsize=1)
def _after_words() -> tuple[tuple[Level, Any], ...]:
    """(level, compiled pattern) of the ``after_*`` rows of
    ``cuelex/data/output_reading.tsv``: hedges LLM outputs write after a finding that the
    extractor's lexicon has no cue for ("(unconfirmed)", "— provisional", ": low suspicion")."""
    flags = regex.V1 | regex.IGNORECASE
    return tuple(
        (level, regex.compile(pattern, flags))
        for role, level in (
            ("after_ul1", Level.UL1), ("after_ha", Level.HEDGED_ABSENT), ("after_ul2", Level.UL2),
            ("after_ul3", Level.UL3), ("after_ul4", Level.UL4), ("after_ul5", Level.UL5),
        )
        for pattern, _example in output_reading()[role]
    )


@lru_cache(maxsize=1)
def _after_checks() -> tuple[Any, ...]:
    """The compiled ``after_check`` rows of ``cuelex/data/output_reading.tsv``: a workup still to
    be done written after a finding and a separator ("Endocarditis – MUST W/U"): UL5."""
    flags = regex.V1 | regex.IGNORECASE
    return tuple(regex.compile(pattern, flags) for pattern, _example in output_reading()["after_check"])


#: A role noun after a postposed hedge ("Stasis dermatitis possible CONTRIBUTOR", "Dehydration
#: likely CAUSE"): the hedge before it is the finding's level, as in "X is a possible contributor".
_ROLE_NOUN = regex.compile(
    r"[ \t]+(?:contributors?|contributing[ \t]+factors?|causes?|etiology|aetiology|explanation|factors?|"
    r"components?|triggers?|culprits?|drivers?|sources?|dx|diagnosis)$",
    regex.V1 | regex.IGNORECASE,
)


def _after_hedge(output: str, start: int, end: int, engine: Any) -> Cue | None:
    """The hedge a problem-list line or label writes right after its finding, set off by a comma,
    colon, dash or parenthesis (or a space, for a cue read backward) and standing alone ("PNA,
    likely; abx", "UTI — probable", "Gout suspected, uric acid pending", "**Gout flare – likely**",
    "**Sleep apnea — suspected**", "Kidney stone (unconfirmed)", "Pneumonia (r/o)", a table row
    "| Gout | Suspected |"): the finding's
    level. The phrase must be a whole cue of the extractor's lexicon at a hedged level (or an
    ``after_*`` row of the output reading table) and end there: "Pneumonia, likely viral" hedges the
    cause, not the pneumonia. An action after an arrow makes the finding a contingency ("Chest pain →
    ED", ``after_ul5``). Only the mention's own line counts."""
    if engine is None:
        return None
    cue = _after_at(output, end, engine)
    if cue is None and _run_opening(output, start):
        # "Seizure, PE unlikely (…)", "Meningitis, dissection, CVST – not suspected": an item of a
        # bare list the hedge closes takes it too
        pos, items = end, 0
        for _ in range(12):
            step = _RUN_STEP.match(output, pos)
            if step is None:
                break
            pos = step.end()
            items += bool(step.group("sep"))
            if items:
                cue = _after_at(output, pos, engine)
                if cue is not None:
                    break
    return cue


def _after_at(output: str, end: int, engine: Any) -> Cue | None:
    """The hedge written right after position ``end`` (:data:`_AFTER_HEDGE`, then
    :data:`_AFTER_HEDGE_GAP`), or None."""
    for pattern in (_AFTER_HEDGE, _AFTER_HEDGE_GAP):
        found = pattern.match(output, end)
        cue = _after_cue(output, found, engine) if found is not None else None
        if cue is not None:
            return cue
    return None


#: A word of a bare list item ("dissection", "HTN emergency"): no relation, verb, hedge, result or
#: number word, so the run stays a list of names.
_RUN_WORD = (
    r"(?:\*\*|__)?(?!(?:from|due|to|of|with|2/2|secondary|after|vs|versus|s/p|w/|in|on|at|for|by|no|not|"
    r"is|are|was|were|be|likely|unlikely|less|more|most|probably|possibly|possible|probable|suspected|presumed|"
    r"considered|concern|low|high|improving|worsening|resolv\w*|stable|(?:un)?controlled|better|worse|ongoing|"
    r"persistent|noted|seen|present|confirmed|treated|diagnosed|today|now|neg|negative|pos|positive|nl|wnl|"
    r"normal|given|but|if|then|so|etiology|aetiology|cause|source|origin|reason|dx|diagnosis|type|nature|"
    r"extent|significance|status)\b)[A-Za-z][\w'’-]*(?:\*\*|__)?"
)
#: One step of such a run after a mention: a separator and the next item's first word (group
#: ``sep``), or one more word of the same item.
_RUN_STEP = regex.compile(
    rf"(?:(?P<sep>[ \t]*(?:,|/)[ \t]*(?:(?:or|and)[ \t]+)?|[ \t]+(?:or|and)[ \t]+)|[ \t]+){_RUN_WORD}",
    regex.V1 | regex.IGNORECASE,
)
#: What may stand before a mention that opens or continues such a run: the item's marker and label,
#: then earlier items each closed by a separator.
_RUN_OPENING = regex.compile(
    rf"[ \t]*(?:(?:[-*•+]|\d{{1,2}}[.)])[ \t]+)?(?:(?:\*\*|__)?[ \t]*{_RUN_WORD}(?:[ \t]+{_RUN_WORD}){{0,3}}"
    r"[ \t]*(?:,|/|[ \t](?:or|and))[ \t]*)*(?:\*\*|__)?[ \t]*",
    regex.V1 | regex.IGNORECASE,
)


def _run_opening(output: str, start: int) -> bool:
    """Whether a mention opens its list item or continues a bare list that opens it (its line's
    marker, then only list items before it)."""
    ls = output.rfind("\n", 0, start) + 1
    return _RUN_OPENING.fullmatch(output, ls, start) is not None


def _after_cue(output: str, found: regex.Match[str], engine: Any) -> Cue | None:
    """The hedge cue of one :data:`_AFTER_HEDGE` / :data:`_AFTER_HEDGE_GAP` match, or None."""
    sep = found.group("sep").strip()
    spans = [found.span("cue")]
    if output[found.end() - 1] == ",":
        # "Fracture: less likely, though not fully excluded": the last word stands, when it is a
        # hedge ("possible contributor, but acute onset favours cellulitis" keeps the first)
        last = _AFTER_BUT.match(output, found.end())
        if last is not None:
            spans.insert(0, last.span("cue"))
    for s, e in spans:
        text = output[s:e].strip()
        if not text:
            continue
        s = s + output[s:e].index(text)
        e = s + len(text)
        # "**SAH r/o**: CT neg": a forward cue that closes the item's label reads back on it
        label = _LABEL_CLOSE.match(output, e) is not None
        read = _after_level(text, sep or ("label" if label else ""), engine)
        if read is not None:
            return Cue(text=output[s:e], start=s, end=e, level=read[0], rule_id=read[1], direction=Direction.BACKWARD)
    return None


#: The end of an item's label right after a cue: its closing emphasis and colon.
_LABEL_CLOSE = regex.compile(r"[ \t]*(?:\*\*|__)?[ \t]*:", regex.V1)


def _after_level(text: str, sep: str, engine: Any) -> tuple[Level, str] | None:
    """(level, rule id) of a phrase written after a finding (:func:`_after_cue`): a whole lexicon
    cue at a hedged level (or a negation read backward: "Dissection: ruled out"), an ``after_*``
    row, or either of those before a role noun ("possible contributor"); None otherwise."""
    hit = engine.lookup(text)
    if hit is not None and hit[0] == "cue" and hit[2] is not None:
        entry = hit[2]
        if entry.level in _AFTER_LEVELS or (entry.level is Level.UL1 and entry.direction is not Direction.FORWARD):
            if not sep and entry.direction is Direction.FORWARD:
                return None  # "Gout r/o ..." reads forward: only a separator makes it the item's label
            return entry.level, hit[1]
    level = next((lv for lv, pat in _after_words() if pat.fullmatch(text)), None)
    if level is not None:
        if level is Level.UL5 and sep not in ("→", "->"):
            return None  # an action after an arrow only: "Chest pain → ED" (not "Pneumonia, call if worse")
        return level, f"after.{level.value.lower()}"
    if sep and any(pat.fullmatch(text) for pat in _after_checks()):
        return Level.UL5, "after.check"  # "Endocarditis – must w/u", "PE: needs eval"
    role = _ROLE_NOUN.search(text)
    if role is not None and role.start() > 0:
        read = _after_level(text[: role.start()].strip(), sep, engine)
        if read is not None and read[0] in (Level.HEDGED_ABSENT, Level.UL2, Level.UL3, Level.UL4):
            return read
    return None


@lru_cache(maxsize=1)
def _negative_result_pattern() -> Any:
    """A negative result written right after a finding or test, without a verb ("RF negative",
    "Lachman –ve", "depression screen neg"), from the ``result_negative`` rows of
    ``cuelex/data/output_reading.tsv``; the clause must end there ("CT negative for PE" gives the
    result of the CT for another finding, not the CT's absence)."""
    return regex.compile(
        rf"(?:\*\*|__)?[ \t]+(?P<cue>{_alternation('result_negative')})(?![\w'’-])(?!\s+for\b)"
        r"(?:\*\*|__)?[ \t]*(?=[,;.)\n]|$|[ \t]+(?:and|but|&|\+|—|–|-)[ \t])",
        regex.V1 | regex.IGNORECASE,
    )


def _negative_result(output: str, end: int) -> Cue | None:
    """A verbless negative result right after a mention ("RF negative, anti-CCP positive",
    "Lachman –ve"), as a UL1 cue: the source's "RF is negative" written as a compact label; None
    otherwise."""
    found = _negative_result_pattern().match(output, end)
    if found is None:
        return None
    return Cue(
        text=found.group("cue"), start=found.start("cue"), end=found.end("cue"), level=Level.UL1,
        rule_id="ul1.negative_result", direction=Direction.BACKWARD,
    )  # fmt: skip


def _question(output: str, start: int, end: int) -> tuple[Level, Cue] | None:
    """The level a yes/no question gives the finding it asks about ("Is it pneumonia?", "Could this
    be a kidney stone?", "Do you have chest pain?"): a query (UL5), not a statement — unless the
    text answers it right after the "?" (a question-and-answer layout: "Is it pneumonia? **No** —
    …"), when the answer's word is the level. A question about a finding already stated ("Is the
    pneumonia getting better?") is not one."""
    sent = _sentence_start(output, start)
    if not _YES_NO_LEAD.fullmatch(output, sent, start):
        return None
    m = _QUESTION_END.match(output, end)
    if m is None:
        return None
    answer = _ANSWER.match(output, m.end())
    if answer is not None:
        word = answer.group("word")
        level = _ANSWER_LEVELS[regex.sub(r"\s+", " ", word.lower())]
        if level is Level.ASSERTED:
            return None  # "Yes." states it: the span's own reading stands
        cue = Cue(
            text=word, start=answer.start("word"), end=answer.end("word"), level=level,
            rule_id="lay.answer", direction=Direction.BACKWARD,
        )  # fmt: skip
        return level, cue
    return Level.UL5, Cue(
        text="?", start=m.end() - 1, end=m.end(), level=Level.UL5, rule_id="ul5.question",
        direction=Direction.BACKWARD,
    )  # fmt: skip


def _reread(
    output: str,
    start: int,
    end: int,
    by_cue: tuple[list[CueTargetPair], list[int]],
    level: Level,
    cue: Cue | None,
    engine: Any = None,
) -> tuple[Level, Cue | None, str]:
    """A second look at an occurrence, for the ways LLM outputs carry a level:

    * a cue inside the matched phrase ("heart is probably enlarged"), when the phrase read as
      ASSERTED: the level of the output pair that cue makes on (part of) the phrase (``inner_cue``);
    * a parenthetical gloss ("no fluid around the lungs (pleural effusion)", "… enlarged or
      bulging (called an ascending aortic aneurysm)", "no lump or spot (mass or nodule)"): the
      level of the phrase it glosses (``gloss``), when the gloss read as ASSERTED or only an
      alternative marker inside the parentheses decided it.
    """
    ordered, cue_starts = by_cue
    gov = _complement_governor(output, start, by_cue) if level in (Level.ASSERTED, Level.UL1) else None
    # "check that the bone has not broken": a clause to be checked or left undecided is that,
    # whatever polarity it is written in
    checked = gov is not None and gov.level in (Level.UL4, Level.UL5)
    if checked and level is Level.UL1:
        return gov.level, _as_cue(gov), "complement"
    if level is Level.ASSERTED:
        bare = (
            _BARE_NOT.search(output, max(0, start - 40), start)
            or _NEVER_HAD_BEFORE.search(output, max(0, start - 40), start)
            or _bare_no_list(output, start, end)
        )
        if bare is not None:
            # "Heart not enlarged; lungs clear": a bare negation right before the predicate
            return Level.UL1, Cue(
                text=bare.group(1), start=bare.start(1), end=bare.end(1), level=Level.UL1,
                rule_id="ul1.not", direction=Direction.FORWARD,
            ), "bare_negation"  # fmt: skip
    if (cue is None and level is Level.ASSERTED) or (
        cue is not None and cue.rule_id.startswith("alt.") and level is Level.UL3
    ):
        neg = _list_negation(output, start, by_cue)
        if neg is not None and not _own_clause(output, neg.target_end, start, end):
            return neg.level, _as_cue(neg), "list_negation"
        label = _negation_label(output, start)
        if label is not None:
            return Level.UL1, label, "list_negation"
    if level is Level.ASSERTED:
        i = bisect_left(cue_starts, start)
        while i < len(ordered) and ordered[i].cue_start < end:
            q = ordered[i]
            i += 1
            if q.rule_id.startswith("alt."):
                continue  # an "or" inside a lay phrase belongs to it
            if start <= q.cue_start and q.cue_end <= end and q.target_start < end and start < q.target_end:
                if checked:
                    return gov.level, _as_cue(gov), "complement"
                return q.level, _as_cue(q), "inner_cue"
        # "to check whether the ligament is **torn**", "it is unclear if the heart is enlarged":
        # a predicate takes the level its hedged subject has
        for q in reversed(ordered[bisect_left(cue_starts, start - 200) : bisect_left(cue_starts, start)]):
            if (
                q.cue_end <= q.target_start
                and q.target_end <= start
                and q.sentence_start <= start < q.sentence_end
                and not q.rule_id.startswith("alt.")
                and _PREDICATE_OF.fullmatch(output, q.target_end, start)
            ):
                return q.level, _as_cue(q), "subject"
        if gov is not None:
            # "there is no sign that the spleen is swollen"
            return gov.level, _as_cue(gov), "complement"
        copula = _copula_hedge(output, start)
        if copula is not None:
            return Level.UL2, copula, "copula_hedge"
        lead = _before_hedge(output, start)
        if lead is not None:
            return lead.level, lead, "before_hedge"
        chance = _chance_frame(output, start, end)
        if chance is not None:
            return chance.level, chance, "chance_frame"
        named = _named(output, start, by_cue)
        if named is not None:
            return named[0], named[1], "naming"
        apposed = _dash_apposition(output, start, end, by_cue)
        if apposed is not None:
            return apposed.level, _as_cue(apposed), "gloss"
        example = _example_of(output, start, by_cue, engine)
        if example is not None:
            return example[0], example[1], "example"
        asked = _question(output, start, end)
        if asked is not None:
            return asked[0], asked[1], "question"
        after = _after_hedge(output, start, end, engine)
        if after is not None:
            return after.level, after, "after_hedge"
        negative = _negative_result(output, end)
        if negative is not None:
            return Level.UL1, negative, "negative_result"
        conj = _conjunct_of_hedged(output, start, by_cue, gloss=False)
        if conj is not None:
            return conj.level, _as_cue(conj), "conjunct"
        parallel = _parallel_cause(output, start, engine)
        if parallel is not None:
            return parallel.level, parallel, "conjunct"
        cause = _hedged_cause_before(output, start, engine)
        if cause is not None:
            return cause.level, cause, "cause_before"
        alt = _or_alternative(output, start, end) if cue is None else None
        if alt is not None:
            return Level.UL3, alt, "or_alternative"
        # a parenthetical inside the phrase does not break it: "No sudden (acute) problems were
        # seen in the bones" reads "problems" with the "No" before the parenthesis
        before = _AFTER_PAREN.search(output, max(0, start - 60), start)
        if before is not None:
            par = before.start()
            for q in ordered[bisect_left(cue_starts, par - 200) : bisect_left(cue_starts, par + 1)]:
                if 0 <= par - q.target_end <= 2 and q.sentence_start <= start < q.sentence_end:
                    return q.level, _as_cue(q), "gloss"
    open_at = output.rfind("(", max(0, start - 40), start)
    if open_at == -1 or ")" in output[open_at:start] or "\n" in output[open_at:start]:
        return level, cue, "span"
    close_at = output.find(")", end, end + 80)
    if close_at == -1 or not _GLOSS_LEAD.search(output[open_at:start]):
        return level, cue, "span"
    own_alt = cue is not None and open_at < cue.start < close_at and cue.rule_id.startswith("alt.")
    if level is not Level.ASSERTED and not own_alt:
        return level, cue, "span"
    if own_alt and _VERSUS.fullmatch(cue.text):
        # "Hand clinic (inj vs release)": "vs" offers a choice, never a gloss of the phrase before
        return level, cue, "span"
    lo = bisect_left(cue_starts, open_at)
    if any(
        q.cue_end <= start and (not q.rule_id.startswith("alt.") or not output[open_at + 1 : q.cue_start].strip())
        for q in ordered[lo : bisect_left(cue_starts, start)]
    ):
        # a parenthesis with a cue of its own, or one that opens with an alternatives label, makes
        # its own statement ("(ddx colitis, early GE)", "(no fever)"): no gloss of the phrase before
        return level, cue, "span"
    near = ordered[bisect_left(cue_starts, open_at - 300) : bisect_left(cue_starts, open_at + 1)]
    best = None
    for q in near:
        between = output[q.target_end : open_at]
        if (
            q.target_end <= open_at
            and len(between) <= 40
            and q.sentence_start <= open_at < q.sentence_end
            and not regex.search(r"[.;:!?,()→]|->", between)  # an arrow starts the consequence
            and (best is None or q.target_end > best.target_end)
        ):
            best = q
    if best is None:
        # the gloss names a later conjunct of a hedged phrase: "may be due to heart failure or to
        # too much fluid (volume overload)"
        best = _conjunct_of_hedged(output, open_at, by_cue, gloss=True)
    if best is None:
        # the gloss names a whole hedged clause: "cannot rule out that part of it is enlarged or
        # bulging (called an aneurysm)", "might be cancer that has spread from elsewhere
        # (metastatic disease)": the pair whose target is that clause's subject; not a clause of
        # its own after ", and" ("might have pneumonia, and your heart is enlarged (cardiomegaly)")
        for q in near:
            between = output[q.target_end : open_at]
            if (
                0 < open_at - q.target_end <= 80
                and q.sentence_start <= open_at < q.sentence_end
                and (
                    _GLOSS_PREDICATE.search(between) and open_at - q.target_end <= 60
                    or regex.match(r"[ \t]+(?:that|which|who)[ \t]+", between, regex.IGNORECASE)
                )
                and not regex.search(r"[.;:!?()]", between)
                and not regex.search(r",[ \t]*(?:and|but|so|while)\b", between, regex.IGNORECASE)
                and (best is None or q.target_end > best.target_end)
            ):
                best = q
    if best is None:
        return level, cue, "span"
    return best.level, _as_cue(best), "gloss"


def _make_scorer(
    *,
    engine: Any = None,
    aligner: Aligner | None = None,
    tiers: Iterable[str] | None = None,
    fuzzy_threshold: float | None = None,
    semantic_threshold: float | None = None,
    semantic_model: str | None = None,
    concepts: Any = "vocabulary",
    linker: Any = None,
    choice: str = "context",
    anchors: bool = True,
    dedup: bool = False,
    lexicons: Any = None,
    rules_dir: Any = None,
    extra_lexicons: Sequence[Any] = (),
) -> _Scorer:
    if choice not in CHOICES:
        raise ValueError(f"choice must be one of {CHOICES}, got {choice!r}")
    if linker is True:
        linker = get_linker()
    elif linker is not None and not (hasattr(linker, "link") and hasattr(linker, "candidates")):
        raise TypeError(
            f"linker must be a cuelex.linking.Linker or True, got {type(linker).__name__}"
        )
    if engine is None:
        engine = get_engine(lexicons, rules_dir, extra_lexicons)
    if aligner is None:
        kw: dict[str, Any] = {"concepts": linker if linker is not None else concepts}
        if fuzzy_threshold is not None:
            kw["fuzzy_threshold"] = fuzzy_threshold
        if semantic_threshold is not None:
            kw["semantic_threshold"] = semantic_threshold
        if semantic_model is not None:
            kw["semantic_model"] = semantic_model
        aligner = Aligner(tiers, **kw)
    elif not isinstance(aligner, Aligner):
        raise TypeError(f"aligner must be a cuelex.align.Aligner, got {type(aligner).__name__}")
    return _Scorer(engine, aligner, linker, choice, anchors, bool(dedup))


def _check_text(name: str, value: Any) -> str:
    """The text itself, or a clear error: not a str, or not valid Unicode (``corpus.check_text``)."""
    return check_text(value, name)


def _bad_text(value: Any) -> str | None:
    """Why a score_frame cell cannot be scored (not text, lone surrogate), or None."""
    if not isinstance(value, str):
        return f"{_what(value)}, not text"
    pos = lone_surrogate(value)
    return None if pos is None else f"text with a lone surrogate at offset {pos} (not valid Unicode)"


def score(
    source: str,
    output: str,
    *,
    doc_id: str | None = None,
    doc_type: str | None = None,
    source_pairs: Sequence[CueTargetPair] | None = None,
    n_boot: int = 1000,
    seed: int = 0,
    ci: float = 0.95,
    bertscore: bool = False,
    bertscore_model: str | None = None,
    **options: Any,
) -> ScoreReport:
    """Score one output (rewrite, summary) against its source.

    Parameters
    ----------
    source, output:
        the two texts.
    doc_id, doc_type:
        carried into the report (``doc_type`` is the group of the per-type breakdown).
    source_pairs:
        your own source pairs (e.g. a benchmark's gold pairs) instead of cuelex's extraction; their
        offsets must index ``source``.
    n_boot, seed, ci:
        bootstrap resamples (0 = no intervals), generator seed and interval level.
    bertscore, bertscore_model:
        also compute BERTScore (needs ``pip install "cuelex[bertscore]"``; see
        :mod:`cuelex.bertscore`).
    options:
        ``tiers``, ``fuzzy_threshold``, ``concepts``, ``semantic_model``, ``semantic_threshold``
        (alignment, see :class:`cuelex.align.Aligner`), or a ready ``aligner``; ``linker`` (a
        :class:`cuelex.linking.Linker`, or True for the open-vocabulary one: link source pairs and
        match output concepts with it); ``dedup`` (deduplicate the extracted source pairs per
        document as in the paper, :func:`cuelex.dedup.deduplicate`; ignored with ``source_pairs``);
        ``choice`` (:data:`CHOICES`); ``anchors`` (ASSERTED = 100, UL1 = 0 in the calibrated
        shift); ``engine`` or ``lexicons``/``rules_dir``/``extra_lexicons`` (the extraction setup,
        used for both texts).
    """
    _check_text("source", source)
    _check_text("output", output)
    scorer = _make_scorer(**options)
    pairs = scorer.pairs_for(source, doc_id, source_pairs)
    scored, output_pairs = scorer.score_pairs(source, output, pairs)
    frame = pd.DataFrame([p.row() for p in scored], columns=list(PAIR_COLUMNS))
    frame["doc_id"] = doc_id if doc_id is not None else "document"
    metrics = M.summarize(frame, n_boot=n_boot, seed=seed, ci=ci)
    bert = None
    if bertscore:
        bert = _bertscore([output], [source], model_path=bertscore_model)[0]
    config = {**scorer.config(), "n_boot": n_boot, "seed": seed, "ci": ci}
    return ScoreReport(
        scored, metrics, source, output, doc_id, doc_type, list(output_pairs), config, bert
    )


# --------------------------------------------------------------------------------------------------
# Scoring many documents
# --------------------------------------------------------------------------------------------------


@dataclass
class CorpusScores:
    """The result of :func:`score_frame`: tidy tables.

    * ``pairs`` — one row per source pair (doc id, group columns, source pair, fate, alignment,
      output level and cue, shifts)
    * ``documents`` — one row per document: counts per fate and its own rates (+ BERTScore)
    * ``metrics`` — :class:`cuelex.metrics.Metrics`: ``overall`` (micro and macro with CIs),
      ``by_level``, ``by_group``, ``confusion``
    * ``problems`` — rows that could not be scored (only with ``errors="skip"``), with the reason
    """

    pairs: pd.DataFrame
    documents: pd.DataFrame
    metrics: M.Metrics
    problems: pd.DataFrame
    config: dict[str, Any] = field(default_factory=dict)

    @property
    def overall(self) -> pd.DataFrame:
        return self.metrics.overall

    @property
    def by_group(self) -> pd.DataFrame:
        return self.metrics.by_group

    @property
    def by_level(self) -> pd.DataFrame:
        return self.metrics.by_level

    @property
    def confusion(self) -> pd.DataFrame:
        return self.metrics.confusion

    def rates(self, scope: str = "micro") -> dict[str, float | None]:
        return self.metrics.rates(scope)

    def to_html(self, path: str | Path | None = None) -> str:
        """Self-contained HTML page of these corpus scores (``cuelex.report.render_corpus``)."""
        from ..report.html import render_corpus, write_report

        page = render_corpus(self.to_dict())
        if path is not None:
            write_report(page, path)
        return page

    def to_dict(self, *, include_pairs: bool = True) -> dict[str, Any]:
        d = {
            "config": self.config,
            "rates": self.metrics.rates(),
            "rates_macro": self.metrics.rates("macro"),
            "metrics": self.metrics.to_dict(),
            "problems": self.problems.to_dict(orient="records"),
        }
        if include_pairs:
            d["pairs"] = self.pairs.to_dict(orient="records")
        if "bertscore_f1" in self.documents.columns:
            d["bertscore_f1_mean"] = float(self.documents["bertscore_f1"].mean())
        return _json_safe(d)

    def to_json(
        self, path: str | Path | None = None, *, indent: int = 2, include_pairs: bool = True
    ) -> str:
        text = json.dumps(
            self.to_dict(include_pairs=include_pairs), indent=indent, ensure_ascii=False
        )
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            Path(path).write_text(text + "\n", encoding="utf-8")
        return text

    def summary(self) -> str:
        bert = None
        if "bertscore_f1" in self.documents.columns and len(self.documents):
            bert = {
                "f1": float(self.documents["bertscore_f1"].mean()),
                "precision": float(self.documents["bertscore_precision"].mean()),
                "recall": float(self.documents["bertscore_recall"].mean()),
                "model": self.config.get("bertscore_model", "?") + ", mean over documents",
            }
        lines = _summary_lines(self.metrics, self.pairs, bert)
        bg = self.metrics.by_group
        if len(bg):
            gcols = [c for c in bg.columns if c not in ("n_documents", *M._TABLE_COLUMNS)]
            sub = bg[(bg["scope"] == "micro") & (bg["metric"].isin(M.RATES))]
            wide = sub.pivot_table(index=gcols, columns="metric", values="value", aggfunc="first")
            wide = wide.reindex(columns=list(M.RATES))
            lines.append("by " + ", ".join(gcols) + " (micro):")
            lines.append((wide * 100).round(1).to_string())
        if len(self.problems):
            lines.append(f"skipped rows: {len(self.problems)} (see problems)")
        return "\n".join(lines)


def _what(v: Any) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "missing"
    return type(v).__name__


def _progress(iterable: Iterable[Any], total: int, enabled: bool | None) -> Iterable[Any]:
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        return iterable
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm ships with spaCy
        return iterable
    return tqdm(iterable, total=total, desc="cuelex score", unit="doc", leave=False)


def score_frame(
    df: pd.DataFrame,
    source_col: str = "source",
    output_col: str = "output",
    group_cols: Sequence[str] | str = (),
    id_col: str | None = None,
    *,
    source_pairs: Mapping[Any, Sequence[CueTargetPair]] | None = None,
    errors: str = "raise",
    progress: bool | None = None,
    n_boot: int = 1000,
    seed: int = 0,
    ci: float = 0.95,
    bertscore: bool = False,
    bertscore_model: str | None = None,
    **options: Any,
) -> CorpusScores:
    """Score every row of a table of source/output pairs: metrics pooled, per document, per group.

    ``group_cols`` (e.g. ``["doc_type", "model", "task"]``) are carried into every table and get
    their own breakdown. ``id_col`` names the document id column (default: the frame's index).
    A row is keyed by (document id, group values): the same note scored for several models is
    the usual layout and each (note, model) row keeps its own line in ``documents`` and is one
    bootstrap unit; only a repeated (id, group) key is an error. ``source_pairs`` maps a document id to its own source pairs (a
    benchmark's gold pairs). A row whose source or output is not text raises a ``ValueError``
    naming it, or with ``errors="skip"`` is left out and listed in ``problems``. ``progress``: a
    tqdm bar (default: only when stderr is a terminal). Other options as for :func:`score`.
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"score_frame expects a pandas DataFrame, got {type(df).__name__}")
    if isinstance(group_cols, str):
        group_cols = [group_cols]
    group_cols = list(group_cols)
    if errors not in ("raise", "skip"):
        raise ValueError(f"errors must be 'raise' or 'skip', got {errors!r}")
    for col, what in [
        (source_col, "source_col"),
        (output_col, "output_col"),
        *[(g, "group_cols") for g in group_cols],
    ]:
        if col not in df.columns:
            raise KeyError(f"{what}: the frame has no column {col!r} (columns: {list(df.columns)})")
    if id_col is not None and id_col not in df.columns:
        raise KeyError(f"id_col: the frame has no column {id_col!r} (columns: {list(df.columns)})")
    ids = (df[id_col] if id_col is not None else pd.Series(df.index, index=df.index)).astype(str)
    # each row is keyed by (document id, group values): one note scored for several systems is
    # several documents of the corpus, one per group
    if group_cols:
        key_frame = pd.concat([ids.rename("_id"), df[group_cols].astype(str)], axis=1)
        keys = pd.Series(
            [json.dumps(list(k), ensure_ascii=False) for k in key_frame.itertuples(index=False)],
            index=df.index,
        )
        shown = pd.Series([tuple(k) for k in key_frame.itertuples(index=False)], index=df.index)
    else:
        keys, shown = ids, ids
    dup = shown[keys.duplicated()].unique().tolist()
    if dup:
        what = f"(document id, {', '.join(group_cols)})" if group_cols else "document ids"
        raise ValueError(
            f"{what} must be unique; repeated: {dup[:5]}{' …' if len(dup) > 5 else ''}"
        )
    unit_col = "_cuelex_unit" if group_cols else "doc_id"
    scorer = _make_scorer(**options)
    rows: list[dict[str, Any]] = []
    problems: list[dict[str, Any]] = []
    bert_inputs: list[tuple[str, str, str]] = []
    t0 = time.perf_counter()
    n_docs = 0
    for i, (doc_id, key, rec) in enumerate(
        _progress(zip(ids, keys, df.to_dict(orient="records"), strict=True), len(df), progress)
    ):
        src, out = rec[source_col], rec[output_col]
        bad = [
            f"{name} ({col!r}) is {why}"
            for name, col, v in (("source", source_col, src), ("output", output_col, out))
            if (why := _bad_text(v)) is not None
        ]
        if bad:
            msg = f"row {i} (id {doc_id!r}): " + "; ".join(bad)
            if errors == "raise":
                raise ValueError(msg + ' (pass errors="skip" to leave such rows out)')
            problems.append(
                {"row": i, "doc_id": doc_id, "message": "; ".join(bad), "_key": key}
            )
            continue
        given = None
        if source_pairs is not None:
            given = source_pairs.get(doc_id, source_pairs.get(rec.get(id_col)) if id_col else None)
            if given is None:
                msg = f"row {i} (id {doc_id!r}): no entry in source_pairs"
                if errors == "raise":
                    raise ValueError(msg)
                problems.append(
                    {"row": i, "doc_id": doc_id, "message": "no entry in source_pairs", "_key": key}
                )
                continue
        pairs = scorer.pairs_for(src, doc_id, given)
        scored, _ = scorer.score_pairs(src, out, pairs)
        n_docs += 1
        groups = {g: rec[g] for g in group_cols}
        for k, p in enumerate(scored):
            r = p.row()
            r["doc_id"] = doc_id
            if group_cols:
                r[unit_col] = key
            r.update(groups)
            r["pair_index"] = k
            rows.append(r)
        if bertscore:
            bert_inputs.append((key, out, src))
    seconds = time.perf_counter() - t0
    columns = ["doc_id", *group_cols, "pair_index", *[c for c in PAIR_COLUMNS if c != "doc_id"]]
    if group_cols:
        columns.append(unit_col)
    pairs_df = pd.DataFrame(rows, columns=columns)
    metrics = M.summarize(
        pairs_df, doc_col=unit_col, group_cols=group_cols, n_boot=n_boot, seed=seed, ci=ci
    )
    metrics.settings["n_documents_scored"] = n_docs  # including documents without any source pair
    if group_cols:
        pairs_df = pairs_df.drop(columns=unit_col)
        doc_of = dict(zip(keys, ids, strict=True))
        mdocs = metrics.documents
        mdocs.insert(0, "doc_id", mdocs[unit_col].map(doc_of))
        metrics.documents = mdocs.drop(columns=unit_col)
    documents = _documents_table(df, ids, keys, group_cols, metrics, problems)
    config = {
        **scorer.config(),
        "n_boot": n_boot,
        "seed": seed,
        "ci": ci,
        "n_rows": len(df),
        "n_scored": n_docs,
        "seconds": round(seconds, 3),
    }
    if bertscore and bert_inputs:
        res = _bertscore(
            [o for _, o, _ in bert_inputs],
            [s for _, _, s in bert_inputs],
            model_path=bertscore_model,
        )
        bdf = pd.DataFrame(
            {
                "_key": [k for k, _, _ in bert_inputs],
                "bertscore_precision": [r["precision"] for r in res],
                "bertscore_recall": [r["recall"] for r in res],
                "bertscore_f1": [r["f1"] for r in res],
            }
        )
        doc_keys = _row_keys(documents, group_cols)
        documents = (
            documents.assign(_key=doc_keys).merge(bdf, on="_key", how="left").drop(columns="_key")
        )
        config["bertscore_model"] = str(resolve_model_path(bertscore_model))
    problems_df = pd.DataFrame(
        [{k: v for k, v in pr.items() if k != "_key"} for pr in problems],
        columns=["row", "doc_id", "message"],
    )
    return CorpusScores(pairs_df, documents, metrics, problems_df, config)


def _row_keys(frame: pd.DataFrame, group_cols: list[str]) -> list[str]:
    """The (document id, group values) key of each row of a documents table, as score_frame builds it."""
    if not group_cols:
        return frame["doc_id"].astype(str).tolist()
    sub = pd.concat([frame["doc_id"].astype(str), frame[group_cols].astype(str)], axis=1)
    return [json.dumps(list(k), ensure_ascii=False) for k in sub.itertuples(index=False)]


def _documents_table(
    df: pd.DataFrame,
    ids: pd.Series,
    keys: pd.Series,
    group_cols: list[str],
    metrics: M.Metrics,
    problems: list[dict[str, Any]],
) -> pd.DataFrame:
    """Per-document table (one row per (document id, group)) that also lists scored documents
    without any source pair (|S| = 0), in the order of the input frame."""
    docs = metrics.documents.copy()
    skipped = {p["_key"] for p in problems}
    have = set(_row_keys(docs, group_cols)) if len(docs) else set()
    extra = []
    for doc_id, key, rec in zip(
        ids,
        keys,
        df[group_cols].to_dict(orient="records") if group_cols else [{}] * len(df),
        strict=True,
    ):
        if key in have or key in skipped:
            continue
        row = {"doc_id": doc_id, **rec, "n_pairs": 0, "n_retained": 0}
        for f in M.FATES:
            row[f] = 0
        extra.append(row)
    if extra:
        docs = pd.concat([docs, pd.DataFrame(extra)], ignore_index=True)
    order = {k: i for i, k in enumerate(keys)}
    rank = pd.Series([order.get(k, len(order)) for k in _row_keys(docs, group_cols)], index=docs.index)
    docs = docs.loc[rank.sort_values(kind="stable").index].reset_index(drop=True)
    return docs


# --------------------------------------------------------------------------------------------------
# A table of source/output pairs (the command line is cuelex.cli.score)
# --------------------------------------------------------------------------------------------------


def read_table(
    path: str | Path,
    *,
    source_col: str = "source",
    encoding: str = "utf-8",
    skip_bad_rows: bool = False,
    problems: list[Any] | None = None,
) -> pd.DataFrame:
    """Read a CSV, TSV, JSONL or JSON array (optionally .gz) of source/output pairs.

    The readers of :func:`cuelex.corpus.read_documents`: strict decoding (``encoding``), a bad
    line named by file and line number, skipped and added to ``problems`` with ``skip_bad_rows``.
    """
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"{p}: no such file")
    if _suffixes(p)[0] not in (".csv", ".tsv", ".jsonl", ".ndjson", ".json"):
        raise ValueError(f"{p}: the pairs table must be .csv, .tsv, .jsonl or .json (optionally .gz)")
    rows = [
        {**d.meta, source_col: d.text}
        for d in read_documents(
            p,
            text_col=source_col,
            encoding=encoding,
            skip_bad_rows=skip_bad_rows,
            problems=problems if problems is not None else [],
        )
    ]
    if not rows:
        raise InputError(f"{p}: no usable rows")
    return pd.DataFrame(rows)
