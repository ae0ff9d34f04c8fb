"""The fast paths give exactly what the straightforward paths give, on the same rules.

The optimised engine (prefix-dispatched scanner, direct record construction) is compared with an
engine of the same resources whose scanner is one POSIX alternation of every pattern and whose
records come from ``CueTargetPair.model_construct``: the pairs (offsets, levels, rule ids, every
field) must be identical on the demo corpus and, when the shared IU development reports are
present, on those real chest X-ray reports. Both sides are built at test time from the current
rules, so the test stays valid when rules change.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import regex

import cuelex
from cuelex import extraction as X
from cuelex.cli import demo_corpus_path
from cuelex.records import CueTargetPair

IU_FILE = Path(
    os.environ.get(
        "CUELEX_IU_REPORTS",
        Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "eval" / "iu_cxr_dev.jsonl",
    )
)


def _reference_engine() -> X.Engine:
    fast = cuelex.get_engine()
    ref = X.Engine(fast.resources)
    ref._scan = X._Scanner(fast._scan.items, dispatch=False)
    # context rules' "preceded by" searched forwards from the sentence start (the fast path
    # searches backwards from the cue)
    ref._context = [
        (
            rule,
            regex.compile(f"(?:{rule.preceded_by})\\Z", X._FLAGS) if rule.preceded_by else None,
            after,
        )
        for rule, _before, after in fast._context
    ]
    return ref


def _fields(pairs: list[CueTargetPair]) -> list[tuple]:
    return [(p.__dict__, p.model_fields_set) for p in pairs]


def _compare(texts: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    fast = cuelex.get_engine()
    got = [_fields(fast.extract(t, doc_id=str(i))) for i, t in enumerate(texts)]
    ref = _reference_engine()
    with monkeypatch.context() as m:
        m.setattr(X, "_new_pair", CueTargetPair.model_construct)
        want = [_fields(ref.extract(t, doc_id=str(i))) for i, t in enumerate(texts)]
    n = 0
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == w, f"document {i} differs"
        n += len(g)
    return n


def test_demo_corpus_same_pairs_as_reference_path(monkeypatch):
    with open(demo_corpus_path(), encoding="utf-8") as fh:
        texts = [json.loads(line)["text"] for line in fh]
    assert _compare(texts, monkeypatch) > 1000


@pytest.mark.skipif(not IU_FILE.exists(), reason="shared IU development reports not present")
def test_iu_reports_same_pairs_as_reference_path(monkeypatch):
    texts = []
    with open(IU_FILE, encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            if r.get("findings") or r.get("impression"):
                texts.append(
                    f"FINDINGS: {(r.get('findings') or '').strip()}\n"
                    f"IMPRESSION: {(r.get('impression') or '').strip()}"
                )
    assert _compare(texts[:600], monkeypatch) > 500


def test_scanner_text_with_odd_whitespace_matches_reference():
    """Whitespace runs, tabs, no-break spaces and line breaks inside multi-word cues."""
    fast = cuelex.get_engine()._scan
    ref = X._Scanner(fast.items, dispatch=False)
    text = (
        "Pneumonia is\t\tnot   excluded.\nEffusion is\u00a0not\n seen. It is  unclear\twhether "
        "there is\u2003a mass. No  evidence of\r\nPE; r/o   MI. Cannot  be\n\nexcluded: edema"
    )
    for k in range(0, len(text)):
        piece = text[k:]
        ours = [(m.start(), m.end(), m.lastgroup) for m in fast.finditer(piece)]
        want = [(m.start(), m.end(), m.lastgroup) for m in ref.finditer(piece)]
        assert ours == want


def test_direct_construction_equals_model_construct():
    values = dict(
        doc_id=None,
        sentence="Possible pneumonia.",
        sentence_start=0,
        sentence_end=19,
        cue_text="Possible",
        cue_start=0,
        cue_end=8,
        level=cuelex.Level.UL3,
        cue_level=cuelex.Level.UL3,
        rule_id="possible",
        direction=cuelex.Direction.FORWARD,
        target_text="pneumonia",
        target_start=9,
        target_end=18,
        modifiers=(),
    )
    fast = X._new_pair(**values)
    ref = CueTargetPair.model_construct(**values)
    assert X._new_pair.simple
    assert fast == ref
    assert list(fast.__dict__) == list(ref.__dict__)
    assert fast.model_fields_set == ref.model_fields_set
    assert fast.model_dump(mode="json") == ref.model_dump(mode="json")
    assert fast.model_dump(exclude_unset=True) == ref.model_dump(exclude_unset=True)


def test_long_single_line_same_pairs_as_reference_path(monkeypatch):
    """A note with its line breaks and sentence punctuation lost: one sentence of 20,000 chars."""
    with open(demo_corpus_path(), encoding="utf-8") as fh:
        texts = [json.loads(line)["text"] for line in fh][:12]
    flat = " ".join(" ".join("".join(c for c in t if c not in ".!?;:").split()) for t in texts)
    assert _compare([flat[:20_000]], monkeypatch) > 20
