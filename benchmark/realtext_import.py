"""Import the annotators' files into the project's gold files (offsets, labels; no report text).

    python benchmark/realtext_import.py --pairs A.jsonl:C1 B.jsonl:C2 ... --fates F.jsonl ... \
        --outputs O.jsonl ...
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


def import_second_fates(path: Path) -> None:
    """Split a second reader's fates by licence (IU-derived outside the project) and write them."""
    outputs, _fates, _private = load_rewrites()
    doc_of = {o["output_id"]: o["doc_id"] for o in outputs}
    text_of = {o["output_id"]: o["text"] for o in outputs}
    fates = read_jsonl(path)
    unknown = [f["output_id"] for f in fates if f["output_id"] not in doc_of]
    assert not unknown, f"fates for unknown outputs: {unknown[:3]}"
    for f in fates:
        ev = f.get("evidence") or ""
        if ev and ev not in text_of[f["output_id"]]:
            print(f"warning: evidence not in output: {f['output_id']} {f['pair_id']} {ev!r}")
    for folder, private in ((REWRITES, False), (PRIVATE_REWRITES, True)):
        mine = [f for f in fates if doc_of[f["output_id"]].startswith("iu:") is private]
        (folder / "second_fates.jsonl").write_text(
            "".join(json.dumps({k: f.get(k, "") for k in ("output_id", "pair_id", "fate", "evidence", "note")},
                               ensure_ascii=False) + "\n" for f in mine), encoding="utf-8")
        print(f"{folder}: {len(mine)} second fates")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", nargs="+", help="FILE:ANNOTATOR")
    parser.add_argument("--second", nargs="+", metavar="FILE:ANNOTATOR",
                        help="second, independent annotations of some documents (for agreement): "
                        "written to second_annotation.jsonl instead of the gold file")
    parser.add_argument("--second-fates", metavar="FILE",
                        help="a second, independent reading of some outputs' fates (for agreement): "
                        "written to second_fates.jsonl beside the outputs")
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
        (DATA / "second_annotation.jsonl").write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in second), encoding="utf-8")
        print(f"{sum(1 for r in second if r['pair_id'])} pairs in {len({r['doc_id'] for r in second})} documents")
    if args.second_fates:
        import_second_fates(Path(args.second_fates))
    if not args.pairs:
        return
    rows: list[dict] = []
    notes: dict[str, str] = {}
    for spec in args.pairs:
        path, annotator = spec.rsplit(":", 1)
        raw = read_jsonl(Path(path))
        for r in raw:
            if r.get("pair_id") and r.get("note") and r["doc_id"].startswith("aci:"):
                notes[r["pair_id"]] = r["note"]
        rows += convert(raw, texts, annotator)
    seen = {r["doc_id"] for r in rows}
    missing = [d for d in docs if d not in seen]
    for r in rows:
        if r.get("pair_id") in notes:
            r["note"] = notes[r["pair_id"]]
    ids = [r["pair_id"] for r in rows if r["pair_id"]]
    assert len(ids) == len(set(ids)), "duplicate pair ids"
    GOLD_FILE.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(ids)} gold pairs in {len(seen)} documents; not annotated: {missing}")
    if args.outputs:
        outputs = [o for p in args.outputs for o in read_jsonl(Path(p))]
        fates = [f for p in args.fates for f in read_jsonl(Path(p))]
        by_out = {o["output_id"]: o for o in outputs}
        pairs_by_doc: dict[str, set[str]] = {}
        for r in rows:
            if r["pair_id"]:
                pairs_by_doc.setdefault(r["doc_id"], set()).add(r["pair_id"])
        have = {(f["output_id"], f["pair_id"]) for f in fates}
        for o in outputs:
            for pid in pairs_by_doc.get(o["doc_id"], ()):
                if (o["output_id"], pid) not in have:
                    print(f"warning: no fate for {o['output_id']} {pid}")
        clean = []
        for f in fates:
            out = by_out[f["output_id"]]
            ev = f.get("evidence") or ""
            if ev and ev not in out["text"]:
                print(f"warning: evidence not in output: {f['output_id']} {f['pair_id']} {ev!r}")
            clean.append({k: f.get(k, "") for k in ("output_id", "pair_id", "fate", "evidence", "note")})
        keep = ("output_id", "doc_id", "task", "prompt", "text", "writer")
        doc_of = {o["output_id"]: o["doc_id"] for o in outputs}
        # Rewrites of IU reports are derivatives of CC BY-NC-ND text: written outside the project.
        for folder, private in ((REWRITES, False), (PRIVATE_REWRITES, True)):
            mine = [o for o in outputs if o["doc_id"].startswith("iu:") is private]
            ids = {o["output_id"] for o in mine}
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "outputs.jsonl").write_text(
                "".join(json.dumps({k: o[k] for k in keep if k in o}, ensure_ascii=False) + "\n" for o in mine),
                encoding="utf-8")
            (folder / "fates.jsonl").write_text(
                "".join(json.dumps(f, ensure_ascii=False) + "\n" for f in clean if f["output_id"] in ids),
                encoding="utf-8")
            print(f"{folder}: {len(mine)} outputs, {sum(f['output_id'] in ids for f in clean)} fates")
        assert all(f["output_id"] in doc_of for f in clean), "fate for an unknown output"


if __name__ == "__main__":
    main()
