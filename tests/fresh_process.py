"""What tests need to run the app's code in a fresh interpreter: its own XDG folders, and a
`python -c` runner (a test process has imported everything already, so import-order and
start-up checks need a new one)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def xdg_environment(home: Path) -> dict[str, str]:
    """Config, data, cache, state and runtime folders under `home` (made here)."""
    env = {}
    for variable in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        folder = home / variable.lower()
        folder.mkdir(parents=True, exist_ok=True)
        env[variable] = str(folder)
    runtime = home / "runtime"
    runtime.mkdir(mode=0o700, parents=True, exist_ok=True)
    env["XDG_RUNTIME_DIR"] = str(runtime)
    return env


def run_python(code: str, env: dict[str, str] | None = None) -> str:
    """Run `code` offscreen in a fresh interpreter from the repository root; its stdout, or
    an assertion error with its stderr when it failed."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {}), "QT_QPA_PLATFORM": "offscreen"},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout
