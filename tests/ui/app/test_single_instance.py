"""A second `postdesk` on the same data folder brings the running window to the front and ends
(exit 0, a line on stdout), instead of stopping with an "already running" dialog."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import api_key, options, started, stopped  # noqa: F401
from ui.application import Application
from ui.shell.single_instance import ask_running_to_raise, socket_name

ROOT = Path(__file__).resolve().parents[3]


def test_a_second_launch_raises_the_running_window(
    qapp: QApplication,
    runner: LoopRunner,
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        assert app.raiser is not None
        assert app.raiser.listening
        app.window.showMinimized()
        await until(app.window.isMinimized, what="the window minimized")
        second = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "ui.main",
            "--demo",
            cwd=ROOT,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(second.communicate(), 60)
        assert second.returncode == 0, err.decode()
        assert "already running" in out.decode()
        assert "Traceback" not in err.decode()
        assert not app.window.isMinimized()
        assert app.window.isVisible()
        assert await stopped(app, task) == 0

    runner.run(scenario())


def test_nobody_answers_when_no_postdesk_runs(tmp_path: Path) -> None:
    assert ask_running_to_raise(socket_name(tmp_path), timeout_ms=200) is False
