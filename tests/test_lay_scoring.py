"""Scoring patient-friendly rewrites and LLM summaries: the ten patterns of issue 11, as classes."""

from __future__ import annotations

import time

import pytest

from cuelex.align import LOW_CONFIDENCE, Aligner
from cuelex.scoring import score


def _pairs(source: str, output: str):
    r = score(source, output, n_boot=0)
    return {p.source.target_text: p for p in r.pairs}, r


@pytest.mark.parametrize(
    ("source", "output", "target", "fate", "level"),
    [
        # 1-2: lay paraphrases of negated and hedged findings
        ("No pleural effusion.", "There is no fluid around your lungs.", "pleural effusion", "preserved", "UL1"),
        ("No pneumothorax.", "No collapsed lung.", "pneumothorax", "preserved", "UL1"),
        ("No pulmonary embolism.", "There is no blood clot in your lungs.", "pulmonary embolism", "preserved", "UL1"),
        ("Findings may represent mediastinal lymphadenopathy.", "This could also be swollen lymph nodes.",
         "mediastinal lymphadenopathy", "preserved", "UL3"),
        # 3: real certainty changes found through the lay phrase
        ("Right basilar atelectasis versus infiltrate.", "There is probably a small area of partly collapsed lung.",
         "Right basilar atelectasis", "partial_certainty", "UL2"),
        # 4: over-specific source target vs a shorter or abbreviated mention
        ("No pneumothorax or large pleural effusion.", "No PTX or large effusion.", "large pleural effusion", "preserved", "UL1"),
        ("No acute displaced rib fracture.", "No rib fx.", "acute displaced rib fracture", "preserved", "UL1"),
        ("The 8 mm adrenal nodule is indeterminate.", "The adrenal nodule is benign.", "8 mm adrenal nodule",
         "certainty_asserted", "ASSERTED"),
        # 6: the technical term in a gloss takes the level of the phrase it glosses
        ("Ascending aortic aneurysm cannot be excluded.",
         "Doctors cannot rule out that part of it is enlarged or bulging (called an ascending aortic aneurysm).",
         "Ascending aortic aneurysm", "preserved", "UL3"),
        # 7: output hedges LLMs write
        ("Findings consistent with mild congestive heart failure.", "Findings c/w mild CHF.",
         "mild congestive heart failure", "preserved", "UL2"),
        ("Likely pneumonia.", "This is a sign of pneumonia.", "pneumonia", "preserved", "UL2"),
        ("Pneumonia is unlikely.", "It does not look like pneumonia.", "Pneumonia", "preserved", "HEDGED_ABSENT"),
        ("Possible pneumonia.", "There is a chance you have pneumonia.", "pneumonia", "preserved", "UL3"),
        ("Rule out pulmonary embolism.", "A CT was done to make sure it is not a blood clot in the lungs.",
         "pulmonary embolism", "preserved", "UL5"),
        ("Rule out pulmonary embolism.", "Doctors want to check for a blood clot in the lungs.",
         "pulmonary embolism", "preserved", "UL5"),
        ("Likely cardiomegaly.", "Your heart is probably enlarged.", "cardiomegaly", "preserved", "UL2"),
        ("Scarring versus effusion at the left base.", "Left base opacity (scarring vs effusion).", "Scarring", "preserved", "UL3"),
        # a parenthetical inside the phrase does not break it; an "or" inside a lay phrase is no hedge
        ("No acute osseous abnormality identified.", "No sudden (acute) problems were seen in the bones.",
         "acute osseous abnormality", "preserved", "UL1"),
        ("No acute cardiopulmonary abnormality.", "There are no problems with your heart or lungs.",
         "acute cardiopulmonary abnormality", "preserved", "UL1"),
        ("No pleural effusion or pneumothorax.",
         "The X-ray did not show fluid around the lungs (pleural effusion) or a collapsed lung (pneumothorax).",
         "pleural effusion", "preserved", "UL1"),
        # 9: alternatives written with a slash
        ("Mild atelectasis or scarring.", "Mild atelectasis/scarring.", "scarring", "preserved", "UL3"),
        # 10: a conditional is not an assertion
        ("Rule out pneumonia.", "Return if you have chest pain or signs of pneumonia.", "pneumonia", "preserved", "UL5"),
    ],
)
def test_issue_11_patterns(source, output, target, fate, level):
    pairs, r = _pairs(source, output)
    p = pairs[target]
    assert (p.fate, p.output_level.value if p.output_level else None) == (fate, level), r.summary()


