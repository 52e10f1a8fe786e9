"""The Instagram audio picker: search music and original sounds, preview, choose one track.

Only `instagram-facebook` accounts can search (spec §4); for others the dialog says why. Typing
is debounced (500 ms) and identical searches are cached by the app layer, so a typed query costs
at most two requests; the budgets of spec §8 are shown, a 429 is waited out with a countdown and
a 502 offers a retry in words. Choosing a track emits `chosen(AudioAsset)`; the composer puts its
id in the destination's `meta.audio.id` (`audio_meta()`).
"""

from __future__ import annotations

import asyncio
import html
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from app.api.audio import MAX_QUERY_CHARS, InstagramAudio
from app.api.errors import (
    ApiError,
    AudioBudgetExhausted,
    AudioQueryInvalid,
    RateLimited,
    UpstreamFailed,
)
from app.models.accounts import SocialAccountSummary
from app.models.audio import AudioAsset
from app.networks import audio_unavailable_reason
from ui.composer.audio.playback import PLAYBACK_NOTE, link_is_stale, open_in_system_player
from ui.composer.audio.results_model import COVER_SIZE, AudioResultsModel
from ui.tasks import TaskGroup

DEBOUNCE_MS = 500
TYPES: tuple[tuple[str, str | None], ...] = (
    ("Both", None),
    ("Music", "music"),
    ("Original sound", "original_sound"),
)


def audio_meta(asset: AudioAsset) -> dict[str, Any]:
    """The destination's `meta["audio"]` for a chosen track (spec: `audio.id`)."""
    return {"id": asset.id}


