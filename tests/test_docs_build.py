"""The documentation site builds (mkdocs build --strict) and docs/cli.md covers every command.

Regenerate docs/cli.md after changing the CLI: ``.venv/bin/python tests/test_docs_build.py --write-cli``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CLI_MD = ROOT / "docs" / "cli.md"

# Commands whose modules are wired by the lead; documented before cuelex/cli.py registers them.
_EXTRA_HOOKS = (
    ("cuelex.report", "add_report_subparser"),
    ("cuelex.plots", "add_plots_subparser"),
)

#: Warnings of a strict build that are known and owned by other pages (none today). Each entry is a
#: regular expression matched against a warning line; list the reason next to it.
ALLOWED_WARNINGS: tuple[str, ...] = ()

CLI_INTRO = """# Command line

Every command is `cuelex COMMAND ...` (installed with the package) and prints `--help`. Errors in
the input (a missing file or column, a malformed row, an unknown option value) end with
`cuelex: error: ...` naming what is wrong, and exit status 2. Ctrl-C stops any command with one
line on stderr and exit status 130, keeping what was finished (`cuelex extract` writes the pairs of
the documents already done; run caches and `--work-dir` chunks are kept as they are). `cuelex
--version` prints the version; `python -m cuelex` is the same command.

| command | what it does |
| --- | --- |
{table}

The sections below are the commands' own `--help` text (this page is regenerated from the parser
with `python tests/test_docs_build.py --write-cli`, and a test fails when a command or option is
missing from it).
"""


def cli_parser() -> argparse.ArgumentParser:
    """``cuelex.cli.build_parser()`` plus the subcommands of modules still being wired."""
    import importlib

    from cuelex.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for module, hook in _EXTRA_HOOKS:
        try:
            mod = importlib.import_module(module)
        except ImportError:
            continue
        name = hook.removeprefix("add_").removesuffix("_subparser")
        if name in sub.choices or (name == "run" and "run" in sub.choices):
            continue
        getattr(mod, hook)(sub)
    return parser


def commands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(name, help, parser) of every command and nested subcommand, in parser order."""
    out = []

    def walk(p: argparse.ArgumentParser, prefix: str) -> None:
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                helps = {a.dest: a.help for a in action._choices_actions}
                for name, child in action.choices.items():
                    full = f"{prefix} {name}".strip()
                    out.append((full, helps.get(name) or "", child))
                    walk(child, full)

    walk(parser, "")
    return out


def render_cli_md() -> str:
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        parser = cli_parser()
        cmds = commands(parser)
        table = "\n".join(
            f"| [`cuelex {n}`](#{_slug(n)}) | {h.replace('|', '/')} |" for n, h, _ in cmds
        )
        parts = [
            CLI_INTRO.format(table=table),
            "## `cuelex`\n",
            "```text",
            parser.format_help().rstrip(),
            "```\n",
        ]
        for n, _h, p in cmds:
            parts += [f"## `cuelex {n}`\n", "```text", p.format_help().rstrip(), "```\n"]
        return "\n".join(parts)
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old


def _slug(name: str) -> str:
    return "cuelex-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _mkdocs() -> list[str]:
    exe = Path(sys.executable).with_name("mkdocs")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("mkdocs")
    if found:
        return [found]
    pytest.skip('mkdocs is not installed: pip install -e ".[docs]" (mkdocs, mkdocstrings[python])')


def test_cli_page_covers_every_command_and_option():
    text = CLI_MD.read_text(encoding="utf-8")
    missing = []
    for name, _help, p in commands(cli_parser()):
        if f"## `cuelex {name}`" not in text:
            missing.append(f"command `cuelex {name}`")
            continue
        for action in p._actions:
            for opt in action.option_strings:
                if opt.startswith("--") and opt not in text:
                    missing.append(f"`cuelex {name} {opt}`")
    assert not missing, (
        "docs/cli.md is out of date (regenerate: python tests/test_docs_build.py --write-cli): "
        + ", ".join(missing)
    )


def test_nav_lists_every_page_and_every_page_exists():
    import yaml

    conf = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))

    def flat(items: list) -> list[str]:
        """Page paths of a nav list; a section (a title over a list) contributes its pages."""
        out: list[str] = []
        for item in items:
            value = next(iter(item.values()))
            out += flat(value) if isinstance(value, list) else [value]
        return out

    pages = flat(conf["nav"])
    for page in pages:
        assert (ROOT / "docs" / page).is_file(), f"mkdocs.yml nav lists a missing page: {page}"
    docs = ROOT / "docs"
    on_disk = sorted(
        [p.name for p in docs.glob("*.md")] + [p.relative_to(docs).as_posix() for p in docs.glob("history/*.md")]
    )
    not_in_nav = [p for p in on_disk if p not in pages]
    assert not not_in_nav, f"docs pages missing from the nav of mkdocs.yml: {not_in_nav}"
    for required in ("index.md", "concepts.md", "component.md", "cli.md", "reference.md",
                     "reports.md", "quickstart.md", "levels.md", "lexicons.md", "scoring.md",
                     "accuracy.md", "speed.md"):  # fmt: skip
        assert required in pages


def test_mkdocs_build_strict(tmp_path):
    site = tmp_path / "site"
    proc = subprocess.run(
        [
            *_mkdocs(),
            "build",
            "--strict",
            "--config-file",
            str(ROOT / "mkdocs.yml"),
            "--site-dir",
            str(site),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_COLOR": "1"},
    )
    log = proc.stdout + proc.stderr
    warnings = [
        line
        for line in log.splitlines()
        if line.startswith(("WARNING", "ERROR"))
        and not any(re.search(pat, line) for pat in ALLOWED_WARNINGS)
    ]
    assert not warnings, "mkdocs warnings:\n" + "\n".join(warnings)
    assert proc.returncode == 0 or ALLOWED_WARNINGS, log[-3000:]
    # the pages were written, the API reference was generated from docstrings, the image is there
    ref = (site / "reference" / "index.html").read_text(encoding="utf-8")
    for name in (
        "score",
        "ScoreReport",
        "render_report",
        "metric_bars",
        "Level",
        "CuelexComponent",
    ):
        assert name in ref, f"API reference lacks {name}"
    assert "Possible pneumonia" in ref  # a docstring example made it into the page
    for page in ("concepts", "component", "cli", "reports", "scoring", "levels", "quickstart"):
        assert (site / page / "index.html").is_file(), page
    assert (site / "img" / "report.png").is_file()
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'src="img/report.png"' in index


if __name__ == "__main__":  # regenerate docs/cli.md
    if sys.argv[1:] == ["--write-cli"]:
        CLI_MD.write_text(render_cli_md(), encoding="utf-8")
        print(f"wrote {CLI_MD}")
    else:
        print(__doc__)
