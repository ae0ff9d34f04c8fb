"""Runs: prompts, the append-only run cache, execution and Table 2 (:mod:`.jobs`), direct
assessment (:mod:`.direct`), the chat-completions client (:mod:`.llm`), iterated rewrites
(:mod:`.compounding`).

``cuelex.runner`` was one module; its old names still import (from :mod:`.jobs`).
"""

from __future__ import annotations

from .. import _compat

__getattr__ = _compat.package_getattr(__name__, "jobs")
