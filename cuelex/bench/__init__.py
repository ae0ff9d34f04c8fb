"""Benchmark: file format, inputs, screening, build, statistics and human validation.

``cuelex.bench`` was one module before the folders followed the pipeline; its names (``from
cuelex.bench import ...``) still resolve, from :mod:`cuelex.bench.builder`, through the module-level
``__getattr__`` below.
"""

from __future__ import annotations

from .. import _compat


def __getattr__(name: str) -> object:
    """An old ``cuelex.bench.NAME``: the name of :mod:`.builder` (imported on first use), or of
    the module it moved to (:data:`cuelex._compat.MOVED_NAMES`)."""
    return _compat.moved_attr(__name__, name, default=f"{__name__}.builder")
