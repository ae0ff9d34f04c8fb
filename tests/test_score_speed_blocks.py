"""docs/scoring.md keeps its prose: benchmark/score_speed.py writes only its marked blocks."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pandas as pd
import pytest
from _helpers import bench_module

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmark"
PAGE = ROOT / "docs" / "scoring.md"


ss = bench_module("score_speed")
ec = bench_module("evalcommon")


def _fake_blocks() -> dict[str, str]:
    """``score_speed.render`` on made-up measurements: the blocks a run writes, without the run."""
    from cuelex.metrics import RATES

    from cuelex import align as A

    wide = pd.DataFrame(0.25, index=list(ss.TRANSFORMS), columns=list(RATES))
    speed = {
        "pairs_docs": 12,
        "chunks": 7,
        "source_chars": 123.4,
        "cue_pairs": 34,
        "seconds": 0.5,
        "docs_per_s": 24.0,
        "ms_per_doc": 41.7,
        "chars_per_s": 5000.0,
        "extract_share": 0.1,
        "seconds_noboot": 0.25,
    }
    lay = {"default tiers": (3, 4, 0, 2, 1, 24)}
    fuzzy = [(80, 4, 2, 3), (int(A.FUZZY_THRESHOLD), 4, 1, 2), (92, 2, 0, 0)]
    wrong = [{"target": "arthritis", "output_phrase": "arteritis", "ratio": 88.9}]
    return ss.render(
        [("200 KB single line", 200_000, 17, 1.5)],
        speed,
        wide,
        {"exact": 30, "cui": 4},
        lay,
        None,
        None,
        fuzzy,
        4,
        5,
        wrong,
        9,
        10,
        1,
        3,
    )


def _outside(text: str, names) -> str:
    """``text`` with the content of every named block taken out (markers kept)."""
    for name in names:
        begin, end = ec.block_markers(name)
        text = re.sub(re.escape(begin) + ".*?" + re.escape(end), begin + end, text, flags=re.S)
    return text


def test_every_block_score_speed_writes_has_its_markers_on_the_page() -> None:
    blocks = _fake_blocks()
    assert tuple(blocks) == ss.BLOCKS
    text = PAGE.read_text(encoding="utf-8")
    for name in ss.BLOCKS:
        begin, end = ec.block_markers(name)
        assert text.count(begin) == 1 and text.count(end) == 1, name
        assert text.index(begin) < text.index(end), name
    ec.check_blocks(PAGE, ss.BLOCKS)
    # rewrite_eval.py's block sits on the same page and is not score_speed.py's
    assert "rewrites" not in ss.BLOCKS and "<!-- rewrites:begin -->" in text


def test_rendered_blocks_hold_the_measurements() -> None:
    from cuelex import align as A

    blocks = _fake_blocks()
    assert "| 12 | 0.5 | **24.0** | 41.7 | 5,000.0 |" in blocks["speed"]
    assert "exact 30, cui 4" in blocks["speed"]
    assert f"{A.FUZZY_THRESHOLD:g} (default) | 4/4 | 1/5 | 2/5 |" in blocks["fuzzy"]
    assert '"arthritis" ~ "arteritis" (88.9)' in blocks["fuzzy"]
    assert f"≥ {A.FUZZY_MIN_CHARS} characters" in blocks["align-defaults"]
    assert blocks["score-cases"].startswith("11 cases: 9 of 10 ")
    assert "| lay terms | 25.0% |" in blocks["per-rewrite"]
    assert "**3/4 (75%)**" in blocks["lay-rewrites"]
    assert "| 200 KB single line | 200,000 | 17 | 1.5 |" in blocks["long-inputs"]
    assert "not measured here" in blocks["bertscore"]
    assert "Machine:" in blocks["speed-run"]


def test_writing_the_blocks_leaves_everything_outside_them_byte_identical(tmp_path: Path) -> None:
    page = tmp_path / "scoring.md"
    shutil.copyfile(PAGE, page)
    before = page.read_bytes()
    blocks = _fake_blocks()
    ec.write_blocks(page, blocks)
    after = page.read_bytes()
    assert after != before
    old, new = before.decode("utf-8"), after.decode("utf-8")
    assert _outside(new, ss.BLOCKS).encode("utf-8") == _outside(old, ss.BLOCKS).encode("utf-8")
    for name, body in blocks.items():
        begin, end = ec.block_markers(name)
        assert f"{begin}\n{body}\n{end}" in new
    # the page's current blocks written back give the page byte for byte
    current = {}
    for name in ss.BLOCKS:
        begin, end = ec.block_markers(name)
        current[name] = old.split(begin + "\n", 1)[1].split("\n" + end, 1)[0]
    ec.write_blocks(page, current)
    assert page.read_bytes() == before


@pytest.mark.parametrize("broken", ["missing end", "missing begin", "repeated", "reversed"])
def test_a_bad_marker_is_an_error_naming_block_and_page(tmp_path: Path, broken: str) -> None:
    page = tmp_path / "scoring.md"
    text = PAGE.read_text(encoding="utf-8")
    begin, end = ec.block_markers("fuzzy")
    if broken == "missing end":
        text = text.replace(end, "")
    elif broken == "missing begin":
        text = text.replace(begin, "")
    elif broken == "repeated":
        text += f"\n{begin}\nagain\n{end}\n"
    else:
        text = text.replace(begin, "@@").replace(end, begin).replace("@@", end)
    page.write_text(text, encoding="utf-8")
    with pytest.raises(ec.MissingBlock, match=r"block 'fuzzy'") as err:
        ec.write_blocks(page, _fake_blocks())
    assert str(page) in str(err.value)
    assert page.read_text(encoding="utf-8") == text  # nothing written, no block appended


def test_score_speed_stops_before_measuring_when_a_marker_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = tmp_path / "scoring.md"
    text = PAGE.read_text(encoding="utf-8").replace("<!-- score-cases:end -->", "")
    page.write_text(text, encoding="utf-8")
    monkeypatch.setattr(ss, "OUT", page)

    def measure(*_a, **_k):
        raise AssertionError("measured although the page cannot take the blocks")

    monkeypatch.setattr(ss, "build_pairs", measure)
    with pytest.raises(ec.MissingBlock, match=r"block 'score-cases'"):
        ss.main(["--n", "6", "--repeats", "1"])
    assert page.read_text(encoding="utf-8") == text


def test_the_realtext_scripts_use_the_same_block_writer() -> None:
    gold = bench_module("realtext_gold")
    assert gold.write_block is ec.write_block


@pytest.mark.parametrize("section", ["negation_eval", "assertion_eval", "assertion_test"])
def test_accuracy_sections_replace_only_their_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, section: str
) -> None:
    """negation_eval.py / assertion_eval.py write their block of docs/accuracy.md; the page's
    hand-written prose (header, real-text section) is never rebuilt from code."""
    page = tmp_path / "accuracy.md"
    text = (ROOT / "docs" / "accuracy.md").read_text(encoding="utf-8")
    page.write_text(text, encoding="utf-8")
    monkeypatch.setattr(ec, "ACCURACY_MD", page)
    assert ec.write_accuracy_section(section, "new table\n") == page
    begin, end = ec.block_markers(section)
    head, rest = text.split(begin, 1)
    assert page.read_text(encoding="utf-8") == f"{head}{begin}\nnew table\n{end}{rest.split(end, 1)[1]}"
