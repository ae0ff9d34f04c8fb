"""cuelex: diagnostic uncertainty cues, their clinical targets, and whether a rewrite kept the certainty.

The package is lazy (PEP 562): ``import cuelex`` is cheap, and each public name imports its
submodule (and with it spaCy, pandas or pydantic) the first time it is used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import _compat
from ._version import __version__ as __version__  # re-exported

_compat.install()  # old module paths (cuelex.align, cuelex.plots, ...) keep importing

# public name -> submodule that defines it
_EXPORTS: dict[str, str] = {
    "AlignedTarget": "scoring.align",
    "Aligner": "scoring.align",
    "assess": "api",
    "extract": "api",
    "get_engine": "api",
    "get_linker": "api",
    "to_frame": "api",
    "CuelexComponent": "component",
    "load": "component",
    "CUE_LEVELS": "levels",
    "PAPER_LEVELS": "levels",
    "Level": "levels",
    "Assessment": "records",
    "Cue": "records",
    "CueTargetPair": "records",
    "Direction": "records",
    "run": "runner.jobs",
    "score_run": "runner.jobs",
    "ResourceError": "schema",
    "CorpusScores": "scoring.scorer",
    "ScoredPair": "scoring.scorer",
    "ScoreReport": "scoring.scorer",
    "score": "scoring.scorer",
    "score_frame": "scoring.scorer",
}

if TYPE_CHECKING:  # static checkers and IDEs see the eager imports
    from .api import assess, extract, get_engine, get_linker, to_frame
    from .component import CuelexComponent, load
    from .levels import CUE_LEVELS, PAPER_LEVELS, Level
    from .records import Assessment, Cue, CueTargetPair, Direction
    from .runner.jobs import run, score_run
    from .schema import ResourceError
    from .scoring.align import AlignedTarget, Aligner
    from .scoring.scorer import CorpusScores, ScoredPair, ScoreReport, score, score_frame

__all__ = [
    "CUE_LEVELS",
    "PAPER_LEVELS",
    "AlignedTarget",
    "Aligner",
    "Assessment",
    "CorpusScores",
    "Cue",
    "CueTargetPair",
    "CuelexComponent",
    "Direction",
    "Level",
    "ResourceError",
    "ScoreReport",
    "ScoredPair",
    "assess",
    "extract",
    "get_engine",
    "get_linker",
    "load",
    "run",
    "score",
    "score_run",
    "score_frame",
    "to_frame",
]


def __getattr__(name: str) -> Any:
    """Import the submodule behind a public name on first access, and cache the name here."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'cuelex' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
