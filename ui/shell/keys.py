"""The key table, generated from the action registry's specs (the README's "Keyboard" table).

`python -m ui.shell.keys` prints it as Markdown; a test checks that the documented table is this.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QWidget

from ui.action_spec import ActionSpec
from ui.shell.page_contract import as_page

WINDOW = "window"


def page_specs(page: QWidget) -> list[ActionSpec]:
    """What a page offers (`NotAPage` for a widget that is no page)."""
    return as_page(page).action_specs()


def key_text(shortcut: str) -> str:
    return QKeySequence(shortcut).toString(QKeySequence.SequenceFormat.PortableText)


def key_rows(specs: Iterable[ActionSpec]) -> list[tuple[str, str, str]]:
    rows: list[tuple[str, str, str]] = []
    for spec in specs:
        if not spec.shortcut:
            continue
        where = "anywhere" if spec.scope == WINDOW else f"{spec.scope.capitalize()} page"
        does = spec.text.rstrip("…")
        keys = key_text(spec.shortcut)
        # A twin binding (PgUp beside Ctrl+Left) joins the row of the same command.
        for index, (other_keys, other_does, other_where) in enumerate(rows):
            if other_does == does and other_where == where:
                rows[index] = (f"{other_keys}, {keys}", other_does, other_where)
                break
        else:
            rows.append((keys, does, where))
    return rows


def markdown_table(specs: Iterable[ActionSpec]) -> str:
    lines = ["| Keys | Does | Where |", "|---|---|---|"]
    lines += [f"| {keys} | {does} | {where} |" for keys, does, where in key_rows(specs)]
    return "\n".join(lines) + "\n"


class _Inert:
    """Stands in for the shell's commands when only their descriptions are wanted."""

    def __getattr__(self, name: str) -> object:
        return lambda *args: None


def app_specs() -> list[ActionSpec]:
    """Every spec of the app as the running window registers them (every page's included)."""
    from PySide6.QtWidgets import QApplication

    from ui.calendar import CalendarPage, InMemoryCalendarSource
    from ui.composer.page import ComposerPage
    from ui.panels.accounts import AccountsPanel
    from ui.panels.labels import LabelsPage
    from ui.panels.repurposes import RepurposesPage
    from ui.panels.signatures import SignaturesPage
    from ui.panels.webhooks import WebhooksPage
    from ui.shell.commands import shell_specs

    _app = QApplication.instance() or QApplication([])
    specs = shell_specs(_Inert())  # type: ignore[arg-type]
    pages: list[QWidget] = [
        CalendarPage(InMemoryCalendarSource([])),
        ComposerPage(),
        LabelsPage(),
        SignaturesPage(),
        AccountsPanel(),
        WebhooksPage(),
        RepurposesPage(),
    ]
    try:
        for page in pages:
            specs += page_specs(page)
        return specs
    finally:
        for page in pages:
            page.deleteLater()


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.stdout.write(markdown_table(app_specs()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
