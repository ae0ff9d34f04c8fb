"""Behaviour fingerprint: run ``cuelex demo`` and the docs' ``cuelex score`` example and hash
every file they write, so a refactoring can be checked byte for byte against the code before it.

    python scripts/identity_check.py OUT_DIR > before.txt   # on the old commit
    python scripts/identity_check.py OUT_DIR > after.txt    # on the new one
    diff before.txt after.txt                               # empty: same pairs, scores, reports

Each line is ``sha256  relative/path``; timings printed by the commands are not part of it.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"


def run(out: Path) -> list[str]:
    """Run the commands into ``out`` and return one ``sha256  path`` line per file written."""
    out.mkdir(parents=True, exist_ok=True)
    cli = [sys.executable, "-m", "cuelex"]
    commands = [
        [*cli, "demo", "-o", str(out / "demo" / "demo_pairs.csv")],
        [*cli, "score", str(EXAMPLES / "source.txt"), str(EXAMPLES / "output.txt"),
         "-o", str(out / "score" / "demo_score.json"), "--pairs-out", str(out / "score" / "pairs.csv")],
        [*cli, "report", str(out / "score" / "demo_score.json"), "-o", str(out / "score" / "report.html")],
        [*cli, "plots", str(out / "demo" / "demo_pairs.csv"), str(out / "score" / "demo_score.json"),
         "-o", str(out / "plots")],
    ]
    for cmd in commands:
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return [
        f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.relative_to(out)}"
        for p in sorted(out.rglob("*"))
        if p.is_file()
    ]


if __name__ == "__main__":
    print("\n".join(run(Path(sys.argv[1]))))
