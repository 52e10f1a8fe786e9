"""A preview per destination: the text as that network cuts it (X: numbered thread parts, then
the replies), with the media in order. Built from `app.compose.preview`."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from app.compose.preview import DestinationPreview, preview
from app.models.accounts import SocialAccountSummary
from ui.composer.state import ComposerState
from ui.icons import network_name


def preview_html(item: DestinationPreview, who: str) -> str:
    rows = [
        f"<b>{html.escape(network_name(item.platform))}</b> · {html.escape(who)}"
        f"<br><span style='color:#666'>{html.escape(item.content_type)} · "
        f"{item.length}/{item.limit}</span>"
    ]
    for part in item.parts:
        label = (
            f"<span style='color:#666'>[{html.escape(part.label)}]</span> " if part.label else ""
        )
        text = html.escape(part.text).replace("\n", "<br>") or "<i style='color:#999'>(no text)</i>"
        rows.append(f"<p>{label}{text}</p>")
        if part.media:
            names = ", ".join(
                f"{i}. {html.escape(Path(m.path or m.url or 'file').name)}"
                for i, m in enumerate(part.media, start=1)
            )
            rows.append(f"<p style='color:#555'>Media: {names}</p>")
    if item.cut_off:
        rows.append(
            f"<p style='color:#b3261e'><s>{html.escape(item.cut_off[:400])}</s><br>"
            f"{item.over_by} characters over the limit are cut off.</p>"
        )
    return "".join(rows)


class PreviewPane(QScrollArea):
    def __init__(self, state: ComposerState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.setWidgetResizable(True)
        self.setObjectName("previewPane")
        self._body = QWidget()
        self._layout = QVBoxLayout(self._body)
        self._layout.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.setWidget(self._body)
        self.cards: list[QLabel] = []
        self.placeholder = QLabel("Choose accounts to see how the post will look on each.")
        self.placeholder.setWordWrap(True)
        self._layout.addWidget(self.placeholder)

    def refresh(self, accounts: dict[str, SocialAccountSummary]) -> None:
        doc = self.state.doc
        while len(self.cards) > len(doc.destinations):
            self.cards.pop().deleteLater()
        while len(self.cards) < len(doc.destinations):
            card = QLabel()
            card.setWordWrap(True)
            card.setTextFormat(Qt.TextFormat.RichText)
            card.setFrameShape(QFrame.Shape.StyledPanel)
            card.setMargin(8)
            card.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self._layout.addWidget(card)
            self.cards.append(card)
        for i, dest in enumerate(doc.destinations):
            account = accounts.get(dest.account_id)
            who = account.label if account is not None else dest.account_id
            self.cards[i].setText(preview_html(preview(doc, i, account), who))
        self.placeholder.setVisible(not doc.destinations)

    def preview_text(self, index: int) -> str:
        return self.cards[index].text() if index < len(self.cards) else ""
