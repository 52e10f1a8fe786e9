"""Child process of the crash test: types into a composer with no connection, reports each
durable save on stdout, and keeps typing until it is killed."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app.compose.document import ComposerDocument
from app.store.local_store import LocalStore
from ui.composer.page import ComposerPage
from ui.event_loop import EventLoop


async def main(path: Path) -> None:
    store = LocalStore.open(path)
    page = ComposerPage()
    page.attach_store(store)
    page.new_post()
    page.show()
    page.autosave.saved.connect(
        lambda draft: print(
            f"SAVED {draft.id} {len(ComposerDocument.from_json(draft.document).content)}",
            flush=True,
        )
    )
    QTest.keyClicks(page.shared.text, "Crash-proof draft: ")
    word = 0
    while True:  # mid-edit forever, until the parent kills us
        QTest.keyClicks(page.shared.text, f"w{word} ")
        word += 1
        await asyncio.sleep(0.01)


if __name__ == "__main__":
    app = QApplication(sys.argv)
    loop = EventLoop(app)
    asyncio.set_event_loop(loop)
    loop.run_until_complete(main(Path(sys.argv[1])))
