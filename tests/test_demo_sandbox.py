"""Demo mode's child server: it starts on a free loopback port and never outlives the app."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from app.workspaces.demo import DemoSandbox

ROOT = Path(__file__).resolve().parent.parent


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0); its state in /proc tells.
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split()[2] == "Z")


def _wait_until_gone(pid: int, limit: float = 20.0) -> bool:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.1)
    return False


def test_demo_sandbox_serves_the_demo_workspace_on_loopback(tmp_path: Path) -> None:
    demo = DemoSandbox(tmp_path / "demo.sqlite3", posts=40)
    endpoint = demo.start()
    try:
        assert endpoint.base_url.startswith("http://127.0.0.1:")
        assert endpoint.base_url.endswith("/api")
        headers = {"Authorization": f"Bearer {endpoint.api_key}"}
        accounts = httpx.get(f"{endpoint.base_url}/social-accounts", headers=headers).json()
        assert {account["platform"] for account in accounts} >= {"x", "linkedin", "discord"}
        posts = httpx.get(f"{endpoint.base_url}/posts", headers=headers).json()
        assert posts["meta"]["total"] == 40
        assert endpoint.api_key not in " ".join(_child_argv(demo))
    finally:
        demo.stop()
    assert not demo.running


def _child_argv(demo: DemoSandbox) -> list[str]:
    process = demo._process
    assert process is not None
    return Path(f"/proc/{process.pid}/cmdline").read_text().split("\0")


def test_the_child_stops_when_the_app_is_killed(tmp_path: Path) -> None:
    parent_script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from app.workspaces.demo import DemoSandbox\n"
        f"demo = DemoSandbox(Path({str(tmp_path / 'demo.sqlite3')!r}), posts=10)\n"
        "demo.start()\n"
        "print(demo._process.pid, flush=True)\n"
        "time.sleep(600)\n"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", parent_script], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert parent.stdout is not None
    child_pid = int(parent.stdout.readline())
    assert _alive(child_pid)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    parent.stdout.close()
    assert _wait_until_gone(child_pid), "the demo server outlived the killed app"


def test_the_demo_keeps_its_data_between_launches_until_it_is_reset(tmp_path: Path) -> None:
    from app.workspaces.demo import remove_database

    database = tmp_path / "demo.sqlite3"

    def posts_after_start() -> tuple[int, str]:
        demo = DemoSandbox(database, posts=30)
        endpoint = demo.start()
        try:
            headers = {"Authorization": f"Bearer {endpoint.api_key}"}
            page = httpx.get(f"{endpoint.base_url}/posts", headers=headers).json()
            first = str(page["data"][0]["id"])
            return page["meta"]["total"], first
        finally:
            demo.stop()

    total, first = posts_after_start()
    assert total == 30
    demo = DemoSandbox(database, posts=30)
    endpoint = demo.start()
    try:
        headers = {"Authorization": f"Bearer {endpoint.api_key}"}
        deleted = httpx.delete(f"{endpoint.base_url}/posts/{first}", headers=headers)
        assert deleted.status_code in (200, 204)
    finally:
        demo.stop()
    assert posts_after_start()[0] == 29, "the user's change survives a restart"
    remove_database(database)
    assert not database.exists()
    assert posts_after_start()[0] == 30, "a reset starts afresh"
