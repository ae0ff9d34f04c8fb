"""Self-contained HTML reports: a scored rewrite side by side with its source, and a run table.

``render_report(report)`` takes a :class:`cuelex.scoring.ScoreReport` (or the dict/JSON written by
``ScoreReport.to_json(include_text=True)``, i.e. ``cuelex score SOURCE OUTPUT -o out.json``) and
returns one HTML page with inline CSS and JavaScript only (no external asset, works offline):

* a summary of the metrics at the top (TRR, URR, CAR, PCR, OHR with bootstrap CIs, fates,
  inflation/deflation, negation flips) and the source × output level confusion table;
* the source and the output side by side; every cue is highlighted in its level's colour and its
  target is underlined, at the pairs' exact character offsets (output side: the aligned output
  span and the output cue that governs it);
* each source pair's fate (preserved / certainty_asserted / partial_certainty / over_hedged /
  dropped) marked after its target and linked to the place its target has in the output.

``render_corpus(data)`` renders the JSON of ``cuelex score --table ... -o out.json`` (no texts:
summary, per-group table, confusion table, pairs table). ``render_run(table, plots)`` renders a
system × task × condition table with plots embedded (inline SVG or base64 PNG).

All clinical text is HTML-escaped: a note containing ``<script>`` shows it as text.

>>> from cuelex.scoring import score
>>> page = render_report(score("Possible pneumonia.", "Pneumonia.", n_boot=0))
>>> page.startswith("<!DOCTYPE html>") and "certainty_asserted" in page
True
"""

from __future__ import annotations

import base64
import html
import json
import math
import os
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..levels import LEVEL_ORDER
from . import plots as P
from .style import (
    CI_SUFFIXES,
    FATE_LABELS,
    FATES,
    LEVEL_COLORS,
    LEVEL_DARK,
    LEVEL_NAMES,
    RATES,
    RUN_KEYS,
)

__all__ = [
    "FATE_LABELS",
    "LEVEL_COLORS",
    "load_input",
    "render",
    "render_corpus",
    "render_report",
    "render_run",
    "write_report",
]


_CSS = """
:root{--fg:#1f2328;--muted:#57606a;--line:#d0d7de;--bg:#fff}
*{box-sizing:border-box}
body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:var(--fg);
background:var(--bg);margin:0;padding:16px 24px}
h1{font-size:20px;margin:0 0 8px}h2{font-size:16px;margin:20px 0 8px}
table{border-collapse:collapse;margin:4px 0 12px}
th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.num{text-align:right;font-variant-numeric:tabular-nums}
.ci{color:var(--muted);font-size:12px}
.summary{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
.legend span.sw{display:inline-block;padding:0 6px;margin:2px 4px 2px 0;border-radius:3px}
.panes{display:grid;grid-template-columns:1fr 1fr;gap:16px}
.pane{border:1px solid var(--line);border-radius:6px;padding:0}
.pane h2{margin:0;padding:6px 10px;background:#f6f8fa;border-bottom:1px solid var(--line)}
.text{white-space:pre-wrap;word-wrap:break-word;font:14px/1.9 ui-monospace,SFMono-Regular,
Menlo,Consolas,monospace;padding:10px;margin:0}
.hl.cue{border-radius:3px;padding:1px 0}
.hl.tgt{text-decoration-line:underline;text-decoration-thickness:2px;text-underline-offset:3px}
.hl.focus{outline:2px solid #0969da;outline-offset:1px}
a.fate{text-decoration:none;font-weight:bold;font-size:11px;vertical-align:super;
padding:0 3px;margin-left:1px;border-radius:3px;color:#fff}
a.fate::after{content:attr(data-mark)}
a.anchor{scroll-margin-top:40px}
.muted{color:var(--muted)}
tr.pair:target,tr.pair.focus{background:#fff8c5}
code{font-size:12px}
.cards{display:flex;flex-wrap:wrap;gap:8px;margin:4px 0 8px}
.card{border:1px solid var(--line);border-radius:6px;padding:4px 12px;min-width:96px}
.card .k{font-size:12px;color:var(--muted)}.card .v{font-size:20px;font-weight:600}
.card.wide{display:flex;align-items:center}.card.wide p{margin:0}
.legend{margin-bottom:10px}
.plots img,.plots svg{max-width:100%;height:auto}
.plots figure{margin:8px 0 16px}
.table-wrap{max-width:100%;overflow-x:auto}
table.run{font-size:13px}table.run td.num{white-space:nowrap}
"""
_CSS += "".join(
    f".cue.lv-{lv}{{background:{c}}}.tgt.tlv-{lv}{{text-decoration-color:{LEVEL_DARK[lv]}}}"
    f"span.sw.lv-{lv}{{background:{c}}}"
    for lv, c in LEVEL_COLORS.items()
)
_CSS += "".join(f"a.fate.f-{f}{{background:{c}}}" for f, (_, _, c) in FATE_LABELS.items())

