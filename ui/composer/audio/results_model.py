"""The picker's rows: one track each, with its cover once loaded (model/view, not widgets)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QPixmap

from app.models.audio import AudioAsset

ASSET_ROLE = Qt.ItemDataRole.UserRole + 1
_TYPE_NAMES = {"music": "Music", "original_sound": "Original sound"}
COVER_SIZE = 48

Index = QModelIndex | QPersistentModelIndex


def format_duration(ms: int | None) -> str:
    """`1:05`; empty when unknown."""
    if ms is None or ms < 0:
        return ""
    seconds = round(ms / 1000)
    return f"{seconds // 60}:{seconds % 60:02d}"


def row_text(asset: AudioAsset) -> str:
    details = [asset.artist or "Unknown artist"]
    if asset.type in _TYPE_NAMES:
        details.append(_TYPE_NAMES[asset.type])
    duration = format_duration(asset.duration_ms)
    if duration:
        details.append(duration)
    return f"{asset.title or 'Untitled'}\n{' · '.join(details)}"


class AudioResultsModel(QAbstractListModel):
    def __init__(self) -> None:
        super().__init__()
        self._assets: list[AudioAsset] = []
        self._covers: dict[str, QPixmap] = {}
        self._placeholder = QPixmap(COVER_SIZE, COVER_SIZE)
        self._placeholder.fill(Qt.GlobalColor.lightGray)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._assets)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._assets):
            return None
        asset = self._assets[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return row_text(asset)
        if role == Qt.ItemDataRole.DecorationRole:
            return self._covers.get(asset.id, self._placeholder)
        if role == Qt.ItemDataRole.ToolTipRole:
            return row_text(asset).replace("\n", " — ")
        if role == ASSET_ROLE:
            return asset
        return None

    def set_assets(self, assets: list[AudioAsset]) -> None:
        self.beginResetModel()
        self._assets = list(assets)
        self.endResetModel()

    def assets(self) -> list[AudioAsset]:
        return list(self._assets)

    def asset(self, row: int) -> AudioAsset | None:
        return self._assets[row] if 0 <= row < len(self._assets) else None

    def replace(self, asset: AudioAsset) -> None:
        """A fresher copy of a track (new links) takes its row's place."""
        for row, old in enumerate(self._assets):
            if old.id == asset.id:
                self._assets[row] = asset
                index = self.index(row)
                self.dataChanged.emit(index, index)

    def set_cover(self, asset_id: str, data: bytes) -> bool:
        pixmap = QPixmap()
        if not pixmap.loadFromData(data):
            return False
        self._covers[asset_id] = pixmap.scaled(
            COVER_SIZE,
            COVER_SIZE,
            Qt.AspectRatioMode.KeepAspectRatioByExpanding,
            Qt.TransformationMode.SmoothTransformation,
        )
        for row, asset in enumerate(self._assets):
            if asset.id == asset_id:
                index = self.index(row)
                self.dataChanged.emit(index, index, [Qt.ItemDataRole.DecorationRole])
        return True

    def has_cover(self, asset_id: str) -> bool:
        return asset_id in self._covers
