"""The audio picker against the sandbox: trending, debounce, cache, budgets, 429, 502, fresh
links, choosing, and the explanation for Instagram-login accounts."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app.api.client import ApiClient
from app.models.accounts import SocialAccountSummary
from app.models.audio import AudioAsset
from app.sandbox.clock import ManualClock
from app.sandbox.harness import SandboxServer
from tests.api.helpers import FakeClock, sandbox_client
from tests.ui.app.conftest import LoopRunner, until
from ui.composer.audio_picker import AudioPickerDialog, audio_meta

START = datetime(2030, 5, 1, 12, 0, tzinfo=UTC)


class GatedClock(FakeClock):
    """Sleeps only when the test opens the gate; moves the sandbox's clock along."""

    def __init__(self, server_clock: ManualClock) -> None:
        super().__init__()
        self.server_clock = server_clock
        self.gate = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        await self.gate.wait()
        self.time += seconds
        self.server_clock.advance(timedelta(seconds=seconds))


@pytest.fixture
def server_clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def server(tmp_path: Path, server_clock: ManualClock) -> Iterator[SandboxServer]:
    with SandboxServer(tmp_path / "audio.db", now=server_clock) as sandbox:
        yield sandbox


_DIALOGS: list[AudioPickerDialog] = []


@pytest.fixture
def runner(qapp: QApplication) -> Iterator[LoopRunner]:
    loop_runner = LoopRunner(qapp)
    yield loop_runner
    loop_runner.close()
    # Deleted here, on the GUI thread: left to the cyclic GC, a dialog could be collected on
    # the sandbox's server thread, which Qt does not survive.
    while _DIALOGS:
        dialog = _DIALOGS.pop()
        if shiboken6.isValid(dialog):
            shiboken6.delete(dialog)
    gc.collect()


def account(server: SandboxServer, platform: str = "instagram-facebook") -> SocialAccountSummary:
    row = next(a for a in server.store.accounts() if a["platform"] == platform)
    return SocialAccountSummary(
        id=row["id"], platform=platform, display_name=row["display_name"], username="u"
    )


def type_within_the_debounce(dialog: AudioPickerDialog, text: str) -> None:
    """Type `text` key by key, each key before the debounce started by the one before has run
    out: every key starts the wait again, and nothing is sent meanwhile."""
    sent = dialog.audio_api.requests_sent
    for char in text:
        QTest.keyClicks(dialog.search, char)
        assert dialog._debounce.isActive(), f"{char!r} started the debounce"
        assert dialog.audio_api.requests_sent == sent, f"{char!r} sent a search at once"


def search_settled(dialog: AudioPickerDialog) -> bool:
    """The last search asked for has ended, and no debounced one is waiting to start."""
    task = dialog._search_task
    return task is not None and task.done() and not dialog._debounce.isActive()


class RecordingPicker(AudioPickerDialog):
    """The real picker; previews are recorded instead of handed to the desktop."""

    def __init__(self, client: ApiClient, who: SocialAccountSummary) -> None:
        super().__init__(client.audio, who)
        self.opened: list[str] = []
        self.open_url = self._record

    def _record(self, url: str) -> bool:
        self.opened.append(url)
        return True


def picker(client: ApiClient, who: SocialAccountSummary) -> RecordingPicker:
    dialog = RecordingPicker(client, who)
    _DIALOGS.append(dialog)
    return dialog


def test_instagram_login_accounts_are_told_why(runner: LoopRunner, server: SandboxServer) -> None:
    async def body() -> None:
        async with sandbox_client(server) as client:
            dialog = picker(client, account(server, "instagram"))
            dialog.open()
            await until(dialog.isVisible, what="the picker shown")
            # Nothing was started that could search later: no search, no debounce waiting.
            assert dialog._search_task is None
            assert not dialog._debounce.isActive()
            assert dialog.unavailable_label.isVisible()
            assert "connected through Facebook" in dialog.unavailable_label.text()
            assert not dialog.search.isVisibleTo(dialog)
            assert client.audio.requests_sent == 0
            dialog.reject()

    runner.run(body())


