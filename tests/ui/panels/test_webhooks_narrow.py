"""At 1024 px the webhooks list keeps the endpoint readable (it read "https://…")."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.panels.conftest import MakeSession
from ui.panels.webhooks import WebhooksPage


def test_a_narrow_window_gives_the_endpoint_the_room(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    make_session: MakeSession,
    tmp_path: Path,
) -> None:
    page = WebhooksPage()
    page.resize(830, 600)  # the page's share of a 1024 px window
    page.show()
    page.set_session(make_session(demo_sandbox.base_url, demo_sandbox.keys.admin))

    async def scenario() -> None:
        await until(lambda: page.model.rowCount() == 5, what="webhooks listed")
        longest = max(
            page.table.fontMetrics().horizontalAdvance(str(page.model.index(r, 1).data()))
            for r in range(5)
        )
        await until(lambda: page.table.isColumnHidden(4), what="Paused since gives its room")
        await until(
            lambda: page.table.columnWidth(1) >= min(longest, 300),
            what=f"the endpoint column whole enough (longest {longest} px)",
        )
        page.resize(1400, 800)
        await until(lambda: not page.table.isColumnHidden(4), what="wide again")

    runner.run(scenario())
    page.close()
