"""Layering rules of DESIGN.md: app/ never imports Qt, ui/ never talks HTTP."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
QT_MODULES = {"PySide6", "PyQt5", "PyQt6", "PySide2", "qasync", "shiboken6"}
HTTP_MODULES = {"httpx", "httpcore", "requests", "urllib3", "aiohttp", "http.client"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def offenders(package: str, forbidden: set[str]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        bad = {
            name
            for name in imported_modules(path)
            if name in forbidden or name.split(".")[0] in forbidden
        }
        if bad:
            found[str(path.relative_to(ROOT))] = bad
    return found


def test_app_never_imports_qt() -> None:
    assert offenders("app", QT_MODULES) == {}


def test_ui_never_talks_http() -> None:
    assert offenders("ui", HTTP_MODULES) == {}


def test_the_checker_sees_a_qt_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from PySide6.QtCore import QObject\nimport httpx\n")
    assert imported_modules(sample) >= {"PySide6.QtCore", "httpx"}


@pytest.mark.parametrize("package", ["app"])
def test_importing_every_app_module_loads_no_qt(package: str) -> None:
    modules = [
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for path in sorted((ROOT / package).rglob("*.py"))
        if path.name != "__main__.py"
    ]
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(QT_MODULES)!r}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
