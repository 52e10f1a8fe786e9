"""Sending while the server cannot be reached: the batch waits in the outbox (visible there) and
goes out once the connection is back, once."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from urllib.parse import urlsplit

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from app.sandbox.harness import SandboxServer
from app.store.local_store import LocalStore
from app.sync.outbox import OutboxState
from tests.ui.app.conftest import LoopRunner
from tests.ui.composer.conftest import BERLIN, dispose, make_session, until
from ui.composer.page import ComposerPage


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Forwarder:
    """A loopback port that is closed (offline) until `start()`, then forwards to the sandbox."""

    def __init__(self, port: int, target_port: int) -> None:
        self.port = port
        self.target_port = target_port
        self.server: asyncio.base_events.Server | None = None

    async def start(self) -> None:
        self.server = await asyncio.start_server(
            self._pipe, "127.0.0.1", self.port, reuse_address=True
        )

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)

        async def copy(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                dst.close()

        await asyncio.gather(copy(reader, up_writer), copy(up_reader, writer))

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


def test_offline_send_is_queued_then_sent(
    qtbot: QtBot, runner: LoopRunner, sandbox: SandboxServer, tmp_path: Path
) -> None:
    target = urlsplit(sandbox.base_url)
    port = _free_port()
    forwarder = Forwarder(port, target.port or 0)
    # The cache already knows the accounts (an earlier sync); the server is unreachable now.
    online = make_session(sandbox, tmp_path / "warm")
    runner.run(online.sync.full_refresh())
    accounts = online.cache.accounts()
    runner.run(online.close())
    store = LocalStore.open(tmp_path / "drafts.sqlite3")
    session = make_session(
        sandbox, tmp_path, base_url=f"http://127.0.0.1:{port}/api", local_store=store
    )
    session.cache.set_accounts(accounts)
    page = ComposerPage(local_tz=BERLIN)
    page.resize(1200, 800)

    async def body() -> None:
        session.start_outbox()
        page.show()
        page.set_session(session)
        x = sandbox.store.account_id("x")
        assert page.picker.toggle(x)
        QTest.keyClicks(page.shared.text, "Written on the train")
        QTest.mouseClick(page.schedule.send, Qt.MouseButton.LeftButton)
        await until(
            lambda: not page.send_flow.gate.busy_keys(),
            what="the send to give up waiting",
            limit=40,
        )
        sending = page.send_flow.sending
        assert sending is not None
        [entry] = sending.entries()
        assert entry.state is OutboxState.QUEUED
        assert "Outbox (1 waiting)" in page.outbox_panel.title.text()
        assert "Queued" in page.outbox_panel.list.item(0).text()
        assert page.state.doc.content == ""  # a fresh composer; the post waits in the outbox
        assert sandbox.store.post_count() == 0
        await forwarder.start()
        sending.wake()
        await until(lambda: sandbox.store.post_count() == 1, what="sent after reconnect", limit=40)
        await until(lambda: sending.entries()[0].state is OutboxState.SENT, what="sent state")
        await until(lambda: session.cache.count_posts() == 1, what="in the calendar")
        assert "Sent" in page.outbox_panel.list.item(0).text()
        # Issue 15 §4: "Queued in the outbox…" does not stay up once the post went out.
        await until(lambda: "Queued" not in page.status_line.text(), what="the queued note")
        assert page.status_line.text() == "The queued post was sent. It is in the calendar."
        await page.shutdown()
        await session.close()
        await forwarder.stop()

    runner.run(body())
    store.close()
    dispose(page)
    assert sandbox.store.post_count() == 1
