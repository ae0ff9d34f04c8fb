"""MkDocs hook: show docstring doctests (``>>>`` lines and their output) as code blocks.

cuelex's docstrings carry runnable doctests in plain text. Markdown would read them as paragraphs
(and ``[('a', 'b')]`` as a link reference), so this hook adds a Markdown preprocessor that wraps
every run of lines starting with ``>>>`` — with the output lines after it, up to a blank line — in
a fenced ``pycon`` block. mkdocstrings renders docstrings with the site's Markdown extensions, so
the API reference gets it too.
"""

from __future__ import annotations

import re

from markdown import Extension
from markdown.preprocessors import Preprocessor

_FENCE = re.compile(r"^\s*(```|~~~)")


class _DoctestPreprocessor(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        in_fence = False
        i = 0
        while i < len(lines):
            line = lines[i]
            if _FENCE.match(line):
                in_fence = not in_fence
                out.append(line)
                i += 1
                continue
            if not in_fence and line.lstrip().startswith(">>>"):
                indent = line[: len(line) - len(line.lstrip())]
                block = []
                while i < len(lines) and lines[i].strip():
                    block.append(
                        lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i]
                    )
                    i += 1
                if out and out[-1].strip():
                    out.append("")
                out += [f"{indent}```pycon", *[f"{indent}{b}" for b in block], f"{indent}```", ""]
                continue
            out.append(line)
            i += 1
        return out


class DoctestBlocks(Extension):
    def extendMarkdown(self, md):
        # before fenced code blocks (priority 25) so the fences it writes are picked up
        md.preprocessors.register(_DoctestPreprocessor(md), "cuelex_doctest_blocks", 27)


def on_config(config, **kwargs):
    config.markdown_extensions.append(DoctestBlocks())
    return config
