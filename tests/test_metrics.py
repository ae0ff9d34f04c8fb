"""Preservation metrics: fates, the partition of S+, micro/macro, CIs, directions, calibration."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuelex import Level
from cuelex.metrics import (
    CONFUSION_COLUMNS,
    FATES,
    METRICS,
    RATES,
    classify,
    cue_probability,
    summarize,
    survey_probabilities,
)

LEVELS = [lv.value for lv in Level]
CUE = [lv.value for lv in Level if lv is not Level.ASSERTED]


def frame(rows, **extra):
    df = pd.DataFrame(rows, columns=["doc_id", "source_level", "output_level"])
    for k, v in extra.items():
        df[k] = v
    return df


# ------------------------------------------------------------------------------------------ fates


@pytest.mark.parametrize("src", CUE)
@pytest.mark.parametrize("out", [*LEVELS, None])
def test_classify_every_transition(src, out):
    fate = classify(src, out)
    s = Level.parse(src)
    if out is None:
        assert fate == "dropped"
    elif out == src:
        assert fate == "preserved"
    elif out == "ASSERTED":
        assert fate == "certainty_asserted"
    elif Level.parse(out).commitment > s.commitment:
        assert fate == "partial_certainty"
    else:
        assert fate == "over_hedged"


def test_classify_examples_and_errors():
    assert classify(Level.UL3, Level.ASSERTED) == "certainty_asserted"  # the paper's example
    assert classify("UL1", "ASSERTED") == "certainty_asserted"  # a negation flip is also CAR
    assert classify("UL2", "HEDGED_ABSENT") == "partial_certainty"  # 5 > 4
    assert classify("UL1", "HEDGED_ABSENT") == "over_hedged"
    assert classify("UL5", float("nan")) == "dropped"
    with pytest.raises(ValueError, match="unknown level 'UL9'"):
        classify("UL9", "UL1")


# ------------------------------------------------------------------------------- exact numbers


def test_known_table():
    df = frame(
        [
            ("a", "UL3", "ASSERTED"),  # CAR
            ("a", "UL1", "ASSERTED"),  # CAR, negation flip, polarity flip
            ("a", "UL2", "UL3"),  # OHR
            ("a", "UL4", None),  # dropped
            ("b", "UL5", "UL5"),  # URR
            ("b", "UL3", "UL2"),  # PCR
        ]
    )
    m = summarize(df, n_boot=0)
    assert m.rates() == pytest.approx(
        {"TRR": 5 / 6, "URR": 1 / 5, "CAR": 2 / 5, "PCR": 1 / 5, "OHR": 1 / 5}
    )
    # macro: mean over documents
    # (a: TRR 3/4, URR 0, CAR 2/3, PCR 0, OHR 1/3; b: TRR 1, URR 1/2, PCR 1/2)
    assert m.rates("macro") == pytest.approx(
        {"TRR": (0.75 + 1) / 2, "URR": 0.25, "CAR": 1 / 3, "PCR": 0.25, "OHR": 1 / 6}
    )
    assert m.value("inflation") == pytest.approx(3 / 5)
    assert m.value("deflation") == pytest.approx(1 / 5)
    assert m.value("inflation_deflation_ratio") == pytest.approx(3.0)
    assert m.value("negation_flip_rate") == 1.0
    assert m.value("polarity_flip_rate") == pytest.approx(1 / 4)  # UL1, UL3, UL3, UL2 lean one way
    row = m.overall.set_index(["metric", "scope"]).loc[("URR", "micro")]
    assert (row["numerator"], row["denominator"]) == (1, 5)
    assert m.settings["ci_unit"] == "document" and m.settings["n_documents"] == 2

    c = m.confusion
    assert list(c.columns) == list(CONFUSION_COLUMNS)
    assert c.loc["UL3", "ASSERTED"] == 1 and c.loc["UL4", "DROPPED"] == 1 and c.values.sum() == 6
    assert "ASSERTED" not in c.index

    lv = m.by_level.set_index(["source_level", "metric"])
    assert lv.loc[("UL3", "CAR"), "value"] == 0.5 and lv.loc[("UL4", "TRR"), "value"] == 0.0
    assert math.isnan(lv.loc[("UL4", "URR"), "value"]) or lv.loc[("UL4", "URR"), "value"] is None

    docs = m.documents.set_index("doc_id")
    assert docs.loc["a", "certainty_asserted"] == 2 and docs.loc["a", "dropped"] == 1
    assert docs.loc["b", "URR"] == 0.5


def test_groups_get_their_own_rows():
    df = frame(
        [("a", "UL3", "ASSERTED"), ("b", "UL3", "UL3"), ("c", "UL1", "UL1")],
        doc_type=["radiology", "radiology", "discharge"],
    )
    m = summarize(df, group_cols=["doc_type"], n_boot=50)
    g = m.by_group[(m.by_group["scope"] == "micro")].set_index(["doc_type", "metric"])
    assert g.loc[("radiology", "CAR"), "value"] == 0.5
    assert g.loc[("discharge", "URR"), "value"] == 1.0
    assert set(m.by_group["n_documents"]) == {1, 2}


def test_ratio_is_infinite_without_deflation_and_json_safe():
    m = summarize(frame([("a", "UL3", "ASSERTED")]), n_boot=100)
    assert math.isinf(m.value("inflation_deflation_ratio"))
    d = m.to_dict()
    json.dumps(d, allow_nan=False)
    ratio = next(
        r
        for r in d["overall"]
        if r["metric"] == "inflation_deflation_ratio" and r["scope"] == "micro"
    )
    assert ratio["value"] is None


def test_nothing_retained_leaves_shares_undefined():
    m = summarize(frame([("a", "UL3", None), ("a", "UL1", "")]), n_boot=10)
    assert m.value("TRR") == 0.0
    assert all(m.value(k) is None for k in ("URR", "CAR", "PCR", "OHR"))


def test_empty_table():
    m = summarize(frame([]), n_boot=10)
    assert all(v is None for v in m.rates().values())
    assert m.confusion.values.sum() == 0


# ------------------------------------------------------------------------------------- bootstrap


def _random_frame(seed, n_docs=30):
    import random

    rnd = random.Random(seed)
    rows = []
    for d in range(n_docs):
        for _ in range(rnd.randint(1, 8)):
            rows.append((f"d{d}", rnd.choice(CUE), rnd.choice([*LEVELS, None, None])))
    return frame(rows)


def test_bootstrap_is_seeded_and_brackets_the_estimate():
    df = _random_frame(1)
    a = summarize(df, n_boot=300, seed=7).overall
    b = summarize(df, n_boot=300, seed=7).overall
    c = summarize(df, n_boot=300, seed=8).overall
    pd.testing.assert_frame_equal(a, b)
    assert not a["ci_low"].equals(c["ci_low"])
    for _, r in a[a["metric"].isin(RATES)].iterrows():
        assert r["ci_low"] <= r["value"] <= r["ci_high"]


def test_no_bootstrap_no_intervals_and_bad_settings():
    m = summarize(_random_frame(2), n_boot=0)
    assert m.overall["ci_low"].isna().all()
    with pytest.raises(ValueError, match="ci must be between 0 and 1"):
        summarize(_random_frame(2), ci=95)
    with pytest.raises(ValueError, match="n_boot"):
        summarize(_random_frame(2), n_boot=-1)
    with pytest.raises(KeyError, match="'output_level'"):
        summarize(pd.DataFrame({"doc_id": ["a"], "source_level": ["UL1"]}))
    with pytest.raises(KeyError, match="'doc_type'"):
        summarize(_random_frame(2), group_cols=["doc_type"])
    with pytest.raises(TypeError, match="DataFrame"):
        summarize([("a", "UL1", None)])  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="unknown metric"):
        m.value("BLEU")


# ------------------------------------------------------------------------------------- property

pairs_st = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "c"]), st.sampled_from(CUE), st.sampled_from([*LEVELS, None])
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(pairs_st)
def test_shares_of_retained_pairs_sum_to_one(rows):
    m = summarize(frame(rows), n_boot=0)
    ov = m.overall.set_index(["metric", "scope"])
    retained = sum(1 for r in rows if r[2] is not None)
    nums = [ov.loc[(k, "micro"), "numerator"] for k in ("URR", "CAR", "PCR", "OHR")]
    assert sum(nums) == retained  # the four counts partition S+ exactly
    if retained:
        assert sum(m.value(k) for k in ("URR", "CAR", "PCR", "OHR")) == pytest.approx(
            1.0, abs=1e-12
        )
        # per document too (macro inputs)
        for _, d in m.documents.iterrows():
            if d["n_retained"]:
                assert d["URR"] + d["CAR"] + d["PCR"] + d["OHR"] == pytest.approx(1.0, abs=1e-12)
        assert m.value("inflation") + m.value("deflation") + m.value("URR") == pytest.approx(
            1.0, abs=1e-12
        )
    else:
        assert m.value("URR") is None


# --------------------------------------------------------------------------------- calibrated shift


def test_survey_probabilities_are_pooled_medians():
    p = survey_probabilities()
    assert p["likely"] == 70.0 and p["unlikely"] == 20.0
    assert p["probably"] == pytest.approx((123 * 70 + 46 * 75) / 169, abs=0.01)
    assert p["almost certain"] == 95.0  # "almost certainly" pooled in


def test_shipped_survey_table_matches_shared_data():
    shipped = Path(__file__).parents[1] / "cuelex" / "data" / "probability_words.csv"
    rows = list(csv.DictReader(shipped.open(encoding="utf-8")))
    assert {r["source"] for r in rows} == {"fagen_ulmschneider", "zonination_probly"}
    assert len(rows) == 34


def test_cue_probability():
    assert cue_probability("Likely", "UL2") == 70.0
    assert cue_probability("likely  represents", "UL2") == 70.0
    assert cue_probability("Doubt", "HEDGED_ABSENT") == pytest.approx(21.36)
    # every lexicon cue has a graded strength, so cues without a surveyed word count too
    assert cue_probability("possible", "UL3") == 50.0
    assert cue_probability("cannot be excluded", "UL3") < cue_probability("possible", "UL3")
    assert cue_probability("possible", "UL5") is None  # not the entry's level: no strength speaks
    assert cue_probability("not a cue at all", "UL3") is None
    assert cue_probability(None, "ASSERTED") == 100.0
    assert cue_probability("no evidence of", "UL1") == 0.0
    assert cue_probability("no evidence of", "UL1", anchors=False) == 0.0
    assert cue_probability(None, "UL1", anchors=False) is None


def test_calibrated_shift_only_where_both_sides_have_a_probability():
    df = frame([("a", "UL2", "ASSERTED"), ("a", "UL3", "ASSERTED"), ("a", "UL2", None)])
    df["p_source"] = [70.0, None, 70.0]
    df["p_output"] = [100.0, 100.0, None]
    m = summarize(df, n_boot=0)
    assert m.value("calibrated_shift") == 30.0 and m.value("abs_calibrated_shift") == 30.0
    row = m.overall.set_index(["metric", "scope"]).loc[("calibrated_shift", "micro")]
    assert row["denominator"] == 1


def test_metric_names_are_stable():
    assert RATES == ("TRR", "URR", "CAR", "PCR", "OHR")
    assert set(RATES) < set(METRICS)
    assert FATES == (
        "preserved",
        "certainty_asserted",
        "partial_certainty",
        "over_hedged",
        "dropped",
    )
