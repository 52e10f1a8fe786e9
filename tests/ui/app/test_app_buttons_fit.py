"""Every section of the real app, at the smallest supported window and at the preferred one:
no visible button is narrower than its label (a cut label read ":hedule in 1 ho")."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtWidgets import QApplication, QPushButton

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import api_key, options, started  # noqa: F401
from tests.ui.waits import settle_layouts
from ui.application import Application
from ui.sections import SECTIONS
from ui.shell.main_window import MINIMUM_SIZE, PREFERRED_SIZE


@pytest.mark.parametrize("size", [MINIMUM_SIZE, PREFERRED_SIZE])
def test_no_button_label_is_cut_in_any_section(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
    size: tuple[int, int],
) -> None:
    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        app.window.resize(*size)
        cut: list[str] = []
        for section in SECTIONS:
            app.window.show_section(section)  # pages are built on first show
            page = app.window.pages.currentWidget()
            # What the page shows once its reads are done, laid out.
            tasks = getattr(page, "tasks", ())
            await until(lambda t=tasks: len(t) == 0, what=f"the {section} page's reads")
            settle_layouts()
            for button in page.findChildren(QPushButton):
                if button.isVisible() and button.text():
                    # The label, the style's smallest side padding (6 px) and the border.
                    needed = button.fontMetrics().horizontalAdvance(button.text()) + 2 * 6 + 2
                    if button.width() < needed:
                        cut.append(f"{section}: {button.text()!r} {button.width()} < {needed}")
        assert cut == []
        app.window.close()
        assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())
