"""Section splitting for the benchmark builder: a clinical note becomes standalone section documents.

The paper (section 3.1) builds its benchmark from sections, not whole notes: Assessment
("Assessment and Plan"), Brief Hospital Course and Discharge Diagnosis from MIMIC-IV-Note discharge
summaries, Findings and Impression from radiology reports. The header variants live in
``rules/sections.yaml`` (validated against :class:`SectionRuleFile` when loaded); this module
compiles each profile's headers into one ``regex`` pattern and scans a note once.

    >>> from cuelex.sections import split_sections
    >>> note = "FINDINGS:\\nPossible nodule.\\n\\nIMPRESSION: No acute process."
    >>> [(s.doc_type, s.text) for s in split_sections(note, "radiology")]
    [('radiology_findings', 'Possible nodule.'), ('radiology_impression', 'No acute process.')]

Offsets index the note exactly: ``note[s.start:s.end] == s.text`` (the section body, header
excluded, surrounding whitespace trimmed) and ``note[s.header_start:s.header_end]`` is the header
as written.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

import regex
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..resources import default_rules_dir
from ..schema import ResourceError, read_yaml, validate

__all__ = [
    "DOC_TYPES",
    "PROFILES",
    "Section",
    "SectionExample",
    "SectionRule",
    "SectionRuleFile",
    "Sectionizer",
    "get_sectionizer",
    "load_section_rules",
    "split_sections",
]

#: Profiles of ``rules/sections.yaml``: which note kind a rule applies to.
PROFILES: tuple[str, ...] = ("discharge", "radiology")

#: The paper's six document types (pathology reports are whole documents, never split).
DOC_TYPES: tuple[str, ...] = (
    "assessment",
    "brief_hospital_course",
    "discharge_diagnosis",
    "radiology_findings",
    "radiology_impression",
    "pathology",
)

_ID = r"^[a-z0-9_]+(\.[a-z0-9_]+)+$"
_DOC_TYPE = r"^[a-z][a-z0-9_]*$"
_CONTENT = regex.compile(
    r"[^\W\d_]{2,}", regex.V1
)  # a section with no word of 2+ letters is empty ("___")


def _check_header(pattern: str) -> str:
    try:
        compiled = regex.compile(pattern, regex.IGNORECASE | regex.V1)
    except regex.error as exc:
        raise ValueError(f"invalid regular expression {pattern!r}: {exc}") from None
    if compiled.fullmatch("") is not None:
        raise ValueError(f"header pattern {pattern!r} matches the empty string")
    if compiled.groups:
        raise ValueError(f"header pattern {pattern!r} has a capturing group; use (?:...)")
    return pattern


class SectionExample(BaseModel):
    """A small note whose first section must have type ``doc_type`` and text ``body``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str = Field(min_length=1)
    doc_type: str = Field(pattern=_DOC_TYPE)
    body: str = Field(min_length=1)

    @model_validator(mode="after")
    def _body_in_text(self) -> SectionExample:
        if self.body not in self.text:
            raise ValueError(f"body {self.body!r} does not occur in example text {self.text!r}")
        return self


class SectionRule(BaseModel):
    """Header patterns of one section type (``doc_type``), or of headers that only end sections (``doc_type: null``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=_ID)
    profiles: tuple[Literal["discharge", "radiology"], ...] = Field(min_length=1)
    doc_type: str | None = Field(pattern=_DOC_TYPE)
    headers: tuple[str, ...] = Field(min_length=1)
    note: str | None = None
    examples: tuple[SectionExample, ...] = Field(min_length=1)

    @field_validator("headers")
    @classmethod
    def _valid_headers(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(_check_header(p) for p in value)


class SectionRuleFile(BaseModel):
    """``rules/sections.yaml``: a description and the section rules; rule ids are unique."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    description: str
    rules: tuple[SectionRule, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_ids(self) -> SectionRuleFile:
        ids = [r.id for r in self.rules]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"rule ids defined twice: {dupes}")
        return self


@dataclass(frozen=True)
class Section:
    """One section of a note: its document type, header and body offsets (into the note) and text."""

    doc_type: str
    rule_id: str
    header: str
    header_start: int
    header_end: int
    start: int
    end: int
    text: str


