"""Speed of cuelex beside negspacy and medSpaCy in one run: pipelines, extract, linking, long inputs, import, scoring.

Run from the repository root (offline, a few minutes):
    .venv/bin/python benchmark/speed.py [--repeats N] [--min-run SECONDS] [--no-write]

Corpora: the real chest X-ray reports of the shared IU development set
(``../shared/data/eval/iu_cxr_dev.jsonl``, findings + impression; read at run time, never copied;
skipped with a note when absent) and the embedded ACI-BENCH demo notes
(``cuelex/data/aci_bench_notes.jsonl``). Everything runs in this one process, so the ratios
compare systems under the same load. Results are printed and written to docs/speed.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import evalcommon as ec
import realtext_docs as rd

IU_FILE = Path(os.environ.get("CUELEX_IU_REPORTS", rd.IU_FILE))
ACI_FILE = ec.ROOT / "cuelex" / "data" / "aci_bench_notes.jsonl"
FINDINGS = ec.BENCH / "data" / "cxr_findings.txt"
WARMUP_DOCS = 25
LONG_BUDGET = 20.0  # seconds: a long-input size that takes longer stops the growing series


def read_findings() -> list[str]:
    lines = FINDINGS.read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")]


def load_corpora() -> tuple[dict[str, list[str]], list[str]]:
    """The corpora that exist on this machine, and notes on those skipped."""
    corpora: dict[str, list[str]] = {}
    notes: list[str] = []
    if IU_FILE.exists():
        rows = [r for r in ec.read_jsonl(IU_FILE) if r.get("findings") or r.get("impression")]
        corpora["IU chest X-ray reports"] = [
            rd.iu_text({"findings": r.get("findings") or "", "impression": r.get("impression") or ""})
            for r in rows
        ]
    else:
        notes.append(f"IU reports skipped: {IU_FILE} not found")
    corpora["ACI-BENCH demo notes"] = [r["text"] for r in ec.read_jsonl(ACI_FILE)]
    return corpora, notes


def ab_setup(
    doc: str,
    argv: list[str] | None,
    rounds: int = 5,
    add_arguments: Callable[[argparse.ArgumentParser], None] | None = None,
) -> tuple[argparse.Namespace, dict[str, list[str]]]:
    """The shared start of the A/B scripts (extract_ab, link_ab, component_ab, tokenizer_ab): their
    arguments (``--rounds``, at least 1, and the script's own) and the corpora above, logging
    silenced and the notes on skipped corpora printed."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=rounds, help="rounds of turns (medians kept)")
    if add_arguments is not None:
        add_arguments(ap)
    args = ap.parse_args(argv)
    if args.rounds < 1:
        raise SystemExit("--rounds must be at least 1")
    ec.silence_logging()
    corpora, notes = load_corpora()
    for note in notes:
        print(note)
    return args, corpora


# --------------------------------------------------------------------------------------- systems


def build_systems(findings: list[str]) -> dict[str, Callable[[list[str]], int]]:
    """Each system: a function that runs it over a list of texts and returns an output count."""
    import medspacy
    import spacy
    from medspacy.target_matcher import TargetRule
    from negspacy.negation import Negex  # noqa: F401  (registers the "negex" factory)

    import cuelex

    ec.silence_logging()  # again: importing medspacy/PyRuSH must not re-enable DEBUG output
    blank = spacy.blank("en")

    neg = spacy.blank("en")
    neg.add_pipe("sentencizer")
    ruler = neg.add_pipe("entity_ruler", config={"phrase_matcher_attr": "LOWER"})
    ruler.add_patterns([{"label": "FINDING", "pattern": f} for f in findings])
    neg.add_pipe("negex")

    med = medspacy.load()
    med.get_pipe("medspacy_target_matcher").add(
        [TargetRule(f, "FINDING") for f in findings]
    )

    cue = cuelex.load()
    engine = cuelex.get_engine()
    no_memo = type(engine)(engine.resources, memo=False)  # the same engine class, no memo

    def run_blank(texts: list[str]) -> int:
        return sum(len(d) for d in blank.pipe(texts))

    def run_cuelex_tokenizer(texts: list[str]) -> int:
        return sum(len(d) for d in cue.tokenizer.pipe(texts))

    def run_negspacy(texts: list[str]) -> int:
        return sum(sum(1 for e in d.ents if e._.negex) for d in neg.pipe(texts))

    def run_medspacy(texts: list[str]) -> int:
        return sum(
            sum(1 for e in d.ents if e._.is_negated or e._.is_uncertain) for d in med.pipe(texts)
        )

    # every timed pass starts with an empty memo: a cold pass over the corpus
    def run_cuelex_pipe(texts: list[str]) -> int:
        engine.clear_memo()
        return sum(len(d._.cue_pairs) for d in cue.pipe(texts))

    def run_extract(texts: list[str]) -> int:
        engine.clear_memo()
        return sum(len(cuelex.extract(t)) for t in texts)

    def run_no_memo(texts: list[str]) -> int:
        return sum(len(no_memo.extract(t)) for t in texts)

    return {
        "spaCy blank English tokenizer (floor)": run_blank,
        CUE_TOKENIZER: run_cuelex_tokenizer,
        "negspacy (sentencizer + EntityRuler + negex)": run_negspacy,
        "medSpaCy default (PyRuSH + TargetMatcher + ConText)": run_medspacy,
        "cuelex `cuelex.load()` nlp.pipe": run_cuelex_pipe,
        "cuelex `cuelex.extract`": run_extract,
        NO_MEMO: run_no_memo,
    }


SLOW = "medSpaCy default (PyRuSH + TargetMatcher + ConText)"  # timed once (tens of seconds a pass)
BASE = "negspacy (sentencizer + EntityRuler + negex)"
NO_MEMO = "cuelex `Engine(memo=False).extract` (no memo)"
CUE_TOKENIZER = "cuelex `cuelex.load()` tokenizer alone (same Docs, every chunk cached)"


def time_pass(run: Callable[[], int], passes: int) -> tuple[float, int]:
    """Seconds per corpus pass over ``passes`` consecutive passes, and one pass's output count."""
    gc.collect()
    out = 0
    t = time.perf_counter()
    for _ in range(passes):
        out = run()
    return (time.perf_counter() - t) / passes, out


def time_systems(
    systems: dict[str, Callable[[list[str]], int]],
    texts: list[str],
    repeats: int,
    min_run: float,
    slow: dict[str, int] | None = None,
) -> dict[str, tuple[float, int, int, int]]:
    """Best seconds per document, output count, passes per timed run and documents per pass.

    The systems take turns. A system in ``slow`` is timed once, on that many first documents.
    """
    slow = slow or {}
    passes = {}
    docs = {name: texts[: slow[name]] if name in slow else texts for name in systems}
    warm = texts[:WARMUP_DOCS]
    for name, fn in systems.items():
        t = time.perf_counter()
        fn(warm)
        est = (time.perf_counter() - t) * len(docs[name]) / len(warm)
        passes[name] = 1 if name in slow else max(1, math.ceil(min_run / max(est, 1e-6)))
    best = {name: (math.inf, 0) for name in systems}
    for rnd in range(repeats):
        for name, fn in systems.items():
            if name in slow and rnd > 0:
                continue
            sec, out = time_pass(lambda fn=fn, d=docs[name]: fn(d), passes[name])
            if sec / len(docs[name]) < best[name][0]:
                best[name] = (sec / len(docs[name]), out)
    return {
        name: (best[name][0], best[name][1], passes[name], len(docs[name])) for name in systems
    }


# ------------------------------------------------------------------------------------ other measures


def link_cost(texts: list[str], repeats: int) -> tuple[float, float]:
    """Seconds per pass of extract and of extract(link=True), best of ``repeats``, taking turns."""
    import cuelex

    cuelex.extract(texts[0], link=True)  # builds / opens the open vocabulary index
    for t in texts[:WARMUP_DOCS]:
        cuelex.extract(t, link=True)
    engine, linker = cuelex.get_engine(), cuelex.get_linker()

    def plain_pass() -> int:
        engine.clear_memo()  # cold passes: both memos emptied first
        return sum(len(cuelex.extract(t)) for t in texts)

    def linked_pass() -> int:
        engine.clear_memo()
        linker.clear_memo()
        return sum(len(cuelex.extract(t, link=True)) for t in texts)

    plain = linked = math.inf
    for _ in range(repeats):
        plain = min(plain, time_pass(plain_pass, 1)[0])
        linked = min(linked, time_pass(linked_pass, 1)[0])
    return plain, linked


def long_inputs(aci: list[str]) -> list[list[object]]:
    """Per-character extract time of long inputs relative to normal notes timed just before.

    Both with the memo off: the joined note repeats the demo notes, and the memo would hide the
    cost of the algorithm, which is what this measures.
    """
    import cuelex

    default = cuelex.get_engine()
    engine = type(default)(default.resources, memo=False)  # the same engine class, no memo

    def per_char_normal() -> float:
        # the demo notes, best of two passes right before each long input (same machine load)
        chars = sum(len(t) for t in aci)
        passes = [time_pass(lambda: sum(len(engine.extract(t)) for t in aci), 1)[0] for _ in "ab"]
        return min(passes) / chars

    rows: list[list[object]] = []
    note = ""
    k = 0
    while len(note) < 1_000_000:
        note += aci[k % len(aci)] + "\n\n"
        k += 1
    note = note[:1_000_000]
    cases = [("1 MB note (demo notes joined)", note)]
    # one line and one sentence: newlines and sentence punctuation gone (lost line breaks, OCR)
    flat = " ".join(" ".join("".join(ch for ch in t if ch not in ".!?;:").split()) for t in aci)
    while len(flat) < 200_000:
        flat = flat + " " + flat
    for size in (25_000, 50_000, 100_000, 200_000):
        cases.append((f"{size // 1000} KB single line, no sentence punctuation", flat[:size]))
    stopped = False
    for label, text in cases:
        if stopped:
            rows.append([label, f"{len(text):,}", "not run", "", "smaller size exceeded the budget"])
            continue
        normal = per_char_normal()
        gc.collect()
        t = time.perf_counter()
        n = len(engine.extract(text))
        sec = time.perf_counter() - t
        ratio = (sec / len(text)) / normal
        rows.append([label, f"{len(text):,}", f"{sec:.2f}", f"**{ratio:.2f}×**", f"{n} pairs"])
        print(f"  long input {label}: {sec:.2f}s, {ratio:.2f}x per char", flush=True)
        if "single line" in label and sec > LONG_BUDGET:
            stopped = True
    return rows


def import_times(n: int = 7) -> dict[str, float]:
    """Best wall time (fresh interpreter each) of ``import cuelex`` and of the first extract."""
    code = {
        "`import cuelex`": "import cuelex",
        "`import cuelex` + first `cuelex.extract`": "import cuelex; cuelex.extract('Possible pneumonia.')",
        "`import cuelex` + `cuelex.load()`": "import cuelex; cuelex.load()",
    }
    out = {}
    for label, stmt in code.items():
        times = []
        for _ in range(n if label == "`import cuelex`" else 3):
            prog = (
                "import time; t = time.perf_counter(); "
                + stmt
                + "; print(time.perf_counter() - t)"
            )
            res = subprocess.run(
                [sys.executable, "-c", prog], capture_output=True, text=True, check=True, cwd=tempfile.gettempdir()
            )
            times.append(float(res.stdout.strip().splitlines()[-1]))
        out[label] = min(times)
        print(f"  {label}: best {min(times):.3f}s (median {statistics.median(times):.3f}s)", flush=True)
    return out


def scoring_time(n: int = 1000) -> tuple[float, int]:
    """Seconds to score ``n`` realistic source/output pairs (benchmark/score_speed.py's pairs)."""
    import score_speed

    df, _chunks = score_speed.build_pairs(n)
    sec, _res = score_speed.time_scoring(df, 1)
    return sec, len(df)


def target_rows(
    results: dict[str, dict[str, tuple[float, int, int, int]]],
    link: dict[str, float],
    long_rows: list[list[object]],
    imports: dict[str, float],
) -> list[list[str]]:
    """The issue's targets against this run's numbers (computed, never written by hand)."""
    rows = []
    pipe = "cuelex `cuelex.load()` nlp.pipe"
    for corpus, res in results.items():
        ratio = res[BASE][0] / res[pipe][0]
        rows.append(
            [
                f"`cuelex.load()` nlp.pipe ≥ negspacy ({corpus})",
                f"{ratio:.2f}× negspacy",
                "yes" if ratio >= 1 else "no",
            ]
        )
    if "IU chest X-ray reports" in results:
        dps = 1 / results["IU chest X-ray reports"]["cuelex `cuelex.extract`"][0]
        met = "yes" if dps >= 10_000 else "no"
        rows.append(["`cuelex.extract` ≥ 10,000 reports/s", f"{dps:,.0f} reports/s", met])
    worst = max(link.values())
    met = "yes" if worst <= 2 else "no"
    rows.append(["link cost ≤ 2× extraction", f"{worst:.2f}× (worst corpus)", met])
    ratios = [float(str(r[3]).strip("*×")) for r in long_rows if r[2] != "not run"]
    not_run = any(r[2] == "not run" for r in long_rows)
    rows.append(
        [
            "long inputs within 2× the per-char time of normal notes",
            f"worst {max(ratios):.2f}×" + ("; largest sizes not run" if not_run else ""),
            "yes" if max(ratios) <= 2 and not not_run else "no",
        ]
    )
    imp = imports["`import cuelex`"]
    rows.append(["`import cuelex` < 0.3 s", f"{imp:.3f} s", "yes" if imp < 0.3 else "no"])
    return rows


# ------------------------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="timed runs per system (best is kept)")
    ap.add_argument(
        "--min-run",
        type=float,
        default=1.0,
        help="seconds a timed run should last at least (fast systems make several passes)",
    )
    ap.add_argument(
        "--medspacy-docs",
        type=int,
        default=100,
        help="medSpaCy (tens of docs/s) is timed once, on this many first documents per corpus",
    )
    ap.add_argument("--no-write", action="store_true", help="print only; leave docs/speed.md alone")
    args = ap.parse_args(argv)
    if args.repeats < 1:
        raise SystemExit("--repeats must be at least 1")
    t_start = time.perf_counter()
    ec.silence_logging()

    print("import times (fresh interpreters):", flush=True)
    imports = import_times()

    corpora, notes = load_corpora()
    for note in notes:
        print(note, flush=True)
    systems = build_systems(read_findings())

    rows = []
    results = {}
    for corpus, texts in corpora.items():
        res = time_systems(
            systems, texts, args.repeats, args.min_run, slow={SLOW: args.medspacy_docs}
        )
        results[corpus] = res
        base = 1 / res[BASE][0]
        for name, (sec, out, passes, n_docs) in res.items():
            dps = 1 / sec
            chars = sum(len(t) for t in texts[:n_docs])
            print(
                f"{corpus:24s} {name:55s} {dps:9.1f} docs/s {chars / n_docs * dps:12,.0f} chars/s "
                f"({out} outputs over {n_docs} docs, {passes} pass(es)/run)",
                flush=True,
            )
            rows.append(
                [
                    corpus,
                    f"{n_docs:,} ({chars / n_docs:,.0f} chars avg)",
                    name,
                    f"{dps:,.0f}",
                    f"{chars / n_docs * dps:,.0f}",
                    f"**{dps / base:.2f}×**",
                    out,
                ]
            )
    table = ec.md_table(
        ["corpus", "docs timed", "system", "docs/s", "chars/s", "vs negspacy", "outputs"], rows
    )

    print("link cost:", flush=True)
    link_rows = []
    link_rows_raw: dict[str, float] = {}
    for corpus, texts in corpora.items():
        plain, linked = link_cost(texts, args.repeats)
        link_rows_raw[corpus] = linked / plain
        link_rows.append(
            [corpus, f"{len(texts) / plain:,.0f}", f"{len(texts) / linked:,.0f}", f"**{linked / plain:.2f}×**"]
        )
        print(f"  {corpus}: link/extract {linked / plain:.2f}x", flush=True)
    link_table = ec.md_table(
        ["corpus", "extract docs/s", "extract(link=True) docs/s", "link cost (time ratio)"],
        link_rows,
    )

    print("long inputs:", flush=True)
    long_rows = long_inputs(corpora["ACI-BENCH demo notes"])
    long_table = ec.md_table(
        ["input", "chars", "extract seconds", "per-char time vs demo notes", "output"], long_rows
    )

    print("scoring:", flush=True)
    score_sec, n_pairs = scoring_time()
    print(f"  {n_pairs} pairs scored in {score_sec:.2f}s", flush=True)

    total = time.perf_counter() - t_start
    targets = target_rows(results, link_rows_raw, long_rows, imports)
    import_table = ec.md_table(
        ["measure", "best wall time (s)"], [[k, f"{v:.3f}"] for k, v in imports.items()]
    )
    target_table = ec.md_table(["target (issue 14)", "measured in this run", "met"], targets)
    print()
    print(table)
    print()
    print(target_table)
    print()
    print(link_table)
    print()
    print(long_table)
    print()
    print(import_table)
    print(f"\nscoring {n_pairs} pairs: {score_sec:.2f}s; total benchmark time {total:.0f}s")
    if args.no_write:
        return 0

    mi = ec.machine_info()
    try:
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except (AttributeError, OSError):  # pragma: no cover - not on Unix
        load = "n/a"
    vers = ec.versions(["cuelex", "spacy", "medspacy", "negspacy", "PyRuSH", "regex", "pydantic"])
    skipped = "".join(f"\n\n*{n}.*" for n in notes)
    text = f"""\
# Speed

How fast cuelex runs beside negspacy and medSpaCy on the same texts, everything measured in **one
run of one process** (so the ratios compare systems under the same machine load).
Reproduce from the repository root (offline, a few minutes):

```bash
.venv/bin/python benchmark/speed.py            # --repeats N (default 3), --no-write to print only
```

## Targets

{target_table}

## Pipelines through `nlp.pipe`

{table}{skipped}

"vs negspacy" is the docs/s ratio to negspacy's pipeline on the same corpus; "outputs" counts what
each system produced in one pass (negated entities for negspacy, negated or uncertain entities for
medSpaCy, cue–target pairs for cuelex, tokens for the bare tokenizers) and is a sanity check only.
The bare spaCy tokenizer is the floor for anything that runs through `nlp.pipe` with spaCy's
tokenizer as it is; `cuelex.load()`'s tokenizer gives the same Docs faster (tenth round, [development history](history/speed.md)).

**Where the time goes** (cProfile and per-function timers, 2026-11-23). cuelex's `nlp.pipe` is
spaCy's tokenizer (the floor row) + `extract` + a little more (the target spans in `doc.spans`,
reading `Doc._.cue_pairs` back; seventh round in the [development history](history/speed.md)): the pipeline overtakes
negspacy's only when extraction does, and on the ACI notes the tokenizer alone takes over half
of negspacy's time per note. Within `extract` (memo off, CPU time per document): an IU report
(about 400 µs) spends about 50 µs in the sentence splitter, 60 µs in the cue scan, 170 µs in
the scope and target analysis (run only for sentences where a cue or alternative marker starts)
and 50 µs deciding levels and building the pair records; an ACI note (about 2.1 ms) about 0.4 ms
splitting, 0.75 ms scanning (0.3 ms of it the prefilter that finds where some cue can begin)
and 0.6 ms in the analysis. A new process's first pass also compiles the scanner's pattern
groups as it meets them (about 1 s over the ACI notes), which the timed passes here exclude.

Each round of speed work since the fourth (A/B measurements in one process against the code
before it, what was kept and what was not, and the page's earlier runs) is in
[Development history: speed](history/speed.md).

**Memo.** cuelex memoises its work per sentence (the pairs of a sentence with the same text,
scan matches and the few characters before it that the context rules can see) and per text
(the same report again): exact, bounded, and emptied before every timed pass, so each pass is a
cold pass over the corpus in which only repetition *inside* the corpus helps, as it helps a user
(templated radiology reports repeat sentences and whole normal reports). The `memo=False` row
is the engine without it, for comparison.

## Linking

{link_table}

QuickUMLS's string look-ups of a window's n-grams near the targets are the part of linking that
cannot be made cheaper in Python (15–25% of its time on the IU reports, sixth round).
A pair's link depends only on its best-scoring candidate, so before an n-gram is looked up
cuelex bounds the score any candidate on that span could reach for each pair of the window
(similarity 1, no generic-head penalty) and skips it when the bound is below the best score
already found for every pair, looking up the n-grams that overlap targets most first: the same
pairs (`tests/test_speed_equivalence.py` compares them with QuickUMLS's full path) from about
half the look-ups on the IU reports.

## Long inputs

Per-character time of extraction on long inputs, relative to its per-character time on the
demo notes timed right before each input (best of two passes; 1.0× = linear cost). Both with the
memo off (`Engine(memo=False)`): the joined note repeats the demo notes, and the memo would hide
the cost this measures.

{long_table}

## Import and start-up

{import_table}

## Scoring

`cuelex.score_frame` on {n_pairs:,} realistic source/output pairs (benchmark/score_speed.py's pairs:
demo-note and radiology-report chunks, five rewrites; default tiers, 1,000 bootstrap resamples):
**{score_sec:.1f} s** ({n_pairs / score_sec:,.0f} pairs/s).

## Method

- **Corpora.** *IU chest X-ray reports*: every report of the shared IU development set with a
  findings or impression section, as `FINDINGS: …\\nIMPRESSION: …` (the text is read from
  `../shared` at run time and never stored in this repository). *ACI-BENCH demo notes*: the
  embedded `cuelex/data/aci_bench_notes.jsonl` (CC BY 4.0).
- **Systems.** The bare tokenizer is `spacy.blank("en")`. negspacy: blank English + `sentencizer`
  + `entity_ruler` (the {len(read_findings())} finding phrases of `benchmark/data/cxr_findings.txt`,
  lower-case match) + `negex` (default `en_clinical` termset). medSpaCy: `medspacy.load()`
  (PyRuSH, TargetMatcher with the same finding phrases, ConText), PyRuSH's loguru output
  switched off. cuelex: `cuelex.load()` (blank English + the `cuelex` component, its clinical
  sentence splitter, five levels and targets found by its own rules) and `cuelex.extract(text)`
  per document (no spaCy).
- **Timing.** Each system is warmed up on the first {WARMUP_DOCS} documents; a timed run is whole
  passes over the corpus (as many as make it last about {args.min_run:g} s) after `gc.collect()`;
  the systems take turns for {args.repeats} rounds and the best run is kept (medSpaCy, tens of
  documents a second, is timed once, on the first {args.medspacy_docs} documents of each corpus).
  cuelex's memos (extraction and linking) are emptied at the start of every pass. Linking:
  `cuelex.extract(text, link=True)` against plain extract,
  taking turns, best of {args.repeats}. Long inputs: the demo notes joined to 1,000,000 characters;
  and the demo notes with newlines and `.!?;:` removed, joined into one line of growing size (a
  size that takes over {LONG_BUDGET:g} s stops the series). Import: a fresh interpreter per
  measurement, best of several.

Measured {dt.date.today().isoformat()} (total benchmark time {total:.0f} s).

| | |
| --- | --- |
| CPU | {mi["cpu"]} |
| CPU count | {mi["cpu_count"]} (usable by this process: {mi["usable_cpus"]}) |
| Load average (1, 5, 15 min) at the end of the run | {load} |
| Python | {mi["python"]} |
| Platform | {mi["platform"]} |
| Packages | {", ".join(f"{k} {v}" for k, v in vers.items())} |
"""
    out = ec.DOCS / "speed.md"
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out.relative_to(ec.ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
