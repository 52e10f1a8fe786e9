"""Sending when the server commits the batch and the answer is lost (found live against the
odd server: "0 posts saved as draft" after the outbox had found the post by reading /posts)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.sandbox.harness import SandboxServer
from tests.ui.composer.conftest import Composer, until


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[SandboxServer]:
    """Every batch is committed, then its connection dropped."""
    with SandboxServer(tmp_path / "lost.db", seed="empty", fail_after_commit=1.0) as server:
        yield server


def test_a_batch_found_after_a_lost_answer_is_counted(composer: Composer) -> None:
    page = composer.page

    async def body() -> None:
        composer.choose("x", "linkedin")
        QTest.keyClicks(page.shared.text, "Made once, counted right")
        QTest.mouseClick(page.schedule.send, Qt.MouseButton.LeftButton)
        await until(lambda: "in the calendar" in page.status_line.text(), what="done")

    composer.run(body())
    assert composer.sandbox.store.post_count() == 2  # made once, never resent
    assert page.status_line.text().startswith("2 posts saved as draft.")
