"""Word lists of the target rules live in rules/targets.yaml, not in engine code (issue 14's
review): the fillers between a watching verb's "for" and its course noun, and the strip_leading
items that a following number keeps ("changes in 6 months"). Each item is run by an example."""

from __future__ import annotations

import dataclasses
import functools

import pytest

import cuelex
from cuelex.extraction.engine import Engine
from cuelex.resources import default_resources
from cuelex.schema import TargetRules

_RES = default_resources()
_T = _RES.targets


@functools.lru_cache(maxsize=1)
def _without_lists() -> Engine:
    """An engine whose rules lack both lists (one engine: building one takes seconds)."""
    update = {"watch_fillers": (), "strip_leading_unless_number": ()}
    return Engine(dataclasses.replace(_RES, targets=_T.model_copy(update=update)), memo=False)


def _pairs(engine: Engine, text: str) -> set[tuple[str, str]]:
    return {(p.target_text, p.level.value) for p in engine.extract(text)}


# one sentence per filler: the course noun after it is the watched finding's course
_FILLER_EXAMPLES = {
    "or": ("Monitor for any further growth or changes.", "changes"),
    "and": ("We will monitor for growth and changes.", "changes"),
    ",": ("We will monitor for growth, changes.", "changes"),
    "any": ("We will watch for any changes.", "changes"),
    "further": ("We will watch for further changes.", "changes"),
    "new": ("Monitor for new growth or changes.", "changes"),
    "signs": ("We will monitor for signs of changes.", "changes"),
    "sign": ("We will monitor for any sign of change.", "change"),
    "of": ("We will monitor for evidence of change.", "change"),
    "evidence": ("We will monitor for evidence of change.", "change"),
}


def test_every_watch_filler_has_an_example() -> None:
    assert set(_T.watch_fillers) == set(_FILLER_EXAMPLES)


@pytest.mark.parametrize("filler", sorted(_FILLER_EXAMPLES))
def test_a_watch_filler_keeps_the_course_noun_a_target(filler: str) -> None:
    text, target = _FILLER_EXAMPLES[filler]
    assert (target, "UL5") in _pairs(cuelex.get_engine(), text)
    # the list is what the engine reads: without the fillers the same course noun is no target
    assert (target, "UL5") not in _pairs(_without_lists(), text)


@pytest.mark.parametrize("item", _T.strip_leading_unless_number)
def test_a_number_after_an_excepted_lead_in_keeps_the_course_noun(item: str) -> None:
    text = f"We will monitor for {item} 6 months."
    noun = item.split()[0]
    assert (noun, "UL5") in _pairs(cuelex.get_engine(), text)
    # stripped as any lead-in when the exception is not listed: no course noun is left
    assert (noun, "UL5") not in _pairs(_without_lists(), text)


def test_an_exception_must_be_a_strip_leading_item() -> None:
    data = _T.model_dump()
    data["strip_leading_unless_number"] = ("changes within",)
    with pytest.raises(ValueError, match="strip_leading_unless_number"):
        TargetRules.model_validate(data)
