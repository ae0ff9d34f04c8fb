"""The one home of output layout wordings (cuelex/scoring/markdown.py): heading lines, item markers,
inline labels and capitals headers, and the scorer readers that take a label match from the caller."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cuelex.scoring import markdown as md
from cuelex.scoring import scorer
from cuelex.scoring.align import label_at


def test_title_line_is_a_short_title_on_a_stripped_line() -> None:
    assert md.is_heading_line("## Your kidneys")
    assert md.is_heading_line("**Next steps:**")
    assert md.is_heading_line("- **Things to watch**")  # a bulleted bold line is a title
    assert not md.is_heading_line("#" + " x" * 60)  # "#" text over 80 characters is no title
    assert not md.is_heading_line("Your kidneys work well.")


def test_lead_in_heading_allows_indent_and_long_hash_lines() -> None:
    assert md.is_heading_line("   ### What we will check", "lead_in")
    assert md.is_heading_line("__Signs to look for__ :", "lead_in")
    assert md.is_heading_line("#" + " x" * 60, "lead_in")
    # the lead-in reader reads item lines as items first, so a bulleted bold line is no heading here
    assert not md.is_heading_line("- **Things to watch**", "lead_in")


def test_item_marker_and_inline_label() -> None:
    assert md.item_marker("  2) check sodium") is not None
    assert md.item_marker("check sodium") is None
    text = "Intro line\n- **Follow up for:** repeat ultrasound"
    label = md.inline_label(text, text.index("- "))
    assert label is not None and label.group("label") == "Follow up for"
    assert md.inline_label("no label on this line", 0) is None


def test_section_head_end_finds_a_capitals_header_closing_a_span() -> None:
    text = "she denies cough FINDINGS: small effusion"
    head = md.section_head_end(text, 0, text.index(":") + 1)
    assert head is not None and text[head.start() :].startswith("FINDINGS")
    assert md.section_head_end("she denies cough", 0, 16) is None


def test_align_label_uses_the_title_line() -> None:
    text = "Summary\n**Gallbladder sludge**\nWe will repeat the scan."
    s = text.index("Gallbladder")
    assert label_at(text, s, s + len("Gallbladder sludge"))


def test_plan_label_and_lead_in_take_the_callers_label_match() -> None:
    text = "- Work-up: repeat CT for a possible abscess"
    s = text.index("abscess")
    label = md.inline_label(text, 0)
    assert scorer._plan_label(text, s, label) == scorer._plan_label(text, s)
    assert scorer._list_lead_in(text, s, label) == scorer._list_lead_in(text, s)
    assert scorer._plan_label(text, s, None) is None  # the caller found no label


_LINES = st.sampled_from(
    ["- **Watch for:** ", "Next: ", "### Plan\n- ", "Dx: ", "1. Workup: CT for ", "We saw ", "Labs (", ""]
)


@settings(max_examples=40, deadline=None)
@given(head=st.lists(_LINES, min_size=1, max_size=3), word=st.sampled_from(["gout", "a bleed", "sepsis"]))
def test_passing_the_label_match_never_changes_a_reading(head: list[str], word: str) -> None:
    text = "".join(head) + word + ", fever"
    s = len(text) - len(word) - len(", fever")
    label = md.inline_label(text, text.rfind("\n", 0, s) + 1)
    assert scorer._plan_label(text, s, label) == scorer._plan_label(text, s)
    assert scorer._list_lead_in(text, s, label) == scorer._list_lead_in(text, s)


def test_label_mention_patterns() -> None:
    # what stands before and after a mention that is only a label on its line
    assert md.LABEL_PREFIX.fullmatch("  - **")
    assert md.LABEL_PREFIX.fullmatch("> _")
    assert not md.LABEL_PREFIX.fullmatch("We think ")
    assert md.LABEL_LINE_END.fullmatch("**:")
    assert not md.LABEL_LINE_END.fullmatch(" is likely")
    assert md.EMPHASIS_OPEN.match("3. __")
    assert md.EMPHASIS_COLON.match(":** the lungs look clear")
    assert md.EMPHASIS_COLON.match(" **: the lungs look clear")
    assert not md.EMPHASIS_COLON.match(" in the lungs")


def test_label_at_takes_an_emphasised_label_before_its_text() -> None:
    text = "- **Fluid near the lung**: a small amount, nothing to drain."
    s = text.index("Fluid")
    assert label_at(text, s, s + len("Fluid near the lung"))
    text = "We saw fluid near the lung today."
    s = text.index("fluid")
    assert not label_at(text, s, s + len("fluid near the lung"))


def test_heading_prefix_and_suffix() -> None:
    text = "2. **Left wrist sprain** (second time):\n- likely a mild sprain"
    s = text.index("wrist")
    assert md.HEADING_PREFIX.fullmatch(text, 0, s)  # number, bold and a side word before it
    e = s + len("wrist sprain")
    after = md.HEADING_SUFFIX.match(text, e)
    assert after is not None and text[after.end()] == "\n"
    assert not md.HEADING_PREFIX.fullmatch("We think the ", 0)


def test_heading_label_prefix_names_hash_or_bold() -> None:
    text = "### Sore throat – strep throat"
    label = md.HEADING_LABEL_PREFIX.fullmatch(text, 0, text.index("strep"))
    assert label is not None and label.group("hash") == "###" and label.group("bold") is None
    text = "- **Back pain – muscle strain**"
    label = md.HEADING_LABEL_PREFIX.fullmatch(text, 0, text.index("muscle"))
    assert label is not None and label.group("bold") == "**"
    assert md.HEADING_LABEL_PREFIX.fullmatch("Pain. Then – ", 0) is None  # a full stop: no title


def test_heading_body_bounds() -> None:
    text = "**Gout**  \n\n- possible gout flare\n**Rash**\n- eczema"
    gap = md.BLANK_AFTER_HEADING.match(text, len("**Gout**"))
    assert gap is not None and text[gap.end()] == "-"
    nxt = md.NEXT_HEADING.search(text, gap.end())
    assert nxt is not None and text[nxt.end() - 2 : nxt.end()] == "**"
    assert md.NEXT_HEADING.search("a\n- b\n  c") is None
