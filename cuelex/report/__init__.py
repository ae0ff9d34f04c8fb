"""Reports: level colours and names, the HTML pages, plots and the displaCy view.

``cuelex.report`` was one module before the folders followed the pipeline; its names (``from
cuelex.report import ...``) still resolve, from :mod:`cuelex.report.html`, through the module-level
``__getattr__`` below.
"""

from __future__ import annotations

from .. import _compat


def __getattr__(name: str) -> object:
    """An old ``cuelex.report.NAME``: the name of :mod:`.html` (imported on first use), or of
    the module it moved to (:data:`cuelex._compat.MOVED_NAMES`)."""
    return _compat.moved_attr(__name__, name, default=f"{__name__}.html")
