"""One bounded memo for the engine and the linker: exact results, emptied when full."""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class BoundedMemo(dict[K, V]):
    """A dict that empties itself when it reaches ``max_entries`` before storing a new entry.

    Memoised results stay exact and memory stays bounded; emptying costs no bookkeeping per
    look-up (an LRU would), and a corpus that repeats itself refills the memo at once.
    """

    def __init__(self, max_entries: int) -> None:
        super().__init__()
        self.max_entries = max_entries

    def put(self, key: K, value: V) -> V:
        """Store ``value`` under ``key`` (emptying the memo first when it is full); return it."""
        if len(self) >= self.max_entries:
            self.clear()
        self[key] = value
        return value
