"""Reading the level of an output mention the way LLM outputs hedge it (session 17, issue 11): a
hedge written after the finding in a problem-list line or label ("PNA, likely", "UTI — probable",
"Kidney stone (unconfirmed)"), the clinician's and the plain-language hedges the lexicons gained
this session, and the look-alikes that must stay asserted (the hedge is on the cause). Held-out
probes: benchmark/data/level_probes17.jsonl, written before the code; the examples here are
written for these tests."""

from __future__ import annotations

import json

import pytest
from _helpers import BENCH, bench_module, scored_pair

from cuelex.scoring import scorer

PROBES = [
    json.loads(line)
    for line in (BENCH / "data" / "level_probes17.jsonl").read_text(encoding="utf-8").splitlines()
    if line.strip()
]


@pytest.mark.parametrize("probe", PROBES, ids=lambda p: p["id"])
def test_level_probes17(probe: dict) -> None:
    ok, what = bench_module("clause_probes").run(probe)
    assert ok, f"{probe['id']}: want {probe['level']}, read {what}"


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # a lexicon cue after a comma, dash, colon or opening parenthesis, standing alone
        ("Probable cystitis.", "- Cystitis, probable; start nitrofurantoin.", "cystitis", "UL2"),
        ("Probable cystitis.", "2. Cystitis — likely.", "cystitis", "UL2"),
        ("Possible cystitis.", "Cystitis: possible", "cystitis", "UL3"),
        ("Possible cystitis.", "**Cystitis - suspected**\n- Dysuria x2d.", "cystitis", "UL3"),
        ("Possible cystitis.", "- Cystitis (r/o); UA sent.", "cystitis", "UL5"),
        ("Possible tendinitis.", "- Tendinitis — cannot be excluded; MRI if no better.", "tendinitis", "UL3"),
        ("Possible tendinitis.", "- Tendinitis — favored over a partial tear.", "tendinitis", "UL2"),
        ("Possible tendinitis.", "- Tendinitis: less likely, though not fully excluded.", "tendinitis", "UL3"),
        ("Possible tendinitis.", "Tendinitis: unlikely", "tendinitis", "HEDGED_ABSENT"),
        # a hedge the lexicon has no cue for: the output reading table's after_* rows
        ("Possible tendinitis.", "- Tendinitis (not yet confirmed); ice.", "tendinitis", "UL3"),
        ("Possible tendinitis.", "- Tendinitis — to be confirmed with ultrasound.", "tendinitis", "UL3"),
        ("Probable tendinitis.", "1. Tendinitis — working diagnosis; NSAIDs.", "tendinitis", "UL2"),
        ("Possible tendinitis.", "- Tendinitis, diagnosis still uncertain.", "tendinitis", "UL4"),
        # a cue written after its item with a space only, or after more words of the phrase
        ("Possible tendinitis.", "- Tendinitis suspected, ultrasound next week.", "tendinitis", "UL3"),
        ("Probable tendinitis.", "**Tendinitis flare – probable**\n- rest", "tendinitis", "UL2"),
        # an arrow, a table row's next cell
        ("Probable tendinitis.", "- Tendinitis → probable; NSAIDs", "tendinitis", "UL2"),
        ("Possible tendinitis.", "| Problem | Status |\n|---|---|\n| Tendinitis | Suspected |\n", "tendinitis", "UL3"),
        # an action after an arrow: a contingency (after_ul5)
        ("Return if fainting.", "- Fainting → ED.", "fainting", "UL5"),
        ("Return if fainting.", "- Any fainting -> call the clinic right away", "fainting", "UL5"),
        # a call with "or 911" (ul5.call_if)
        ("Return if fainting.", "Call the office or 911 for fainting.", "fainting", "UL5"),
    ],
)
def test_hedge_after_the_mention(source: str, output: str, target: str, level: str) -> None:
    p = scored_pair(source, output, target)
    assert p.output_level is not None and p.output_level.value == level, (output, p.output_level, p.level_source)


