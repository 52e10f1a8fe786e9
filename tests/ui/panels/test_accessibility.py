"""Issue 16 §5 for the workspace pages: what assistive technology gets from Labels, Signatures,
Accounts, Repurposes and Webhooks against the demo (the QAccessible walk of
tests/ui/a11y_walk.py, the interfaces Qt's AT-SPI bridge serves): every control named, and
the list and table items carry words (a colour swatch alone is read as nothing)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QApplication, QWidget

from app.sandbox.harness import SandboxServer
from tests.ui.a11y_walk import named_controls, unnamed_controls, walk
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.panels.conftest import MakeSession
from ui.panels.accounts import AccountsPanel
from ui.panels.base import PanelPage
from ui.panels.labels import LabelsPage
from ui.panels.repurposes import RepurposesPage
from ui.panels.signatures import SignaturesPage
from ui.panels.webhooks import WebhooksPage


def _labels_ready(page: PanelPage) -> bool:
    assert isinstance(page, LabelsPage)
    if page.list.count() and not page.list.selectedItems():
        page.list.setCurrentRow(0)
    return bool(page.list.selectedItems())


def _signatures_ready(page: PanelPage) -> bool:
    assert isinstance(page, SignaturesPage)
    if page.list.count() and not page.list.selectedItems():
        page.list.setCurrentRow(0)
    return bool(page.list.selectedItems())


def _accounts_ready(page: PanelPage) -> bool:
    assert isinstance(page, AccountsPanel)
    if page.model.rowCount() and page.selected() is None:
        page.table.selectRow(0)
    return page.selected() is not None


def _repurposes_ready(page: PanelPage) -> bool:
    assert isinstance(page, RepurposesPage)
    return page.model.rowCount() > 0


def _webhooks_ready(page: PanelPage) -> bool:
    assert isinstance(page, WebhooksPage)
    if not page.model.rowCount():
        return False
    if not page.table.selectionModel().selectedRows():
        page.table.selectRow(0)
        return False
    if page.logs.model.rowCount() and page.logs.selected_log() is None:
        page.logs.select_row(0)
    return page.logs.selected_log() is not None


PAGES: dict[str, tuple[type[PanelPage], Callable[[PanelPage], bool]]] = {
    "labels": (LabelsPage, _labels_ready),
    "signatures": (SignaturesPage, _signatures_ready),
    "accounts": (AccountsPanel, _accounts_ready),
    "repurposes": (RepurposesPage, _repurposes_ready),
    "webhooks": (WebhooksPage, _webhooks_ready),
}


def _open(
    name: str, runner: LoopRunner, demo_sandbox: SandboxServer, make_session: MakeSession
) -> PanelPage:
    kind, ready = PAGES[name]
    page = kind()
    page.resize(1280, 820)
    page.show()
    page.set_session(make_session(demo_sandbox.base_url, demo_sandbox.keys.admin))

    async def loaded() -> None:
        await until(lambda: ready(page), what=f"{name} shows the demo, one item selected")

    runner.run(loaded())
    return page


@pytest.mark.parametrize("name", list(PAGES))
def test_every_control_of_the_page_is_named(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    make_session: MakeSession,
    name: str,
) -> None:
    page = _open(name, runner, demo_sandbox, make_session)
    assert len(named_controls(page)) >= 3  # the walk reaches the page's controls
    assert unnamed_controls(page) == []


def test_the_walk_catches_an_unnamed_control(
    qapp: QApplication, runner: LoopRunner, demo_sandbox: SandboxServer, make_session: MakeSession
) -> None:
    page = _open("labels", runner, demo_sandbox, make_session)
    assert isinstance(page, LabelsPage)
    page.list.setAccessibleName("")
    page.list.setObjectName("bareList")
    assert [u.object_name for u in unnamed_controls(page)] == ["bareList"]


def _item_names(view: QWidget) -> list[str]:
    """What AT reads for each item (cell) of a list or table: the item interfaces' names."""
    names = []
    for interface in walk(view):
        if interface.object() is view or interface.role() not in (
            QAccessible.Role.ListItem,
            QAccessible.Role.Cell,
        ):
            continue
        names.append(interface.text(QAccessible.Text.Name))
    return names


def test_label_items_say_their_colour(
    qapp: QApplication, runner: LoopRunner, demo_sandbox: SandboxServer, make_session: MakeSession
) -> None:
    page = _open("labels", runner, demo_sandbox, make_session)
    assert isinstance(page, LabelsPage)
    names = _item_names(page.list)
    assert len(names) == page.list.count() > 0
    for label, name in zip(page.labels, names, strict=True):
        assert label.shown_name in name
        assert f"colour {label.color}" in name  # the swatch, in words
    first = page.list.item(0)
    assert first.data(Qt.ItemDataRole.AccessibleTextRole) == names[0]


def test_table_cells_carry_words(
    qapp: QApplication, runner: LoopRunner, demo_sandbox: SandboxServer, make_session: MakeSession
) -> None:
    page = _open("webhooks", runner, demo_sandbox, make_session)
    assert isinstance(page, WebhooksPage)
    cells = _item_names(page.table)
    assert cells
    assert cells[0] in {"Enabled", "Paused", "Disabled"}  # the badge, in words
    log_cells = _item_names(page.logs.table)
    assert log_cells
    assert all(cell.strip() for cell in log_cells[:4])


def test_the_painted_delivery_chart_says_its_summary(
    qapp: QApplication, runner: LoopRunner, demo_sandbox: SandboxServer, make_session: MakeSession
) -> None:
    page = _open("webhooks", runner, demo_sandbox, make_session)
    assert isinstance(page, WebhooksPage)

    async def charted() -> None:
        await until(lambda: page.chart.timeline is not None, what="the timeline")

    runner.run(charted())
    interface = QAccessible.queryAccessibleInterface(page.chart)
    assert interface is not None
    assert interface.text(QAccessible.Text.Name) == "Deliveries of the last 7 days"
    description = interface.text(QAccessible.Text.Description)
    assert description.startswith("Last 7 days: ")
    assert "delivered" in description
