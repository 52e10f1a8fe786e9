"""A refused batch's field errors come from its outbox entry, so they are still shown at their
fields after a restart (they used to live in the page's memory, keyed by the request's JSON)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.sync.outbox import OutboxState
from tests.ui.composer.conftest import BERLIN, Composer, dispose, make_session, until
from ui.composer.page import ComposerPage

BOARD = "destinations.2.meta.board_id"


def test_edit_and_retry_after_a_restart_shows_the_servers_reasons_at_the_fields(
    composer: Composer, tmp_path: Path
) -> None:
    page = composer.page
    pinterest = composer.account("pinterest")
    unavailable = "This server cannot list them: type the id."
    page.data.set_unavailable("boards", pinterest, unavailable)

    async def refused() -> int:
        composer.choose("discord", "linkedin", "pinterest")
        discord = page.tabs_by_account[composer.account("discord")].settings.widgets[
            "meta.channel_id"
        ]
        await until(lambda: discord.combo.count() > 1, what="channels")  # type: ignore[attr-defined]
        discord.combo.setCurrentIndex(1)  # type: ignore[attr-defined]
        board = page.tabs_by_account[pinterest].settings.widgets["meta.board_id"]
        QTest.keyClicks(board.text, "no-such-board")  # type: ignore[attr-defined]
        QTest.keyClicks(page.shared.text, "Autumn menu")
        QTest.mouseClick(page.schedule.send, Qt.MouseButton.LeftButton)
        await until(lambda: page.errors.messages(BOARD), what="the refusal at the field")
        assert page.send_flow.sending is not None
        [entry] = page.send_flow.sending.entries()
        assert entry.state is OutboxState.NEEDS_ATTENTION
        return entry.id

    entry_id = composer.run(refused())
    # Postdesk again: a new session and a new page on the same drafts file; nothing in memory.
    session = make_session(composer.sandbox, tmp_path / "again", local_store=composer.store)
    composer.run(session.sync.full_refresh())
    again = ComposerPage(local_tz=BERLIN)
    again.resize(1440, 900)

    async def after_restart() -> None:
        session.start_outbox()
        again.show()
        again.set_session(session)
        again.data.set_unavailable("boards", pinterest, unavailable)
        await until(lambda: again.outbox_panel.list.count() == 1, what="the entry listed")
        again.outbox_panel.editRequested.emit(entry_id)  # *Edit and retry*
        await until(lambda: again.errors.messages(BOARD), what="the reason at the board")

    try:
        composer.run(after_restart())
        shown = again.errors.messages(BOARD)
        assert any("board" in message.lower() for message in shown), shown
        assert again.state.doc.content == "Autumn menu"
        board = again.tabs_by_account[pinterest].settings.widgets["meta.board_id"]
        assert board.property("invalid") is True
    finally:
        composer.run(again.shutdown())
        composer.run(session.close())
        dispose(again)
    assert composer.sandbox.store.post_count() == 0
