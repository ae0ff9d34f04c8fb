"""Run any text-to-text system on a benchmark, with a resumable append-only cache, and score the run.

``run(benchmark, system, tasks=..., conditions=..., cache=PATH)`` renders the prompt of every
(document, task, condition), calls ``system(prompt) -> str`` for each one not yet in the cache, and
appends one JSON line per answer to ``cache``. ``score_run(cache)`` turns the cache into the
paper's Table 2 (TRR, URR, CAR, PCR, OHR per system × task × condition, with bootstrap CIs).

The cache (JSONL, one record per line, append-only):

* ``{"type": "document", "doc_id", "doc_type", "text", "text_sha", "pairs"}`` — written once per
  document text, so a cache can be scored on its own;
* ``{"type": "result", "doc_id", "text_sha", "task", "condition", "system", "iteration",
  "prompt_sha", "template_sha", "status": "ok"|"failed", "output", "error", "attempts", "seconds",
  "time", "meta"}``.

A result's key is (doc_id, task, condition, system, iteration, prompt_sha); ``prompt_sha`` is the
SHA-256 of the rendered prompt, so a changed template or document text is a new key. A key with an
``ok`` record is never called again; a ``failed`` key is retried by the next run (unless
``retry_failed=False``). Every record is flushed and fsynced before the next one is written, so a
crash or Ctrl-C loses nothing already returned; a truncated last line (a crash in mid-write) is
reported and ignored. Clinical text is never logged above DEBUG.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import random
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from importlib import resources as importlib_resources
from pathlib import Path
from typing import Any

import pandas as pd
from tqdm.auto import tqdm

from ..api import extract
from ..bench.files import load as load_benchmark
from ..corpus import TextLines, safe_csv_frame
from ..records import CueTargetPair
from ..report.plots import metric_bars, save_figure
from ..scoring.metrics import RATES
from ..scoring.scorer import score_frame

log = logging.getLogger(__name__)

__all__ = [
    "CONDITIONS",
    "TASKS",
    "Document",
    "Job",
    "Prompt",
    "RunCache",
    "RunResult",
    "RunScores",
    "as_documents",
    "load_prompt",
    "load_run",
    "plot_table",
    "render",
    "run",
    "score_run",
    "system_name",
]

CACHE_SCHEMA = "cuelex-run/1"
#: The paper's two RQ1 tasks and two prompt conditions (Appendix B).
TASKS: tuple[str, ...] = ("summarization", "revision")
CONDITIONS: tuple[str, ...] = ("baseline", "guarded")
#: The rates of the paper's Table 2 (:data:`cuelex.scoring.metrics.RATES`).
TABLE2_METRICS: tuple[str, ...] = RATES
_KEY_FIELDS = ("doc_id", "task", "condition", "system", "iteration", "prompt_sha")
_RUN_FIELDS = ("doc_id", "task", "condition", "system", "iteration")


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------- prompts


@dataclass(frozen=True)
class Prompt:
    """A prompt template: ``{{input_text}}`` (and other ``{{name}}`` fields) replaced literally."""

    task: str
    condition: str
    template: str
    origin: str = "builtin"

    @property
    def sha(self) -> str:
        return _sha(self.template)

    def render(self, **fields: str) -> str:
        return render(self.template, **fields)


def _placeholder_variants(name: str) -> tuple[str, ...]:
    return ("{{" + name + "}}", "{{" + name.replace("_", " ") + "}}", "{{ " + name + " }}")


def render(template: str, **fields: str) -> str:
    """Replace each ``{{name}}`` (also ``{{input text}}``, the paper's spelling) by its value.

    Every field must occur in the template: a template without ``{{input_text}}`` would silently
    send the model no text, so it raises a ``ValueError`` naming the missing placeholder.
    """
    out = template
    for name, value in fields.items():
        variants = [v for v in _placeholder_variants(name) if v in out]
        if not variants:
            raise ValueError(
                f"prompt template has no {{{{{name}}}}} placeholder (template starts "
                f"{template[:60]!r})"
            )
        for v in variants:
            out = out.replace(v, value)
    return out


def _data_text(name: str) -> str:
    return importlib_resources.files("cuelex.data").joinpath(name).read_text(encoding="utf-8")


def load_prompt(task: str, condition: str | None = None) -> Prompt:
    """A shipped prompt: RQ1 ``(task, condition)``, or ``("direct", "single"|"multi")`` for RQ2."""
    name = f"prompts_{task}_{condition}.txt" if condition else f"prompts_{task}.txt"
    try:
        text = _data_text(name)
    except FileNotFoundError:
        raise ValueError(
            f"no shipped prompt for task {task!r}, condition {condition!r}; shipped: tasks "
            f"{list(TASKS)} × conditions {list(CONDITIONS)}, and direct/single, direct/multi "
            "(pass prompts={...} for your own)"
        ) from None
    return Prompt(task, condition or "", text, f"cuelex/data/{name}")


def _prompt_key(key: Any) -> tuple[str, str]:
    if isinstance(key, tuple) and len(key) == 2:
        return str(key[0]), str(key[1])
    if isinstance(key, str) and "/" in key:
        task, condition = key.split("/", 1)
        return task, condition
    raise ValueError(f"prompts keys are (task, condition) tuples or 'task/condition' strings, got {key!r}")


def _resolve_prompts(
    tasks: Sequence[str], conditions: Sequence[str], prompts: Mapping[Any, Any] | None
) -> dict[tuple[str, str], Prompt]:
    user: dict[tuple[str, str], Prompt] = {}
    for key, value in (prompts or {}).items():
        task, condition = _prompt_key(key)
        if isinstance(value, Prompt):
            user[(task, condition)] = value
        elif isinstance(value, Path):
            user[(task, condition)] = Prompt(task, condition, value.read_text(encoding="utf-8"), str(value))
        elif isinstance(value, str):
            user[(task, condition)] = Prompt(task, condition, value, "user")
        else:
            raise TypeError(f"prompts[{key!r}] must be template text, a Path or a Prompt, got {type(value).__name__}")
    out: dict[tuple[str, str], Prompt] = {}
    for task in tasks:
        for condition in conditions:
            p = user.get((task, condition)) or load_prompt(task, condition)
            if not any(v in p.template for v in _placeholder_variants("input_text")):
                raise ValueError(f"prompt {task}/{condition} ({p.origin}) has no {{{{input_text}}}} placeholder")
            out[(task, condition)] = p
    return out


# --------------------------------------------------------------------------- documents


@dataclass
class Document:
    """One benchmark document: its id, text, optional type and optional source pairs.

    Not :class:`cuelex.corpus.Document` (an input row without pairs) nor
    :class:`cuelex.bench.BenchDocument` (the strict file schema): a run accepts any benchmark-like
    items (a built benchmark, dicts, its own JSONL) and keeps only what running and scoring need,
    plus ``text_sha`` that keys the run cache."""

    id: str
    text: str
    doc_type: str | None = None
    pairs: list[CueTargetPair] | None = None

    @property
    def text_sha(self) -> str:
        return _sha(self.text)


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _to_pair(p: Any) -> CueTargetPair:
    if isinstance(p, CueTargetPair):
        return p
    if isinstance(p, Mapping):
        return CueTargetPair.model_validate(dict(p))
    if hasattr(p, "model_dump"):
        return CueTargetPair.model_validate(p.model_dump())
    raise TypeError(f"a pair must be a CueTargetPair or a mapping, got {type(p).__name__}")


def as_documents(benchmark: Any) -> list[Document]:
    """Documents from a benchmark: a path (``cuelex.bench.load`` when available, else JSONL with
    ``id``/``text``/``doc_type``/``pairs``), a loaded benchmark with ``.documents``, or any iterable
    of objects or dicts with ``id``, ``text``, optional ``doc_type`` and ``pairs``."""
    if isinstance(benchmark, (str, Path)):
        benchmark = _load_benchmark_file(Path(benchmark))
    items = getattr(benchmark, "documents", benchmark)
    docs: list[Document] = []
    seen: set[str] = set()
    for i, d in enumerate(items):
        doc_id, text = _get(d, "id"), _get(d, "text")
        if doc_id is None:
            doc_id = _get(d, "doc_id")
        if doc_id is None or not isinstance(text, str):
            raise ValueError(
                f"benchmark item {i}: needs an 'id' and a text 'text' (got id {doc_id!r}, "
                f"text {type(text).__name__})"
            )
        doc_id = str(doc_id)
        if doc_id in seen:
            raise ValueError(f"benchmark item {i}: document id {doc_id!r} is repeated")
        seen.add(doc_id)
        raw_pairs = _get(d, "pairs")
        pairs = None if raw_pairs is None else [_to_pair(p) for p in raw_pairs]
        doc_type = _get(d, "doc_type")
        docs.append(Document(doc_id, text, None if doc_type is None else str(doc_type), pairs))
    return docs


def benchmark_sha(docs: Sequence[Document]) -> str:
    """Content hash of a benchmark: SHA-256 over every document's id, type, text and pairs, in order.

    Each document record of a run cache carries it, so one cache never mixes two benchmarks.
    """
    h = hashlib.sha256()
    for d in docs:
        pairs = None if d.pairs is None else [p.model_dump(mode="json") for p in d.pairs]
        h.update(json.dumps([d.id, d.doc_type, d.text_sha, pairs], sort_keys=True).encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()


def _same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    pa, pb = Path(a), Path(b)
    if pa.resolve() == pb.resolve():
        return True
    try:
        return pa.exists() and pb.exists() and os.path.samefile(pa, pb)
    except OSError:
        return False


def _load_benchmark_file(path: Path) -> Any:
    """A ``cuelex.bench`` benchmark (lines with ``schema_version``: validated by ``bench.load``),
    else a plain JSONL of ``{"id", "text", "doc_type"?, "pairs"?}`` lines."""
    if not path.exists():
        raise FileNotFoundError(f"benchmark file {path} does not exist")
    records = []
    # strict UTF-8: a byte that is not valid is named by file and byte offset (InputError)
    for n, line in enumerate(TextLines(path, path.name.endswith(".gz"), "utf-8"), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{n}: not valid JSON ({exc.msg})") from None
        if not isinstance(rec, dict):
            raise ValueError(f"{path}:{n}: expected one JSON object per line, got {type(rec).__name__}")
        if "schema_version" in rec:
            return load_benchmark(path)
        records.append(rec)
    return records


# --------------------------------------------------------------------------- cache


@dataclass
class CacheProblem:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


class RunCache:
    """Append-only JSONL cache of a run. Each append is flushed and fsynced."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self.documents: dict[tuple[str, str], dict[str, Any]] = {}
        self.results: list[dict[str, Any]] = []
        self.problems: list[CacheProblem] = []
        self._fh: Any = None
        self._lock = threading.Lock()
        self.load()

    def load(self) -> None:
        self.documents, self.results, self.problems = {}, [], []
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        lines = data.split(b"\n")
        for n, raw in enumerate(lines, 1):
            if not raw.strip():
                continue
            last = n == len(lines)  # no newline after it: possibly cut off in mid-write
            try:
                rec = json.loads(raw.decode("utf-8"))
                if not isinstance(rec, dict) or rec.get("type") not in ("document", "result"):
                    raise ValueError("not a cuelex run record")
            except (ValueError, UnicodeDecodeError) as exc:
                what = "truncated last line (interrupted write?)" if last else f"unreadable line ({exc})"
                self.problems.append(CacheProblem(n, f"{what}; ignored"))
                log.warning("run cache %s, line %d: %s; ignored", self.path, n, what)
                continue
            if rec["type"] == "document":
                self.documents[(rec["doc_id"], rec["text_sha"])] = rec
            else:
                self.results.append(rec)

    def benchmarks(self) -> set[str]:
        """Content hashes of the benchmarks the cache's documents came from (older caches: none)."""
        return {d["benchmark_sha"] for d in self.documents.values() if d.get("benchmark_sha")}

    def done_keys(self, *, include_failed: bool = False) -> set[tuple[Any, ...]]:
        return {
            tuple(r.get(f) for f in _KEY_FIELDS)
            for r in self.results
            if r.get("status") == "ok" or include_failed
        }

    def latest_ok(self) -> dict[tuple[Any, ...], dict[str, Any]]:
        """The last ``ok`` result per (doc_id, task, condition, system, iteration)."""
        out: dict[tuple[Any, ...], dict[str, Any]] = {}
        for r in self.results:
            if r.get("status") == "ok":
                out[tuple(r.get(f) for f in _RUN_FIELDS)] = r
        return out

    def __enter__(self) -> RunCache:
        self.open()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def open(self) -> None:
        if self._fh is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fh = open(self.path, "ab")
        try:
            import fcntl

            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except ImportError:  # pragma: no cover - Windows: no advisory lock
            pass
        except OSError:
            fh.close()
            raise RuntimeError(f"run cache {self.path} is in use by another running process") from None
        if fh.tell() > 0:  # a cut-off last line stays on its own line, never glued to a new record
            with open(self.path, "rb") as rh:
                rh.seek(-1, os.SEEK_END)
                if rh.read(1) != b"\n":
                    fh.write(b"\n")
        self._fh = fh

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def append(self, record: dict[str, Any]) -> None:
        line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        with self._lock:
            if self._fh is None:
                self.open()
            self._fh.write(line)
            self._fh.flush()
            os.fsync(self._fh.fileno())
            if record["type"] == "document":
                self.documents[(record["doc_id"], record["text_sha"])] = record
            else:
                self.results.append(record)


# --------------------------------------------------------------------------- execution


@dataclass
class Job:
    """One call: the record fields of its key, the prompt, and how to get the answer."""

    doc_id: str
    task: str
    condition: str
    system: str
    iteration: int
    prompt: str
    template_sha: str
    text_sha: str
    answer: Callable[[], str]
    meta: dict[str, Any] | None = None

    @property
    def prompt_sha(self) -> str:
        return _sha(self.prompt)

    @property
    def key(self) -> tuple[Any, ...]:
        return (self.doc_id, self.task, self.condition, self.system, self.iteration, self.prompt_sha)


def _short_error(exc: BaseException) -> str:
    """Exception type and status only (never a body that might echo clinical text): for logs."""
    status = getattr(exc, "status", None)
    return type(exc).__name__ + (f" (HTTP {status})" if status else "")


def _call(job: Job, retries: int, backoff: float, max_backoff: float) -> dict[str, Any]:
    t0 = time.perf_counter()
    error = None
    attempts = 0
    for attempt in range(retries + 1):
        attempts = attempt + 1
        try:
            out = job.answer()
            if not isinstance(out, str):
                # a system that returns None (or any non-text) does so by design or by bug, not by
                # chance: calling it again gives the same answer, so it is recorded as failed at once
                exc = TypeError(f"the system returned {type(out).__name__}, not text")
                exc.retryable = False  # type: ignore[attr-defined]
                raise exc
            return _result(job, "ok", out, None, attempts, time.perf_counter() - t0)
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"
            log.debug("call %s failed (attempt %d): %s", job.key[:5], attempts, error)
            if getattr(exc, "retryable", True) is False or attempt == retries:
                log.warning(
                    "%s %s/%s doc %s: failed after %d attempt(s): %s",
                    job.system, job.task, job.condition, job.doc_id, attempts, _short_error(exc),
                )
                break
            delay = min(max_backoff, backoff * 2**attempt) * (0.5 + random.random() / 2)
            retry_after = getattr(exc, "retry_after", None)
            if isinstance(retry_after, (int, float)) and retry_after > 0:
                delay = max(delay, min(float(retry_after), max_backoff))
            time.sleep(delay)
    return _result(job, "failed", None, error, attempts, time.perf_counter() - t0)


def _result(job: Job, status: str, output: str | None, error: str | None, attempts: int, seconds: float) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "type": "result",
        "schema": CACHE_SCHEMA,
        "doc_id": job.doc_id,
        "text_sha": job.text_sha,
        "task": job.task,
        "condition": job.condition,
        "system": job.system,
        "iteration": job.iteration,
        "prompt_sha": job.prompt_sha,
        "template_sha": job.template_sha,
        "status": status,
        "output": output,
        "error": error,
        "attempts": attempts,
        "seconds": round(seconds, 3),
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    if job.meta is not None:
        rec["meta"] = job.meta
    return rec


def _progress_bar(total: int, enabled: bool | None, desc: str) -> Any:
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled or total == 0:
        return None
    return tqdm(total=total, desc=desc, unit="call")


@dataclass
class _Stats:
    called: int = 0
    ok: int = 0
    failed: int = 0
    cached: int = 0
    skipped: int = 0


def execute(
    jobs: Sequence[Job],
    cache: RunCache,
    *,
    max_workers: int = 4,
    retries: int = 3,
    backoff: float = 1.0,
    max_backoff: float = 60.0,
    progress: bool | None = None,
    desc: str = "cuelex run",
) -> _Stats:
    """Call every job (at most ``max_workers`` at a time) and append each record as it returns.

    On Ctrl-C (or any exception out of a call that is not an ``Exception``) the queued calls are
    cancelled, the calls already running are waited for and saved, and the interrupt propagates.
    """
    if max_workers < 1:
        raise ValueError(f"max_workers must be >= 1, got {max_workers}")
    if retries < 0:
        raise ValueError(f"retries must be >= 0, got {retries}")
    stats = _Stats()
    if not jobs:
        return stats
    bar = _progress_bar(len(jobs), progress, desc)
    pool = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="cuelex-run")
    pending: set[Future[dict[str, Any]]] = set()
    queue = iter(jobs)

    def submit_next() -> bool:
        job = next(queue, None)
        if job is None:
            return False
        pending.add(pool.submit(_call, job, retries, backoff, max_backoff))
        return True

    def save(fut: Future[dict[str, Any]]) -> None:
        rec = fut.result()
        cache.append(rec)
        stats.called += 1
        if rec["status"] == "ok":
            stats.ok += 1
        else:
            stats.failed += 1
        if bar is not None:
            bar.update(1)
            if stats.failed:
                bar.set_postfix(failed=stats.failed)

    try:
        # keep the queue short (2 × workers) so an interrupt leaves little to cancel
        for _ in range(2 * max_workers):
            if not submit_next():
                break
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                pending.discard(fut)
                save(fut)
                submit_next()
    except BaseException:
        for fut in pending:
            fut.cancel()
        running = [f for f in pending if not f.cancelled()]
        if running:
            log.warning(
                "cuelex bench run: interrupted; saving %d call(s) already running "
                "(interrupt again to abandon them)",
                len(running),
            )
            for fut in running:
                try:
                    save(fut)
                except BaseException:
                    continue
        raise
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        if bar is not None:
            bar.close()
    return stats


