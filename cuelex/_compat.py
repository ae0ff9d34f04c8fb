"""Old import paths of modules that moved into the pipeline's folders.

``import cuelex.align`` (and ``from cuelex.align import Aligner``, ``mock.patch("cuelex.align.X")``,
pickles that name ``cuelex.align``) keep working: a meta-path finder maps each old name to the
module's new home and hands back the SAME module object, so monkeypatching and ``isinstance`` see
one module under two names. The module keeps its real ``__spec__`` and ``__name__``. Modules that
became packages of the same name (``cuelex.scoring``, ``cuelex.bench``, ...) forward their old
names with a module-level ``__getattr__`` instead (see each package's ``__init__``).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Callable
from types import CodeType, ModuleType

#: old dotted name -> new dotted name (the one table of moved modules)
MOVED: dict[str, str] = {
    "cuelex.sentences": "cuelex.extraction.sentences",
    "cuelex.sections": "cuelex.extraction.sections",
    "cuelex.vocab": "cuelex.concepts.vocab",
    "cuelex.linking": "cuelex.concepts.linking",
    "cuelex.normalize": "cuelex.concepts.normalize",
    "cuelex.semantic": "cuelex.concepts.semantic",
    "cuelex.dedup": "cuelex.concepts.dedup",
    "cuelex.localmodel": "cuelex.concepts.localmodel",
    "cuelex.align": "cuelex.scoring.align",
    "cuelex.metrics": "cuelex.scoring.metrics",
    "cuelex.bertscore": "cuelex.scoring.bertscore",
    "cuelex.direct": "cuelex.runner.direct",
    "cuelex.llm": "cuelex.runner.llm",
    "cuelex.compounding": "cuelex.runner.compounding",
    "cuelex.plots": "cuelex.report.plots",
    "cuelex.display": "cuelex.report.display",
}

#: names that left a module for the command line package: where they are looked up (the module,
#: or the package that replaced a module) -> {name: the module that holds it now}
MOVED_NAMES: dict[str, dict[str, str]] = {
    "cuelex.scoring": dict.fromkeys(
        ("add_score_subparser", "cmd_score", "_cmd_score", "_options_from_args", "_read_text",
         "_write_pairs_table"), "cuelex.cli.score"),
    "cuelex.concepts.vocab": {
        **dict.fromkeys(
            ("add_vocab_subparser", "_cmd_build", "_cmd_table", "_split_list", "main"),
            "cuelex.cli.vocab"),
        # build-time tooling split off the runtime table reader
        **dict.fromkeys(
            ("build_term_table", "regenerate_term_table", "write_term_table", "default_do_dir",
             "build_hpo_table", "write_hpo_table", "hpo_version", "default_hpo_path",
             "_plural_variants", "_match_key", "_parse_obo_stanzas", "_read_disease_ontology",
             "_read_symptom_ontology"), "cuelex.concepts.ontology"),
        **dict.fromkeys(
            ("build_umls_index", "write_rrf", "ensure_open_index", "resolve_vocabulary",
             "open_index_key", "load_index", "Concept", "IndexData", "INDEX_FORMAT_VERSION",
             "MANIFEST_FILE", "CONCEPTS_FILE", "ABBREVIATIONS_FILE",
             "DEFAULT_UMLS_SEMANTIC_TYPES"), "cuelex.concepts.index"),
    },
    "cuelex.runner": dict.fromkeys(
        ("add_run_subparser", "cmd_run", "cmd_run_score", "copy_system", "_split"), "cuelex.cli.run"),
    "cuelex.runner.direct": dict.fromkeys(
        ("add_direct_subparser", "cmd_direct", "format_metrics"), "cuelex.cli.run"),
    "cuelex.bench": dict.fromkeys(
        ("add_bench_subparser", "_cmd_build", "_cmd_stats", "_cmd_export", "_cmd_agreement",
         "_print_problems"), "cuelex.cli.bench"),
    "cuelex.report": dict.fromkeys(("add_report_subparser", "cmd_report"), "cuelex.cli.report"),
    "cuelex.report.plots": dict.fromkeys(
        ("add_plots_subparser", "cmd_plots", "_prefixes", "main"), "cuelex.cli.plots"),
}

#: old modules that ran as ``python -m OLD ARGS``: the module whose ``main()`` stands in for them
MAIN_COMMANDS: dict[str, str] = {
    "cuelex.plots": "cuelex.cli.plots",
    "cuelex.vocab": "cuelex.cli.vocab",
}


def moved_attr(module: str, name: str, default: str | None = None) -> object:
    """``module.name`` for a name that moved: from :data:`MOVED_NAMES`, else from ``default`` (the
    module a package replaced). The module-level ``__getattr__`` of the old places calls this."""
    new = MOVED_NAMES.get(module, {}).get(name, default)
    if new is not None and not name.startswith("__"):
        try:
            return getattr(importlib.import_module(new), name)
        except AttributeError:
            pass
    raise AttributeError(f"module {module!r} has no attribute {name!r}")


def package_getattr(package: str, default_module: str) -> Callable[[str], object]:
    """The module-level ``__getattr__`` of a package that replaced the module ``package``: its old
    names come from ``package.default_module`` (or from :data:`MOVED_NAMES`), imported on first use."""

    def __getattr__(name: str) -> object:
        return moved_attr(package, name, default=f"{package}.{default_module}")

    return __getattr__


class _AliasLoader(importlib.abc.Loader):
    """Loads an old name as the already imported module of its new name."""

    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.target)
        self._real_spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # the import system stamped the alias spec on the module; give it back its own
        module.__spec__ = self._real_spec

    def get_code(self, fullname: str) -> CodeType:
        """``python -m cuelex.plots ...``: the command the old module's ``__main__`` ran."""
        cli_module = MAIN_COMMANDS.get(fullname)
        if cli_module is None:
            raise ImportError(f"{fullname} cannot be run with python -m; use `cuelex --help`")
        source = f"import sys\nfrom {cli_module} import main\nsys.exit(main())\n"
        return compile(source, fullname, "exec")

    def is_package(self, fullname: str) -> bool:
        return False


class _AliasFinder(importlib.abc.MetaPathFinder):
    """Finds the old names in :data:`MOVED` (and nothing else)."""

    def find_spec(self, fullname: str, path: object = None, target: object = None):  # type: ignore[no-untyped-def]
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(new))


def install() -> None:
    """Put the finder on ``sys.meta_path`` once (idempotent)."""
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.append(_AliasFinder())
