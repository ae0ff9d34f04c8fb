"""``bench.build`` takes its option objects (``BuildOptions``, ``InputOptions``) as well as the
keyword form, with the same result; giving both for the same thing is an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from cuelex.bench import BenchError, BuildOptions, InputOptions, build

NOTES = Path(__file__).parent / "fixtures" / "bench" / "notes.jsonl"


def _docs(result):
    return [d.model_dump(mode="json") for d in result.documents]


def test_option_objects_give_the_same_benchmark_as_keywords():
    by_keywords = build(NOTES, type_col="type", per_type=5, seed=3, link=False)
    by_objects = build(
        NOTES,
        options=BuildOptions(per_type=5, seed=3, link=False),
        reading=InputOptions(type_col="type"),
    )
    assert _docs(by_objects) == _docs(by_keywords)
    assert by_objects.documents


def test_an_object_and_a_differing_keyword_are_refused():
    with pytest.raises(BenchError, match="either as options="):
        build(NOTES, options=BuildOptions(per_type=5), per_type=7)
    with pytest.raises(BenchError, match="either as reading="):
        build(NOTES, reading=InputOptions(type_col="type"), text_col="body")


def test_input_options_resolve_like_resolve_spec():
    from cuelex.bench import resolve_spec

    assert InputOptions("generic", type_col="type").spec(NOTES) == resolve_spec(
        NOTES, "generic", type_col="type"
    )