# --------------------------------------------------------------------------- run


def system_name(system: Callable[..., Any], name: str | None = None) -> str:
    """The name a system's results are cached under: ``name``, ``system.name``, or ``__name__``."""
    if name is None:
        name = getattr(system, "name", None)
        if not isinstance(name, str):
            name = getattr(system, "__name__", None)
    if not isinstance(name, str) or not name.strip() or name == "<lambda>":
        raise ValueError(
            "give the system a stable name with name=... (a lambda or partial has none); "
            "results are cached under it"
        )
    return name.strip()


@dataclass
class RunResult:
    """What a run did: counts, the cache, and the records of this run's keys."""

    cache_path: Path
    system: str
    records: pd.DataFrame
    called: int = 0
    cached: int = 0
    failed: int = 0
    skipped: int = 0
    problems: list[str] = field(default_factory=list)

    def __repr__(self) -> str:
        return (
            f"RunResult(system={self.system!r}, cache={str(self.cache_path)!r}, called={self.called}, "
            f"cached={self.cached}, failed={self.failed}, skipped={self.skipped}, "
            f"records={len(self.records)})"
        )

    def summary(self) -> str:
        lines = [
            f"system {self.system}: {self.called} call(s) made, {self.cached} taken from the cache, "
            f"{self.failed} failed, {self.skipped} skipped (previous iteration missing)",
            f"cache: {self.cache_path}",
        ]
        lines += [f"cache problem: {p}" for p in self.problems]
        return "\n".join(lines)


