"""What the user does with workspaces: connect one, replace or enter a key, switch, remove, reset
the demo. Dialogs are opened with `open()` (never `exec()`), keyring calls run off the GUI
thread, and every coroutine is owned by the app's or the workspace's task group."""

from __future__ import annotations

import contextlib
import dataclasses
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QMessageBox

from app.workspaces.profiles import (
    ConfigError,
    Profile,
    ProfilesDamaged,
    ProfilesReadOnly,
    ProfileStore,
)
from ui.messages import Level, Message, MessageBridge
from ui.shell.first_workspace import DEMO_PROFILE, is_saved_profile
from ui.tasks import TaskGroup
from ui.workspace_manager import KeyNeeded, WorkspaceManager

if TYPE_CHECKING:
    from app.workspaces.key_vault import KeyVault
    from ui.dialogs.connect_workspace import ConnectWorkspaceDialog, WorkspaceForm
    from ui.dialogs.welcome import WelcomeDialog
    from ui.shell.main_window import MainWindow


class WorkspaceFlows:
    def __init__(
        self,
        window: MainWindow,
        manager: WorkspaceManager,
        profiles: ProfileStore,
        messages: MessageBridge,
        tasks: TaskGroup,
    ) -> None:
        self.window = window
        self.manager = manager
        self.profiles = profiles
        self.messages = messages
        self.tasks = tasks
        self._vault: KeyVault | None = None
        # Open non-modal dialogs, kept so they live on (and tests can reach them).
        self.welcome_dialog: WelcomeDialog | None = None
        self.connect_dialog: ConnectWorkspaceDialog | None = None
        self.keyring_box: QMessageBox | None = None
        self.remove_box: QMessageBox | None = None
        self.reset_box: QMessageBox | None = None
        manager.keyNeeded.connect(self._on_key_needed)
        manager.keyProblem.connect(self.replace_key)

    @property
    def vault(self) -> KeyVault:
        if self._vault is None:
            from app.workspaces.key_vault import KeyVault

            # This run reads POSTDESK_API_KEY itself (--base-url only): saved workspaces never
            # see it.
            self._vault = KeyVault(environ={})
        return self._vault

    # -- the saved key ---
    async def saved_key(self, profile: Profile) -> str:
        from app.workspaces.key_vault import KeyringUnavailable

        try:
            key = await self.vault.get_async(profile.id)
        except KeyringUnavailable as error:
            raise KeyNeeded(str(error), keyring_missing=True) from None
        if key is None:
            raise KeyNeeded(f"No API key is stored for {profile.name}.", keyring_missing=False)
        return key

    def _on_key_needed(self, profile: Profile, needed: KeyNeeded) -> None:
        self.window.show_connection_text("Not connected — no API key")
        self.manager.scope.post(
            Message(
                needed.why,
                Level.WARNING,
                hint=key_needed_hint(self._saved_posts()),
                action_label="Enter key…",
                action=lambda: self.enter_key(
                    profile, session_only=needed.keyring_missing, why=needed.why
                ),
                topic="key",
            )
        )
        self.enter_key(profile, session_only=needed.keyring_missing, why=needed.why)

    def _saved_posts(self) -> int:
        """Posts in the workspace's cache (0 when there is none or it cannot be read)."""
        cache = self.manager.cache
        try:
            return 0 if cache is None else cache.count_posts()
        except Exception:  # an unreadable cache has nothing to show either
            return 0

    # -- the workspace list ---
    def saved_profiles(self, *, quiet: bool = False) -> list[Profile]:
        """The saved workspaces; none when the file cannot be read (`show_notice` says why)."""
        try:
            return self.profiles.load()
        except ConfigError as error:
            if not quiet:
                self.show_problem(error)
            return []

    def show_notice(self) -> None:
        """Tell what is wrong with the workspace list file, if anything (damaged, or from a
        newer Postdesk and so left unchanged)."""
        notice = self.profiles.notice()
        if notice is not None:
            self.show_problem(notice)

    def show_problem(self, error: ConfigError) -> None:
        level = Level.WARNING
        if isinstance(error, ProfilesDamaged):
            level, hint = Level.ERROR, "Your API keys and saved posts are untouched."
        elif isinstance(error, ProfilesReadOnly):
            hint = "The change was kept for this run only; the file was not changed."
        else:
            hint = ""
        self.messages.post(Message(str(error), level, hint=hint, topic="profiles"))

    # -- switching ---
    def switch_to(self, profile: Profile) -> None:
        if profile.is_demo:
            self.tasks.spawn(self.manager.open(profile, ""))
            return
        try:
            self.profiles.active_id = profile.id
        except (ConfigError, KeyError) as error:
            # Opening it still works; only the choice for the next start is not remembered.
            if isinstance(error, ConfigError):
                self.show_problem(error)
        self.tasks.spawn(self.manager.open(profile, None))

    def menu_items(self, menu: QMenu) -> list[QAction]:
        """The workspace list for the Workspace menu (the current one checked)."""
        current = self.manager.profile
        items = []
        for profile in [*self.saved_profiles(quiet=True), DEMO_PROFILE]:
            action = QAction(profile.name, menu)
            action.setCheckable(True)
            action.setChecked(current is not None and current.id == profile.id)
            action.triggered.connect(lambda _=False, p=profile: self.switch_to(p))
            items.append(action)
        return items

    # -- first run ---
    def offer_first_run(self) -> None:
        from ui.dialogs.welcome import WelcomeDialog

        dialog = WelcomeDialog(self.window)
        dialog.connectChosen.connect(self.show_connect_dialog)
        dialog.demoChosen.connect(lambda: self.switch_to(DEMO_PROFILE))
        dialog.open()
        self.welcome_dialog = dialog

    # -- connecting ---
    def show_connect_dialog(self) -> None:
        self._open_connect_dialog(None, session_only=False)

    def replace_key(self, profile: Profile) -> None:
        """The server refused the key: enter a new one for this same workspace."""
        self._open_connect_dialog(profile, session_only=False)

    def enter_key(self, profile: Profile, *, session_only: bool, why: str | None = None) -> None:
        """`why`: the keyring's own words (locked, missing...) when it is the reason."""
        self._open_connect_dialog(profile, session_only=session_only, why=why)

    def _open_connect_dialog(
        self, existing: Profile | None, *, session_only: bool, why: str | None = None
    ) -> None:
        from ui.dialogs.connect_workspace import ConnectWorkspaceDialog, WorkspaceForm

        if self.connect_dialog is not None and self.connect_dialog.isVisible():
            self.connect_dialog.raise_()
            return
        prefill = None
        if existing is not None:
            prefill = WorkspaceForm(existing.name, existing.base_url, "", existing.server_timezone)
        dialog = ConnectWorkspaceDialog(self._verify, self.window, prefill=prefill)
        if existing is not None:
            dialog.setWindowTitle(f"API key for {existing.name}")
        if session_only:
            dialog.set_intro(session_only_intro(why))
        elif existing is not None:
            dialog.set_intro(f"Enter a new API key for {existing.name}.")
        dialog.connected.connect(
            lambda form: self.tasks.spawn(self._connected(form, existing, session_only))
        )
        dialog.open()
        self.connect_dialog = dialog

    async def _verify(self, form: WorkspaceForm) -> None:
        from app.workspaces.verification import verify_workspace

        await verify_workspace(form.base_url, form.api_key, form.server_timezone)

    def _saved_as(self, form: WorkspaceForm, existing: Profile | None) -> tuple[Profile, bool]:
        """The workspace the form is saved as, and whether it was new. Connecting the same
        name and address again updates that workspace (same id, same key entry).
        ProfilesReadOnly when the list belongs to a newer Postdesk."""
        known_ids = {p.id for p in self.saved_profiles(quiet=True)}
        if existing is not None and existing.id in known_ids:
            profile = dataclasses.replace(
                existing,
                name=form.name,
                base_url=form.base_url,
                server_timezone=form.server_timezone,
            )
            if profile != existing:
                self.profiles.update(profile)
            return profile, False
        profile = self.profiles.upsert_by_address(form.name, form.base_url, form.server_timezone)
        return profile, profile.id not in known_ids

    async def _connected(
        self, form: WorkspaceForm, existing: Profile | None, session_only: bool
    ) -> None:
        from app.workspaces.key_vault import KeyringUnavailable

        try:
            profile, new = self._saved_as(form, existing)
        except ConfigError as error:
            # The list cannot be changed (a newer Postdesk's file, or an unwritable folder):
            # the workspace is still used for this run, its key kept in memory only.
            self.show_problem(error)
            profile = existing or Profile.create(form.name, form.base_url, form.server_timezone)
            self.vault.set(profile.id, form.api_key, session_only=True)  # memory only
            await self.manager.open(profile, form.api_key)
            return
        try:
            await self.vault.set_async(profile.id, form.api_key, session_only=session_only)
        except KeyringUnavailable as error:
            self._ask_session_only(profile, form.api_key, str(error), new)
            return
        await self._remember_and_open(profile, form.api_key)

    async def _remember_and_open(self, profile: Profile, api_key: str) -> None:
        try:
            self.profiles.active_id = profile.id
        except ConfigError as error:
            self.show_problem(error)
        await self.manager.open(profile, api_key)

    def _ask_session_only(self, profile: Profile, api_key: str, reason: str, new: bool) -> None:
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
                self.vault.set(profile.id, api_key, session_only=True)  # memory only
                self.tasks.spawn(self._remember_and_open(profile, api_key))
            elif new:
                # Not connected after all: no workspace without a key is left in the list.
                with contextlib.suppress(ConfigError):
                    self.profiles.remove(profile.id)

        box.finished.connect(answered)
        box.open()
        self.keyring_box = box

    # -- removing ---
    def confirm_remove(self) -> None:
        from app.store.local_store import LocalStoreError, local_store_path, unsent_work

        profile = self.manager.profile
        if profile is None or not is_saved_profile(profile):
            return
        local = local_store_path(self.manager.paths, profile.id)
        keep_local = False
        details = "Its API key is deleted from the keyring and its local cache is dropped. "
        try:
            unsent = unsent_work(local)
        except LocalStoreError as error:
            # The user's own writing may be in a file we cannot read: never delete it unseen.
            keep_local = True
            details += f"Its drafts file cannot be read ({error}); it is kept at {local}. "
        else:
            if not unsent.empty:
                details += (
                    f"Its {_count(unsent.drafts, 'unsent draft')} and "
                    f"{_count(unsent.outbox, 'post')} waiting in the outbox on this computer "
                    "are deleted too. "
                )
        box = QMessageBox(self.window)
        box.setWindowTitle("Remove workspace")
        box.setText(f"Remove {profile.name} from Postdesk?")
        box.setInformativeText(details + "Nothing changes on the server.")
        box.setStandardButtons(QMessageBox.StandardButton.Ok | QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)

        def answered(button: int) -> None:
            if button == QMessageBox.StandardButton.Ok:
                self.tasks.spawn(self._remove(profile, keep_local=keep_local))

        box.finished.connect(answered)
        box.open()
        self.remove_box = box

    async def _remove(self, profile: Profile, *, keep_local: bool = False) -> None:
        from app.store.local_store import local_store_path
        from app.workspaces.demo import remove_database
        from app.workspaces.key_vault import KeyringUnavailable

        try:
            self.profiles.remove(profile.id)  # first: a list that cannot change keeps all
        except ConfigError as error:
            self.show_problem(error)
            return
        await self.manager.close()
        # Without a keyring nothing was stored there, so nothing is left behind.
        with contextlib.suppress(KeyringUnavailable):
            await self.vault.delete_async(profile.id)
        remove_database(self.manager.paths.profile_db(profile.id))
        if not keep_local:
            remove_database(local_store_path(self.manager.paths, profile.id))
        remaining = self.saved_profiles(quiet=True)
        if remaining:
            self.switch_to(remaining[0])
        else:
            self.offer_first_run()

    # -- the demo ---
    def confirm_reset_demo(self) -> None:
        box = QMessageBox(self.window)
        box.setWindowTitle("Reset demo data")
        box.setText("Start the demo workspace afresh?")
        box.setInformativeText(
            "Every change made in the demo workspace is lost, and new demo posts are made "
            "around today. Your own workspaces are not touched."
        )
        box.setStandardButtons(QMessageBox.StandardButton.Reset | QMessageBox.StandardButton.Cancel)

        def answered(button: int) -> None:
            if button == QMessageBox.StandardButton.Reset:
                self.tasks.spawn(self.manager.reset_demo())

        box.finished.connect(answered)
        box.open()
        self.reset_box = box


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def key_needed_hint(saved_posts: int) -> str:
    """What the user sees meanwhile: the saved posts only when there are some."""
    if saved_posts > 0:
        return "The saved posts are shown. Enter the key to connect."
    return "Enter the key to connect and see the posts."


def session_only_intro(why: str | None) -> str:
    """The connect dialog's first words when the key can be kept for this session only: the
    keyring's reason (locked is not missing), then what entering the key does."""
    reason = why or "No system keyring is available, so the key cannot be stored."
    return f"{reason}\n\nEnter the key to use this workspace until Postdesk quits."
