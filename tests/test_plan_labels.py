"""A finding named among the items of a plan label is something to look for (issue 11, reading the
output): "Workup: CT chest for pulmonary nodule", "F/u: repeat CXR, underlying pneumonia" keep a
UL5 source target at UL5, as a plan verb would ("will check for …"); an assessment label ("Dx:",
"Impression:") or a treatment item ("Plan: abx for pneumonia") gives nothing. The label wording is
data, ``cuelex/data/plan_labels.tsv``; every row's example is matched whole by its pattern and read
through a label line here. Examples are written for these tests (the held-out probes are
benchmark/data/plan_label_probes.jsonl, written before the rule)."""

from __future__ import annotations

import pytest
from _helpers import scored_pair

from cuelex.concepts.vocab import VocabularyError
from cuelex.levels import Level
from cuelex.scoring import scorer

SOURCE = "IMPRESSION: Right basilar opacity. Repeat radiograph is suggested to exclude pneumonia."


def test_every_plan_row_matches_its_example_and_reads_a_label_line() -> None:
    rows = scorer.plan_labels()
    assert rows["plan"] and rows["treated"]
    for pattern, example in rows["plan"]:
        assert pattern.fullmatch(example), example
        output = f"- R basilar opacity\n- {example}: repeat CXR, pneumonia\n"
        got = scorer._plan_label(output, output.index("pneumonia"))
        assert got is not None and got.level is Level.UL5 and got.text == example, (example, got)


def test_every_treated_row_matches_its_example_and_blocks_the_label() -> None:
    for pattern, example in scorer.plan_labels()["treated"]:
        assert pattern.fullmatch(example), example
        output = f"Plan: {example} for pneumonia\n"
        assert scorer._plan_label(output, output.index("pneumonia")) is None, example


def test_bad_rows_are_named(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "plan_labels.tsv").write_text("# test\nrole\tpattern\texample\nverb\tx\tx\n", encoding="utf-8")
    monkeypatch.setattr(scorer, "DATA_DIR", tmp_path)
    scorer.plan_labels.cache_clear()
    try:
        with pytest.raises(VocabularyError, match="role must be one of") as err:
            scorer.plan_labels()
        assert "plan_labels.tsv:3" in str(err.value)
    finally:
        scorer.plan_labels.cache_clear()


@pytest.mark.parametrize(
    ("output", "level", "how"),
    [
        # items of a plan label, bold or plain, on a list line or not, after a test or alone
        ("R basilar opacity.\nF/u: repeat CXR post-tx, underlying pneumonia.", "UL5", "plan_label"),
        ("- **Workup:** CT chest; pneumonia", "UL5", "plan_label"),
        ("Pending: sputum culture for pneumonia", "UL5", "plan_label"),
        ("To check: pneumonia on the PA view", "UL5", "plan_label"),
        # a cue of the item's own still decides ("R/o" is a cue of the extractor)
        ("F/u: no pneumonia on repeat CXR", "UL1", "span"),
        ("R/o: pneumonia", "UL5", "span"),
        # an assessment label, a treatment item, a sentence or a statement verb after the label
        ("Dx: pneumonia", "ASSERTED", "span"),
        ("Plan: abx for pneumonia", "ASSERTED", "span"),
        ("Plan: treat pneumonia, repeat CXR in 6 wk", "ASSERTED", "span"),
        ("Plan: CT chest. Pneumonia on the film today.", "ASSERTED", "span"),
        ("Plan: she has pneumonia, repeat CXR", "ASSERTED", "span"),
    ],
)
def test_items_of_a_plan_label(output: str, level: str, how: str) -> None:
    p = scored_pair(SOURCE, output, "pneumonia")
    assert (p.output_level, p.level_source) == (Level(level), how), output
    if how == "plan_label":
        assert p.output_cue is not None and p.output_cue.rule_id == "lead_in.plan_label"