_RECORD_COLUMNS = [
    "doc_id", "task", "condition", "system", "iteration", "status", "output", "error",
    "attempts", "seconds", "prompt_sha",
]


def run(
    benchmark: Any,
    system: Callable[[str], str],
    *,
    cache: str | os.PathLike[str],
    tasks: Sequence[str] = TASKS,
    conditions: Sequence[str] = CONDITIONS,
    name: str | None = None,
    prompts: Mapping[Any, Any] | None = None,
    iterations: int = 1,
    max_workers: int = 4,
    retries: int = 3,
    backoff: float = 1.0,
    max_backoff: float = 60.0,
    retry_failed: bool = True,
    limit: int | None = None,
    progress: bool | None = None,
) -> RunResult:
    """Run ``system`` on every document × task × condition; resume from ``cache``.

    ``system`` is any ``Callable[[str], str]`` (the rendered prompt in, the output text out), e.g.
    :class:`cuelex.llm.OpenAIChat`. ``prompts`` maps ``(task, condition)`` or ``"task/condition"``
    to template text, a ``Path`` or a :class:`Prompt`, overriding or adding to the shipped ones.
    ``iterations`` > 1 rewrites each output again with the same prompt (the compounding analysis,
    :mod:`cuelex.compounding`): iteration i's input is iteration i−1's output. A call that raises
    is retried ``retries`` times with exponential backoff (``backoff`` × 2^attempt seconds, with
    jitter, at most ``max_backoff``; an exception with ``retryable = False`` is not retried), then
    recorded as failed. ``limit`` takes the first documents only.
    """
    sysname = system_name(system, name)
    if not callable(system):
        raise TypeError(f"system must be callable (prompt -> text), got {type(system).__name__}")
    if isinstance(tasks, str):
        tasks = [tasks]
    if isinstance(conditions, str):
        conditions = [conditions]
    if iterations < 1:
        raise ValueError(f"iterations must be >= 1, got {iterations}")
    table = _resolve_prompts(tasks, conditions, prompts)
    if isinstance(benchmark, (str, os.PathLike)) and _same_file(benchmark, cache):
        raise ValueError(
            f"the run cache {cache} is the benchmark file itself: give the cache its own path "
            "(the cache is appended to and would corrupt the benchmark)"
        )
    docs = as_documents(benchmark)
    bench_sha = benchmark_sha(docs)
    if limit is not None:
        docs = docs[:limit]
    rc = RunCache(cache)
    other = rc.benchmarks() - {bench_sha}
    if other:
        raise ValueError(
            f"run cache {rc.path} holds documents of another benchmark (content hash "
            f"{sorted(other)[0][:12]}…, this one is {bench_sha[:12]}…): use one cache per "
            "benchmark, or delete the cache to start over"
        )
    stats = _Stats()
    run_keys: list[tuple[Any, ...]] = []
    with rc:
        for d in docs:
            if (d.id, d.text_sha) not in rc.documents:
                rc.append(
                    {
                        "type": "document",
                        "schema": CACHE_SCHEMA,
                        "doc_id": d.id,
                        "doc_type": d.doc_type,
                        "text": d.text,
                        "text_sha": d.text_sha,
                        "benchmark_sha": bench_sha,
                        "pairs": None if d.pairs is None else [p.model_dump(mode="json") for p in d.pairs],
                    }
                )
        for it in range(1, iterations + 1):
            done = rc.done_keys(include_failed=not retry_failed)
            latest = rc.latest_ok()
            jobs: list[Job] = []
            for d in docs:
                for (task, condition), prompt in table.items():
                    if it == 1:
                        source = d.text
                    else:
                        prev = latest.get((d.id, task, condition, sysname, it - 1))
                        if prev is None or prev.get("text_sha") != d.text_sha:
                            stats.skipped += 1
                            continue
                        source = prev["output"]
                    rendered = prompt.render(input_text=source)
                    job = Job(
                        d.id, task, condition, sysname, it, rendered, prompt.sha, d.text_sha,
                        answer=_bind(system, rendered),
                    )
                    run_keys.append(job.key)
                    if job.key in done:
                        stats.cached += 1
                        continue
                    jobs.append(job)
            log.info("%s iteration %d: %d call(s) to make, %d cached", sysname, it, len(jobs), stats.cached)
            s = execute(
                jobs, rc, max_workers=max_workers, retries=retries, backoff=backoff,
                max_backoff=max_backoff, progress=progress,
                desc=f"{sysname}" + (f" (iteration {it})" if iterations > 1 else ""),
            )
            stats.called += s.called
            stats.failed += s.failed
    return _run_result(rc, sysname, run_keys, stats)


