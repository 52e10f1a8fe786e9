"""Issue 15 §4: the outbox list shows a new entry (not above the visible area, not behind an
old "Sent" selection), and a long "needs attention" reason wraps into a taller row instead of
being cut, and the list recovers once it is resolved."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from pytestqt.qtbot import QtBot

from app.models.requests import BatchRequest, Destination
from app.sync.outbox import OutboxEntry, OutboxState
from ui.composer.outbox_panel import OutboxPanel

NOW = datetime(2026, 11, 26, 12, tzinfo=UTC)
REASON = (
    "The server refused the post: the board id field is required for Pinterest, and the "
    "privacy level must be chosen for TikTok before it can be scheduled."
)


def _entry(n: int, state: OutboxState = OutboxState.SENT, reason: str | None = None) -> OutboxEntry:
    request = BatchRequest(destinations=[Destination(social_account_id="a", content_type="x_post")])
    return OutboxEntry(
        id=n,
        draft_id=f"d{n}",
        request=request,
        summary=f"Post number {n}",
        scheduled_at=None,
        state=state,
        reason=reason,
        post_ids=(),
        attempts=1,
        sent_at=None,
        check_after=None,
        source_key=None,
        created_at=NOW,
        updated_at=NOW,
    )


def _panel(qtbot: QtBot) -> OutboxPanel:
    panel = OutboxPanel(UTC)
    qtbot.addWidget(panel)
    panel.resize(240, 260)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def test_a_new_entry_is_selected_and_visible_instead_of_an_old_sent_one(qtbot: QtBot) -> None:
    panel = _panel(qtbot)
    old = [_entry(n) for n in range(1, 15)]
    panel.show_entries(old)
    panel.select(1)  # the oldest, at the bottom: the list is scrolled down to it
    qtbot.waitUntil(lambda: panel.list.verticalScrollBar().value() > 0)
    panel.show_entries([*old, _entry(15, OutboxState.QUEUED)])
    selected = panel.selected()
    assert selected is not None
    assert selected.id == 15
    assert panel.list.verticalScrollBar().value() == 0


def test_a_long_reason_wraps_into_a_taller_row_and_the_list_recovers(qtbot: QtBot) -> None:
    panel = _panel(qtbot)
    panel.show_entries([_entry(1), _entry(2)])
    plain = panel.list.visualItemRect(panel.list.item(0)).height()
    attention = _entry(3, OutboxState.NEEDS_ATTENTION, REASON)
    panel.show_entries([_entry(1), _entry(2), attention])
    tall = panel.list.visualItemRect(panel.list.item(0))
    assert tall.height() >= 3 * plain  # the reason is whole, on several lines
    assert tall.width() <= panel.list.viewport().width()
    assert not panel.list.horizontalScrollBar().isVisible()
    panel.show_entries([_entry(1), _entry(2), replace(attention, state=OutboxState.SENT)])
    assert panel.list.visualItemRect(panel.list.item(0)).height() == plain


def test_rows_are_laid_out_again_when_the_column_gets_narrower(qtbot: QtBot) -> None:
    panel = _panel(qtbot)
    panel.resize(420, 300)
    panel.show_entries([_entry(1), _entry(3, OutboxState.NEEDS_ATTENTION, REASON)])
    qtbot.waitUntil(lambda: panel.list.viewport().width() > 380)
    wide = panel.list.visualItemRect(panel.list.item(0)).height()
    # As narrow as the panel goes (its buttons' text decides: the fonts a run has loaded can
    # make that a few pixels more or less than a fixed figure).
    narrow = panel.minimumSizeHint().width() + 10
    assert narrow < 320
    panel.resize(narrow, 300)
    qtbot.waitUntil(lambda: panel.list.viewport().width() < 320)
    qtbot.waitUntil(lambda: panel.list.visualItemRect(panel.list.item(0)).height() > wide)
    assert panel.list.visualItemRect(panel.list.item(0)).width() <= panel.list.viewport().width()
