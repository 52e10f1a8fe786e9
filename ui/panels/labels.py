"""Labels: a list with colour swatches; create and edit with a colour picker; delete (asks)."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QColorDialog,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.api.errors import ApiError, ValidationFailed
from app.models.labels import Label
from app.models.requests import LabelInput
from ui.action_spec import ActionSpec
from ui.panels.base import PanelPage, submit
from ui.panels.webhooks.dialogs import error_label, show_error
from ui.widgets.long_text_view import short_text

NAME_MAX = 255
HEX = re.compile(r"^#[0-9A-Fa-f]{6}$")
DEFAULT_COLOUR = "#3b82f6"
NEW = "new"


def swatch(colour: str | None, size: int = 16) -> QIcon:
    pixmap = QPixmap(size, size)
    pixmap.fill(QColor(colour) if colour and HEX.match(colour) else QColor("#d1d5db"))
    return QIcon(pixmap)


def label_problems(name: str, colour: str) -> dict[str, str]:
    """Field -> problem, in words; empty when the label can be sent. `name` is trimmed first."""
    problems = {}
    name = name.strip()
    if not name:
        problems["name"] = "Enter a name."
    elif len(name) > NAME_MAX:
        problems["name"] = f"A name may have at most {NAME_MAX} characters (it has {len(name)})."
    if not HEX.match(colour.strip()):
        problems["color"] = "The colour must be #RRGGBB, e.g. #3B82F6."
    return problems


class LabelForm(QDialog):
    submitted = Signal(str, str)  # name, colour

    def __init__(self, parent: QWidget | None, label: Label | None = None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle("Edit label" if label else "New label")
        self.setMinimumWidth(380)
        self.name_edit = QLineEdit(label.name if label else "")
        self.name_edit.setAccessibleName("Label name")
        self.name_error = error_label()
        self.colour_edit = QLineEdit(label.color if label and label.color else DEFAULT_COLOUR)
        self.colour_edit.setMaxLength(7)
        self.colour_edit.setAccessibleName("Colour, as #RRGGBB")
        self.pick_button = QPushButton("Pick…")
        self.pick_button.setAccessibleName("Pick a colour")
        self.pick_button.clicked.connect(self.open_picker)
        self.preview = QLabel()
        self.preview.setFixedSize(24, 24)
        self.colour_edit.textChanged.connect(self._update_preview)
        self.colour_error = error_label()
        self.form_error = error_label()
        self.picker: QColorDialog | None = None
        row = QHBoxLayout()
        row.addWidget(self.preview)
        row.addWidget(self.colour_edit, 1)
        row.addWidget(self.pick_button)
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
        layout.addWidget(QLabel("Colour"))
        layout.addLayout(row)
        layout.addWidget(self.colour_error)
        layout.addWidget(self.form_error)
        layout.addWidget(self.buttons)
        self._update_preview()

    def open_picker(self) -> None:
        self.picker = QColorDialog(QColor(self.colour_edit.text()), self)
        self.picker.colorSelected.connect(lambda c: self.colour_edit.setText(c.name().upper()))
        self.picker.open()

    def _update_preview(self) -> None:
        self.preview.setPixmap(swatch(self.colour_edit.text(), 24).pixmap(24, 24))

    def _submit(self) -> None:
        name, colour = self.name_edit.text().strip(), self.colour_edit.text().strip()
        problems = label_problems(name, colour)
        show_error(self.name_error, problems.get("name", ""))
        show_error(self.colour_error, problems.get("color", ""))
        show_error(self.form_error, "")
        if not problems:
            self.submitted.emit(name, colour.upper())

    def set_busy(self, busy: bool) -> None:
        self.save_button.setEnabled(not busy)
        self.save_button.setText("Saving…" if busy else "Save")

    def show_errors(self, error: ApiError) -> None:
        if isinstance(error, ValidationFailed):
            show_error(self.name_error, " ".join(error.for_field("name")))
            show_error(self.colour_error, " ".join(error.for_field("color")))
            if error.for_field("name") or error.for_field("color"):
                return
        show_error(self.form_error, f"{error.message} {error.hint}".strip())


class LabelsPage(PanelPage):
    TITLE = "Labels"
    MISSING_TEXT = (
        "Labels are not available on this deployment of the API (it has no /labels route). "
        "Posts still show any labels the server sends."
    )

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.labels: list[Label] = []
        self.form: LabelForm | None = None
        title = QLabel("Labels")
        title.setObjectName("panelTitle")
        self.new_button = QPushButton("New label…")
        self.edit_button = QPushButton("Edit…")
        self.delete_button = QPushButton("Delete…")
        self.new_button.clicked.connect(self.open_create)
        self.edit_button.clicked.connect(self.open_edit)
        self.delete_button.clicked.connect(self.ask_delete)
        top = QHBoxLayout()
        top.addWidget(title)
        top.addStretch(1)
        for button in (self.new_button, self.edit_button, self.delete_button):
            top.addWidget(button)
        self.list = QListWidget()
        self.list.setAccessibleName("Labels")
        self.list.itemSelectionChanged.connect(self._update_buttons)
        self.list.itemDoubleClicked.connect(lambda _item: self.open_edit())
        self.summary = QLabel("")
        layout = QVBoxLayout(self.content)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.addLayout(top)
        layout.addWidget(self.summary)
        layout.addWidget(self.list, 1)
        self._update_buttons()

    def action_specs(self) -> list[ActionSpec]:
        return [
            ActionSpec(
                "labels.new",
                "New label…",
                self.open_create,
                scope="labels",
                enabled=lambda: self.session is not None,
                help="Create a label",
            )
        ]

    def session_changed(self) -> None:
        self._show([])

    def reload(self) -> None:
        if self.session is not None:
            self.spawn(self._load())

    async def _load(self) -> None:
        assert self.session is not None
        try:
            labels = await self.session.client.labels.list()
        except ApiError as error:
            if not self.explain_missing(error):
                raise
            return
        self._show(labels)

    def _show(self, labels: list[Label]) -> None:
        selected = self.selected()
        self.labels = labels
        self.list.clear()
        for label in labels:
            name = short_text(label.shown_name)
            item = QListWidgetItem(swatch(label.color), f"{name}    {label.color or ''}")
            # The swatch is a picture: a screen reader gets the colour in words.
            colour = f"colour {label.color}" if label.color else "no colour"
            item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{name}, {colour}")
            item.setData(Qt.ItemDataRole.UserRole, label.id)
            self.list.addItem(item)
            if selected is not None and label.id == selected.id:
                item.setSelected(True)
        self.summary.setText(
            f"{len(labels)} labels" if labels else "No labels yet. Labels group posts by colour."
        )
        self._update_buttons()

    def selected(self) -> Label | None:
        items = self.list.selectedItems()
        if not items:
            return None
        label_id = items[0].data(Qt.ItemDataRole.UserRole)
        return next((label for label in self.labels if label.id == label_id), None)

    def _update_buttons(self) -> None:
        label = self.selected()
        free = label is not None and not self.gate.is_busy(label.id)
        self.edit_button.setEnabled(free)
        self.delete_button.setEnabled(free)

    def _on_busy(self, key: str, busy: bool) -> None:
        self._update_buttons()

    def open_create(self) -> None:
        self._open_form(None)

    def open_edit(self) -> None:
        label = self.selected()
        if label is not None:
            self._open_form(label)

    def _open_form(self, label: Label | None) -> None:
        if self.session is None:
            return
        form = LabelForm(self, label)
        self.form = form
        key = label.id if label else NEW
        form.submitted.connect(
            lambda name, colour: self.write(key, self._save(form, label, name, colour))
        )
        form.open()

    async def _save(self, form: LabelForm, label: Label | None, name: str, colour: str) -> None:
        session = self.session
        assert session is not None
        body = LabelInput(name=name, color=colour)
        labels = session.client.labels
        write = labels.create(body) if label is None else labels.update(label.id, body)
        if await submit(form, write):
            session.messages.info("Label saved.")
            await self._load()

    def ask_delete(self) -> None:
        label = self.selected()
        if label is None or self.session is None:
            return
        labels = self.session.client.labels
        self.confirm_delete(
            label.id,
            "label",
            label.shown_name,
            "Posts keep their content; they only lose this label.",
            lambda: labels.delete(label.id),
            self._load,
        )
