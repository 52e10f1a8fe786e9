"""The first frame: the window with the opened workspace's cached calendar, shown and painted
before the event loop, the client, the other pages and the shell's menus are even imported.

`postdesk` builds it, opens it and lets Qt paint it (`open()`, `wait_until_painted()`), then
imports the rest while the user already reads the calendar; `Application` takes the window,
the calendar page, the instance lock and the opened cache over and wires them (an `Application`
made without a frame builds one itself and opens it at the start of `run()`: same steps).

Whatever this module imports is paid before the first paint: Qt widgets, the calendar, the
cache's read path and the profiles only (`tests/test_startup_imports.py` holds that line).
"""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QEventLoop, QTimer

from app.store import CacheError, WorkspaceCache
from app.workspaces.profiles import Paths, Profile, ProfileStore
from ui.calendar import CalendarPage, InMemoryCalendarSource
from ui.cli import Options
from ui.messages import MessageBridge
from ui.shell.first_workspace import first_workspace
from ui.shell.main_window import MainWindow
from ui.shell.startup import InstanceLock, usable_folder

FIRST_PAINT_LIMIT_S = 0.5
"""How long the start waits for the window's first paint (a minimized one may never paint)."""


class Opening(NamedTuple):
    """The workspace a run starts with, as the first frame opened it."""

    profile: Profile | None  # None: the user chooses one first
    api_key: str | None  # None: the saved key is looked up once the window is up
    cache: WorkspaceCache | None
    """The profile's cache, opened; None without a profile (or when it could not be opened:
    the workspace manager opens it again and reports why)."""
    painted_from: WorkspaceCache | None
    """The cache the calendar already shows (None when reading it failed)."""


class FirstFrame:
    def __init__(self, options: Options, paths: Paths | None = None) -> None:
        self.options = options
        self.paths = paths or Paths()
        self.profiles = ProfileStore(self.paths)
        self.messages = MessageBridge()
        self.window = MainWindow(self.messages)
        # Built inside the window: moving a styled page in afterwards restyles each of its
        # widgets again (~18 ms for the calendar, at start).
        # Read once `open()` knows the workspace: its cache, or the empty stand-in without one.
        self.calendar = CalendarPage(
            InMemoryCalendarSource([]), parent=self.window.pages, read_now=False
        )
        self.window.set_page("calendar", self.calendar)
        self.lock = InstanceLock(self.paths.data_dir)
        self.opening: Opening | None = None

    def open(self) -> Opening:
        """Choose the workspace, take the data folder and show the window with the workspace's
        cached calendar (once; later calls return the same opening). StartupError when this run
        cannot start."""
        if self.opening is not None:
            return self.opening
        profile, api_key = first_workspace(self.options, self.profiles)
        usable_folder(self.paths.data_dir, "data folder")
        self.lock.acquire()
        self.window.show_section(self.options.view)
        if self.options.date is not None:  # before any workspace: no reload of real data
            self.calendar.go_to(self.options.date)
        self.window.show()
        cache = painted = None
        if profile is not None:
            try:
                cache = WorkspaceCache(self.paths.profile_db(profile.id))
            except CacheError:
                cache = None  # the manager opens it again and says why, in the window
            else:
                painted = self._show_cache(profile, cache)
        if cache is None:  # no workspace's posts to show: the empty stand-in's page
            self.calendar.reload()
        self.opening = Opening(profile, api_key, cache, painted)
        return self.opening

    def _show_cache(self, profile: Profile, cache: WorkspaceCache) -> WorkspaceCache | None:
        self.window.set_workspace_name(profile.name, profile.base_url)
        try:
            self.window.show_saved_sync(cache.last_sync_at(), cache.last_full_sync_at())
            self.calendar.set_source(cache)
        except CacheError:
            # Read again when the workspace opens, and reported then; until then the page
            # shows its empty stand-in, not a half-read cache.
            self.calendar.set_source(InMemoryCalendarSource([]))
            return None
        return cache

    def wait_until_painted(self, limit_s: float = FIRST_PAINT_LIMIT_S) -> None:
        """Let Qt paint the shown window before anything else runs (a local event loop, at most
        `limit_s`). Input that arrives meanwhile finds no actions yet and is dropped."""
        window = self.window
        if not window.isVisible() or window.painted:
            return
        loop = QEventLoop()
        window.firstPainted.connect(loop.quit)
        QTimer.singleShot(round(limit_s * 1000), loop.quit)
        try:
            loop.exec()
        finally:
            window.firstPainted.disconnect(loop.quit)

    def close(self) -> None:
        """Undo `open()` when the run ends before an `Application` took the frame over."""
        if self.opening is not None and self.opening.cache is not None:
            self.opening.cache.close()
        self.lock.release()
        self.window.close()
