"""Markdown headings and labels of OUTPUT texts: one home for the wordings scoring reads as layout.

An LLM rewrite writes headings ("### Plan", "**Assessment:**"), list items ("- ", "1. ") and inline
labels ("- **Call MD for:** dyspnea"); the scorer (list lead-ins, plan labels) and the aligner
(heading/label mentions) recognise them here. The sentence splitter's header test
(``cuelex/extraction/sentences.py``) serves SOURCE extraction and counts words and capitals, not
markdown: it stays there.

Two heading-line patterns differ on purpose (see :func:`is_heading_line`): the aligner asks whether
a stripped line is *only* a short title (a bulleted bold line counts, "#" text at most 80
characters), the lead-in reader asks whether an unstripped non-item line heads the list below it
(indentation allowed, "#" text of any length; item lines are read as items before this is asked).
"""

from __future__ import annotations

from typing import Literal

import regex

#: A list item's marker: a bullet or a number and the space after it.
ITEM_MARK = r"(?:[-*•+][ \t]+|\d{1,2}[.)][ \t]+)"
#: A list item's marker at the start of its line.
ITEM = regex.compile(rf"[ \t]*{ITEM_MARK}", regex.V1)

#: A line that is only a title (the aligner's label test, on a stripped line): a markdown "#"
#: heading of at most 80 characters, or a line that is all bold, a bullet or a number ("1.") and a
#: colon allowed.
TITLE_LINE = regex.compile(
    r"#{1,6}\s+[^\n]{1,80}|(?:[-*•+]\s+|\d{1,2}[.)]\s+)?(?:\*\*|__)[^*_\n]{1,80}(?:\*\*|__)\s*:?",
    regex.V1,
)
#: A line that heads a list below it (the lead-in reader, on an unstripped non-item line): markdown
#: "#" of any length, or a line that is all bold (an optional colon after it), indentation allowed.
LEAD_HEADING = regex.compile(
    r"[ \t]*(?:#{1,6}[ \t]+[^\n]+|(?:\*\*|__)[^*_\n]{1,80}(?:\*\*|__)[ \t]*:?[ \t]*)",
    regex.V1,
)
#: A "label:" opening an item's line, before the run of findings it heads
#: ("- **Call MD for:** dyspnea").
INLINE_LABEL = regex.compile(
    rf"[ \t]*{ITEM_MARK}?(?:\*\*|__)?(?P<label>[^:\n*_]{{2,80}}?)"
    r"[ \t]*(?:\*\*|__)?[ \t]*:(?:\*\*|__)?",
    regex.V1,
)
#: A report section header in capitals closing a lead-in span ("… IMPRESSION", "FINDINGS"): the
#: words before it belong to the previous statement and never scope over what follows its colon.
SECTION_HEAD_END = regex.compile(
    r"(?<![\w'’])(?:\p{Lu}{2,}[ \t]+)*\p{Lu}{4,}(?:\*\*|__)?[ \t]*:?[ \t]*(?:\*\*|__)?[ \t]*$",
    regex.V1,
)


def is_heading_line(line: str, kind: Literal["title", "lead_in"] = "title") -> bool:
    """Is ``line`` (no newline in it) a markdown heading or an all-bold line? ``kind="title"``: a
    stripped line that is only a short title (:data:`TITLE_LINE`); ``kind="lead_in"``: a line that
    heads the list below it (:data:`LEAD_HEADING`)."""
    pattern = TITLE_LINE if kind == "title" else LEAD_HEADING
    return pattern.fullmatch(line) is not None


def item_marker(text: str, pos: int = 0) -> regex.Match[str] | None:
    """The list-item marker (indent, bullet or number) at ``pos`` of ``text``, or None."""
    return ITEM.match(text, pos)


def inline_label(text: str, line_start: int) -> regex.Match[str] | None:
    """The "label:" that opens the line at ``line_start`` ("- **F/u:** CXR", "Workup: CT"), or None;
    its ``label`` group is the label's words."""
    return INLINE_LABEL.match(text, line_start)


def section_head_end(text: str, lo: int, hi: int) -> regex.Match[str] | None:
    """A capitals report section header ending ``text[lo:hi]`` ("… denies IMPRESSION:"), or None:
    the words before it belong to the previous statement."""
    return SECTION_HEAD_END.search(text, lo, hi)
