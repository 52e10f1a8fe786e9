"""Running the whole application in a test: the app's event loop, driven by the test body."""

from __future__ import annotations

from collections.abc import Iterator

import keyring
import pytest
from PySide6.QtWidgets import QApplication

from tests.keyrings import MemoryKeyring
from tests.ui.loop_runner import LoopRunner, until

__all__ = ["LoopRunner", "until"]


@pytest.fixture
def runner(qapp: QApplication) -> Iterator[LoopRunner]:
    loop_runner = LoopRunner(qapp)
    yield loop_runner
    loop_runner.close()


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)
