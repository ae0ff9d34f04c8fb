"""The real-text evaluation documents: which reports and sections, and their text.

The set is fixed by ``benchmark/data/realtext/documents.jsonl`` (ids, source, tune/report split,
whether the document has rewrites). Chest X-ray report text is never copied into the project (its
licence forbids it): it is read from ``../shared/data/eval/iu_cxr_dev.jsonl`` at run time. The
ACI-BENCH sections (CC BY 4.0) are cut from the embedded demo corpus.

``python benchmark/realtext_docs.py --select`` re-creates the first batch (seeded; run once, the
list is committed); ``--extend 40 14 2`` appended the second batch (hedge-bearing reports and more
sections, no rewrites); ``--extend 30 20 3 --rewrites 12 --batch 3`` the third (24 of them with
rewrites); ``--export FILE`` writes the texts for annotators.

``--add-written FILE --batch N`` appends assessment-and-plan sections written for the project by a
helper playing a scribe (ids ``wp:…``, text kept in ``written_plans.jsonl``). They form their own
split, ``written``: blind-annotated development data for dictated plans, never part of the tune or
report halves (the report half stays real text).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DATA = ROOT / "data" / "realtext"
DOCS_FILE = DATA / "documents.jsonl"
IU_FILE = ROOT.parent.parent / "shared" / "data" / "eval" / "iu_cxr_dev.jsonl"
ACI_FILE = ROOT.parent / "cuelex" / "data" / "aci_bench_notes.jsonl"
WRITTEN_FILE = DATA / "written_plans.jsonl"

# Words that make a report worth hedge annotation; chosen by the selector, not taken from the
# lexicons (selection must not depend on what the rules already find).
_HEDGY = re.compile(
    r"\b(may|might|could|possib\w*|probab\w*|likely|suggest\w*|concern\w*|cannot|versus|vs|"
    r"question\w*|indeterminate|suspicio\w*|favor\w*|consistent with|compatible with|"
    r"differential|unclear|equivocal|represent\w*|or)\b|\?",
    re.I,
)
# From batch 9 on: the same words without a bare "or", which let negation-only reports through
# ("No pneumothorax or effusion") and gave batch 8 only 14 hedged pairs in 24 reports.
_HEDGY_STRICT = re.compile(_HEDGY.pattern.replace("|or)", ")"), re.I)
_HEADER = re.compile(r"^([A-Z][A-Z /&]{3,})\s*$", re.M)


def iu_text(report: dict) -> str:
    """One chest X-ray report as the annotators saw it: findings, then impression."""
    return f"FINDINGS: {report['findings'].strip()}\nIMPRESSION: {report['impression'].strip()}"


def aci_section(note_text: str) -> str | None:
    """The assessment-and-plan part of an ACI-BENCH note (ASSESSMENT AND PLAN, or both parts)."""
    heads = [(m.group(1).strip(), m.start(), m.end()) for m in _HEADER.finditer(note_text)]
    parts = []
    for i, (name, _start, end) in enumerate(heads):
        if name in {"ASSESSMENT AND PLAN", "ASSESSMENT", "PLAN"}:
            stop = heads[i + 1][1] if i + 1 < len(heads) else len(note_text)
            body = note_text[end:stop].strip()
            if body:
                parts.append(body if name == "ASSESSMENT AND PLAN" else f"{name}: {body}")
    return "\n\n".join(parts) if parts else None


def read_jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def select(seed: int = 20261122) -> list[dict]:
    """Seeded selection: 45 IU reports (30 with hedge-like wording, 15 any) and 25 ACI sections."""
    rng = random.Random(seed)
    reports = [r for r in read_jsonl(IU_FILE) if r.get("findings") and r.get("impression")]
    hedgy = [r for r in reports if _HEDGY.search(iu_text(r))]
    rng.shuffle(hedgy)
    chosen_iu = hedgy[:30]
    rest = [r for r in reports if r not in chosen_iu]
    rng.shuffle(rest)
    chosen_iu += rest[:15]
    notes = read_jsonl(ACI_FILE)
    sections = []
    for note in notes:
        section = aci_section(note["text"])
        if section and 300 <= len(section) <= 1500:
            sections.append(note["id"])
    rng.shuffle(sections)
    chosen_aci = sections[:25]
    docs = [{"doc_id": f"iu:{r['uid']}", "source": "iu_cxr"} for r in chosen_iu]
    docs += [{"doc_id": f"aci:{nid}", "source": "aci_bench"} for nid in chosen_aci]
    # Rewrites: the first 12 hedge-bearing IU reports and the first 12 ACI sections.
    rewrite_ids = {d["doc_id"] for d in docs[:12]} | {d["doc_id"] for d in docs[45:57]}
    # Split by document, balanced within (source, rewrite) strata.
    out = []
    for key in [("iu_cxr", True), ("iu_cxr", False), ("aci_bench", True), ("aci_bench", False)]:
        group = [d for d in docs if (d["source"], d["doc_id"] in rewrite_ids) == key]
        rng.shuffle(group)
        for i, doc in enumerate(group):
            out.append({**doc, "rewrites": key[1], "split": "tune" if i % 2 == 0 else "report"})
    return sorted(out, key=lambda d: d["doc_id"])


def probe_documents(data_dir: Path | None = None) -> set[str]:
    """Documents that probe files name ("doc" / "doc_id"): rules were tuned on their sentences, so a
    new batch must not take them (batch 14 did, before this existed: docs/realtext-data.md)."""
    named: set[str] = set()
    for path in sorted((data_dir or Path(__file__).parent / "data").glob("*probe*.jsonl")):
        for row in read_jsonl(path):
            for key in ("doc", "doc_id"):
                if isinstance(row.get(key), str):
                    named.add(row[key])
    return named


def extend(
    existing: list[dict], n_iu: int, n_aci: int, seed: int, n_rewrites: int = 0, batch: int = 2,
    strict: bool = False, aci_max_chars: int = 1500,
) -> list[dict]:
    """A further seeded batch of hedge-bearing IU reports and ACI sections, disjoint from the list.

    The first ``n_rewrites`` documents of each source get rewrites; documents are split half tune,
    half report within each (source, has rewrites) group. ``strict`` selects IU reports by
    ``_HEDGY_STRICT`` (no bare "or"). ``aci_max_chars`` raises the 1,500-character cap on ACI
    sections once the shorter ones are used up. Documents named by probe files are never taken.
    """
    rng = random.Random(seed)
    have = {d["doc_id"] for d in existing} | probe_documents()
    reports = [r for r in read_jsonl(IU_FILE) if r.get("findings") and r.get("impression")]
    words = _HEDGY_STRICT if strict else _HEDGY
    hedgy = [r for r in reports if words.search(iu_text(r)) and f"iu:{r['uid']}" not in have]
    rng.shuffle(hedgy)
    notes = read_jsonl(ACI_FILE)
    sections = [
        n["id"]
        for n in notes
        if f"aci:{n['id']}" not in have
        and 300 <= len(aci_section(n["text"]) or "") <= aci_max_chars
    ]
    rng.shuffle(sections)
    new = [{"doc_id": f"iu:{r['uid']}", "source": "iu_cxr"} for r in hedgy[:n_iu]]
    new += [{"doc_id": f"aci:{nid}", "source": "aci_bench"} for nid in sections[:n_aci]]
    out = []
    for source in ("iu_cxr", "aci_bench"):
        group = [d for d in new if d["source"] == source]
        for rewrites in (True, False):
            part = group[:n_rewrites] if rewrites else group[n_rewrites:]
            for i, doc in enumerate(part):
                split = "tune" if i % 2 == 0 else "report"
                out.append({**doc, "rewrites": rewrites, "split": split, "batch": batch})
    return existing + out


def promote(
    existing: list[dict], gold: list[dict], n_each: int, seed: int, batch: int,
    sources: tuple[str, ...] = ("iu_cxr", "aci_bench"),
) -> list[dict]:
    """Give rewrites to ``n_each`` annotated documents per (source, split) that had none.

    ``sources`` limits the promotion to some sources (rewrites of ACI-BENCH sections may be kept in
    the project; those of IU reports only outside it).

    Only documents with at least one hedged (UL2–UL5) gold pair qualify, so that each new source
    carries the certainty the rewrites are scored on; a document keeps its split (a report-half
    document stays report-only) and records the batch of its rewrites as ``rewrites_batch``.
    """
    rng = random.Random(seed)
    hedged = {g["doc_id"] for g in gold if g.get("level") in {"UL2", "UL3", "UL4", "UL5"}}
    chosen: set[str] = set()
    for source in sources:
        for split in ("tune", "report"):
            pool = sorted(
                d["doc_id"]
                for d in existing
                if d["source"] == source and d["split"] == split and not d["rewrites"]
                and d["doc_id"] in hedged
            )
            rng.shuffle(pool)
            chosen.update(pool[:n_each])
    return [
        {**d, "rewrites": True, "rewrites_batch": batch} if d["doc_id"] in chosen else d
        for d in existing
    ]


def add_written(existing: list[dict], path: Path, batch: int) -> list[dict]:
    """Append the written sections in ``path`` (``doc_id`` ``wp:…``, ``text``) to the list, their
    text to ``written_plans.jsonl``; all go to the ``written`` split (development data only)."""
    have = {d["doc_id"] for d in existing}
    rows = read_jsonl(path)
    bad = [r.get("doc_id") for r in rows if not str(r.get("doc_id", "")).startswith("wp:") or not r.get("text")]
    if bad:
        raise SystemExit(f"{path}: rows need a 'wp:' doc_id and a text: {bad[:3]}")
    new = [r for r in rows if r["doc_id"] not in have]
    with WRITTEN_FILE.open("a", encoding="utf-8") as handle:
        for r in new:
            handle.write(json.dumps({"doc_id": r["doc_id"], "text": r["text"]}, ensure_ascii=False) + "\n")
    return existing + [
        {"doc_id": r["doc_id"], "source": "written_plans", "rewrites": False, "split": "written", "batch": batch}
        for r in new
    ]


def write_documents(docs: list[dict]) -> None:
    """Rewrite documents.jsonl with ``docs`` (ids, source, split, rewrite flags; never text)."""
    with DOCS_FILE.open("w", encoding="utf-8") as handle:
        for doc in docs:
            handle.write(json.dumps(doc) + "\n")


def tune_fold(doc_id: str) -> str:
    """Fold "a" or "b" of a document: a stable hash of its id, to check inside the tune half that a
    rule developed on one fold also helps the other (a guard against fitting rows)."""
    return "ab"[zlib.crc32(doc_id.encode("utf-8")) % 2]


def load_documents(docs_file: Path = DOCS_FILE, iu_file: Path = IU_FILE) -> list[dict]:
    """The evaluation documents with their text (IU text read from shared/)."""
    docs = read_jsonl(docs_file)
    iu = {f"iu:{r['uid']}": r for r in read_jsonl(iu_file)} if iu_file.exists() else {}
    aci = {f"aci:{n['id']}": n for n in read_jsonl(ACI_FILE)}
    written = {r["doc_id"]: r["text"] for r in read_jsonl(WRITTEN_FILE)} if WRITTEN_FILE.exists() else {}
    out = []
    for doc in docs:
        if doc["doc_id"].startswith("iu:"):
            if doc["doc_id"] not in iu:
                raise FileNotFoundError(f"{iu_file} is needed for {doc['doc_id']}")
            text = iu_text(iu[doc["doc_id"]])
        elif doc["doc_id"].startswith("wp:"):
            text = written[doc["doc_id"]]
        else:
            text = aci_section(aci[doc["doc_id"]]["text"]) or ""
        out.append({**doc, "text": text})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--select", action="store_true", help="re-create documents.jsonl")
    parser.add_argument("--export", type=Path, help="write one JSONL of texts for annotators")
    parser.add_argument("--extend", nargs=3, type=int, metavar=("N_IU", "N_ACI", "SEED"),
                        help="append a further batch of documents to documents.jsonl")
    parser.add_argument("--rewrites", type=int, default=0, metavar="K",
                        help="with --extend: the first K new documents of each source get rewrites")
    parser.add_argument("--strict", action="store_true",
                        help="with --extend: select IU reports without counting a bare 'or'")
    parser.add_argument("--aci-max-chars", type=int, default=1500, metavar="N",
                        help="with --extend: longest ACI section taken (default 1500)")
    parser.add_argument("--batch", type=int, default=2,
                        help="with --extend or --promote: the batch number")
    parser.add_argument("--promote", nargs=2, type=int, metavar=("N_EACH", "SEED"),
                        help="give rewrites to N_EACH annotated hedge-bearing documents per source "
                        "and split that have none")
    parser.add_argument("--promote-source", choices=["iu_cxr", "aci_bench"], action="append",
                        help="with --promote: only documents of this source (repeatable; default both)")
    parser.add_argument("--add-written", type=Path, metavar="FILE",
                        help="append written assessment-and-plan sections (JSONL doc_id wp:…, text) "
                        "as the 'written' split, with --batch")
    args = parser.parse_args()
    if args.add_written:
        write_documents(add_written(read_jsonl(DOCS_FILE), args.add_written, batch=args.batch))
    if args.select:
        DATA.mkdir(parents=True, exist_ok=True)
        write_documents(select())
    if args.extend:
        docs = extend(read_jsonl(DOCS_FILE), *args.extend, n_rewrites=args.rewrites, batch=args.batch,
                      strict=args.strict, aci_max_chars=args.aci_max_chars)
        write_documents(docs)
    if args.promote:
        gold = read_jsonl(DATA / "gold_pairs.jsonl")
        sources = tuple(args.promote_source or ("iu_cxr", "aci_bench"))
        docs = promote(read_jsonl(DOCS_FILE), gold, *args.promote, batch=args.batch, sources=sources)
        write_documents(docs)
    if args.export:
        with args.export.open("w", encoding="utf-8") as handle:
            for doc in load_documents():
                handle.write(json.dumps(doc, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
