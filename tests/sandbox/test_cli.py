"""`python -m app.sandbox` as a child process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from app.sandbox.seed import DEMO_API_KEY

ROOT = Path(__file__).resolve().parents[2]


def _start(*args: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "app.sandbox", *args],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line.startswith("READY "), line
    return process, line.split(" ", 1)[1].strip()


def _finish(process: subprocess.Popen[str]) -> tuple[int, str]:
    """Wait for the exit (killing it if it hangs) and collect the rest of stdout."""
    try:
        code = process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        code = process.wait()
    assert process.stdout is not None
    rest = process.stdout.read()
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            stream.close()
    return code, rest


def test_prints_ready_answers_and_stops_on_sigterm(tmp_path: Path) -> None:
    process, base_url = _start("--port", "0", "--seed", "empty", "--db", str(tmp_path / "c.db"))
    try:
        assert base_url.startswith("http://127.0.0.1:")
        assert base_url.endswith("/api")
        headers = {"Authorization": f"Bearer {DEMO_API_KEY}"}
        response = httpx.get(f"{base_url}/social-accounts", headers=headers, trust_env=False)
        assert response.status_code == 200
        assert any(a["platform"] == "pinterest" for a in response.json())
        assert httpx.get(f"{base_url}/posts", trust_env=False).status_code == 401
    finally:
        process.send_signal(signal.SIGTERM)
        code, rest = _finish(process)
    assert code == 0
    assert rest == ""  # exactly one line on stdout


def test_key_from_environment_and_stdin_eof(tmp_path: Path) -> None:
    key = "pd_test_env_key_123456"
    process, base_url = _start(
        "--seed", "demo", "--posts", "20", "--exit-on-stdin-eof",
        env={"POSTDESK_SANDBOX_API_KEY": key},
    )  # fmt: skip
    try:
        headers = {"Authorization": f"Bearer {key}"}
        posts = httpx.get(f"{base_url}/posts", headers=headers, trust_env=False).json()
        assert posts["meta"]["total"] == 20
        demo = {"Authorization": f"Bearer {DEMO_API_KEY}"}
        assert httpx.get(f"{base_url}/posts", headers=demo, trust_env=False).status_code == 401
    finally:
        assert process.stdin is not None
        process.stdin.close()
        code, _ = _finish(process)
    assert code == 0


def test_reuses_an_existing_database(tmp_path: Path) -> None:
    db = tmp_path / "keep.db"
    process, base_url = _start("--seed", "empty", "--db", str(db))
    headers = {"Authorization": f"Bearer {DEMO_API_KEY}"}
    created = httpx.post(
        f"{base_url}/labels", json={"name": "Kept", "color": "#010203"}, headers=headers,
        trust_env=False,
    )  # fmt: skip
    assert created.status_code == 201
    process.send_signal(signal.SIGINT)
    assert _finish(process)[0] == 0

    process, base_url = _start("--seed", "empty", "--db", str(db))
    try:
        labels = httpx.get(f"{base_url}/labels", headers=headers, trust_env=False).json()
        assert [lb["name"] for lb in labels] == ["Kept"]
    finally:
        process.send_signal(signal.SIGTERM)
        _finish(process)


def test_demo_webhooks_live_with_a_short_retry_delay(tmp_path: Path) -> None:
    process, base_url = _start(
        "--seed", "demo", "--posts", "30", "--webhook-retry-delay", "0.1",
        "--db", str(tmp_path / "live.db"),
    )  # fmt: skip
    headers = {"Authorization": f"Bearer {DEMO_API_KEY}"}
    try:
        with httpx.Client(base_url=base_url, headers=headers, trust_env=False) as client:
            deadline = time.monotonic() + 15
            status = ""
            while time.monotonic() < deadline:
                hooks = client.get("/webhooks").json()
                failing = next(h for h in hooks if h["endpoint"].endswith("/failing/legacy-erp"))
                status = failing["status"]
                if status == "paused":
                    break
                time.sleep(0.1)
            assert status == "paused"
            posts = client.get("/posts").json()["data"]
            assert all(p["status"] != "publishing" for p in posts)
    finally:
        process.send_signal(signal.SIGTERM)
        code, _ = _finish(process)
    assert code == 0


def test_retry_delay_must_not_be_negative() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "app.sandbox", "--webhook-retry-delay", "-1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert "--webhook-retry-delay" in result.stderr
