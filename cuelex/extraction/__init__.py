"""Extraction: sentences, sections, the cue scanner (engine) and the pipeline composition.

``cuelex.extraction`` was one module before the folders followed the pipeline; its names (``from
cuelex.extraction import ...``) still resolve, from :mod:`cuelex.extraction.engine`, through the module-level
``__getattr__`` below.
"""

from __future__ import annotations

from .. import _compat


def __getattr__(name: str) -> object:
    """An old ``cuelex.extraction.NAME``: the name of :mod:`.engine` (imported on first use), or of
    the module it moved to (:data:`cuelex._compat.MOVED_NAMES`)."""
    return _compat.moved_attr(__name__, name, default=f"{__name__}.engine")
