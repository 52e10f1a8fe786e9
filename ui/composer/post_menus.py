"""*Signature ▾* and *Labels ▾* beside the shared text: a signature goes into the text field
used last (shared or a destination's own), labels are ticked from the workspace's list."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QMenu, QPushButton, QWidget

from ui.composer.editors import SharedEditor, TextEditor
from ui.composer.state import ComposerState
from ui.composer.workspace_data import WorkspaceData


class PostMenus:
    def __init__(
        self, state: ComposerState, data: WorkspaceData, shared: SharedEditor, parent: QWidget
    ) -> None:
        self.state = state
        self.data = data
        self.shared = shared
        self.parent = parent
        self.last_editor: TextEditor | None = None
        self.open_signatures_menu: QMenu | None = None
        self.signature_button = QPushButton("Signature ▾")
        self.signature_button.setObjectName("signatureButton")
        self.signature_button.setAccessibleName("Insert a signature")
        self.signature_button.clicked.connect(self.show_signatures)
        self.labels_button = QPushButton("Labels ▾")
        self.labels_button.setObjectName("labelsButton")
        self.labels_button.setAccessibleName("Labels of the post")
        self.labels_button.clicked.connect(self.show_labels)
        self.labels_text = QLabel()
        shared.tools.addWidget(self.signature_button)
        shared.tools.addWidget(self.labels_button)
        shared.tools.addWidget(self.labels_text, 1)
        data.signaturesChanged.connect(self._signatures_changed)

    # -- labels --------------------------------------------------------------------------------
    def show_labels(self) -> None:
        menu = self.labels_menu()
        menu.popup(self.labels_button.mapToGlobal(self.labels_button.rect().bottomLeft()))

    def labels_menu(self) -> QMenu:
        menu = QMenu(self.parent)
        chosen = set(self.state.doc.labels)
        for label in self.data.labels():
            action = menu.addAction(label.shown_name)
            action.setCheckable(True)
            action.setChecked(label.id in chosen)
            action.toggled.connect(lambda on, lid=label.id: self._toggle_label(lid, on))
        if menu.isEmpty():
            menu.addAction("No labels in this workspace").setEnabled(False)
        return menu

    def _toggle_label(self, label_id: str, on: bool) -> None:
        labels = [x for x in self.state.doc.labels if x != label_id]
        if on:
            labels.append(label_id)
        self.state.set_labels(labels)

    def show_labels_text(self) -> None:
        names = {lb.id: lb.shown_name for lb in self.data.labels()}
        chosen = [names.get(i, "unknown label") for i in self.state.doc.labels]
        self.labels_text.setText(", ".join(chosen))

    # -- signatures ----------------------------------------------------------------------------
    def remember_editor(self, editor: TextEditor) -> None:
        self.last_editor = editor

    def show_signatures(self) -> None:
        self.data.load_signatures()
        menu = self.signatures_menu()
        # Filled again when the signatures arrive: the first open read "Loading…" forever.
        self.open_signatures_menu = menu
        menu.popup(self.signature_button.mapToGlobal(self.signature_button.rect().bottomLeft()))

    def signatures_menu(self) -> QMenu:
        menu = QMenu(self.parent)
        menu.setAccessibleName("Signatures")
        self._fill_signatures(menu)
        return menu

    def _fill_signatures(self, menu: QMenu) -> None:
        menu.clear()
        if self.data.signatures is None:
            menu.addAction("Loading signatures…").setEnabled(False)
            return
        for signature in self.data.signatures:
            sub = menu.addMenu(signature.name)
            sub.addAction("Insert at the cursor").triggered.connect(
                lambda _=False, text=signature.content: self.insert_signature(text, append=False)
            )
            sub.addAction("Append at the end").triggered.connect(
                lambda _=False, text=signature.content: self.insert_signature(text, append=True)
            )
        if menu.isEmpty():
            menu.addAction(self.data.signatures_reason or "No signatures yet").setEnabled(False)

    def insert_signature(self, text: str, *, append: bool) -> None:
        """Into the editor last used (shared, or a destination's own text)."""
        editor = self.last_editor
        if editor is None or editor.isReadOnly():
            editor = self.shared.text
        if append:
            editor.append_text(text)
        else:
            editor.insert_at_cursor(text)
        editor.setFocus()

    def _signatures_changed(self) -> None:
        menu = self.open_signatures_menu
        if menu is not None and menu.isVisible():
            self._fill_signatures(menu)
            menu.adjustSize()
        missing = self.data.signatures == [] and bool(self.data.signatures_reason)
        self.signature_button.setEnabled(not missing)
        self.signature_button.setToolTip(self.data.signatures_reason if missing else "")
