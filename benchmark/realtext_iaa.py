"""Inter-annotator agreement on the real-text source pairs: how far two blind readers agree.

Second annotators, blind to cuelex and to the first annotation, re-annotated documents under the
same guidelines (``benchmark/data/realtext/second_annotation.jsonl``, offsets only): E1 24
documents of batches 1–2, G6 24 documents of batch 5, G9 16 tune-half documents drawn (seeded) among
those with a hedged gold pair (eighth session; 4 more of its 20 already had a second reading), G14
the 24 report documents of batch 9 (tenth session). This script compares the two annotations the way ``realtext_eval.py`` compares
cuelex with the gold set — pairs matched one to one by target overlap — and prints pair F1, level
agreement and Cohen's kappa on the matched pairs, for all pairs and for hedged pairs. The numbers
are the ceiling to read cuelex's accuracy against: a system cannot be expected to agree with one
annotator more than a second careful annotator does.

The same holds for the rewrite fates: second readers (blind to cuelex and to the first readers'
fates) read outputs again — F7 every output of batch 4, F16 and F17 the report half of batches 1–8,
F27 that of batch 12 (``second_fates.jsonl`` beside the outputs; the chest X-ray part outside the
project); the script prints how often the two readers give the same
fate, per task — the ceiling for ``rewrite_eval.py``'s "fate agrees with gold".

    python benchmark/realtext_iaa.py                 # print
    python benchmark/realtext_iaa.py --write-docs    # also write the block in docs/realtext-data.md
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from realtext_docs import DATA, load_documents, read_jsonl
from realtext_gold import (
    GOLD_FILE,
    PRIVATE_REWRITES,
    REWRITES,
    GoldPair,
    load_gold,
    load_rewrites,
    match,
    target_right,
    write_block,
)

SECOND_FILE = DATA / "second_annotation.jsonl"
PAGE = Path(__file__).resolve().parent.parent / "docs" / "realtext-data.md"
HEDGED = {"HEDGED_ABSENT", "UL2", "UL3", "UL4", "UL5"}


def kappa(pairs: list[tuple[str, str]]) -> float:
    """Cohen's kappa of two label sequences (1.0 when both are constant and equal)."""
    n = len(pairs)
    if not n:
        return float("nan")
    observed = sum(a == b for a, b in pairs) / n
    first, second = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    expected = sum(first[k] * second[k] for k in first) / (n * n)
    return 1.0 if expected == 1 else (observed - expected) / (1 - expected)


def compare(
    first: dict[str, list[GoldPair]], second: dict[str, list[GoldPair]], texts: dict[str, str],
    only: set[str] | None = None,
) -> dict[str, float]:
    """Pair F1 of ``second`` against ``first``, level agreement and kappa on matched pairs.

    ``only`` restricts the pairs counted on each side to those levels (matching still uses all
    pairs, so a hedged pair that the other reader labelled UL1 counts as matched, level wrong).
    """
    n1 = n2 = matched = level_same = target_same = 0
    matched1 = matched2 = 0  # matched pairs counted on each side (a level outside ``only`` does not count)
    labels: list[tuple[str, str]] = []
    for doc_id, pairs2 in second.items():
        pairs1 = first.get(doc_id, [])
        keep1 = [g for g in pairs1 if only is None or g.level in only]
        keep2 = [g for g in pairs2 if only is None or g.level in only]
        n1, n2 = n1 + len(keep1), n2 + len(keep2)
        found = match([g.target for g in pairs2], pairs1)
        for i, g1 in found.items():
            g2 = pairs2[i]
            if only is not None and g1.level not in only and g2.level not in only:
                continue
            matched += 1
            matched1 += only is None or g1.level in only
            matched2 += only is None or g2.level in only
            labels.append((g1.level, g2.level))
            level_same += g1.level == g2.level
            target_same += target_right(texts[doc_id], g2.target, g1)
    precision = matched2 / n2 if n2 else float("nan")
    recall = matched1 / n1 if n1 else float("nan")
    return {
        "first": n1,
        "second": n2,
        "matched": matched,
        "f1": 2 * precision * recall / (precision + recall) if matched1 and matched2 else 0.0,
        "level": level_same / matched if matched else float("nan"),
        "target": target_same / matched if matched else float("nan"),
        "kappa": kappa(labels),
    }


def annotators(path: Path) -> dict[str, str]:
    """The annotator of each document in an annotation file (one annotator per document)."""
    return {r["doc_id"]: r["annotator"] for r in read_jsonl(path)}


