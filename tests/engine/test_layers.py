"""The package is layered (site/architecture.md draws it): a module imports only from its own layer and the ones
below, lazily or not, so data flows one way and the KB can be loaded and checked without the engine."""

from __future__ import annotations

import ast
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
    return (ENGINE / f"{name}.py").is_file() or (ENGINE / name).is_dir()


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every iosched module that ``path`` imports, at top level or inside a function, with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("iosched"):
            if node.module != "iosched":
                names = [node.module]
            else:  # a submodule, or a name the package itself defines (__version__)
                names = [f"iosched.{a.name}" if _is_module(a.name) else "iosched" for a in node.names]
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