def _bind(system: Callable[[str], str], prompt: str | None) -> Callable[[], str]:
    return lambda: system(prompt)  # type: ignore[arg-type]


def _run_result(rc: RunCache, sysname: str, keys: list[tuple[Any, ...]], stats: _Stats) -> RunResult:
    wanted = set(keys)
    last: dict[tuple[Any, ...], dict[str, Any]] = {}
    for r in rc.results:
        k = tuple(r.get(f) for f in _KEY_FIELDS)
        if k in wanted and (k not in last or last[k].get("status") != "ok"):
            last[k] = r
    records = pd.DataFrame([last[k] for k in keys if k in last], columns=_RECORD_COLUMNS)
    return RunResult(
        rc.path, sysname, records, called=stats.called, cached=stats.cached, failed=stats.failed,
        skipped=stats.skipped, problems=[str(p) for p in rc.problems],
    )


def load_run(cache: str | os.PathLike[str] | RunResult) -> RunCache:
    """Read a run cache (reporting and skipping a truncated or unreadable line)."""
    path = cache.cache_path if isinstance(cache, RunResult) else Path(cache)
    if not path.exists():
        raise FileNotFoundError(f"run cache {path} does not exist")
    return RunCache(path)


# --------------------------------------------------------------------------- scoring


@dataclass
class RunScores:
    """Table 2 of a run, with the underlying :class:`cuelex.CorpusScores` and the failed calls."""

    table: pd.DataFrame
    corpus: Any
    failed: pd.DataFrame
    group_cols: list[str]
    problems: list[str] = field(default_factory=list)

    def to_csv(self, path: str | os.PathLike[str]) -> Path:
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        safe_csv_frame(self.table).to_csv(out, index=False)
        return out

    def plot(self, path: str | os.PathLike[str] | None = None, **kwargs: Any) -> Any:
        return plot_table(self.table, path, group_cols=self.group_cols, **kwargs)

    def summary(self) -> str:
        show = self.table[[*self.group_cols, "n_documents", "n_pairs", *TABLE2_METRICS]].copy()
        for m in TABLE2_METRICS:
            show[m] = [
                "—" if pd.isna(v) else f"{100 * v:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"
                if not (pd.isna(lo) or pd.isna(hi)) else f"{100 * v:.1f}"
                for v, lo, hi in zip(
                    self.table[m], self.table[f"{m}_ci_low"], self.table[f"{m}_ci_high"], strict=True
                )
            ]
        lines = [show.to_string(index=False)]
        if len(self.failed):
            lines.append(f"failed calls (not scored): {len(self.failed)}")
        lines += [f"cache problem: {p}" for p in self.problems]
        return "\n".join(lines)


