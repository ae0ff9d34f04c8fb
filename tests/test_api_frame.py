"""``to_frame``, custom lexicons and validation errors that name file, entry and field."""

from __future__ import annotations

import textwrap

import pandas as pd
import pytest

import cuelex
from cuelex import ResourceError


def test_to_frame_columns_and_values():
    pairs = cuelex.extract("Possible pneumonia. No effusion.", doc_id="n1")
    frame = cuelex.to_frame(pairs)
    assert list(frame.columns) == list(cuelex.CueTargetPair.model_fields)
    assert frame["level"].tolist() == ["UL3", "UL1"]
    assert frame["doc_id"].tolist() == ["n1", "n1"]
    assert frame["target_text"].tolist() == ["pneumonia", "effusion"]


def test_to_frame_empty_has_columns():
    frame = cuelex.to_frame([])
    assert isinstance(frame, pd.DataFrame) and frame.empty
    assert "target_text" in frame.columns


def test_to_frame_rejects_other_objects():
    with pytest.raises(TypeError, match="CueTargetPair"):
        cuelex.to_frame([{"target_text": "x"}])  # type: ignore[list-item]


def _write(path, body):
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


def test_extra_lexicon_adds_a_cue(tmp_path):
    lex = _write(
        tmp_path / "mine.yaml",
        """
        description: a site-specific cue
        entries:
          - id: site.cannot_be_entirely_ruled_out_clinically
            cue: clinically suspected
            pattern: clinically\\s+suspected
            level: UL3
            direction: forward
            examples:
              - text: "Clinically suspected endocarditis."
                target: endocarditis
        """,
    )
    got = cuelex.extract("Clinically suspected endocarditis.", extra_lexicons=[lex])
    assert [(p.rule_id, p.target_text) for p in got] == [
        ("site.cannot_be_entirely_ruled_out_clinically", "endocarditis")
    ]


def test_validation_error_names_file_entry_and_field(tmp_path):
    lex = _write(
        tmp_path / "bad.yaml",
        """
        description: broken
        entries:
          - id: bad.entry
            cue: maybe
            pattern: maybe
            level: UL3
            direction: sideways
            examples:
              - text: "Maybe pneumonia."
                target: pneumonia
        """,
    )
    with pytest.raises(ResourceError) as err:
        cuelex.extract("x", extra_lexicons=[lex])
    msg = str(err.value)
    assert "bad.yaml" in msg and "entry 0" in msg and "'bad.entry'" in msg and "'direction'" in msg


@pytest.mark.parametrize(
    ("field", "value", "needle"),
    [
        ("pattern", "'(unclosed'", "invalid regular expression"),
        ("level", "ASSERTED", "cannot have level ASSERTED"),
        ("pattern", "'x?'", "matches the empty string"),
    ],
)
def test_bad_entry_fields(tmp_path, field, value, needle):
    entry = {"id": "bad.x", "cue": "x", "pattern": "x", "level": "UL3", "direction": "forward"}
    entry[field] = value
    body = "description: d\nentries:\n  - " + "\n    ".join(f"{k}: {v}" for k, v in entry.items())
    body += "\n    examples:\n      - {text: 'x pneumonia', target: pneumonia}\n"
    lex = tmp_path / "bad.yaml"
    lex.write_text(body, encoding="utf-8")
    with pytest.raises(ResourceError, match=needle):
        cuelex.extract("x", extra_lexicons=[lex])


def test_example_target_must_occur_in_text(tmp_path):
    lex = _write(
        tmp_path / "bad.yaml",
        """
        description: d
        entries:
          - {id: bad.y, cue: y, pattern: y, level: UL3, direction: forward,
             examples: [{text: "y pneumonia", target: effusion}]}
        """,
    )
    with pytest.raises(ResourceError, match="does not occur in example text"):
        cuelex.extract("x", extra_lexicons=[lex])


def test_duplicate_ids_rejected(tmp_path):
    lex = _write(
        tmp_path / "dup.yaml",
        """
        description: d
        entries:
          - {id: ul1.no, cue: y, pattern: y, level: UL3, direction: forward,
             examples: [{text: "y pneumonia", target: pneumonia}]}
        """,
    )
    with pytest.raises(ResourceError, match="already defined"):
        cuelex.extract("x", extra_lexicons=[lex])


def test_truncated_yaml_is_a_clear_error(tmp_path):
    lex = tmp_path / "trunc.yaml"
    lex.write_text("description: d\nentries:\n  - {id: a.b, cue: [", encoding="utf-8")
    with pytest.raises(ResourceError, match=r"trunc\.yaml: not valid YAML"):
        cuelex.extract("x", extra_lexicons=[lex])


def test_missing_lexicon_path(tmp_path):
    with pytest.raises(ResourceError, match="not found"):
        cuelex.extract("x", lexicons=tmp_path / "nope")
