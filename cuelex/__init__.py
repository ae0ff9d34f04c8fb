"""cuelex: diagnostic uncertainty cues, their clinical targets, and whether a rewrite kept the certainty."""

from .api import assess, extract, get_engine, to_frame
from .component import CuelexComponent, load
from .levels import CUE_LEVELS, PAPER_LEVELS, Level
from .records import Assessment, Cue, CueTargetPair, Direction
from .schema import ResourceError

__all__ = [
    "CUE_LEVELS",
    "PAPER_LEVELS",
    "Assessment",
    "Cue",
    "CueTargetPair",
    "CuelexComponent",
    "Direction",
    "Level",
    "ResourceError",
    "assess",
    "extract",
    "get_engine",
    "load",
    "to_frame",
]
__version__ = "0.1.0"
