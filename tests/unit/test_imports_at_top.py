"""Every module says what it depends on at its top: no import of a Wander module inside a
function, outside the CLI (whose commands load their modules when run, so that `wander
--help` stays quick). A heavy third-party library (torch, umap-learn, numba, a provider SDK)
is imported where it is first used, inside the Wander module that needs it."""

from __future__ import annotations

import ast
from pathlib import Path

import wander

WANDER = Path(wander.__file__).resolve().parent
LAZY_ALLOWED = WANDER / "faces" / "cli"
# The CA kernel's fused CPU passes are numba code compiled when their module is imported, and
# numba is optional there: the kernel loads them on first use and falls back to NumPy.
EXCEPTIONS = {("adapters/ca/kernel/fused.py", "wander.adapters.ca.numba_passes")}


def _module_of(node: ast.Import | ast.ImportFrom, package: str) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level == 0:
        return [node.module or ""]
    base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
    if node.module:
        return [f"{base}.{node.module}"]
    return [f"{base}.{a.name}" for a in node.names]


def function_level_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import of a wander module inside a function of PATH."""
    rel = path.relative_to(WANDER.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    package = ".".join(parts if rel.name == "__init__" else parts[:-1])
    out = []
    for fn in ast.walk(ast.parse(path.read_text())):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(fn):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    out += [
                        (node.lineno, m) for m in _module_of(node, package) if m == "wander" or m.startswith("wander.")
                    ]
    return sorted(set(out))


def test_no_wander_module_is_imported_inside_a_function_outside_the_cli():
    found = {
        str(p.relative_to(WANDER)): [f"{line}: {m}" for line, m in hits]
        for p in sorted(WANDER.rglob("*.py"))
        if not p.is_relative_to(LAZY_ALLOWED)
        if (
            hits := [
                (line, m) for line, m in function_level_imports(p) if (str(p.relative_to(WANDER)), m) not in EXCEPTIONS
            ]
        )
    }
    assert found == {}, f"import these at the top of the module: {found}"


def test_the_check_finds_relative_and_absolute_imports():
    kernel = function_level_imports(WANDER / "adapters" / "ca" / "kernel" / "fused.py")
    assert "wander.adapters.ca.numba_passes" in {m for _, m in kernel}  # `from .. import numba_passes`
    cli = function_level_imports(WANDER / "faces" / "cli" / "archive.py")  # the CLI loads its modules lazily
    assert any(m.startswith("wander.bootstrap.") for _, m in cli)
