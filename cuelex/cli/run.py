"""``cuelex bench run``, ``cuelex bench score`` and ``cuelex bench direct``: systems on a benchmark."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ..corpus import refuse_overwrite
from ..runner.direct import LABELS, CuelexDirect, make_bundles, run_direct, sample_items
from ..runner.jobs import CONDITIONS, TASKS, run, score_run
from ..runner.llm import OpenAIChat

# --------------------------------------------------------------------------- CLI


def _split(values: Sequence[str] | None, default: Sequence[str]) -> list[str]:
    if not values:
        return list(default)
    out: list[str] = []
    for v in values:
        out.extend(x.strip() for x in v.split(",") if x.strip())
    return out


def copy_system(prompt: str) -> str:
    """A sanity baseline for the CLI: returns the prompt's text unchanged (URR = 1 by construction
    only when the prompt is just the text; use with ``--prompt task/condition=FILE`` holding
    ``{{input_text}}`` alone)."""
    return prompt


def cmd_run(args: argparse.Namespace) -> int:
    prompts: dict[str, Path] = {}
    for spec in args.prompt or ():
        if "=" not in spec:
            raise ValueError(f"--prompt takes TASK/CONDITION=FILE, got {spec!r}")
        key, file = spec.split("=", 1)
        prompts[key] = Path(file)
    if args.system == "openai":
        if not args.base_url or not args.model:
            raise ValueError("--system openai needs --base-url and --model")
        system: Callable[[str], str] = OpenAIChat(
            model=args.model, base_url=args.base_url, api_key_env=args.api_key_env,
            timeout=args.timeout, max_tokens=args.max_tokens,
        )
    else:
        system = copy_system
    res = run(
        args.benchmark, system, cache=args.cache, tasks=_split(args.tasks, TASKS),
        conditions=_split(args.conditions, CONDITIONS), name=args.name, prompts=prompts or None,
        iterations=args.iterations, max_workers=args.workers, retries=args.retries,
        limit=args.limit, progress=False if args.quiet else None,
    )
    if not args.quiet:
        print(res.summary())
    return 1 if res.failed else 0


def cmd_run_score(args: argparse.Namespace) -> int:
    for out in (args.output, args.plot):
        if out:
            refuse_overwrite(out, [args.cache])
    scores = score_run(
        args.cache, n_boot=args.n_boot, seed=args.seed, bertscore=args.bertscore,
        progress=False if args.quiet else None,
    )
    if args.output:
        scores.to_csv(args.output)
    if args.plot:
        try:
            out = scores.plot(args.plot)
            if not args.quiet:
                print(f"plot written to {out}", file=sys.stderr)
        except ImportError as exc:
            print(f"cuelex bench score: no plot: {exc}", file=sys.stderr)
    if not args.quiet or not args.output:
        print(scores.summary())
    return 0


def add_endpoint_options(p: argparse.ArgumentParser, *, default_name: str) -> None:
    """The OpenAI-compatible endpoint options that ``bench run`` and ``bench direct`` share:
    --base-url, --model, --api-key-env and --name (whose default is ``default_name``)."""
    p.add_argument("--base-url", help="endpoint base URL, e.g. http://localhost:8000/v1")
    p.add_argument("--model", help="model name sent to the endpoint")
    p.add_argument("--api-key-env", default=None, help="name of the environment variable holding the API key")
    p.add_argument("--name", default=None, help=f"system name in the cache (default: {default_name})")


def add_call_options(p: argparse.ArgumentParser) -> None:
    """How ``bench run`` and ``bench direct`` call an endpoint: --workers, --retries, --timeout
    and --max-tokens."""
    p.add_argument("--workers", type=int, default=4, help="concurrent calls (default 4)")
    p.add_argument("--retries", type=int, default=3, help="retries per failing call (default 3)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per HTTP call (default 120)")
    p.add_argument("--max-tokens", type=int, default=None)


def add_run_subparser(
    subparsers: argparse._SubParsersAction,  # type: ignore[type-arg]
    *,
    run_name: str = "run",
    score_name: str = "run-score",
) -> None:
    """Add the run and score commands (``cuelex bench run`` and ``cuelex bench score``)."""
    p = subparsers.add_parser(run_name, help="run a system on a benchmark (RQ1 tasks), resumable")
    p.add_argument("benchmark", help="benchmark JSONL (id, text, doc_type, pairs per line)")
    p.add_argument("--system", choices=("openai", "copy"), default="openai",
                   help="openai: an OpenAI-compatible chat-completions endpoint; copy: echo the prompt")
    add_endpoint_options(p, default_name="openai:MODEL")
    p.add_argument("--tasks", action="append", help="comma-separated (default: summarization,revision)")
    p.add_argument("--conditions", action="append", help="comma-separated (default: baseline,guarded)")
    p.add_argument("--prompt", action="append", help="TASK/CONDITION=FILE: your own template ({{input_text}})")
    p.add_argument("--cache", required=True, help="run cache (JSONL, append-only; rerun to resume)")
    p.add_argument("--iterations", type=int, default=1, help="rewrite each output again (compounding)")
    add_call_options(p)
    p.add_argument("--limit", type=int, default=None, help="first N documents only")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar or summary")
    p.set_defaults(func=cmd_run)

    p = subparsers.add_parser(score_name, help="score a run cache: Table 2 (TRR URR CAR PCR OHR)")
    p.add_argument("cache", help="run cache written by `cuelex bench run`")
    p.add_argument("-o", "--output", help="CSV file for the table")
    p.add_argument("--plot", help="PNG/PDF/SVG file for the bar chart (needs matplotlib)")
    p.add_argument("--bertscore", action="store_true", help="add BERTScore F1 (needs cuelex[bertscore])")
    p.add_argument("--n-boot", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_run_score)


# --------------------------------------------------------------------------- command line


def format_metrics(metrics: pd.DataFrame) -> str:
    """The metrics table as text: ULA, macro-F1, per-level F1, exact rank accuracy, Kendall's tau."""
    cols = ["setting", "n", "n_invalid", "ula", "macro_f1", *[f"f1_{lv}" for lv in LABELS]]
    rank_cols = ["n_bundles", "exact_rank_accuracy", "kendall_tau"]
    show = metrics.reindex(columns=[*cols, *rank_cols]).copy()
    for c in ("ula", "macro_f1", *[f"f1_{lv}" for lv in LABELS], "exact_rank_accuracy"):
        show[c] = [("—" if pd.isna(v) else f"{100 * float(v):.1f}") for v in show[c]]
    show["kendall_tau"] = [("—" if pd.isna(v) else f"{float(v):.3f}") for v in show["kendall_tau"]]
    for c in ("n", "n_invalid", "n_bundles"):
        show[c] = [("—" if pd.isna(v) else str(int(v))) for v in show[c]]
    return show.rename(columns={"ula": "ULA", "macro_f1": "macro-F1", "kendall_tau": "tau",
                                "exact_rank_accuracy": "exact-rank"}).to_string(index=False)  # fmt: skip


