"""The start-up path stays light: the cached calendar paints before the client is imported."""

from __future__ import annotations

import os
import subprocess
import sys


def test_the_start_up_modules_do_not_import_the_client_or_the_models() -> None:
    probe = (
        "import sys\n"
        "import ui.main, ui.cli, ui.application, ui.calendar, app.store\n"
        "heavy = [m for m in ('httpx', 'keyring', 'pydantic', 'app.api', 'app.models')"
        " if m in sys.modules]\n"
        "assert not heavy, f'imported before the first paint: {heavy}'\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