def score_run(
    run_or_cache: RunResult | str | os.PathLike[str],
    *,
    benchmark: Any = None,
    systems: Sequence[str] | None = None,
    n_boot: int = 1000,
    seed: int = 0,
    ci: float = 0.95,
    bertscore: bool = False,
    bertscore_model: str | None = None,
    progress: bool | None = None,
    **options: Any,
) -> RunScores:
    """Score the latest successful output of every (document, task, condition, system, iteration).

    Sources come from the cache's document records. Source pairs: the document's ``pairs`` (from
    the benchmark written into the cache, or ``benchmark=`` given here), else cuelex's own
    extraction (deduplicated, as in the paper's benchmark). Rates are pooled over pairs (micro),
    with cluster-bootstrap CIs over documents. ``bertscore=True`` adds the mean BERTScore F1 of each
    group (needs ``cuelex[bertscore]``). Other options go to :func:`cuelex.score_frame`.
    """
    rc = load_run(run_or_cache)
    mixed = rc.benchmarks()
    if len(mixed) > 1:
        raise ValueError(
            f"run cache {rc.path} mixes documents of {len(mixed)} benchmarks (content hashes "
            + ", ".join(sorted(m[:12] + "…" for m in mixed))
            + "): its results cannot be scored as one table"
        )
    given: dict[str, Document] = {d.id: d for d in as_documents(benchmark)} if benchmark is not None else {}
    rows = []
    pairs_by_id: dict[str, list[CueTargetPair]] = {}
    extracted: dict[tuple[str, str], list[CueTargetPair]] = {}
    problems = [str(p) for p in rc.problems]
    latest = rc.latest_ok()
    for (doc_id, task, condition, system, iteration), r in latest.items():
        if (systems is not None and system not in systems) or task == "direct":
            continue  # direct-assessment records (cuelex.direct) are scored by run_direct
        doc = rc.documents.get((doc_id, r.get("text_sha")))
        if doc is None:
            problems.append(f"result for document {doc_id!r} has no document record; skipped")
            continue
        rid = f"{doc_id}\x1f{system}\x1f{task}\x1f{condition}\x1f{iteration}"
        pairs = doc.get("pairs")
        if pairs is not None:
            src_pairs = [_to_pair(p) for p in pairs]
        elif doc_id in given and given[doc_id].pairs is not None and given[doc_id].text_sha == doc["text_sha"]:
            src_pairs = given[doc_id].pairs or []
        else:
            k = (doc_id, doc["text_sha"])
            if k not in extracted:
                extracted[k] = extract(doc["text"], doc_id=doc_id, deduplicate=True)
            src_pairs = extracted[k]
        pairs_by_id[rid] = src_pairs
        rows.append(
            {
                "run_id": rid,
                "doc_id": doc_id,
                "doc_type": doc.get("doc_type") or "",
                "system": system,
                "task": task,
                "condition": condition,
                "iteration": int(iteration),
                "source": doc["text"],
                "output": r["output"],
            }
        )
    ok_keys = set(latest)
    failed_rows = []
    for r in rc.results:
        k = tuple(r.get(f) for f in _RUN_FIELDS)
        if r.get("status") == "failed" and k not in ok_keys:
            if systems is None or r.get("system") in systems:
                failed_rows.append({f: r.get(f) for f in (*_RUN_FIELDS, "error", "attempts")})
    failed = pd.DataFrame(failed_rows, columns=[*_RUN_FIELDS, "error", "attempts"]).drop_duplicates(
        subset=list(_RUN_FIELDS), keep="last"
    )
    if not rows:
        raise ValueError(f"run cache {rc.path} holds no successful output to score")
    df = pd.DataFrame(rows)
    group_cols = ["system", "task", "condition"]
    if df["iteration"].nunique() > 1 or (df["iteration"] != 1).any():
        group_cols.append("iteration")
    corpus = score_frame(
        df, "source", "output", group_cols=group_cols, id_col="run_id", source_pairs=pairs_by_id,
        n_boot=n_boot, seed=seed, ci=ci, bertscore=bertscore, bertscore_model=bertscore_model,
        progress=progress, **options,
    )
    table = _table2(corpus, df, group_cols, failed, bertscore)
    return RunScores(table, corpus, failed, group_cols, problems)


