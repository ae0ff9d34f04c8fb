"""The local build (chunks, worker processes, a resumable work directory) and the demo benchmark.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import logging
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from .._version import __version__
from ..corpus import (
    Document,
    InputError,
    Problem,
    read_documents,
)
from ..corpus import demo_corpus_path as demo_corpus
from ..extraction.sections import get_sectionizer
from ..levels import PAPER_LEVELS, Level
from ..resources import default_lexicon_dir, default_rules_dir
from .files import atomic_write_text
from .format import BenchError
from .inputs import InputOptions, InputSpec, _fingerprint
from .results import BuildResult, ChunkSummary, _finish
from .screening import (
    BuildOptions,
    _add_counts,
    _Candidate,
    _PartitionResult,
    _Pipeline,
    _process,
    Selector,
    build_options,
)
from .validation import export_validation

__all__ = [
    "build",
    "demo",
    "demo_corpus",
]

log = logging.getLogger(__name__)

_WORK_FORMAT = 1  # layout version of the work directory (manifest + chunk files)


# ==================================================================================================
# Local build: chunks, worker processes, resumable work directory
# ==================================================================================================

_WORKER: _Pipeline | None = None


def _init_worker(options: BuildOptions) -> None:
    global _WORKER
    _WORKER = _Pipeline(options, own_linker=True).warm()


def _ping(_: int) -> int:
    return os.getpid()


@dataclass
class _ChunkTask:
    chunk: str
    source: str
    docs: list[Document]
    spec: InputSpec
    options: BuildOptions
    thresholds: dict[str, tuple[int, str, str]]
    path: Path


def _chunk_header(task: _ChunkTask, res: _PartitionResult) -> dict[str, Any]:
    return {
        "work_format": _WORK_FORMAT,
        "chunk": task.chunk,
        "source": task.source,
        "source_documents": res.source_documents,
        "first_id": task.docs[0].id if task.docs else None,
        "last_id": task.docs[-1].id if task.docs else None,
        "without_sections": res.without_sections,
        "counts": res.counts,
        "problems": [[p.source, p.row, p.message] for p in res.problems],
    }


def _run_chunk(
    task: _ChunkTask, pipeline: _Pipeline | None = None
) -> tuple[ChunkSummary, list[_Candidate]]:
    """Process one chunk and write its result file atomically (temp file, fsync, rename)."""
    pipe = pipeline or _WORKER or _Pipeline(task.options, own_linker=True)
    res = _process(
        task.docs, task.spec, task.options, pipe, source=task.source, thresholds=task.thresholds
    )
    tmp = task.path.with_name(f".{task.path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=3, mtime=0) as gz:
            w = io.TextIOWrapper(gz, encoding="utf-8")
            w.write(json.dumps(_chunk_header(task, res)) + "\n")
            for c in res.candidates:
                w.write(
                    json.dumps(
                        {
                            "key": list(c.key),
                            "doc_type": c.doc_type,
                            "doc_id": c.doc_id,
                            "record": c.record,
                        }
                    )
                    + "\n"
                )
            w.write(json.dumps({"end": True, "candidates": len(res.candidates)}) + "\n")
            w.flush()
            w.detach()
        raw.flush()
        os.fsync(raw.fileno())
    os.replace(tmp, task.path)
    summary = ChunkSummary(
        task.chunk,
        task.source,
        res.source_documents,
        sum(c["documents"] for c in res.counts.values()),
        len(res.candidates),
        resumed=False,
    )
    return summary, [_Candidate(c.key, c.doc_type, c.doc_id) for c in res.candidates]


def _read_chunk(path: Path) -> tuple[dict[str, Any], list[_Candidate]]:
    """A chunk file's header and candidates; BenchError if it is incomplete or corrupt."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            lines = fh.read().splitlines()
        header = json.loads(lines[0])
        footer = json.loads(lines[-1])
        if header.get("work_format") != _WORK_FORMAT or footer.get("end") is not True:
            raise ValueError("missing header or end marker")
        body = lines[1:-1]
        if footer.get("candidates") != len(body):
            raise ValueError(f"{len(body)} candidates, end marker says {footer.get('candidates')}")
        cands = []
        for line in body:
            d = json.loads(line)
            cands.append(_Candidate(tuple(d["key"]), d["doc_type"], d["doc_id"], d["record"]))  # type: ignore[arg-type]
        return header, cands
    except (OSError, EOFError, IndexError, KeyError, ValueError, gzip.BadGzipFile) as exc:
        raise BenchError(f"{path}: unreadable chunk file ({exc})") from None


