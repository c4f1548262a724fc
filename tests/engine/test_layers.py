"""The package is layered (site/architecture.md draws it): a module imports only from its own layer and the ones
below, lazily or not, so data flows one way and the KB can be loaded and checked without the engine."""

from __future__ import annotations

import ast
from itertools import pairwise
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine" / "iosched"
LAYERS = (
    ("foundations", {"__init__", "hints", "struct", "vocab", "grammar", "kernel", "escape", "jsontext"}),
    (
        "records and inputs",
        {"plan", "runtime", "facts", "rules", "evidence", "diagnostics", "errors", "yamlsrc", "kbfiles"},
    ),
    (
        "schema and the outside world",
        {"model", "catalogue", "steps", "persist", "system", "measure", "symptoms", "normalise"},
    ),
    ("the knowledge base", {"kinds", "kb", "validate", "targets", "context", "export"}),
    ("loading", {"kbcheck", "kbload", "kbcache", "kbcompile"}),
    ("planning and rendering", {"engine", "host", "fleet", "fleet_pool", "answer", "render"}),
    ("the edges", {"cli", "sitegen", "hooks", "__main__"}),
)
LAYER = {room: n for n, (_, rooms) in enumerate(LAYERS) for room in rooms}


def _room(module: str) -> str:
    """The top-level module or package of ``iosched.x.y`` (``x``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


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


def test_every_module_has_a_layer() -> None:
    rooms = {p.relative_to(ENGINE).parts[0].removesuffix(".py") for p in MODULES}
    assert rooms == LAYER.keys()


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ENGINE).as_posix())
def test_no_module_imports_from_a_layer_above_its_own(path: Path) -> None:
    room = path.relative_to(ENGINE).parts[0].removesuffix(".py")
    upward = [
        f"line {line}: {module} ({LAYERS[LAYER[_room(module)]][0]})"
        for line, module in _imports(path)
        if LAYER[_room(module)] > LAYER[room]
    ]
    assert not upward, f"{room} ({LAYERS[LAYER[room]][0]}) imports from above: {upward}"


def test_the_check_sees_lazy_imports() -> None:
    kbcheck = [module for _, module in _imports(ENGINE / "kbcheck.py")]
    assert "iosched.context" in kbcheck  # imported inside a function


@pytest.mark.parametrize("room", ["system", "steps"])
def test_persistence_composes_the_mechanisms_and_nothing_below_imports_it(room: str) -> None:
    """Within one layer the arrows run one way: each persistence mechanism is a module of system/ (it reads,
    writes and ranks its files); persist/ chooses and composes them and the step kinds, so neither imports it."""
    found = [f"{path.relative_to(ENGINE)}:{line} {module}" for path in sorted((ENGINE / room).rglob("*.py"))
             for line, module in _imports(path) if _room(module) == "persist"]  # fmt: skip
    assert not found


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
