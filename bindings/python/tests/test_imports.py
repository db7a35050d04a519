"""The package's modules import each other one way only: no cycle, counting every import that can
run, at module level or inside a function, a method, a try or an if. Imports under
``if TYPE_CHECKING:`` never run (annotations only) and are left out; such blocks may hold nothing else.

The graph is read from the source (ast), not from sys.modules, so an import hidden in a function
counts as much as one at the top of a module."""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Set

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "realmdb"


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of ``tree`` except the bodies of ``if TYPE_CHECKING:`` (their else branches count)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                yield child
                yield from _runtime_nodes(child)
            continue
        yield node
        yield from _runtime_nodes(node)


def module_imports(package: Path) -> Dict[str, Set[str]]:
    """For each module of ``package`` ("__init__", "realm", ...), the package's modules it imports."""
    modules = {path.stem for path in package.glob("*.py")}
    graph: Dict[str, Set[str]] = {}
    for name in sorted(modules):
        tree = ast.parse((package / f"{name}.py").read_text(encoding="utf-8"))
        edges: Set[str] = set()
        for node in _runtime_nodes(tree):
            targets: List[str] = []
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    targets.append(node.module.split(".")[0])
                else:  # from . import a, b: submodules, or names of the package's __init__
                    targets.extend(alias.name if alias.name in modules else "__init__" for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                parts = node.module.split(".")
                if parts[0] == package.name:
                    if len(parts) > 1:
                        targets.append(parts[1])
                    else:
                        targets.extend(alias.name if alias.name in modules else "__init__" for alias in node.names)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    parts = alias.name.split(".")
                    if parts[0] == package.name:
                        targets.append(parts[1] if len(parts) > 1 else "__init__")
            elif isinstance(node, ast.ImportFrom) and node.level > 1:
                raise AssertionError(f"{name}.py: relative import beyond the package: {ast.dump(node)}")
            edges.update(t for t in targets if t in modules and t != name)
        graph[name] = edges
    return graph


def find_cycle(graph: Dict[str, Set[str]]) -> Optional[List[str]]:
    """A cycle of ``graph`` as [a, b, ..., a], or None."""
    state: Dict[str, int] = {}  # 1: on the current path, 2: done
    path: List[str] = []

    def visit(node: str) -> Optional[List[str]]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_package_has_no_import_cycle():
    graph = module_imports(PACKAGE)
    assert {"realm", "object", "results", "relationships", "notifications", "migration", "sectioned",
            "_bulk"} <= set(graph)
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_layers_run_one_way():
    graph = module_imports(PACKAGE)
    # What the package's layering promises (see realm.py): the lower modules never reach up.
    below_realm = ["object", "results", "relationships", "notifications", "sectioned", "_bulk", "_values", "_schema"]
    for name in below_realm:
        assert not graph[name] & {"realm", "migration", "_open", "__init__"}, (name, graph[name])
    for name in ("_c_types", "_prototypes", "errors", "objectid"):
        assert graph[name] <= {"_c_types", "errors"}, (name, graph[name])  # loadable without libdb.so


def test_type_checking_blocks_only_import():
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.If) and _is_type_checking(node.test):
                for child in node.body:
                    assert isinstance(child, (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.Expr)), \
                        f"{path.name}:{child.lineno}: only imports and type aliases belong under TYPE_CHECKING"


def write_package(root: Path, files: Dict[str, str]) -> Path:
    package = root / "realmdb"
    package.mkdir()
    for name, text in files.items():
        (package / f"{name}.py").write_text(text, encoding="utf-8")
    return package


@pytest.mark.parametrize("files, cycle", [
    # a function-level import closing the circle
    ({"__init__": "", "a": "from .b import f\n", "b": "def f():\n    from .a import g\n    return g\n"},
     ["a", "b", "a"]),
    # from . import, absolute imports, a method, a try block
    ({"__init__": "", "a": "from . import b\n", "b": "import realmdb.c\n",
      "c": "class C:\n    def m(self):\n        try:\n            from realmdb.a import x\n        except ImportError:\n            pass\n"},
     ["a", "b", "c", "a"]),
    # the else branch of TYPE_CHECKING runs
    ({"__init__": "", "a": "from .b import f\n",
      "b": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    pass\nelse:\n    from .a import g\n"},
     ["a", "b", "a"]),
])
def test_a_cycle_is_found(tmp_path, files, cycle):
    assert find_cycle(module_imports(write_package(tmp_path, files))) == cycle


def test_imports_for_annotations_only_are_not_a_cycle(tmp_path):
    package = write_package(tmp_path, {
        "__init__": "", "a": "from .b import f\n",
        "b": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A\n"})
    assert find_cycle(module_imports(package)) is None