def table(rows: list[tuple[str, dict[str, float]]]) -> str:
    out = [
        "| pairs | first reader | second reader | matched | pair F1 | level agrees | target agrees | kappa (levels) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, r in rows:
        out.append(
            f"| {name} | {r['first']} | {r['second']} | {r['matched']} | {r['f1']:.2f} | "
            f"{100 * r['level']:.0f}% | {100 * r['target']:.0f}% | {r['kappa']:.2f} |"
        )
    return "\n".join(out)


# Who read the stored second fates, and what (rows written before readers were recorded are F7's).
SECOND_FATE_READERS = {
    "F7": "batch 4, every output (first readers F5, F6)",
    "F16": "the report half of rewrite batches 1–8, ACI-BENCH sources (tenth session)",
    "F17": "the report half of rewrite batches 1–8, ACI-BENCH sources (tenth session)",
    "F27": "the report half of rewrite batch 12, ACI-BENCH sources (twelfth session)",
    "F30": "the report half of rewrite batch 13, chest X-ray sources kept outside the project (thirteenth session)",
    "F33": "the report half of rewrite batch 14, ACI-BENCH sources (fourteenth session)",
    "F36": "rewrite batch 17, W29's 48 outputs (first reader F35; seventeenth session)",
    "F37": "rewrite batch 17, W28's 48 outputs (first reader F34; seventeenth session)",
    "F42": "rewrite batch 18, W30's and W31's 116 outputs (first readers F38, F39; eighteenth session)",
    "F43": "rewrite batch 18, W32's and W33's 112 outputs (first readers F40, F41; eighteenth session)",
    "F48": "rewrite batch 20, W36's 64 outputs (first reader F46; nineteenth session, held out)",
    "F51": "rewrite batch 21, W38's 64 outputs (first reader F49; twentieth session, held out)",
}


def fate_agreement() -> str:
    """Agreement of each second fate reader with the gold fates, per task (empty when none)."""
    second = [f for folder in (REWRITES, PRIVATE_REWRITES) if (folder / "second_fates.jsonl").exists()
              for f in read_jsonl(folder / "second_fates.jsonl")]
    if not second:
        return ""
    outputs, fates, private = load_rewrites()
    task_of = {o["output_id"]: o["task"] for o in outputs}
    first = {(f["output_id"], f["pair_id"]): f["fate"] for f in fates}
    lines = [
        "| second reader | task | fates read twice | same fate | kappa | both say absent / retained alike |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    readers = sorted({f.get("reader", "F7") for f in second}, key=lambda r: (len(r), r))
    for reader in readers:
        for task in ("summary", "revision"):
            labels = [(first[(f["output_id"], f["pair_id"])], f["fate"]) for f in second
                      if f.get("reader", "F7") == reader and task_of.get(f["output_id"]) == task
                      and (f["output_id"], f["pair_id"]) in first]
            if not labels:
                continue
            same = sum(a == b for a, b in labels)
            kept = sum((a == "ABSENT") == (b == "ABSENT") for a, b in labels)
            lines.append(f"| {reader} | {task} | {len(labels)} | {100 * same / len(labels):.0f}% ({same}) | "
                         f"{kappa(labels):.2f} | {100 * kept / len(labels):.0f}% |")
    scope = "" if private else " (chest X-ray part not found: ACI-BENCH outputs only)"
    who = "; ".join(f"{r}: {SECOND_FATE_READERS.get(r, 'unrecorded')}" for r in readers)
    return (f"Rewrite fates read a second time, blind ({who}){scope}:\n\n" + "\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-docs", action="store_true", help=f"write the table into {PAGE.name}")
    args = parser.parse_args()
    texts = {d["doc_id"]: d["text"] for d in load_documents()}
    second = load_gold(SECOND_FILE)
    first = {k: v for k, v in load_gold(GOLD_FILE).items() if k in second}
    who, first_who = annotators(SECOND_FILE), annotators(GOLD_FILE)
    groups = {name: {k: v for k, v in second.items() if who[k] == name} for name in sorted(set(who.values()))}
    if len(groups) > 1:
        groups["all second readers"] = second
    rows, described = [], []
    for name, docs in groups.items():
        rows.append((f"{name}: all", compare(first, docs, texts)))
        rows.append((f"{name}: hedged (HEDGED_ABSENT, UL2–UL5)", compare(first, docs, texts, HEDGED)))
        if name in who.values():
            firsts = ", ".join(sorted({first_who[k] for k in docs if k in first_who}))
            described.append(f"{name} {len(docs)} (first annotators {firsts})")
    body = (
        f"{len(second)} documents annotated twice (second reader and documents: {'; '.join(described)}), "
        "pairs matched by target overlap:\n\n" + table(rows) +
        "\n\n    python benchmark/realtext_iaa.py --write-docs"
    )
    fates = fate_agreement()
    if fates:
        body += "\n\n" + fates
    print(body)
    if args.write_docs:
        write_block(PAGE, "iaa", body)


if __name__ == "__main__":
    main()
