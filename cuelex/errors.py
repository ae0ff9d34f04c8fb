"""The one base class of cuelex's errors.

Every error cuelex raises on purpose derives from :class:`CuelexError`, so ``except CuelexError``
catches them all; each also keeps its builtin base (``ValueError``, ``ImportError``, ...), so code
that caught ``ValueError`` or the specific class (``except InputError``) works as before.
"""

from __future__ import annotations

__all__ = ["CuelexError"]


class CuelexError(Exception):
    """Base of cuelex's own errors: bad input, bad lexicons/rules, vocabularies, linking, runs."""
