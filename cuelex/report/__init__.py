"""Reports: level colours and names, the HTML pages, plots and the displaCy view.

``cuelex.report`` was one module before the folders followed the pipeline; its names (``from
cuelex.report import ...``) still resolve, from :mod:`cuelex.report.html`, through the module-level
``__getattr__`` below.
"""

from __future__ import annotations

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    """An old ``cuelex.report.NAME``: the name of :mod:`.html` (imported on first use)."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(".html", __name__)
    try:
        return getattr(module, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
