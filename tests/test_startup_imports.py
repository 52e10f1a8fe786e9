"""The start-up path stays light: the cached calendar paints before the client is imported.

Each check runs in a fresh interpreter, since this test process has imported everything already.
"""

from __future__ import annotations

import os
import subprocess
import sys

# Slow to import (httpx, keyring, pydantic models) or only needed after the first paint.
LATE_MODULES = (
    "httpx",
    "keyring",
    "pydantic",
    "app.api",
    "app.models",
    "app.sync.service",
    "app.workspaces.demo",
    "app.workspaces.verification",
    "ui.session",
    "ui.dialogs.welcome",
    "ui.dialogs.connect_workspace",
)

CHECK = f"""
import sys
late = [name for name in {LATE_MODULES!r} if name in sys.modules]
assert not late, f"imported before the first paint: {{late}}"
"""


def run_python(code: str, **env: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", **env},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_the_start_up_modules_import_nothing_slow() -> None:
    run_python("import ui.main, ui.cli, ui.application, ui.calendar, app.store\n" + CHECK)


def test_nothing_slow_is_imported_until_the_cached_calendar_is_shown() -> None:
    # Stops the run at the moment Application lets Qt paint the opened workspace.
    opening = """
import asyncio
from PySide6.QtWidgets import QApplication
from ui.application import Application
from ui.cli import parse_args

class Painted(Exception):
    pass

async def at_first_paint(self):
    assert type(self.calendar.source).__name__ == "WorkspaceCache"
    raise Painted

Application._after_first_paint = at_first_paint
qt_app = QApplication([])

async def main():
    options = parse_args(["--base-url", "http://127.0.0.1:9/api"])
    try:
        await Application(qt_app, options).run()
    except Painted:
        return
    raise AssertionError("the workspace was not opened")

asyncio.run(main())
"""
    run_python(opening + CHECK, POSTDESK_API_KEY="key-of-this-test")
