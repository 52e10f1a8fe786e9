"""The workspace panels in the running app against the sandbox: built when first shown, given the
session after it starts and taken off it before it closes, their actions in the palette, and
`--view <panel> --screenshot` showing the real panel."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import api_key, options, started, stopped  # noqa: F401
from ui.application import Application
from ui.composer.page import ComposerPage
from ui.panels.base import PanelPage
from ui.panels.labels import LabelsPage
from ui.panels.repurposes import RepurposesPage
from ui.panels.signatures import SignaturesPage
from ui.panels.webhooks import WebhooksPage

PANELS = {
    "labels": LabelsPage,
    "signatures": SignaturesPage,
    "webhooks": WebhooksPage,
    "repurposes": RepurposesPage,
}


def test_ctrl_6_builds_the_webhooks_page_on_first_show_with_the_session(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        for name in PANELS:
            assert app.window.built_page(name) is None, f"{name} is not built at start"
        assert "webhooks.new" not in {s.id for s in app.registry.specs()}

        app.window.activateWindow()
        await until(app.window.isActiveWindow, what="the window to be active")
        QTest.keyClick(app.window.sidebar, Qt.Key.Key_6, Qt.KeyboardModifier.ControlModifier)
        assert app.window.current_section() == "webhooks"
        page = app.window.built_page("webhooks")
        assert isinstance(page, WebhooksPage)
        assert page.session is app.session
        await until(lambda: page.model.rowCount() == 5, what="the demo's five webhooks")
        assert "webhooks.new" in {s.id for s in app.registry.specs()}
        assert app.registry.is_available("webhooks.new")

        app.open_palette()
        palette = app.palette
        assert palette is not None
        QTest.keyClicks(palette.query, "new webhook")
        assert [e.text for e in palette.shown_entries()][:1] == ["New webhook…"]
        palette.reject()
        assert await stopped(app, task) == 0

    runner.run(scenario())


def test_every_panel_shows_its_data_and_leaves_the_session_before_it_closes(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        session = app.session
        assert session is not None
        pages: dict[str, PanelPage] = {}
        for name, kind in PANELS.items():
            app.window.show_section(name)
            page = app.window.built_page(name)
            assert isinstance(page, kind), f"{name} shows {type(page).__name__}"
            pages[name] = page
        assert not isinstance(app.window.page("compose"), PanelPage)
        assert isinstance(app.window.page("compose"), ComposerPage)
        labels = pages["labels"]
        assert isinstance(labels, LabelsPage)
        with demo_sandbox.store.tx() as db:
            count = db.one(
                "SELECT count(*) AS n FROM labels WHERE workspace_id = ?",
                (demo_sandbox.workspace_id,),
            )["n"]
        await until(lambda: labels.list.count() == count, what="the labels listed")

        sessions_at_close: list[object] = []
        real_close = session.close

        async def close() -> None:
            sessions_at_close.extend(p.session for p in pages.values())
            sessions_at_close.append(app.accounts_panel.session)
            await real_close()

        session.close = close  # type: ignore[method-assign]
        assert await stopped(app, task) == 0
        assert sessions_at_close == [None] * (len(PANELS) + 1)

    runner.run(scenario())


@pytest.mark.parametrize("view", list(PANELS))
def test_view_and_screenshot_show_the_real_panel(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
    tmp_path: Path,
    view: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shot = tmp_path / f"{view}.png"
    # A server slower than the sync's last repaint: the panel's reads are held back until the
    # first sync has finished; the picture still waits for the panel.
    gate = Gate()
    for kind, name in ((LabelsPage, "_load"), (WebhooksPage, "_load_list")):
        monkeypatch.setattr(kind, name, gate.holding(getattr(kind, name)))

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url, view=view, screenshot=shot))

        async def release_after_the_first_sync() -> None:
            await until(
                lambda: app.session is not None and app.session.first_sync_ok is not None,
                limit=60,
                what="the first sync",
            )
            if view in ("labels", "webhooks"):
                assert gate.waiting > 0, "the panel's read was held back during the sync"
            gate.open.set()

        releaser = asyncio.ensure_future(release_after_the_first_sync())
        seen: list[tuple[object, ...]] = []
        grab = app.window.grab

        def grab_and_note() -> QPixmap:
            # What the picture shows: the panel, after it has read its data (not "Loading…").
            page = app.window.pages.currentWidget()
            if isinstance(page, LabelsPage):
                seen.append((type(page), page.list.count()))
            elif isinstance(page, WebhooksPage):
                seen.append((type(page), page.model.rowCount(), page.selected is not None))
            elif isinstance(page, SignaturesPage):
                seen.append((type(page), page.list.count() > 0))
            elif isinstance(page, RepurposesPage):
                seen.append((type(page), page.model.rowCount() > 0))
            else:
                seen.append((type(page),))
            return grab()

        app.window.grab = grab_and_note  # type: ignore[method-assign,assignment]
        assert await app.run() == 0
        await releaser
        expected = {
            "labels": (LabelsPage, 7),
            "webhooks": (WebhooksPage, 5, True),
            "signatures": (SignaturesPage, True),
            "repurposes": (RepurposesPage, True),
        }[view]
        assert seen == [expected]

    runner.run(scenario())
    image = QImage(str(shot))
    assert not image.isNull()
    assert image.width() >= 1024


class Gate:
    """Holds panel reads back until the test opens it (a server slower than the sync)."""

    def __init__(self) -> None:
        self.open = asyncio.Event()
        self.waiting = 0

    def holding(self, load: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
        async def held_load(*args: object, **kwargs: object) -> None:
            self.waiting += 1
            try:
                await self.open.wait()
            finally:
                self.waiting -= 1
            await load(*args, **kwargs)

        return held_load


def test_switching_a_page_to_a_new_session_drops_the_old_one(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        app.window.show_section("signatures")
        page = app.window.built_page("signatures")
        assert isinstance(page, SignaturesPage)
        first = app.session
        assert page.session is first
        profile = app.profile
        assert profile is not None
        await app.open_workspace(profile, demo_sandbox.keys.admin)
        await until(lambda: app.session is not None and app.session is not first)
        assert page.session is app.session
        await asyncio.sleep(0)
        assert await stopped(app, task) == 0

    runner.run(scenario())
