"""The look of every report, plot and displaCy view: level colours and names, fates and their
marks, metric colours, and the column naming of confidence bounds. One home for each, so the HTML
pages (:mod:`.html`), the plots (:mod:`.plots`) and the displaCy view (:mod:`.display`) agree."""

from __future__ import annotations

from ..scoring.metrics import RATES

__all__ = [
    "CI_SUFFIXES",
    "FATES",
    "FATE_LABELS",
    "LEVEL_COLORS",
    "LEVEL_DARK",
    "LEVEL_NAMES",
    "METRIC_COLORS",
    "RATES",
    "RUN_KEYS",
]

#: Background colour of each level's cues (colour-blind-friendly, light enough for black text).
LEVEL_COLORS: dict[str, str] = {
    "ASSERTED": "#d9d9d9",
    "UL1": "#7fb3e6",
    "HEDGED_ABSENT": "#a6d8d0",
    "UL2": "#b9e28c",
    "UL3": "#ffd966",
    "UL4": "#f4a582",
    "UL5": "#d4a6e8",
}
#: Darker shade of each level (underlines of targets, plot edges).
LEVEL_DARK: dict[str, str] = {
    "ASSERTED": "#555555",
    "UL1": "#1f5f9e",
    "HEDGED_ABSENT": "#1b7a6c",
    "UL2": "#4d7f17",
    "UL3": "#a67c00",
    "UL4": "#b2451a",
    "UL5": "#7b3294",
}
LEVEL_NAMES: dict[str, str] = {
    "ASSERTED": "asserted present",
    "UL1": "certain absent",
    "HEDGED_ABSENT": "hedged absent",
    "UL2": "probable present",
    "UL3": "possible present",
    "UL4": "indeterminate",
    "UL5": "non-asserted evaluation target",
}
FATES: tuple[str, ...] = (
    "preserved",
    "certainty_asserted",
    "partial_certainty",
    "over_hedged",
    "dropped",
)
#: Fate -> (mark shown after the source target, label, colour).
FATE_LABELS: dict[str, tuple[str, str, str]] = {
    "preserved": ("\u2713", "preserved (URR)", "#1a7f37"),
    "certainty_asserted": ("!", "certainty asserted (CAR)", "#cf222e"),
    "partial_certainty": ("\u2191", "partial certainty (PCR)", "#bc4c00"),
    "over_hedged": ("\u2193", "over-hedged (OHR)", "#8250df"),
    "dropped": ("\u2717", "dropped (not in output)", "#57606a"),
}
#: Confidence bounds of a metric in a wide table are ``<metric>_ci_low`` / ``<metric>_ci_high`` —
#: the one naming of cuelex.metrics (``ci_low``/``ci_high``), the runner, ``cuelex bench score``,
#: the plots and this report.
CI_SUFFIXES: tuple[str, str] = ("_ci_low", "_ci_high")
RUN_KEYS: tuple[str, ...] = ("system", "task", "condition")
#: Colour of each rate in the plots.
METRIC_COLORS: dict[str, str] = {
    "TRR": "#4c72b0",
    "URR": "#55a868",
    "CAR": "#c44e52",
    "PCR": "#dd8452",
    "OHR": "#8172b3",
}
