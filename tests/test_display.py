"""displaCy helper: cues and targets with level colours, escaping, Jupyter display."""

from __future__ import annotations

import sys
import types

import pytest

import cuelex
from cuelex.display import COLORS, render, to_manual
from cuelex.report import LEVEL_COLORS

TEXT = "No effusion or pneumothorax. Possible pneumonia. <script>alert(1)</script>"


def test_manual_spans_match_the_pairs():
    m = to_manual(TEXT)
    labels = [(TEXT[s["start"] : s["end"]], s["label"]) for s in m["spans"]]
    assert labels == [
        ("No", "UL1 cue"),
        ("effusion", "UL1 target"),
        ("pneumothorax", "UL1 target"),
        ("Possible", "UL3 cue"),
        ("pneumonia", "UL3 target"),
    ]  # fmt: skip  (the shared cue "No" once)
    doc = cuelex.load()(TEXT)
    for s in m["spans"]:
        assert doc[s["start_token"] : s["end_token"]].text == TEXT[s["start"] : s["end"]]
    ents = to_manual(TEXT, style="ent")["ents"]
    assert [e["label"] for e in ents] == [s["label"] for s in m["spans"]]


@pytest.mark.parametrize("style", ["span", "ent"])
def test_render_html_with_level_colours_and_escaping(style):
    html = render(TEXT, jupyter=False, style=style)
    assert LEVEL_COLORS["UL1"] in html and LEVEL_COLORS["UL3"] in html
    assert "UL3 cue" in html and "UL1 target" in html
    assert "<script>" not in html
    page = render(TEXT, jupyter=False, style=style, page=True)
    assert page.lstrip().lower().startswith("<!doctype html>")


def test_render_doc_and_bad_input():
    nlp = cuelex.load()
    html = render(nlp("Rule out PE."), jupyter=False)
    assert "UL5 cue" in html and COLORS["UL5 target"] in html
    import spacy

    with pytest.raises(ValueError, match="cuelex component"):
        render(spacy.blank("en")("Rule out PE."), jupyter=False)
    with pytest.raises(TypeError, match="Doc or a string"):
        render(42, jupyter=False)
    with pytest.raises(ValueError, match='"span" or "ent"'):
        render("Rule out PE.", jupyter=False, style="dep")


def test_jupyter_display(monkeypatch):
    shown = []
    fake = types.ModuleType("IPython.display")
    fake.HTML = lambda s: ("HTML", s)
    fake.display = shown.append
    monkeypatch.setitem(sys.modules, "IPython", types.ModuleType("IPython"))
    monkeypatch.setitem(sys.modules, "IPython.display", fake)
    html = render("Possible pneumonia.", jupyter=True)
    assert shown and shown[0][0] == "HTML" and html in shown[0][1]
    assert render("Possible pneumonia.", jupyter=False) == html and len(shown) == 1
