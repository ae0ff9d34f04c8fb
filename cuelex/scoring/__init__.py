"""Scoring: where each source target went in the output (:mod:`.align`), fates and rates
(:mod:`.metrics`), a document's and a corpus's scores (:mod:`.scorer`), BERTScore (:mod:`.bertscore`).

``cuelex.scoring`` was one module; its old names still import (from :mod:`.scorer`).
"""

from __future__ import annotations

from .. import _compat

__getattr__ = _compat.package_getattr(__name__, "scorer")
