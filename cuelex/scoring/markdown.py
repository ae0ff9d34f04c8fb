"""Markdown headings and labels of OUTPUT texts: one home for the wordings scoring reads as layout.

An LLM rewrite writes headings ("### Plan", "**Assessment:**"), list items ("- ", "1. ") and inline
labels ("- **Call MD for:** dyspnea"); the scorer (list lead-ins, plan labels) and the aligner
(heading/label mentions) recognise them here, and so do the aligner's label-mention test
(``align.label_at``: what may stand around a mention that is only a label) and the scorer's
heading/body reader (``scorer._heading_body_pair``: a heading mention's prefix and suffix, the blank
line before its body and the next heading that ends it). The decisions made with them (which
mention to prefer, which body pair answers a heading) stay with their callers. The sentence splitter's header test
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


# --- A mention that is only a label on its line (the aligner's label test, ``align.label_at``) ---

#: What may stand before a mention that is only a label: indentation, then a "#" heading mark, a
#: bullet (or ">" quote) or a number, then an opening emphasis ("- **", "## ", "> _").
LABEL_PREFIX = regex.compile(
    r"[ \t]*(?:#{1,6}[ \t]*|[-*•+>][ \t]+|\d{1,2}[.)][ \t]+)?(?:\*\*|__|\*|_)?[ \t]*", regex.V1
)
#: What may stand after a label mention to its line's end: a closing emphasis and a colon ("**:").
LABEL_LINE_END = regex.compile(r"[ \t]*(?:\*\*|__|\*|_)?[ \t]*:?[ \t]*(?:\*\*|__)?[ \t]*", regex.V1)
#: An opening bold span at a (stripped) line's start, after an optional bullet or number ("1. **").
EMPHASIS_OPEN = regex.compile(r"(?:[-*•+][ \t]+|\d{1,2}[.)][ \t]+)?(?:\*\*|__)", regex.V1)
#: A bold span closed with a colon after the mention, inside or outside it ("**:", ":**"): an
#: emphasised label before the text that says it ("**Enlarged heart**: the heart is big").
EMPHASIS_COLON = regex.compile(r"[ \t]*(?:\*\*|__)[ \t]*:|[ \t]*:[ \t]*(?:\*\*|__)", regex.V1)
#: A bold problem title opening its line, numbered or not ("**#1 ", "- **2. ", "**"), before a mention
#: that is the whole title; see :data:`EMPHASIS_DASH`.
BOLD_TITLE_PREFIX = regex.compile(
    r"[ \t]*(?:[-*•+][ \t]+|\d{1,2}[.)][ \t]+)?(?:\*\*|__)[ \t]*(?:#?\d{1,2}[.)]?[ \t]+)?", regex.V1
)
#: A bold span closed right after the mention and a dash before the text that says more ("**#1
#: Kidney stones** – recent episode"): the mention is the problem's title, a label.
EMPHASIS_DASH = regex.compile(r"[ \t]*(?:\*\*|__)[ \t]*(?:–|—|-)[ \t]", regex.V1)

# --- A heading mention and the body under it (the scorer's heading/body reader) ---

#: A mention that is a heading or problem-list title: at most a bullet, "#", emphasis, a number
#: and a side word before it on its line ("**1. R elbow contusion**", "1. **Kidney stone**",
#: "### Reflux"); matched with ``fullmatch(text, line_start, mention_start)``.
HEADING_PREFIX = regex.compile(
    r"[ \t]*(?:[-*•+][ \t]+)?(?:#{1,6}[ \t]*)?(?:\d{1,2}[.)][ \t]*)?(?:\*\*|__)?[ \t]*"
    r"(?:#?\d{1,2}(?:[.)][ \t]*|[ \t]+))?"
    r"(?:(?:r|l|rt|lt|right|left|bilateral|b/l)\.?[ \t]+)?$",
    regex.V1 | regex.IGNORECASE,
)
#: A heading that names a complaint, then the finding after a dash ("1. **R knee pain – lateral
#: meniscus tear**", "### Cough – bronchitis"): the label before the dash opens a bold span
#: (group ``bold``) or a markdown heading (group ``hash``), with no full stop, colon or clause break
#: in it; a mention may stand after a few words of the title ("– lateral ligament strain" matched on
#: its head).
HEADING_LABEL_PREFIX = regex.compile(
    r"[ \t]*(?:[-*•+][ \t]+)?(?:(?P<hash>#{1,6})[ \t]*)?(?:\d{1,2}[.)][ \t]*)?"
    r"(?P<bold>\*\*|__)?[ \t]*"
    r"(?:#?\d{1,2}(?:[.)][ \t]*|[ \t]+))?[^\n*_:.;!?()–—]{2,40}?[ \t]+(?:–|—|-)[ \t]+"
    r"(?:[\w/'’-]+\.?[ \t]+){0,3}$",
    regex.V1 | regex.IGNORECASE,
)
#: What may follow a heading mention before its body or the line end: emphasis, a short
#: parenthetical ("(3rd episode)") and a colon or dash.
HEADING_SUFFIX = regex.compile(
    r"[ \t]*(?:\*\*|__)?[ \t]*(?:\([^()\n]{1,40}\)[ \t]*(?:\*\*|__)?[ \t]*)?"
    r"(?::|–|—|-)?[ \t]*(?:\*\*|__)?[ \t]*",
    regex.V1,
)
#: The blank line between a heading and its body (the heading line's own end included).
BLANK_AFTER_HEADING = regex.compile(r"[ \t]*\n[ \t]*\n[ \t]*(?=\S)", regex.V1)
#: A line that opens the next heading ("#", bold or a number): the body of the previous one
#: ends there.
NEXT_HEADING = regex.compile(r"\n[ \t]*(?:#{1,6}|\*\*|__|\d{1,2}[.)])", regex.V1)


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
