"""The package's imports point one way: no import circle anywhere in ``workbench/``.

Every import statement counts, those inside functions included (a deferred import that reaches
up is still a dependency that points up), and so does the package ``__init__`` that Python runs
before a submodule it has not imported yet.  Imports under ``if TYPE_CHECKING:`` do not run and
do not count.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "workbench"


def _modules(root: Path = PACKAGE) -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _is_package(name: str, modules: dict[str, Path]) -> bool:
    return modules[name].name == "__init__.py"


def _resolve(importer: str, node: ast.ImportFrom, modules: dict[str, Path]) -> str:
    if node.level == 0:
        return node.module or ""
    base = importer.split(".")
    if not _is_package(importer, modules):
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _type_checking_lines(tree: ast.AST) -> set[int]:
    """Line numbers of the statements under ``if TYPE_CHECKING:``."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for inner in node.body:
                for sub in ast.walk(inner):
                    if hasattr(sub, "lineno"):
                        skip.add(sub.lineno)
    return skip


def _targets(importer: str, tree: ast.AST, modules: dict[str, Path]) -> set[str]:
    """The package's modules ``importer`` imports, directly or through the package
    ``__init__`` files Python runs on the way."""
    skip = _type_checking_lines(tree)
    direct = set()
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.Import):
            direct.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(importer, node, modules)
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                direct.add(sub if sub in modules else source)
    out = set()
    for name in direct:
        if not (name == "workbench" or name.startswith("workbench.")):
            continue
        parts = name.split(".")
        for i in range(1, len(parts) + 1):  # the packages on the way run their __init__ first
            step = ".".join(parts[:i])
            inside = importer == step or importer.startswith(step + ".")
            if step in modules and step != importer and not (inside and i < len(parts)):
                out.add(step)
    return out


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    modules = _modules(root)
    return {
        name: _targets(name, ast.parse(path.read_text()), modules) for name, path in modules.items()
    }


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), and modules that
    import themselves."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
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
            if len(comp) > 1 or v in graph.get(v, ()):
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle_in_the_package():
    found = circles(import_graph())
    assert not found, "import circles (deferred imports counted):\n" + "\n".join(
        " <-> ".join(c) for c in found
    )


def test_the_check_finds_a_deferred_circle(tmp_path):
    """The check itself: a circle closed by an import inside a function is found, a
    TYPE_CHECKING import is not counted, and a submodule importing its own package is not a
    circle."""
    pkg = tmp_path / "workbench"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from .low import x\n")
    (pkg / "sub" / "low.py").write_text("from .. import high\nx = 1\n")  # up, at import
    (pkg / "high.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from . import other\n"
        "def f():\n    from .sub import low\n    return low\n"
    )
    (pkg / "other.py").write_text("from . import high\n")
    found = circles(import_graph(pkg))
    assert found == [["workbench.high", "workbench.sub", "workbench.sub.low"]]
    (pkg / "high.py").write_text("def f():\n    return 1\n")
    assert circles(import_graph(pkg)) == []
