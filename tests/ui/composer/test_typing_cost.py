"""Issue 15 §5: a keystroke on a long post with several destinations must not stall. Each text is
counted once per unit however many counters, tabs and checks ask; the destination tabs that
are not shown do not lay out the shared text again; counters and checks follow typing on one
coalescing timer, and a send right after a keystroke is judged on the text as typed."""

from __future__ import annotations

import importlib
from collections import Counter

import pytest
from PySide6.QtTest import QTest

from app.compose.document import ScheduleMode
from tests.ui.composer.conftest import Composer, until

# The module (`app.networks.text_length` is also a function re-exported by `app.networks`).
text_length = importlib.import_module("app.networks.text_length")

LONG = "Our spring collection lands tomorrow at 10am with #SpringLaunch: https://example.com. " * 26


def test_each_text_is_counted_once_a_keystroke(
    composer: Composer, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = composer.page
    calls: Counter[tuple[str, text_length.Counting]] = Counter()
    real = text_length._count

    def counting(text: str | None, unit: text_length.Counting) -> int:
        calls[(text or "", unit)] += 1
        return real(text, unit)

    async def body() -> None:
        await until(lambda: page.picker.list.count() > 0, what="accounts")
        composer.choose("x", "linkedin", "tiktok")
        page.shared.text.setPlainText(LONG)
        page.refresh_now()
        monkeypatch.setattr(text_length, "_count", counting)
        for char in "abc":
            QTest.keyClick(page.shared.text, char)
            page.refresh_now()  # every counter, tab and check of this keystroke

    composer.run(body())
    assert calls, "the counters were not refreshed"
    # Before: 12 counts of the same text a keystroke (counter, tab, split button, checks).
    assert max(calls.values()) == 1, calls.most_common(3)


def test_hidden_tabs_take_the_shared_text_when_shown(composer: Composer) -> None:
    page = composer.page
    x = composer.account("x")

    async def body() -> None:
        await until(lambda: page.picker.list.count() > 0, what="accounts")
        composer.choose("x", "linkedin")
        tab = page.tabs_by_account[x]
        assert not tab.isVisible()
        page.shared.text.setPlainText(LONG)
        QTest.keyClicks(page.shared.text, " more")
        page.refresh_now()
        # The hidden tab's editor was not given the 2,200 characters again ...
        assert tab.text.toPlainText() != page.state.doc.content
        assert tab.shown_text() == page.state.doc.content
        # ... and shows them when it is opened.
        page.tabs.setCurrentWidget(tab)
        await until(lambda: tab.isVisible(), what="the X tab shown")
        assert tab.text.toPlainText() == page.state.doc.content

    composer.run(body())


def test_a_send_right_after_the_keystroke_that_crosses_the_limit_is_blocked(
    composer: Composer,
) -> None:
    page = composer.page

    async def body() -> None:
        await until(lambda: page.picker.list.count() > 0, what="accounts")
        composer.choose("x")
        page.schedule.set_mode(ScheduleMode.QUEUE_NEXT)
        page.shared.text.setPlainText("a" * 280)
        await until(lambda: page.schedule.send.isEnabled(), what="280 characters can be sent")
        QTest.keyClick(page.shared.text, "b")  # the 281st, and at once Ctrl+Return:
        page.send()
        assert not page.schedule.send.isEnabled()
        assert "by 1" in page.schedule.blocker.text()
        assert not page.send_flow.gate.is_busy(page.state.doc.draft_id)

    composer.run(body())
    assert composer.session.outbox is not None
    assert not composer.run(_entries(composer))


async def _entries(composer: Composer) -> list[object]:
    sending = composer.page.send_flow.sending
    assert sending is not None
    return list(sending.entries())
