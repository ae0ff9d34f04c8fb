"""Direct assessment (RQ2 of *Possible or Definite?*): can a system label and rank uncertainty levels?

1. :func:`sample_items` draws cue–target pairs per level (100 each by default, seeded) with their
   sentence as the snippet; :func:`make_bundles` groups them into multi-signal bundles of N = 2–5
   (100 per N by default) whose gold levels are distinct, so the strongest-to-weakest order is
   unique (UL1 > UL2 > UL3 > UL4 > UL5).
2. :func:`run_direct` renders the paper's prompts (Appendix C), calls the system through the
   resumable cache of :mod:`cuelex.runner` and parses every answer robustly
   (:func:`parse_single`, :func:`parse_multi`): code fences, text around the JSON, trailing commas
   and label spellings ("ul3", "UL 3", "UL3 (possible)") are tolerated; a wrong label, a missing
   signal or a ranking that is not a permutation makes that answer (or signal) **invalid with a
   reason** — never an exception.
3. Metrics (:func:`classification_metrics`, :func:`ranking_metrics`): ULA (invalid answers count
   as wrong), macro-F1 over UL1–UL5, per-level F1, exact rank accuracy and mean Kendall's tau.

:class:`CuelexDirect` answers the same items with cuelex's own rule-based classifier
(``cuelex.assess`` on the snippet and the target span) in the same JSON, so it goes through the
same parser and metrics as any LLM.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import pandas as pd

from .. import _compat
from ..api import assess, extract
from ..levels import PAPER_LEVELS, Level
from .jobs import Job, RunCache, as_documents, execute, load_prompt, render, system_name

log = logging.getLogger(__name__)

__all__ = [
    "Bundle",
    "CuelexDirect",
    "DirectItem",
    "DirectResult",
    "MultiAnswer",
    "SingleAnswer",
    "classification_metrics",
    "extract_json",
    "kendall_tau",
    "make_bundles",
    "multi_prompt",
    "parse_label",
    "parse_multi",
    "parse_single",
    "ranking_metrics",
    "run_direct",
    "sample_items",
    "single_prompt",
]

LABELS: tuple[str, ...] = tuple(lv.value for lv in PAPER_LEVELS)


@dataclass(frozen=True)
class DirectItem:
    """One cue–target pair to classify: the snippet (its sentence), the target span, the gold level."""

    item_id: str
    doc_id: str
    snippet: str
    target_text: str
    target_start: int
    target_end: int
    gold: str
    cue_text: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Bundle:
    """N items presented together as signals S1..SN."""

    bundle_id: str
    items: tuple[DirectItem, ...]

    @property
    def signal_ids(self) -> list[str]:
        return [f"S{i}" for i in range(1, len(self.items) + 1)]

    @property
    def gold_ranking(self) -> list[str]:
        """Signal ids from strongest to weakest commitment (gold levels are distinct)."""
        order = sorted(range(len(self.items)), key=lambda i: -Level.parse(self.items[i].gold).commitment)
        return [f"S{i + 1}" for i in order]


# --------------------------------------------------------------------------- sampling


def _benchmark_pairs(benchmark: Any) -> list[Any]:
    pairs = []
    for d in as_documents(benchmark):
        ps = d.pairs if d.pairs is not None else extract(d.text, doc_id=d.id, deduplicate=True)
        pairs.extend((d.id, p) for p in ps)
    return pairs


def sample_items(
    benchmark: Any,
    *,
    per_level: int = 100,
    seed: int = 0,
    levels: Sequence[Level | str] = PAPER_LEVELS,
) -> list[DirectItem]:
    """Sample ``per_level`` pairs of each level (fewer, with a warning, when the benchmark has fewer).

    ``benchmark`` is anything :func:`cuelex.runner.as_documents` accepts; documents without pairs
    are extracted with cuelex. The snippet is the pair's sentence; items whose target does not lie
    inside it are skipped.
    """
    wanted = [Level.parse(lv).value for lv in levels]
    pools: dict[str, list[DirectItem]] = {lv: [] for lv in wanted}
    for doc_id, p in _benchmark_pairs(benchmark):
        lv = p.level.value
        if lv not in pools:
            continue
        ts, te = p.target_start - p.sentence_start, p.target_end - p.sentence_start
        if not (0 <= ts < te <= len(p.sentence)) or p.sentence[ts:te] != p.target_text:
            continue
        pools[lv].append(
            DirectItem("", doc_id, p.sentence, p.target_text, ts, te, lv, p.cue_text)
        )
    rng = random.Random(seed)
    out: list[DirectItem] = []
    for lv in wanted:
        pool = pools[lv]
        if len(pool) < per_level:
            log.warning("direct assessment: only %d pair(s) at %s (asked for %d)", len(pool), lv, per_level)
        chosen = rng.sample(pool, min(per_level, len(pool)))
        for k, it in enumerate(chosen, 1):
            out.append(DirectItem(f"{lv}-{k:03d}", it.doc_id, it.snippet, it.target_text,
                                  it.target_start, it.target_end, lv, it.cue_text))
    return out


def make_bundles(
    items: Sequence[DirectItem],
    *,
    sizes: Sequence[int] = (2, 3, 4, 5),
    per_size: int = 100,
    seed: int = 0,
) -> list[Bundle]:
    """``per_size`` bundles of each size N, each of N items with distinct gold levels, in random order."""
    by_level: dict[str, list[DirectItem]] = {}
    for it in items:
        by_level.setdefault(it.gold, []).append(it)
    levels = sorted(by_level)
    rng = random.Random(seed)
    out = []
    for n in sizes:
        if n < 2 or n > len(levels):
            raise ValueError(f"bundle size {n} needs 2..{len(levels)} distinct levels among the items")
        for b in range(1, per_size + 1):
            chosen = [rng.choice(by_level[lv]) for lv in rng.sample(levels, n)]
            rng.shuffle(chosen)
            out.append(Bundle(f"N{n}-{b:03d}", tuple(chosen)))
    return out


# --------------------------------------------------------------------------- prompts


def single_prompt(item: DirectItem, template: str | None = None) -> str:
    tpl = template if template is not None else load_prompt("direct", "single").template
    return render(tpl, target_id=item.item_id, target_text=item.target_text,
                  input_text=f"Snippet: {item.snippet}")


def multi_prompt(bundle: Bundle, template: str | None = None) -> str:
    tpl = template if template is not None else load_prompt("direct", "multi").template
    blocks = [
        f"{sid}\nTarget: {it.target_text}\nSnippet: {it.snippet}"
        for sid, it in zip(bundle.signal_ids, bundle.items, strict=True)
    ]
    return render(tpl, input_text="Signals:\n\n" + "\n\n".join(blocks))


# --------------------------------------------------------------------------- parsing

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.S)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_LABEL = re.compile(r"^\s*(?:UL|LEVEL)\s*[-_ ]?\s*([1-9])(?![0-9])", re.I)


def extract_json(text: Any) -> tuple[Any, str | None]:
    """The first JSON object in a model answer (fences and surrounding text allowed), or (None, reason)."""
    if not isinstance(text, str):
        return None, f"answer is {type(text).__name__}, not text"
    if not text.strip():
        return None, "empty answer"
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    dec = json.JSONDecoder()
    for cand in candidates:
        for variant in (cand, _TRAILING_COMMA.sub(r"\1", cand)):
            s = variant.strip()
            try:
                obj = json.loads(s)
                if isinstance(obj, list) and len(obj) == 1 and isinstance(obj[0], dict):
                    obj = obj[0]
                if isinstance(obj, dict):
                    return obj, None
            except ValueError:
                pass
            for m in re.finditer(r"\{", s):
                try:
                    obj, _ = dec.raw_decode(s, m.start())
                except ValueError:
                    continue
                if isinstance(obj, dict):
                    return obj, None
    return None, "no JSON object in the answer"


def parse_label(value: Any) -> tuple[str | None, str | None]:
    """("UL3", None) for "UL3", "ul3", "UL 3", "UL-3", "UL3 (possible present)"; (None, reason) otherwise."""
    if not isinstance(value, str):
        return None, f"label is {type(value).__name__}, not text" if value is not None else "missing label"
    m = _LABEL.match(value)
    if not m or not 1 <= int(m.group(1)) <= 5:
        return None, f"wrong label {value!r} (expected UL1..UL5)"
    return f"UL{m.group(1)}", None


@dataclass
class SingleAnswer:
    level: str | None
    evidence: str | None
    valid: bool
    reason: str | None = None
    evidence_in_snippet: bool | None = None


def _level_field(obj: Mapping[str, Any]) -> Any:
    for k in ("uncertainty_level", "level", "label"):
        if k in obj:
            return obj[k]
    return None


def parse_single(answer: Any, item: DirectItem | None = None) -> SingleAnswer:
    """Parse a single-signal answer. Never raises: problems give ``valid=False`` and a ``reason``."""
    obj, reason = extract_json(answer)
    if obj is None:
        return SingleAnswer(None, None, False, reason)
    raw = _level_field(obj)
    if raw is None:
        return SingleAnswer(None, None, False, "missing uncertainty_level")
    level, reason = parse_label(raw)
    ev = obj.get("evidence_quote")
    ev = ev if isinstance(ev, str) else None
    in_snip = None if item is None or ev is None else ev in item.snippet
    return SingleAnswer(level, ev, level is not None, reason, in_snip)


@dataclass
class MultiAnswer:
    levels: dict[str, str | None]
    ranking: list[str] | None
    valid: bool
    reasons: list[str] = field(default_factory=list)


def parse_multi(answer: Any, bundle: Bundle) -> MultiAnswer:
    """Parse a multi-signal answer: a level per signal (None when missing or wrong) and the ranking."""
    ids = bundle.signal_ids
    levels: dict[str, str | None] = {sid: None for sid in ids}
    obj, reason = extract_json(answer)
    if obj is None:
        return MultiAnswer(levels, None, False, [reason or "no JSON"])
    reasons: list[str] = []
    signals = obj.get("signals")
    if not isinstance(signals, list):
        reasons.append("missing signals list")
        signals = []
    seen: set[str] = set()
    for k, s in enumerate(signals):
        if not isinstance(s, Mapping):
            reasons.append(f"signal entry {k} is not an object")
            continue
        sid = str(s.get("signal_id", "")).strip().upper()
        if sid not in levels:
            reasons.append(f"unknown signal_id {s.get('signal_id')!r}")
            continue
        if sid in seen:
            reasons.append(f"signal {sid} given twice (first kept)")
            continue
        seen.add(sid)
        lv, why = parse_label(_level_field(s))
        if lv is None:
            reasons.append(f"{sid}: {why}")
        levels[sid] = lv
    for sid in ids:
        if sid not in seen:
            reasons.append(f"missing signal {sid}")
    ranking = obj.get("rank_strongest_to_weakest")
    if not isinstance(ranking, list):
        reasons.append("missing rank_strongest_to_weakest")
        ranking = None
    else:
        norm = [str(r).strip().upper() for r in ranking]
        if sorted(norm) != sorted(ids):
            reasons.append(f"ranking {ranking!r} is not a permutation of {ids}")
            ranking = None
        else:
            ranking = norm
    valid = not reasons
    return MultiAnswer(levels, ranking, valid, reasons)


# --------------------------------------------------------------------------- metrics


def classification_metrics(gold: Sequence[str], pred: Sequence[str | None]) -> dict[str, Any]:
    """ULA (None = invalid = wrong), macro-F1 over the UL1–UL5 labels present in gold or predictions,
    and per-level F1 (``f1_UL1``…; NaN for a level neither in gold nor predicted)."""
    if len(gold) != len(pred):
        raise ValueError(f"gold and pred differ in length ({len(gold)} vs {len(pred)})")
    n = len(gold)
    out: dict[str, Any] = {"n": n, "n_invalid": sum(p is None for p in pred)}
    out["ula"] = sum(g == p for g, p in zip(gold, pred, strict=True)) / n if n else float("nan")
    f1s = []
    for lv in LABELS:
        tp = sum(g == lv and p == lv for g, p in zip(gold, pred, strict=True))
        n_gold = sum(g == lv for g in gold)
        n_pred = sum(p == lv for p in pred)
        if n_gold == 0 and n_pred == 0:
            out[f"f1_{lv}"] = float("nan")
            continue
        f1 = 2 * tp / (n_gold + n_pred)
        out[f"f1_{lv}"] = f1
        f1s.append(f1)
    out["macro_f1"] = sum(f1s) / len(f1s) if f1s else float("nan")
    return out


def kendall_tau(a: Sequence[str], b: Sequence[str]) -> float:
    """Kendall's tau between two orderings of the same ids (no ties): (concordant − discordant) / pairs."""
    if sorted(a) != sorted(b) or len(set(a)) != len(a):
        raise ValueError("kendall_tau needs two orderings of the same distinct ids")
    n = len(a)
    if n < 2:
        return float("nan")
    pos = {x: i for i, x in enumerate(b)}
    s = 0
    for i in range(n):
        for j in range(i + 1, n):
            s += 1 if pos[a[i]] < pos[a[j]] else -1
    return s / (n * (n - 1) / 2)


