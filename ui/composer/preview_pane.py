"""A preview per destination that looks like that network's post: each post of a thread (and
each reply) on its own card, the media inside the card, the text folded with "… more" where
the network folds it (click to unfold), and nothing cut: cards grow to their whole text.
Built from `app.compose.preview`, which says exactly what will be sent.

Rendering rich text for every card is the costly part of a keystroke on a long post, so the
pane redraws once typing pauses (`REDRAW_AFTER_MS`), one destination per pass of the event loop
(a keystroke typed meanwhile waits for one card, not for all), only the cards whose text
changed, and not at all while folded away.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.compose.document import MediaAttachment
from app.compose.preview import DestinationPreview, PreviewPart, preview
from app.models.accounts import SocialAccountSummary
from ui.composer.state import ComposerState
from ui.icons import network_name

REDRAW_AFTER_MS = 120
THUMB = 96
BREAK_EVERY = 24
"""A run of this many characters without a space (a link, a hashtag chain) gets a place to wrap:
Qt wraps only at spaces, and one long link made the card wider than the column (issue 15 §5)."""
_LONG_RUN = re.compile(r"\S{" + str(BREAK_EVERY + 1) + ",}")

# Characters after which the network's feed folds a post behind "… more" (what their apps show
# in a feed today; they change it now and then, so these are approximate). Absent: no fold.
FOLD_AFTER = {
    "instagram": 125,
    "instagram-facebook": 125,
    "facebook": 477,
    "linkedin": 210,
    "linkedin-page": 210,  # a page's post folds in the feed like a member's
    "tiktok": 150,
    "pinterest": 100,
    "youtube": 100,
    "threads": 500,
}


def folded(text: str, platform: str) -> tuple[str, bool]:
    """The text as the feed first shows it, and whether a "… more" follows."""
    limit = FOLD_AFTER.get(platform)
    if limit is None or len(text) <= limit:
        return text, False
    cut = text.rfind(" ", 0, limit)
    return text[: cut if cut > limit // 2 else limit].rstrip(), True


def wrappable(text: str) -> str:
    """`text` escaped for a label, with zero-width spaces in runs too long to wrap otherwise."""
    broken = _LONG_RUN.sub(
        lambda m: "\u200b".join(
            m.group()[i : i + BREAK_EVERY] for i in range(0, len(m.group()), BREAK_EVERY)
        ),
        text,
    )
    return html.escape(broken).replace("\n", "<br>")


def part_html(part: PreviewPart, platform: str, unfolded: bool) -> str:
    label = f"<span style='color:#666'>[{html.escape(part.label)}]</span> " if part.label else ""
    text, more = (part.text, False) if unfolded else folded(part.text, platform)
    body = wrappable(text) or "<i style='color:#999'>(no text)</i>"
    if more:
        body += "… <a href='more' style='color:#666'>more</a>"
    return f"{label}{body}"


def header_html(item: DestinationPreview, who: str) -> str:
    return (
        f"<b>{html.escape(network_name(item.platform))}</b> · {html.escape(who)}"
        f"<br><span style='color:#666'>{wrappable(item.content_type)} · "
        f"{item.length}/{item.limit}</span>"
    )


def _media_tile(media: MediaAttachment) -> QLabel:
    tile = QLabel()
    tile.setFixedSize(THUMB, THUMB)
    tile.setAlignment(Qt.AlignmentFlag.AlignCenter)
    tile.setObjectName("previewMedia")
    name = Path(media.path or media.url or "file").name
    tile.setToolTip(name)
    tile.setAccessibleName(f"Media {name}")
    pixmap = QPixmap(media.path) if media.path else QPixmap()
    if not pixmap.isNull():
        tile.setPixmap(
            pixmap.scaled(
                THUMB,
                THUMB,
                Qt.AspectRatioMode.KeepAspectRatioByExpanding,
                Qt.TransformationMode.SmoothTransformation,
            )
        )
    else:
        kind = "▶" if "video" in (media.mime or "") else "🖼"
        tile.setText(f"{kind}\n{name[:14]}")
        tile.setWordWrap(True)
    tile.setStyleSheet("QLabel#previewMedia { background: #eee; border-radius: 6px; }")
    return tile


def _wrapping_label(text: str = "") -> QLabel:
    """A rich-text label that takes the column's width and grows in height, never in width."""
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    # Its own minimum width (the longest word) must not widen the card past the column.
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    label.setMinimumWidth(1)
    return label


class PartCard(QFrame):
    """One post as the network shows it."""

    def __init__(self, part: PreviewPart, platform: str, unfolded: bool, on_more: object) -> None:
        super().__init__()
        self.setObjectName("previewPart")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.source = (part_html(part, platform, unfolded), list(part.media))
        """What the card shows: compared before the next redraw, which keeps a card unchanged."""
        self.text = _wrapping_label(self.source[0])
        self.text.setObjectName("previewText")
        self.text.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.LinksAccessibleByMouse
            | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
        )
        self.text.linkActivated.connect(on_more)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.text)
        if part.media:
            strip = QHBoxLayout()
            strip.setSpacing(4)
            for media in part.media[:4]:
                strip.addWidget(_media_tile(media))
            if len(part.media) > 4:
                strip.addWidget(QLabel(f"+{len(part.media) - 4}"))
            strip.addStretch(1)
            layout.addLayout(strip)


