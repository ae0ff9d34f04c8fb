"""Loading and validating the shipped lexicons and rules (or a caller's own directories)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources as importlib_resources
from pathlib import Path

from .schema import (
    ConflictRules,
    ContextRule,
    ContextRuleFile,
    CueEntry,
    LexiconFile,
    PatternRule,
    PatternRuleFile,
    ResourceError,
    SentenceRules,
    TargetRules,
    read_yaml,
    validate,
)


def _package_dir(package: str, fallback: str) -> Path:
    """Directory of a data package; falls back to the source tree when cuelex is not installed."""
    try:
        path = Path(str(importlib_resources.files(package)))
        if path.is_dir():
            return path
    except ModuleNotFoundError:
        pass
    return Path(__file__).resolve().parent.parent / fallback


def default_lexicon_dir() -> Path:
    """Where the shipped cue lexicons live (inside the installed wheel)."""
    return _package_dir("cuelex.lexicons", "lexicons")


def default_rules_dir() -> Path:
    """Where the shipped rules live (inside the installed wheel)."""
    return _package_dir("cuelex.rules", "rules")


@dataclass(frozen=True)
class Resources:
    """Everything the extraction engine needs, validated and immutable."""

    cues: tuple[CueEntry, ...]
    pseudo_cues: tuple[PatternRule, ...]
    terminators: tuple[PatternRule, ...]
    alternatives: tuple[PatternRule, ...]
    not_alternatives: tuple[PatternRule, ...]
    context: tuple[ContextRule, ...]
    targets: TargetRules
    conflicts: ConflictRules
    sentences: SentenceRules
    lexicon_files: tuple[str, ...]


def load_lexicon_files(paths: list[Path]) -> tuple[CueEntry, ...]:
    """Load and validate lexicon YAML files; ids must be unique across all of them."""
    entries: list[CueEntry] = []
    seen: dict[str, Path] = {}
    for path in paths:
        lex = validate(LexiconFile, read_yaml(path), path)
        for entry in lex.entries:
            if entry.id in seen:
                raise ResourceError(
                    f"{path}: entry id {entry.id!r} already defined in {seen[entry.id]}"
                )
            seen[entry.id] = path
            entries.append(entry)
    return tuple(entries)


def _lexicon_paths(spec: str | Path | list | tuple | None) -> list[Path]:
    if spec is None:
        spec = default_lexicon_dir()
    items = list(spec) if isinstance(spec, (list, tuple)) else [spec]
    paths: list[Path] = []
    for item in items:
        path = Path(item)
        if path.is_dir():
            found = sorted(path.glob("*.yaml")) + sorted(path.glob("*.yml"))
            if not found:
                raise ResourceError(f"{path}: no lexicon files (*.yaml) in this directory")
            paths.extend(found)
        elif path.is_file():
            paths.append(path)
        else:
            raise ResourceError(f"{path}: lexicon file or directory not found")
    return paths


def load_resources(
    lexicons: str | Path | list | tuple | None = None,
    rules_dir: str | Path | None = None,
    extra_lexicons: list | tuple = (),
) -> Resources:
    """Load lexicons (default: the shipped ones, plus ``extra_lexicons``) and rules, validating all of them."""
    lex_paths = _lexicon_paths(lexicons) + [Path(p) for p in extra_lexicons]
    rdir = Path(rules_dir) if rules_dir is not None else default_rules_dir()
    if not rdir.is_dir():
        raise ResourceError(f"{rdir}: rules directory not found")

    def patterns(name: str) -> tuple[PatternRule, ...]:
        path = rdir / name
        return validate(PatternRuleFile, read_yaml(path), path).rules

    def single(name: str, model):  # type: ignore[no-untyped-def]
        path = rdir / name
        return validate(model, read_yaml(path), path)

    targets = single("targets.yaml", TargetRules)
    resources = Resources(
        cues=_with_word_lists(load_lexicon_files(lex_paths), targets),
        pseudo_cues=patterns("pseudo_cues.yaml"),
        terminators=patterns("terminators.yaml"),
        alternatives=patterns("alternatives.yaml"),
        not_alternatives=patterns("not_alternatives.yaml"),
        context=single("context.yaml", ContextRuleFile).rules,
        targets=targets,
        conflicts=single("conflicts.yaml", ConflictRules),
        sentences=single("sentences.yaml", SentenceRules),
        lexicon_files=tuple(str(p) for p in lex_paths),
    )
    _check_references(resources)
    return resources


#: Word lists of rules/targets.yaml a lexicon pattern may name as ``\{name\}`` (escaped braces, so
#: the pattern is a valid regex as written): each list has one home, and a cue that needs the same
#: words ("appears \{state_words\}") is derived from it.
PATTERN_WORD_LISTS = ("state_words",)


def _with_word_lists(cues: tuple[CueEntry, ...], targets: TargetRules) -> tuple[CueEntry, ...]:
    """The cues with each ``\\{name\\}`` of :data:`PATTERN_WORD_LISTS` in their patterns replaced
    by that list of rules/targets.yaml as alternatives (longest first)."""
    lists = {
        "\\{" + name + "\\}": "|".join(
            re.escape(w) for w in sorted(getattr(targets, name), key=lambda w: (-len(w), w))
        )
        for name in PATTERN_WORD_LISTS
    }
    out = []
    for c in cues:
        pattern = c.pattern
        for key, alternatives in lists.items():
            if key in pattern:
                if not alternatives:
                    raise ResourceError(
                        f"lexicon entry {c.id!r}: pattern names {key} but rules/targets.yaml's list is empty"
                    )
                pattern = pattern.replace(key, alternatives)
        out.append(c if pattern == c.pattern else c.model_copy(update={"pattern": pattern}))
    return tuple(out)


def _check_references(res: Resources) -> None:
    ids = {c.id for c in res.cues}
    for rule in res.context:
        unknown = [cid for cid in rule.cue_ids if cid not in ids]
        if unknown:
            raise ResourceError(
                f"rules/context.yaml: rule {rule.id!r}, field 'cue_ids': unknown cue id(s) {unknown}"
            )
    all_ids = [
        r.id for r in res.pseudo_cues + res.terminators + res.alternatives + res.not_alternatives
    ]
    dupes = sorted({i for i in all_ids if all_ids.count(i) > 1} | (ids & set(all_ids)))
    if dupes:
        raise ResourceError(f"rule ids defined twice: {dupes}")


@lru_cache(maxsize=1)
def default_resources() -> Resources:
    """The shipped lexicons and rules, loaded once per process (immutable, so safe to share)."""
    return load_resources()
