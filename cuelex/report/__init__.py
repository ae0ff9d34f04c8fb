"""Reports: the look (:mod:`.style`), HTML pages (:mod:`.html`), plots (:mod:`.plots`) and the
displaCy view (:mod:`.display`).

``cuelex.report`` was one module; its old names still import (from :mod:`.html`).
"""

from __future__ import annotations

from .. import _compat

__getattr__ = _compat.package_getattr(__name__, "html")
