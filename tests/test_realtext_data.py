"""The real-text evaluation data stay consistent: documents, gold offsets, outputs and fates."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from _helpers import bench_module

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmark"
SHARED_IU = ROOT.parent / "shared" / "data" / "eval" / "iu_cxr_dev.jsonl"
LEVELS = {"UL1", "HEDGED_ABSENT", "UL2", "UL3", "UL4", "UL5"}
FATES = LEVELS | {"ASSERTED", "ABSENT"}


def _read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.fixture(scope="module")
def documents() -> dict[str, dict]:
    if not SHARED_IU.exists():
        pytest.skip("needs ../shared/data/eval/iu_cxr_dev.jsonl")
    sys.path.insert(0, str(BENCH))
    try:
        from realtext_docs import load_documents
    finally:
        sys.path.remove(str(BENCH))
    return {d["doc_id"]: d for d in load_documents()}


def test_split_is_by_document_and_balanced() -> None:
    docs = _read(BENCH / "data" / "realtext" / "documents.jsonl")
    assert len({d["doc_id"] for d in docs}) == len(docs) >= 60
    # each batch is split evenly per source and rewrite status (an odd group puts one more in tune);
    # documents given rewrites later (``rewrites_batch``) kept their split: they count in the group
    # they were selected in and, again, in the group of their rewrites batch
    groups: dict[tuple, list[dict]] = {}
    for d in docs:
        if d["split"] == "written":  # the written plans are a split of their own (next test)
            continue
        selected_with_rewrites = d["rewrites"] and "rewrites_batch" not in d
        groups.setdefault((d.get("batch"), d["source"], selected_with_rewrites), []).append(d)
        if "rewrites_batch" in d:
            groups.setdefault(("rewrites", d["rewrites_batch"], d["source"]), []).append(d)
    for key, group in groups.items():
        tune = sum(d["split"] == "tune" for d in group)
        assert abs(2 * tune - len(group)) <= 1, key


def test_written_plans_are_their_own_split() -> None:
    """Sections written for the project never enter the tune or report halves, and every one has
    its text stored beside the ids (no other document text is kept in the project)."""
    docs = _read(BENCH / "data" / "realtext" / "documents.jsonl")
    written = [d for d in docs if d["doc_id"].startswith("wp:")]
    assert all(d["split"] == "written" and d["source"] == "written_plans" for d in written)
    assert not [d for d in docs if d["split"] == "written" and not d["doc_id"].startswith("wp:")]
    path = BENCH / "data" / "realtext" / "written_plans.jsonl"
    texts = {r["doc_id"]: r["text"] for r in _read(path)} if path.exists() else {}
    assert {d["doc_id"] for d in written} == set(texts)
    assert all(t.strip() for t in texts.values())


def test_gold_offsets_index_the_documents(documents: dict[str, dict]) -> None:
    rows = _read(BENCH / "data" / "realtext" / "gold_pairs.jsonl")
    pairs = [r for r in rows if r.get("pair_id")]
    assert len(pairs) >= 150
    for r in pairs:
        text = documents[r["doc_id"]]["text"]
        assert r["level"] in LEVELS
        assert 0 <= r["target_start"] <= r["core_start"] < r["core_end"] <= r["target_end"] <= len(text)
        assert 0 <= r["cue_start"] < r["cue_end"] <= len(text)
        assert text[r["target_start"] : r["target_end"]].strip()


def test_rewrite_fates_cover_every_output_and_pair() -> None:
    folder = BENCH / "data" / "rewrites_dev"
    if not (folder / "fates.jsonl").exists():
        pytest.skip("rewrite set not imported yet")
    outputs = _read(folder / "outputs.jsonl")
    fates = _read(folder / "fates.jsonl")
    gold = [r for r in _read(BENCH / "data" / "realtext" / "gold_pairs.jsonl") if r.get("pair_id")]
    by_doc: dict[str, set[str]] = {}
    for r in gold:
        by_doc.setdefault(r["doc_id"], set()).add(r["pair_id"])
    have = {(f["output_id"], f["pair_id"]) for f in fates}
    assert len(outputs) >= 80
    assert {o["task"] for o in outputs} == {"summary", "revision"}
    assert {o["prompt"] for o in outputs} == {"baseline", "guarded"}
    text = {o["output_id"]: o["text"] for o in outputs}
    # Rewrites of IU reports (CC BY-NC-ND: no derivatives) must stay outside the project.
    assert not [o["output_id"] for o in outputs if o["doc_id"].startswith("iu:")]
    for o in outputs:
        for pid in by_doc.get(o["doc_id"], ()):
            assert (o["output_id"], pid) in have
    for f in fates:
        assert f["fate"] in FATES
        if f.get("evidence"):
            assert f["evidence"] in text[f["output_id"]]


def test_agreement_kappa_and_matching() -> None:
    iaa = bench_module("realtext_iaa")
    gold = bench_module("realtext_gold")
    assert iaa.kappa([("a", "a"), ("a", "b"), ("b", "b"), ("b", "b")]) == pytest.approx(0.5)
    assert iaa.kappa([("a", "a"), ("a", "a")]) == 1.0
    text = "No effusion. Possible pneumonia or atelectasis."
    g = gold.GoldPair
    first = {"d": [g("d", "d#1", "UL1", (0, 2), (3, 11), (3, 11)),
                   g("d", "d#2", "UL3", (13, 21), (22, 31), (22, 31)),
                   g("d", "d#3", "UL3", (32, 34), (35, 46), (35, 46))]}
    second = {"d": [g("d", "d#1", "UL1", (0, 2), (3, 11), (3, 11)),
                    g("d", "d#2", "UL2", (13, 21), (22, 31), (22, 31))]}
    r = iaa.compare(first, second, {"d": text})
    assert (r["first"], r["second"], r["matched"]) == (3, 2, 2)
    assert r["f1"] == pytest.approx(0.8) and r["level"] == 0.5 and r["target"] == 1.0
    hedged = iaa.compare(first, second, {"d": text}, iaa.HEDGED)
    assert (hedged["first"], hedged["second"], hedged["matched"], hedged["level"]) == (2, 1, 1, 0.0)


def test_second_annotation_offsets_index_the_documents(documents: dict[str, dict]) -> None:
    path = BENCH / "data" / "realtext" / "second_annotation.jsonl"
    if not path.exists():
        pytest.skip("no second annotation imported")
    rows = [r for r in _read(path) if r.get("pair_id")]
    assert rows
    for r in rows:
        text = documents[r["doc_id"]]["text"]
        assert r["level"] in LEVELS
        assert 0 <= r["target_start"] <= r["core_start"] < r["core_end"] <= r["target_end"] <= len(text)


def test_strict_selection_words_drop_a_bare_or() -> None:
    """Batch 9 on selects IU reports without a bare "or" (negation-only lists let it through)."""
    docs = bench_module("realtext_docs")
    _HEDGY, _HEDGY_STRICT = docs._HEDGY, docs._HEDGY_STRICT
    negation_only = "FINDINGS: No pneumothorax or effusion.\nIMPRESSION: Normal chest."
    assert _HEDGY.search(negation_only) and not _HEDGY_STRICT.search(negation_only)
    for hedged in ("Opacity may represent atelectasis.", "Possible nodule.", "Cannot exclude PNA."):
        assert _HEDGY_STRICT.search(hedged), hedged


def test_new_batches_never_take_probe_documents(documents: dict[str, dict]) -> None:
    """Rules were tuned on the probe files' sentences: ``extend`` must leave their notes out."""
    docs = bench_module("realtext_docs")
    named = docs.probe_documents()
    assert "aci:D2N088" in named  # plan_probes.jsonl names it
    existing = [{"doc_id": k, **{f: d[f] for f in ("source", "rewrites", "split")}} for k, d in documents.items()]
    new = docs.extend(existing, 40, 40, seed=99, batch=99, aci_max_chars=100_000)
    taken = {d["doc_id"] for d in new[len(existing):]}
    assert taken and not taken & named and not taken & set(documents)


