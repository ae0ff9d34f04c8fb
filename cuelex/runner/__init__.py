"""Runs: prompts, the run cache, system execution, direct assessment and LLM clients.

``cuelex.runner`` was one module before the folders followed the pipeline; its names (``from
cuelex.runner import ...``) still resolve, from :mod:`cuelex.runner.jobs`, through the module-level
``__getattr__`` below.
"""

from __future__ import annotations

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    """An old ``cuelex.runner.NAME``: the name of :mod:`.jobs` (imported on first use)."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(".jobs", __name__)
    try:
        return getattr(module, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
