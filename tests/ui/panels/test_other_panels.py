"""Labels, signatures, accounts and repurposes panels against the real sandbox."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.panels.conftest import MakeSession, Posted
from ui.panels.accounts import AccountsPanel
from ui.panels.labels import LabelsPage
from ui.panels.repurposes import RepurposesPage
from ui.panels.signatures import SignaturesPage

SHOTS = Path("/tmp/postdesk-panels")


def click(widget: object) -> None:
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton)  # type: ignore[call-overload]


def confirm(box: QMessageBox | None) -> None:
    assert box is not None
    assert box.isVisible()
    click(box.buttons()[0])


def shot(widget: object, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    widget.grab().save(str(SHOTS / f"{name}.png"))  # type: ignore[attr-defined]


def test_labels_create_validate_edit_delete(
    qapp: QApplication, runner: LoopRunner, sandbox: SandboxServer, make_session: MakeSession
) -> None:
    sandbox.store.create_label("Coffee", "#7C4A1E")
    page = LabelsPage()
    page.resize(700, 500)
    page.show()
    page.set_session(make_session(sandbox.base_url, sandbox.keys.admin))

    async def scenario() -> None:
        await until(lambda: page.list.count() == 1, what="labels listed")
        assert "Coffee" in page.list.item(0).text()
        click(page.new_button)
        form = page.form
        assert form is not None
        form.name_edit.setText("   ")
        form.colour_edit.setText("#12345")
        click(form.save_button)
        assert "Enter a name" in form.name_error.text()
        assert "#RRGGBB" in form.colour_error.text()
        form.name_edit.setText("x" * 256)
        click(form.save_button)
        assert "255" in form.name_error.text()
        form.name_edit.setText("  Events  ")
        click(form.pick_button)
        assert form.picker is not None
        form.picker.colorSelected.emit(QColor("#22aa44"))
        assert form.colour_edit.text() == "#22AA44"
        form.picker.reject()
        click(form.save_button)
        click(form.save_button)  # ignored while the first save runs
        await until(lambda: page.list.count() == 2, what="created")
        names = sorted(label["name"] for label in _labels(sandbox))
        assert names == ["Coffee", "Events"]
        shot(page, "labels")
        page.list.setCurrentRow(next(i for i in range(2) if "Events" in page.list.item(i).text()))
        click(page.edit_button)
        assert page.form is not None
        page.form.colour_edit.setText("#000000")
        click(page.form.save_button)
        await until(
            lambda: any("#000000" in page.list.item(i).text() for i in range(page.list.count())),
            what="edited label shown",
        )
        assert any(label["color"] == "#000000" for label in _labels(sandbox))
        page.list.setCurrentRow(0)
        # The list shows the edit before the save's write has ended (its gate frees the label
        # on the next turn of the loop); Delete is enabled only then.
        await until(page.delete_button.isEnabled, what="the edited label free for a delete")
        click(page.delete_button)
        confirm(page.question)
        await until(lambda: page.list.count() == 1, what="deleted")
        assert len(_labels(sandbox)) == 1

    runner.run(scenario())


def _labels(sandbox: SandboxServer) -> list[dict[str, str]]:
    with sandbox.store.tx() as db:
        rows = db.all(
            "SELECT name, color FROM labels WHERE workspace_id = ?", (sandbox.workspace_id,)
        )
        return [dict(row) for row in rows]


def test_signatures_page_through_create_edit_delete_preview(
    qapp: QApplication,
    runner: LoopRunner,
    sandbox: SandboxServer,
    make_session: MakeSession,
    posted: Posted,
) -> None:
    for i in range(30):
        sandbox.store.create_signature(f"Sig {i:02d}", f"— Team {i}")
    page = SignaturesPage()
    page.resize(700, 500)
    page.show()
    page.set_session(make_session(sandbox.base_url, sandbox.keys.admin))

    async def scenario() -> None:
        await until(lambda: page.list.count() == 25, what="first page")
        assert "Page 1 of 2" in page.page_label.text()
        click(page.next_button)
        await until(lambda: page.list.count() == 5, what="second page")
        click(page.prev_button)
        await until(lambda: page.list.count() == 25)
        page.list.setCurrentRow(0)
        assert page.preview.toPlainText().endswith(page.selected().content)  # type: ignore[union-attr]
        shot(page, "signatures")
        click(page.new_button)
        form = page.form
        assert form is not None
        click(form.save_button)
        assert "name" in form.name_error.text()
        form.name_edit.setText("Short")
        form.content_edit.setPlainText("Cheers,\nNorthwind")
        assert "Northwind" in form.preview.toPlainText()
        click(form.save_button)
        await until(lambda: page.list.count() == 25 and page.list.item(0).text() == "Short")
        page.list.setCurrentRow(0)
        click(page.delete_button)
        confirm(page.question)
        await until(lambda: page.list.item(0).text() != "Short", what="deleted")
        assert any("Signature deleted." in text for text in posted.texts())

    runner.run(scenario())


def test_accounts_toggle_and_skip_reasons(
    qapp: QApplication, runner: LoopRunner, demo_sandbox: SandboxServer, make_session: MakeSession
) -> None:
    page = AccountsPanel()
    page.resize(1000, 600)
    page.show()
    session = make_session(demo_sandbox.base_url, demo_sandbox.keys.admin)
    page.set_session(session)
    changed: list[bool] = []
    session.dataChanged.connect(lambda: changed.append(True))

    async def scenario() -> None:
        await until(lambda: page.model.rowCount() >= 14, what="accounts")
        reasons = [page.model.index(r, 5).data() for r in range(page.model.rowCount())]
        assert any("disconnected" in text for text in reasons)
        assert any("expired" in text for text in reasons)
        assert any("Turned off" in text for text in reasons)
        row = next(r for r in range(page.model.rowCount()) if not reasons[r])
        account = page.model.account_at(row)
        assert account is not None
        page.table.selectRow(row)
        assert page.toggle_button.text() == "Turn publishing off"
        click(page.toggle_button)
        click(page.toggle_button)  # busy: ignored
        await until(lambda: "Turned off" in page.model.index(row, 5).data(), what="toggled")
        stored = next(a for a in demo_sandbox.store.accounts() if a["id"] == account.id)
        assert not stored["is_active"]
        assert changed
        assert any(a.id == account.id and a.is_active is False for a in session.cache.accounts())
        shot(page, "accounts")

    runner.run(scenario())


def test_repurposes_lists_items_with_reasons_in_words(
    qapp: QApplication, runner: LoopRunner, demo_sandbox: SandboxServer, make_session: MakeSession
) -> None:
    page = RepurposesPage()
    page.resize(1000, 600)
    page.show()
    page.set_session(make_session(demo_sandbox.base_url, demo_sandbox.keys.admin))

    async def scenario() -> None:
        await until(lambda: page.model.rowCount() > 0, what="items")
        assert page.picker.isVisibleTo(page)
        whys = " ".join(page.model.index(r, 2).data() for r in range(page.model.rowCount()))
        assert "published through the service" in whys or "Downloading" in whys
        shot(page, "repurposes")

    runner.run(scenario())
    QSettings().clear()