def test_tune_folds_are_stable_and_both_used(documents: dict[str, dict]) -> None:
    """The tune half divides into two stable folds by a hash of the document id."""
    docs = bench_module("realtext_docs")
    tune = [k for k, d in documents.items() if d["split"] == "tune"]
    folds = [docs.tune_fold(k) for k in tune]
    assert set(folds) == {"a", "b"} and min(folds.count("a"), folds.count("b")) > len(tune) // 4
    # crc32 is fixed by the zlib format, so a fold never moves between machines or versions
    assert [docs.tune_fold(k) for k in ("iu:1829", "aci:D2N088", "iu:10")] == ["a", "a", "b"]


def test_rewrite_eval_fate_classes_are_relative_to_the_source_level() -> None:
    """The confusion table's classes: hedged levels only as the source's own level or another."""
    sys.path.insert(0, str(BENCH))
    try:
        from rewrite_eval import FATE_CLASSES, fate_class
    finally:
        sys.path.remove(str(BENCH))
    assert fate_class("UL3", "ABSENT") == "ABSENT"
    assert fate_class("UL3", "ASSERTED") == "ASSERTED"
    assert fate_class("UL3", "UL1") == "UL1"
    assert fate_class("UL3", "UL3") == "same hedged"
    assert fate_class("UL3", "UL2") == "other hedged"
    assert fate_class("HEDGED_ABSENT", "HEDGED_ABSENT") == "same hedged"
    assert fate_class("UL1", "UL5") == "other hedged"
    assert set(FATE_CLASSES) == {"ABSENT", "ASSERTED", "UL1", "same hedged", "other hedged"}