class DestinationCard(QFrame):
    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("previewCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.header = _wrapping_label()
        self.cut = _wrapping_label()
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(6, 6, 6, 6)
        self._layout.addWidget(self.header)
        self.parts: list[PartCard] = []
        self._layout.addWidget(self.cut)
        self.unfolded = False
        self.html = ""

    def show_preview(self, item: DestinationPreview, who: str) -> None:
        # Only what changed is set again: laying out a long text is what a redraw costs.
        _set_text(self.header, header_html(item, who))
        wanted = [
            (part_html(part, item.platform, self.unfolded), list(part.media)) for part in item.parts
        ]
        if wanted != [card.source for card in self.parts]:
            for card in self.parts:
                card.hide()
                self._layout.removeWidget(card)
                card.deleteLater()
            self.parts = []
            for i, part in enumerate(item.parts):
                card = PartCard(part, item.platform, self.unfolded, self._unfold)
                self._layout.insertWidget(1 + i, card)
                self.parts.append(card)
        cut = ""
        if item.cut_off:
            cut = (
                f"<span style='color:#b3261e'><s>{wrappable(item.cut_off[:400])}</s><br>"
                f"{item.over_by} characters over the limit: this text cannot be sent.</span>"
            )
        _set_text(self.cut, cut)
        self.cut.setVisible(bool(cut))
        self.html = "".join([header_html(item, who), *(c.text.text() for c in self.parts), cut])

    def _unfold(self, _link: str) -> None:
        self.unfolded = True
        pane = self.parent()
        while pane is not None and not isinstance(pane, PreviewPane):
            pane = pane.parent()
        if isinstance(pane, PreviewPane):
            pane.redraw()


def _set_text(label: QLabel, text: str) -> None:
    if label.text() != text:
        label.setText(text)


class PreviewPane(QScrollArea):
    def __init__(self, state: ComposerState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.setWidgetResizable(True)
        self.setObjectName("previewPane")
        self.setAccessibleName("Preview on each network")
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._body = QWidget()
        self._layout = QVBoxLayout(self._body)
        self._layout.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.setWidget(self._body)
        self.cards: list[DestinationCard] = []
        self.placeholder = QLabel("Choose accounts to see how the post will look on each.")
        self.placeholder.setWordWrap(True)
        self._layout.addWidget(self.placeholder)
        self._accounts: dict[str, SocialAccountSummary] = {}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REDRAW_AFTER_MS)
        self._timer.timeout.connect(self._redraw_if_shown)
        self._stale = False
        # The redraw after a pause: one destination per pass of the event loop.
        self._next_card = 0
        self._step = QTimer(self)
        self._step.setSingleShot(True)
        self._step.setInterval(0)
        self._step.timeout.connect(self._draw_next_card)

    def refresh(self, accounts: dict[str, SocialAccountSummary]) -> None:
        """The document changed: redraw once typing pauses."""
        self._accounts = accounts
        self._step.stop()  # typing again: the cards left wait for the next pause
        self._timer.start()

    def showEvent(self, event: object) -> None:
        super().showEvent(event)  # type: ignore[arg-type]
        if self._pending():
            self.redraw()

    def _pending(self) -> bool:
        return self._timer.isActive() or self._step.isActive() or self._stale

    def _redraw_if_shown(self) -> None:
        if not self.isVisible():
            self._stale = True  # folded away: drawn when shown
            return
        self._stale = False
        self._match_card_count()
        self._next_card = 0
        self._draw_next_card()

    def _draw_next_card(self) -> None:
        doc = self.state.doc
        if self._next_card >= len(doc.destinations) or len(self.cards) != len(doc.destinations):
            return
        self._draw_card(self._next_card)
        self._next_card += 1
        if self._next_card < len(doc.destinations):
            self._step.start()

    def redraw(self) -> None:
        """Every card now (a click on "more", the pane shown, a test reading it)."""
        self._timer.stop()
        self._step.stop()
        self._stale = False
        self._match_card_count()
        for i in range(len(self.cards)):
            self._draw_card(i)

    def _match_card_count(self) -> None:
        doc = self.state.doc
        while len(self.cards) > len(doc.destinations):
            card = self.cards.pop()
            card.hide()
            card.deleteLater()
        while len(self.cards) < len(doc.destinations):
            card = DestinationCard()
            self._layout.addWidget(card)
            self.cards.append(card)
        self.placeholder.setVisible(not doc.destinations)

    def _draw_card(self, index: int) -> None:
        doc = self.state.doc
        dest = doc.destinations[index]
        account = self._accounts.get(dest.account_id)
        who = account.label if account is not None else dest.account_id
        self.cards[index].show_preview(preview(doc, index, account), who)

    def preview_text(self, index: int) -> str:
        """The HTML of destination `index`'s cards (drawn now if a redraw is pending)."""
        if self._pending():
            self.redraw()
        return self.cards[index].html if index < len(self.cards) else ""


def titled_column(title: str, pane: QWidget) -> QWidget:
    """The page's right column: a title over the preview."""
    column = QWidget()
    layout = QVBoxLayout(column)
    layout.setContentsMargins(0, 0, 0, 0)
    heading = QLabel(title)
    heading.setObjectName("sectionTitle")
    layout.addWidget(heading)
    layout.addWidget(pane, 1)
    column.setMinimumWidth(230)
    return column
