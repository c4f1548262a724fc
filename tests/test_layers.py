"""The package is layered, and its folders are the layers (site/architecture.md draws them): a module imports only
from its own folder and the folders below, lazily or not, so data flows one way and the KB can be loaded and
checked without the engine. The foundations are the modules at the top of the package; every other layer is one
folder. No two modules import each other, lazily or not, and no two share a name, so a name says which module it
is."""

from __future__ import annotations

import ast
from itertools import pairwise
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[1] / "engine" / "iosched"
FOUNDATIONS = "foundations"
LAYERS = (  # from the bottom up: the top-level modules, then one folder per layer
    FOUNDATIONS,
    "records",
    "capture",
    "mechanisms",
    "observe",
    "knowledge",
    "symptoms",
    "measure",
    "steps",
    "persist",
    "planning",
    "render",
    "fleet",
    "cli",
    "sitegen",
    "hooks",
)
LAYER = {name: n for n, name in enumerate(LAYERS)}
ENTRY = "__main__"  # python -m iosched: the console script, above every layer


def _layer(module: str) -> str:
    """The layer of ``iosched.x.y``: the folder ``x``, or the foundations when ``x`` is a top-level module."""
    parts = module.split(".")
    if len(parts) == 1 or not (ENGINE / parts[1]).is_dir():
        return ENTRY if parts[-1] == ENTRY else FOUNDATIONS
    return parts[1]


def _is_module(name: str) -> bool:
    """Whether ``iosched.x.y`` is a module or a package."""
    path = ENGINE.joinpath(*name.split(".")[1:])
    return path.with_suffix(".py").is_file() or path.is_dir()


def _name(path: Path) -> str:
    """The module ``path`` is: ``iosched.x.y`` (a package by its ``__init__``)."""
    parts = path.relative_to(ENGINE).with_suffix("").parts
    return ".".join(("iosched", *(parts[:-1] if parts[-1] == "__init__" else parts)))


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every iosched module that ``path`` imports, at top level or inside a function, with its line: of
    ``from package import name``, the submodule when ``name`` is one, else the package."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("iosched"):
            names = [sub if _is_module(sub := f"{node.module}.{a.name}") else node.module for a in node.names]
            found += [(node.lineno, name) for name in names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("iosched")]
    return found


MODULES = sorted(ENGINE.rglob("*.py"))


def _own_layer(path: Path) -> str:
    return _layer(".".join(["iosched", *path.relative_to(ENGINE).with_suffix("").parts]))


def _cycle(graph: dict[str, dict[str, int]]) -> list[str]:
    """One cycle of ``graph`` (module -> the modules it imports, each with its line) as ``module:line`` from
    each module to the next, or [] when there is none."""
    done: set[str] = set()
    path: list[str] = []

    def walk(module: str) -> list[str]:
        if module in path:
            ring = [*path[path.index(module) :], module]
            return [f"{a}:{graph[a][b]}" for a, b in pairwise(ring)] + [module]
        if module in done:
            return []
        path.append(module)
        for imported in graph[module]:
            if found := walk(imported):
                return found
        path.pop()
        done.add(module)
        return []

    return next((found for module in sorted(graph) if (found := walk(module))), [])


def test_no_module_imports_one_that_imports_it_back_lazily_or_not() -> None:
    """Modules form no cycle, through imports at the top or inside functions: a name two modules share lives
    in the one below both."""
    modules = {_name(path): path for path in MODULES}
    graph = {
        name: {
            imported: line for line, imported in reversed(_imports(path)) if imported in modules and imported != name
        }
        for name, path in modules.items()
    }
    assert not (cycle := _cycle(graph)), " -> ".join(cycle)


def test_every_folder_is_a_layer() -> None:
    folders = {p.name for p in ENGINE.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == set(LAYERS) - {FOUNDATIONS}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ENGINE).as_posix())
def test_no_module_imports_from_a_layer_above_its_own(path: Path) -> None:
    own = _own_layer(path)
    if own == ENTRY:
        return
    upward = [
        f"line {line}: {module} ({_layer(module)})"
        for line, module in _imports(path)
        if (_layer(module) == ENTRY or LAYER[_layer(module)] > LAYER[own])
    ]
    assert not upward, f"{path.relative_to(ENGINE)} ({own}) imports from above: {upward}"


def test_no_module_name_repeats() -> None:
    """One module per name: ``model.py`` or ``errors.py`` twice would make every mention of one ambiguous."""
    seen: dict[str, list[str]] = {}
    for path in MODULES:
        if path.stem not in ("__init__", "__main__"):
            seen.setdefault(path.stem, []).append(path.relative_to(ENGINE).as_posix())
    assert {name: paths for name, paths in seen.items() if len(paths) > 1} == {}


def test_the_check_sees_lazy_imports() -> None:
    kbcheck = [module for _, module in _imports(ENGINE / "knowledge" / "kbcheck.py")]
    assert "iosched.knowledge.context" in kbcheck  # imported inside a function


def test_the_check_sees_submodules_imported_by_name() -> None:
    reader = [module for _, module in _imports(ENGINE / "planning" / "fleetplan.py")]
    assert "iosched.mechanisms.udev" in reader  # from iosched.mechanisms import udev
    assert _layer("iosched.mechanisms.udev") == "mechanisms"
    assert _layer("iosched.escape") == FOUNDATIONS
