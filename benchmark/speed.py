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
tokenizer as it is; `cuelex.load()`'s tokenizer gives the same Docs faster (tenth round, below).

**Where the time goes** (cProfile and per-function timers, 2026-11-23). cuelex's `nlp.pipe` is
spaCy's tokenizer (the floor row) + `extract` + a little more (the target spans in `doc.spans`,
reading `Doc._.cue_pairs` back; seventh round below): the pipeline overtakes
negspacy's only when extraction does, and on the ACI notes the tokenizer alone takes over half
of negspacy's time per note. Within `extract` (memo off, CPU time per document): an IU report
(about 400 µs) spends about 50 µs in the sentence splitter, 60 µs in the cue scan, 170 µs in
the scope and target analysis (run only for sentences where a cue or alternative marker starts)
and 50 µs deciding levels and building the pair records; an ACI note (about 2.1 ms) about 0.4 ms
splitting, 0.75 ms scanning (0.3 ms of it the prefilter that finds where some cue can begin)
and 0.6 ms in the analysis. A new process's first pass also compiles the scanner's pattern
groups as it meets them (about 1 s over the ACI notes), which the timed passes here exclude.

**Fourth round (2026-11-23), A/B in one process against the session-start code, outputs
identical** (every field of 20,873 pairs over 4,393 texts, memo on and off; linked pairs of all IU
reports and ACI notes; benchmark build output): scanner patterns whose word runs precede a
required space made possessive and every bucket closed by a never-matching alternative (the
`regex` module otherwise searched the rest of a long note for a required literal before each
failed match): cue scan 1,051 → 795 µs per ACI note; target analysis on plain-ASCII sentences
from one `findall` and fewer objects per token: 190 → 150 µs per IU report, 671 → 524 per ACI
note; extract as a whole 1.05–1.2× faster. Linking: whole link outcomes memoised per window
text and pair offsets, QuickUMLS matches per n-gram string, a per-pair branch and bound over
the n-grams near its target, no spaCy tagging pass: 531 → 396 µs per IU report (1.34×), 2,682 →
2,210 per ACI note (1.21×).

**Fifth round (2026-11-23), A/B in one process (old and new code alternating per document, CPU
time, 4 passes), outputs identical** (every field of every pair of 1,987 IU reports and 207 ACI
notes, memo off; the equivalence tests). Engine: the splitter tries its list marker only at the
ASCII characters the marker can start with (read from its parse tree; it falls back to trying
everywhere when that is not certain); the sentence memo stores pairs as built and relocates them on
a hit instead of copying them at every store; one span call per scan match. Old/new, best /
median: split 1.04 / 1.06 (IU), 1.06 / 1.08 (ACI); scan and target analysis unchanged; extract
as a whole 1.03 / 1.05 (IU) and 1.02 / 1.03 (ACI) with the memo, 1.0 without. A profile of an IU
report now: splitter about 20%, cue scan about 28%, target analysis about 50% (ACI: 20 / 44 / 31).
The fourth round's garbage-collection estimate (15%) does not hold: on Python 3.11 the per-token
and per-match objects die inside their sentence and trigger no collections (one collection, 0 ms,
in a memo-off pass over the IU reports); the collections come from what the memo keeps (4.4% of
an IU pass with `cuelex.load()` loaded, 1.5% of ACI). Tokenising is 28 of the 220 µs of analysis
per IU report, so parallel token arrays would save about 3% of extract: reaching 10,000 reports/s
(about 3× from here) needs the analysis compiled (mypyc or Cython) or an exact memo above the
split and scan, not Python-level changes to the rules. Component (`nlp.pipe`): the component
takes up to 256 Docs from the tokenizer before scanning them (interleaving tokenizer and scan
per Doc cost 6–17%), reading `Doc._.cue_pairs` on a Doc it just made copies the stored pairs
instead of parsing their JSON (~45 → ~10 µs per Doc; identical pairs, field types included, over
all 9,476 pairs of the IU and ACI texts; a Doc read back from bytes, pickle or another process is
parsed as before), and span labels are stored as precomputed hashes; it follows spaCy's
error-handler protocol (a failing Doc goes to the handler and is skipped). Old/new component,
`nlp.pipe` plus reading the pairs, per-chunk alternation: 1.23× on IU reports, 1.10× on ACI notes.

