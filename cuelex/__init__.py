"""cuelex: diagnostic uncertainty cues, their clinical targets, and whether a rewrite kept the certainty."""

from .align import AlignedTarget, Aligner
from .api import assess, extract, get_engine, get_linker, to_frame
from .component import CuelexComponent, load
from .levels import CUE_LEVELS, PAPER_LEVELS, Level
from .records import Assessment, Cue, CueTargetPair, Direction
from .runner import run, score_run
from .schema import ResourceError
from .scoring import CorpusScores, ScoredPair, ScoreReport, score, score_frame

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
__version__ = "0.1.0"
