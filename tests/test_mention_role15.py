"""Choosing among several output mentions by the source statement's role, and the evaluator's
split of found-but-misread pairs into a wrong mention or an unread level (session 15; held-out
probes in benchmark/data/level_probes15.jsonl, written before the rules)."""

from __future__ import annotations

import pytest
from _helpers import bench_module

from cuelex.scoring import score


def _pair(source: str, output: str, target: str):
    report = score(source, output, n_boot=0)
    return next(p for p in report.pairs if p.source.target_text.lower() == target)


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # a stated finding: the statement, not the check for it, corresponds to the source
        ("Suspected appendicitis.", "Next steps: CT to look for appendicitis. We think you may have appendicitis.", "appendicitis", "UL3"),
        # a check in the source: the check, not an added statement, corresponds to it
        ("We obtained x-rays of the right wrist and will order a CT to evaluate for a scaphoid fracture.",
         "Right wrist x-rays were reviewed and a scaphoid fracture is likely.\nNext: CT for a scaphoid fracture.",
         "scaphoid fracture", "UL5"),
        ("I recommended an MRI of the left shoulder to evaluate for a labral tear.",
         "Your left shoulder pain may be from a labral tear.\n\nNext steps:\n- Labral tear workup with a scan.",
         "labral tear", "UL5"),
    ],
)
def test_the_mention_in_the_source_role_is_chosen(source: str, output: str, target: str, level: str) -> None:
    p = _pair(source, output, target)
    assert p.output_level is not None and p.output_level.value == level
    assert p.level_source == "same_role"
    assert p.level_ambiguous  # the other occurrence stays an alternative, so the pair is flagged


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # one mention only: a real change of role stays a change
        ("Suspected appendicitis.", "Next steps: CT to look for appendicitis.", "appendicitis", "UL5"),
        # no other mention with a level of its own: an asserted heading is never preferred
        ("Suspected appendicitis.", "**Appendicitis**\n- CT to look for appendicitis.", "appendicitis", "UL5"),
    ],
)
def test_no_other_mention_in_the_role_keeps_the_reading(source: str, output: str, target: str, level: str) -> None:
    p = _pair(source, output, target)
    assert p.output_level is not None and p.output_level.value == level
    assert p.level_source != "same_role"


def test_level_misses_split_wrong_mention_from_unread_level() -> None:
    rewrite_eval = bench_module("rewrite_eval")
    p = _pair("Possible gallstones.", "You might have gallstones. An ultrasound will check for gallstones.", "gallstones")
    assert p.output_level is not None and p.output_level.value == "UL3"
    wrong, several, only = rewrite_eval.MENTION_MISSES
    assert rewrite_eval.mention_miss(p, "UL5") == wrong
    assert rewrite_eval.mention_miss(p, "UL2") == several
    single = _pair("Possible gallstones.", "You have gallstones.", "gallstones")
    assert rewrite_eval.mention_miss(single, "UL3") == only


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # the finding names what a test, swab or screen looks for: UL5 (output_reading.tsv, role test)
        ("Throat swab to check for strep.", "Rapid strep antigen test today.", "strep", "UL5"),
        ("Will check for chlamydia.", "Chlamydia swab sent.", "chlamydia", "UL5"),
        ("Consider evaluation for celiac disease.", "- Celiac disease panel at next visit", "celiac disease", "UL5"),
        ("We will evaluate for appendicitis.", "CT abdomen for appendicitis tonight.", "appendicitis", "UL5"),
        ("Check for influenza.", "Rapid flu today, treat if positive.", "influenza", "UL5"),
        # a result in the same clause states the finding (role test_result)
        ("Possible strep.", "Strep test came back positive.", "strep", "ASSERTED"),
        # a verbless negative result right after the finding is its absence (role result_negative)
        ("Possible chlamydia.", "Chlamydia swab negative; no treatment.", "chlamydia", "UL1"),
        ("Possible appendicitis.", "CT for appendicitis showed an inflamed appendix.", "appendicitis", "ASSERTED"),
    ],
)
def test_a_test_phrase_makes_its_object_a_check(source: str, output: str, target: str, level: str) -> None:
    p = _pair(source, output, target)
    assert p.output_level is not None and p.output_level.value == level
    assert (p.level_source == "test") == (level == "UL5")


def test_the_test_rows_are_in_the_table() -> None:
    from cuelex.scoring import scorer

    rows = scorer.output_reading()
    assert {"test", "test_before", "test_result"} <= set(rows)
    assert scorer._tested_for("Hep C screening ordered.", 0, 5) is not None
    assert scorer._tested_for("Hep C screening was negative.", 0, 5) is None
