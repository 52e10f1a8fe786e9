"""The post detail panel: when, what, where it goes and how it went, and what can be done.

Every piece of server text is shown through plain-text labels: post bodies are flattened by
`html_to_text`, so no markup is interpreted and no image a text names is ever fetched. The only
images shown are the post's own image media, as thumbnails from the page's `Thumbnails` (http(s)
only, downloaded by the workspace with caps on size and type).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from PySide6.QtCore import QElapsedTimer, QSize, Qt, QUrl, Signal
from PySide6.QtGui import QAction, QColor, QDesktopServices, QGuiApplication, QMouseEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.calendar.post_card import is_image, is_web_url
from app.content.long_text import preview
from app.content.text_render import html_to_text
from app.domain.enums import AccountStatus, PlatformStatus, describe
from app.posts.lifecycle import PostAction
from ui import theme
from ui.calendar.entries import Entry
from ui.calendar.style import ink_on, platform_status_color, status_color
from ui.icons import network_icon, network_name
from ui.locale_text import long_date, time_text

if TYPE_CHECKING:
    from app.models import MediaItem, Post, PostPlatform
    from ui.calendar.thumbnails import Thumbnails

ACTION_COLUMNS = 2
THUMB_SIDE = 64
THUMBS_SHOWN = 4
"""Images shown as thumbnails above the media list (the list names them all)."""
ACTION_ORDER = (
    PostAction.SCHEDULE,
    PostAction.EDIT,
    PostAction.RESCHEDULE,
    PostAction.PUBLISH_NOW,
    PostAction.MOVE_TO_DRAFT,
    PostAction.DUPLICATE,
    PostAction.DELETE,
)


def plain_label(text: str = "", *, object_name: str = "", wrap: bool = True) -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    label.setWordWrap(wrap)
    if wrap:
        # Server text can hold long unbroken words (URLs, handles): let the label clip them
        # rather than widen the whole panel past its splitter pane.
        label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        label.setMinimumWidth(1)
    if object_name:
        label.setObjectName(object_name)
    return label


def pill_label(text: str, color: QColor, *, filled: bool = True) -> QLabel:
    label = plain_label(text, wrap=False)
    if filled:
        foreground = ink_on(color).name()
        background = color.name()
        border = color.name()
    else:
        foreground = (color.lighter(130) if theme.current().dark else color.darker(130)).name()
        background = f"rgba({color.red()}, {color.green()}, {color.blue()}, 36)"
        border = f"rgba({color.red()}, {color.green()}, {color.blue()}, 110)"
    label.setStyleSheet(
        f"QLabel {{ color: {foreground}; background: {background}; border: 1px solid {border};"
        " border-radius: 9px; padding: 1px 8px; font-weight: 600; }"
    )
    label.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
    return label


def discard(widget: QWidget) -> None:
    # Hidden at once: deletion waits for the event loop, and a stale row must not show till then.
    widget.hide()
    widget.deleteLater()


def safe_web_url(url: str | None) -> QUrl | None:
    """Only web links open from the panel; a `file:` or script URL from the server never does."""
    if not url:
        return None
    parsed = QUrl(url, QUrl.ParsingMode.StrictMode)
    if parsed.isValid() and parsed.scheme().lower() in ("http", "https") and parsed.host():
        return parsed
    return None


def format_when(moment: datetime) -> str:
    zone = moment.tzname() or ""
    text = f"{long_date(moment.date())} · {time_text(moment)}"
    return f"{text} {zone}".rstrip()


def account_zone_times(entry: Entry, post: Post) -> list[str]:
    """The scheduled time in each account's own zone, where it reads differently from ours."""
    if entry.local is None:
        return []
    lines: list[str] = []
    seen: set[str] = set()
    for platform in post.platforms:
        account = platform.social_account
        name = account.timezone if account is not None else None
        if not name or name in seen:
            continue
        seen.add(name)
        try:
            zone = ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            continue
        there = entry.local.astimezone(zone)
        if there.replace(tzinfo=None) != entry.local.replace(tzinfo=None):
            lines.append(f"{format_when(there)} in {name} (account time)")
    return lines


