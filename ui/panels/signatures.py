"""Signatures: reusable text appended to posts. Paginated (the server sets the page size);
create, edit, delete, and a preview of how the text reads under a post."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.api.errors import ApiError, ValidationFailed
from app.content.text_render import html_to_text, looks_like_html
from app.models.labels import Signature
from app.models.pagination import Page
from app.models.requests import SignatureInput
from ui.action_spec import ActionSpec
from ui.panels.base import PanelPage, submit
from ui.panels.webhooks.dialogs import error_label, show_error
from ui.widgets.long_text_view import LongTextView, short_text

NEW = "new"
SAMPLE_POST = "Fresh roast of the week is in — come by for a taste."


def preview_text(content: str) -> str:
    """How a signature reads appended to a post (editor HTML shown as plain text)."""
    return f"{SAMPLE_POST}\n\n{html_to_text(content) if looks_like_html(content) else content}"


class SignatureForm(QDialog):
    submitted = Signal(str, str)

    def __init__(self, parent: QWidget | None, signature: Signature | None = None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle("Edit signature" if signature else "New signature")
        self.setMinimumSize(460, 360)
        self.name_edit = QLineEdit(signature.name if signature else "")
        self.name_edit.setAccessibleName("Signature name")
        self.name_error = error_label()
        self.content_edit = QPlainTextEdit()
        # Wrapped at words only: a long line without spaces from the server would otherwise
        # take quadratic time to lay out (see ui/widgets/long_text_view.py).
        self.content_edit.setWordWrapMode(QTextOption.WrapMode.WordWrap)
        self.content_edit.setPlainText(signature.content if signature else "")
        self.content_edit.setAccessibleName("Signature text")
        self.content_error = error_label()
        self.preview = LongTextView("Preview under a post")
        self.content_edit.textChanged.connect(self._update_preview)
        self.form_error = error_label()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.buttons.accepted.connect(self._submit)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Name"))
        layout.addWidget(self.name_edit)
        layout.addWidget(self.name_error)
        layout.addWidget(QLabel("Text"))
        layout.addWidget(self.content_edit, 2)
        layout.addWidget(self.content_error)
        layout.addWidget(QLabel("Preview under a post"))
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.form_error)
        layout.addWidget(self.buttons)
        self._update_preview()

    def _update_preview(self) -> None:
        self.preview.setPlainText(preview_text(self.content_edit.toPlainText()))

    def _submit(self) -> None:
        name, content = self.name_edit.text().strip(), self.content_edit.toPlainText()
        show_error(self.name_error, "" if name else "Enter a name.")
        show_error(self.content_error, "" if content.strip() else "Enter the signature text.")
        show_error(self.form_error, "")
        if name and content.strip():
            self.submitted.emit(name, content)

    def set_busy(self, busy: bool) -> None:
        self.save_button.setEnabled(not busy)
        self.save_button.setText("Saving…" if busy else "Save")

    def show_errors(self, error: ApiError) -> None:
        if isinstance(error, ValidationFailed) and (
            error.for_field("name") or error.for_field("content")
        ):
            show_error(self.name_error, " ".join(error.for_field("name")))
            show_error(self.content_error, " ".join(error.for_field("content")))
            return
        show_error(self.form_error, f"{error.message} {error.hint}".strip())


class SignaturesPage(PanelPage):
    TITLE = "Signatures"
    MISSING_TEXT = (
        "Signatures are not available on this deployment of the API (it has no /signatures route)."
    )

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.page_number = 1
        self.current: Page[Signature] | None = None
        self.form: SignatureForm | None = None
        title = QLabel("Signatures")
        title.setObjectName("panelTitle")
        self.new_button = QPushButton("New signature…")
        self.edit_button = QPushButton("Edit…")
        self.delete_button = QPushButton("Delete…")
        self.new_button.clicked.connect(lambda: self._open_form(None))
        self.edit_button.clicked.connect(self.open_edit)
        self.delete_button.clicked.connect(self.ask_delete)
        top = QHBoxLayout()
        top.addWidget(title)
        top.addStretch(1)
        for button in (self.new_button, self.edit_button, self.delete_button):
            top.addWidget(button)
        self.list = QListWidget()
        self.list.itemSelectionChanged.connect(self._selection_changed)
        self.list.itemDoubleClicked.connect(lambda _item: self.open_edit())
        self.list.setAccessibleName("Signatures")
        self.preview = LongTextView("Signature preview under a post")
        self.preview.setPlaceholderText("Select a signature to preview it under a post.")
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.list)
        splitter.addWidget(self.preview)
        self.prev_button = QPushButton("‹ Newer")
        self.prev_button.setAccessibleName("Newer signatures")
        self.next_button = QPushButton("Older ›")
        self.next_button.setAccessibleName("Older signatures")
        self.page_label = QLabel()
        self.prev_button.clicked.connect(lambda: self.go_to(self.page_number - 1))
        self.next_button.clicked.connect(lambda: self.go_to(self.page_number + 1))
        pager = QHBoxLayout()
        pager.addWidget(self.prev_button)
        pager.addWidget(self.page_label, 1, Qt.AlignmentFlag.AlignCenter)
        pager.addWidget(self.next_button)
        layout = QVBoxLayout(self.content)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)
        layout.addLayout(pager)
        self._selection_changed()
        self._update_pager()

    def action_specs(self) -> list[ActionSpec]:
        return [
            ActionSpec(
                "signatures.new",
                "New signature…",
                lambda: self._open_form(None),
                scope="signatures",
                enabled=lambda: self.session is not None,
                help="Create a signature",
            )
        ]

    def session_changed(self) -> None:
        self.page_number = 1
        self.current = None
        self.list.clear()
        self._update_pager()

    def reload(self) -> None:
        self.go_to(self.page_number)

    def go_to(self, number: int) -> None:
        if self.session is not None and number >= 1:
            self.spawn(self._load(number))

    async def _load(self, number: int) -> None:
        assert self.session is not None
        try:
            page = await self.session.client.signatures.page(number)
        except ApiError as error:
            if not self.explain_missing(error):
                raise
            return
        if not page.data and number > 1:  # the last page emptied by a delete
            await self._load(number - 1)
            return
        self.page_number = number
        self.current = page
        self.list.clear()
        for signature in page.data:
            item = QListWidgetItem(short_text(signature.name))
            item.setData(Qt.ItemDataRole.UserRole, signature.id)
            item.setToolTip(signature.content[:300])
            self.list.addItem(item)
        self._update_pager()
        self._selection_changed()

    def _update_pager(self) -> None:
        page = self.current
        if page is None:
            self.page_label.setText("")
            self.prev_button.setEnabled(False)
            self.next_button.setEnabled(False)
            return
        total = "" if page.meta.total is None else f" · {page.meta.total} signatures"
        if not page.data:
            self.page_label.setText("No signatures yet. A signature is text appended to posts.")
        else:
            self.page_label.setText(f"Page {page.page_number} of {page.last_page}{total}")
        self.prev_button.setEnabled(page.page_number > 1)
        self.next_button.setEnabled(page.has_next)

    def selected(self) -> Signature | None:
        items = self.list.selectedItems()
        if not items or self.current is None:
            return None
        wanted = items[0].data(Qt.ItemDataRole.UserRole)
        return next((s for s in self.current.data if s.id == wanted), None)

    def _selection_changed(self) -> None:
        signature = self.selected()
        self.preview.setPlainText(preview_text(signature.content) if signature else "")
        free = signature is not None and not self.gate.is_busy(signature.id)
        self.edit_button.setEnabled(free)
        self.delete_button.setEnabled(free)

    def _on_busy(self, key: str, busy: bool) -> None:
        self._selection_changed()

    def open_edit(self) -> None:
        signature = self.selected()
        if signature is not None:
            self._open_form(signature)

    def _open_form(self, signature: Signature | None) -> None:
        if self.session is None:
            return
        form = SignatureForm(self, signature)
        self.form = form
        key = signature.id if signature else NEW
        form.submitted.connect(
            lambda name, content: self.write(key, self._save(form, signature, name, content))
        )
        form.open()

    async def _save(
        self, form: SignatureForm, signature: Signature | None, name: str, content: str
    ) -> None:
        session = self.session
        assert session is not None
        body = SignatureInput(name=name, content=content)
        signatures = session.client.signatures
        write = (
            signatures.create(body) if signature is None else signatures.update(signature.id, body)
        )
        if await submit(form, write):
            session.messages.info("Signature saved.")
            await self._load(1 if signature is None else self.page_number)

    def ask_delete(self) -> None:
        signature = self.selected()
        if signature is None or self.session is None:
            return
        signatures = self.session.client.signatures
        self.confirm_delete(
            signature.id,
            "signature",
            signature.name,
            "Posts that already include its text keep it.",
            lambda: signatures.delete(signature.id),
            lambda: self._load(self.page_number),
        )
