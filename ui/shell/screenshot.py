"""`--screenshot PATH`: wait for the first sync, save a PNG of the window, report in words."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:
    from ui.session import WorkspaceSession

SCREENSHOT_TIMEOUT_S = 90.0
REPAINT_WAIT_S = 0.3  # the repaint the sync triggered lands first
PAGE_SETTLE_S = 15.0
"""How long a panel (webhooks, labels...) may take to read what it shows after the sync."""
POLL_S = 0.05


def _fail(text: str) -> int:
    print(f"postdesk: {text}", file=sys.stderr)
    return 1


async def _page_settled(window: QWidget) -> None:
    """Wait until the shown page has no reads running (a panel loads after the sync); a page
    still busy after PAGE_SETTLE_S is shown as it is."""
    pages = getattr(window, "pages", None)
    page = pages.currentWidget() if pages is not None else None
    tasks = getattr(page, "tasks", None)
    if tasks is None:
        return
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PAGE_SETTLE_S
    quiet_polls = 0
    while quiet_polls < 2 and loop.time() < deadline:  # twice: one read may start the next
        await asyncio.sleep(POLL_S)
        quiet_polls = quiet_polls + 1 if len(tasks) == 0 else 0


async def take_screenshot(window: QWidget, session: WorkspaceSession | None, path: Path) -> int:
    """0 when the PNG was written; 1 with the reason on stderr otherwise."""
    if session is None:
        return _fail("no workspace is connected")
    finished: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
    if session.first_sync_ok is not None:
        finished.set_result(session.first_sync_ok)

    def first_sync_finished(ok: bool) -> None:
        if not finished.done():
            finished.set_result(ok)

    session.firstSyncFinished.connect(first_sync_finished)
    try:
        ok = await asyncio.wait_for(finished, SCREENSHOT_TIMEOUT_S)
    except TimeoutError:
        return _fail(f"the first sync did not finish in {SCREENSHOT_TIMEOUT_S:.0f} s")
    if not ok:
        state = session.state
        reason = state.message if state is not None else "unknown error"
        return _fail(f"the first sync failed: {reason}")
    await _page_settled(window)
    await asyncio.sleep(REPAINT_WAIT_S)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return _fail(f"could not create the folder for {path}: {error.strerror or error}")
    if not window.grab().save(str(path)):
        return _fail(f"could not write the screenshot to {path}")
    return 0
