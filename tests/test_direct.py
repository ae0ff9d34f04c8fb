"""cuelex.direct: sampling, bundles, robust parsing of answers, RQ2 metrics, cuelex as a baseline."""

from __future__ import annotations

import json
import math
import re
from collections import Counter

import pytest

import cuelex
from cuelex import direct
from cuelex.direct import Bundle, DirectItem

TEXTS = [
    "No pleural effusion. Likely atelectasis. Possible pneumonia.",
    "Indeterminate hepatic lesion. Rule out pulmonary embolism.",
    "No fracture. Findings consistent with cholecystitis. Concern for appendicitis.",
    "Equivocal for diverticulitis. Evaluate for abscess. No pneumothorax.",
    "Findings suggestive of colitis. Cannot exclude small bowel obstruction.",
    "Nondiagnostic evaluation for renal calculus. Monitor for sepsis.",
]
BENCH = [{"id": f"d{i}", "text": t} for i, t in enumerate(TEXTS)]


def item(gold, iid="T1", snippet="Possible pneumonia.", target="pneumonia"):
    s = snippet.index(target)
    return DirectItem(iid, "d0", snippet, target, s, s + len(target), gold)


def test_sampling_is_per_level_seeded_and_snippets_hold_the_target():
    items = direct.sample_items(BENCH, per_level=2, seed=1)
    assert Counter(i.gold for i in items) == {lv: 2 for lv in ("UL1", "UL2", "UL3", "UL4", "UL5")}
    for it in items:
        assert it.snippet[it.target_start:it.target_end] == it.target_text
    assert items == direct.sample_items(BENCH, per_level=2, seed=1)
    assert len(direct.sample_items(BENCH, per_level=100)) == sum(
        len(cuelex.extract(t, deduplicate=True)) for t in TEXTS
    )  # fewer than asked: all of them, no error
    bundles = direct.make_bundles(items, sizes=(2, 5), per_size=3, seed=0)
    assert [len(b.items) for b in bundles] == [2, 2, 2, 5, 5, 5]
    for b in bundles:
        golds = [i.gold for i in b.items]
        assert len(set(golds)) == len(golds)
        assert [b.items[int(s[1:]) - 1].gold for s in b.gold_ranking] == sorted(golds)
    with pytest.raises(ValueError, match="distinct levels"):
        direct.make_bundles(items[:4], sizes=(3,))


@pytest.mark.parametrize(
    ("answer", "level", "valid", "reason"),
    [
        ('{"target_id": "T1", "evidence_quote": "Possible", "uncertainty_level": "UL3"}', "UL3", True, None),
        ('```json\n{"uncertainty_level": "UL2"}\n```', "UL2", True, None),
        ('Sure! Here is the answer:\n{"uncertainty_level": "ul 4"} Hope this helps.', "UL4", True, None),
        ('{"uncertainty_level": "UL3 (possible present)",}', "UL3", True, None),
        ('[{"uncertainty_level": "UL5"}]', "UL5", True, None),
        ('{"level": "UL1"}', "UL1", True, None),
        ('{"uncertainty_level": "UL6"}', None, False, "wrong label"),
        ('{"uncertainty_level": "probable"}', None, False, "wrong label"),
        ('{"uncertainty_level": 3}', None, False, "not text"),
        ('{"evidence_quote": "Possible"}', None, False, "missing uncertainty_level"),
        ("I think it is UL3.", None, False, "no JSON"),
        ("", None, False, "empty"),
        ('{"uncertainty_level": "UL3"', None, False, "no JSON"),
    ],
)
def test_parse_single(answer, level, valid, reason):
    p = direct.parse_single(answer, item("UL3"))
    assert (p.level, p.valid) == (level, valid)
    if reason:
        assert reason in p.reason


def test_parse_single_non_text_and_evidence_check():
    assert direct.parse_single(None).reason == "answer is NoneType, not text"
    assert direct.parse_single('{"uncertainty_level":"UL3","evidence_quote":"Possible"}', item("UL3")).evidence_in_snippet
    assert direct.parse_single('{"uncertainty_level":"UL3","evidence_quote":"maybe"}', item("UL3")).evidence_in_snippet is False


def bundle3():
    return Bundle("N3-001", (item("UL3", "a"), item("UL1", "b"), item("UL5", "c")))


def test_parse_multi():
    b = bundle3()
    good = {"signals": [{"signal_id": s, "uncertainty_level": lv} for s, lv in
                        (("S1", "UL3"), ("S2", "UL1"), ("S3", "UL5"))],
            "rank_strongest_to_weakest": ["S2", "S1", "S3"]}
    m = direct.parse_multi("```\n" + json.dumps(good) + "\n```", b)
    assert m.valid and m.levels == {"S1": "UL3", "S2": "UL1", "S3": "UL5"} and m.ranking == b.gold_ranking
    missing = {**good, "signals": good["signals"][:2]}
    m = direct.parse_multi(json.dumps(missing), b)
    assert not m.valid and m.levels["S3"] is None and "missing signal S3" in m.reasons
    assert m.ranking == ["S2", "S1", "S3"]  # the ranking itself is still usable
    dup = {"signals": good["signals"] + [{"signal_id": "S1", "uncertainty_level": "UL2"}],
           "rank_strongest_to_weakest": ["S2", "S2", "S3"]}
    m = direct.parse_multi(json.dumps(dup), b)
    assert m.levels["S1"] == "UL3" and m.ranking is None
    assert any("twice" in r for r in m.reasons) and any("permutation" in r for r in m.reasons)
    wrong = {"signals": [{"signal_id": "s1", "uncertainty_level": "UL9"}, {"signal_id": "S7", "uncertainty_level": "UL1"}]}
    m = direct.parse_multi(json.dumps(wrong), b)
    assert m.levels == {"S1": None, "S2": None, "S3": None} and m.ranking is None
    assert any("unknown signal_id" in r for r in m.reasons) and any("wrong label" in r for r in m.reasons)
    for junk in ("nonsense", None, '{"signals": "S1"}', "[1, 2]"):
        m = direct.parse_multi(junk, b)
        assert not m.valid and m.ranking is None