def _table2(corpus: Any, df: pd.DataFrame, group_cols: list[str], failed: pd.DataFrame, bertscore: bool) -> pd.DataFrame:
    bg = corpus.by_group
    bg = bg[bg["scope"] == "micro"]
    out_rows = []
    keys = df[group_cols].drop_duplicates().sort_values(group_cols).itertuples(index=False)
    str_bg = bg.copy()
    for g in group_cols:
        str_bg[g] = str_bg[g].astype(str)
    for key in keys:
        row: dict[str, Any] = dict(zip(group_cols, key, strict=True))
        mask = pd.Series(True, index=str_bg.index)
        for g in group_cols:
            mask &= str_bg[g] == str(row[g])
        sub = str_bg[mask].set_index("metric")
        dmask = pd.Series(True, index=df.index)
        for g in group_cols:
            dmask &= df[g].astype(str) == str(row[g])
        row["n_documents"] = int(dmask.sum())
        row["n_pairs"] = int(sub.loc["TRR", "denominator"]) if "TRR" in sub.index else 0
        for m in TABLE2_METRICS:
            for col, src in ((m, "value"), (f"{m}_ci_low", "ci_low"), (f"{m}_ci_high", "ci_high")):
                v = sub.loc[m, src] if m in sub.index else None
                row[col] = float("nan") if v is None or pd.isna(v) else float(v)
        if bertscore and "bertscore_f1" in corpus.documents.columns:
            docs = corpus.documents
            ids = set(df.loc[dmask, "run_id"])
            row["bertscore_f1"] = float(docs.loc[docs["doc_id"].isin(ids), "bertscore_f1"].mean())
        fmask = pd.Series(True, index=failed.index)
        for g in group_cols:
            if g in failed.columns:
                fmask &= failed[g].astype(str) == str(row[g])
        row["n_failed"] = int(fmask.sum()) if len(failed) else 0
        out_rows.append(row)
    return pd.DataFrame(out_rows)


def plot_table(
    table: pd.DataFrame,
    path: str | os.PathLike[str] | None = None,
    *,
    group_cols: Sequence[str] = ("system", "task", "condition"),
    metrics: Sequence[str] = TABLE2_METRICS,
) -> Any:
    """Bars of Table 2 per system / task / condition with bootstrap CIs (``cuelex.plots.metric_bars``).

    Saved to ``path`` (.png, .svg or .pdf) and the path returned; without a path the matplotlib
    Figure is returned. Needs matplotlib (``pip install "cuelex[plots]"``).
    """
    frame = table  # <metric>_ci_low/_ci_high: the names the plots read
    for col in ("system", "task", "condition"):
        if col not in group_cols and col in frame.columns:
            frame = frame.drop(columns=col)
    fig = metric_bars(frame, metrics=metrics, fmt="figure", title="Uncertainty preservation (Table 2)")
    return save_figure(fig, path)
