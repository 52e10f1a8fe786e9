"""Repurpose activity: each source video with its status and, when it was not replicated, the
reason in words. `GET /repurposes` has no shape in the spec and may be missing; then the panel
asks for a repurpose id (remembered per workspace) and lists that repurpose's items."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    QSettings,
    Qt,
)
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.api.errors import ApiError, NotFound, PermissionDenied
from app.domain.enums import RepurposeItemStatus, RepurposeReason, known
from app.models.repurposes import Repurpose, RepurposeItem
from ui import theme
from ui.action_spec import ActionSpec
from ui.panels.base import PanelPage
from ui.panels.webhooks.format import when
from ui.widgets.table_model import HeaderedTableModel

Index = QModelIndex | QPersistentModelIndex

REASON_TEXT = {
    RepurposeReason.PUBLISHED_VIA_SERVICE: "Not copied: this video was itself published "
    "through the service (copying it would loop).",
    RepurposeReason.MEDIA_URL_MISSING: "The source network gave no downloadable file for "
    "this video.",
    RepurposeReason.DOWNLOAD_FAILED: "Downloading the source video failed.",
    RepurposeReason.POST_CREATION_FAILED: "The video was downloaded, but creating the post failed.",
    RepurposeReason.NO_USABLE_DESTINATIONS: "No destination account could take it "
    "(disconnected, inactive or not suited to video).",
}
STATUS_TEXT = {
    RepurposeItemStatus.PENDING: "Pending",
    RepurposeItemStatus.PROCESSING: "Processing",
    RepurposeItemStatus.PUBLISHED: "Published",
    RepurposeItemStatus.DRAFTED: "Saved as draft",
    RepurposeItemStatus.SKIPPED: "Skipped",
    RepurposeItemStatus.FAILED: "Failed",
}
STATUS_COLOUR = {
    RepurposeItemStatus.PUBLISHED: "#166534",
    RepurposeItemStatus.SKIPPED: "#92400e",
    RepurposeItemStatus.FAILED: "#b91c1c",
}
SETTINGS_KEY = "repurposes/last_id/{profile}"


def status_words(raw: str | None) -> str:
    status = known(RepurposeItemStatus, raw)
    return STATUS_TEXT[status] if status else f"unknown ({raw})"


def reason_words(item: RepurposeItem) -> str:
    if item.reason is None:
        return item.error or ""
    reason = known(RepurposeReason, item.reason)
    text = REASON_TEXT[reason] if reason else f"Reason: {item.reason}"
    return f"{text} ({item.error})" if item.error else text


def replicas_text(item: RepurposeItem) -> str:
    parts = []
    for post in item.posts:
        for platform in post.platforms:
            parts.append(f"{platform.platform or '?'}: {platform.status or '?'}")
    return ", ".join(parts) or "—"


class ItemsModel(HeaderedTableModel):
    HEADERS = ("Source video", "Status", "Why", "Copies")

    def __init__(self) -> None:
        super().__init__()
        self.items: list[RepurposeItem] = []

    def set_items(self, items: list[RepurposeItem], *, append: bool = False) -> None:
        self.beginResetModel()
        self.items = [*self.items, *items] if append else list(items)
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.items)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        item = self.items[index.row()]
        column = index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            if column == 0:
                source = item.source_permalink or item.source_media_id or item.id
                return f"{when(item.source_created_at or item.created_at)}  {source}"
            if column == 1:
                return status_words(item.status)
            if column == 2:
                return reason_words(item)
            return replicas_text(item)
        if role == Qt.ItemDataRole.ForegroundRole and column == 1:
            status = known(RepurposeItemStatus, item.status)
            return theme.readable(STATUS_COLOUR.get(status, "#374151") if status else "#6b21a8")
        return None


class RepurposesPage(PanelPage):
    TITLE = "Repurposes"
    MISSING_TEXT = (
        "Repurposes are not available on this deployment of the API (it has no /repurposes "
        "routes, or this key may not manage repurposes)."
    )

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.repurposes: list[Repurpose] = []
        self.repurpose_id = ""
        self.next_page: int | None = None
        title = QLabel("Repurposes")
        title.setObjectName("panelTitle")
        self.picker = QComboBox()
        self.picker.setAccessibleName("Repurpose")
        self.picker.currentIndexChanged.connect(self._picked)
        self.id_edit = QLineEdit()
        self.id_edit.setPlaceholderText("Repurpose id (from the web app)")
        self.id_edit.setAccessibleName("Repurpose id")
        self.id_button = QPushButton("Show items")
        self.id_button.clicked.connect(self._id_entered)
        self.id_edit.returnPressed.connect(self._id_entered)
        self.refresh_button = QPushButton("Refresh")
        self.refresh_button.clicked.connect(self.reload)
        top = QHBoxLayout()
        top.addWidget(title)
        top.addWidget(self.picker, 1)
        top.addWidget(self.id_edit, 1)
        top.addWidget(self.id_button)
        top.addWidget(self.refresh_button)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setProperty("tone", "muted")  # coloured by the theme (style.qss)
        self.model = ItemsModel()
        self.table = QTableView()
        self.table.setAccessibleName("Repurposed videos")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(True)
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.more_button = QPushButton("Load older items")
        self.more_button.setAccessibleName("Load older repurposed videos")
        self.more_button.clicked.connect(self.load_more)
        self.more_button.hide()
        layout = QVBoxLayout(self.content)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.addLayout(top)
        layout.addWidget(self.note)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.more_button)
        self._manual(False)

    def action_specs(self) -> list[ActionSpec]:
        return [
            ActionSpec(
                "repurposes.refresh",
                "Refresh repurpose activity",
                self.reload,
                scope="repurposes",
                enabled=lambda: self.session is not None,
            )
        ]

    def _manual(self, manual: bool) -> None:
        self.picker.setVisible(not manual)
        self.id_edit.setVisible(manual)
        self.id_button.setVisible(manual)

    def session_changed(self) -> None:
        self.repurposes = []
        self.repurpose_id = ""
        self.picker.blockSignals(True)
        self.picker.clear()
        self.picker.blockSignals(False)
        self.model.set_items([])
        self.note.setText("")

    def reload(self) -> None:
        if self.session is not None:
            self.spawn(self._load())

    def _settings_key(self) -> str:
        assert self.session is not None
        return SETTINGS_KEY.format(profile=self.session.profile.id)

    async def _load(self) -> None:
        assert self.session is not None
        try:
            repurposes = [r async for r in self.session.client.repurposes.iter_repurposes()]
        except ApiError as error:
            if isinstance(error, NotFound | PermissionDenied) or _shapeless(error):
                self._ask_for_id()
                return
            raise
        self._manual(False)
        self.repurposes = repurposes
        self.picker.blockSignals(True)
        self.picker.clear()
        for repurpose in repurposes:
            self.picker.addItem(repurpose.name or repurpose.id, repurpose.id)
        self.picker.blockSignals(False)
        if not repurposes:
            self.note.setText("No repurposes in this workspace yet.")
            self.model.set_items([])
            return
        keep = self.repurpose_id if self.repurpose_id in {r.id for r in repurposes} else None
        index = self.picker.findData(keep) if keep else 0
        self.picker.setCurrentIndex(max(index, 0))
        self._picked()

    def _ask_for_id(self) -> None:
        self._manual(True)
        remembered = str(QSettings().value(self._settings_key(), "") or "")
        self.note.setText(
            "This deployment does not list repurposes. Enter a repurpose id (from the web app) "
            "to see its activity; Postdesk remembers it for this workspace."
        )
        if remembered:
            self.id_edit.setText(remembered)
            self.show_items(remembered)

    def _id_entered(self) -> None:
        repurpose_id = self.id_edit.text().strip()
        if repurpose_id:
            QSettings().setValue(self._settings_key(), repurpose_id)
            self.show_items(repurpose_id)

    def _picked(self) -> None:
        repurpose_id = self.picker.currentData()
        if isinstance(repurpose_id, str):
            self.show_items(repurpose_id)

    def show_items(self, repurpose_id: str) -> None:
        self.repurpose_id = repurpose_id
        self.model.set_items([])
        self.next_page = 1
        self.load_more()

    def load_more(self) -> None:
        if self.session is not None and self.next_page is not None:
            self.spawn(self._load_items(self.repurpose_id, self.next_page))

    async def _load_items(self, repurpose_id: str, number: int) -> None:
        assert self.session is not None
        try:
            page = await self.session.client.repurposes.items_page(repurpose_id, number)
        except (NotFound, PermissionDenied) as error:
            self.note.setText(
                f"No repurpose with id {repurpose_id} in this workspace ({error.message})."
            )
            self.more_button.hide()
            return
        if repurpose_id != self.repurpose_id:
            return
        self.model.set_items(page.data, append=number > 1)
        self.next_page = number + 1 if page.has_next else None
        self.more_button.setVisible(self.next_page is not None)
        skipped = sum(
            known(RepurposeItemStatus, i.status)
            in (RepurposeItemStatus.SKIPPED, RepurposeItemStatus.FAILED)
            for i in self.model.items
        )
        total = page.meta.total if page.meta.total is not None else len(self.model.items)
        self.note.setText(
            f"{total} source videos · {skipped} of those shown were not copied (see Why)"
            if total
            else "No activity for this repurpose yet."
        )
        self.table.resizeRowsToContents()


def _shapeless(error: ApiError) -> bool:
    # The list has no shape in the spec: an answer we cannot read means "ask for an id".
    from app.api.errors import ProtocolError

    return isinstance(error, ProtocolError)