class _WorkDir:
    """``manifest.json`` (settings, inputs, progress) and ``chunks/<input>-<chunk>.jsonl.gz``.

    A chunk file exists only once complete (written to a temp file, then renamed), so the files
    themselves say which chunks are done; the manifest pins the settings and inputs they belong to.
    """

    def __init__(self, path: Path, config: dict[str, Any], restart: bool):
        self.path = path
        self.chunks = path / "chunks"
        self.manifest = path / "manifest.json"
        self.config = config
        path.mkdir(parents=True, exist_ok=True)
        if restart:
            if self.chunks.is_dir():
                shutil.rmtree(self.chunks)
            self.manifest.unlink(missing_ok=True)
        if self.manifest.is_file():
            try:
                old = json.loads(self.manifest.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise BenchError(
                    f"{self.manifest}: unreadable manifest ({exc}); use --restart to discard this work directory"
                ) from None
            if old.get("config") != config:
                diff = sorted(
                    k
                    for k in set(old.get("config", {})) | set(config)
                    if old.get("config", {}).get(k) != config.get(k)
                )
                raise BenchError(
                    f"{path} holds a run with different settings or inputs (differs in: {', '.join(diff)}); "
                    "use another work directory, or --restart (restart=True) to discard it"
                )
        elif self.chunks.is_dir() and any(self.chunks.iterdir()):
            raise BenchError(
                f"{path}: chunk files without a manifest; use --restart (restart=True) to discard them"
            )
        self.chunks.mkdir(exist_ok=True)
        for tmp in self.chunks.glob(".*.tmp"):  # left behind by a killed run
            tmp.unlink(missing_ok=True)
        self.done = len(self.existing())
        self.write_manifest(finished=False)

    def chunk_path(self, chunk: str) -> Path:
        return self.chunks / f"{chunk}.jsonl.gz"

    def existing(self) -> dict[str, Path]:
        return {p.name[: -len(".jsonl.gz")]: p for p in self.chunks.glob("*.jsonl.gz")}

    def write_manifest(self, finished: bool) -> None:
        data = {
            "work_format": _WORK_FORMAT,
            "config": self.config,
            "chunks_done": self.done,
            "finished": finished,
            "updated": time.strftime("%Y-%m-%dT%H:%M:%S"),
        }
        atomic_write_text(self.manifest, json.dumps(data, indent=1) + "\n")


def _resources_digest() -> str:
    h = hashlib.sha256()
    for d in (default_lexicon_dir(), default_rules_dir()):
        for p in sorted(d.glob("*.yaml")):
            h.update(p.name.encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


def default_workers() -> int:
    """Worker processes a build uses by default: the CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _chunked(docs: Iterable[Document], size: int) -> Iterator[list[Document]]:
    chunk: list[Document] = []
    for d in docs:
        chunk.append(d)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def build(
    inputs: str | Path | Sequence[str | Path],
    *,
    input_format: str = "auto",
    output: str | Path | None = None,
    per_type: int = 200,
    seed: int = 0,
    workers: int = 1,
    work_dir: str | Path | None = None,
    chunk_size: int = 500,
    min_levels: int = 2,
    coverage: Sequence[Level | str] = PAPER_LEVELS,
    link: bool = True,
    vocabulary: str | Path | None = None,
    text_col: str | None = None,
    id_col: str | None = None,
    type_col: str | None = None,
    doc_type: str | None = None,
    sections: str | Sequence[str] | None = None,
    progress: bool | None = None,
    restart: bool = False,
    on_chunk: Callable[[ChunkSummary], None] | None = None,
    options: BuildOptions | None = None,
    reading: InputOptions | None = None,
) -> BuildResult:
    """Build a benchmark from note collections (see the module docstring for the steps).

    ``inputs``: files or folders (MIMIC-IV-Note discharge/radiology CSV(.gz), TCGA CSV, any
    CSV/TSV/JSONL(.gz) with a text column, folders of .txt). ``input_format`` applies to all
    inputs ("auto": detected per input from its name and columns). Inputs are streamed in chunks
    of ``chunk_size`` notes over ``workers`` processes; with ``work_dir`` each finished chunk is
    kept there and a rerun with the same settings skips it. ``progress``: None shows a bar on a
    terminal only, False never. ``on_chunk`` is called after each chunk (finished or resumed).
    Rows that cannot be read and documents that fail are skipped and listed in ``problems``.
    With ``output`` the benchmark JSONL and its statistics (``.stats.json``, ``.stats.md``) are
    written.

    ``options`` (:class:`BuildOptions`: per_type, seed, min_levels, coverage, link, vocabulary) and
    ``reading`` (:class:`InputOptions`: input_format and the column overrides) may be given as
    objects instead of those keywords.
    """
    options, reading = build_options(options, reading, input_format=input_format, flat=dict(
        per_type=per_type, seed=seed, min_levels=min_levels, coverage=coverage, link=link,
        vocabulary=vocabulary, text_col=text_col, id_col=id_col, type_col=type_col,
        doc_type=doc_type, sections=sections))  # fmt: skip
    t0 = time.perf_counter()
    paths = [Path(inputs)] if isinstance(inputs, (str, Path)) else [Path(p) for p in inputs]
    if not paths:
        raise BenchError("no inputs given")
    for p in paths:
        if not p.exists():
            raise InputError(f"{p}: file not found")
    if not isinstance(workers, int) or workers < 1:
        raise BenchError(f"workers must be a positive integer, got {workers!r}")
    if not isinstance(chunk_size, int) or chunk_size < 1:
        raise BenchError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    specs = [reading.spec(p) for p in paths]
    config = {
        "cuelex": __version__,
        "resources": _resources_digest(),
        "options": options.config(),
        "chunk_size": chunk_size,
        "inputs": [{**_fingerprint(p), **s.to_dict()} for p, s in zip(paths, specs, strict=True)],
    }
    # warm once, before any fork: engine, sectionizers, concept index (built on first use)
    pipeline = _Pipeline(options)
    for s in specs:
        if s.sections:
            get_sectionizer(s.sections if len(s.sections) > 1 else s.sections[0])
    if pipeline.linker is not None:
        _ = pipeline.linker.index_path
        _ = pipeline.linker.index
        if workers == 1:
            pipeline.warm()

    tmp_dir = None
    if work_dir is None:
        tmp_dir = tempfile.TemporaryDirectory(prefix="cuelex-bench-")
        work_dir = tmp_dir.name
    try:
        wd = _WorkDir(Path(work_dir), config, restart)
        return _run_local(
            paths,
            specs,
            options,
            pipeline,
            wd,
            workers,
            chunk_size,
            progress,
            on_chunk,
            output,
            config,
            t0,
        )
    finally:
        if tmp_dir is not None:
            tmp_dir.cleanup()


def _run_local(
    paths: list[Path],
    specs: list[InputSpec],
    options: BuildOptions,
    pipeline: _Pipeline,
    wd: _WorkDir,
    workers: int,
    chunk_size: int,
    progress: bool | None,
    on_chunk: Callable[[ChunkSummary], None] | None,
    output: str | Path | None,
    config: dict[str, Any],
    t0: float,
) -> BuildResult:
    existing = wd.existing()
    running = Selector(options.per_type)  # keys only: thresholds for pruning
    order: list[str] = []
    read_problems: list[Problem] = []
    resumed = 0

    executor: ProcessPoolExecutor | None = None
    if workers > 1:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork") if "fork" in methods else None
        executor = ProcessPoolExecutor(
            max_workers=workers, mp_context=ctx, initializer=_init_worker, initargs=(options,)
        )
        # start and warm the workers now, before tqdm starts its monitor thread
        list(executor.map(_ping, range(workers)))
    pending: dict[Future, _ChunkTask] = {}
    bar = tqdm(
        desc="cuelex bench",
        unit=" notes",
        disable=None if progress is None else not progress,
        file=sys.stderr,
        mininterval=0.5,
        dynamic_ncols=True,
    )

    def finished(summary: ChunkSummary, keys: list[_Candidate]) -> None:
        for c in keys:
            running.add(c)
        wd.done += 1
        wd.write_manifest(finished=False)
        bar.update(summary.source_documents)
        if on_chunk is not None:
            on_chunk(summary)

    def drain(block_until: int) -> None:
        while len(pending) > block_until:
            done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for fut in done:
                task = pending.pop(fut)
                try:
                    summary, keys = fut.result()
                except Exception as exc:
                    raise BenchError(
                        f"chunk {task.chunk} of {task.source} failed: {type(exc).__name__}: {exc}"
                    ) from exc
                finished(summary, keys)

    try:
        for i, (path, spec) in enumerate(zip(paths, specs, strict=True)):
            docs = read_documents(
                path,
                text_col=spec.text_col,
                id_col=spec.id_col,
                type_col=spec.type_col,
                problems=read_problems,
            )
            for n, chunk in enumerate(_chunked(docs, chunk_size)):
                cid = f"{i:03d}-{n:07d}"
                order.append(cid)
                if cid in existing:
                    try:
                        header, cands = _read_chunk(existing[cid])
                    except BenchError as exc:
                        log.warning("%s; processing the chunk again", exc)
                        existing.pop(cid)
                    else:
                        got = (header["source_documents"], header["first_id"], header["last_id"])
                        want = (len(chunk), chunk[0].id, chunk[-1].id)
                        if got != want:
                            raise BenchError(
                                f"{existing[cid]}: the input changed since this chunk was made (it covers {got}, "
                                f"the input now gives {want}); use --restart"
                            )
                        resumed += 1
                        for c in cands:
                            running.add(c)
                        bar.update(len(chunk))
                        if on_chunk is not None:
                            on_chunk(
                                ChunkSummary(
                                    cid,
                                    str(path),
                                    len(chunk),
                                    sum(c["documents"] for c in header["counts"].values()),
                                    len(cands),
                                    resumed=True,
                                )
                            )
                        continue
                task = _ChunkTask(
                    cid, str(path), chunk, spec, options, running.thresholds(), wd.chunk_path(cid)
                )
                if executor is None:
                    finished(*_run_chunk(task, pipeline))
                else:
                    drain(block_until=2 * workers - 1)
                    pending[executor.submit(_run_chunk, task)] = task
        drain(block_until=0)
    except BaseException:
        if executor is not None:
            # queued chunks are dropped; running ones still finish and their files are kept
            executor.shutdown(wait=True, cancel_futures=True)
            executor = None
        raise
    finally:
        bar.close()
        if executor is not None:
            executor.shutdown(wait=True)

    # final merge, in input order: deterministic whatever order the chunks finished in
    selector = Selector(options.per_type)
    counts: dict[str, dict[str, Any]] = {}
    problems = list(read_problems)
    source_docs = without = 0
    for cid in order:
        header, cands = _read_chunk(wd.chunk_path(cid))
        for c in cands:
            selector.add(c)
        _add_counts(counts, header["counts"])
        source_docs += header["source_documents"]
        without += header["without_sections"]
        problems.extend(Problem(*p) for p in header["problems"])
    wd.write_manifest(finished=True)
    result = _finish(selector, counts, source_docs, without, problems, options, config, output)
    result.chunks = len(order)
    result.chunks_resumed = resumed
    result.seconds = time.perf_counter() - t0
    return result


# ==================================================================================================
# Demo
# ==================================================================================================


def demo(
    output_dir: str | Path = "out", *, per_type: int = 200, seed: int = 0, progress: bool = False
) -> dict[str, Any]:
    """Build a benchmark from the embedded demo corpus (whole notes, type ``visit_note``).

    Writes ``demo_benchmark.jsonl`` (+ ``.stats.json``/``.stats.md``) and a reviewer sheet
    ``demo_validation.csv`` into ``output_dir``; returns the statistics (:func:`statistics`),
    with the pre-screening counts under ``"screening"``.
    """
    out = Path(output_dir)
    result = build(
        demo_corpus(),
        input_format="generic",
        doc_type="visit_note",
        per_type=per_type,
        seed=seed,
        workers=1,
        output=out / "demo_benchmark.jsonl",
        progress=progress,
    )
    export_validation(result.documents, out / "demo_validation.csv", seed=seed)
    return {**result.stats, "screening": result.screening}
