"""Pydantic schemas for the data files in ``lexicons/`` and ``rules/``, and a loader whose errors name file, entry and field."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, TypeVar

import regex
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .errors import CuelexError
from .levels import DEFAULT_STRENGTH, Level, check_strength
from .records import Direction

_ID = r"^[a-z0-9_]+(\.[a-z0-9_]+)+$"


class ResourceError(CuelexError, ValueError):
    """A lexicon or rule file is missing, unreadable or fails validation; the message says where."""


def _check_regex(pattern: str) -> str:
    try:
        regex.compile(pattern, regex.IGNORECASE | regex.VERSION1)
    except regex.error as exc:
        raise ValueError(f"invalid regular expression {pattern!r}: {exc}") from None
    if regex.fullmatch(pattern, "", flags=regex.VERSION1) is not None:
        raise ValueError(f"pattern {pattern!r} matches the empty string")
    return pattern


class Example(BaseModel):
    """A sentence in which the entry must fire, with the target it must find (None: no pair expected)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str = Field(min_length=1)
    target: str | None
    level: Level | None = None  # defaults to the entry's level

    @model_validator(mode="after")
    def _target_in_text(self) -> Example:
        if self.target is not None and self.target not in self.text:
            raise ValueError(f"target {self.target!r} does not occur in example text {self.text!r}")
        return self


class CueEntry(BaseModel):
    """One cue of a lexicon: a regex pattern with its level, direction and examples.

    ``pattern`` is matched case-insensitively with the ``regex`` module, at word boundaries unless
    ``word_boundaries`` is false (as for "?"). ``strength`` (0–100) grades the cue within its level:
    the probability that the target is present as the wording conveys it, from the human surveys
    where the cue has a surveyed word, otherwise cuelex's documented placement (docs/levels.md); it
    must lie in the level's band (``cuelex.levels.STRENGTH_BANDS``) and defaults to the level's
    ``DEFAULT_STRENGTH`` in a caller's own lexicon. ``scope_tokens`` sets the scope of a cue in
    tokens: wider for one that governs long lists (return instructions), narrower for a backward cue
    that follows its target as a compound noun ("colon cancer screening"); otherwise
    ``targets.max_scope_tokens``. ``source`` says whether the cue is in the paper's
    Appendix A (``appendix_a``, with the paper's wording in ``appendix_cue``) or a cuelex extension.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=_ID)
    cue: str = Field(min_length=1)
    pattern: str = Field(min_length=1)
    level: Level
    strength: float | None = None
    scope_tokens: int | None = Field(default=None, ge=1, le=200)
    direction: Direction
    source: Literal["appendix_a", "extension"] = "extension"
    appendix_cue: str | None = None
    word_boundaries: bool = True
    note: str | None = None
    examples: tuple[Example, ...] = Field(min_length=1)

    @field_validator("pattern")
    @classmethod
    def _valid_pattern(cls, value: str) -> str:
        return _check_regex(value)

    @field_validator("level")
    @classmethod
    def _cue_level(cls, value: Level) -> Level:
        if value is Level.ASSERTED:
            raise ValueError("a cue cannot have level ASSERTED (ASSERTED means: no cue)")
        return value

    @model_validator(mode="after")
    def _appendix(self) -> CueEntry:
        if self.source == "appendix_a" and not self.appendix_cue:
            raise ValueError("entries with source 'appendix_a' must give 'appendix_cue'")
        if self.strength is None:
            object.__setattr__(self, "strength", DEFAULT_STRENGTH[self.level])
        else:
            check_strength(self.level, self.strength)
        return self


class LexiconFile(BaseModel):
    """A lexicon file: a description and its cue entries."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    description: str
    entries: tuple[CueEntry, ...] = Field(min_length=1)


class PatternRule(BaseModel):
    """A named regex with examples: terminators, pseudo-cues, alternative markers."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=_ID)
    pattern: str = Field(min_length=1)
    word_boundaries: bool = True
    note: str | None = None
    examples: tuple[str, ...] = ()

    @field_validator("pattern")
    @classmethod
    def _valid_pattern(cls, value: str) -> str:
        return _check_regex(value)


class PatternRuleFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    description: str
    rules: tuple[PatternRule, ...] = Field(min_length=1)


class ContextRule(BaseModel):
    """Re-assigns the level of an ambiguous cue from its context ("evaluate for possible PE": UL5)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=_ID)
    cue_ids: tuple[str, ...] = Field(min_length=1)
    preceded_by: str | None = None
    followed_by: str | None = None
    set_level: Level
    note: str | None = None
    examples: tuple[Example, ...] = Field(min_length=1)

    @field_validator("preceded_by", "followed_by")
    @classmethod
    def _valid_pattern(cls, value: str | None) -> str | None:
        return None if value is None else _check_regex(value)

    @model_validator(mode="after")
    def _one_condition(self) -> ContextRule:
        if self.preceded_by is None and self.followed_by is None:
            raise ValueError("a context rule needs 'preceded_by' or 'followed_by'")
        return self


class ContextRuleFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    description: str
    rules: tuple[ContextRule, ...] = Field(min_length=1)


