"""Demo mode: the sandbox API in a child process on a free loopback port, seeded with the demo
workspace. The child reads our end of a pipe on stdin and exits at EOF, so it stops even when the
app is killed (the kernel closes the pipe with the dying process).

The demo's database is kept between launches, so what the user changed in the demo is still
there next time; `remove_database` (Workspace ▸ Reset demo data) starts it afresh."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

READY_PREFIX = "READY "


def remove_database(path: Path) -> None:
    """Delete an SQLite file with its WAL and shared-memory companions."""
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


class DemoStartFailed(Exception):
    """The demo sandbox did not come up; the message says why, in words."""


@dataclass(frozen=True)
class DemoEndpoint:
    base_url: str
    api_key: str


SANDBOX_CHILD_FLAG = "--sandbox-child"
"""First argument that makes a frozen Postdesk run the sandbox instead of the app: a frozen build
has no `python -m app.sandbox`."""


def sandbox_command(python: str) -> list[str]:
    if getattr(sys, "frozen", False):
        return [sys.executable, SANDBOX_CHILD_FLAG]
    return [python, "-m", "app.sandbox"]


def run_sandbox_child(argv: list[str]) -> int:
    """The sandbox's own command line, for `postdesk --sandbox-child …` in a frozen build."""
    from app.sandbox.cli import main

    return main(argv)


def child_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """What the demo's server process inherits: everything but the user's real API key (the
    demo never needs it, and a child's environment is readable by more than its parent's)."""
    from app.workspaces.key_vault import ENV_API_KEY

    return {name: value for name, value in environ.items() if name != ENV_API_KEY}


class DemoSandbox:
    def __init__(self, db_path: Path, *, posts: int | None = None, python: str | None = None):
        self._db_path = db_path
        self._posts = posts
        self._python = python or sys.executable
        self._process: subprocess.Popen[str] | None = None
        self._stderr_tail: list[str] = []

    def start(self, timeout: float = 30.0) -> DemoEndpoint:
        """Blocking: call it off the UI thread (e.g. `asyncio.to_thread`)."""
        from app.sandbox.seed import DEMO_API_KEY

        self._db_path.parent.mkdir(parents=True, exist_ok=True)
        command = [*sandbox_command(self._python), "--port", "0", "--seed", "demo"]
        # Retries 10 s apart (not the service's 60 s) so the demo's failing webhook pauses live.
        command += ["--webhook-retry-delay", "10"]
        command += ["--db", str(self._db_path), "--exit-on-stdin-eof"]
        if self._posts is not None:
            command += ["--posts", str(self._posts)]
        env = child_environment(os.environ)
        env["POSTDESK_SANDBOX_API_KEY"] = DEMO_API_KEY
        self._process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=Path(__file__).resolve().parents[2],
        )
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        line = self._read_ready_line(timeout)
        return DemoEndpoint(base_url=line.removeprefix(READY_PREFIX).strip(), api_key=DEMO_API_KEY)

    def _read_ready_line(self, timeout: float) -> str:
        assert self._process is not None
        assert self._process.stdout is not None
        result: list[str] = []
        reader = threading.Thread(
            target=lambda: result.append(self._process.stdout.readline()),  # type: ignore[union-attr]
            daemon=True,
        )
        reader.start()
        reader.join(timeout)
        line = result[0] if result else ""
        if not line.startswith(READY_PREFIX):
            self.stop()
            detail = " ".join(self._stderr_tail[-3:]).strip() or "no output"
            raise DemoStartFailed(f"The demo workspace server did not start ({detail}).")
        return line

    def _drain_stderr(self) -> None:
        # Keeps the pipe from filling up; the tail explains a failed start.
        process = self._process
        if process is None or process.stderr is None:
            return
        for line in process.stderr:
            self._stderr_tail = [*self._stderr_tail[-19:], line.rstrip()]

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def stop(self, timeout: float = 5.0) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.terminate()
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()
