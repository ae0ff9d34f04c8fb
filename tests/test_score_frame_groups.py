"""Issue 10 (finding 4): score_frame keys rows by (document id, group) — the same notes scored for
several systems is the common layout, and every table keeps each (note, system) apart."""

from __future__ import annotations

import pandas as pd
import pytest

from cuelex import score_frame

NOTES = {
    "n1": "Possible pneumonia. No pleural effusion.",
    "n2": "Pulmonary embolism cannot be excluded.",
    "n3": "Afebrile.",
}
OUTPUTS = {
    # model A keeps the hedge on n1, model B drops it
    ("A", "n1"): "Possible pneumonia. No pleural effusion.",
    ("B", "n1"): "Pneumonia. No pleural effusion.",
    ("A", "n2"): "Pulmonary embolism cannot be excluded.",
    ("B", "n2"): "Pulmonary embolism cannot be excluded.",
    ("A", "n3"): "Afebrile.",
    ("B", "n3"): "No fever.",
}


@pytest.fixture
def frame() -> pd.DataFrame:
    rows = [
        {"note_id": nid, "model": model, "note": NOTES[nid], "summary": OUTPUTS[(model, nid)]}
        for model in ("A", "B")
        for nid in NOTES
    ]
    return pd.DataFrame(rows)


def test_same_notes_scored_for_two_models(frame):
    res = score_frame(
        frame, "note", "summary", group_cols=["model"], id_col="note_id", n_boot=50, progress=False
    )
    # documents: one row per (note, model), in the input's order, including n3 (no source pair)
    assert list(zip(res.documents["doc_id"], res.documents["model"], strict=True)) == [
        ("n1", "A"), ("n2", "A"), ("n3", "A"), ("n1", "B"), ("n2", "B"), ("n3", "B"),
    ]  # fmt: skip
    docs = res.documents.set_index(["doc_id", "model"])
    assert docs.loc[("n1", "A"), "n_pairs"] == 2 and docs.loc[("n1", "B"), "n_pairs"] == 2
    assert docs.loc[("n3", "B"), "n_pairs"] == 0
    assert docs.loc[("n1", "A"), "URR"] == 1.0
    assert docs.loc[("n1", "B"), "URR"] == 0.5  # the hedge on pneumonia was dropped
    # pairs keep both systems' rows of the same note
    pairs = res.pairs
    assert "_cuelex_unit" not in pairs.columns
    assert sorted(pairs.loc[pairs["doc_id"] == "n1", "model"]) == ["A", "A", "B", "B"]
    # per-group metrics: A preserved everything, B lost one level of three pairs
    g = res.by_group[res.by_group["scope"] == "micro"].set_index(["model", "metric"])
    assert g.loc[("A", "URR"), "value"] == 1.0
    assert g.loc[("B", "URR"), "value"] == pytest.approx(2 / 3)
    # documents with pairs per model (n3 has none)
    assert g.loc[("A", "URR"), "n_documents"] == 2 and g.loc[("B", "URR"), "n_documents"] == 2
    # pooled: six pairs over (note, model) units
    assert res.metrics.settings["n_pairs"] == 6
    assert res.rates()["URR"] == pytest.approx(5 / 6)


def test_repeated_note_and_group_is_still_an_error(frame):
    dup = pd.concat([frame, frame.iloc[[0]]], ignore_index=True)
    with pytest.raises(ValueError, match=r"\(document id, model\) must be unique.*'n1', 'A'"):
        score_frame(dup, "note", "summary", group_cols=["model"], id_col="note_id", progress=False)
    with pytest.raises(ValueError, match="document ids must be unique"):
        score_frame(frame, "note", "summary", id_col="note_id", progress=False)


def test_skipped_row_of_one_model_leaves_the_other(frame):
    bad = frame.copy()
    bad.loc[(bad["note_id"] == "n2") & (bad["model"] == "B"), "summary"] = None
    res = score_frame(
        bad, "note", "summary", group_cols=["model"], id_col="note_id", errors="skip",
        n_boot=0, progress=False,
    )  # fmt: skip
    assert res.problems[["doc_id", "row"]].values.tolist() == [["n2", 4]]
    keys = set(zip(res.documents["doc_id"], res.documents["model"], strict=True))
    assert ("n2", "A") in keys and ("n2", "B") not in keys and len(keys) == 5
