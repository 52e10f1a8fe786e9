"""A locked keyring is called locked, and "The saved posts are shown" only when there are
some (issue 19 §5)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import keyring
import keyring.errors
import pytest
from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication

from app.workspaces.profiles import Profile
from tests.keyrings import MemoryKeyring
from ui.messages import MessageBridge
from ui.shell.main_window import MainWindow
from ui.shell.workspace_flows import WorkspaceFlows


class LockedKeyring(MemoryKeyring):
    def get_password(self, service: str, username: str) -> str | None:
        raise keyring.errors.KeyringLocked("collection is locked")


class Scope:
    def __init__(self) -> None:
        self.posted: list[Any] = []

    def post(self, message: Any) -> None:
        self.posted.append(message)


class Cache:
    def __init__(self, posts: int) -> None:
        self.posts = posts

    def count_posts(self) -> int:
        return self.posts


class Manager(QObject):
    keyNeeded = Signal(object, object)
    keyProblem = Signal(object)

    def __init__(self, posts: int) -> None:
        super().__init__()
        self.scope = Scope()
        self.cache = Cache(posts)


@pytest.fixture(autouse=True)
def locked_keyring() -> Iterator[None]:
    previous = keyring.get_keyring()
    keyring.set_keyring(LockedKeyring())
    yield
    keyring.set_keyring(previous)


def ask_for_key(posts: int) -> tuple[WorkspaceFlows, Manager]:
    import asyncio

    from ui.workspace_manager import KeyNeeded

    window = MainWindow(MessageBridge())
    manager = Manager(posts)
    flows = WorkspaceFlows(window, manager, None, None, None)  # type: ignore[arg-type]
    profile = Profile("ws-1", "Work", "https://api.example.com")
    with pytest.raises(KeyNeeded) as needed:
        asyncio.run(flows.saved_key(profile))
    flows._on_key_needed(profile, needed.value)
    flows.window_keep = window  # type: ignore[attr-defined]
    return flows, manager


def test_a_locked_keyring_is_described_as_locked(qapp: QApplication) -> None:
    flows, manager = ask_for_key(posts=3)
    dialog = flows.connect_dialog
    assert dialog is not None
    intro = dialog.intro_label.text()
    assert "locked" in intro
    assert "No system keyring" not in intro
    assert "locked" in manager.scope.posted[0].text
    dialog.close()


def test_the_saved_posts_are_mentioned_only_when_there_are_some(qapp: QApplication) -> None:
    flows, manager = ask_for_key(posts=0)
    assert "saved posts" not in (manager.scope.posted[0].hint or "")
    assert flows.connect_dialog is not None
    flows.connect_dialog.close()
    flows, manager = ask_for_key(posts=12)
    assert "The saved posts are shown" in (manager.scope.posted[0].hint or "")
    assert flows.connect_dialog is not None
    flows.connect_dialog.close()
