"""Scoring: alignment of source targets in an output, per-document and corpus scores, metrics.

``cuelex.scoring`` was one module before the folders followed the pipeline; its names (``from
cuelex.scoring import ...``) still resolve, from :mod:`cuelex.scoring.scorer`, through the module-level
``__getattr__`` below.
"""

from __future__ import annotations

from .. import _compat


def __getattr__(name: str) -> object:
    """An old ``cuelex.scoring.NAME``: the name of :mod:`.scorer` (imported on first use), or of
    the module it moved to (:data:`cuelex._compat.MOVED_NAMES`)."""
    return _compat.moved_attr(__name__, name, default=f"{__name__}.scorer")