**Sixth round (2026-11-23), linking and the benchmark build, A/B in one process (old and new
linker alternating per document, CPU time, memos emptied per pass), outputs identical** (every
field of the linked pairs of all IU reports and ACI notes, and of 1,150 synthetic notes;
`tests/test_speed_equivalence.py` against QuickUMLS's full path; the string look-ups are the same
6,042). A profile of linking showed the look-ups at only 15–25% of its time on the IU reports (and
under 5% on synthetic notes); the rest was Python around them: the candidates of a window are now
kept as plain tuples and each pair's outcome is chosen directly (the score's span-dependent part
computed once per span and pair, one score per n-gram's matches instead of one per candidate and
again in a second scoring pass), token offsets come from one `to_array` call instead of a Token
object per token, an n-gram's text is a slice of the window when no determiner is dropped from
it, n-grams that do not overlap a pair's target skip the sort (their bound is the lowest, all
tied), and a token's abbreviation matches are memoised per token string. Old/new linking, best /
median of 3 passes: IU 1.24 / 1.20, ACI 1.15 / 1.12, synthetic discharge 1.28 / 1.25, synthetic
radiology 1.19 / 1.21 (load average about 3); a later run of 6 passes under load average 5–6:
IU 1.03 / 1.10, ACI 1.08 / 1.09. Link cost estimated from the same passes (old → new): 1.93× →
1.75× and 1.99× → 1.95× (IU), 1.95× → 1.83× and 1.83× → 1.77× (ACI); `speed.py --no-write` in
that loaded hour gave 2.31× / 2.16× (its wall-clock turns are not reliable at that load). Benchmark build: on a synthetic corpus that repeats its sentences as real notes do (see
[benchmark.md](benchmark.md)) a profile of a one-process build of 10,000 notes before these
changes: extraction 52%, linking 37%, sections 5%, deduplication, screening, records and chunk
files 6% of the per-chunk work; reading the CSV and pickling the chunks for the workers costs the
main process about 45 µs per note (1–2% of a worker's time per note): the build is bound by
extraction and linking per note.

**Memo.** cuelex memoises its work per sentence (the pairs of a sentence with the same text,
scan matches and the few characters before it that the context rules can see) and per text
(the same report again): exact, bounded, and emptied before every timed pass, so each pass is a
cold pass over the corpus in which only repetition *inside* the corpus helps, as it helps a user
(templated radiology reports repeat sentences and whole normal reports). The `memo=False` row
is the engine without it, for comparison.

**Sixth round (2026-11-23): the memo, measured; a memo above the scan, built and not kept.**
A/B in one process (engines alternating per document, CPU time, 4–5 cold passes), outputs
identical. *Memo on against off*: 1.51× (IU) and 1.03× (ACI), best pass; never slower. A memo
whose look-ups always miss (everything stored, nothing found) against no memo: 0.97× / 0.95×
(IU, best / median), 1.00× (ACI): building a sentence's key and looking it up costs 4.6 µs on IU
sentences and 1.9 µs on ACI ones (3.5 ms of a ~430 ms ACI pass), so a miss is already nearly free.
The memo helps ACI notes little because little repeats there (16% of the 1,840 analysed sentences
of a pass, no whole note; IU: 64% of 5,081 sentences and 343 of 1,987 reports). A table of one run
in which `cuelex.extract` looks slower than the `memo=False` row is noise: the rows are timed at
different moments (±0.1× between runs on this shared machine) and through different entry points
(`cuelex.extract` also checks the text for lone surrogates, 1.9 ms a pass over the ACI notes).
*A memo above the scan*: the text cut into units after each sentence that ends with "." before a
space (where the splitter has ended a sentence), each unit's pairs memoised under its text and
sentence spans, the units that miss scanned together. It is exact because a reader of the
patterns' parse trees shows that 355 of the 359 scan patterns never read across a "." that a
space follows, and the four that can (`neg. for`, `E.R.`, `Dr.`, a parenthesis with "vs" / "or")
get no cut where they could match (the text before the ".", or within their reach of a "(" or
")"); the context rules see one character before a sentence. Memo on equalled memo off on every
field of 18,978 pairs (IU and ACI, cold and warm passes) and on texts built to straddle the cuts.
Units repeat: 48% of the IU units (39% of their characters) in the reports not repeated whole,
9–11% on ACI (report-split documents excluded: 48.3% / 9.2%). But it did not pay: old/new
1.00–1.01× best, 0.95–1.00× median on IU, 0.90× on ACI. The scan is about a third of an IU
report's time, so skipping 40% of it saves at most ~12%, and the units' own cost (finding the
cuts, the keys, more and shorter scans) takes that back; the splitter still runs over every
text, and it is not local at such cuts (a header colon at a unit's start, and the header test
of the line a unit starts in, read across them). Not merged. Reaching 10,000 reports/s still
needs the split, the scan and the analysis of a missed sentence each made several times
cheaper (compiled), not another memo.

**Seventh round (2026-11-23): the component path beside the tokenizer and `extract`**
(`benchmark/component_ab.py`: CPU time, one process, measures taking turns; each step timed on a
copy of the component's `__call__` that the script first checks against the component, Doc by
Doc). Beside `extract`, an IU report cost in the component: the Doc's pairs as JSON text in
`doc.user_data` about 45–60 µs (pydantic's serialiser, ~4.6 µs a pair: it cannot be made
cheaper), the target spans (`char_span` + `Span` + the span group) 25–45 µs, reading
`Doc._.cue_pairs` back (fresh copies of the records) 27–43 µs, the sentence and entity checks
(`has_annotation`) 15–25 µs; together 16–29% of `extract`'s own time (ACI notes: 6–10%). The
JSON text is now written only when the Doc leaves the process: the component stores a
`PairsJSON` (equal to the text, `str()` gives it), which msgpack (`to_bytes`, `DocBin`,
`nlp.pipe(n_process=2)`) and pickle write as the text itself, so a Doc read back holds the plain
string as before (tests: pickling, bytes, `DocBin` round trip, copies, worker processes, and the
equivalence test of the text against `model_dump`). A/B alternating per 25 documents (`nlp.pipe`
+ read, the text written for every Doc as before against only when needed): IU 1.07× and 1.09×
(two runs), ACI 1.01× and 0.95× (noise: the text is about 2% of an ACI note's pipeline).
What is left is tokenizer + `extract`: the spans and the record copies are the
component's output, and the `has_annotation` checks are cheaper than any other way to read the
annotation from Python (`Doc.to_array` costs more). spaCy's tokenizer is 16–30% of the pipeline
on IU reports; the pipeline reaches negspacy only when `extract` is about 1.5× faster.

**End of the seventh session (2026-11-23): two runs before this page's run** (two minutes apart,
the same command), after the session's new rules and readings (issues 11 and 12)
and the lazy JSON: `nlp.pipe` 0.63× / 0.57× and 0.68× / 0.46× negspacy (IU / ACI), `extract`
1.05× / 0.91× and 0.99× / 0.96×, link cost 2.03× / 2.08× and 2.10× / 1.95× — the link-cost bar
(≤ 2×) now sits inside the run-to-run noise (1.99× / 1.82× in the fifth round's run): met in
some runs, missed in others, so it is not counted as met.

**Eighth round (2026-11-23): the scan's prefilter and the splitter, A/B in one process**
(`benchmark/extract_ab.py`: the engine and splitter modules of a git revision imported beside
the current ones; every field of every pair checked equal first, memo on and off; then cold
passes, the engines taking turns every 20 texts, CPU time). A profile of `extract` (memo on)
over the IU reports: splitter ~23%, cue scan ~22%, scope and target analysis of the sentences
the memo misses ~33%, records, memo keys and level decisions the rest; the scan's prefilter
alone (the one stdlib pattern that finds where some cue prefix begins) cost 39 µs of an IU
report's ~90 µs scan and ~370 µs of an ACI note's ~1.3 ms, because it was tried at every
character. It is now three patterns that find the same positions (a hypothesis test compares
them) and start with one consumed character, so the stdlib engine skips the others in C: a
word-first prefix that needs a word boundary is looked for only after a non-word character,
every other prefix from its own first character: 39 → 26 µs (IU), ~370 → ~240 µs (ACI). A text
in which the scan finds no cue is no longer split (3% of the IU reports). In the splitter, the
list-marker places after each context are found by one stdlib scan on ASCII text (when no space
can start a marker) and the abbreviation test before a "." searches a bounded run instead of
walking back one character at a time: splitter old/new 1.09 (IU), 1.01 (ACI). Old/new `extract`
against the session start (e595cd9), 7 rounds under load average ~6: IU 1.09 median / 1.13 best,
ACI 1.11 / 1.27. Tried and not kept (no gain measured): each scan bucket's patterns matched one
by one instead of as one POSIX alternation (the "if ..." contingency buckets cost as much either
way), the first-character form of the prefilter without the word-boundary split, tokens as named
tuples, `__slots__` on the per-sentence records. What is left is Python per sentence and per
scan stop; 10,000 reports/s still needs the analysis compiled.

Linking, the same session (`benchmark/link_ab.py`: `linking.py` of a git revision beside the
current one, links checked identical first, then the linkers taking turns every 20 texts on cold
passes): a cold linked pass spends 35–40% in QuickUMLS's simstring look-ups (2,904 distinct
n-grams over the IU reports, 92% of them returning nothing), ~30% in the scoring loops, ~14% in
tokens, n-grams and abbreviations and ~12% per pair outside the windows. A pair's n-gram loop now
stops at its reach (bisection: n-gram starts never decrease) and the span part of the score is
inlined with the same additions in the same order (same floats): linking old/new 1.035 (IU), 1.032
(ACI), medians of 5 rounds. Because `extract` got faster in the same session, the link-cost ratio
did not fall: 2.08–2.34× (IU) and ~1.98× (ACI) across this session's runs, the bar not met. What is
left: an exact memo of a pair's outcome keyed on the text its n-grams reach, a prefilter before
simstring, or compiled scoring loops.

**Ninth round (2026-11-23): the ideas left by the linking round, measured; none kept, linking
unchanged.** Timers around each phase of a cold linked pass (memos emptied): on the IU reports
simstring's look-ups take 17–21% (2,870 distinct strings, about 90 µs each under load, 40 µs
quiet), the rest of the n-gram look-ups 5%, making the n-grams 12%, spaCy's `make_doc` of the
window 9%, the scoring loops of the windows about 26%, and each pair outside its window 13% (a
pass in which every window outcome is memoised costs 0.13 s of a cold pass's 1.0 s); on the ACI
notes 24–26 / 8 / 16 / 10 / 26%, per pair 4%. *A negative test before simstring* (exact against
pysimstring on all 5,885 strings the two corpora look up, 5,385 of which return nothing; note
that pysimstring counts a repeated trigram of the query once per occurrence, not as simstring's
numbered features: one look-up returned a string at multiset Jaccard 26/33 < 0.8, so a test must
count occurrences): per-size counts of the query's trigrams found in the database's strings of
that size (one sum of packed integers per query, all sizes compared with one addition and a
mask) skip 28% of the IU look-ups and 43% of the ACI ones, but cost 15–28 µs each while the ones
they skip are the short strings that simstring answers in 26–44 µs: linking old/new 0.935 (IU)
and 0.937 (ACI), medians of 4 rounds of `link_ab.py` (slower). A complete filter (the rarest
trigrams' string lists, candidates verified) skips every empty look-up but costs 300–430 µs per
string, one that intersects groups of postings 180 µs: simstring's C search is cheaper than any
exact test written in Python. *Ordering a pair's n-grams by their exact bound* (the span part of
the score, similarity 1) instead of the overlap-only bound: 6,743 → 6,649 n-gram look-ups (IU),
5,094 → 5,075 (ACI), −1%. *A memo of each pair's outcome keyed on the text its n-grams can reach*
(four whitespace-separated chunks either side of target ± 20 characters, offsets relative to
it): of the pairs in windows that miss the window memo, 22 of 2,551 (IU) and 5 of 1,807 (ACI)
would hit: not built. *Tokenising only the part of a window the n-grams reach*: windows average 63
characters, `make_doc` over a pass costs 0.09 s and the cut pieces cost more (0.14 s, IU); and
spaCy's special-case matcher can match across whitespace, so a cut is not exact by construction.
What is left is the same as before: compiled scoring loops and n-gram making, or fewer pairs
(each pair's record copy and window bookkeeping is a tenth of an IU pass). Link cost in the same
hour, code unchanged: 1.84× (IU) and 1.79× (ACI), medians of 4 `link_ab.py` rounds (CPU time,
one process); 1.97× / 1.91× from `speed.link_cost` alone (wall clock, best of 3); 2.62× / 2.22×
in the `speed.py` run of 2026-11-23 23:40 UTC, taken at load average 4.3–4.7 on the 2 cores
(`extract` 1,423 IU reports/s in that run against 3,679 in the eighth session's): the bar is
met or missed by the machine's load, not by a change of code.

**Tenth round (2026-11-24): `cuelex.load()`'s tokenizer caches every chunk**
(`benchmark/tokenizer_ab.py`: CPU time, one process, the measures taking turns every 25
documents, memos emptied at each round's start; the script first checks the Docs byte-identical
and the pairs identical on every text). A profile of `nlp.pipe` over the ACI notes: spaCy's
tokenizer 2.4 ms of a 6.5 ms note, two thirds of it splitting affixes of chunks it had already
tokenised in earlier notes. spaCy caches a whitespace-separated chunk's tokens only while no
special case has been met earlier in the same text ("See #1250" in its source), and a newline
is a special case: after a note's first line nothing was cached, so every later word with
punctuation went through the affix rules again in every note (ACI notes) or every report (IU
reports have a newline before the impression). The tokenizer of `cuelex.load()` now tokenises each chunk it
has not seen before on its own, first, which caches it as spaCy would at a text's start (a chunk
with a special case inside stays uncached, spaCy's rule); a set of at most 131,072 chunks
remembers which, emptied when spaCy empties its cache (new special cases, new affix rules).
Equivalence: byte-identical Docs (`Doc.to_bytes`) on every text of both corpora and in a
property test over contractions, abbreviations, emoticons and whitespace special cases. Old/new,
medians of 3 rounds taken at load average 5–6 (another three helpers on the 2 cores): tokenizer
2.38× (ACI) and 1.46× (IU); the first pass of a fresh tokenizer 1.11× on both (a pass repeats
words; a new chunk costs one extra small Doc); `nlp.pipe` + reading the pairs 1.28× (ACI) and
1.09× (IU); `nlp.pipe` against negspacy in the same rounds 0.64× → 0.82× (ACI) and 0.80× → 0.87×
(IU). The spaCy tokenizer of the floor row and of negspacy's pipeline is unchanged: both still
split every chunk after a newline again. What is left on the ACI notes is `extract` (about
70% of `nlp.pipe`); on the IU reports the tokenizer is now about a sixth of it.
The benchmark build does not go through this tokenizer: a profile of a one-process build
(`cuelex.bench.build`, the work of one worker: 1,500 synthetic notes of
`benchmark/make_synthetic_corpus.py`, 12.5% discharge summaries, cProfile at load average 6)
gives extraction 52% of the chunk work, linking 26%, the screening units 9%, sections 8% and
deduplication 5%, the same shape as the sixth round's; the linker's windows hold no newline
(0 of 1,701 on the IU reports, 0 of 1,191 on the ACI notes), so spaCy already caches their
chunks, and tokenising them through the caching tokenizer was slower (27 → 36 µs a window, IU):
not applied there. Build throughput was not measured again in this round (`bench_scale.py`
runs for many minutes on both cores).
The `speed.py` run on this page was taken at the end of the eleventh session on a quiet machine
(load average 0.2 when it started, after the session's merges: the scan dispatch above and the
session's new extractor rules): `nlp.pipe` 0.85× negspacy on the IU reports and 0.72× on the ACI
notes, `extract` 1,672 IU reports/s, link cost 1.96× on the worst corpus, long inputs 0.96×,
`import cuelex` 0.022 s, 1,000 pairs scored in 7.6 s. **Every system ran slower than in the tenth
session's quiet run on the same machine** — spaCy's blank tokenizer 6,200 → 4,655 IU reports/s,
negspacy 1,739 → 1,272, `extract` 2,241 → 1,672 — so the absolute rates moved with the machine,
not the code; the ratios moved too (nlp.pipe against negspacy 0.90× → 0.85× IU, 0.80× → 0.72×
ACI; `extract` against negspacy 1.29× → 1.31× IU, 1.06× → 1.21× ACI), and the one-process A/B
above (old and new engine in the same turns) is the evidence for the dispatch change. The session's
new extractor rules (issue 12: hedge labels, course words, contingencies) change outputs, so no
A/B against the session start isolates their cost (`extract_ab.py` stops at the first differing
pair by design).

**Eleventh round (2026-11-24): fewer regex calls in the cue scan** (`benchmark/extract_ab.py
--rev f2a3d60 [--pipe]`: the engine of the session start beside the new one in one process,
every field of every pair checked equal first, memo on and off; then cold passes taking turns
every 20 texts, CPU time, medians of 5 rounds; `--pipe`, new, also times `nlp.pipe` with each
engine in the component and negspacy's pipeline in the same turns). A profile of `extract` over
the IU reports: the `regex` module's `match` at the scan's stops cost 3–12 µs a call (most of it
the module's fixed cost per call, even for a one-word pattern), 19,518 calls a pass, 43% of them
failing: about a fifth of the pass. Most failures came from prefixes read too short for
dispatch: "no" of "normal" and "nodule" tried the word-bounded "no" pattern, and every "the " tried
a cue whose optional openers repeat ("(my|the|main|…) concern is for"). Dispatch now reads a
pattern's prefixes with its word boundaries (a prefix that a non-word character must follow is
not tried where a word character follows) and through repeated groups up to its 12 characters
(the prefilter keeps the shorter prefixes: with the longer ones its pattern took seconds to
compile): 19,518 → 12,128 match calls a pass over the IU reports and 17,626 → 11,123 over the
ACI notes, the same 11,092 and 6,738 matches. A bucket of one word-bounded ASCII word ("no",
"or": 5,332 of the remaining IU calls) is matched by comparing the lower-cased slice and testing
the two neighbours, when the text around it is ASCII (where case folds one character to one).
Property tests compare the scanner with the one POSIX alternation of every pattern on texts of
boundary and repeat words ("normal", "no_", "the my concern", KELVIN SIGN), and the word buckets
with their compiled patterns. Old/new `extract`: IU 1.05 and ACI 1.07 for the dispatch
(load average about 4), then 1.03 / 1.02 for the word buckets (`--rev 97ba696`). With `--pipe`
against the session start, after the dispatch change alone (5 rounds, load average 4–6, tests
running beside): `extract` 1.09 (IU) and 1.03 (ACI), `nlp.pipe` + reading the pairs 1.055 and
1.041, and against negspacy in the same turns 0.86× → 0.90× (IU) and 0.79× → 0.82× (ACI); one
round with both changes (the rest stopped to leave the cores to the test suite, load average
9): `extract` 1.05, `nlp.pipe` 1.03, 0.86× → 0.89× negspacy (IU). The bar (≥ 1×) is not met
in these loaded rounds; the lead's quiet `speed.py` run gives the page's table. What is left in
the scan is the hits themselves (a third of the IU calls are the header colon's terminator, whose look-behind needs the regex engine) and the prefilter's
stdlib search (about 6% of `extract`); in `extract` as a whole the splitter (about 20%) and the
analysis of missed sentences (about 35%) are Python per token and per rule: 10,000 reports/s
(4× from here) still needs them compiled, not another dispatch change.

**Twelfth round (2026-11-24): where a build worker's time goes; start-up and sectioning.**
Timers around each step of the build's per-note work (`_process`: sections, `extract`, linking,
deduplication, word count; CPU time, one process, memos warm from the start of the pass as in a
worker) on 1,500 synthetic radiology reports and 300 discharge summaries with the Pitman–Yor
repetition of `bench_scale.py`: radiology 0.33 ms a note sectioning (10%), 1.93 ms extraction
(55%), 1.13 ms linking (32%), 0.10 ms deduplication (3%); discharge 1.37 ms (7%), 10.14 ms (55%),
6.44 ms (35%), 0.27 ms (1%). Screening, record construction and serialisation take about 4% of a profiled radiology chunk,
writing the chunk file (with its fsync) about 2% (records are made only for documents that can
still enter the sample).
So nine tenths of a note is extraction and linking, and the build's rate follows them: with the
repetition fitted to real notes (sixth round) a note costs 3.5 (radiology) and 16.4 (discharge)
CPU ms on two workers in this session's first run (load average about 5), not the 1.9 and 6.0 of
the template-only corpus. Changed, outputs byte-identical (the benchmark files of both corpora
compared with `cmp`; the equivalence tests): the resource YAML is read with libyaml's safe loader
when PyYAML has it (same constructor and resolver, the same data for every shipped file; resource
loading 3.56 → 2.42 s CPU in a fresh process, load average 9.6), the sectionizer finds a
header's rule by group number instead of a look-up by name per rule and match (`headers` old/new
1.51 radiology, 1.32 discharge; the build's sectioning step 1.51 and 1.38, medians of 5
interleaved rounds at load average 7–8), and `SectionInfo` is made only for the documents that
become records. Extraction was not changed in this round (the header colon's look-behind, the
splitter and the missed-sentence analysis were not attempted): the bar (1,000 notes/s on two
workers) needs extraction and linking several times cheaper, not the steps around them.

End of the twelfth session, `benchmark/speed.py` on a quiet machine (load average below 1; the
tables on this page): `nlp.pipe` 0.87× negspacy on the IU reports, 0.77× on the ACI notes; `extract`
2,118 IU reports/s; link cost 1.99× (worst corpus); long inputs 0.99×; import 0.021 s; 1,000 pairs
scored in 6.4 s. Every system ran faster than in the eleventh session's run (spaCy's tokenizer
4,655 → 6,079 IU reports/s, negspacy 1,272 → 1,707), so the ratios, not the rates, are the
comparison. The benchmark build (`bench_scale.py`, docs/benchmark.md) on the 100,000-note corpus
with the fitted repetition: 493 notes/s on two workers (bar 1,000), main-process peak memory 992 MiB
(the last block before, on the template-only corpus, read 745 notes/s and 190 MiB; not profiled).

**Thirteenth round (2026-11-24): the splitter's repeated tests, memoised; `cuelex.load()` A/B**
(`benchmark/pipe_ab.py`, new: the tokenizer, component, engine and splitter of a git revision
beside the current ones in one process, byte-identical Docs, pairs and pairs JSON checked on
every text first; then cold passes, the two pipelines and negspacy's taking turns every 20
texts, CPU time). Where an IU report's `nlp.pipe` goes (`component_ab.py`, CPU µs, load
average 1–2): tokenizer 112, `extract` 409, the component's own steps 81 (target spans 29,
reading `Doc._.cue_pairs` 30, the annotation checks 16, storing 5); negspacy's whole pipeline
costs about 590. Within `extract` the splitter took 97 µs of an IU report (punctuation cuts 32,
of which the abbreviation test before each "." was most, header cuts 29, list cuts 12, building
the spans 20) and about a fifth of an ACI note. Changed, outputs identical: the abbreviation test
depends only on the eight characters before a dot and the header test only on the text before a
line's colon, so both answers are memoised under those texts (bounded; clinical notes end most
sentences with the same words and repeat their headers; a test compares a warm splitter with
fresh ones); the spans are built from the sorted cuts without a filtered copy; the one-scan
list-cut path (eighth round) now also serves non-ASCII texts whose spaces are all ASCII, the
marker tried at every non-ASCII character after a list context (85 of the 207 ACI notes; a
hypothesis test with bullets, quotes and KELVIN SIGN against the `regex` scan); `cuelex.load()`'s
tokenizer builds its set of new chunks only when some chunk is not yet warm (`issuperset`, 11 →
6 µs a report); a sentence-memo hit at the same offset under the same `doc_id` gives the stored
records, as the text memo already did. Splitter per IU report 97 → 66 µs. Old/new against the
session start (7b60cd9), medians (best) of rounds at load average 6–8: `extract` 1.10 (1.11) IU,
1.07 (1.08) ACI for the splitter memos (`extract_ab.py --pipe`, 3 rounds); `nlp.pipe` + reading
the pairs 1.08 (1.08) IU and 1.07 (1.08) ACI (`pipe_ab.py`, 3 rounds, load average 8–10), against negspacy in the same turns
0.89× → 0.96× (IU) and 0.77× → 0.82× (ACI). Looked at and left: `has_annotation` with the attribute's
integer id (2.4 µs either way), `char_span` (3.5 µs a span, in Cython), the per-pair copy when
the pairs are read (2.8 µs, pydantic's object layout), the scan's prefilter (its stdlib scan of
word starts costs as much as a bare scan for word starts alone: no Python-level rewrite is
cheaper) and `_make_cue`'s context rules (five). The bar (≥ 1×) is not met in these loaded
rounds; what is left is spaCy's tokenizer, the scan's regex calls and the analysis of missed
sentences (`_alternative_groups` and `_forward_targets`, Python per token), which is where a
compiled analysis would pay. The build's memory (`Selector.seen`) was not attempted.

**Thirteenth round (2026-11-24): the build path profiled.** `benchmark/build_profile.py`
profiles a worker's chunks (cProfile in CPU time, memos cold after a warm-up chunk) and samples
the main process's resident memory during a two-worker build; `benchmark/build_ab.py` builds one
synthetic corpus with a git revision and with the working tree and compares the benchmark files
byte for byte (both print load average and old/new CPU and memory ratios). A worker, on 3,000
synthetic notes with the fitted repetition (375 discharge summaries, 2,625 radiology reports,
500-note chunks): extraction 53.0% of the chunks' 47.8 CPU s (under
cProfile), linking 34.5%, sectioning 4.2%, deduplication 3.6%, everything else (screening, word
counts, records and their JSON, the chunk file and its fsync) 4.7%. The main process, 20,000 notes on two workers (load average
about 10): 9.6 CPU s against 89.4 s in the workers, of which about 7.5 s is start-up (8.0 s on
3,000 notes: imports, resources, the engine loaded once before the fork); resident memory 207 MiB
from the first chunk to the last, 224 MiB at the peak (final merge and writing). The workers send
5,177 candidates to the main process over the 41 chunks (about 435 from each of the first chunks,
8–40 once the per-type thresholds prune), so `Selector.seen` holds a few thousand ids, not every
section id, and the input is streamed (`TextLines`, at most two chunks a worker in flight).
The same two-worker build of a 100,000-note corpus with the pipeline stubbed out (no pairs:
reading, chunking, hand-over to the workers, manifest, merge and writing only) peaks at 210 MiB in
the main process, flat from the second minute on (13.6 CPU s). The memos (emptied when full) empty 7 times in 8,000 radiology reports and 16 times
in 1,142 discharge summaries in one process; a two-generation memo (the full one kept as a second
look-up, tried by patching `BoundedMemo`) gave 2.59–3.01 CPU ms a radiology report against
2.71–2.76 for the current one, the same within the noise, so it was not kept. A worker's own
start-up is small (concept index 0.09 s, QuickUMLS matcher and tokenizer 0.4 s). Nothing in the
build path was changed: with about nine tenths of a worker's CPU in extraction and linking,
removing all of the build's own work would give under a tenth. On two cores, 1,000 notes/s is
2 CPU ms a note for the MIMIC mix against about 5 now (0.875 × 3.5 + 0.125 × 16.4, twelfth
round), so extraction and linking together have to become about 2.5× cheaper; the 992 MiB
main-process peak of the last 100,000-note run is not reproduced at 20,000 notes (see above) and
needs the lead's quiet 100,000-note run with `build_profile.py --inputs` on that corpus to place.