def test_a_heading_never_wins_over_the_sentence_that_states_it():
    """Pattern 8 / issue 15 F3: "**Bleeding**" is a label; the body sentence carries the level."""
    src = "Possible recurrent bleeding."
    out = "**Bleeding**\nThere has been no more bleeding since the transfusion."
    p = score(src, out, n_boot=0).pairs[0]
    assert p.match.text == "bleeding" and p.output_level.value == "UL1"
    assert p.match.n_candidates == 2 and p.level_ambiguous
    out2 = "## Pneumonia\n- **Pneumonia**: there may be a lung infection; pneumonia is possible."
    p2 = score("Possible pneumonia.", out2, n_boot=0).pairs[0]
    assert p2.output_level.value == "UL3"


def test_the_mention_that_repeats_the_source_statement_is_chosen():
    src = "No pneumothorax after the procedure. Pneumothorax on the left is unchanged in size."
    out = "Pneumothorax on the left, unchanged in size. There is no pneumothorax after the procedure."
    r = score(src, out, n_boot=0)
    (p,) = [q for q in r.pairs if q.source.level.value == "UL1"]
    assert p.output_level.value == "UL1" and p.level_ambiguous


def test_alignment_records_how_and_how_sure_and_lists_weak_ones():
    r = score("No pleural effusion.", "There are no signs of infection, fluid, or a collapsed lung.", n_boot=0)
    (p,) = r.pairs
    assert p.match.tier == "cui" and p.match.detail == "related"
    assert p.match.confidence < LOW_CONFIDENCE and p.match.low_confidence
    assert p in r.to_check()
    assert "alignments to check: 1" in r.summary()
    row = r.to_frame().iloc[0]
    assert row["low_confidence"] and row["match_detail"] == "related" and row["match_confidence"] < 0.7
    html = r.to_html()
    assert "low-confidence alignment" in html and "check (0.50)" in html
    exact = score("Possible pneumonia.", "Possible pneumonia.", n_boot=0).pairs[0]
    assert exact.match.confidence == 1.0 and not exact.match.low_confidence


def test_docs_example_report_is_scored_right():
    from pathlib import Path

    docs = Path(__file__).resolve().parent.parent / "docs" / "examples"
    r = score((docs / "source.txt").read_text(), (docs / "output.txt").read_text(), n_boot=0)
    got = {(p.source.cue_text, p.source.target_text): p for p in r.pairs}
    osteo = got[("cannot be excluded", "Early osteomyelitis")]
    assert osteo.output_level.value == "UL3" and osteo.fate == "preserved"  # "because ... is possible"
    adrenal = got[("indeterminate", "8 mm adrenal nodule")]
    assert adrenal.retained and adrenal.match.text == "adrenal nodule"
    assert adrenal.fate == "certainty_asserted"  # indeterminate -> benign: a real change, not a drop


def test_long_single_line_is_scored_in_seconds():
    """Issue 15 F2: ranking is local, so one long line costs about as much as many short ones."""
    unit = (
        "Right lower lobe opacity, atelectasis or pneumonia. Small left pleural effusion is likely. "
        "No pneumothorax. Possible pulmonary nodule. "
    )
    lay = "There may be a lung infection and some fluid around the lungs. No collapsed lung. "
    src = unit * 200  # ~26 KB on one line
    out = lay * 300
    score("Possible pneumonia.", "Pneumonia.", n_boot=0)
    t = time.process_time()
    r = score(src, out, n_boot=0)
    small = time.process_time() - t
    t = time.process_time()
    r2 = score(src * 4, out * 4, n_boot=0)
    big = time.process_time() - t
    assert len(r2.pairs) == 4 * len(r.pairs)
    assert big < 8 * small + 2.0, (small, big)  # 4x the text: far from 16x (quadratic)


def test_lay_alignment_never_asserts_from_a_bare_organ_name():
    al = Aligner()
    assert al.find("cardiomegaly", "Your heart is probably beating too fast.") is None
    assert al.find("splenomegaly", "The spleen is normal.") is None


def test_a_slash_after_an_adjective_is_not_an_alternative():
    import cuelex

    assert not cuelex.extract("Calcified mediastinal/hilar lymph nodes.")
    assert {p.level.value for p in cuelex.extract("Mild atelectasis/scarring.")} == {"UL3"}
