"""The calendar's helpers take the narrow things they need, never the page (issue 18 §4): no
module of `ui/calendar` but the page imports `ui.calendar.page` (not even for type checking)
or names `CalendarPage`; and the keys are written once, in the ActionSpecs
(`ui/calendar/commands.py`): no other module holds a key literal or binds a shortcut."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from PySide6.QtGui import QKeySequence

from app.posts.lifecycle import PostAction
from tests.ui.calendar.conftest import PageFactory

CALENDAR = Path(__file__).resolve().parents[3] / "ui" / "calendar"
PAGE_FILES = {"page.py", "__init__.py"}
HELPERS = sorted(p for p in CALENDAR.glob("*.py") if p.name not in PAGE_FILES)
NARROWED = ("post_flows.py", "selection.py", "commands.py", "page_actions.py", "keyboard.py")

KEY_TEXT = re.compile(
    r"\b(?:Ctrl|Alt|Shift|Meta)\+(?!click\b)[A-Za-z0-9]+"  # "Ctrl+G", not "Ctrl+click"
    r"|\((?:Del|Delete|Esc|Escape|Return|Enter|PgUp|PgDown|[A-Z])(?:[,;][^)]*)?\)"  # "(T)"
)
BINDING_CALLS = {"QKeySequence", "QShortcut", "setShortcut", "setShortcuts"}


def imported_modules(tree: ast.AST) -> set[str]:
    """Every module an `import` names, anywhere (module level, functions, TYPE_CHECKING)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def docstrings(tree: ast.AST) -> set[int]:
    """Strings standing as statements: docstrings of modules, classes, functions and
    attributes (prose about keys, never a binding)."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def test_the_narrowed_helpers_are_there() -> None:
    names = {path.name for path in HELPERS}
    assert set(NARROWED) <= names
    assert "page.py" not in names


@pytest.mark.parametrize("path", HELPERS, ids=lambda p: p.name)
def test_no_helper_imports_the_page(path: Path) -> None:
    tree = parsed(path)
    wrong = {
        name
        for name in imported_modules(tree)
        if name in ("ui.calendar.page", "ui.calendar.CalendarPage", "ui.calendar.page.CalendarPage")
    }
    assert not wrong, f"{path.name} imports {wrong}"
    named = [
        node.lineno
        for node in ast.walk(tree)
        if (isinstance(node, ast.Name) and node.id == "CalendarPage")
        or (isinstance(node, ast.Attribute) and node.attr == "CalendarPage")
        or (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and re.fullmatch(r"[\w.\[\] |]*CalendarPage[\w.\[\] |]*", node.value)
        )
    ]
    assert not named, f"{path.name} names CalendarPage at lines {named}"


@pytest.mark.parametrize("path", [p for p in HELPERS if p.name != "commands.py"], ids=str)
def test_keys_are_written_only_in_the_action_specs(path: Path) -> None:
    tree = parsed(path)
    skip = docstrings(tree)
    literals = [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and KEY_TEXT.search(node.value)
    ]
    assert not literals, f"{path.name}: key text outside ui/calendar/commands.py: {literals}"
    bindings = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id in BINDING_CALLS)
            or (isinstance(node.func, ast.Attribute) and node.func.attr in BINDING_CALLS)
        )
    ]
    assert not bindings, f"{path.name}: a key bound outside the ActionSpecs, lines {bindings}"


def test_the_pattern_finds_what_the_old_tooltips_held() -> None:
    for old in ("Previous period (Ctrl+Left, PgUp)", "Go to today (T)", "Delete (Del)"):
        assert KEY_TEXT.search(old), old
    for fine in ("Ctrl+click a chip", "Publish now…", "Scheduled (2)", "Move (a day)"):
        assert not KEY_TEXT.search(fine), fine


def test_tooltips_name_the_keys_the_specs_bind(make_page: PageFactory) -> None:
    page = make_page(show=False)
    keys = {spec.id.removeprefix("calendar."): spec.shortcut for spec in page.action_specs()}

    def shown(*ids: str) -> str:
        native = QKeySequence.SequenceFormat.NativeText
        return ", ".join(QKeySequence(keys[id_]).toString(native) for id_ in ids)

    actions = page.commands
    assert actions.previous.toolTip() == f"Previous period ({shown('previous', 'previous.page')})"
    assert actions.next.toolTip() == f"Next period ({shown('next', 'next.page')})"
    assert actions.today.toolTip() == f"Go to today ({shown('today')})"
    assert actions.month.toolTip() == f"Month view ({shown('view.month')})"
    assert actions.post[PostAction.DELETE].toolTip() == f"Delete ({shown('delete')})"
    assert page.toolbar.jump_edit.toolTip() == f"Jump to date ({shown('jump')})"
    bar = page.bulk_bar()
    assert bar.later.toolTip().endswith(f"({shown('move.day_later')})")
    assert bar.clear.toolTip().endswith(f"({shown('close_detail')})")


def calendar_imports(path: Path) -> set[str]:
    """The `ui/calendar` modules a module imports (anywhere in it)."""
    modules = {p.stem for p in CALENDAR.glob("*.py")}
    found: set[str] = set()
    for name in imported_modules(parsed(path)):
        parts = name.split(".")
        if parts[:2] == ["ui", "calendar"] and len(parts) > 2 and parts[2] in modules:
            found.add(parts[2])
    return found - {path.stem, "__init__"}


def test_the_calendar_modules_import_one_another_without_a_circle() -> None:
    graph = {path.stem: calendar_imports(path) for path in CALENDAR.glob("*.py")}
    graph.pop("__init__")
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            raise AssertionError("import circle: " + " → ".join([*path, module]))
        if module in done:
            return
        for imported in sorted(graph.get(module, ())):
            visit(imported, [*path, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
