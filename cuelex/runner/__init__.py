"""Runs: prompts, the run cache, system execution, direct assessment and LLM clients.

``cuelex.runner`` was one module before the folders followed the pipeline; its names (``from
cuelex.runner import ...``) still resolve, from :mod:`cuelex.runner.jobs`, through the module-level
``__getattr__`` below.
"""

from __future__ import annotations

from .. import _compat


def __getattr__(name: str) -> object:
    """An old ``cuelex.runner.NAME``: the name of :mod:`.jobs` (imported on first use), or of
    the module it moved to (:data:`cuelex._compat.MOVED_NAMES`)."""
    return _compat.moved_attr(__name__, name, default=f"{__name__}.jobs")