class AudioPickerDialog(QDialog):
    chosen = Signal(object)  # AudioAsset

    def __init__(
        self,
        audio_api: InstagramAudio,
        account: SocialAccountSummary,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.audio_api = audio_api
        self.account = account
        self.unavailable = audio_unavailable_reason(account.platform)
        self.open_url: Callable[[str], bool] = open_in_system_player
        self._tasks = TaskGroup(self._on_task_error)
        self._search_task: asyncio.Task[Any] | None = None
        self._fetched_at = 0.0
        self._last: tuple[str | None, str | None] | None = None
        self._waiting_until = 0.0
        self._wait_reason = ""
        self._closing: asyncio.Future[None] | None = None
        self._chosen_once = False
        self.setWindowTitle("Choose audio")
        self.setObjectName("audioPicker")
        self.resize(520, 560)
        self._build()
        self._debounce = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._debounce.timeout.connect(self._search_now)
        self._ticker = QTimer(self, interval=1000)
        self._ticker.timeout.connect(self._refresh_budget)
        self._refresh_budget()

    # -- layout ---------------------------------------------------------------------------

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        who = self.account.label if hasattr(self.account, "label") else self.account.id
        layout.addWidget(QLabel(f"Audio for the reel on <b>{html.escape(str(who))}</b>"))

        self.unavailable_label = QLabel(self.unavailable or "")
        self.unavailable_label.setWordWrap(True)
        self.unavailable_label.setObjectName("audioUnavailable")
        self.unavailable_label.setVisible(self.unavailable is not None)
        layout.addWidget(self.unavailable_label)

        types = QHBoxLayout()
        self.type_group = QButtonGroup(self)
        self.type_buttons: dict[str | None, QRadioButton] = {}
        for label, value in TYPES:
            button = QRadioButton(label)
            self.type_group.addButton(button)
            self.type_buttons[value] = button
            types.addWidget(button)
            button.toggled.connect(self._type_toggled)
        self.type_buttons[None].setChecked(True)
        types.addStretch(1)
        layout.addLayout(types)

        self.search = QLineEdit()
        self.search.setPlaceholderText("Search songs, artists or creators — empty shows trending")
        self.search.setMaxLength(MAX_QUERY_CHARS)
        self.search.setClearButtonEnabled(True)
        self.search.textEdited.connect(self._text_edited)
        # Enter searches at once (not "choose"), Down moves into the results.
        self.search.installEventFilter(self)
        layout.addWidget(self.search)

        status = QHBoxLayout()
        self.status_label = QLabel("")
        self.status_label.setObjectName("audioStatus")
        # Titles come from the server: never read as rich text (an <img> in one drew a picture).
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
        self.status_label.setWordWrap(True)
        self.retry_button = QPushButton("Try again")
        self.retry_button.setVisible(False)
        self.retry_button.clicked.connect(self._retry)
        status.addWidget(self.status_label, 1)
        status.addWidget(self.retry_button)
        layout.addLayout(status)

        self.model = AudioResultsModel()
        self.results = QListView()
        self.results.setModel(self.model)
        self.results.setIconSize(QSize(COVER_SIZE, COVER_SIZE))
        self.results.setUniformItemSizes(True)
        self.results.setAlternatingRowColors(True)
        self.results.selectionModel().currentChanged.connect(self._selection_changed)
        # Enter or a double-click on a row chooses it (styles differ in which one they send).
        self.results.activated.connect(self._choose_index)
        self.results.doubleClicked.connect(self._choose_index)
        layout.addWidget(self.results, 1)

        play_row = QHBoxLayout()
        self.play_button = QPushButton("Play preview")
        self.play_button.setEnabled(False)
        self.play_button.clicked.connect(self._play)
        self.playback_note = QLabel(PLAYBACK_NOTE)
        self.playback_note.setWordWrap(True)
        self.playback_note.setObjectName("playbackNote")
        play_row.addWidget(self.play_button)
        play_row.addWidget(self.playback_note, 1)
        layout.addLayout(play_row)

        self.budget_label = QLabel("")
        self.budget_label.setObjectName("audioBudget")
        self.budget_label.setWordWrap(True)
        layout.addWidget(self.budget_label)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.choose_button = self.buttons.addButton(
            "Use this track", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.choose_button.setEnabled(False)
        self.choose_button.setDefault(True)
        self.buttons.accepted.connect(self._choose_current)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

        if self.unavailable is not None:
            self.unavailable_label.setText(
                f"{self.unavailable} To choose audio, connect this Instagram account through "
                "Facebook in the web dashboard. The reel can still be posted without it."
            )
            for widget in (
                *self.type_buttons.values(),
                self.search,
                self.results,
                self.play_button,
                self.playback_note,
                self.budget_label,
                self.choose_button,
            ):
                widget.setVisible(False)
            layout.addStretch(1)
            self.resize(460, 180)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.search and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self._search_now()
                return True
            if event.key() == Qt.Key.Key_Down and self.model.rowCount():
                self.results.setFocus()
                if not self.results.currentIndex().isValid():
                    self.results.setCurrentIndex(self.model.index(0))
                return True
        return super().eventFilter(watched, event)

    # -- lifecycle ----------------------------------------------------------------------------

    def open(self) -> None:
        super().open()
        if self.unavailable is None:
            self._ticker.start()
            self.search.setFocus()
            self._search_now()  # empty query: trending

    def done(self, result: int) -> None:
        self._debounce.stop()
        self._ticker.stop()
        # Shielded lookups still finish into the cache; only our waiting stops.
        self._tasks_cancel()
        super().done(result)

    def _tasks_cancel(self) -> None:
        if len(self._tasks):
            # Kept so it is not collected before it has cancelled everything.
            self._closing = asyncio.ensure_future(self._tasks.cancel_all())

    def _on_task_error(self, error: BaseException) -> None:
        self._show_error(error)

    # -- searching ----------------------------------------------------------------------------

    @property
    def audio_type(self) -> str | None:
        for value, button in self.type_buttons.items():
            if button.isChecked():
                return value
        return None

    def _text_edited(self, _text: str) -> None:
        self._debounce.start()

    def _type_toggled(self, checked: bool) -> None:
        if checked and self.isVisible():
            self._debounce.stop()
            self._search_now()

    def _search_now(self) -> None:
        self._debounce.stop()
        if self.unavailable is not None:
            return
        wanted = (self.search.text().strip() or None, self.audio_type)
        if wanted == self._last and self._search_task is not None:
            return  # the same search is already shown or on its way
        self._last = wanted
        if self._search_task is not None and not self._search_task.done():
            self._search_task.cancel()
        self._search_task = self._tasks.spawn(self._run_search(*wanted))

    def _retry(self) -> None:
        self._last = None
        self._search_now()

    async def _run_search(self, q: str | None, audio_type: str | None) -> None:
        self.retry_button.setVisible(False)
        self._set_status("Searching…" if q else "Loading trending audio…")
        try:
            assets = await self.audio_api.search(
                self.account.id, q, audio_type, wait=True, on_wait=self._on_wait
            )
        except asyncio.CancelledError:
            raise
        except ApiError as error:
            self._last = None
            self._show_error(error)
            return
        finally:
            self._waiting_until = 0.0
            self._refresh_budget()
        self._fetched_at = time.time()
        self.model.set_assets(assets)
        if assets:
            what = f"“{q}”" if q else "trending"
            unreadable = len(getattr(assets, "unreadable", ()))
            skipped = f" {unreadable} could not be read and are left out." if unreadable else ""
            noun = "track" if len(assets) == 1 else "tracks"
            self._set_status(f"{len(assets)} {noun} for {what}.{skipped}")
            self.results.setCurrentIndex(self.model.index(0))
        else:
            self._set_status(f"Nothing found for “{q}”." if q else "No trending audio right now.")
        self._selection_changed()
        for asset in assets:
            if asset.cover_url and not self.model.has_cover(asset.id):
                self._tasks.spawn(self._load_cover(asset))

    def _on_wait(self, seconds: float, why: str) -> None:
        self._waiting_until = time.monotonic() + seconds
        self._wait_reason = why
        self._refresh_budget()

    def _show_wait(self, why: str) -> None:
        left = max(1, round(self._waiting_until - time.monotonic()))
        self._set_status(f"{why} Waiting {left} s, then searching again…")

    async def _load_cover(self, asset: AudioAsset) -> None:
        data = await self.audio_api.cover(asset.cover_url)
        if data is not None:
            self.model.set_cover(asset.id, data)

    # -- feedback -----------------------------------------------------------------------------

    def _set_status(self, text: str) -> None:
        self.status_label.setText(text)

    def _show_error(self, error: BaseException) -> None:
        if isinstance(error, UpstreamFailed):
            self._set_status(
                f"{error.message} Instagram's catalog did not answer; this is usually brief. "
                "Try again in a moment."
            )
            self.retry_button.setVisible(True)
        elif isinstance(error, AudioBudgetExhausted | RateLimited):
            seconds = max(1, round(error.retry_after or 60))
            self._set_status(
                f"{error.message} Try again in {seconds} s; earlier searches still work."
            )
            self.retry_button.setVisible(True)
        elif isinstance(error, AudioQueryInvalid):
            self._set_status(f"{error.message} {error.hint}")
        elif isinstance(error, ApiError):
            self._set_status(f"{error.message} {error.hint}")
            self.retry_button.setVisible(True)
        else:
            self._set_status(f"Something went wrong: {error}")
            self.retry_button.setVisible(True)

    def _refresh_budget(self) -> None:
        self.budget_label.setText(self.audio_api.status().describe())
        if self._waiting_until > time.monotonic():
            self._show_wait(self._wait_reason)

    # -- choosing and playing -----------------------------------------------------------------

    def current_asset(self) -> AudioAsset | None:
        index = self.results.currentIndex()
        return self.model.asset(index.row()) if index.isValid() else None

    def _selection_changed(self, *_args: object) -> None:
        asset = self.current_asset()
        self.choose_button.setEnabled(asset is not None)
        self.play_button.setEnabled(asset is not None and bool(asset.preview_url))

    def _choose_index(self, index: QModelIndex) -> None:
        self.results.setCurrentIndex(index)
        self._choose_current()

    def _choose_current(self) -> None:
        asset = self.current_asset()
        if asset is None or self._chosen_once:
            return
        self._chosen_once = True
        self.chosen.emit(asset)
        self.accept()

    def _play(self) -> None:
        asset = self.current_asset()
        if asset is None or not asset.preview_url:
            return
        self.play_button.setEnabled(False)
        self._tasks.spawn(self._play_fresh(asset))

    async def _play_fresh(self, asset: AudioAsset) -> None:
        try:
            if link_is_stale(asset.preview_url, self._fetched_at):
                self._set_status("The preview link expired; getting a fresh one…")
                q, audio_type = self._last or (None, None)
                asset = await self.audio_api.track(
                    self.account.id, asset, q=q, type=audio_type, wait=True, on_wait=self._on_wait
                )
                self.model.replace(asset)
            if asset.preview_url and self.open_url(asset.preview_url):
                self._set_status(f"Playing “{asset.title}” in your media player.")
            else:
                self._set_status("No media player could open the preview on this computer.")
        except ApiError as error:
            self._show_error(error)
        finally:
            self._selection_changed()
