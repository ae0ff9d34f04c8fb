"""The certainty scale: ASSERTED, UL1–UL5 and the hedged-absence extension, with their commitment order."""

from __future__ import annotations

from enum import Enum


class Level(str, Enum):
    """Degree of certainty a text expresses about a clinical target.

    ``ASSERTED`` means no cue: the target is stated as present. ``UL1``–``UL5`` are the five levels of
    the paper (certain absent, probable present, possible present, indeterminate, non-asserted
    evaluation target). ``HEDGED_ABSENT`` is cuelex's documented extension for hedged absence
    ("pneumonia is unlikely", "doubt", "low suspicion for", "not favored"): the writer leans toward
    absence without asserting it, so it is never ``ASSERTED`` and never ``UL1``. On the commitment
    scale it sits between UL1 and UL2 (mirror image of "likely").
    """

    ASSERTED = "ASSERTED"
    UL1 = "UL1"
    HEDGED_ABSENT = "HEDGED_ABSENT"
    UL2 = "UL2"
    UL3 = "UL3"
    UL4 = "UL4"
    UL5 = "UL5"

    def __str__(self) -> str:  # "UL3", not "Level.UL3", in frames and CSV
        return self.value

    @property
    def is_cue_level(self) -> bool:
        """True for every level that a cue expresses (all but ASSERTED)."""
        return self is not Level.ASSERTED

    @property
    def commitment(self) -> int:
        """Rank on the paper's commitment scale; higher is stronger. ASSERTED is strongest of all."""
        return _COMMITMENT[self]

    @property
    def polarity(self) -> str:
        """ "present", "absent" or "unresolved": which way the writer leans."""
        if self in (Level.UL1, Level.HEDGED_ABSENT):
            return "absent"
        if self in (Level.ASSERTED, Level.UL2, Level.UL3):
            return "present"
        return "unresolved"

    @property
    def three_way(self) -> str:
        """Collapse to the classic assertion classes: "present", "negated" or "uncertain"."""
        if self is Level.ASSERTED:
            return "present"
        if self is Level.UL1:
            return "negated"
        return "uncertain"

    @property
    def label(self) -> str:
        """Human-readable name of the level."""
        return _LABELS[self]

    @classmethod
    def parse(cls, value: str | Level) -> Level:
        """Accept "UL3", "ul3", "3", "Level.UL3" or a Level; raise ValueError naming the value otherwise."""
        if isinstance(value, Level):
            return value
        text = str(value).strip()
        if text.lower().startswith("level."):
            text = text[6:]
        key = text.upper()
        if key.isdigit():
            key = f"UL{key}"
        try:
            return cls[key]
        except KeyError:
            allowed = ", ".join(m.name for m in cls)
            raise ValueError(f"unknown level {value!r}; expected one of {allowed}") from None


#: Strongest to weakest commitment among cue levels (the paper's ranking, plus HEDGED_ABSENT).
CUE_LEVELS: tuple[Level, ...] = (
    Level.UL1,
    Level.HEDGED_ABSENT,
    Level.UL2,
    Level.UL3,
    Level.UL4,
    Level.UL5,
)

#: Every level, most committed first: ASSERTED, then the cue levels (reports, plots, statistics).
LEVEL_ORDER: tuple[Level, ...] = (Level.ASSERTED, *CUE_LEVELS)

#: The five levels of the paper, in its order.
PAPER_LEVELS: tuple[Level, ...] = (Level.UL1, Level.UL2, Level.UL3, Level.UL4, Level.UL5)

_COMMITMENT = {
    Level.ASSERTED: 7,
    Level.UL1: 6,
    Level.HEDGED_ABSENT: 5,
    Level.UL2: 4,
    Level.UL3: 3,
    Level.UL4: 2,
    Level.UL5: 1,
}

_LABELS = {
    Level.ASSERTED: "asserted present",
    Level.UL1: "certain absent",
    Level.HEDGED_ABSENT: "hedged absent",
    Level.UL2: "probable present",
    Level.UL3: "possible present",
    Level.UL4: "indeterminate",
    Level.UL5: "non-asserted evaluation target",
}


def weaker(a: Level, b: Level) -> Level:
    """The level of weaker commitment of two (used to cap alternatives at UL3)."""
    return a if a.commitment <= b.commitment else b


#: Range (inclusive, percent) of the ``strength`` a cue of each level may carry: the probability that
#: the target is present as the wording conveys it. See docs/levels.md ("Graded cue strength").
STRENGTH_BANDS: dict[Level, tuple[float, float]] = {
    Level.ASSERTED: (100.0, 100.0),
    Level.UL1: (0.0, 5.0),
    Level.HEDGED_ABSENT: (5.0, 35.0),
    Level.UL2: (60.0, 95.0),
    Level.UL3: (25.0, 65.0),
    Level.UL4: (40.0, 60.0),
    Level.UL5: (40.0, 60.0),
}

#: The strength of a level when no lexicon entry speaks for it: no cue (ASSERTED), a bare
#: alternative marker ("A or B"), or a level a context rule or the alternatives cap imposed.
DEFAULT_STRENGTH: dict[Level, float] = {
    Level.ASSERTED: 100.0,
    Level.UL1: 0.0,
    Level.HEDGED_ABSENT: 20.0,
    Level.UL2: 70.0,
    Level.UL3: 45.0,
    Level.UL4: 50.0,
    Level.UL5: 50.0,
}


def check_strength(level: Level, strength: float) -> float:
    """``strength`` if it lies in the band of ``level``; ValueError naming both otherwise."""
    lo, hi = STRENGTH_BANDS[level]
    if not (lo <= strength <= hi):
        raise ValueError(
            f"strength {strength} is outside the band of level {level.value} ({lo:g}–{hi:g})"
        )
    return float(strength)


def certainty_order(level: Level | str, strength: float | None = None) -> tuple[float, float]:
    """Sort key that orders (level, strength) by the probability conveyed, then by commitment.

    Two cues of one level are ordered by their strength ("likely" 70 above "probable" 69.5,
    "possible" 50 above "cannot be excluded" 32); ``None`` means the level's default strength.
    """
    lv = Level.parse(level)
    s = DEFAULT_STRENGTH[lv] if strength is None else float(strength)
    return (s, float(lv.commitment))