def test_trending_then_one_request_for_a_typed_query(
    runner: LoopRunner, server: SandboxServer, tmp_path: Path
) -> None:
    async def body() -> None:
        async with sandbox_client(server) as client:
            dialog = picker(client, account(server))
            dialog.open()
            await until(lambda: dialog.model.rowCount() > 0, what="trending")
            assert client.audio.requests_sent == 1
            assert "trending" in dialog.status_label.text()
            assert "29 of 30" in dialog.budget_label.text()
            assert "59 of 60" in dialog.budget_label.text()

            type_within_the_debounce(dialog, "cafe")
            assert client.audio.requests_sent == 1  # still inside the debounce
            await until(lambda: client.audio.requests_sent == 2, what="debounced search")
            await until(lambda: "“cafe”" in dialog.status_label.text())
            titles = [a.title for a in dialog.model.assets()]
            assert any("Café" in t for t in titles)

            # Music only is a new request; back to both comes from the cache.
            dialog.type_buttons["music"].click()
            await until(lambda: client.audio.requests_sent == 3)
            await until(lambda: all(a.type == "music" for a in dialog.model.assets()))
            dialog.type_buttons[None].click()
            await until(lambda: search_settled(dialog), what="the search from the cache")
            assert client.audio.requests_sent == 3
            assert [a.title for a in dialog.model.assets()] == titles

            chosen: list[AudioAsset] = []
            dialog.chosen.connect(chosen.append)
            first = dialog.model.index(0)
            dialog.results.setCurrentIndex(first)
            dialog.choose_button.click()
            assert chosen == [dialog.model.assets()[0]]
            assert audio_meta(chosen[0]) == {"id": chosen[0].id}
            assert dialog.result() == dialog.DialogCode.Accepted
            dialog.grab().save(str(tmp_path / "picker.png"))

    runner.run(body())


def test_a_502_offers_a_retry_in_words(runner: LoopRunner, server: SandboxServer) -> None:
    async def body() -> None:
        server.store.audio_upstream_failing = True
        async with sandbox_client(server) as client:
            dialog = picker(client, account(server))
            dialog.open()
            await until(lambda: dialog.retry_button.isVisible(), what="retry offered")
            assert "Instagram did not answer" in dialog.status_label.text()
            assert "Try again" in dialog.status_label.text()
            server.store.audio_upstream_failing = False
            dialog.retry_button.click()
            await until(lambda: dialog.model.rowCount() > 0, what="results after retry")
            assert not dialog.retry_button.isVisible()
            assert client.audio.requests_sent == 2
            dialog.reject()

    runner.run(body())


def test_a_429_is_waited_out_and_said(
    runner: LoopRunner, server: SandboxServer, server_clock: ManualClock
) -> None:
    async def body() -> None:
        async with sandbox_client(server) as other:
            for i in range(30):
                await other.audio.search(account(server).id, f"other {i}")
        clock = GatedClock(server_clock)
        async with sandbox_client(server, clock=clock) as client:
            dialog = picker(client, account(server))
            dialog.open()
            await until(lambda: "Waiting" in dialog.status_label.text(), what="wait shown")
            assert "server asked to wait" in dialog.status_label.text()
            assert "60 s" in dialog.status_label.text()
            assert "server asked to wait" in dialog.budget_label.text()
            assert dialog.model.rowCount() == 0
            clock.gate.set()
            await until(lambda: dialog.model.rowCount() > 0, what="results after the wait")
            assert clock.sleeps == [pytest.approx(60)]
            assert client.audio.requests_sent == 2
            dialog.reject()

    runner.run(body())


def test_closing_while_waiting_cancels_cleanly(
    runner: LoopRunner, server: SandboxServer, server_clock: ManualClock
) -> None:
    async def body() -> None:
        clock = GatedClock(server_clock)
        async with sandbox_client(server, clock=clock) as client:
            for _ in range(30):
                client.audio.budget.spend()
            dialog = picker(client, account(server))
            dialog.open()
            await until(lambda: "Waiting" in dialog.status_label.text())
            task = dialog._search_task
            dialog.reject()
            await until(lambda: task is not None and task.done(), what="search cancelled")
            assert task is not None
            assert task.cancelled()
            assert client.audio.requests_sent == 0

    runner.run(body())


