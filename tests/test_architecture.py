"""The house: packages by layer, no import cycles, no private name imported across
modules, no module over 600 lines, and the import-linter contract enforced and able to fail."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIB = ROOT / "analysis"
PACKAGES = ("game", "solver", "players", "selfplay", "review", "store", "cli")
MAX_LINES = 600


def _modules() -> dict[str, Path]:
    out = {}
    for p in sorted(LIB.rglob("*.py")):
        rel = p.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


def _is_package(name: str, mods: dict[str, Path]) -> bool:
    return mods[name].name == "__init__.py"


def _imports(name: str, path: Path, mods: dict[str, Path]) -> list[tuple[str, list[str]]]:
    """(imported module, names taken from it) for every import in ``path``, lazy ones included."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    pkg = name if _is_package(name, mods) else name.rpartition(".")[0]
    out: list[tuple[str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((a.name, []) for a in node.names if a.name.startswith("analysis"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("analysis"):
                continue
            plain = []
            for a in node.names:
                sub = f"{target}.{a.name}"
                if sub in mods:  # `from pkg import module`
                    out.append((sub, []))
                else:
                    plain.append(a.name)
            if plain:
                out.append((target, plain))
    return out


def _graph() -> tuple[dict[str, set[str]], list[str]]:
    mods = _modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    private = []
    for name, path in mods.items():
        for target, names in _imports(name, path, mods):
            if target not in mods:
                continue  # the compiled kernel
            if target != name:
                graph[name].add(target)
            private += [f"{name} imports {target}.{n}" for n in names if n.startswith("_") and target != name]
    return graph, private


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10_000)
    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_the_library_is_in_packages_by_layer() -> None:
    for pkg in PACKAGES:
        init = LIB / pkg / "__init__.py"
        assert init.is_file(), f"analysis/{pkg}/ is not a package"
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc, f"analysis/{pkg}/__init__.py has no docstring naming what it holds"
    flat = [p.name for p in LIB.glob("*.py") if p.name != "__init__.py"]
    assert flat == [], f"modules left at the top of analysis/: {flat}"


def test_no_import_cycles_between_modules() -> None:
    graph, _ = _graph()
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]


def test_no_private_name_is_imported_from_another_module() -> None:
    _, private = _graph()
    assert private == []


def test_no_attribute_access_to_another_modules_private_names() -> None:
    bad = []
    for p in LIB.rglob("*.py"):
        tree = ast.parse(p.read_text(encoding="utf-8"))
        aliases = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(("analysis", "")) and node.level >= 0:
                aliases.update(a.asname or a.name for a in node.names)
            elif isinstance(node, ast.Import):
                aliases.update(a.asname or a.name for a in node.names if a.name.startswith("analysis"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                    and node.attr.startswith("_") and not node.attr.startswith("__")):
                bad.append(f"{p.relative_to(ROOT)}:{node.lineno} {node.value.id}.{node.attr}")
    assert bad == []


def test_no_module_over_600_lines() -> None:
    long = {str(p.relative_to(ROOT)): n for p in LIB.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def _lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent / "lint-imports"
    if not exe.exists():
        pytest.fail("lint-imports is not installed: pip install -e '.[test]'")
    env = {"PYTHONPATH": str(cwd), "PATH": "/usr/bin:/bin"}
    return subprocess.run([str(exe), "--no-cache"], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def test_the_layer_contract_holds() -> None:
    r = _lint_imports(ROOT)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "broken" in r.stdout and "0 broken" in r.stdout


def test_a_higher_layer_imported_from_the_game_breaks_the_contract(tmp_path: Path) -> None:
    """The contract can fail: a copy of the tree where the game imports the store."""
    for d in ("analysis", "dashboard"):
        shutil.copytree(ROOT / d, tmp_path / d, ignore=shutil.ignore_patterns("*.so", "__pycache__", "*.c"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "analysis" / "game" / "leak.py").write_text("from analysis.store import connect  # noqa\n")
    r = _lint_imports(tmp_path)
    assert r.returncode != 0
    assert "analysis.game.leak -> analysis.store" in r.stdout
