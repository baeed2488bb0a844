"""Size limits of the product's code (issue 24 item 2), so later changes keep them.

Over every module of ``cards``, ``harness``, ``invariants`` and ``reference_engine``:

* no block radon's cyclomatic complexity ranks worse than C (``radon cc -s -n D <pkg>`` prints
  nothing): functions, methods and classes, as radon's API (:func:`radon.complexity.cc_visit`)
  and its command line see them, and nested functions (radon scores each on its own; its
  command line shows them only with ``--show-closures``);
* no function over :data:`MAX_FUNCTION_LINES` lines, nested functions and methods included, from
  its ``def`` line to its last line (decorators excluded: ``end_lineno - lineno + 1`` of the ast);
* no module over :data:`MAX_MODULE_LINES` lines.

Each failure names the module, the line, the block and its score or length. The checks
themselves are tested on synthetic sources, so a check that can't fail is caught.
"""

from __future__ import annotations

import ast
from pathlib import Path

from radon.complexity import cc_rank, cc_visit

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("cards", "harness", "invariants", "reference_engine")
#: Radon's ranks A (1-5) to C (11-20) are allowed; D (21-30), E (31-40) and F (41+) are not.
ALLOWED_RANKS = frozenset("ABC")
MAX_FUNCTION_LINES = 80
MAX_MODULE_LINES = 600


def modules(root: Path = ROOT) -> list[Path]:
    """Every Python module of the four packages, sorted."""
    return sorted(p for package in PACKAGES for p in (root / package).rglob("*.py"))


def _blocks(blocks, outer: str = ""):
    """``(name, block)`` of radon's blocks and, recursively, of the functions nested in them
    (radon scores a nested function on its own, as a closure of its outer one)."""
    for block in blocks:
        name = f"{outer}{block.fullname}"
        yield name, block
        yield from _blocks(getattr(block, "closures", ()), f"{name}.")


def complexity_problems(source: str, where: str) -> list[str]:
    """A line per block of ``source`` (module ``where``) ranked worse than C by radon: functions,
    classes, methods (what ``radon cc`` prints) and nested functions."""
    out = []
    for name, block in _blocks(cc_visit(source)):
        rank = cc_rank(block.complexity)
        if rank not in ALLOWED_RANKS:
            out.append(f"{where}:{block.lineno} {name}: radon {rank} ({block.complexity}), worse than C")
    return out


def length_problems(source: str, where: str) -> list[str]:
    """A line per function of ``source`` (nested ones and methods included) over
    :data:`MAX_FUNCTION_LINES` lines, decorators not counted."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                out.append(f"{where}:{node.lineno} {node.name}: {length} lines, over {MAX_FUNCTION_LINES}")
    return out


def module_problem(source: str, where: str) -> list[str]:
    """``[line]`` when module ``where`` is over :data:`MAX_MODULE_LINES` lines, else ``[]``."""
    lines = len(source.splitlines())
    return [f"{where}: {lines} lines, over {MAX_MODULE_LINES}"] if lines > MAX_MODULE_LINES else []


def _all(check) -> list[str]:
    return [problem for path in modules() for problem in check(path.read_text("utf-8"), str(path.relative_to(ROOT)))]


def test_every_package_has_modules():
    found = {path.relative_to(ROOT).parts[0] for path in modules()}
    assert found == set(PACKAGES)


def test_no_function_worse_than_radon_c():
    problems = _all(complexity_problems)
    assert not problems, "\n".join(problems)


def test_no_function_over_80_lines():
    problems = _all(length_problems)
    assert not problems, "\n".join(problems)


def test_no_module_over_600_lines():
    problems = _all(module_problem)
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------------- the checks, on synthetic sources
def _branches(name: str, n: int, indent: str = "") -> str:
    """A function of cyclomatic complexity ``n + 1`` (``n`` ifs), ``n * 2 + 2`` lines long."""
    body = "".join(f"{indent}    if x == {i}:\n{indent}        return {i}\n" for i in range(n))
    return f"{indent}def {name}(x):\n{body}{indent}    return -1\n"


def _long(name: str, lines: int, indent: str = "") -> str:
    """A function of complexity 1 exactly ``lines`` lines long."""
    return f"{indent}def {name}():\n" + "".join(f"{indent}    x{i} = {i}\n" for i in range(lines - 1))


def test_complexity_check_names_functions_and_methods_worse_than_c():
    source = _branches("fine", 19) + _branches("too_complex", 20) + "class K:\n" + _branches("method", 25, "    ")
    problems = complexity_problems(source, "m.py")
    assert problems == ["m.py:41 too_complex: radon D (21), worse than C",
                        "m.py:83 K: radon D (27), worse than C",  # a class: 1 + its methods' mean
                        "m.py:84 K.method: radon D (26), worse than C"]


def test_complexity_check_names_a_nested_function_worse_than_c():
    source = "def outer():\n" + _branches("fine", 19, "    ") + _branches("inner", 30, "    ") + "    return inner\n"
    assert complexity_problems(source, "m.py") == ["m.py:42 outer.inner: radon E (31), worse than C"]


def test_length_check_counts_nested_functions_and_not_decorators():
    decorated = "@staticmethod\n" * 5 + _long("decorated", MAX_FUNCTION_LINES)
    nested = "def outer():\n" + _long("inner", MAX_FUNCTION_LINES + 1, "    ") + "    return inner\n"
    source = _long("fine", MAX_FUNCTION_LINES) + decorated + _long("long", MAX_FUNCTION_LINES + 1) + nested
    problems = length_problems(source, "m.py")
    assert problems == ["m.py:166 long: 81 lines, over 80", "m.py:247 outer: 83 lines, over 80",
                        "m.py:248 inner: 81 lines, over 80"]


def test_module_check():
    assert module_problem("x = 1\n" * MAX_MODULE_LINES, "m.py") == []
    assert module_problem("x = 1\n" * (MAX_MODULE_LINES + 1), "m.py") == ["m.py: 601 lines, over 600"]