def test_an_expired_preview_gets_a_fresh_link_before_playing(
    runner: LoopRunner, tmp_path: Path
) -> None:
    # Links of a catalog read in 2020 expired long ago.
    old_clock = ManualClock(datetime(2020, 1, 1, tzinfo=UTC))

    async def body(server: SandboxServer) -> None:
        async with sandbox_client(server) as client:
            dialog = picker(client, account(server))
            dialog.open()
            await until(lambda: dialog.model.rowCount() > 0)
            assert "system's media player" in dialog.playback_note.text()
            before = client.audio.requests_sent
            dialog.results.setCurrentIndex(dialog.model.index(0))
            dialog.play_button.click()
            await until(lambda: dialog.opened, what="preview opened")
            assert client.audio.requests_sent > before  # a fresh read, not the cache
            assert dialog.opened[0].startswith("https://")
            assert "media player" in dialog.status_label.text()
            dialog.reject()

    with SandboxServer(tmp_path / "old.db", now=old_clock) as server:
        runner.run(body(server))


def test_a_fresh_enough_preview_plays_without_a_request(
    runner: LoopRunner, server: SandboxServer
) -> None:
    async def body() -> None:
        async with sandbox_client(server) as client:
            dialog = picker(client, account(server))
            dialog.open()
            await until(lambda: dialog.model.rowCount() > 0)
            dialog.results.setCurrentIndex(dialog.model.index(1))
            dialog.play_button.click()
            await until(lambda: dialog.opened)
            assert client.audio.requests_sent == 1
            assert dialog.opened == [dialog.model.assets()[1].preview_url]
            QTest.keyClick(dialog.results, Qt.Key.Key_Escape)
            dialog.reject()

    runner.run(body())


def test_enter_in_the_search_searches_instead_of_choosing(
    runner: LoopRunner, server: SandboxServer
) -> None:
    async def body() -> None:
        async with sandbox_client(server) as client:
            dialog = picker(client, account(server))
            chosen: list[AudioAsset] = []
            dialog.chosen.connect(chosen.append)
            dialog.open()
            await until(lambda: dialog.model.rowCount() > 0)
            QTest.keyClicks(dialog.search, "sigur ros")
            QTest.keyClick(dialog.search, Qt.Key.Key_Return)
            await until(lambda: client.audio.requests_sent == 2, what="search on Enter")
            await until(lambda: "“sigur ros”" in dialog.status_label.text())
            # Enter searched at once: the debounce the typing started is not waiting any more.
            assert search_settled(dialog), "Enter left a debounced repeat"
            assert chosen == []
            assert dialog.isVisible()
            QTest.keyClick(dialog.search, Qt.Key.Key_Down)
            assert dialog.results.hasFocus() or dialog.results.currentIndex().row() == 0
            QTest.keyClick(dialog.results, Qt.Key.Key_Return)
            assert chosen == [dialog.model.assets()[0]]
            row = dialog.results.visualRect(dialog.model.index(0)).center()
            QTest.mouseDClick(
                dialog.results.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier(0), row
            )
            assert len(chosen) == 1  # a track is chosen once
            assert search_settled(dialog)
            assert client.audio.requests_sent == 2  # Enter did not leave a debounced repeat

    runner.run(body())


def test_covers_replace_the_placeholder(qapp: QApplication) -> None:
    from app.sandbox.media_files import gradient_png
    from ui.composer.audio.results_model import AudioResultsModel, format_duration, row_text

    model = AudioResultsModel()
    asset = AudioAsset(id="1", title="Song", artist="Ana", type="music", duration_ms=65000)
    model.set_assets([asset])
    index = model.index(0)
    placeholder = model.data(index, Qt.ItemDataRole.DecorationRole)
    assert model.set_cover("1", gradient_png(10, 10, (255, 0, 0), (0, 0, 255)))
    assert model.data(index, Qt.ItemDataRole.DecorationRole) is not placeholder
    assert not model.set_cover("1", b"not an image")
    assert row_text(asset) == "Song\nAna · Music · 1:05"
    assert format_duration(None) == ""