def test_rewrite_eval_class_features_name_structure_only() -> None:
    """The breakdown of same hedged → ASSERTED (safe on the report half): a list item under a lead-in
    line, its kind, a hedge word of the broad list near, a table row, parentheses."""
    sys.path.insert(0, str(BENCH))
    try:
        from rewrite_eval import mention_features
    finally:
        sys.path.remove(str(BENCH))
    text = "Plan as discussed.\n**Call us if you have:**\n- chest pain\n- fever (over 101)\n"
    s = text.index("chest pain")
    feats = mention_features(text, s, s + len("chest pain"), 2, True, "UL5")
    assert {"source level UL5", "several mentions", "another mention read at the gold level", "bullet / list item",
            "list item under a lead-in line", "lead-in kind: return / watch / call",
            "plan / contingency word in the lead-in line"} <= set(feats)
    s = text.index("101")
    assert "inside parentheses" in mention_features(text, s, s + 3, 1, False)
    row = "| Finding | Note |\n| pneumonia | might be early |\n"
    s = row.index("pneumonia")
    feats = mention_features(row, s, s + 9, 1, False)
    assert "table row" in feats and "hedge word in the same sentence" in feats
    plain = "Pneumonia was treated."
    assert "no hedge word near" in mention_features(plain, 0, 9, 1, False)


def test_false_pair_kinds_classify_targets() -> None:
    """The aggregate breakdown of false source pairs names a cue family and a target kind."""
    ev = bench_module("realtext_eval")
    import cuelex

    linker = cuelex.get_linker()
    assert ev.cue_family("ul5.return_if") == "ul5_contingency"
    assert ev.cue_family("not.a_lexicon_entry") == "not"

    def kind(sentence: str, target: str, level: str = "UL3") -> str:
        i = sentence.index(target)
        return ev.target_kind(sentence, level, (i, i + len(target)), sentence, linker)

    assert kind("We could try gabapentin at bedtime.", "gabapentin") == "drug/medication"
    assert kind("An MRI may be helpful.", "MRI") == "procedure/test"
    assert kind("Call if you get a fever.", "fever", "UL5") == "general advice"
    assert kind("Perhaps pinching the right trigeminal nerve.", "right trigeminal nerve") == "body part"
    assert kind("He may have chest pain.", "chest pain") == "symptom"
    assert kind("He may have pneumonia.", "pneumonia") == "diagnosis"
    assert kind("He does not have a support system.", "support system") == "non-clinical word"


def test_rewrite_batch_of_an_output() -> None:
    """A later batch of new outputs of an old source is its own batch; other outputs take their document's."""
    rewrite_eval = bench_module("rewrite_eval")
    doc = {"doc_id": "aci:D2N008", "batch": 1, "rewrites_batch": 10}
    assert rewrite_eval.output_batch({"output_id": "aci:D2N008/summary-baseline"}, doc) == 10
    assert rewrite_eval.output_batch({"output_id": "aci:D2N008/summary-baseline/r17", "batch": 17}, doc) == 17
    assert rewrite_eval.output_batch({"output_id": "x"}, {"doc_id": "aci:D2N002"}) == 1