# Clicking a pair (row or highlight) outlines its cue and target on both sides.
_JS = """
(function(){
  function focus(p){
    document.querySelectorAll('.focus').forEach(function(e){e.classList.remove('focus')});
    if(!p){return}
    document.querySelectorAll('[data-pairs~="'+p+'"]').forEach(function(e){
      e.classList.add('focus')});
  }
  document.addEventListener('click',function(ev){
    var el=ev.target.closest('[data-pairs]');
    if(el){focus(el.getAttribute('data-pairs').split(' ')[0])}
  });
})();
"""


# --------------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------------


_ACTIVE_SVG = re.compile(
    r"<\s*(?:script|foreignobject|iframe|embed|object)\b|\son[a-z]+\s*=|javascript:|<\s*/\s*svg\s*>\s*\S",
    re.IGNORECASE,
)


def _esc(value: Any) -> str:
    """HTML-escape any value as text (None -> empty); CR kept as a character reference."""
    if value is None:
        return ""
    return html.escape(str(value), quote=True).replace("\r", "&#13;")


def _json_for_script(obj: Any) -> str:
    """JSON that is safe inside ``<script type="application/json">`` (no ``</script>`` break-out)."""
    text = json.dumps(obj, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def _pct(v: Any) -> str:
    if _missing(v):
        return "n/a"
    return f"{100 * float(v):.1f}%"


def _ci(lo: Any, hi: Any) -> str:
    if _missing(lo) or _missing(hi):
        return ""
    return f' <span class="ci">[{100 * float(lo):.1f}\u2013{100 * float(hi):.1f}]</span>'


def _utf16(text: str, offset: int) -> int:
    """A code-point offset as a UTF-16 offset (what JavaScript's string indices count)."""
    return len(text[:offset].encode("utf-16-le")) // 2


def _page(title: str, body: str, data: Any | None = None) -> str:
    data_block = (
        f'<script type="application/json" id="cuelex-data">{_json_for_script(data)}</script>\n'
        if data is not None
        else ""
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="generator" content="cuelex">\n'
        f"<title>{_esc(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        f"{body}\n{data_block}<script>{_JS}</script>\n</body>\n</html>\n"
    )


def _legend() -> str:
    items = "".join(
        f'<span class="sw lv-{lv}" title="{_esc(LEVEL_NAMES[lv])}">{lv}</span>'
        for lv in LEVEL_COLORS
        if lv != "ASSERTED"
    )
    fates = " ".join(
        f'<a class="fate f-{f}" data-mark="{_esc(m)}" title="{_esc(lab)}"></a> {_esc(lab)}'
        for f, (m, lab, _) in FATE_LABELS.items()
    )
    return (
        f'<div class="legend"><b>cue levels:</b> {items} '
        '<span class="muted">(targets underlined in the level\'s colour; output targets '
        "without a cue are ASSERTED, grey)</span><br><b>fates:</b> "
        f"{fates}</div>"
    )


def _overall_rows(data: Mapping[str, Any], scope: str = "micro") -> dict[str, Mapping[str, Any]]:
    rows = (data.get("metrics") or {}).get("overall") or []
    return {r["metric"]: r for r in rows if r.get("scope") == scope}


def _metrics_table(data: Mapping[str, Any]) -> str:
    micro = _overall_rows(data, "micro")
    macro = _overall_rows(data, "macro")
    rates = data.get("rates") or {}
    settings = (data.get("metrics") or {}).get("settings") or {}
    ci = settings.get("ci", 0.95)
    unit = settings.get("ci_unit", "pair")
    head = f"<tr><th>metric</th><th>micro <span class='ci'>[{round(100 * ci)}% CI]</span></th>"
    if macro:
        head += "<th>macro</th>"
    head += "<th>n</th></tr>"
    body = []
    names = list(RATES) + [
        m
        for m in ("inflation", "deflation", "negation_flip_rate", "polarity_flip_rate")
        if m in micro
    ]
    for name in names:
        r = micro.get(name, {})
        value = r.get("value", rates.get(name))
        num, den = r.get("numerator"), r.get("denominator")
        n = "" if _missing(den) else f"{int(num or 0)}/{int(den)}"
        cells = f"<td>{name}</td><td class='num'>{_pct(value)}{_ci(r.get('ci_low'), r.get('ci_high'))}</td>"
        if macro:
            cells += f"<td class='num'>{_pct(macro.get(name, {}).get('value'))}</td>"
        cells += f"<td class='num'>{n}</td>"
        body.append(f"<tr>{cells}</tr>")
    ratio = micro.get("inflation_deflation_ratio", {}).get("value")
    extra = ""
    if "inflation_deflation_ratio" in micro:
        extra = (
            "<p>inflation/deflation ratio: "
            f"{'n/a' if _missing(ratio) else f'{float(ratio):.2f}'}</p>"
        )
    cs = micro.get("calibrated_shift", {}).get("value")
    if not _missing(cs):
        extra += f"<p>calibrated certainty shift: {float(cs):+.1f} percentage points</p>"
    return (
        f'<div><h2>Metrics</h2><table class="metrics">{head}{"".join(body)}</table>'
        f'<p class="muted">bootstrap CIs resample {_esc(unit)}s; '
        f"{_esc(settings.get('n_boot', '?'))} resamples</p>{extra}</div>"
    )


def _confusion_table(confusion: Mapping[str, Mapping[str, Any]]) -> str:
    if not confusion:
        return ""
    cols: list[str] = []
    for row in confusion.values():
        for c in row:
            if c not in cols:
                cols.append(c)
    head = "<tr><th>source \\ output</th>" + "".join(f"<th>{_esc(c)}</th>" for c in cols) + "</tr>"
    rows = []
    for src, row in confusion.items():
        cells = []
        for c in cols:
            v = int(row.get(c, 0) or 0)
            style = ""
            if v:
                style = (
                    " style='background:#e6f0ff;font-weight:bold'"
                    if c == src
                    else " style='background:#fff1e5'"
                )
            cells.append(f"<td class='num'{style}>{v or ''}</td>")
        rows.append(f"<tr><th>{_esc(src)}</th>{''.join(cells)}</tr>")
    return (
        '<div><h2>Source × output level</h2><table class="confusion">'
        f"{head}{''.join(rows)}</table></div>"
    )


def _confusion_from_pairs(pairs: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    order = [lv.value for lv in LEVEL_ORDER]
    cols = [*order, "DROPPED"]
    counts: Counter[tuple[str, str]] = Counter()
    for p in pairs:
        out = p.get("output_level")
        counts[(p["source_level"], "DROPPED" if _missing(out) else str(out))] += 1
    rows = [lv for lv in order if any(counts[(lv, c)] for c in cols)]
    return {r: {c: counts[(r, c)] for c in cols} for r in rows}


def _cards(d: Mapping[str, Any], pairs: Sequence[Mapping[str, Any]]) -> str:
    """The five rates as cards (with CIs) and the fate counts: the summary at the top."""
    micro = _overall_rows(d, "micro")
    rates = d.get("rates") or {}
    cards = []
    for name in RATES:
        r = micro.get(name, {})
        value = r.get("value", rates.get(name))
        num, den = r.get("numerator"), r.get("denominator")
        n = "" if _missing(den) else f"{int(num or 0)}/{int(den)}"
        cards.append(
            f'<div class="card" data-metric="{name}"><div class="k">{name}</div>'
            f'<div class="v">{_pct(value)}</div>'
            f"<div class='ci'>{_ci(r.get('ci_low'), r.get('ci_high')).strip()} {n}</div></div>"
        )
    return f'<div class="cards">{"".join(cards)}</div>{_fate_counts(pairs)}'


def _fate_counts(pairs: Sequence[Mapping[str, Any]]) -> str:
    c = Counter(p.get("fate") for p in pairs)
    items = ", ".join(
        f'<a class="fate f-{f}" data-mark="{_esc(FATE_LABELS[f][0])}"></a> {_esc(f)} {c.get(f, 0)}'
        for f in FATES
    )
    return f"<p><b>fates:</b> {items}</p>"


# --------------------------------------------------------------------------------------------------
# annotated text
# --------------------------------------------------------------------------------------------------


class _Ann:
    __slots__ = ("end", "id", "kind", "level", "pair", "start", "text", "title")

    def __init__(self, id: str, kind: str, start: int, end: int, level: str, pair: str,
                 text: str, title: str) -> None:  # fmt: skip
        self.id, self.kind, self.start, self.end = id, kind, start, end
        self.level, self.pair, self.text, self.title = level, pair, text, title


def _check_span(side: str, text: str, start: Any, end: Any, expected: Any, what: str) -> None:
    if _missing(start) or _missing(end):
        raise ValueError(f"{what}: missing {side} offsets")
    s, e = int(start), int(end)
    if not (0 <= s <= e <= len(text)):
        raise ValueError(
            f"{what}: {side} offsets {s}:{e} are outside the {side} text ({len(text)} characters)"
        )
    if expected is not None and text[s:e] != expected:
        raise ValueError(
            f"{what}: {side} text at {s}:{e} is {text[s:e]!r}, not {expected!r}; "
            f"the pairs do not index this {side} text"
        )


def _annotated(
    text: str,
    anns: Sequence[_Ann],
    anchors: Mapping[int, list[str]],
    marks: Mapping[int, list[str]],
    pane_id: str,
) -> str:
    """The text as HTML: one ``<span>`` per stretch covered by the same annotations.

    ``anchors[offset]``: ids of empty anchors placed at that offset; ``marks[offset]``: fate-mark
    HTML inserted there (no text content, so the pane's textContent equals ``text``).
    """
    bounds = {0, len(text), *anchors, *marks}
    for a in anns:
        bounds.update((a.start, a.end))
    cuts = sorted(b for b in bounds if 0 <= b <= len(text))
    out: list[str] = []
    for i, a in enumerate(cuts):
        for aid in anchors.get(a, ()):
            out.append(f'<a class="anchor" id="{aid}"></a>')
        for m in marks.get(a, ()):
            out.append(m)
        if i + 1 == len(cuts):
            break
        b = cuts[i + 1]
        if a == b:
            continue
        seg = text[a:b]
        cover = [x for x in anns if x.start <= a and b <= x.end and x.start < x.end]
        if not cover:
            out.append(_esc(seg))
            continue
        cues = [x for x in cover if x.kind == "cue"]
        tgts = [x for x in cover if x.kind == "tgt"]
        cls = ["hl"]
        if cues:
            cls += ["cue", f"lv-{cues[0].level}"]
        if tgts:
            cls += ["tgt", f"tlv-{tgts[0].level}"]
        ids = " ".join(x.id for x in cover)
        pairs = " ".join(dict.fromkeys(x.pair for x in cover))
        title = "\n".join(dict.fromkeys(x.title for x in cover))
        out.append(
            f'<span class="{" ".join(cls)}" data-ann="{_esc(ids)}" data-pairs="{_esc(pairs)}" '
            f'title="{_esc(title)}">{_esc(seg)}</span>'
        )
    return f'<div class="text" id="{pane_id}">{"".join(out)}</div>'


def _pair_title(p: Mapping[str, Any]) -> str:
    return (
        f"{p['source_level']} cue {p['cue_text']!r} \u2192 target {p['target_text']!r}: {p['fate']}"
        + (f" (output {p['output_level']})" if not _missing(p.get("output_level")) else "")
    )


# --------------------------------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------------------------------


def _as_dict(report: Any) -> dict[str, Any]:
    if isinstance(report, Mapping):
        return dict(report)
    if hasattr(report, "to_dict"):
        try:
            d = report.to_dict(include_text=True)
        except TypeError:
            d = report.to_dict()
        extra = getattr(report, "output_pairs", None)
        if extra:
            d["output_pairs"] = [p.model_dump(mode="json") for p in extra]
        return d
    raise TypeError(f"expected a ScoreReport or its to_dict()/JSON, got {type(report).__name__}")


def render_report(report: Any, *, title: str | None = None) -> str:
    """One scored document as a self-contained HTML page (see the module docstring).

    ``report`` is a :class:`cuelex.scoring.ScoreReport` or the dict of
    ``ScoreReport.to_dict(include_text=True)`` (the JSON of ``cuelex score SOURCE OUTPUT -o``).
    Raises ``ValueError`` when the texts are missing or a pair's offsets do not index them.
    """
    d = _as_dict(report)
    source, output = d.get("source"), d.get("output")
    if not isinstance(source, str) or not isinstance(output, str):
        raise ValueError(
            "the report has no source/output text: write it with "
            "ScoreReport.to_json(path, include_text=True) (what `cuelex score SOURCE OUTPUT -o` "
            "does); a corpus JSON (`cuelex score --table`) is rendered by render_corpus"
        )
    pairs = list(d.get("pairs") or [])
    src_anns: list[_Ann] = []
    out_anns: list[_Ann] = []
    src_anchors: dict[int, list[str]] = {}
    out_anchors: dict[int, list[str]] = {}
    marks: dict[int, list[str]] = {}
    expected: list[dict[str, Any]] = []

    def add(side: str, ann: _Ann) -> None:
        (src_anns if side == "source" else out_anns).append(ann)
        text = source if side == "source" else output
        expected.append(
            {
                "id": ann.id,
                "side": side,
                "kind": ann.kind,
                "level": ann.level,
                "start": ann.start,
                "end": ann.end,
                "js_start": _utf16(text, ann.start),
                "js_end": _utf16(text, ann.end),
                "text": ann.text,
            }
        )

    for i, p in enumerate(pairs):
        what = f"pair {i} ({p.get('cue_text')!r} -> {p.get('target_text')!r})"
        for key in ("cue_text", "target_text", "source_level", "fate"):
            if key not in p:
                raise ValueError(f"{what}: missing {key!r}; is this the JSON of `cuelex score`?")
        if p["fate"] not in FATE_LABELS:
            raise ValueError(f"{what}: unknown fate {p['fate']!r}; expected one of {FATES}")
        _check_span("source", source, p.get("cue_start"), p.get("cue_end"), p["cue_text"], what)
        _check_span(
            "source", source, p.get("target_start"), p.get("target_end"), p["target_text"], what
        )
        pid = f"p{i}"
        ptitle = _pair_title(p)
        lvl = str(p["source_level"])
        add("source", _Ann(f"s{i}-cue", "cue", int(p["cue_start"]), int(p["cue_end"]), lvl, pid,
                           p["cue_text"], ptitle))  # fmt: skip
        add("source", _Ann(f"s{i}-tgt", "tgt", int(p["target_start"]), int(p["target_end"]), lvl,
                           pid, p["target_text"], ptitle))  # fmt: skip
        src_anchors.setdefault(int(p["target_start"]), []).append(f"src-{pid}")
        mark, label, _ = FATE_LABELS[p["fate"]]
        retained = not _missing(p.get("output_start"))
        href = f"#out-{pid}" if retained else f"#row-{pid}"
        marks.setdefault(int(p["target_end"]), []).append(
            f'<a class="fate f-{_esc(p["fate"])}" href="{href}" data-mark="{_esc(mark)}" '
            f'data-pairs="{pid}" data-fate="{_esc(p["fate"])}" '
            f'title="{_esc(label)}: {_esc(ptitle)}"></a>'
        )
        if retained:
            olvl = str(p.get("output_level") or "ASSERTED")
            _check_span("output", output, p.get("output_start"), p.get("output_end"),
                        p.get("output_text"), what)  # fmt: skip
            add("output", _Ann(f"o{i}-tgt", "tgt", int(p["output_start"]), int(p["output_end"]),
                               olvl, pid, output[int(p["output_start"]):int(p["output_end"])],
                               ptitle))  # fmt: skip
            out_anchors.setdefault(int(p["output_start"]), []).append(f"out-{pid}")
            if not _missing(p.get("output_cue_start")):
                _check_span("output", output, p.get("output_cue_start"), p.get("output_cue_end"),
                            p.get("output_cue"), what)  # fmt: skip
                add("output", _Ann(f"o{i}-cue", "cue", int(p["output_cue_start"]),
                                   int(p["output_cue_end"]), olvl, pid,
                                   output[int(p["output_cue_start"]):int(p["output_cue_end"])],
                                   ptitle))  # fmt: skip

    # cue–target pairs of the output that no source pair reached (shown, not linked)
    for j, q in enumerate(d.get("output_pairs") or []):
        try:
            _check_span(
                "output", output, q.get("cue_start"), q.get("cue_end"), q.get("cue_text"), ""
            )
            _check_span("output", output, q.get("target_start"), q.get("target_end"),
                        q.get("target_text"), "")  # fmt: skip
        except ValueError:
            continue
        lvl = str(q.get("level"))
        covered = any(
            a.kind == "tgt" and a.start == q["target_start"] and a.end == q["target_end"]
            for a in out_anns
        )
        if covered:
            continue
        t = f"output only: {lvl} cue {q['cue_text']!r} \u2192 {q['target_text']!r}"
        add("output", _Ann(f"x{j}-cue", "cue", q["cue_start"], q["cue_end"], lvl, f"x{j}",
                           q["cue_text"], t))  # fmt: skip
        add("output", _Ann(f"x{j}-tgt", "tgt", q["target_start"], q["target_end"], lvl, f"x{j}",
                           q["target_text"], t))  # fmt: skip

    doc = d.get("doc_id")
    page_title = title or (f"cuelex report: {doc}" if doc else "cuelex report")
    confusion = _confusion_from_pairs(pairs)
    rows = []
    for i, p in enumerate(pairs):
        pid = f"p{i}"
        mark, label, _ = FATE_LABELS[p["fate"]]
        retained = not _missing(p.get("output_start"))
        out_cell = (
            f'<a href="#out-{pid}">{_esc(p.get("output_text"))}</a> '
            f"<code>{_esc(p.get('output_level'))}</code>"
            + (f" cue {_esc(repr(p.get('output_cue')))}" if p.get("output_cue") else "")
            + f' <span class="muted">via {_esc(p.get("tier"))}'
            + (f"/{_esc(p.get('match_detail'))}" if p.get("match_detail") else "")
            + "</span>"
            + (
                f' <strong title="low-confidence alignment: check it">check'
                f" ({float(p['match_confidence']):.2f})</strong>"
                if p.get("low_confidence") and not _missing(p.get("match_confidence"))
                else ""
            )
            if retained
            else '<span class="muted">not found</span>'
        )
        rows.append(
            f'<tr class="pair" id="row-{pid}" data-pairs="{pid}"><td class="num">{i + 1}</td>'
            f'<td><a href="#src-{pid}">{_esc(p["cue_text"])}</a></td>'
            f"<td>{_esc(p['target_text'])}</td><td><code>{_esc(p['source_level'])}</code></td>"
            f'<td><a class="fate f-{_esc(p["fate"])}" data-mark="{_esc(mark)}"'
            + (f' href="#out-{pid}"' if retained else "")
            + f"></a> {_esc(label)}</td><td>{out_cell}</td></tr>"
        )
    n = len(pairs)
    kept = sum(1 for p in pairs if not _missing(p.get("output_start")))
    n_check = sum(1 for p in pairs if p.get("low_confidence"))
    header = (
        f"<h1>{_esc(page_title)}</h1>"
        f"<p>{n} source cue\u2013target pair(s), {kept} found in the output"
        + (f"; {n_check} low-confidence alignment(s) marked \u201ccheck\u201d" if n_check else "")
        + (f"; document type {_esc(d.get('doc_type'))}" if d.get("doc_type") else "")
        + "</p>"
    )
    bert = d.get("bertscore")
    bert_html = (
        f"<p>BERTScore F1 {float(bert['f1']):.4f} ({_esc(bert.get('model'))})</p>"
        if isinstance(bert, Mapping) and not _missing(bert.get("f1"))
        else ""
    )
    body = (
        f"<header>{header}{_cards(d, pairs)}{_legend()}</header>"
        '<div class="panes">'
        f'<section class="pane"><h2>Source</h2>'
        f"{_annotated(source, src_anns, src_anchors, marks, 'source-text')}</section>"
        f'<section class="pane"><h2>Output</h2>'
        f"{_annotated(output, out_anns, out_anchors, {}, 'output-text')}</section></div>"
        "<h2>Pairs</h2><table class='pairs'><tr><th>#</th><th>cue</th><th>target</th>"
        "<th>source level</th><th>fate</th><th>in the output</th></tr>"
        f"{''.join(rows)}</table>"
        f'<div class="summary">{_metrics_table(d)}'
        f"<div>{_confusion_table(confusion)}{bert_html}</div></div>"
    )
    data = {"doc_id": doc, "annotations": expected, "fates": [p["fate"] for p in pairs]}
    return _page(page_title, body, data)


def render_corpus(data: Mapping[str, Any], *, title: str | None = None) -> str:
    """The JSON of ``cuelex score --table ... -o`` (``CorpusScores.to_dict()``) as HTML.

    There are no texts in it, so it shows the metrics, per-group rates, the confusion table and one
    row per source pair (with its sentence).
    """
    d = dict(data)
    metrics = d.get("metrics") or {}
    page_title = title or "cuelex corpus report"
    pairs = list(d.get("pairs") or [])
    groups = metrics.get("by_group") or []
    group_html = ""
    if groups:
        import pandas as pd

        bg = pd.DataFrame(groups)
        keys = [
            c
            for c in bg.columns
            if c
            not in ("metric", "scope", "value", "ci_low", "ci_high", "numerator", "denominator",
                    "n_units", "n_documents")
        ]  # fmt: skip
        sub = bg[(bg["scope"] == "micro") & (bg["metric"].isin(RATES))]
        if keys and len(sub):
            wide = sub.pivot_table(index=keys, columns="metric", values="value", aggfunc="first")
            wide = wide.reindex(columns=list(RATES)).reset_index()
            group_html = "<h2>By group (micro)</h2>" + _frame_table(wide, keys)
    rows = []
    for i, p in enumerate(pairs):
        mark, label, _ = FATE_LABELS.get(p.get("fate"), ("?", str(p.get("fate")), "#000"))
        rows.append(
            f'<tr class="pair" id="row-p{i}"><td>{_esc(p.get("doc_id"))}</td>'
            f"<td>{_esc(p.get('sentence'))}</td><td>{_esc(p.get('cue_text'))}</td>"
            f"<td>{_esc(p.get('target_text'))}</td><td><code>{_esc(p.get('source_level'))}</code></td>"
            f'<td><a class="fate f-{_esc(p.get("fate"))}" data-mark="{_esc(mark)}"></a> {_esc(label)}</td>'
            f"<td>{_esc(p.get('output_text'))} <code>{_esc(p.get('output_level'))}</code></td></tr>"
        )
    body = (
        f"<h1>{_esc(page_title)}</h1>"
        f'<div class="summary">{_metrics_table(d)}'
        f"<div>{_confusion_table(metrics.get('confusion') or _confusion_from_pairs(pairs))}"
        f"{_fate_counts(pairs)}</div></div>{_legend()}{group_html}"
        "<h2>Pairs</h2><table class='pairs'><tr><th>document</th><th>sentence</th><th>cue</th>"
        "<th>target</th><th>source level</th><th>fate</th><th>output</th></tr>"
        f"{''.join(rows)}</table>"
    )
    return _page(page_title, body)


def _is_ci_col(name: str) -> bool:
    return name.endswith(CI_SUFFIXES)


def _cell(c: str, v: Any, rec: Mapping[str, Any]) -> str:
    """One number of a run table, formatted: rates as percentages with their CI, counts as
    integers, other floats with three decimals."""
    if c in RATES or c in ("inflation", "deflation"):
        return f"<td class='num'>{_pct(v)}{_ci(rec.get(f'{c}_ci_low'), rec.get(f'{c}_ci_high'))}</td>"
    if _missing(v):
        return "<td class='num'>n/a</td>"
    if isinstance(v, float) and float(v).is_integer() and (c.startswith("n_") or c == "iteration"):
        return f"<td class='num'>{int(v)}</td>"
    if isinstance(v, float):
        return f"<td class='num'>{v:.3f}</td>"
    return f"<td class='num'>{_esc(v)}</td>"


def _frame_table(df: Any, keys: Sequence[str]) -> str:
    """A wide table (one row per system/task/condition); ``<metric>_ci_low``/``_ci_high`` columns
    are shown as brackets beside their metric, not as columns of their own. Wrapped so that a
    wide table scrolls inside the page instead of overflowing it."""
    cols = [c for c in df.columns if not _is_ci_col(str(c))]
    head = "".join(f"<th>{_esc(c)}</th>" for c in cols)
    rows = []
    for rec in df.to_dict(orient="records"):
        cells = []
        for c in cols:
            v = rec[c]
            if c in keys or isinstance(v, bool) or not isinstance(v, (int, float)):
                cells.append(f"<td>{_esc(v)}</td>")
            else:
                cells.append(_cell(str(c), v, rec))
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return (
        f"<div class='table-wrap'><table class='run'><tr>{head}</tr>{''.join(rows)}</table></div>"
    )


def _plot_html(name: str, plot: Any) -> str:
    if isinstance(plot, (bytes, bytearray)):
        if bytes(plot[:8]) == b"\x89PNG\r\n\x1a\n":
            src = "data:image/png;base64," + base64.b64encode(bytes(plot)).decode("ascii")
            return f'<img alt="{_esc(name)}" src="{src}">'
        plot = bytes(plot).decode("utf-8")
    if isinstance(plot, Path) or (
        isinstance(plot, str)
        and len(plot) < 4096
        and plot.lower().endswith((".svg", ".png"))
        and Path(plot).is_file()
    ):
        p = Path(plot)
        return _plot_html(
            name, p.read_bytes() if p.suffix.lower() == ".png" else p.read_text("utf-8")
        )
    if not isinstance(plot, str):
        raise TypeError(f"plot {name!r}: expected SVG text, PNG bytes/base64 or a file, got "
                        f"{type(plot).__name__}")  # fmt: skip
    s = plot.lstrip()
    if s.startswith("<?xml") or s.startswith("<svg") or s.startswith("<!DOCTYPE svg"):
        i = s.find("<svg")
        if i < 0:
            raise ValueError(f"plot {name!r}: no <svg> element")
        if _ACTIVE_SVG.search(s):
            # scripts, event handlers, javascript: links or foreign HTML: shown as an image, in
            # which a browser runs none of them
            data = base64.b64encode(s[i:].encode("utf-8")).decode("ascii")
            return f'<img alt="{_esc(name)}" src="data:image/svg+xml;base64,{data}">'
        return s[i:]
    if s.startswith("data:image/"):
        return f'<img alt="{_esc(name)}" src="{_esc(s)}">'
    try:
        raw = base64.b64decode(s, validate=True)
    except ValueError:
        raise ValueError(
            f"plot {name!r}: not SVG, a data: URI, base64 PNG or an image file"
        ) from None
    if not raw.startswith(b"\x89PNG"):
        raise ValueError(f"plot {name!r}: base64 data is not a PNG")
    return f'<img alt="{_esc(name)}" src="data:image/png;base64,{s}">'


def render_run(
    table: Any,
    plots: Mapping[str, Any] | None = None,
    *,
    title: str = "cuelex run",
) -> str:
    """A run (system × task × condition) as a self-contained HTML page with its plots.

    ``table`` is a pandas DataFrame with columns ``system``, ``task``, ``condition``, ``TRR``,
    ``URR``, ``CAR``, ``PCR``, ``OHR`` and optionally ``<metric>_ci_low``/``<metric>_ci_high`` confidence
    bounds and other columns (``n_pairs``, ...). ``plots`` maps a caption to SVG text (inlined),
    PNG bytes, base64 PNG, a ``data:`` URI or an .svg/.png file path (embedded as base64).
    """
    import pandas as pd

    if not isinstance(table, pd.DataFrame):
        table = pd.DataFrame(table)
    missing = [c for c in (*RUN_KEYS, *RATES) if c not in table.columns]
    if missing:
        raise ValueError(
            f"the run table lacks column(s) {missing}; it needs {list(RUN_KEYS) + list(RATES)} "
            f"(has {list(table.columns)})"
        )
    df = table.sort_values(list(RUN_KEYS), kind="stable").reset_index(drop=True)
    order = [*RUN_KEYS, *RATES]
    rest = [c for c in df.columns if c not in order]
    df = df[order + rest]
    figs = "".join(
        f"<figure>{_plot_html(name, plot)}<figcaption>{_esc(name)}</figcaption></figure>"
        for name, plot in (plots or {}).items()
    )
    body = (
        f"<h1>{_esc(title)}</h1>"
        f"<p>{len(df)} row(s): {df['system'].nunique()} system(s), {df['task'].nunique()} task(s), "
        f"{df['condition'].nunique()} condition(s). Rates as % of retained pairs (TRR: of all "
        "source pairs); brackets: confidence interval.</p>"
        f"{_frame_table(df, RUN_KEYS)}"
        + (f'<h2>Plots</h2><div class="plots">{figs}</div>' if figs else "")
    )
    return _page(title, body)


# --------------------------------------------------------------------------------------------------
# files and CLI
# --------------------------------------------------------------------------------------------------


def load_input(path: str | Path) -> tuple[str, Any]:
    """Read a report input: ("document", dict) | ("corpus", dict) | ("run", DataFrame).

    * JSON of ``cuelex score SOURCE OUTPUT -o`` (has ``source`` and ``output`` texts): document
    * JSON of ``cuelex score --table ... -o`` (``pairs`` without texts): corpus
    * a run table: .csv/.tsv/.jsonl, a JSON list of rows, or a JSON object with a ``table``,
      ``rows`` or ``results`` list, whose rows have ``system``, ``task``, ``condition`` and rates
    """
    import pandas as pd

    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"{p}: no such file")
    name = p.name.lower()
    if name.endswith((".csv", ".tsv")):
        return "run", pd.read_csv(p, sep="\t" if name.endswith(".tsv") else ",")
    if name.endswith((".jsonl", ".ndjson")):
        return "run", pd.read_json(p, lines=True)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{p}: not valid JSON ({exc})") from None
    if isinstance(data, list):
        return "run", pd.DataFrame(data)
    if not isinstance(data, dict):
        raise ValueError(f"{p}: expected a JSON object or list, got {type(data).__name__}")
    if isinstance(data.get("source"), str) and isinstance(data.get("output"), str):
        return "document", data
    for key in ("table", "rows", "results"):
        if (
            isinstance(data.get(key), list)
            and data[key]
            and isinstance(data[key][0], dict)
            and (set(RUN_KEYS) <= set(data[key][0]))
        ):
            return "run", pd.DataFrame(data[key])
    if "pairs" in data and "metrics" in data:
        return "corpus", data
    raise ValueError(
        f"{p}: not a cuelex score JSON (needs 'pairs' and 'metrics'; with 'source'/'output' "
        "texts for the side-by-side view) nor a run table (rows with system, task, condition)"
    )


def render(path: str | Path, *, plots: bool = True) -> str:
    """The HTML page for a report input file (see :func:`load_input`)."""
    kind, data = load_input(path)
    if kind == "document":
        return render_report(data)
    if kind == "corpus":
        return render_corpus(data)
    figs: dict[str, str] | None = None
    if plots:
        try:
            figs = {"metrics by system, task and condition": P.metric_bars(data, fmt="svg")}
        except ImportError:  # matplotlib not installed: the table alone
            figs = None
    return render_run(data, figs, title=f"cuelex run: {Path(path).name}")


def write_report(html_text: str, path: str | Path) -> Path:
    """Write a page (UTF-8), creating the parent folder."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(p.name + ".partial")  # a failed write never leaves half a page at ``path``
    tmp.write_text(html_text, encoding="utf-8")
    os.replace(tmp, p)
    return p