def cmd_direct(args: Any) -> int:
    """``cuelex bench direct BENCHMARK --cache FILE``: sample, ask, parse and score (RQ2)."""
    sizes = [int(s) for s in ",".join(args.sizes).split(",") if s.strip()] if args.sizes else [2, 3, 4, 5]
    if args.per_level < 1:
        raise ValueError(f"--per-level must be at least 1, got {args.per_level}")
    if args.per_size < 0:
        raise ValueError(f"--per-size must be 0 or more, got {args.per_size}")
    items = sample_items(args.benchmark, per_level=args.per_level, seed=args.seed)
    if not items:
        raise ValueError(f"{args.benchmark}: no cue-target pair at UL1-UL5 to ask about")
    bundles = make_bundles(items, sizes=sizes, per_size=args.per_size, seed=args.seed) if args.per_size else []
    system: Callable[[str], str] | CuelexDirect
    if args.system == "cuelex":
        system = CuelexDirect()
    else:
        if not args.base_url or not args.model:
            raise ValueError("--system openai needs --base-url and --model")
        system = OpenAIChat(model=args.model, base_url=args.base_url, api_key_env=args.api_key_env,
                            timeout=args.timeout, max_tokens=args.max_tokens)  # fmt: skip
    res = run_direct(items, system, cache=args.cache, bundles=bundles, name=args.name,
                     max_workers=args.workers, retries=args.retries,
                     progress=False if args.quiet else None)  # fmt: skip
    for path, frame in ((args.output, res.metrics), (args.items_out, res.items)):
        if path:
            out = Path(path)
            out.parent.mkdir(parents=True, exist_ok=True)
            frame.to_csv(out, index=False)
            if not args.quiet:
                print(f"written: {out}", file=sys.stderr)
    print(format_metrics(res.metrics))
    if res.n_failed:
        print(f"failed calls (not scored): {res.n_failed}; rerun to retry them", file=sys.stderr)
    return 1 if res.n_failed else 0


def add_direct_subparser(subparsers: Any) -> Any:
    """Register ``cuelex bench direct`` (RQ2: classify single signals, rank bundles)."""
    p = subparsers.add_parser(
        "direct",
        help="direct assessment (RQ2): classify and rank uncertainty levels, resumable",
        description=(
            "Sample cue-target pairs per level (UL1-UL5) from BENCHMARK, ask the system to label "
            "each one (N=1) and to label and rank bundles of N=2..5 signals with distinct levels "
            "(the paper's Appendix C prompts), then report ULA, macro-F1, per-level F1, exact rank "
            "accuracy and Kendall's tau per setting. --system cuelex answers with cuelex's own "
            "rule-based classifier (offline baseline)."
        ),
    )
    p.add_argument("benchmark", help="benchmark JSONL (id, text, pairs per line) or notes to extract")
    p.add_argument("--cache", required=True, help="answer cache (JSONL, append-only; rerun to resume)")
    p.add_argument("--system", choices=("cuelex", "openai"), default="cuelex",
                   help="cuelex: the rule-based classifier (default); openai: a chat-completions endpoint")
    add_endpoint_options(p, default_name="cuelex or openai:MODEL")
    p.add_argument("--per-level", type=int, default=100, help="items sampled per level (default 100)")
    p.add_argument("--sizes", action="append", help="bundle sizes, comma-separated (default 2,3,4,5)")
    p.add_argument("--per-size", type=int, default=100, help="bundles per size (default 100; 0: none)")
    p.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    add_call_options(p)
    p.add_argument("-o", "--output", help="CSV file for the metrics table")
    p.add_argument("--items-out", help="CSV file for every item's gold and predicted level")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_direct)
    return p
