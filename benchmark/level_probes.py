"""Held-out probes of reading the level of a found target: the level an output gives it.

Run from the repository root (offline; a few seconds):
    .venv/bin/python benchmark/level_probes.py [--wrong]

``benchmark/data/level_probes.jsonl`` was written for this measurement BEFORE the rules it
measures (own wording, never text of the IU reports or of the development set; never edited
after). Three classes of LLM wording: ``copula-hedge`` — a state or finding hedged by its
linking verb ("seems well controlled", "appears to be stable", "seem to fit with migraine");
``conjunct-scope`` — a later alternative or a parenthetical gloss of a hedged phrase ("could be
an infection or aspiration", "might be cancer that has moved here ... (metastases)");
``but-not-excluded`` — a leaning against a finding followed by "but not excluded", where the
last word stands ("less likely but cannot be excluded"). ``change`` probes state the level the
guidelines give; a second round (``level_probes_mentions.jsonl``): ``heading-body`` — a
problem-list heading whose body line carries the level ("**Ankle sprain** / exam c/w sprain");
``or-alternative`` — findings offered as alternatives after a reporting verb ("shows scarring or
collapse"); ``control`` probes hold a look-alike that must stay as it is. A third round (``level_probes_lay.jsonl``,
patient-friendly revisions under the guarded prompt): ``lay-chance`` ("there is a chance that"),
``not-certain`` ("it is not certain whether", "we can't say for sure whether": UL4),
``make-sure`` ("wants to make sure it is not", "to be safe we will check for": UL5),
``could-mean`` ("this could mean", "may be a sign of"), ``not-look-like`` ("doesn't look like":
hedged absence), ``conditional`` ("come back if you have chest pain": UL5), ``list-scope`` (a hedge
over a list), ``carried-hedge`` (a hedge in the sentence before, carried by "this is called X"),
``reassurance`` ("nothing worrying such as X": UL1), ``question`` ("Is it X?": UL5). A fourth
round (``level_probes_lay2.jsonl``, written after the third round's rules and before its own):
``dash-aside`` ("a hazy area — possibly pneumonia —"), ``relative-gloss`` (a gloss after a
relative clause: "areas where the lung has partly collapsed (atelectasis)"), ``emphasis``
(markdown around a cue or mention: "*might*", "_possible_"), ``still-possible`` ("is still a
possibility", "has not been fully ruled out"), ``watch-for`` ("keep an eye out for"),
``what-looks-like`` ("what looks like a granuloma", "something that could be a nodule"). A fifth
round (``level_probes16.jsonl``, session 16, written before its code): ``lay-chance16``,
``check-whether`` ("to see if you have"), ``bold-split`` (a hedge and its finding in separate
emphasis), ``heading-body16`` (a blank line under the heading, a "complaint – finding" title) and
``plan-item`` ("referral for possible X", "labs for anemia"). A sixth round
(``level_probes17.jsonl``, session 17, written before its code): ``problem-line17`` (a hedge in a
problem-list line, before or after the finding, in parentheses or after a dash: "PNA, likely",
"diverticulitis favored", "Kidney stone (unconfirmed)", "?PE"), ``heading-body17`` (a hedge in an
"Assessment:"/"Impression —" label line or a bold heading), ``patient-hedge17`` (plain-language
hedges: "signs that might point to", "seems to be", "it sounds like you may have had") and
``hedge-elsewhere17`` (controls: the hedge is on the cause or another finding). Scored as
:mod:`clause_probes` scores its probes (``cuelex.score`` defaults).
"""

from __future__ import annotations

import json
from pathlib import Path

from clause_probes import report

#: One file per round, each written before the rules of its round and never edited after.
PROBES = [
    Path(__file__).resolve().parent / "data" / "level_probes.jsonl",
    Path(__file__).resolve().parent / "data" / "level_probes_mentions.jsonl",
    Path(__file__).resolve().parent / "data" / "level_probes_lay.jsonl",
    Path(__file__).resolve().parent / "data" / "level_probes_lay2.jsonl",
    Path(__file__).resolve().parent / "data" / "level_probes15.jsonl",
    Path(__file__).resolve().parent / "data" / "level_probes16.jsonl",
    Path(__file__).resolve().parent / "data" / "level_probes17.jsonl",
]


def load() -> list[dict]:
    """The probes, in file order."""
    out = []
    for path in PROBES:
        with path.open(encoding="utf-8") as fh:
            out.extend(json.loads(line) for line in fh if line.strip())
    return out


def main(argv: list[str] | None = None) -> int:
    return report(load(), argv, __doc__, 17)


if __name__ == "__main__":
    raise SystemExit(main())