**End of the thirteenth session (quiet machine, `benchmark/speed.py`, the table above):** `nlp.pipe`
0.94× negspacy on IU reports (0.87× a session earlier) and 0.80× on ACI-BENCH (0.77×); `extract`
2,782 reports/s (2,118); long inputs 1.04×; `import cuelex` 0.018 s; 1,000 pairs scored in 5.8 s.
Link cost is now 2.04× extraction on the worst corpus (1.99× before): extraction got cheaper and
linking did not, so the ≤ 2× bar, met last session, is missed by a hair; the linker's own time is
the next thing to cut.

**Fourteenth round (2026-11-24): the build's 993 MiB placed; the linker's per-pair path.**
*Memory.* The 993 MiB main-process peak of the 100,000-note `bench_scale.py` run was not the
build's: `bench_scale.py` read the whole corpus into lists (texts, 4.9 million sentences and the
lines) to count its repetition just before starting the build's process, and Linux carries a
process's `ru_maxrss` over `execve`, so the runner started by `subprocess` reported at least that
script's own peak (a parent holding 764 MiB: its child's `ru_maxrss` 764 MiB, the child's own
`VmHWM` 13 MiB). The runners of `bench_scale.py`, `build_ab.py` and `build_profile.py` now report
`VmHWM` of `/proc/self/status` (`build_ab.PEAK_RSS`; a test starts one beside a 300 MiB block),
and `bench_scale.py` counts the corpus's repetition note by note, keeping only the distinct
sentences and lines (same numbers; a test compares them with the lists). The build itself held
steady (`build_profile.py --inputs build/mem/cN/*.csv.gz --skip-worker`, corpora of
`make_synthetic_corpus.py` with `bench_scale.py`'s fitted repetition, 2 workers, 500-note chunks,
load average 7–11): 20,000 notes peak 229 MiB, resident 207 MiB from the second minute to the last
chunk; 50,000 notes peak 234 MiB, resident 208–212 MiB from the second minute to the last chunk (216–220 MiB while the final merge writes), 7,304 candidates held; the 100,000-note run is left to the lead's quiet machine. Nothing in `cuelex.bench` was changed for memory: the input is streamed and the
results are written as they come (thirteenth round).
*Linking.* Over the IU reports a cold linked pass is about 340 µs a report (extraction about
390): simstring's look-ups about a fifth, the window's `make_doc` and n-grams about 14% each, the
scoring loops about a quarter, the per-pair path (checks, windows, zones, the memo key, the
linked copy) the rest; 92% of the distinct n-gram strings return nothing. The ideas of the ninth
round were not tried again; a memo of each pair's outcome keyed on the text around its target
would hit 4 of the 2,595 pairs of windows that miss (IU) and 1 of 1,802 (ACI), and cutting a
window before `make_doc` would tokenise 46 of its 48 characters on average (IU): neither built.
Changed, links identical (`link_ab.py` checks every field on every text first; the equivalence
tests): the per-pair path reads each pair's fields from its `__dict__` once, with conditional
expressions for the window's `min`/`max` and no `_apply` call for a pair without candidates.
`benchmark/link_ab.py --rev 83a698a --rounds 3` (cold passes, CPU time, load average 6–8):
linking old/new 1.024 (IU) and 1.007 (ACI), medians; link cost 1.87× → 1.85× (IU), 1.70× → 1.69×
(ACI) in the same rounds. With the memos warm, as in a build worker where most sentences repeat
(the same texts linked again, turns every 20 texts, 3 rounds): 1.143 (IU), 1.183 (ACI). The build
(`benchmark/build_ab.py --rev 83a698a`, 3,000 synthetic notes, 2 workers, 250-note chunks): `bench.jsonl`, `.stats.json` and `.stats.md` byte-identical; CPU old/new 0.91 (workers) and 0.97 (main process), peak memory 1.01 / 1.00, the two builds run one after the other at load average 8–10, so the build's rate is not shown to have moved; `bench_scale.py --notes 20000 --no-write` old/new was not run (a 20,000-note build took 7 minutes at that load) and is left to the lead's quiet run. The ≤ 2× link-cost bar holds in these
one-process rounds (1.85× worst corpus) but the speed.py table's 2.04× is a quiet machine's
wall-clock run; 1,000 notes/s on two workers still needs extraction and linking together about
2.5× cheaper, which Python around simstring and spaCy's tokenizer does not give.