def ranking_metrics(gold: Sequence[Sequence[str]], pred: Sequence[Sequence[str] | None]) -> dict[str, Any]:
    """Exact rank accuracy (an invalid ranking counts as wrong) and mean Kendall's tau (valid ones)."""
    n = len(gold)
    pred = [p if isinstance(p, (list, tuple)) else None for p in pred]
    taus = [kendall_tau(list(g), list(p)) for g, p in zip(gold, pred, strict=True) if p is not None]
    return {
        "n_bundles": n,
        "n_invalid_rank": sum(p is None for p in pred),
        "exact_rank_accuracy": sum(p is not None and list(g) == list(p) for g, p in zip(gold, pred, strict=True)) / n
        if n else float("nan"),
        "kendall_tau": sum(taus) / len(taus) if taus else float("nan"),
    }


# --------------------------------------------------------------------------- cuelex as a system


class CuelexDirect:
    """cuelex's rule-based classifier answering direct-assessment items in the prompts' JSON format.

    It reads the item (snippet and target span) rather than the prompt text, so
    :func:`run_direct` calls :meth:`answer` with the item or bundle. Levels outside UL1–UL5
    (ASSERTED, HEDGED_ABSENT) are answered as such and count as wrong labels.
    """

    name = "cuelex"

    def __init__(self, **engine_options: Any):
        self.engine_options = engine_options

    def level(self, item: DirectItem) -> tuple[str, str]:
        a = assess(item.snippet, [(item.target_start, item.target_end)], **self.engine_options)[0]
        return a.level.value, a.cue.text if a.cue is not None else ""

    def answer(self, what: DirectItem | Bundle) -> str:
        if isinstance(what, DirectItem):
            lv, ev = self.level(what)
            return json.dumps({"target_id": what.item_id, "target_text": what.target_text,
                               "evidence_quote": ev, "uncertainty_level": lv})
        sigs = []
        for sid, it in zip(what.signal_ids, what.items, strict=True):
            lv, ev = self.level(it)
            sigs.append({"signal_id": sid, "target_text": it.target_text, "evidence_quote": ev,
                         "uncertainty_level": lv})
        order = sorted(range(len(sigs)), key=lambda i: -Level.parse(sigs[i]["uncertainty_level"]).commitment)
        return json.dumps({"signals": sigs, "rank_strongest_to_weakest": [sigs[i]["signal_id"] for i in order]})

    def __call__(self, prompt: str) -> str:
        raise TypeError("CuelexDirect answers items, not prompts: use it with cuelex.direct.run_direct")


