"""The package's layout holds: no import cycles between modules, no module imported inside a
function to hide one, one pipeline composition, one home per shared fact, one error base class."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cuelex
from cuelex import errors, levels, pipeline

PKG = Path(cuelex.__file__).resolve().parent

#: function-level imports of cuelex modules that stay lazy, and why (none hides a cycle)
LAZY_OK = {
    ("cuelex.scoring.scorer", "cuelex.report.html"),  # ScoreReport.to_html: the page is optional
    ("cuelex.concepts.normalize", "cuelex.concepts.linking"),  # type annotation only
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _target(module: str, is_pkg: bool, node: ast.ImportFrom) -> list[str]:
    base = module.split(".") if is_pkg else module.split(".")[:-1]
    if node.level:
        base = base[: len(base) - (node.level - 1)]
        prefix = ".".join([*base, node.module] if node.module else base)
    else:
        prefix = node.module or ""
    if not prefix.startswith("cuelex"):
        return []
    out = []
    for alias in node.names:
        sub = f"{prefix}.{alias.name}"
        out.append(sub if (PKG.parent / Path(*sub.split("."))).with_suffix(".py").exists()
                   or (PKG.parent / Path(*sub.split(".")) / "__init__.py").exists() else prefix)  # fmt: skip
    return out


def _imports() -> dict[str, tuple[set[str], set[str]]]:
    """module -> (modules it imports at import time, modules it imports inside functions)."""
    graph: dict[str, tuple[set[str], set[str]]] = {}
    for path in PKG.rglob("*.py"):
        name = _module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        eager: set[str] = set()
        lazy: set[str] = set()

        def visit(node: ast.AST, in_function: bool, checking: bool) -> None:
            for child in ast.iter_child_nodes(node):
                fn = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
                tc = checking or (isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))
                if isinstance(child, ast.ImportFrom) and not tc:
                    (lazy if fn else eager).update(_target(name, path.name == "__init__.py", child))
                visit(child, fn, tc)

        visit(tree, False, False)
        graph[name] = (eager - {name}, lazy - {name})
    return graph


GRAPH = _imports()


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(n: str) -> list[str] | None:
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return [*stack[stack.index(m):], m]
            if m not in state and (found := dfs(m)):
                return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state and (found := dfs(n)):
            return found
    return None


def test_no_import_cycle_between_modules():
    # package __init__ files forward old names lazily and import nothing of their own package
    both = {m: {t for t in e | lz if not m.startswith(t + ".")} for m, (e, lz) in GRAPH.items()}
    assert _cycle(both) is None


def test_no_function_level_import_of_a_cuelex_module_except_the_listed_ones():
    lazy = {(m, t) for m, (_, lz) in GRAPH.items() for t in lz}
    assert lazy <= LAZY_OK, sorted(lazy - LAZY_OK)


def test_the_pipeline_is_composed_once():
    users = sorted(m for m, (e, _) in GRAPH.items() if "cuelex.pipeline" in e)
    assert {"cuelex.api", "cuelex.component", "cuelex.bench.screening", "cuelex.scoring.scorer"} <= set(users)
    text = "Possible pneumonia. No effusion."
    assert cuelex.extract(text, deduplicate=True) == pipeline.run_pipeline(
        text, engine=pipeline.get_engine(), deduplicate=True
    )
    assert cuelex.get_engine is pipeline.get_engine and cuelex.get_linker is pipeline.get_linker


def test_one_home_per_fact():
    from cuelex.bench import screening
    from cuelex.report import html, plots, style
    from cuelex.runner import jobs
    from cuelex.scoring import metrics

    assert metrics.LEVEL_ORDER is levels.LEVEL_ORDER is screening.LEVEL_ORDER
    assert plots.LEVEL_ORDER == tuple(lv.value for lv in levels.LEVEL_ORDER)
    assert jobs.TABLE2_METRICS is metrics.RATES is style.RATES is html.RATES
    assert html.LEVEL_COLORS is style.LEVEL_COLORS is plots.LEVEL_COLORS
    assert list(style.LEVEL_COLORS) == [lv.value for lv in levels.LEVEL_ORDER]


@pytest.mark.parametrize(
    "dotted",
    ["cuelex.corpus.InputError", "cuelex.schema.ResourceError", "cuelex.vocab.VocabularyError",
     "cuelex.linking.LinkingError", "cuelex.semantic.SemanticUnavailable",
     "cuelex.bertscore.BertScoreUnavailable", "cuelex.llm.LLMError", "cuelex.bench.BenchError",
     "cuelex.cli.Interrupted"],  # fmt: skip
)
def test_every_error_has_the_one_base(dotted):
    import importlib

    module, name = dotted.rsplit(".", 1)
    cls = getattr(importlib.import_module(module), name)
    assert issubclass(cls, errors.CuelexError)


def test_every_cuelex_error_class_is_listed_above():
    found = set()
    for path in PKG.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                ast.unparse(b).endswith(("Error", "Exception", "Unavailable")) for b in node.bases
            ):
                found.add(node.name)
    assert found == {"InputError", "ResourceError", "VocabularyError", "LinkingError",
                     "SemanticUnavailable", "BertScoreUnavailable", "LLMError", "BenchError",
                     "Interrupted", "CuelexError"}  # fmt: skip
