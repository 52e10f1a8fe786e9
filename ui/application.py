"""One app run: puts the window, the pages, the action registry and the workspace manager together,
opens the first workspace and shuts everything down at the end.

Order matters for the first paint: the window and the cached calendar (`ui.shell.first_frame`)
show before anything slow (this module's imports, keyring, the demo server, the network) happens.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from app.runtime.gc_policy import settle_after_start
from app.store import CacheError, WorkspaceCache
from app.workspaces.profiles import Paths, Profile
from ui import style
from ui.calendar import CalendarPage
from ui.cli import Options
from ui.messages import MessageBridge
from ui.panels.accounts import AccountsPanel
from ui.shell.commands import shell_specs
from ui.shell.first_frame import FIRST_PAINT_LIMIT_S, FirstFrame
from ui.shell.first_workspace import DEMO_PROFILE, is_saved_profile, profile_for_base_url
from ui.shell.notify import NotifierWiring, default_notifier
from ui.shell.pages import PageWiring
from ui.shell.registry import ActionRegistry
from ui.shell.screenshot import take_screenshot
from ui.shell.single_instance import RaiseServer, socket_name
from ui.shell.startup import StartupError
from ui.shell.workspace_flows import WorkspaceFlows
from ui.tasks import TaskGroup
from ui.workspace_manager import WorkspaceManager

if TYPE_CHECKING:
    from ui.dialogs.connect_workspace import ConnectWorkspaceDialog
    from ui.dialogs.welcome import WelcomeDialog
    from ui.notifications.notifier import Notifier
    from ui.session import WorkspaceSession
    from ui.shell.csv_actions import CsvActions
    from ui.shell.palette import CommandPalette

__all__ = ["DEMO_PROFILE", "Application", "StartupError", "profile_for_base_url"]

REPAINT_TURN_S = 0.01  # a timer turn: Qt handles the pending repaint before it fires


class Application:
    def __init__(
        self,
        qt_app: QApplication,
        options: Options,
        paths: Paths | None = None,
        *,
        notifier: Callable[[QObject], Notifier | None] = default_notifier,
        frame: FirstFrame | None = None,
    ) -> None:
        """`frame`: the window already built (and usually painted) by `postdesk` before this
        module was imported; without one the app builds its own and opens it in `run()`."""
        self.qt_app = qt_app
        # The run coroutine decides when to stop: Qt quitting on its own would stop the loop
        # under it before the shutdown (sync tasks, demo server) is done.
        qt_app.setQuitOnLastWindowClosed(False)
        self.options = options
        self.frame = frame or FirstFrame(options, paths)
        self.paths = self.frame.paths
        self.profiles = self.frame.profiles
        self.messages: MessageBridge = self.frame.messages
        self.tasks = TaskGroup(self.messages.error)
        self._csv_actions: CsvActions | None = None
        self.window = self.frame.window
        self.registry = ActionRegistry(
            self.window, self.window.current_section, self.window.built_page, self.show_section
        )
        self.manager = WorkspaceManager(
            self.paths,
            self.messages,
            first_paint=self._after_first_paint,
            key_lookup=self._saved_key,
            demo_posts=options.demo_posts,
        )
        self.flows = WorkspaceFlows(
            self.window, self.manager, self.profiles, self.messages, self.tasks
        )
        self.pages = PageWiring(
            self.window, self.manager, self.registry, self.messages, self.frame.calendar
        )
        self.notifications = NotifierWiring(self.window, self.manager, self.pages, notifier)
        self.registry.add_all(shell_specs(self))
        self.pages.register_calendar_actions()
        self.registry.build_menus(self.window.menuBar())
        self.registry.set_menu_filler("Workspace", self.flows.menu_items)
        self.window.sectionChanged.connect(self.registry.section_changed)
        self.manager.syncStateChanged.connect(self.window.show_sync_state)
        self.window.retryNowRequested.connect(self._retry_now)
        self._settled = False
        self._previous_hook: Callable[..., object] | None = None
        self._lock = self.frame.lock
        self.raiser: RaiseServer | None = None
        self.palette: CommandPalette | None = None
        self.help_dialog: QDialog | None = None
        self._closed: asyncio.Future[None] = asyncio.get_event_loop().create_future()
        self.window.closing.connect(self.quit)

    def _retry_now(self) -> None:
        if self.manager.session is not None:
            self.manager.session.retry_now()

    # -- what tests and pages reach ---
    @property
    def calendar(self) -> CalendarPage:
        return self.pages.calendar

    @property
    def accounts_panel(self) -> AccountsPanel:
        return self.pages.accounts_panel

    @property
    def notifier(self) -> Notifier | None:
        return self.notifications.notifier

    @property
    def session(self) -> WorkspaceSession | None:
        return self.manager.session

    @property
    def cache(self) -> WorkspaceCache | None:
        return self.manager.cache

    @property
    def profile(self) -> Profile | None:
        return self.manager.profile

    @property
    def welcome_dialog(self) -> WelcomeDialog | None:
        return self.flows.welcome_dialog

    @property
    def connect_dialog(self) -> ConnectWorkspaceDialog | None:
        return self.flows.connect_dialog

    @property
    def keyring_box(self) -> QMessageBox | None:
        return self.flows.keyring_box

    async def open_workspace(self, profile: Profile, api_key: str | None) -> None:
        await self.manager.open(profile, api_key)

    # -- run ---
    async def run(self) -> int:
        self._guard_cache_reads()
        try:
            opening = self.frame.open()  # done already when `postdesk` painted it first
            # The data folder is ours now: a second launch raises this window.
            self.raiser = RaiseServer(socket_name(self.paths.data_dir), self.window)
            self.pages.painted_already(opening.painted_from)
            self.flows.show_notice()  # a damaged or newer workspace list, said in words
            if opening.profile is None:
                self.flows.offer_first_run()
            else:
                await self.manager.open(opening.profile, opening.api_key, cache=opening.cache)
            if self.options.screenshot is not None:
                return await take_screenshot(
                    self.window, self.manager.session, self.options.screenshot
                )
            await self._closed
            return 0
        finally:
            await self.shutdown()

    def _guard_cache_reads(self) -> None:
        """A cache read that fails inside a page's slot (the calendar paging to another month)
        becomes a message, not a traceback on the terminal; other errors go on as before."""
        previous = sys.excepthook

        def hook(
            kind: type[BaseException], error: BaseException, trace: TracebackType | None
        ) -> None:
            if isinstance(error, CacheError):
                self.pages.cache_unreadable(error)
            else:
                previous(kind, error, trace)

        self._previous_hook = previous
        sys.excepthook = hook

    def quit(self) -> None:
        if not self._closed.done():
            from ui.quit_guard import quit_guard

            # Text only in memory (the drafts file refused it): ask first (issue 19 §2).
            if not quit_guard().ask_or_go(self.window, self.quit):
                return
            self._closed.set_result(None)

    async def _after_first_paint(self) -> None:
        """Let Qt paint the opened workspace before the slow parts; the first time, settle the heap.

        Those parts (the client's imports above all) hold the UI thread for a while. A new window
        is waited for until it is painted: the window manager may map it after any fixed delay.
        """
        window = self.window
        if not window.isVisible() or window.painted:
            await asyncio.sleep(REPAINT_TURN_S)
        else:
            painted: asyncio.Future[None] = asyncio.get_running_loop().create_future()

            def on_painted() -> None:
                if not painted.done():
                    painted.set_result(None)

            window.firstPainted.connect(on_painted)
            try:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(painted, FIRST_PAINT_LIMIT_S)
            finally:
                window.firstPainted.disconnect(on_painted)
        if not self._settled:
            self._settled = True
            settle_after_start()
        from ui.composer.emoji_picker import emoji_font_family

        emoji_font_family()  # emoji in every list drawn in colour, not as boxes (once)

    async def _saved_key(self, profile: Profile) -> str:
        return await self.flows.saved_key(profile)

    # -- shell commands (ui/shell/commands.py) ---
    def show_section(self, name: str) -> None:
        self.window.show_section(name)

    def new_post(self) -> None:
        self.pages.new_post()

    def import_csv(self) -> None:
        self.window.show_section("compose")  # its outbox shows the rows going out
        self.csv_actions().choose_import()

    def export_csv(self) -> None:
        self.csv_actions().choose_export()

    def csv_actions(self) -> CsvActions:
        """File ▸ Import CSV… and Export calendar to CSV… (the window's, built on first use)."""
        if self._csv_actions is None:
            from ui.calendar.timezone import system_time_zone
            from ui.shell.csv_actions import CsvActions

            self._csv_actions = CsvActions(
                self.window,
                lambda: self.manager.session,
                self.tasks,
                self.messages,
                system_time_zone,
            )
        return self._csv_actions

    def refresh(self) -> None:
        self.manager.retry()

    def choose_theme(self, choice: str) -> None:
        style.choose_theme(self.qt_app, choice)

    def has_session(self) -> bool:
        return self.manager.session is not None

    def has_saved_workspace(self) -> bool:
        profile = self.manager.profile
        return profile is not None and is_saved_profile(profile)

    def open_palette(self) -> None:
        from ui.shell.finder import palette_entries
        from ui.shell.palette import CommandPalette

        if self.palette is not None:
            self.palette.close()
            self.palette.deleteLater()
        self.palette = CommandPalette(palette_entries(self.registry, self.pages), self.window)
        self.palette.open()
        self.palette.query.setFocus()

    def show_shortcuts(self) -> None:
        from ui.shell.help import ShortcutsDialog

        self._show_help(ShortcutsDialog(self.registry.specs(), self.window))

    def show_about(self) -> None:
        from ui.shell.help import AboutDialog

        profile = self.manager.profile
        base_url = profile.base_url if profile is not None else None
        self._show_help(AboutDialog(base_url, self.paths.data_dir, self.window))

    def _show_help(self, dialog: QDialog) -> None:
        if self.help_dialog is not None:
            self.help_dialog.deleteLater()
        self.help_dialog = dialog
        dialog.open()

    def connect_workspace(self) -> None:
        self.flows.show_connect_dialog()

    def replace_key(self) -> None:
        if self.manager.profile is not None:
            self.flows.replace_key(self.manager.profile)

    def remove_workspace(self) -> None:
        self.flows.confirm_remove()

    def reset_demo(self) -> None:
        self.flows.confirm_reset_demo()

    # -- shutdown ---
    async def shutdown(self) -> None:
        await self.tasks.cancel_all()
        composer = self.pages.built_composer()
        if composer is not None:  # the last keystrokes reach the drafts file before the loop ends
            await composer.shutdown()
        await self.notifications.close()
        await self.manager.shutdown()
        if self._previous_hook is not None:
            sys.excepthook, self._previous_hook = self._previous_hook, None
        if self.raiser is not None:
            self.raiser.close()
        self._lock.release()
        self.window.close()
