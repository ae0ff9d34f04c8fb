"""Preservation metrics (paper §3.2.1) and the measures beyond it, from a table of scored pairs.

Let S be the source cue–target pairs and S+ those whose target was found in the output; for a pair
s in S+ with source level L, o is the level the output gives the aligned target (``ASSERTED`` when
no cue governs it). Each pair gets exactly one **fate**:

==================  ==========================================================  ======
fate                condition                                                   metric
==================  ==========================================================  ======
preserved           o == L                                                      URR
certainty_asserted  o != L and o == ASSERTED (cue removed, stated as definite)  CAR
partial_certainty   o a cue level with higher commitment than L                 PCR
over_hedged         o a cue level with lower commitment than L                  OHR
dropped             target not found in the output (s not in S+)                1 − TRR
==================  ==========================================================  ======

TRR = |S+| / |S|; URR, CAR, PCR, OHR are shares of S+, so URR + CAR + PCR + OHR = 1 whenever S+
is non-empty (the four counts always sum to |S+|). Commitment is :attr:`cuelex.Level.commitment`
(ASSERTED 7 > UL1 6 > HEDGED_ABSENT 5 > UL2 4 > UL3 3 > UL4 2 > UL5 1).

Beyond the paper:

* **inflation** = share of S+ whose commitment went up (CAR + PCR), **deflation** = share whose
  commitment went down (OHR), and their ratio (the CD-↑ / CD-↓ decomposition of *From "may" to
  "is"*; ratio > 1: the rewrite inflates certainty more often than it deflates it; ``inf`` when
  nothing was deflated);
* **negation_flip_rate** = share of retained UL1 (certain-absent) pairs that came out ASSERTED —
  "no pneumonia" → "pneumonia" — also counted inside CAR;
* **polarity_flip_rate** = share of retained pairs leaning present/absent whose output leans the
  other way ("likely pneumonia" → "pneumonia is unlikely" or "no pneumonia");
* **calibrated_shift** = mean of p(output) − p(source) in percentage points, over pairs where both
  sides have a probability: the graded strength of the deciding cue (its lexicon ``strength``: the
  human-survey median of its probability word where it has one, ``cuelex/data/cue_probabilities.csv``,
  otherwise cuelex's documented placement within its level, docs/levels.md), with ASSERTED = 100
  and UL1 = 0 as anchors (``anchors=False`` turns them off); **abs_calibrated_shift** is the mean
  absolute shift.

Every rate is reported **micro** (pooled over all pairs) and **macro** (mean of per-document
rates over the documents where the rate is defined), with percentile **bootstrap** confidence
intervals from a seeded generator: documents are resampled (a cluster bootstrap, since pairs of one
document are not independent) when there are at least two documents, pairs otherwise.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources as importlib_resources
from typing import Any

import numpy as np
import pandas as pd

from ..extraction.engine import default_engine
from ..levels import LEVEL_ORDER, Level

__all__ = [
    "CONFUSION_COLUMNS",
    "FATES",
    "FATE_METRIC",
    "METRICS",
    "RATES",
    "Metrics",
    "classify",
    "confusion_matrix",
    "cue_probability",
    "summarize",
    "survey_probabilities",
]

PRESERVED = "preserved"
CERTAINTY_ASSERTED = "certainty_asserted"
PARTIAL_CERTAINTY = "partial_certainty"
OVER_HEDGED = "over_hedged"
DROPPED = "dropped"
#: Every fate, in report order.
FATES: tuple[str, ...] = (PRESERVED, CERTAINTY_ASSERTED, PARTIAL_CERTAINTY, OVER_HEDGED, DROPPED)
#: The paper's metric each fate of a retained pair counts toward.
FATE_METRIC: dict[str, str] = {
    PRESERVED: "URR",
    CERTAINTY_ASSERTED: "CAR",
    PARTIAL_CERTAINTY: "PCR",
    OVER_HEDGED: "OHR",
}
#: The paper's five rates.
RATES: tuple[str, ...] = ("TRR", "URR", "CAR", "PCR", "OHR")
#: All reported metrics, in report order.
METRICS: tuple[str, ...] = (
    *RATES,
    "inflation",
    "deflation",
    "inflation_deflation_ratio",
    "negation_flip_rate",
    "polarity_flip_rate",
    "calibrated_shift",
    "abs_calibrated_shift",
)
#: Columns of the confusion matrix: output levels by commitment, then DROPPED.
CONFUSION_COLUMNS: tuple[str, ...] = (*tuple(lv.value for lv in LEVEL_ORDER), "DROPPED")


def classify(source_level: Level | str, output_level: Level | str | None) -> str:
    """The fate of one source pair given the output level of its target (None: not found).

    >>> [classify("UL3", "ASSERTED"), classify("UL3", "UL2"), classify("UL2", "UL5")]
    ['certainty_asserted', 'partial_certainty', 'over_hedged']
    >>> classify("UL1", None)
    'dropped'
    """
    src = Level.parse(source_level)
    if output_level is None or (isinstance(output_level, float) and math.isnan(output_level)):
        return DROPPED
    out = Level.parse(output_level)
    if out is src:
        return PRESERVED
    if out is Level.ASSERTED:
        return CERTAINTY_ASSERTED
    if out.commitment > src.commitment:
        return PARTIAL_CERTAINTY
    return OVER_HEDGED


# --------------------------------------------------------------------------------------------------
# Survey probabilities
# --------------------------------------------------------------------------------------------------

_ANCHORS = {Level.ASSERTED: 100.0, Level.UL1: 0.0}


def _data_file(name: str) -> Any:
    return importlib_resources.files("cuelex.data").joinpath(name)


@lru_cache(maxsize=1)
def survey_probabilities() -> dict[str, float]:
    """Probability (0–100) of each surveyed phrase: respondent-weighted mean of survey medians.

    >>> survey_probabilities()["unlikely"]
    20.0
    """
    sums: dict[str, list[float]] = {}
    with _data_file("probability_words.csv").open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            phrase = row["phrase"].strip().lower()
            if phrase == "almost certainly":
                phrase = "almost certain"
            n, median = float(row["n"]), float(row["median"])
            acc = sums.setdefault(phrase, [0.0, 0.0])
            acc[0] += n * median
            acc[1] += n
    return {p: round(s / n, 2) for p, (s, n) in sums.items()}


@lru_cache(maxsize=1)
def _cue_phrases() -> dict[str, str]:
    with _data_file("cue_probabilities.csv").open(encoding="utf-8") as fh:
        return {
            r["cue"].strip().lower(): r["survey_phrase"].strip().lower() for r in csv.DictReader(fh)
        }


def cue_probability(
    cue_text: str | None, level: Level | str, *, anchors: bool = True
) -> float | None:
    """Probability (0–100) that the target is present, for a cue (or None when unknown).

    The cue's graded strength: the shipped lexicon entry that matches all of ``cue_text`` at
    ``level`` gives its ``strength`` (survey median where the cue has a surveyed word, documented
    placement otherwise); a cue text outside the lexicons falls back to ``cue_probabilities.csv``
    (matched case- and space-insensitively). With ``anchors``, ASSERTED is 100 and UL1 is 0
    whatever the cue.

    >>> cue_probability("Likely", "UL2"), cue_probability("possible", "UL3")
    (70.0, 50.0)
    >>> cue_probability("cannot be excluded", "UL3") < cue_probability("possible", "UL3")
    True
    >>> cue_probability(None, "ASSERTED")
    100.0
    """
    lv = Level.parse(level)
    if anchors and lv in _ANCHORS:
        return _ANCHORS[lv]
    if not cue_text:
        return None
    key = " ".join(str(cue_text).lower().split())
    graded = _lexicon_strength(key, lv)
    if graded is not None:
        return graded
    phrase = _cue_phrases().get(key)
    if phrase is None:
        return None
    return survey_probabilities().get(phrase)


@lru_cache(maxsize=4096)
def _lexicon_strength(key: str, level: Level) -> float | None:
    """Strength of the shipped lexicon entry whose pattern matches all of ``key`` at ``level``."""
    found = default_engine().lookup(key)
    if found is None or found[2] is None or found[2].level is not level:
        return None
    return found[2].strength


# --------------------------------------------------------------------------------------------------
# Counting
# --------------------------------------------------------------------------------------------------

# count vector layout
_K = (
    "n",
    "retained",
    PRESERVED,
    CERTAINTY_ASSERTED,
    PARTIAL_CERTAINTY,
    OVER_HEDGED,
    "ul1_retained",
    "negation_flips",
    "polar_retained",
    "polarity_flips",
    "calibrated_n",
    "calibrated_sum",
    "calibrated_abs_sum",
)
_I = {k: i for i, k in enumerate(_K)}
_POLAR = {"present": "absent", "absent": "present"}


def _pair_counts(frame: pd.DataFrame) -> np.ndarray:
    """One count row per pair (columns ``_K``)."""
    n = len(frame)
    m = np.zeros((n, len(_K)), dtype=float)
    if n == 0:
        return m
    src = [Level.parse(v) for v in frame["source_level"]]
    out = [None if _missing(v) else Level.parse(v) for v in frame["output_level"]]
    fates = [classify(s, o) for s, o in zip(src, out, strict=False)]
    m[:, _I["n"]] = 1
    for r, (s, o, f) in enumerate(zip(src, out, fates, strict=False)):
        if o is None:
            continue
        m[r, _I["retained"]] = 1
        m[r, _I[f]] = 1
        if s is Level.UL1:
            m[r, _I["ul1_retained"]] = 1
            if o is Level.ASSERTED:
                m[r, _I["negation_flips"]] = 1
        if s.polarity in _POLAR:
            m[r, _I["polar_retained"]] = 1
            if o.polarity == _POLAR[s.polarity]:
                m[r, _I["polarity_flips"]] = 1
    if "p_source" in frame.columns and "p_output" in frame.columns:
        ps = pd.to_numeric(frame["p_source"], errors="coerce").to_numpy(dtype=float)
        po = pd.to_numeric(frame["p_output"], errors="coerce").to_numpy(dtype=float)
        ok = ~np.isnan(ps) & ~np.isnan(po) & (m[:, _I["retained"]] == 1)
        d = np.where(ok, po - ps, 0.0)
        m[:, _I["calibrated_n"]] = ok
        m[:, _I["calibrated_sum"]] = d
        m[:, _I["calibrated_abs_sum"]] = np.abs(d)
    return m


def _missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA or v == ""


def _div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b > 0, a / np.where(b > 0, b, 1), np.nan)


def _rates(c: np.ndarray) -> dict[str, np.ndarray]:
    """Metric values from count rows (any leading shape; last axis = ``_K``)."""
    g = {k: c[..., i] for k, i in _I.items()}
    ret = g["retained"]
    infl = g[CERTAINTY_ASSERTED] + g[PARTIAL_CERTAINTY]
    defl = g[OVER_HEDGED]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(
            defl > 0, infl / np.where(defl > 0, defl, 1), np.where(infl > 0, np.inf, np.nan)
        )
    return {
        "TRR": _div(ret, g["n"]),
        "URR": _div(g[PRESERVED], ret),
        "CAR": _div(g[CERTAINTY_ASSERTED], ret),
        "PCR": _div(g[PARTIAL_CERTAINTY], ret),
        "OHR": _div(g[OVER_HEDGED], ret),
        "inflation": _div(infl, ret),
        "deflation": _div(defl, ret),
        "inflation_deflation_ratio": ratio,
        "negation_flip_rate": _div(g["negation_flips"], g["ul1_retained"]),
        "polarity_flip_rate": _div(g["polarity_flips"], g["polar_retained"]),
        "calibrated_shift": _div(g["calibrated_sum"], g["calibrated_n"]),
        "abs_calibrated_shift": _div(g["calibrated_abs_sum"], g["calibrated_n"]),
    }


def _num_den(c: np.ndarray) -> dict[str, tuple[float | None, float]]:
    g = {k: float(c[i]) for k, i in _I.items()}
    ret = g["retained"]
    return {
        "TRR": (ret, g["n"]),
        "URR": (g[PRESERVED], ret),
        "CAR": (g[CERTAINTY_ASSERTED], ret),
        "PCR": (g[PARTIAL_CERTAINTY], ret),
        "OHR": (g[OVER_HEDGED], ret),
        "inflation": (g[CERTAINTY_ASSERTED] + g[PARTIAL_CERTAINTY], ret),
        "deflation": (g[OVER_HEDGED], ret),
        "inflation_deflation_ratio": (g[CERTAINTY_ASSERTED] + g[PARTIAL_CERTAINTY], g[OVER_HEDGED]),
        "negation_flip_rate": (g["negation_flips"], g["ul1_retained"]),
        "polarity_flip_rate": (g["polarity_flips"], g["polar_retained"]),
        "calibrated_shift": (None, g["calibrated_n"]),
        "abs_calibrated_shift": (None, g["calibrated_n"]),
    }


def _clean(x: float) -> float | None:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return None
    return float(x)


@dataclass
class _Boot:
    """Bootstrap replicate weights over units (documents or pairs)."""

    weights: np.ndarray  # B × units
    alpha: float

    @classmethod
    def make(cls, units: int, n_boot: int, seed: int, ci: float) -> _Boot | None:
        if n_boot <= 0 or units == 0:
            return None
        rng = np.random.default_rng(seed)
        w = rng.multinomial(units, np.full(units, 1.0 / units), size=n_boot).astype(float)
        return cls(w, (1.0 - ci) / 2.0)

    def interval(self, values: np.ndarray) -> tuple[float | None, float | None]:
        v = values[~np.isnan(values)]
        if v.size == 0:
            return None, None
        # no interpolation across an infinite ratio (inf - inf); plain percentiles otherwise
        method = "inverted_cdf" if np.isinf(v).any() else "linear"
        lo, hi = np.quantile(v, [self.alpha, 1.0 - self.alpha], method=method)
        return float(lo), float(hi)


def _table(unit_counts: np.ndarray, boot: _Boot | None, unit: str) -> list[dict[str, Any]]:
    """Micro and macro rows for one set of units (rows of counts)."""
    rows: list[dict[str, Any]] = []
    total = unit_counts.sum(axis=0) if len(unit_counts) else np.zeros(len(_K))
    micro = _rates(total)
    nd = _num_den(total)
    rep = _rates(boot.weights @ unit_counts) if boot is not None and len(unit_counts) else None
    per_unit = _rates(unit_counts) if len(unit_counts) else None
    for name in METRICS:
        lo = hi = None
        if rep is not None:
            lo, hi = boot.interval(rep[name])  # type: ignore[union-attr]
        num, den = nd[name]
        rows.append(
            {
                "metric": name,
                "scope": "micro",
                "value": _clean(float(micro[name])),
                "ci_low": lo,
                "ci_high": hi,
                "numerator": num,
                "denominator": den,
                "n_units": None,
            }
        )
    if unit == "document":
        for name in METRICS:
            if name == "inflation_deflation_ratio":
                continue  # a mean of per-document ratios is meaningless (inf when nothing deflates)
            vals = per_unit[name] if per_unit is not None else np.array([])
            ok = ~np.isnan(vals) & np.isfinite(vals)
            value = float(vals[ok].mean()) if ok.any() else None
            lo = hi = None
            if boot is not None and ok.any():
                w = boot.weights[:, ok]
                den = w.sum(axis=1)
                rep_m = _div(w @ vals[ok], den)
                lo, hi = boot.interval(rep_m)
            rows.append(
                {
                    "metric": name,
                    "scope": "macro",
                    "value": value,
                    "ci_low": lo,
                    "ci_high": hi,
                    "numerator": None,
                    "denominator": None,
                    "n_units": int(ok.sum()),
                }
            )
    return rows


# --------------------------------------------------------------------------------------------------
# The report
# --------------------------------------------------------------------------------------------------


@dataclass
class Metrics:
    """All metrics of a set of scored pairs, as tidy pandas tables.

    * ``overall`` — one row per (metric, scope): ``value``, ``ci_low``, ``ci_high``,
      ``numerator``, ``denominator`` (micro) or ``n_units`` (macro: documents with the rate defined)
    * ``by_level`` — the same per source level (micro)
    * ``by_group`` — the same per group (e.g. document type, model, task), micro and macro
    * ``confusion`` — source level × output level counts, with a DROPPED column
    * ``documents`` — one row per document: counts per fate and its own rates
    """

    overall: pd.DataFrame
    by_level: pd.DataFrame
    by_group: pd.DataFrame
    confusion: pd.DataFrame
    documents: pd.DataFrame
    settings: dict[str, Any] = field(default_factory=dict)

    def value(self, metric: str, scope: str = "micro") -> float | None:
        """One number, e.g. ``metrics.value("URR")``; None when undefined (no retained pairs)."""
        if metric not in METRICS:
            raise KeyError(f"unknown metric {metric!r}; expected one of {list(METRICS)}")
        if scope not in ("micro", "macro"):
            raise ValueError(f"scope must be 'micro' or 'macro', got {scope!r}")
        rows = self.overall[(self.overall["metric"] == metric) & (self.overall["scope"] == scope)]
        if rows.empty:
            return None
        return _clean(rows["value"].iloc[0])

    def rates(self, scope: str = "micro") -> dict[str, float | None]:
        """The paper's five rates as a dict."""
        return {m: self.value(m, scope) for m in RATES}

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict (NaN and infinity become None; see ``inflation_deflation_ratio``)."""

        def records(df: pd.DataFrame) -> list[dict[str, Any]]:
            return [
                {k: _json_value(v) for k, v in row.items()} for row in df.to_dict(orient="records")
            ]

        return {
            "settings": self.settings,
            "overall": records(self.overall),
            "by_level": records(self.by_level),
            "by_group": records(self.by_group),
            "confusion": {
                str(idx): {str(c): int(v) for c, v in row.items()}
                for idx, row in self.confusion.iterrows()
            },
            "documents": records(self.documents),
        }


def _json_value(v: Any) -> Any:
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return None if math.isnan(f) or math.isinf(f) else f
    if v is pd.NA:
        return None
    return v


def summarize(
    pairs: pd.DataFrame,
    *,
    doc_col: str = "doc_id",
    group_cols: Sequence[str] = (),
    n_boot: int = 1000,
    seed: int = 0,
    ci: float = 0.95,
) -> Metrics:
    """Compute every metric from a table of scored pairs.

    ``pairs`` needs ``source_level`` and ``output_level`` (a level name, or empty/None/NaN when the
    target was dropped) and ``doc_col``; ``p_source``/``p_output`` (survey probabilities) enable
    the calibrated shift; ``group_cols`` name columns to break results down by (document type,
    model, task, …). Works on any such table — cuelex's own scores or human annotations.
    """
    if not isinstance(pairs, pd.DataFrame):
        raise TypeError(f"summarize expects a pandas DataFrame, got {type(pairs).__name__}")
    for col in ("source_level", "output_level", doc_col, *group_cols):
        if col not in pairs.columns:
            raise KeyError(
                f"the pairs table has no column {col!r} (columns: {list(pairs.columns)})"
            )
    if not 0 < ci < 1:
        raise ValueError(f"ci must be between 0 and 1, got {ci!r}")
    if n_boot < 0:
        raise ValueError(f"n_boot must be >= 0, got {n_boot!r}")
    frame = pairs.reset_index(drop=True)
    counts = _pair_counts(frame)
    docs = frame[doc_col].astype(str).to_numpy() if len(frame) else np.array([], dtype=str)
    doc_ids = list(dict.fromkeys(docs.tolist()))
    settings = {"n_boot": int(n_boot), "seed": int(seed), "ci": float(ci)}

    def units_of(mask: np.ndarray) -> tuple[np.ndarray, list[str], str]:
        sub_docs = docs[mask]
        ids = list(dict.fromkeys(sub_docs.tolist()))
        if len(doc_ids) >= 2:
            pos = {d: i for i, d in enumerate(ids)}
            u = np.zeros((len(ids), len(_K)))
            np.add.at(u, [pos[d] for d in sub_docs], counts[mask])
            return u, ids, "document"
        return counts[mask], ids, "pair"

    all_mask = np.ones(len(frame), dtype=bool)
    unit_counts, _ids, unit = units_of(all_mask)
    settings["ci_unit"] = unit
    settings["n_documents"] = len(doc_ids)
    settings["n_pairs"] = len(frame)
    boot = _Boot.make(len(unit_counts), n_boot, seed, ci)
    overall = pd.DataFrame(_table(unit_counts, boot, unit))

    # per source level (micro; same resampling of documents)
    level_rows = []
    src_levels = (
        frame["source_level"].map(lambda v: Level.parse(v).value)
        if len(frame)
        else pd.Series([], dtype=str)
    )
    for lv in LEVEL_ORDER:
        mask = (src_levels == lv.value).to_numpy() if len(frame) else np.zeros(0, dtype=bool)
        if not mask.any():
            continue
        if unit == "document":
            pos = {d: i for i, d in enumerate(doc_ids)}
            u = np.zeros((len(doc_ids), len(_K)))
            np.add.at(u, [pos[d] for d in docs[mask]], counts[mask])
            b = boot
        else:
            u = counts[mask]
            b = _Boot.make(len(u), n_boot, seed, ci)
        for row in _table(u, b, "pair"):
            level_rows.append({"source_level": lv.value, **row})
    by_level = pd.DataFrame(level_rows, columns=["source_level", *_TABLE_COLUMNS])

    # per group
    group_rows = []
    if group_cols:
        keys = frame[list(group_cols)].astype(str)
        for gkey, sub in keys.groupby(list(group_cols), sort=True, dropna=False):
            gvals = gkey if isinstance(gkey, tuple) else (gkey,)
            mask = np.zeros(len(frame), dtype=bool)
            mask[sub.index.to_numpy()] = True
            u, ids, gunit = units_of(mask)
            b = _Boot.make(len(u), n_boot, seed, ci)
            for row in _table(u, b, gunit):
                keys = dict(zip(group_cols, gvals, strict=False))
                group_rows.append({**keys, "n_documents": len(ids), **row})
    by_group = pd.DataFrame(group_rows, columns=[*group_cols, "n_documents", *_TABLE_COLUMNS])

    confusion = confusion_matrix(frame)

    # per document
    doc_rows = []
    if len(frame):
        pos = {d: i for i, d in enumerate(doc_ids)}
        u = np.zeros((len(doc_ids), len(_K)))
        np.add.at(u, [pos[d] for d in docs], counts)
        r = _rates(u)
        first = frame.groupby(frame[doc_col].astype(str), sort=False).first()
        for i, d in enumerate(doc_ids):
            row: dict[str, Any] = {doc_col: d}
            for gc in group_cols:
                row[gc] = first.loc[d, gc]
            row["n_pairs"] = int(u[i, _I["n"]])
            row["n_retained"] = int(u[i, _I["retained"]])
            for f in FATES[:-1]:
                row[f] = int(u[i, _I[f]])
            row[DROPPED] = int(u[i, _I["n"]] - u[i, _I["retained"]])
            for m in METRICS:
                row[m] = _clean(float(r[m][i]))
            doc_rows.append(row)
    documents = pd.DataFrame(
        doc_rows, columns=[doc_col, *group_cols, "n_pairs", "n_retained", *FATES, *METRICS]
    )
    return Metrics(overall, by_level, by_group, confusion, documents, settings)


_TABLE_COLUMNS = [
    "metric",
    "scope",
    "value",
    "ci_low",
    "ci_high",
    "numerator",
    "denominator",
    "n_units",
]


def confusion_matrix(pairs: pd.DataFrame) -> pd.DataFrame:
    """Source level (rows, commitment order) × output level (columns, plus DROPPED) pair counts."""
    rows = [lv.value for lv in LEVEL_ORDER]
    m = pd.DataFrame(0, index=pd.Index(rows, name="source_level"), columns=list(CONFUSION_COLUMNS))
    for s, o in zip(pairs["source_level"], pairs["output_level"], strict=False):
        col = "DROPPED" if _missing(o) else Level.parse(o).value
        m.loc[Level.parse(s).value, col] += 1
    if not m.loc["ASSERTED"].any():
        m = m.drop(
            index="ASSERTED"
        )  # source pairs are cue pairs; keep the row only if a caller used it
    m.columns.name = "output_level"
    return m