# --------------------------------------------------------------------------- running


@dataclass
class DirectResult:
    """Per-item predictions, per-bundle rankings and the metrics table (one row per N)."""

    items: pd.DataFrame
    bundles: pd.DataFrame
    metrics: pd.DataFrame
    n_failed: int = 0

    def per_level_f1(self) -> pd.DataFrame:
        return self.metrics[["setting", *[f"f1_{lv}" for lv in LABELS]]]


def _sha(s: str) -> str:
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


def run_direct(
    items: Sequence[DirectItem],
    system: Callable[[str], str] | CuelexDirect,
    *,
    cache: str | os.PathLike[str],
    bundles: Sequence[Bundle] = (),
    name: str | None = None,
    single_template: str | None = None,
    multi_template: str | None = None,
    max_workers: int = 4,
    retries: int = 3,
    backoff: float = 1.0,
    progress: bool | None = None,
) -> DirectResult:
    """Ask ``system`` about every item (N = 1) and bundle (N ≥ 2), cached and resumable, then score.

    Results are cached like :func:`cuelex.runner.run` (task ``"direct"``, condition ``"N=k"``); a
    rerun calls only what is missing. Failed calls (after retries) are left out of the metrics and
    counted in ``n_failed``; invalid answers count as wrong.
    """
    sysname = system_name(system, name)
    single_tpl = single_template if single_template is not None else load_prompt("direct", "single").template
    multi_tpl = multi_template if multi_template is not None else load_prompt("direct", "multi").template
    is_cuelex = isinstance(system, CuelexDirect)

    def answer_fn(prompt: str, what: Any) -> Callable[[], str]:
        if is_cuelex:
            return lambda: system.answer(what)  # type: ignore[union-attr]
        return lambda: system(prompt)  # type: ignore[operator]

    jobs: list[Job] = []
    index: dict[tuple[Any, ...], Any] = {}
    for it in items:
        prompt = single_prompt(it, single_tpl)
        job = Job(it.item_id, "direct", "N=1", sysname, 1, prompt, _sha(single_tpl), _sha(it.snippet),
                  answer_fn(prompt, it), meta={"item": it.to_dict()})
        jobs.append(job)
        index[job.key] = it
    for b in bundles:
        prompt = multi_prompt(b, multi_tpl)
        job = Job(b.bundle_id, "direct", f"N={len(b.items)}", sysname, 1, prompt, _sha(multi_tpl),
                  _sha("\x1f".join(i.snippet for i in b.items)), answer_fn(prompt, b),
                  meta={"bundle_id": b.bundle_id, "items": [i.to_dict() for i in b.items]})
        jobs.append(job)
        index[job.key] = b
    rc = RunCache(cache)
    with rc:
        done = rc.done_keys()
        todo = [j for j in jobs if j.key not in done]
        execute(todo, rc, max_workers=max_workers, retries=retries, backoff=backoff, progress=progress,
                desc=f"{sysname} direct")
    answers: dict[tuple[Any, ...], str] = {}
    for r in rc.results:
        k = tuple(r.get(f) for f in ("doc_id", "task", "condition", "system", "iteration", "prompt_sha"))
        if k in index and r.get("status") == "ok":
            answers[k] = r["output"]
    return _score_direct(jobs, index, answers, sysname)


