"""Questions the calendar asks before a step that cannot be taken back, never with `exec()`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from ui.icons import network_name

if TYPE_CHECKING:
    from app.models import Post


def ask(
    parent: QWidget,
    title: str,
    text: str,
    informative: str,
    accept_text: str,
    on_accept: Callable[[], None],
    on_close: Callable[[], None],
    *,
    destructive: bool = False,
) -> QMessageBox:
    """A window-modal question opened with `open()`; Cancel is the default button."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning if destructive else QMessageBox.Icon.Question)
    box.setWindowTitle(title)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(text)
    box.setInformativeText(informative)
    role = (
        QMessageBox.ButtonRole.DestructiveRole if destructive else QMessageBox.ButtonRole.AcceptRole
    )
    accept_button = box.addButton(accept_text, role)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)

    def finished() -> None:
        if box.clickedButton() is accept_button:
            on_accept()
        on_close()
        box.deleteLater()

    box.finished.connect(finished)
    box.open()
    return box


def destinations_text(post: Post | None, networks: Sequence[str] = ()) -> str:
    """Where a post goes: "LinkedIn (Maya Chen) and X (@northwind)"; by network alone when
    only the calendar card is at hand."""
    names: list[str] = []
    if post is not None:
        platforms = [p for p in post.platforms if p.enabled] or post.platforms
        for platform in platforms:
            account = platform.social_account
            who = platform.display_name or (account.display_name if account else None)
            handle = platform.display_username or (account.username if account else None)
            label = who or (f"@{handle}" if handle else "")
            network = network_name(platform.platform)
            names.append(f"{network} ({label})" if label else network)
    else:
        names = [network_name(network) for network in networks]
    if not names:
        return "no network"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
