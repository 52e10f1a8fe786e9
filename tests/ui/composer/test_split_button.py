"""Issue 15 §2: over X's limit the send is blocked naming the destination and the overflow;
"Split into a thread" moves the overflow into thread replies only when clicked."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QPushButton

from app.compose.document import ScheduleMode
from tests.ui.composer.conftest import Composer, until


def test_split_into_a_thread_only_when_asked(composer: Composer) -> None:
    page = composer.page
    x = composer.account("x")
    words = " ".join(f"word{i}" for i in range(60))  # 409 characters

    async def body() -> None:
        await until(lambda: page.picker.list.count() > 0, what="accounts")
        composer.choose("x")
        page.shared.text.setPlainText(words)
        page.schedule.set_mode(ScheduleMode.AT)
        tab = page.tabs_by_account[x]
        await until(lambda: tab.split.isEnabled(), what="the split button")
        assert "X" in page.schedule.blocker.text()
        assert "by 129" in page.schedule.blocker.text()
        assert not page.schedule.send.isEnabled()
        assert "thread_replies" not in page.state.doc.destinations[0].meta
        # The button lives in the tab: it never opened as a window of its own.
        assert not [
            w
            for w in QApplication.topLevelWidgets()
            if isinstance(w, QPushButton) and w.isVisible()
        ]
        tab.split.click()
        await until(lambda: "thread_replies" in page.state.doc.destinations[0].meta, what="split")
        await until(lambda: "by " not in page.schedule.blocker.text(), what="unblocked")

    composer.run(body())
    dest = page.state.doc.destinations[0]
    parts = [dest.content or "", *(r["text"] for r in dest.meta["thread_replies"])]
    assert " ".join(parts) == words
