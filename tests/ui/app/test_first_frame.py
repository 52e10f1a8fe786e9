"""Paint first, then load the rest: the window `postdesk` paints from the cache before the app is
imported is the window the app then runs in, with the same calendar, cache and lock."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication

from app.sandbox.harness import SandboxServer
from app.workspaces.profiles import Paths
from tests.ui.app.conftest import LoopRunner
from tests.ui.app.test_app_calendar import api_key, options, started, stopped  # noqa: F401
from ui.application import Application
from ui.calendar.loader import CalendarLoader
from ui.cli import parse_args
from ui.shell.first_frame import FirstFrame
from ui.shell.startup import InstanceLock, StartupError


def synced_once(qapp: QApplication, runner: LoopRunner, base_url: str) -> list[str]:
    """Run the app once so that the workspace has a cache; the ids of its posts."""

    async def scenario() -> list[str]:
        app = Application(qapp, options(base_url))
        task = await started(app)
        assert app.cache is not None
        ids = sorted(app.cache.post_ids())
        assert await stopped(app, task) == 0
        return ids

    return runner.run(scenario())


def test_the_app_runs_in_the_window_painted_first_without_reading_the_cache_again(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    cached = synced_once(qapp, runner, demo_sandbox.base_url)

    frame = FirstFrame(options(demo_sandbox.base_url))
    opening = frame.open()
    frame.wait_until_painted()
    assert frame.window.painted
    painted_at = frame.calendar.mapTo(frame.window, QPoint(0, 0))
    assert opening.cache is not None
    assert opening.painted_from is opening.cache
    shown = [post_id for post_id in cached if frame.calendar.entry(post_id) is not None]
    assert shown, "the first paint shows the cached posts"

    sources: list[object] = []
    set_source = frame.calendar.set_source

    def counted(source: object) -> None:
        sources.append(source)
        set_source(source)  # type: ignore[arg-type]

    frame.calendar.set_source = counted  # type: ignore[method-assign]

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url), frame=frame)
        task = await started(app)
        assert app.window is frame.window
        assert app.calendar is frame.calendar
        assert app.cache is opening.cache
        assert sources == [], "the painted cache is not set (and read) a second time"
        assert app.calendar.mapTo(app.window, QPoint(0, 0)) == painted_at, (
            "the calendar does not move when the menus fill in"
        )
        titles = [action.text().lstrip("&") for action in app.window.menuBar().actions()]
        assert titles == ["File", "View", "Go", "Post", "Workspace", "Help"]
        assert app.registry.menu("File").actions(), "the painted menu bar's menus got filled"
        for post_id in shown:
            assert app.calendar.entry(post_id) is not None
        assert await stopped(app, task) == 0

    runner.run(scenario())


def test_a_start_on_a_data_folder_in_use_is_refused_before_anything_is_shown(
    qapp: QApplication,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    Paths().data_dir.mkdir(parents=True, exist_ok=True)
    running = InstanceLock(Paths().data_dir)
    running.acquire()
    try:
        frame = FirstFrame(options(demo_sandbox.base_url))
        with pytest.raises(StartupError, match="already running"):
            frame.open()
        assert frame.opening is None
        assert not frame.window.isVisible()
        frame.close()
    finally:
        running.release()


def test_the_first_frame_reads_the_cache_once_and_never_an_empty_stand_in(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cached = synced_once(qapp, runner, demo_sandbox.base_url)
    read_from: list[str] = []
    read = CalendarLoader.read

    def recorded(loader: CalendarLoader, *, whole: bool) -> bool:
        read_from.append(type(loader.source).__name__)
        return read(loader, whole=whole)

    monkeypatch.setattr(CalendarLoader, "read", recorded)

    frame = FirstFrame(options(demo_sandbox.base_url))
    try:
        frame.open()
        assert read_from == ["WorkspaceCache"], "the page is read once, from the cache"
        assert any(frame.calendar.entry(post_id) is not None for post_id in cached)
    finally:
        frame.close()


def test_without_a_workspace_the_first_frame_shows_the_empty_calendar(
    qapp: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("POSTDESK_API_KEY", raising=False)
    frame = FirstFrame(parse_args([]))
    try:
        opening = frame.open()
        assert opening.profile is None
        assert frame.calendar.loader.visible == []
        assert not frame.calendar.empty_state.isHidden(), "the empty calendar says so"
    finally:
        frame.close()
