"""File ▸ Import CSV… and Export calendar to CSV: the window's actions (`ui/shell/csv_actions`),
sending through the workspace's outbox the composer shows."""

from __future__ import annotations

from pathlib import Path

from tests.ui.composer.conftest import BERLIN, Composer, until
from ui.shell.csv_actions import CsvActions


def _csv(composer: Composer) -> CsvActions:
    page = composer.page
    return CsvActions(page, lambda: composer.session, page.tasks, page.messages, lambda: BERLIN)


def test_import_reports_row_and_column_and_sends_nothing(
    composer: Composer, tmp_path: Path
) -> None:
    path = tmp_path / "month.csv"
    x = composer.account("x")
    path.write_text(
        f"content,accounts,scheduled_at,status\nGood row,{x},,draft\nBad row,nobody:here,,draft\n",
        encoding="utf-8",
    )

    async def body() -> None:
        dialog = _csv(composer).import_csv(path)
        assert dialog is not None
        await until(lambda: "row 3, column accounts" in dialog.report.toPlainText(), what="errors")

    composer.run(body())
    assert composer.sandbox.store.post_count() == 0


def test_import_sends_valid_rows_then_export_writes_them(
    composer: Composer, tmp_path: Path
) -> None:
    path = tmp_path / "month.csv"
    x, linkedin = composer.account("x"), composer.account("linkedin")
    path.write_text(
        f"content,accounts,scheduled_at,status\nOne,{x},,draft\nTwo,{x};{linkedin},,draft\n",
        encoding="utf-8",
    )

    async def body() -> None:
        dialog = _csv(composer).import_csv(path)
        assert dialog is not None
        await until(lambda: dialog.result_report is not None, what="the summary", limit=40)
        assert dialog.result_report.all_sent  # type: ignore[union-attr]
        await composer.session.sync.full_refresh()

    composer.run(body())
    assert composer.sandbox.store.post_count() == 3
    out = tmp_path / "export.csv"
    assert _csv(composer).export_csv(out) == 3
    text = out.read_text(encoding="utf-8")
    assert text.splitlines()[0].startswith("content,accounts")
    assert "Two" in text


def test_skipped_published_rows_come_in_as_drafts_when_asked_in_the_dialog(
    composer: Composer, tmp_path: Path
) -> None:
    path = tmp_path / "export.csv"
    x = composer.account("x")
    path.write_text(
        f"content,accounts,scheduled_at,status\nWas out,{x},,published\nStill a draft,{x},,draft\n",
        encoding="utf-8",
    )

    async def body() -> None:
        dialog = _csv(composer).import_csv(path)
        assert dialog is not None
        await until(lambda: dialog.result_report is not None, what="the summary", limit=40)
        assert "1 row skipped (1 published)" in dialog.report.toPlainText()
        assert composer.sandbox.store.post_count() == 1
        assert dialog.as_drafts.isVisibleTo(dialog)
        dialog.result_report = None
        dialog.as_drafts.click()
        await until(lambda: dialog.result_report is not None, what="the second run", limit=40)
        assert "skipped" not in dialog.report.toPlainText()

    composer.run(body())
    assert composer.sandbox.store.post_count() == 2  # the draft row was not sent twice