@pytest.mark.parametrize(
    "output",
    [
        "- Cystitis, likely bacterial; culture sent.",  # the hedge is on the cause
        "- Cystitis — likely from dehydration.",
        "Cystitis (possibly recurrent).",
        "Diagnoses: cystitis, possible pyelonephritis.",  # the hedge opens the next item
        "- Cystitis, improving; likely done with antibiotics Friday.",
        "- Cystitis, r/o stone.",
        "- Cystitis, etiology unclear.",  # only the cause is unknown
        "- Cystitis — call if fever.",  # an action after a dash, not an arrow
        "- Cystitis 2/2 catheter – likely",  # the hedge is on the relation
        "- Cystitis r/o, UA pending",  # a forward cue needs a written separator
        "- Cystitis → ED visit last week.",
        "| Problem | Status |\n|---|---|\n| Cystitis | Improving |\n",
    ],
)
def test_hedge_on_something_else_stays_asserted(output: str) -> None:
    p = scored_pair("Possible cystitis.", output, "cystitis")
    assert p.output_level is not None and p.output_level.value == "ASSERTED", (output, p.level_source)


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # lexicon entries of this session (lexicons/*.yaml), each in an output
        ("Possible bronchitis.", "Chances are this is bronchitis.", "bronchitis", "UL2"),
        ("Possible bronchitis.", "The most likely cause of your cough is bronchitis.", "bronchitis", "UL2"),
        ("Possible bronchitis.", "Bronchitis is the leading possibility.", "bronchitis", "UL2"),
        ("Possible bronchitis.", "Another possibility is bronchitis.", "bronchitis", "UL3"),
        ("Possible bronchitis.", "Your cough sounds like bronchitis.", "bronchitis", "UL2"),
        ("Possible bronchitis.", "The doctor wonders whether this is bronchitis.", "bronchitis", "UL3"),
        ("Possible bronchitis.", "It could turn out to be bronchitis.", "bronchitis", "UL3"),
        ("Possible bronchitis.", "Your doctor is thinking about bronchitis.", "bronchitis", "UL3"),
        ("Possible bronchitis.", "We aren't certain yet whether you have bronchitis.", "bronchitis", "UL4"),
        ("Possible bronchitis.", "- Bronchitis on ddx; CXR.", "bronchitis", "UL3"),
        ("Possible bronchitis.", "- Bronchitis not r/o.", "bronchitis", "UL3"),
        ("Possible bronchitis.", "- Poss bronchitis; albuterol.", "bronchitis", "UL3"),
        ("Possible melanoma.", "- No exam features suspicious for melanoma.", "melanoma", "UL1"),
        ("Possible bronchitis.", "Bronchitis has not yet been confirmed.", "bronchitis", "UL3"),
        ("Possible bronchitis.", "Your cough may have been caused by bronchitis.", "bronchitis", "UL3"),
        ("Possible bronchitis.", "Your cough looks a lot like bronchitis.", "bronchitis", "UL2"),
        ("Possible bronchitis.", "Our best guess is bronchitis.", "bronchitis", "UL2"),
        # list_lead_ins.tsv: a presumptive/provisional diagnosis label
        ("Possible bronchitis.", "Presumptive dx: bronchitis", "bronchitis", "UL2"),
    ],
)
def test_new_hedge_wordings(source: str, output: str, target: str, level: str) -> None:
    p = scored_pair(source, output, target)
    assert p.output_level is not None and p.output_level.value == level, (output, p.output_level, p.level_source)


@pytest.mark.parametrize(
    "output",
    [
        "Your asthma is consistent with your known history.",
        "The wheeze is consistent with your known asthma.",
        "It sounds like your asthma is well controlled.",
    ],
)
def test_known_or_doing_well_stays_asserted(output: str) -> None:
    p = scored_pair("Possible asthma.", output, "asthma")
    assert p.output_level is not None and p.output_level.value == "ASSERTED", (output, p.level_source)


def test_after_rows_come_from_the_table() -> None:
    rows = scorer.output_reading()
    assert all(rows[f"after_ul{n}"] for n in (1, 2, 3, 4, 5)) and rows["after_ha"]
    levels = {lv.value for lv, _pat in scorer._after_words()}
    assert levels == {"UL1", "HEDGED_ABSENT", "UL2", "UL3", "UL4", "UL5"}
