"""Import the annotators' files into the project's gold files (offsets, labels; no report text).

    python benchmark/realtext_import.py --pairs A.jsonl:C1 B.jsonl:C2 ... --fates F.jsonl ... \
        --outputs O.jsonl ...
    python benchmark/realtext_import.py --append --pairs NEW.jsonl:G10 ...   # a further batch
    python benchmark/realtext_import.py --append --outputs O.jsonl --fates F.jsonl
    python benchmark/realtext_import.py --second E.jsonl:E1 G.jsonl:G6   # the agreement re-annotations
    python benchmark/realtext_import.py --second-fates F.jsonl    # a second reader's fates

Pairs are converted to offsets (:func:`realtext_gold.convert`) and written to
``benchmark/data/realtext/gold_pairs.jsonl``; fates and outputs are checked (every output has a
fate for every gold pair of its source; evidence occurs in the output) and written to
``benchmark/data/rewrites_dev/``. Notes are kept for ACI-BENCH documents only (IU notes may quote
report text, which the project must not hold).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from realtext_docs import DATA, load_documents, read_jsonl
from realtext_gold import GOLD_FILE, PRIVATE_REWRITES, REWRITES, convert, load_rewrites


def import_second_fates(path: Path, reader: str = "F7", append: bool = False) -> None:
    """Split a second reader's fates by licence (IU-derived outside the project) and write them.

    Each row records its ``reader``; with ``append`` the rows join the second fates already stored
    (a reader's earlier rows for the same output and pair are replaced), so that several second
    readings of different batches sit in one file.
    """
    outputs, _fates, _private = load_rewrites()
    doc_of = {o["output_id"]: o["doc_id"] for o in outputs}
    text_of = {o["output_id"]: o["text"] for o in outputs}
    fates = read_jsonl(path)
    unknown = [f["output_id"] for f in fates if f["output_id"] not in doc_of]
    if unknown:
        raise SystemExit(f"{path}: fates for unknown outputs: {unknown[:3]}")
    for f in fates:
        ev = f.get("evidence") or ""
        if ev and ev not in text_of[f["output_id"]]:
            print(f"warning: evidence not in output: {f['output_id']} {f['pair_id']}")
    keys = ("output_id", "pair_id", "fate", "evidence", "note")
    for folder, private in ((REWRITES, False), (PRIVATE_REWRITES, True)):
        mine = [{**{k: f.get(k, "") for k in keys}, "reader": reader}
                for f in fates if doc_of[f["output_id"]].startswith("iu:") is private]
        target = folder / "second_fates.jsonl"
        if append and target.exists():
            stored = [{**f, "reader": f.get("reader", "F7")} for f in read_jsonl(target)]
            mine = _replace_rows(stored, mine, ("output_id", "pair_id", "reader"))
        if not mine and not target.exists():  # nothing to store, nothing stored
            continue
        _write_jsonl(target, mine)
        print(f"{folder}: {len(mine)} second fates")


def _replace_rows(stored: list[dict], new: list[dict], key: tuple[str, ...]) -> list[dict]:
    """The stored rows whose ``key`` fields no new row shares, then the new rows (an append that
    replaces a reader's or annotator's earlier rows for the same item)."""
    new_keys = {tuple(r[k] for k in key) for r in new}
    return [r for r in stored if tuple(r[k] for k in key) not in new_keys] + new


def _write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def import_pairs(specs: list[str], texts: dict[str, str], append: bool = False) -> list[dict]:
    """Annotators' pair files (``FILE:ANNOTATOR``) → the gold file; returns all gold rows.

    With ``append`` the new documents are added to the gold file as it stands (the annotators'
    files of earlier batches need not exist); a document already in it is an error, never replaced.
    """
    rows: list[dict] = []
    notes: dict[str, str] = {}
    for spec in specs:
        path, annotator = spec.rsplit(":", 1)
        raw = read_jsonl(Path(path))
        for r in raw:
            if r.get("pair_id") and r.get("note") and not r["doc_id"].startswith("iu:"):
                notes[r["pair_id"]] = r["note"]
        rows += convert(raw, texts, annotator)
    for r in rows:
        if r.get("pair_id") in notes:
            r["note"] = notes[r["pair_id"]]
    if append:
        old = read_jsonl(GOLD_FILE)
        clash = sorted({r["doc_id"] for r in old} & {r["doc_id"] for r in rows})
        if clash:
            raise SystemExit(f"--append: already in {GOLD_FILE.name}: {clash[:5]}")
        new_docs = len({r["doc_id"] for r in rows})
        rows = old + rows
    ids = [r["pair_id"] for r in rows if r["pair_id"]]
    assert len(ids) == len(set(ids)), "duplicate pair ids"
    _write_jsonl(GOLD_FILE, rows)
    added = f" ({new_docs} documents added)" if append else ""
    print(f"{len(ids)} gold pairs in {len({r['doc_id'] for r in rows})} documents{added}")
    return rows


def import_rewrites(output_files: list[str], fate_files: list[str], gold_rows: list[dict],
                    append: bool = False) -> None:
    """Writers' outputs and readers' fates → ``rewrites_dev/`` (IU-derived ones outside the project).

    Every output should have a fate for every gold pair of its source and every evidence string must
    occur in its output (both reported). With ``append`` the new outputs join those already stored;
    an output id already stored is an error, never replaced.
    """
    outputs = [o for p in output_files for o in read_jsonl(Path(p))]
    fates = [f for p in fate_files for f in read_jsonl(Path(p))]
    by_out = {o["output_id"]: o for o in outputs}
    assert len(by_out) == len(outputs), "duplicate output ids"
    pairs_by_doc: dict[str, set[str]] = {}
    for r in gold_rows:
        if r["pair_id"]:
            pairs_by_doc.setdefault(r["doc_id"], set()).add(r["pair_id"])
    have = {(f["output_id"], f["pair_id"]) for f in fates}
    for o in outputs:
        for pid in sorted(pairs_by_doc.get(o["doc_id"], ())):
            if (o["output_id"], pid) not in have:
                print(f"warning: no fate for {o['output_id']} {pid}")
    unknown = [f["output_id"] for f in fates if f["output_id"] not in by_out]
    assert not unknown, f"fates for unknown outputs: {unknown[:3]}"
    clean = []
    for f in fates:
        ev = f.get("evidence") or ""
        if ev and ev not in by_out[f["output_id"]]["text"]:
            print(f"warning: evidence not in output: {f['output_id']} {f['pair_id']} {ev!r}")
        clean.append({k: f.get(k, "") for k in ("output_id", "pair_id", "fate", "evidence", "note")})
    keep = ("output_id", "doc_id", "task", "prompt", "text", "writer", "batch")
    # Rewrites of IU reports are derivatives of CC BY-NC-ND text: written outside the project.
    for folder, private in ((REWRITES, False), (PRIVATE_REWRITES, True)):
        mine = [{k: o[k] for k in keep if k in o} for o in outputs if o["doc_id"].startswith("iu:") is private]
        ids = {o["output_id"] for o in mine}
        mine_fates = [f for f in clean if f["output_id"] in ids]
        if not mine and append:
            continue
        folder.mkdir(parents=True, exist_ok=True)
        if append and (folder / "outputs.jsonl").exists():
            old_out = read_jsonl(folder / "outputs.jsonl")
            clash = sorted(ids & {o["output_id"] for o in old_out})
            if clash:
                raise SystemExit(f"--append: outputs already stored: {clash[:5]}")
            mine = old_out + mine
            mine_fates = read_jsonl(folder / "fates.jsonl") + mine_fates
        _write_jsonl(folder / "outputs.jsonl", mine)
        _write_jsonl(folder / "fates.jsonl", mine_fates)
        print(f"{folder}: {len(mine)} outputs, {len(mine_fates)} fates")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", nargs="+", help="FILE:ANNOTATOR")
    parser.add_argument("--second", nargs="+", metavar="FILE:ANNOTATOR",
                        help="second, independent annotations of some documents (for agreement): "
                        "written to second_annotation.jsonl instead of the gold file (with --append: "
                        "added to the second annotations already stored)")
    parser.add_argument("--second-fates", metavar="FILE",
                        help="a second, independent reading of some outputs' fates (for agreement): "
                        "written to second_fates.jsonl beside the outputs")
    parser.add_argument("--reader", default="F7",
                        help="with --second-fates: the second reader's id, recorded on each row")
    parser.add_argument("--append", action="store_true",
                        help="add the new documents / outputs to the stored gold instead of rebuilding it "
                        "from every annotator's file")
    parser.add_argument("--fates", nargs="*", default=[])
    parser.add_argument("--outputs", nargs="*", default=[])
    args = parser.parse_args()
    docs = {d["doc_id"]: d for d in load_documents()}
    texts = {k: d["text"] for k, d in docs.items()}
    if args.second:
        second = []
        for spec in args.second:
            path, annotator = spec.rsplit(":", 1)
            second += convert(read_jsonl(Path(path)), texts, annotator)
        target = DATA / "second_annotation.jsonl"
        if args.append and target.exists():
            second = _replace_rows(read_jsonl(target), second, ("doc_id", "annotator"))
        _write_jsonl(target, second)
        print(f"{sum(1 for r in second if r['pair_id'])} pairs in {len({r['doc_id'] for r in second})} documents")
    if args.second_fates:
        import_second_fates(Path(args.second_fates), args.reader, append=args.append)
    if args.pairs:
        rows = import_pairs(args.pairs, texts, append=args.append)
    elif args.outputs:
        rows = read_jsonl(GOLD_FILE)
    else:
        return
    print(f"not annotated: {[d for d in docs if d not in {r['doc_id'] for r in rows}]}")
    if args.outputs:
        import_rewrites(args.outputs, args.fates, rows, append=args.append)


if __name__ == "__main__":
    main()
