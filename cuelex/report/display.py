"""displaCy view of cues and targets, in the level colours of the HTML report.

>>> from cuelex.display import render
>>> html = render("Possible pneumonia. No effusion.", jupyter=False)
>>> "UL3 cue" in html and "UL1 target" in html
True

``render(doc_or_text)`` takes a ``Doc`` processed by the ``cuelex`` component (``cuelex.load()``
or any pipeline with ``nlp.add_pipe("cuelex")``), or a plain string (run through a cached
``cuelex.load()`` pipeline), and renders every cue–target pair with ``spacy.displacy`` in manual
mode: ``style="span"`` (default; overlapping spans allowed, so a cue shared by two targets —
"no effusion or pneumothorax" — is drawn once and both targets are shown) or ``style="ent"``.
Labels are ``"<LEVEL> cue"`` and ``"<LEVEL> target"``, coloured with
:data:`cuelex.report.LEVEL_COLORS`. In Jupyter the markup is also displayed (auto-detected, or
``jupyter=True``); the HTML string is always returned, and ``page=True`` wraps it in a full page.
displaCy escapes the text, so a note containing ``<script>`` shows it as text.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..component import load
from ..extensions import PAIRS_KEY
from .style import LEVEL_COLORS

__all__ = ["COLORS", "render", "to_manual"]

#: displaCy ``options["colors"]``: one colour per label, cue and target of each level.
COLORS: dict[str, str] = {
    **{f"{lv} cue": c for lv, c in LEVEL_COLORS.items()},
    **{f"{lv} target": c for lv, c in LEVEL_COLORS.items()},
}


@lru_cache(maxsize=1)
def _nlp() -> Any:
    return load()


def _doc(doc_or_text: Any) -> Any:
    from spacy.tokens import Doc

    if isinstance(doc_or_text, str):
        return _nlp()(doc_or_text)
    if isinstance(doc_or_text, Doc):
        if not doc_or_text.has_extension("cue_pairs"):
            raise ValueError("the Doc has no cue pairs: run it through the cuelex component")
        return doc_or_text
    raise TypeError(f"expected a spaCy Doc or a string, got {type(doc_or_text).__name__}")


def _spans(doc: Any) -> list[dict[str, Any]]:
    """Cue and target spans of every pair (deduplicated), with token and character offsets."""
    if PAIRS_KEY not in doc.user_data:
        raise ValueError(
            "the Doc was not processed by the cuelex component (no Doc._.cue_pairs): "
            'use cuelex.load() or nlp.add_pipe("cuelex")'
        )
    seen: set[tuple[int, int, str]] = set()
    spans: list[dict[str, Any]] = []
    for p in doc._.cue_pairs:
        for kind, start, end in (
            ("cue", p.cue_start, p.cue_end),
            ("target", p.target_start, p.target_end),
        ):
            label = f"{p.level.value} {kind}"
            key = (start, end, label)
            if key in seen:
                continue
            seen.add(key)
            span = doc.char_span(start, end, alignment_mode="expand")
            if span is None:  # pragma: no cover - expand always finds tokens for a non-empty span
                continue
            spans.append(
                {
                    "start": span.start_char,
                    "end": span.end_char,
                    "start_token": span.start,
                    "end_token": span.end,
                    "label": label,
                }
            )
    spans.sort(key=lambda s: (s["start"], -s["end"], s["label"]))
    return spans


def to_manual(doc_or_text: Any, style: str = "span") -> dict[str, Any]:
    """The displaCy manual-mode dict of a Doc or text (``style`` "span" or "ent")."""
    doc = _doc(doc_or_text)
    spans = _spans(doc)
    if style == "span":
        return {"text": doc.text, "spans": spans, "tokens": [t.text for t in doc]}
    if style == "ent":
        # entities cannot overlap: keep the first of overlapping spans (cues before targets)
        ents, last_end = [], -1
        for s in sorted(spans, key=lambda s: (s["start"], s["end"])):
            if s["start"] >= last_end:
                ents.append({"start": s["start"], "end": s["end"], "label": s["label"]})
                last_end = s["end"]
        return {"text": doc.text, "ents": ents}
    raise ValueError(f'style must be "span" or "ent", got {style!r}')


def render(
    doc_or_text: Any,
    jupyter: bool | None = None,
    *,
    style: str = "span",
    page: bool = False,
    options: dict[str, Any] | None = None,
) -> str:
    """HTML of the Doc's (or text's) cues and targets with level colours (see module docstring).

    ``jupyter=None`` auto-detects a notebook and displays the result there; ``jupyter=False``
    never displays. The markup is returned either way.
    """
    from spacy import displacy
    from spacy.util import is_in_jupyter

    manual = to_manual(doc_or_text, style)
    opts = {"colors": dict(COLORS), **(options or {})}
    if style == "ent":
        opts.setdefault("ents", list(COLORS))
    html = displacy.render(manual, style=style, manual=True, page=page, jupyter=False,
                           options=opts)  # fmt: skip
    if jupyter or (jupyter is None and is_in_jupyter()):
        from IPython.display import HTML, display

        display(HTML(f'<span class="tex2jax_ignore">{html}</span>'))
    return html