class TargetRules(BaseModel):
    """How a raw target span is cut out of a cue's scope (rules/targets.yaml)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    description: str
    max_tokens: int = Field(ge=1, le=50)
    max_scope_tokens: int = Field(ge=1, le=200)
    max_conjunct_tokens: int = Field(ge=1, le=20)
    strip_leading: tuple[str, ...]
    strip_leading_unless_number: tuple[str, ...] = ()
    strip_trailing: tuple[str, ...]
    backward_skip: tuple[str, ...]
    phrase_breakers: tuple[str, ...]
    clause_verbs: tuple[str, ...]
    verb_like: tuple[str, ...]
    verb_suffixes: tuple[str, ...]
    adjective_suffixes: tuple[str, ...]
    modifier_words: tuple[str, ...] = ()
    observation_heads: tuple[str, ...] = ()
    statement_openers: tuple[str, ...] = ()
    normal_states: tuple[str, ...] = ()
    effect_participles: tuple[str, ...] = ()
    reading_verbs: tuple[str, ...] = ()
    observation_participles: tuple[str, ...] = ()
    degree_adverbs: tuple[str, ...] = ()
    non_target_heads: tuple[str, ...] = ()
    time_heads: tuple[str, ...] = ()
    procedure_suffixes: tuple[str, ...] = ()
    body_site_heads: tuple[str, ...] = ()
    body_site_modifiers: tuple[str, ...] = ()
    manoeuvre_heads: tuple[str, ...] = ()
    manoeuvre_modifiers: tuple[str, ...] = ()
    stated_history_starts: tuple[str, ...] = ()
    verb_noun_compounds: tuple[str, ...] = ()
    state_words: tuple[str, ...] = ()
    course_nouns: tuple[str, ...] = ()
    watch_verbs: tuple[str, ...] = ()
    watch_fillers: tuple[str, ...] = ()
    located_prepositions: tuple[str, ...] = ()
    substance_heads: tuple[str, ...] = ()
    to_complement_heads: tuple[str, ...] = ()
    cause_heads: tuple[str, ...] = ()
    specimen_words: tuple[str, ...] = ()
    threshold_words: tuple[str, ...] = ()
    other_cause_heads: tuple[str, ...] = ()
    imperative_openers: tuple[str, ...] = ()
    location_frames: tuple[str, ...] = ()
    copulas: tuple[str, ...]
    clause_subjects: tuple[str, ...]
    coordinators: tuple[str, ...]
    non_targets: tuple[str, ...]

    @model_validator(mode="after")
    def _exceptions_are_items(self) -> TargetRules:
        known = {" ".join(x.lower().split()) for x in self.strip_leading}
        missing = [x for x in self.strip_leading_unless_number if " ".join(x.lower().split()) not in known]
        if missing:
            raise ValueError(f"strip_leading_unless_number items not in strip_leading: {missing}")
        return self


class ConflictRules(BaseModel):
    """What wins when two cues reach the same target (rules/conflicts.yaml)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    description: str
    strategy: Literal["nearest"]
    tie_break: Literal["forward_first", "backward_first"]
    alternatives_cap: Level
    negation_governs_alternatives: bool
    result_over_evaluation: bool


class SentenceRules(BaseModel):
    """Clinical sentence splitting (rules/sentences.yaml)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    description: str
    abbreviations: tuple[str, ...]
    header_max_tokens: int = Field(ge=1, le=20)
    list_marker: str
    hedge_label: str

    @field_validator("list_marker", "hedge_label")
    @classmethod
    def _valid_pattern(cls, value: str) -> str:
        return _check_regex(value)


M = TypeVar("M", bound=BaseModel)

#: libyaml's parser when PyYAML was built with it (about 10x faster at start-up; the same
#: constructor and resolver, so the same data), else the pure-Python one
_SAFE_LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path) -> Any:
    """Read a YAML file, raising ResourceError naming the file on any problem."""
    try:
        with open(path, encoding="utf-8") as fh:
            return yaml.load(fh, Loader=_SAFE_LOADER)  # noqa: S506 - a safe loader
    except FileNotFoundError:
        raise ResourceError(f"{path}: file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ResourceError(f"{path}: cannot read: {exc}") from None
    except yaml.YAMLError as exc:
        raise ResourceError(f"{path}: not valid YAML: {exc}") from None


def validate(model: type[M], data: Any, path: Path) -> M:
    """Validate parsed YAML against a schema; errors name the file, the entry (index and id) and the field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        lines = []
        for err in exc.errors():
            loc = list(err["loc"])
            where = []
            if len(loc) >= 2 and loc[0] in ("entries", "rules") and isinstance(loc[1], int):
                idx = loc[1]
                entry_id = None
                try:
                    entry_id = data[loc[0]][idx].get("id")
                except (AttributeError, IndexError, KeyError, TypeError):
                    pass
                where.append(f"entry {idx}" + (f" (id {entry_id!r})" if entry_id else ""))
                loc = loc[2:]
            field = ".".join(str(p) for p in loc) or "(whole entry)"
            where.append(f"field {field!r}")
            lines.append(f"{path}: {', '.join(where)}: {err['msg']}")
        raise ResourceError("\n".join(lines)) from None
