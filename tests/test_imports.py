"""The package's modules import one way: no import cycle anywhere (function-local imports and
those made only for the type checker, under ``if TYPE_CHECKING:``, included), and every
command-line module imports on its own in a fresh interpreter."""

from __future__ import annotations

import ast
import functools
import pathlib
import subprocess
import sys

import pytest

SRC = pathlib.Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "bonepile"


def modules() -> dict[str, tuple[pathlib.Path, bool]]:
    """Dotted name -> (file, is a package) for every module of bonepile."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_pkg else parts)] = (path, is_pkg)
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def import_graph(types: bool = True) -> dict[str, set[str]]:
    """Module -> the bonepile modules it imports anywhere in its text; ``types``: with those
    imported under ``if TYPE_CHECKING:`` (which never run, but tie the modules all the same)."""
    return {mod: set(targets) for mod, targets in _import_graph(types).items()}


@functools.cache
def _import_graph(types: bool) -> dict[str, set[str]]:
    """``import_graph``, each module's text parsed once for the whole run (a copy is handed
    out: the tests read the package, which does not change under them)."""
    mods = modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}

    def known(name: str) -> str | None:
        parts = name.split(".")
        for i in range(len(parts), 0, -1):
            if ".".join(parts[:i]) in mods:
                return ".".join(parts[:i])
        return None

    for mod, (path, is_pkg) in mods.items():

        def add(target: str, mod: str = mod) -> None:
            found = known(target)
            if found is not None and found != mod:
                graph[mod].add(found)

        def visit(node: ast.AST, mod: str = mod, is_pkg: bool = is_pkg) -> None:
            if not types and isinstance(node, ast.If) and _is_type_checking(node.test):
                for child in node.orelse:
                    visit(child)
                return
            if isinstance(node, ast.Import):
                for alias in node.names:
                    add(alias.name)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = mod.split(".") if is_pkg else mod.split(".")[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    prefix = ".".join(base + ([node.module] if node.module else []))
                else:
                    prefix = node.module or ""
                for alias in node.names:
                    sub = f"{prefix}.{alias.name}"
                    add(sub if sub in mods else prefix)
            for child in ast.iter_child_nodes(node):
                visit(child)

        visit(ast.parse(path.read_text(encoding="utf-8")))
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return out


def test_no_import_cycle_in_the_package():
    run = import_graph(types=False)
    assert "bonepile.engine.notation" in run["bonepile.engine.game"]
    assert cycles(run) == []
    assert cycles(import_graph()) == []


def test_imports_for_the_type_checker_are_followed():
    # the routes name the Server only for the type checker
    assert "bonepile.web.server" in import_graph()["bonepile.web.routes.tables"]
    assert "bonepile.web.server" not in import_graph(types=False)["bonepile.web.routes.tables"]
    # the web's table sees the server through a protocol, for the type checker too
    assert "bonepile.web.server" not in import_graph()["bonepile.web.play.table"]
    assert "bonepile.web.play.table" in import_graph()["bonepile.web.server"]


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


CLI_MODULES = sorted(m for m in modules() if m == "bonepile.cli" or m.startswith("bonepile.cli."))


def test_the_command_modules_import_only_the_shared_module():
    graph = import_graph()
    assert "bonepile.cli.common" in CLI_MODULES and "bonepile.cli.__main__" in CLI_MODULES
    for mod in CLI_MODULES:
        inside = {m for m in graph[mod] if m == "bonepile.cli" or m.startswith("bonepile.cli.")}
        if mod == "bonepile.cli.common":
            assert inside == set()
        elif mod == "bonepile.cli.__main__":
            assert inside == {"bonepile.cli"}
        elif mod == "bonepile.cli.screen":  # the terminal's drawing, shared like common
            assert inside == set()
        elif mod == "bonepile.cli.play":  # play's end-of-game review is its own module
            assert inside <= {"bonepile.cli.common", "bonepile.cli.review", "bonepile.cli.screen"}, (
                mod,
                inside,
            )
        elif mod != "bonepile.cli":
            assert inside <= {"bonepile.cli.common", "bonepile.cli.screen"}, (mod, inside)
    assert graph["bonepile.cli.__main__"] == {"bonepile.cli"}
    assert {
        "bonepile.cli.replay",
        "bonepile.cli.random",
        "bonepile.cli.play",
        "bonepile.cli.hint",
        "bonepile.cli.arena",
        "bonepile.cli.serve",
    } <= graph["bonepile.cli"]


@pytest.mark.parametrize(
    "module", CLI_MODULES + ["bonepile.engine.notation", "bonepile.engine.game", "bonepile.engine.record"]
)
def test_each_module_imports_alone(module):
    code = f"import importlib; importlib.import_module({module!r})"
    r = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(SRC), "PATH": ""},
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
