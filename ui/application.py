"""Start-up, workspace switching and shutdown of one app run.

Order matters for the first paint: the window and the cached calendar show before anything slow
(keyring, the demo server, the network) happens.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hashlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from app.runtime.gc_policy import settle_after_start
from app.store import WorkspaceCache
from app.workspaces.profiles import Paths, Profile, ProfileStore, normalize_base_url
from ui.calendar import CalendarPage, InMemoryCalendarSource
from ui.cli import Options
from ui.messages import Level, Message, MessageBridge
from ui.panels.accounts import AccountsPanel
from ui.panels.planned import PLANNED_TEXT, PlannedPanel
from ui.shell.main_window import MainWindow
from ui.tasks import TaskGroup

# What the first paint does not need is imported where it is used: the start-up path stays light
# (tests/test_startup_imports.py).
if TYPE_CHECKING:
    from app.workspaces.demo import DemoSandbox
    from app.workspaces.key_vault import KeyVault
    from ui.dialogs.connect_workspace import ConnectWorkspaceDialog, WorkspaceForm
    from ui.dialogs.welcome import WelcomeDialog
    from ui.session import WorkspaceSession

# The demo server picks a free port at start; the real address replaces this one then.
DEMO_PROFILE = Profile(
    id="demo", name="Demo workspace", base_url="http://127.0.0.1/api", is_demo=True
)
SCREENSHOT_TIMEOUT_S = 90.0
FIRST_PAINT_LIMIT_S = 0.5
"""How long the slow start-up steps wait for the window's first paint (a minimized one may never
paint)."""
REPAINT_TURN_S = 0.01  # a timer turn: Qt handles the pending repaint before it fires


class StartupError(Exception):
    """Why this run cannot start, in words (printed on stderr, exit code 2)."""


def profile_for_base_url(base_url: str, server_timezone: str) -> Profile:
    url = normalize_base_url(base_url)
    digest = hashlib.sha256(url.encode()).hexdigest()[:12]
    return Profile(id=f"url-{digest}", name=url, base_url=url, server_timezone=server_timezone)


class Application:
    def __init__(self, qt_app: QApplication, options: Options, paths: Paths | None = None) -> None:
        self.qt_app = qt_app
        # The run coroutine decides when to stop: Qt quitting on its own would stop the loop
        # under it before the shutdown (sync tasks, demo server) is done.
        qt_app.setQuitOnLastWindowClosed(False)
        self.options = options
        self.paths = paths or Paths()
        self.profiles = ProfileStore(self.paths)
        self._vault: KeyVault | None = None
        self.messages = MessageBridge()
        self.tasks = TaskGroup(self.messages.error)
        self.window = MainWindow(self.messages)
        self.session: WorkspaceSession | None = None
        self.cache: WorkspaceCache | None = None
        # Built inside the window: moving a styled page in afterwards restyles each of its
        # widgets again (~18 ms for the calendar, at start).
        self.calendar = CalendarPage(InMemoryCalendarSource([]), parent=self.window.pages)
        self.window.set_page("calendar", self.calendar)
        # The other pages are built when first shown (~10 ms less before the first paint).
        self._accounts_panel: AccountsPanel | None = None
        self.window.set_page_builder("accounts", self._build_accounts_panel)
        for section in PLANNED_TEXT:
            self.window.set_page_builder(section, functools.partial(PlannedPanel, section))
        self._connect_calendar()
        self.profile: Profile | None = None
        self.demo: DemoSandbox | None = None
        self._switching = asyncio.Lock()
        self._settled = False
        # Open non-modal dialogs, kept so they live on (and tests can reach them).
        self.welcome_dialog: WelcomeDialog | None = None
        self.connect_dialog: ConnectWorkspaceDialog | None = None
        self.keyring_box: QMessageBox | None = None
        self.remove_box: QMessageBox | None = None
        self._closed: asyncio.Future[None] = asyncio.get_event_loop().create_future()
        self.window.closing.connect(self._on_window_closing)
        self._build_menus()

    @property
    def vault(self) -> KeyVault:
        if self._vault is None:
            from app.workspaces.key_vault import KeyVault

            # This run reads POSTDESK_API_KEY itself (--base-url only): saved workspaces never
            # see it.
            self._vault = KeyVault(environ={})
        return self._vault

    @property
    def accounts_panel(self) -> AccountsPanel:
        self.window.page("accounts")  # builds it the first time
        assert self._accounts_panel is not None
        return self._accounts_panel

    def _build_accounts_panel(self, parent: QWidget) -> AccountsPanel:
        self._accounts_panel = AccountsPanel(parent)
        self._show_accounts()
        return self._accounts_panel

    def _show_accounts(self) -> None:
        if self._accounts_panel is not None and self.cache is not None:
            self._accounts_panel.show_data(self.cache.accounts(), self.cache.count_posts())

    # -- run ---
    async def run(self) -> int:
        try:
            profile, api_key = self._initial_workspace()
            self.window.show_section(self.options.view)
            if self.options.date is not None:  # before any workspace: no reload of real data
                self.calendar.go_to(self.options.date)
            self.window.show()
            if profile is None:
                self._offer_first_run()
            else:
                await self.open_workspace(profile, api_key)
            if self.options.screenshot is not None:
                return await self._take_screenshot(self.options.screenshot)
            await self._closed
            return 0
        finally:
            await self.shutdown()

    def _on_window_closing(self) -> None:
        if not self._closed.done():
            self._closed.set_result(None)

    def _initial_workspace(self) -> tuple[Profile | None, str | None]:
        """The workspace of this run; None when the user has to choose one first.

        The key of a saved workspace is looked up later (None here): the keyring is slow.
        """
        if self.options.demo:
            return DEMO_PROFILE, ""
        if self.options.base_url:
            api_key = os.environ.get("POSTDESK_API_KEY", "").strip()
            if not api_key:
                raise StartupError(
                    "--base-url needs the API key in the POSTDESK_API_KEY environment variable."
                )
            try:
                profile = profile_for_base_url(self.options.base_url, self.options.server_timezone)
            except ValueError as error:
                raise StartupError(str(error)) from None
            return profile, api_key
        if self.options.screenshot is not None:
            raise StartupError("--screenshot needs --demo or --base-url.")
        saved = self._saved_profiles()
        active = self.profiles.active_id
        chosen = next((p for p in saved if p.id == active), saved[0] if saved else None)
        return chosen, None

    def _saved_profiles(self) -> list[Profile]:
        try:
            return self.profiles.load()
        except Exception as error:  # a corrupt file was moved aside; say so and start clean
            self.messages.error(error)
            return []

    # -- opening a workspace ---
    async def open_workspace(self, profile: Profile, api_key: str | None) -> None:
        async with self._switching:
            await self._close_workspace()
            self.profile = profile
            self.cache = WorkspaceCache(self.paths.profile_db(profile.id))
            if self.cache.reset is not None:
                self.messages.post(Message(self.cache.reset.message, Level.WARNING))
            self.window.set_workspace_name(profile.name)
            self.calendar.set_source(self.cache)  # paints the cached calendar at once
            self._refresh_workspace_menu()
            await self._after_first_paint()
            self._show_accounts()
            if profile.is_demo:
                profile, api_key = await self._start_demo(profile)
            if api_key is None:
                api_key = await self._saved_key(profile)
                if api_key is None:
                    return
            from ui.session import WorkspaceSession  # the client and models: ~250 ms of imports

            session = WorkspaceSession(profile, api_key, self.cache, self.messages)
            session.syncStateChanged.connect(self.window.show_sync_state)
            session.dataChanged.connect(self._paint_from_cache)
            self.session = session
            session.start()

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

    async def _saved_key(self, profile: Profile) -> str | None:
        from app.workspaces.key_vault import KeyringUnavailable

        try:
            key = await asyncio.to_thread(self.vault.get, profile.id)
        except KeyringUnavailable as error:
            self.messages.post(
                Message(
                    str(error),
                    Level.WARNING,
                    hint="Connect the workspace again to use it this session.",
                )
            )
            return None
        if key is None:
            self.messages.post(
                Message(
                    f"No API key is stored for {profile.name}.",
                    Level.WARNING,
                    hint="Use Workspace → Connect a workspace… to enter it again.",
                )
            )
        return key

    async def _start_demo(self, profile: Profile) -> tuple[Profile, str]:
        from app.workspaces.demo import DemoSandbox

        if self.demo is None or not self.demo.running:
            self.demo = DemoSandbox(
                self.paths.data_dir / "demo-sandbox.sqlite3", posts=self.options.demo_posts
            )
            self._demo_endpoint = await asyncio.to_thread(self.demo.start)
        endpoint = self._demo_endpoint
        return dataclasses.replace(profile, base_url=endpoint.base_url), endpoint.api_key

    async def _close_workspace(self) -> None:
        session, self.session = self.session, None
        cache, self.cache = self.cache, None
        if session is not None:
            await session.close()
        elif cache is not None:
            cache.close()

    def _paint_from_cache(self) -> None:
        if self.cache is None:
            return
        self.calendar.reload()
        self._show_accounts()

    # -- calendar actions ---
    def _connect_calendar(self) -> None:
        calendar = self.calendar
        calendar.rescheduleRequested.connect(
            lambda post_id, when: self._with_session(lambda s: s.reschedule(post_id, when))
        )
        calendar.publishNowRequested.connect(
            lambda post_id: self._with_session(lambda s: s.publish_now(post_id))
        )
        calendar.unscheduleRequested.connect(
            lambda post_id: self._with_session(lambda s: s.unschedule(post_id))
        )
        calendar.duplicateRequested.connect(
            lambda post_id: self._with_session(lambda s: s.duplicate(post_id))
        )
        calendar.deleteRequested.connect(
            lambda post_id: self._with_session(lambda s: s.delete(post_id))
        )
        calendar.newPostRequested.connect(lambda _day: self.window.show_section("compose"))

    def _with_session(self, action: Callable[[WorkspaceSession], object]) -> None:
        if self.session is None:
            self.messages.post(
                Message(
                    "Not connected to a workspace yet.",
                    Level.WARNING,
                    hint="Wait for the connection, or connect a workspace.",
                )
            )
            return
        action(self.session)

    # -- workspaces menu ---
    def _build_menus(self) -> None:
        bar = self.window.menuBar()
        self.workspace_menu = bar.addMenu("&Workspace")
        view = bar.addMenu("&View")
        refresh = QAction("Refresh", self.window)
        refresh.setShortcut(QKeySequence.StandardKey.Refresh)
        refresh.triggered.connect(self._refresh)
        view.addAction(refresh)
        new_post = QAction("New post", self.window)
        new_post.setShortcut(QKeySequence.StandardKey.New)
        new_post.triggered.connect(lambda: self.window.show_section("compose"))
        view.addAction(new_post)
        view.addSeparator()
        for action in [*self.calendar.view_actions(), *self.calendar.navigation_actions()]:
            view.addAction(action)
        posts = bar.addMenu("&Post")
        for action in self.calendar.post_action_list():
            posts.addAction(action)
        self._refresh_workspace_menu()

    def _refresh_workspace_menu(self) -> None:
        menu = self.workspace_menu
        menu.clear()
        for profile in [*self._saved_profiles_quiet(), DEMO_PROFILE]:
            action = menu.addAction(profile.name)
            action.setCheckable(True)
            action.setChecked(self.profile is not None and self.profile.id == profile.id)
            action.triggered.connect(lambda _=False, p=profile: self._switch_to(p))
        menu.addSeparator()
        connect = menu.addAction("Connect a workspace…")
        connect.triggered.connect(self._show_connect_dialog)
        if self.profile is not None and not self.profile.is_demo and not self._one_run_profile():
            remove = menu.addAction(f"Remove {self.profile.name}…")
            remove.triggered.connect(self._confirm_remove)

    def _one_run_profile(self) -> bool:
        return self.profile is not None and self.profile.id.startswith("url-")

    def _saved_profiles_quiet(self) -> list[Profile]:
        try:
            return self.profiles.load()
        except Exception:
            return []

    def _switch_to(self, profile: Profile) -> None:
        if profile.is_demo:
            self.tasks.spawn(self.open_workspace(profile, ""))
            return
        self.profiles.active_id = profile.id
        self.tasks.spawn(self.open_workspace(profile, None))

    def _refresh(self) -> None:
        if self.session is not None:
            self.session.refresh()

    def _offer_first_run(self) -> None:
        from ui.dialogs.welcome import WelcomeDialog

        dialog = WelcomeDialog(self.window)
        dialog.connectChosen.connect(self._show_connect_dialog)
        dialog.demoChosen.connect(lambda: self._switch_to(DEMO_PROFILE))
        dialog.open()
        self.welcome_dialog = dialog

    def _show_connect_dialog(self) -> None:
        from ui.dialogs.connect_workspace import ConnectWorkspaceDialog

        dialog = ConnectWorkspaceDialog(self._verify, self.window)
        dialog.connected.connect(self._on_connected)
        dialog.open()
        self.connect_dialog = dialog

    async def _verify(self, form: WorkspaceForm) -> None:
        from app.workspaces.verification import verify_workspace

        await verify_workspace(form.base_url, form.api_key, form.server_timezone)

    def _on_connected(self, form: WorkspaceForm) -> None:
        from app.workspaces.key_vault import KeyringUnavailable

        profile = Profile.create(form.name, form.base_url, form.server_timezone)
        try:
            self.vault.set(profile.id, form.api_key)
        except KeyringUnavailable as error:
            self._ask_session_only(profile, form.api_key, str(error))
            return
        self._remember(profile)
        self.tasks.spawn(self.open_workspace(profile, form.api_key))

    def _remember(self, profile: Profile) -> None:
        self.profiles.add(profile)
        self.profiles.active_id = profile.id

    def _ask_session_only(self, profile: Profile, api_key: str, reason: str) -> None:
        box = QMessageBox(self.window)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("No keyring available")
        box.setText(reason)
        box.setInformativeText(
            "Postdesk stores API keys only in the system keyring, never in a file. Keep the key "
            "for this session only? You will have to enter it again next time."
        )
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel)

        def answered(button: int) -> None:
            if button == QMessageBox.StandardButton.Yes:
                self.vault.set(profile.id, api_key, session_only=True)
                self._remember(profile)
                self.tasks.spawn(self.open_workspace(profile, api_key))

        box.finished.connect(answered)
        box.open()
        self.keyring_box = box

    def _confirm_remove(self) -> None:
        profile = self.profile
        if profile is None:
            return
        box = QMessageBox(self.window)
        box.setWindowTitle("Remove workspace")
        box.setText(f"Remove {profile.name} from Postdesk?")
        box.setInformativeText(
            "Its API key is deleted from the keyring and its local cache "
            "is dropped. Nothing changes on the server."
        )
        box.setStandardButtons(QMessageBox.StandardButton.Ok | QMessageBox.StandardButton.Cancel)

        def answered(button: int) -> None:
            if button == QMessageBox.StandardButton.Ok:
                self.tasks.spawn(self._remove(profile))

        box.finished.connect(answered)
        box.open()
        self.remove_box = box

    async def _remove(self, profile: Profile) -> None:
        from app.workspaces.key_vault import KeyringUnavailable

        await self._close_workspace()
        with contextlib.suppress(KeyringUnavailable):
            self.vault.delete(profile.id)
        self.profiles.remove(profile.id)
        self.paths.profile_db(profile.id).unlink(missing_ok=True)
        self.profile = None
        remaining = self._saved_profiles_quiet()
        if remaining:
            self._switch_to(remaining[0])
        else:
            self._refresh_workspace_menu()
            self._offer_first_run()

    # -- screenshot mode ---
    async def _take_screenshot(self, path: Path) -> int:
        if self.session is None:
            print("postdesk: no workspace is connected", file=sys.stderr)
            return 1
        finished: asyncio.Future[bool] = asyncio.get_event_loop().create_future()
        if self.session.first_sync_ok is not None:
            finished.set_result(self.session.first_sync_ok)

        def first_sync_finished(ok: bool) -> None:
            if not finished.done():
                finished.set_result(ok)

        self.session.firstSyncFinished.connect(first_sync_finished)
        try:
            ok = await asyncio.wait_for(finished, SCREENSHOT_TIMEOUT_S)
        except TimeoutError:
            print(
                f"postdesk: the first sync did not finish in {SCREENSHOT_TIMEOUT_S:.0f} s",
                file=sys.stderr,
            )
            return 1
        if not ok:
            state = self.session.state
            reason = state.message if state is not None else "unknown error"
            print(f"postdesk: the first sync failed: {reason}", file=sys.stderr)
            return 1
        await asyncio.sleep(0.3)  # let the repaint triggered by the sync land
        path.parent.mkdir(parents=True, exist_ok=True)
        if not self.window.grab().save(str(path)):
            print(f"postdesk: could not write the screenshot to {path}", file=sys.stderr)
            return 1
        return 0

    # -- shutdown ---
    async def shutdown(self) -> None:
        await self.tasks.cancel_all()
        await self._close_workspace()
        if self.demo is not None:
            await asyncio.to_thread(self.demo.stop)
            self.demo = None
        self.window.close()
