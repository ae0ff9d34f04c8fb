"""An organ after "problem/trouble with" is what is wrong; after a test's purpose it names no finding."""

from __future__ import annotations

import pytest

import cuelex


@pytest.mark.parametrize(
    ("text", "target", "level"),
    [
        ("It could be a problem with your bladder.", "bladder", "UL3"),
        ("There may be some trouble with the right knee.", "right knee", "UL3"),
        ("We will check whether there are issues with his kidneys.", "kidneys", "UL5"),
    ],
)
def test_an_organ_after_problem_with_is_the_finding(text: str, target: str, level: str) -> None:
    pairs = [(p.target_text, p.level.value) for p in cuelex.extract(text)]
    assert (target, level) in pairs, pairs


def test_an_organ_a_test_looks_at_is_no_finding() -> None:
    assert not cuelex.extract("We will get an ultrasound to look at the kidneys and bladder.")
