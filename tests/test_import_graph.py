"""The import graph of the product (``cards``, ``harness``, ``invariants``, ``reference_engine``):
no cycle, the allowed directions between rooms, ``harness.protocol`` a leaf, one exception base.

Every ``import`` and ``from ... import`` anywhere in a module counts (inside functions and under
``if TYPE_CHECKING`` too); ``from package import x`` is an import of the package's
``__init__`` and, when ``x`` is a submodule, of that submodule (issue 24, item 1). The rooms of
``harness/`` are its subpackages; each one's docstring says what it may import, and
:data:`ALLOWED` below is that table.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("cards", "harness", "invariants", "reference_engine")

#: Modules that belong to a room without living in its folder (their paths are public).
MEMBERS = {
    "harness.serve": "harness.connection", "harness.adapters": "harness.connection",
    "harness.rules": "harness.generation",
    "harness.pytest_plugin": "harness.interfaces", "harness.__main__": "harness.interfaces",
}

_BASE = {"harness", "harness.protocol", "harness.decisions"}  # the package, the protocol, the decisions table
#: Room -> the rooms it may import (its own modules aside). Lowest first.
ALLOWED: dict[str, set[str]] = {
    "harness.protocol": set(),
    "cards": {"harness.protocol"},
    "harness.decisions": {"harness.protocol"},
    "harness": {"harness.protocol", "harness.decisions"},
    "harness.wire": {"cards", *_BASE},
    "reference_engine": {"cards", *_BASE},
    "invariants": {"cards", "harness.wire", *_BASE},
    "harness.reporting": {"cards", "invariants", "harness.wire", *_BASE},
    "harness.connection": {"cards", "invariants", "reference_engine", "harness.wire", "harness.reporting", *_BASE},
    "harness.generation": {"cards", "invariants", "harness.wire", "harness.reporting", *_BASE},
    "harness.running": {"cards", "invariants", "reference_engine", "harness.wire", "harness.reporting",
                        "harness.connection", "harness.generation", *_BASE},
    "harness.interfaces": {"cards", "invariants", "reference_engine", "harness.wire", "harness.reporting",
                           "harness.connection", "harness.generation", "harness.running", *_BASE},
    "harness.errors": {"cards", "invariants", "reference_engine", "harness.wire", "harness.reporting",
                       "harness.connection", "harness.generation", "harness.running", "harness.interfaces", *_BASE},
}

def modules(root: Path = ROOT) -> dict[str, Path]:
    """Dotted name -> file, for every module of the four packages."""
    out = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root).with_suffix("")
            out[".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)] = path
    return out


def imported(name: str, path: Path) -> set[str]:
    """Every module name an import of ``path`` (the module ``name``) may refer to."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package
                for _ in range(node.level - 1):
                    up = up.rpartition(".")[0]
                base = f"{up}.{node.module}" if node.module else up
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the modules of the four packages it imports (itself left out)."""
    files = modules(root)
    return {name: {m for m in imported(name, path) if m in files and m != name} for name, path in files.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with a cycle (Tarjan), each as one cycle through its
    modules in import order, sorted; [] when the graph has none."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components = []

    def strong(v: str) -> None:  # iterative, so a long chain doesn't hit the recursion limit
        work = [(v, iter(sorted(graph.get(v, ()))))]
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        while work:
            node, edges = work[-1]
            for w in edges:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.add(w)
                        if w == node:
                            break
                    if len(component) > 1:
                        components.append(component)

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return sorted((_one_cycle(graph, c) for c in components), key=lambda c: c[0])


def _one_cycle(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A cycle through the smallest module of ``component``, back to it: [a, b, ..., a]."""
    start = min(component)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for w in sorted(graph[node] & component):
                if w == start:
                    return paths[node] + [start]
                if w not in paths:
                    paths[w] = paths[node] + [w]
                    following.append(w)
        frontier = following
    raise AssertionError("a strongly connected component without a cycle")  # pragma: no cover


def room(module: str) -> str:
    """The room of a module: a harness subpackage (or what :data:`MEMBERS` assigns), the
    package otherwise."""
    for member, its_room in MEMBERS.items():
        if module == member or module.startswith(member + "."):
            return its_room
    parts = module.split(".")
    if parts[0] == "harness" and len(parts) > 1:
        return ".".join(parts[:2])
    return parts[0]


