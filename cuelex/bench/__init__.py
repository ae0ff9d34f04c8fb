"""Benchmark: file format, inputs, screening, build, statistics and human validation.

``cuelex.bench`` was one module before the folders followed the pipeline; its names (``from
cuelex.bench import ...``) still resolve, from :mod:`cuelex.bench.builder`, through the module-level
``__getattr__`` below.
"""

from __future__ import annotations

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    """An old ``cuelex.bench.NAME``: the name of :mod:`.builder` (imported on first use)."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(".builder", __name__)
    try:
        return getattr(module, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
