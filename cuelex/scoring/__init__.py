"""Scoring: alignment of source targets in an output, per-document and corpus scores, metrics.

``cuelex.scoring`` was one module before the folders followed the pipeline; its names (``from
cuelex.scoring import ...``) still resolve, from :mod:`cuelex.scoring.scorer`, through the module-level
``__getattr__`` below.
"""

from __future__ import annotations

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    """An old ``cuelex.scoring.NAME``: the name of :mod:`.scorer` (imported on first use)."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(".scorer", __name__)
    try:
        return getattr(module, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