# ---------------------------------------------------------------- the cycle finder itself
def test_the_cycle_finder_finds_a_cycle_and_only_cycles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"a", "d"}}
    assert cycles(graph) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set(), "d": {"a", "c"}}) == []
    two = cycles({"a": {"b"}, "b": {"a"}, "x": {"y"}, "y": {"z"}, "z": {"x"}})
    assert two == [["a", "b", "a"], ["x", "y", "z", "x"]]


def test_from_package_import_x_counts_the_package_and_the_submodule(tmp_path):
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "__init__.py").write_text("from . import b\n")
    (tmp_path / "cards" / "b.py").write_text("def f():\n    from cards import c\n")
    (tmp_path / "cards" / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import cards.b\n")
    graph = import_graph(tmp_path)
    assert graph == {"cards": {"cards.b"}, "cards.b": {"cards", "cards.c"}, "cards.c": {"cards.b"}}
    assert cycles(graph) == [["cards", "cards.b", "cards"]]  # one component: cards, cards.b, cards.c


# ---------------------------------------------------------------- the product
def test_no_import_cycle():
    graph = import_graph()
    assert "harness.running.execution" in graph and "reference_engine.game" in graph
    found = cycles(graph)
    assert not found, "import cycle: " + "; ".join(" -> ".join(c) for c in found)


def test_rooms_import_only_in_the_allowed_directions():
    graph = import_graph()
    wrong = sorted(f"{m} ({room(m)}) imports {n} ({room(n)})" for m, edges in graph.items() for n in edges
                   if room(n) != room(m) and room(n) not in ALLOWED[room(m)])
    assert not wrong, "\n".join(wrong)
    assert {room(m) for m in graph} == set(ALLOWED)


def test_every_room_of_the_harness_says_what_it_may_import():
    for folder in sorted(p for p in (ROOT / "harness").iterdir() if (p / "__init__.py").is_file()):
        name = f"harness.{folder.name}"
        if name in MEMBERS:
            continue
        doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))) or ""
        assert "May import:" in doc, name
        for other in ALLOWED[name] - {"harness"}:
            assert f"``{other}``" in doc, f"{name}'s docstring doesn't name {other}, which it may import"


def test_the_protocol_imports_nothing_of_the_project():
    path = ROOT / "harness" / "protocol.py"
    names = imported("harness.protocol", path)
    assert not {n for n in names if n.split(".")[0] in PACKAGES}


#: Run in a child process: importing every module here would add their constants to the pool
#: Hypothesis draws from in this process (the suite's seed-pinned tests that run after it).
_EXCEPTIONS = r"""
import importlib, inspect, json, pkgutil
from harness import errors
from harness.protocol import RulesfuzzError
modules = []
for package in ("cards", "harness", "invariants", "reference_engine"):
    root = importlib.import_module(package)
    modules.append(root)
    modules += [importlib.import_module(i.name) for i in pkgutil.walk_packages(root.__path__, package + ".")
                if not i.name.endswith("__main__")]
classes = {c for m in modules for c in vars(m).values()
           if inspect.isclass(c) and issubclass(c, BaseException) and c.__module__ == m.__name__}
name = lambda c: f"{c.__module__}.{c.__qualname__}"
print(json.dumps({
    "signals": sorted(name(c) for c in classes if not issubclass(c, Exception)),
    "not_ours": sorted(name(c) for c in classes if issubclass(c, Exception) and not issubclass(c, RulesfuzzError)),
    "public": sorted(name(c) for c in classes if issubclass(c, Exception) and not c.__name__.startswith("_")),
    "exported": sorted(name(getattr(errors, n)) for n in errors.__all__),
    "all": len(classes),
}))
"""


def test_every_exception_of_the_product_is_a_rulesfuzz_error():
    done = subprocess.run([sys.executable, "-c", _EXCEPTIONS], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["signals"] == ["harness.running.execution._CutShort", "harness.running.interrupts.BudgetExhausted"]
    assert found["not_ours"] == []
    assert found["public"] == found["exported"], "harness.errors re-exports every public exception class"
    assert len(found["public"]) == 40
