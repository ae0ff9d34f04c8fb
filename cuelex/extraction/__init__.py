"""Extraction: sentences (:mod:`.sentences`), section headers (:mod:`.sections`) and the cue
scanner with its scope and target rules (:mod:`.engine`): text in, cue-target pairs out.

``cuelex.extraction`` was one module; its old names still import (from :mod:`.engine`).
"""

from __future__ import annotations

from .. import _compat

__getattr__ = _compat.package_getattr(__name__, "engine")
