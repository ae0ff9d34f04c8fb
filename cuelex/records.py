"""Typed output records: a cue–target pair, and the assessment of a caller-supplied span."""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, ConfigDict, Field

from .levels import Level


class Direction(str, Enum):
    """Where a cue looks for its target within the sentence."""

    FORWARD = "forward"  # "no evidence of <pneumonia>"
    BACKWARD = "backward"  # "<pneumonia> is unlikely"
    EITHER = "either"  # "? <PE>" / "<PE>?", "<MI> ruled out" / "ruled out for <MI>"

    def __str__(self) -> str:
        return self.value


class Cue(BaseModel):
    """A matched cue: its text, offsets into the original text, level and the lexicon entry id."""

    model_config = ConfigDict(frozen=True)

    text: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    level: Level
    rule_id: str
    direction: Direction
    strength: float | None = None  # probability (0–100) the cue conveys, within its level


class CueTargetPair(BaseModel):
    """One uncertainty cue with the clinical target it modifies.

    Offsets index the original text exactly: ``text[cue_start:cue_end] == cue_text`` and
    ``text[target_start:target_end] == target_text``. ``strength`` grades the pair within its level
    (0–100, the probability the wording conveys; see docs/levels.md): the deciding cue's strength
    when the cue decided the level alone, the level's default when a context rule or the
    alternatives cap set it. Linking fields stay ``None`` until a linker
    fills them.
    """

    model_config = ConfigDict(frozen=True)

    doc_id: str | None = None
    sentence: str
    sentence_start: int = Field(ge=0)
    sentence_end: int = Field(ge=0)
    cue_text: str
    cue_start: int = Field(ge=0)
    cue_end: int = Field(ge=0)
    level: Level
    rule_id: str
    direction: Direction
    target_text: str
    target_start: int = Field(ge=0)
    target_end: int = Field(ge=0)
    raw_target_text: str | None = None
    cue_level: Level | None = None
    modifiers: tuple[str, ...] = ()
    strength: float | None = None
    section: str | None = None
    cui: str | None = None
    preferred_name: str | None = None
    semantic_types: tuple[str, ...] = ()
    link_score: float | None = None
    needs_review: bool = False

    @property
    def cue(self) -> Cue:
        return Cue(
            text=self.cue_text,
            start=self.cue_start,
            end=self.cue_end,
            level=self.cue_level or self.level,
            rule_id=self.rule_id,
            direction=self.direction,
            strength=self.strength if self.cue_level in (None, self.level) else None,
        )


class Assessment(BaseModel):
    """The certainty level of one caller-supplied target span, and the cue that decided it (or none)."""

    model_config = ConfigDict(frozen=True)

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    text: str
    level: Level
    cue: Cue | None = None
    modifiers: tuple[str, ...] = ()
    strength: float | None = None  # probability (0–100) conveyed at this level; 100 when asserted
