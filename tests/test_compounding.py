"""cuelex.compounding: k successive rewrites, each scored against the original source."""

from __future__ import annotations

import pytest

import cuelex
from cuelex import compounding

TEXTS = [
    "Possible pneumonia. Likely atelectasis. Rule out pulmonary embolism.",
    "No pleural effusion. Cannot exclude fracture. Indeterminate hepatic lesion.",
]


def delete_first_cue(prompt: str) -> str:
    """Each call removes one more cue: certainty erodes one pair per iteration."""
    text = prompt.rsplit("\n\n", 1)[1].rstrip("\n")
    pairs = cuelex.extract(text)
    if not pairs:
        return text
    first = min(pairs, key=lambda p: p.cue_start)
    return text[: first.cue_start] + text[first.cue_end :]


def test_compounding_erodes_one_pair_per_iteration(tmp_path):
    bench = [{"id": f"d{i}", "text": t} for i, t in enumerate(TEXTS)]
    n_pairs = [len(cuelex.extract(t, deduplicate=True)) for t in TEXTS]
    assert n_pairs == [3, 3]
    table = compounding.compound(bench, delete_first_cue, cache=tmp_path / "c.jsonl", k=4, n_boot=50,
                                 progress=False)
    assert table["iteration"].tolist() == [1, 2, 3, 4]
    assert table["n_documents"].tolist() == [2] * 4
    assert table["URR"].tolist() == pytest.approx([2 / 3, 1 / 3, 0.0, 0.0])
    assert table["CAR"].tolist() == pytest.approx([1 / 3, 2 / 3, 1.0, 1.0])
    assert (table["TRR"] == 1.0).all()
    assert table["inflation"].tolist() == pytest.approx([1 / 3, 2 / 3, 1.0, 1.0])
    pytest.importorskip("matplotlib")
    assert compounding.plot_compounding(table, tmp_path / "c.png").stat().st_size > 1000


def test_compounding_resumes_and_rejects_bad_k(tmp_path):
    bench = [{"id": "d0", "text": TEXTS[0]}]
    compounding.compound(bench, delete_first_cue, cache=tmp_path / "c.jsonl", k=2, n_boot=0, progress=False)
    calls = []

    def counted(prompt):
        calls.append(prompt)
        return delete_first_cue(prompt)

    counted.__name__ = "delete_first_cue"
    t = compounding.compound(bench, counted, cache=tmp_path / "c.jsonl", k=3, n_boot=0, progress=False)
    assert len(calls) == 1 and t["iteration"].tolist() == [1, 2, 3]
    with pytest.raises(ValueError, match="k must be"):
        compounding.compound(bench, counted, cache=tmp_path / "c.jsonl", k=0)