**Fourteenth round (2026-11-24): the scan's buckets with simple case folding** (`pipe_ab.py
--rev 83a698a`, CPU time, one process, load average 6–9). Timing every `regex` call of the scan
(the same calls, old and new pattern at each stop): on the ACI notes they cost about 1,215 µs a
note of extract's ~3.3 ms (memo off), on the IU reports 53 µs, and a few buckets took most of
it: "monitor her …" 434 µs a failing call, "for evaluation of" 158, "for further" 95, "if
there is" 300. The cause is not POSIX mode (non-POSIX calls cost the same) but VERSION1's full
case folding, on by default with IGNORECASE: a set that holds a character folding to several
("[\\w-]" holds "ß") may then take several text characters as one item ("ss"), and the engine
tries that at every such item and in every look-behind. With `(?-f)` the same calls cost 6.6,
6, 9 and 170 µs. Each bucket now has a twin compiled with simple folding, used on texts in which
every character folds to one character (all IU reports, 206 of the 207 ACI notes; a text with
"ß", "ﬁ" or "İ" keeps the full-folding bucket). The two foldings differ on such a text only where
a set holding "ß"-like characters (`\\w`, `\\S`, `\\D`) repeats a bounded number of times outside a
look-behind (each character of a multi-character fold is itself a word character, so an
unbounded run or a look-behind's yes/no cannot change); a check of each pattern's sets when the
scanner is built lets through only unbounded or look-behind uses and refuses property classes,
ranges past ASCII, escaped characters that fold to several and V1 set operations (all 409
shipped patterns pass; a test runs the check's verdicts against `regex` itself, and a property
test compares the scan with the full-folding reference on texts of "ss", "fi", "ß", "ﬁ", "İ",
KELVIN SIGN). Scan calls over the ACI notes 1,215 → 532 µs a note, IU 53 → 35; the
split prefilter's three stdlib patterns compiled with `re.ASCII` (they read folded text, which is
ASCII) 262 → 211 µs a note for the word-start pattern. Byte-identical Docs, pairs and pairs JSON
on every text of both corpora (checked by `pipe_ab.py` first); `test_speed_equivalence.py`
passes. Old/new `nlp.pipe` + reading the pairs, 3 rounds: ACI 1.059 median (1.060 best), IU
1.003 (1.009); against negspacy in the same turns 0.80× → 0.84× (ACI), 0.96× → 0.96× (IU, where
the scan's calls were a tenth of a report's time). Where the rest goes, measured in the same
hour: spaCy's `Tokenizer.__call__` on an ACI note whose chunks are all cached costs about 790
µs, about 170 of them its special-case pass (a tokenizer without special cases, same text:
620–640 µs), and `cuelex.load()`'s wrapper (split, `issuperset`, the weak text map) about 130
µs more; a Doc built from cached words (`Doc(vocab, words, spaces)`) costs 380 µs but loses the
special cases' token attributes (NORM) unless they are written back: not tried. Left: the header
colon's look-behind (5 µs a call with simple folding, 11 with full; two calls an IU report), the
12-character dispatch depth ("the patient " opens 985 failing calls a pass over the ACI notes,
about 9 µs each), the context rules' look-behinds (still full folding; their match start is
read, so the set argument above does not cover them) and the analysis of missed sentences.

**Fifteenth round (2026-11-24): `nlp.pipe` profiled beside negspacy; the engine's leftovers.**
Where an ACI note's `nlp.pipe` goes (cProfile, cold memos, load average about 7): `cuelex.load()`'s
tokenizer 17%, `extract` 78% (the cue scan 24, the splitter 15, the analysis of sentences the memo
misses 28, memo keys, level decisions and pair records about 11), the component's own steps 4%
(target spans, storing, reading the pairs). negspacy's pipeline is spaCy's tokenizer (which splits
every chunk after a newline again, tenth round) and Cython matchers, so the whole gap is `extract`:
in the A/B turns below an ACI note costs 4.87 ms through `cuelex.load()` against 4.01 ms through
negspacy, about a quarter of `extract`'s time. The scan's dispatch leaves little to cut: per ACI
note 96 prefilter stops, 30 of them with no bucket, 9 one-word buckets (no regex call), 57 regex
calls and 33 matches; per IU report 10 stops, 4 calls, 5.6 matches. The failing calls are spread
over many small buckets (the largest, "the patient ", 985 failing calls a pass at about 5 µs:
under 1% of the ACI pass), so no further dispatch change saves more than a few per cent of the
scan. Changed, outputs identical: a sentence's lead-in line (`_lead_in_line`) is found once and
handed to the memo key and to `_lead_in_negation` (it was found twice for each sentence with an
alternative marker); the watching verbs' fillers ("for any further growth") moved from a word
list in engine code to `watch_fillers` beside `watch_verbs` in `rules/targets.yaml`, and the
"in" + digit exception of `_noun_phrase` ("changes in 6 months") to `strip_leading_unless_number`
there (validated: each item must be a `strip_leading` item; `tests/test_target_list_homes.py`
runs an example of every item and an engine without the lists). `benchmark/pipe_ab.py --rev
11a70ee --rounds 3` (byte-identical Docs, pairs and pairs JSON on every text first; load average
7–8): `nlp.pipe` + reading the pairs old/new 1.012 median (1.014 best) on the IU reports, 1.004
(1.026) on the ACI notes; against negspacy in the same turns 0.930× → 0.941× (IU) and 0.820× →
0.825× (ACI); `extract_ab.py --rev 11a70ee --rounds 2` (every field of every pair equal first, memo on
and off; load average about 10): `extract` old/new 1.018 median (1.026 best) on the IU reports,
1.016 (1.021) on the ACI notes. The bar (≥ 1×) is not met: what is left is the same as the thirteenth and
fourteenth rounds found, Python per token and per rule in the splitter and the analysis of missed
sentences and the regex engine's cost per call, which a compiled analysis would cut and Python
rewrites of the dispatch do not.

**Fifteenth round (2026-11-24): the linker's own time, and a build worker's steps, measured again;
two small changes, links and benchmark files identical.** Timers around each phase of a cold
linked pass (memos emptied, spaCy's tokenizer cache warm as in `speed.py`'s best-of-3 passes; load
average 4–8): on the IU reports simstring's look-ups 21%, QuickUMLS's match assembly around them
7%, the window's `make_doc` 10%, making the n-grams 12%, the abbreviations 4%, the windows' bounds,
scores and choice about 26%, the linked copies (`_apply`) 9%, the rest of the per-pair path 11%;
ACI notes 22 / 11 / 13 / 16 / 4%, the copies 3%. A cold pass computes 1,712 of the IU reports'
4,959 windows (1,210 of 1,503 ACI): every one a distinct text (64 characters, 1.5 pairs on
average), 25,783 n-grams made, 10,095 bounds tested, 6,762 n-gram look-ups, 2,840 distinct
strings sent to simstring. 2,579 pairs in those windows have 779 distinct target strings, but a
pair's link also depends on where its cue is and on the text within 20 characters of its target
(the ninth and fourteenth rounds measured that memo: under 1% of pairs would hit), so nothing
per target string was built. Changed (`link_ab.py` checks every field of every linked pair on
both corpora first; a new test compares a repeated text, with the same pairs, with pairs equal
but for `doc_id`, and with a pair changed elsewhere, against a fresh linker; the equivalence tests
against QuickUMLS's full path pass): an n-gram whose normalised string simstring returns nothing
for (about nine in ten) no longer goes through QuickUMLS's `_get_all_matches` (its dict and sort
per n-gram), and `link` memoises whole texts (at most 1,024 of at most 5,000 characters): the same
text with the same pairs, or with pairs equal in every field but `doc_id`, gets the stored links
(its own `doc_id`) without its windows, as the engine's text memo does for extraction (332 of the
1,907 IU reports with pairs repeat an earlier report). `benchmark/link_ab.py --rev 11a70ee
--rounds 3`, twice (load average 7–9): linking old/new 1.016 and 0.989 (IU), 1.014 and 1.022
(ACI), medians; link cost 1.85× → 1.84× and 1.88× → 1.87× (IU), 1.72× → 1.71× and 1.73× → 1.72×
(ACI): a gain of 1–2%, inside these rounds' noise (single rounds ranged 0.95–1.04; the text
memo was removed in the sixteenth round, below). The ≤ 2× bar
holds in every one-process round of this session (1.75–1.93×), as in the fourteenth round, and is
missed only by the quiet wall-clock `speed.py` run; the linker's remaining Python (bounds, scores,
n-grams, copies) is spread over many small steps, none above a tenth of a pass, so a margin needs
them compiled or fewer windows, not another memo. *The build.* A worker's chunks
(`benchmark/build_profile.py --notes 2000 --skip-main`, load average 7–8, cProfile): extraction
51.5%, linking 35.2%, sectioning 4.6%, deduplication 3.7%, records' JSON 0.9%, word counts 0.4%,
the chunk file 0.4%, everything else 5.0%: the steps that are not extraction or linking are 13%
of a worker, so removing all of them would give at most 1.15×, and 1,000 notes/s on two workers
still needs extraction and linking about twice as cheap (the main process was measured in the
thirteenth round: 7.5 of its 9.6 CPU s on 20,000 notes are start-up). The text memo does not help
the build: in one process over 1,500 synthetic notes it hit 36 of 2,409 radiology sections and 0
of 399 discharge sections (sections repeat less than whole IU reports). `benchmark/build_ab.py
--rev 11a70ee --notes 1500` (2 workers, 250-note chunks, load average 7.6–8.9): `bench.jsonl`,
`.stats.json`, `.stats.md` byte-identical; CPU old/new 1.00 (main) and 0.97 (workers), peak memory
1.00 (main) and 0.95 (largest worker, 221 → 233 MiB with a 4,096-text memo, which is why it holds
1,024). `bench_scale.py --notes 20000 --no-write` old/new was not run (at this load a 20,000-note
build takes about ten minutes a side) and is left to the lead's quiet run.

**Sixteenth round (2026-11-24): the linker's whole-text memo measured and removed; where the
time goes now.** *The text memo* (`_replayed`, fifteenth round): `benchmark/link_ab.py --rev
ecc214a --rounds 3` with the memo removed (old = with it; every field of every linked pair equal
on both corpora first; load average 5–6): linking old/new 1.017 median (1.022 best) on the IU
reports, 1.008 (1.013) on the ACI notes, link cost 1.85× → 1.84× (IU) and 1.72× → 1.71× (ACI):
without the memo linking is, if anything, slightly cheaper. The windows of a repeated report
still hit the window memo (`_links`, keyed on the window's text and zones), so the text memo
only skipped the per-pair bookkeeping of a repeat, while every text paid for its look-up and
store. On `cuelex.score_frame(..., linker=True)` (CPU time, memo on and off alternating, 4
rounds, identical pairs and documents): `score_speed.py`'s 1,000 pairs (983 distinct sources)
0.785 s in `link` with the memo against 0.817 s without, of 6.3–6.5 s; 200 sources each scored
against five rewrites (1,000 rows, the source linked again under five ids) 0.324 s against 0.352
s, `score_frame` 6.41 s against 6.17 s (medians; noise): about 0.03 s per 1,000 rows, under 1%
of scoring. It did not pay for its 67 lines and was removed (`tests/test_linking_fast.py` still
checks a repeated text, with the same pairs, with pairs equal but for `doc_id` and with a pair
changed elsewhere, against a fresh linker). *Linking* (cProfile, a cold pass over the IU
reports, load average 6): simstring's `reader_retrieve` 10% (2,859 look-ups), the windows'
bounds, scores and choice (`_window_outcomes`' own time) 14%, making the n-grams
(`_zone_ngrams`) 18% with spaCy's `make_doc` of the windows about 9%, the abbreviations 4%,
the linked copies (`_updated`, `_apply`) 5%, `_check_pair` 2.5%, window enumeration
(`_windows`) 2%: no single step is worth a rewrite in Python. *Extraction* (cProfile, a cold
pass over the IU reports): the splitter 17%, the cue scan 25% (its prefilter's word starts
about 8%, `regex` calls 5%), the analysis of missed sentences 35% (`_forward_targets` 17,
`_noun_phrase` 10, `_alternative_groups` 9), memo keys 2%, and the pair records (`_new_pair`,
no validation) 2%: the issue's 13% for pydantic record construction no longer holds (the
records are built by `_Construct` without re-validation). What is left is the same
as the fifteenth round found: Python per token in the splitter and the analysis. *This page's
tables* are one `speed.py` run at the end of the sixteenth session at load average 7–10 (other
helpers on the 2 cores; every system about 3× slower than in the fifteenth session's quiet run,
negspacy 1,702 → 572 IU reports/s): `nlp.pipe` 0.89× negspacy (IU) and 0.80× (ACI), `extract`
739 IU reports/s, link cost 2.18× (IU) and 1.80× (ACI); the quiet run before read 0.94×, 0.85×,
2,422 and 2.08× / 1.85×. At this load the ratios move by about ±0.1× between runs (ninth round),
so the one-process A/B above, not this table, is the evidence for the change; a quiet run should
replace the tables. (This run's environment had regex 2026.11.19 and pydantic 2.14.4.)

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
