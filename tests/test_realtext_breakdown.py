"""``realtext_eval.py``'s aggregate breakdown (allowed on the report half): counts only, per gold
level and cause, with found-at-level pairs whose target span differs in their own column."""

from __future__ import annotations

from collections import Counter

from _helpers import bench_module


def test_breakdown_counts_misses_by_cause_and_boundary_separately() -> None:
    ev = bench_module("realtext_eval")
    causes = ev.MISS_CAUSES
    result = {
        "misses": Counter({("UL4", causes[0]): 2, ("UL4", causes[3]): 1, ("UL2", causes[2]): 1}),
        "falses": Counter({ev.FALSE_CAUSES[1]: 3}),
        "boundary": Counter({"UL3": 4, "UL4": 1}),
    }
    out = ev.breakdown(result)
    assert "| UL4 | 2 | 0 | 0 | 1 | 3 | 1 |" in out
    assert "| UL3 | 0 | 0 | 0 | 0 | 0 | 4 |" in out  # a level with boundary misses only is listed
    assert "| UL2 | 0 | 0 | 1 | 0 | 1 | 0 |" in out
    assert "| all | 2 | 0 | 1 | 1 | 4 | 5 |" in out
    assert "UL5" not in out and "non-clinical target 3" in out


def test_breakdown_counts_hedged_false_pairs_by_level_and_cause() -> None:
    """Precision errors of the hedged levels: unmatched pairs by false cause and pairs whose target
    matches a gold pair of another level, per cuelex level; UL1 and hedged absence stay out."""
    ev = bench_module("realtext_eval")
    fc = ev.FALSE_CAUSES
    result = {
        "misses": Counter(),
        "falses": Counter({fc[1]: 2, fc[2]: 1}),
        "boundary": Counter(),
        "false_by_level": Counter({("UL3", fc[1]): 2, ("UL4", fc[2]): 1, ("UL4", ev.WRONG_LEVEL): 1,
                                   ("UL1", fc[3]): 5}),
    }
    out = ev.breakdown(result)
    assert "| UL3 | 0 | 2 | 0 | 0 | 0 | 2 |" in out
    assert "| UL4 | 0 | 0 | 1 | 0 | 1 | 2 |" in out
    assert "| hedged | 0 | 2 | 1 | 0 | 1 | 4 |" in out
    assert "| UL1 |" not in out.split("cuelex level")[1] and "| UL2 |" not in out