def _score_direct(jobs: Sequence[Any], index: Mapping[Any, Any], answers: Mapping[Any, str], sysname: str) -> DirectResult:
    item_rows: list[dict[str, Any]] = []
    bundle_rows: list[dict[str, Any]] = []
    n_failed = 0
    for job in jobs:
        what = index[job.key]
        if job.key not in answers:
            n_failed += 1
            continue
        ans = answers[job.key]
        if isinstance(what, DirectItem):
            p = parse_single(ans, what)
            item_rows.append({"system": sysname, "setting": "N=1", "n": 1, "bundle_id": None, "signal_id": None,
                              "item_id": what.item_id, "gold": what.gold, "pred": p.level, "valid": p.valid,
                              "reason": p.reason, "evidence": p.evidence,
                              "evidence_in_snippet": p.evidence_in_snippet})
        else:
            m = parse_multi(ans, what)
            for sid, it in zip(what.signal_ids, what.items, strict=True):
                item_rows.append({"system": sysname, "setting": f"N={len(what.items)}", "n": len(what.items),
                                  "bundle_id": what.bundle_id, "signal_id": sid, "item_id": it.item_id,
                                  "gold": it.gold, "pred": m.levels[sid], "valid": m.levels[sid] is not None,
                                  "reason": None if m.levels[sid] is not None else "; ".join(
                                      r for r in m.reasons if r.startswith(sid) or sid in r) or "; ".join(m.reasons),
                                  "evidence": None, "evidence_in_snippet": None})
            bundle_rows.append({"system": sysname, "setting": f"N={len(what.items)}", "n": len(what.items),
                                "bundle_id": what.bundle_id, "gold_ranking": what.gold_ranking,
                                "pred_ranking": m.ranking, "valid": m.valid, "reasons": "; ".join(m.reasons)})
    items_df = pd.DataFrame(item_rows)
    bundles_df = pd.DataFrame(bundle_rows)
    rows = []
    settings = sorted(items_df["n"].unique()) if len(items_df) else []
    groups: list[tuple[str, pd.DataFrame, pd.DataFrame]] = []
    for n in settings:
        groups.append((f"N={n}", items_df[items_df["n"] == n],
                       bundles_df[bundles_df["n"] == n] if len(bundles_df) else bundles_df))
    if len(bundles_df) and bundles_df["n"].nunique() > 1:
        groups.append(("N=2-5", items_df[items_df["n"] > 1], bundles_df))
    for setting, idf, bdf in groups:
        row: dict[str, Any] = {"system": sysname, "setting": setting}
        row.update(classification_metrics(idf["gold"].tolist(), [None if pd.isna(p) else p for p in idf["pred"]]))
        if len(bdf):
            row.update(ranking_metrics(bdf["gold_ranking"].tolist(), bdf["pred_ranking"].tolist()))
        rows.append(row)
    metrics = pd.DataFrame(rows)
    return DirectResult(items_df, bundles_df, metrics, n_failed)


def __getattr__(name: str) -> object:
    """Names that moved to the command line package (old call sites only)."""
    return _compat.moved_attr(__name__, name)