def load_section_rules(path: str | Path | None = None) -> SectionRuleFile:
    """Load and validate a section rule file (default: the shipped ``rules/sections.yaml``)."""
    p = Path(path) if path is not None else default_rules_dir() / "sections.yaml"
    return validate(SectionRuleFile, read_yaml(p), p)


class Sectionizer:
    """Finds the target sections of notes of one or more profiles ("discharge", "radiology")."""

    def __init__(self, profiles: str | Sequence[str], rules: SectionRuleFile | None = None):
        names = (profiles,) if isinstance(profiles, str) else tuple(profiles)
        if not names:
            raise ValueError("at least one section profile is needed")
        for name in names:
            if name not in PROFILES:
                raise ValueError(
                    f"unknown section profile {name!r}; expected one of {', '.join(PROFILES)}"
                )
        self.profiles = names
        self.rules = rules if rules is not None else load_section_rules()
        active = [r for r in self.rules.rules if set(r.profiles) & set(names)]
        if not any(r.doc_type for r in active):
            raise ResourceError(f"section rules define no section type for profile(s) {names}")
        self._active = tuple(active)
        groups = []
        for i, rule in enumerate(active):
            groups.append(f"(?P<r{i}>" + "|".join(f"(?:{h})" for h in rule.headers) + ")")
        deco = r"(?:[*#=_\-]+[^\S\n]*)?"
        self._pattern = regex.compile(
            r"^[^\S\n]*" + deco + r"(?P<header>" + "|".join(groups) + r")"
            r"[^\S\n]*(?:[*#=_\-]+[^\S\n]*)?(?::|(?=[^\S\n]*$))",
            regex.IGNORECASE | regex.MULTILINE | regex.V1,
        )
        index = self._pattern.groupindex
        self._header_group: int = index["header"]
        self._rule_groups: tuple[int, ...] = tuple(index[f"r{i}"] for i in range(len(active)))

    @property
    def doc_types(self) -> tuple[str, ...]:
        """The section types this sectionizer can return, in rule order."""
        return tuple(dict.fromkeys(r.doc_type for r in self._active if r.doc_type))

    def __reduce__(self):  # picklable: rebuild from the validated rules
        return (Sectionizer, (self.profiles, self.rules))

    def headers(self, text: str) -> list[tuple[int, int, int, SectionRule]]:
        """Every recognised header: (line start, header end incl. colon, header text end, rule)."""
        out = []
        groups = self._rule_groups
        header = self._header_group
        for m in self._pattern.finditer(text):
            regs = m.regs
            # the first rule whose group took part (group numbers: no look-up by name per match)
            idx = next(i for i, g in enumerate(groups) if regs[g][0] != -1)
            out.append((regs[header][0], m.end(), regs[header][1], self._active[idx]))
        return out

    def sections(self, text: str) -> list[Section]:
        """The target sections of ``text`` in note order; empty sections ("___") are left out."""
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        found = self.headers(text)
        out: list[Section] = []
        i = 0
        while i < len(found):
            hstart, body_start, hend, rule = found[i]
            j = i + 1
            if rule.doc_type is not None:  # same-type headers that follow continue the section
                while j < len(found) and found[j][3].doc_type == rule.doc_type:
                    j += 1
            if rule.doc_type is not None:
                stop = _line_start(text, found[j][0]) if j < len(found) else len(text)
                start, end = body_start, stop
                while start < end and text[start].isspace():
                    start += 1
                while end > start and text[end - 1].isspace():
                    end -= 1
                body = text[start:end]
                if _CONTENT.search(body):
                    out.append(
                        Section(
                            doc_type=rule.doc_type,
                            rule_id=rule.id,
                            header=text[hstart:hend],
                            header_start=hstart,
                            header_end=hend,
                            start=start,
                            end=end,
                            text=body,
                        )
                    )
            i = j
        return out


def _line_start(text: str, pos: int) -> int:
    nl = text.rfind("\n", 0, pos)
    return nl + 1


@lru_cache(maxsize=8)
def get_sectionizer(profiles: str | tuple[str, ...]) -> Sectionizer:
    """A sectionizer over the shipped rules for a profile (or tuple of profiles); cached."""
    return Sectionizer(profiles)


def split_sections(text: str, profiles: str | Iterable[str] = "discharge") -> list[Section]:
    """The target sections of a note under the shipped rules (see :class:`Sectionizer`)."""
    key = profiles if isinstance(profiles, str) else tuple(profiles)
    return get_sectionizer(key).sections(text)