def test_classification_metrics_hand_computed():
    gold = ["UL1", "UL1", "UL2", "UL3", "UL3"]
    pred = ["UL1", "UL2", "UL2", None, "UL4"]
    m = direct.classification_metrics(gold, pred)
    assert m["ula"] == pytest.approx(2 / 5)
    assert m["n_invalid"] == 1
    assert m["f1_UL1"] == pytest.approx(2 / 3)  # tp 1, 2 gold, 1 predicted
    assert m["f1_UL2"] == pytest.approx(2 / 3)  # tp 1, 1 gold, 2 predicted
    assert m["f1_UL3"] == 0.0 and m["f1_UL4"] == 0.0
    assert math.isnan(m["f1_UL5"])
    assert m["macro_f1"] == pytest.approx((2 / 3 + 2 / 3) / 4)
    with pytest.raises(ValueError):
        direct.classification_metrics(["UL1"], [])


def test_ranking_metrics_hand_computed():
    assert direct.kendall_tau(["S1", "S2", "S3"], ["S2", "S1", "S3"]) == pytest.approx(1 / 3)
    assert direct.kendall_tau(["S1", "S2", "S3"], ["S3", "S2", "S1"]) == -1.0
    m = direct.ranking_metrics([["S1", "S2"], ["S1", "S2", "S3"], ["S2", "S1"]],
                               [["S1", "S2"], None, ["S1", "S2"]])
    assert m["exact_rank_accuracy"] == pytest.approx(1 / 3)
    assert m["kendall_tau"] == pytest.approx(0.0)  # mean of 1 and -1; the invalid one is left out
    assert m["n_invalid_rank"] == 1


def oracle_from(items):
    """A fake LLM that knows the gold labels and answers chattily, in code fences."""
    gold = {(i.target_text, i.snippet): i.gold for i in items}

    def oracle(prompt: str) -> str:
        if "Signals:" in prompt:
            blocks = re.findall(r"(S\d+)\nTarget: (.*)\nSnippet: (.*)", prompt)
            sigs = [{"signal_id": s, "uncertainty_level": gold[(t, sn)]} for s, t, sn in blocks]
            order = sorted(sigs, key=lambda x: x["uncertainty_level"])
            return "Here you go:\n```json\n" + json.dumps(
                {"signals": sigs, "rank_strongest_to_weakest": [x["signal_id"] for x in order]}) + "\n```"
        t = re.search(r"target_text: (.*)\n", prompt).group(1)
        sn = re.search(r"Snippet: (.*)\n", prompt).group(1)
        return json.dumps({"uncertainty_level": gold[(t, sn)]})

    return oracle


def test_run_direct_oracle_garbage_and_cuelex(tmp_path):
    items = direct.sample_items(BENCH, per_level=2, seed=0)
    bundles = direct.make_bundles(items, sizes=(2, 3), per_size=4, seed=0)
    res = direct.run_direct(items, oracle_from(items), name="oracle", bundles=bundles,
                            cache=tmp_path / "d.jsonl", progress=False)
    m = res.metrics.set_index("setting")
    assert list(m.index) == ["N=1", "N=2", "N=3", "N=2-5"]
    assert (m["ula"] == 1.0).all() and (m["macro_f1"] == 1.0).all()
    assert m.loc["N=2", "exact_rank_accuracy"] == 1.0 and m.loc["N=3", "kendall_tau"] == 1.0
    assert m.loc["N=1", "n"] == 10 and m.loc["N=2-5", "n_bundles"] == 8

    calls = Counter()

    def garbage(prompt):
        calls["n"] += 1
        return "I cannot help with that."

    res = direct.run_direct(items, garbage, bundles=bundles, cache=tmp_path / "d.jsonl", progress=False)
    m = res.metrics.set_index("setting")
    assert (m["ula"] == 0.0).all() and (m["n_invalid"] == m["n"]).all()
    assert m.loc["N=2", "exact_rank_accuracy"] == 0.0 and math.isnan(m.loc["N=2", "kendall_tau"])
    assert set(res.items["reason"]) == {"no JSON object in the answer"}
    # resumes: nothing is asked twice
    direct.run_direct(items, garbage, bundles=bundles, cache=tmp_path / "d.jsonl", progress=False)
    assert calls["n"] == len(items) + len(bundles)

    # cuelex's own classifier through the same evaluation (its own extraction is the gold here,
    # so it agrees with itself; on an annotated benchmark this is a real baseline)
    res = direct.run_direct(items, direct.CuelexDirect(), bundles=bundles, cache=tmp_path / "d.jsonl",
                            progress=False)
    assert res.metrics.set_index("setting").loc["N=1", "ula"] == 1.0
    assert res.items["valid"].all()
    with pytest.raises(TypeError, match="answers items"):
        direct.CuelexDirect()("a prompt")
