"""What the compiled twins ask of the source (trackage/twins.py), checked on every module a
build compiles, so that a change never makes the build fail (every module would then run as
source) or a twin fail where its source runs:

- no zero-argument ``super()`` inside a comprehension, a lambda or a nested function of a
  method (Cython's code finds no class cell there: it compiles, then fails when run);
- no ``del`` of a name a nested function reads (Cython refuses to compile it);
- no shift by (or of) a ``len()``: Cython takes ``len()`` as a C integer and shifts it in C,
  where ``1 << len(x)`` wraps past 63 bits (the router's bit masks did, until they bound the
  length to a local first: a local is a Python int, so the shift is Python's).
"""

from __future__ import annotations

import ast

from trackage import twins

_NESTED = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda, ast.FunctionDef,
           ast.AsyncFunctionDef)


def _super_outside_method_body(tree: ast.AST) -> list[int]:
    found: list[int] = []

    def visit(node: ast.AST, in_method: bool, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, False, False)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and isinstance(node, ast.ClassDef):
                visit(child, True, False)
            elif isinstance(child, _NESTED):
                visit(child, in_method, nested or in_method)
            else:
                if (isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id == "super"
                        and not child.args and nested):
                    found.append(child.lineno)
                visit(child, in_method, nested)

    visit(tree, False, False)
    return found


def _loads_in_nested(fn: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(fn):
        if node is not fn and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            names |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return names


def _del_of_closed_over(tree: ast.AST) -> list[int]:
    found: list[int] = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        read = _loads_in_nested(fn)
        for node in ast.walk(fn):
            if isinstance(node, ast.Delete):
                found += [node.lineno for t in node.targets if isinstance(t, ast.Name) and t.id in read]
    return found


def _shift_of_len(tree: ast.AST) -> list[int]:
    def is_len(n: ast.AST) -> bool:
        return isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len"
    return [n.lineno for n in ast.walk(tree) if isinstance(n, ast.BinOp)
            and isinstance(n.op, (ast.LShift, ast.RShift)) and (is_len(n.left) or is_len(n.right))]


def test_compiled_modules_keep_what_cython_needs() -> None:
    problems: list[str] = []
    for module in twins.candidates():
        path = twins.source_of(module)
        tree = ast.parse(path.read_text(), str(path))
        problems += [f"{path}:{n}: super() without arguments outside a method's own body"
                     for n in _super_outside_method_body(tree)]
        problems += [f"{path}:{n}: del of a name a nested function reads" for n in _del_of_closed_over(tree)]
        problems += [f"{path}:{n}: a shift by a len() (done in C: wraps)" for n in _shift_of_len(tree)]
    assert not problems, "\n".join(problems)


def test_the_rules_find_what_they_name() -> None:
    bad = ast.parse(
        "class A(B):\n"
        "    def f(self):\n"
        "        return [x for x in super().f()]\n"
        "    def g(self):\n"
        "        return super().g()\n"
        "def h():\n"
        "    def inner():\n"
        "        return step()\n"
        "    step = inner\n"
        "    del step\n"
        "bits = {n: 1 << len(seen) for n in names}\n")
    assert _super_outside_method_body(bad) == [3]
    assert _del_of_closed_over(bad) == [10]
    assert _shift_of_len(bad) == [11]