def media_text(item: MediaItem) -> str:
    name = item.original_filename or (item.path or item.id).rsplit("/", 1)[-1]
    kind = item.type or item.mime_type or "file"
    size = f" · {human_size(item.size)}" if item.size else ""
    return f"{name} — {kind}{size}"


def image_name(item: MediaItem) -> str:
    """What a screen reader and the tooltip say of an image: its alt text, else its name."""
    alt = item.meta.get("alt_text") if isinstance(item.meta, dict) else None
    if isinstance(alt, str) and alt.strip():
        return f"Image: {alt.strip()}"
    return f"Image: {item.original_filename or (item.path or item.id).rsplit('/', 1)[-1]}"


def human_size(size: int) -> str:
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"


class OnceButton(QToolButton):
    """An action button for which a double-click is one click.

    The second press of a double-click comes ~50 ms after the first; a fast server has already
    answered by then, so the write gate alone would let a second copy through. The buttons of
    one panel share `since_press`: the answer changes which actions the post offers and the
    buttons re-flow, so the second press may land on another button, which must not act either.
    """

    def __init__(self, since_press: QElapsedTimer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._since_press = since_press

    def mousePressEvent(self, event: QMouseEvent) -> None:
        interval = QGuiApplication.styleHints().mouseDoubleClickInterval()
        if self._since_press.isValid() and self._since_press.elapsed() < interval:
            event.accept()
            return
        self._since_press.start()
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        event.accept()


def skipped_reason(platform: PostPlatform) -> str:
    """Why a destination that has not gone out yet will be skipped at publish time (spec §2:
    disconnected and expired accounts are skipped), or "" when nothing stands in its way."""
    account = platform.social_account
    if account is None or not platform.enabled or platform.status != PlatformStatus.PENDING:
        return ""
    if account.status == AccountStatus.DISCONNECTED:
        problem = "This account is disconnected"
    elif account.status == AccountStatus.TOKEN_EXPIRED:
        problem = "This account's access has expired"
    elif account.is_active is False:
        problem = "This account is turned off for publishing"
    else:
        return ""
    return f"{problem}: it will be skipped when the post goes out. Reconnect or turn it on first."


class PlatformRow(QFrame):
    """One destination: account, network, publish status, error and a link to the live post."""

    def __init__(self, platform: PostPlatform, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("platformRow")
        self.platform = platform
        account = platform.social_account
        icon = QLabel()
        icon.setPixmap(network_icon(platform.platform).pixmap(QSize(28, 28)))
        icon.setFixedSize(30, 30)
        name = platform.display_name or (account.display_name if account else None)
        handle = platform.display_username or (account.username if account else None)
        self.name_label = plain_label(name or network_name(platform.platform))
        self.name_label.setObjectName("platformName")
        sub = network_name(platform.platform) + (f" · @{handle}" if handle else "")
        if not platform.enabled:
            sub += " · disabled"
        self.sub_label = plain_label(sub, object_name="muted")
        status = describe(PlatformStatus, platform.status)
        self.status_label = pill_label(status, platform_status_color(platform.status), filled=False)
        self.error_label = plain_label(platform.error_message or "", object_name="errorText")
        self.error_label.setVisible(bool(platform.error_message))
        self.error_label.setProperty("tone", "error")
        self.account_warning = plain_label(skipped_reason(platform), object_name="errorText")
        self.account_warning.setVisible(bool(self.account_warning.text()))
        self.account_warning.setProperty("tone", "warning")
        self.url = safe_web_url(platform.platform_url)
        self.link_button = QPushButton(f"Open on {network_name(platform.platform)} ↗")
        self.link_button.setObjectName("linkButton")
        self.link_button.setFlat(True)
        self.link_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.link_button.setVisible(self.url is not None)
        self.link_button.setToolTip(platform.platform_url or "")
        self.link_button.clicked.connect(self.open_link)

        text_column = QVBoxLayout()
        text_column.setSpacing(0)
        text_column.addWidget(self.name_label)
        text_column.addWidget(self.sub_label)
        top = QHBoxLayout()
        top.setSpacing(8)
        top.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        top.addLayout(text_column, 1)
        top.addWidget(self.status_label, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addWidget(self.error_label)
        layout.addWidget(self.account_warning)
        layout.addWidget(self.link_button, 0, Qt.AlignmentFlag.AlignLeft)

    def open_link(self) -> bool:
        return self.url is not None and QDesktopServices.openUrl(self.url)


class FlowRow(QWidget):
    """A row of small widgets that wraps onto more lines when it runs out of width."""

    def __init__(self, parent: QWidget | None = None, *, per_line: int = 4) -> None:
        super().__init__(parent)
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setHorizontalSpacing(6)
        self._grid.setVerticalSpacing(6)
        self._per_line = per_line
        self._widgets: list[QWidget] = []

    def set_widgets(self, widgets: list[QWidget]) -> None:
        for widget in self._widgets:
            discard(widget)
        self._widgets = list(widgets)
        for index, widget in enumerate(widgets):
            row, column = divmod(index, self._per_line)
            self._grid.addWidget(widget, row, column, Qt.AlignmentFlag.AlignLeft)
        self._grid.setColumnStretch(self._per_line, 1)

    def widgets(self) -> list[QWidget]:
        return list(self._widgets)


class PostDetailPanel(QFrame):
    closeRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("postDetailPanel")
        self.setMinimumWidth(320)
        self.setMaximumWidth(480)
        self.entry: Entry | None = None
        self._action_buttons: dict[PostAction, QToolButton] = {}
        self._since_action_press = QElapsedTimer()  # one for all of them (see `OnceButton`)

        self.status_pill = pill_label("", QColor("#6b7280"))
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.setObjectName("closeDetail")
        self.close_button.setAccessibleName("Close post details")
        self.close_button.setToolTip("Close details")
        self.close_button.setAutoRaise(True)
        self.close_button.clicked.connect(self.closeRequested)
        self.busy_label = plain_label("Saving…", object_name="busyText", wrap=False)
        self.busy_label.setToolTip("A change to this post is on its way to the server.")
        self.busy_label.hide()
        header = QHBoxLayout()
        header.addWidget(self.status_pill)
        header.addWidget(self.busy_label)
        header.addStretch(1)
        header.addWidget(self.close_button)

        self.when_label = plain_label(object_name="detailWhen")
        self.account_time_label = plain_label(object_name="muted")
        self.published_label = plain_label(object_name="muted")
        self.labels_row = FlowRow(per_line=3)
        self.content_label = plain_label(object_name="detailContent")
        self.content_label.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.content_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.media_title = plain_label("Media", object_name="sectionTitle")
        self.thumb_row = QWidget()
        self.thumb_row.setObjectName("mediaThumbs")
        self._thumb_box = QHBoxLayout(self.thumb_row)
        self._thumb_box.setContentsMargins(0, 0, 0, 0)
        self._thumb_box.setSpacing(6)
        self._thumb_box.addStretch(1)
        self._thumbnails: Thumbnails | None = None
        self._thumb_labels: list[tuple[QLabel, str]] = []
        self.media_box = QVBoxLayout()
        self.media_box.setSpacing(2)
        self.platforms_title = plain_label("Destinations", object_name="sectionTitle")
        self.platforms_box = QVBoxLayout()
        self.platforms_box.setSpacing(6)
        self.actions_row = QGridLayout()
        self.actions_row.setHorizontalSpacing(6)
        self.actions_row.setVerticalSpacing(6)

        body = QWidget()
        body.setObjectName("detailBody")
        column = QVBoxLayout(body)
        column.setContentsMargins(16, 12, 16, 16)
        column.setSpacing(10)
        column.addLayout(header)
        column.addWidget(self.when_label)
        column.addWidget(self.account_time_label)
        column.addWidget(self.published_label)
        column.addWidget(self.labels_row)
        column.addLayout(self.actions_row)
        column.addWidget(self._separator())
        column.addWidget(self.content_label)
        column.addWidget(self.media_title)
        column.addWidget(self.thumb_row)
        column.addLayout(self.media_box)
        column.addWidget(self.platforms_title)
        column.addLayout(self.platforms_box)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setObjectName("detailScroll")
        scroll.setAccessibleName("Post details")
        scroll.setWidget(body)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        self._media_labels: list[QLabel] = []
        self._platform_rows: list[PlatformRow] = []
        self.show_entry(None)

    @staticmethod
    def _separator() -> QFrame:
        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        line.setObjectName("separator")
        return line

    # -- actions ---------------------------------------------------------------------------
    def bind_actions(self, actions: dict[PostAction, QAction]) -> None:
        """Buttons for the page's post actions (their enabled state follows the QActions)."""
        for index, kind in enumerate(ACTION_ORDER):
            action = actions.get(kind)
            if action is None:
                continue
            button = OnceButton(self._since_action_press)
            button.setDefaultAction(action)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.setObjectName("dangerButton" if kind is PostAction.DELETE else "actionButton")
            button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            self._action_buttons[kind] = button
            self.actions_row.addWidget(button, index // ACTION_COLUMNS, index % ACTION_COLUMNS)
        self._update_action_buttons()

    def set_busy(self, busy: bool) -> None:
        """A write for the shown post is in flight: say so (the page disables its actions)."""
        self.busy_label.setVisible(busy)

    def is_busy(self) -> bool:
        return not self.busy_label.isHidden()

    def action_button(self, kind: PostAction) -> QToolButton | None:
        return self._action_buttons.get(kind)

    def offered_actions(self) -> set[PostAction]:
        return {kind for kind, button in self._action_buttons.items() if not button.isHidden()}

    def _update_action_buttons(self) -> None:
        allowed = self.entry.actions if self.entry is not None else frozenset()
        visible = [kind for kind in ACTION_ORDER if kind in allowed]
        for kind, button in self._action_buttons.items():
            self.actions_row.removeWidget(button)
            button.setVisible(kind in allowed)
        shown = [self._action_buttons[kind] for kind in visible if kind in self._action_buttons]
        for index, shown_button in enumerate(shown):  # re-pack so no gaps are left
            row, column = divmod(index, ACTION_COLUMNS)
            self.actions_row.addWidget(shown_button, row, column)

    # -- content ---------------------------------------------------------------------------
    def content_text(self) -> str:
        return self.content_label.text()

    def platform_rows(self) -> list[PlatformRow]:
        return list(self._platform_rows)

    def thumbnail_labels(self) -> list[QLabel]:
        return [label for label, _url in self._thumb_labels]

    def set_thumbnails(self, thumbnails: Thumbnails | None) -> None:
        """Where the shown post's images come from (None: names only)."""
        self._thumbnails = thumbnails
        self.thumbnails_changed()

    def thumbnails_changed(self) -> None:
        """Images became ready: the placeholders still empty get theirs."""
        thumbnails = self._thumbnails
        if thumbnails is None:
            return
        for label, url in self._thumb_labels:
            if label.property("shown"):
                continue
            pixmap = thumbnails.pixmap(url, THUMB_SIDE)
            if pixmap is not None:
                label.setPixmap(pixmap)
                label.setProperty("shown", True)
            elif thumbnails.failed(url):
                label.setText("No\npreview")

    def media_texts(self) -> list[str]:
        return [label.text() for label in self._media_labels]

    def label_names(self) -> list[str]:
        return [w.text() for w in self.labels_row.widgets() if isinstance(w, QLabel)]

    def show_entry(self, entry: Entry | None, post: Post | None = None) -> None:
        """Show `post` (the full post behind `entry`); None for either clears the panel."""
        if post is None:
            entry = None
        self.entry = entry
        self._update_action_buttons()
        if entry is None:
            self.status_pill.setText("")
            self.when_label.setText("No post selected")
            for label in (self.account_time_label, self.published_label):
                label.clear()
                label.hide()
            self.content_label.clear()
            self.labels_row.set_widgets([])
            self._set_media([])
            self._set_platforms([])
            return
        assert post is not None
        color = status_color(post.status)
        self.status_pill.setText(entry.status_text)
        self.status_pill.setStyleSheet(pill_label(entry.status_text, color).styleSheet())
        self.when_label.setText(format_when(entry.local) if entry.local else "Not scheduled")
        zone_lines = account_zone_times(entry, post)
        self.account_time_label.setText("\n".join(zone_lines))
        self.account_time_label.setVisible(bool(zone_lines))
        published = (
            post.published_at.astimezone(entry.local.tzinfo)
            if (post.published_at is not None and entry.local is not None)
            else None
        )
        self.published_label.setText(f"Published {format_when(published)}" if published else "")
        self.published_label.setVisible(published is not None)
        self.labels_row.set_widgets(
            [
                pill_label(label.shown_name, QColor(label.color or "#8a8fa3"), filled=False)
                for label in post.labels
            ]
        )
        self.labels_row.setVisible(bool(post.labels))
        self.content_label.setText(detail_text(post.content))
        self._set_media(post.media)
        self._set_platforms(post.platforms)

    def _set_media(self, media: list[MediaItem]) -> None:
        for label in self._media_labels:
            self.media_box.removeWidget(label)
            discard(label)
        self._media_labels = [
            plain_label(media_text(item), object_name="mediaItem") for item in media
        ]
        for label in self._media_labels:
            self.media_box.addWidget(label)
        self.media_title.setVisible(bool(media))
        self._set_thumbs(media)

    def _set_thumbs(self, media: list[MediaItem]) -> None:
        for label, _url in self._thumb_labels:
            self._thumb_box.removeWidget(label)
            discard(label)
        images = [m for m in media if is_image(m.type, m.mime_type) and is_web_url(m.url)]
        self._thumb_labels = []
        for index, item in enumerate(images[:THUMBS_SHOWN]):
            label = QLabel()
            label.setObjectName("mediaThumb")
            label.setFixedSize(THUMB_SIDE, THUMB_SIDE)
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            label.setAccessibleName(image_name(item))
            label.setToolTip(image_name(item))
            label.setStyleSheet(
                "QLabel#mediaThumb { border: 1px solid palette(mid); border-radius: 4px;"
                " font-size: 9px; color: palette(placeholder-text); }"
            )
            self._thumb_box.insertWidget(index, label)
            self._thumb_labels.append((label, item.url or ""))
        self.thumb_row.setVisible(bool(self._thumb_labels))
        self.thumbnails_changed()

    def _set_platforms(self, platforms: list[PostPlatform]) -> None:
        for row in self._platform_rows:
            self.platforms_box.removeWidget(row)
            discard(row)
        self._platform_rows = [PlatformRow(platform) for platform in platforms]
        for row in self._platform_rows:
            self.platforms_box.addWidget(row)
        self.platforms_title.setVisible(bool(platforms))


DETAIL_CHARS = 5_000
"""What the side panel lays out of a post's text: more than any network takes in one post but
Facebook's; a 10 MB text from a server laid out whole in a wrapping label froze the window for
minutes (issue 19 §3)."""


def detail_text(content: str | None) -> str:
    """The post's text as the panel shows it: plain, and at most `DETAIL_CHARS` of it, saying so
    when cut. The HTML is cut before it is read (reading 10 MB of it costs seconds too)."""
    head = preview(content, DETAIL_CHARS * 4)
    text = preview(html_to_text(head.shown), DETAIL_CHARS)
    if not text.shown:
        return "(no text)"
    if not (head.truncated or text.truncated):
        return text.shown
    return (
        f"{text.shown}…\n\n(Showing the first {text.end:,} characters of a text of "
        f"{head.total:,} characters.)"
    )
