"""Extraction: sentences, sections, the cue scanner (engine) and the pipeline composition.

``cuelex.extraction`` was one module before the folders followed the pipeline; its names (``from
cuelex.extraction import ...``) still resolve, from :mod:`cuelex.extraction.engine`, through the module-level
``__getattr__`` below.
"""

from __future__ import annotations

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    """An old ``cuelex.extraction.NAME``: the name of :mod:`.engine` (imported on first use)."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(".engine", __name__)
    try:
        return getattr(module, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
