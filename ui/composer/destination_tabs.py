"""The editor's tabs: *All destinations* (the shared text) and one tab per chosen destination,
rebuilt when the destinations change, keeping the tab the user was on."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QTabWidget, QWidget

from ui.composer.editors import DestinationTab, SharedEditor, TextEditor
from ui.composer.field_errors import FieldErrors
from ui.composer.state import ComposerState
from ui.composer.workspace_data import WorkspaceData
from ui.icons import network_icon, network_name

if TYPE_CHECKING:
    from ui.session import WorkspaceSession


class DestinationTabs(QTabWidget):
    def __init__(
        self,
        state: ComposerState,
        data: WorkspaceData,
        errors: FieldErrors,
        shared: SharedEditor,
        on_editor_focus: Callable[[TextEditor], None],
        session: Callable[[], WorkspaceSession | None],
    ) -> None:
        super().__init__()
        self.state = state
        self.data = data
        self.errors = errors
        self._on_editor_focus = on_editor_focus
        self._session = session
        self.by_account: dict[str, DestinationTab] = {}
        self.setObjectName("composerTabs")
        self.setAccessibleName("Post text by destination")
        self.tabBar().setAccessibleName("Shared text and each destination")
        self.addTab(shared, "All destinations")

    def rebuild(self) -> None:
        current = self.currentWidget()
        current_account = next((a for a, t in self.by_account.items() if t is current), None)
        for tab in self.by_account.values():
            self.removeTab(self.indexOf(tab))
            tab.deleteLater()
        self.by_account.clear()
        for i, dest in enumerate(self.state.doc.destinations):
            tab = DestinationTab(
                self.state, i, self.data, self.errors, self._open_audio, self._on_editor_focus
            )
            self.addTab(tab, network_icon(dest.platform), network_name(dest.platform))
            self.by_account[dest.account_id] = tab
        if current_account in self.by_account:
            self.setCurrentWidget(self.by_account[current_account])

    def refresh(self) -> None:
        for tab in self.by_account.values():
            tab.refresh()

    def tab_of(self, account_id: str) -> QWidget | None:
        return self.by_account.get(account_id)

    def _open_audio(self, account_id: str, done: Callable[[dict[str, Any]], None]) -> None:
        account = self.data.accounts_by_id().get(account_id)
        session = self._session()
        if session is None or account is None:
            return
        from ui.composer.audio_picker import AudioPickerDialog  # built on first use

        dialog = AudioPickerDialog(session.client.audio, account, parent=self)
        dialog.chosen.connect(lambda track: done({"id": str(track.id), "title": track.title}))
        self.audio_dialog = dialog
        dialog.open()
