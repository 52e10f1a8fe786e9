"""`--latency-ms`: the sandbox answers like a server far away (used by `make bench`)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.sandbox.cli import parse_args
from app.sandbox.http_support import SandboxSettings
from app.sandbox.seed import DEMO_API_KEY, seed
from app.sandbox.server import SimulatedLatency, create_app
from app.sandbox.store import SandboxStore

ROOT = Path(__file__).resolve().parents[2]
LATENCY_S = 0.2


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SandboxStore]:
    sandbox = SandboxStore(tmp_path / "latency.db")
    seed(sandbox, "empty", admin_key=DEMO_API_KEY)
    yield sandbox
    sandbox.close()


def _client(store: SandboxStore, latency_ms: int) -> httpx.AsyncClient:
    app = create_app(store, SandboxSettings(latency_ms=latency_ms))
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://sandbox/api",
        headers={"Authorization": f"Bearer {DEMO_API_KEY}"},
    )


def test_off_by_default(store: SandboxStore) -> None:
    assert parse_args([]).latency_ms == 0
    assert SandboxSettings().latency_ms == 0
    middleware = [entry.cls for entry in create_app(store).user_middleware]
    assert SimulatedLatency not in middleware


def test_option_is_parsed_and_must_not_be_negative(capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_args(["--latency-ms", "50"]).latency_ms == 50
    with pytest.raises(SystemExit):
        parse_args(["--latency-ms", "-1"])
    assert "must be 0 or more" in capsys.readouterr().err


@pytest.mark.asyncio
async def test_every_request_waits_but_requests_overlap(store: SandboxStore) -> None:
    async with _client(store, int(LATENCY_S * 1000)) as client:
        started = time.monotonic()
        response = await client.get("/labels")
        assert time.monotonic() - started >= LATENCY_S
        assert response.status_code == 200
        # The wait is an asyncio.sleep, not a blocking one: five requests at once take about
        # one latency, far from five.
        started = time.monotonic()
        responses = await asyncio.gather(*(client.get("/labels") for _ in range(5)))
        elapsed = time.monotonic() - started
    assert [r.status_code for r in responses] == [200] * 5
    assert LATENCY_S <= elapsed < 5 * LATENCY_S


@pytest.mark.asyncio
async def test_errors_are_delayed_too(store: SandboxStore) -> None:
    async with _client(store, int(LATENCY_S * 1000)) as client:
        started = time.monotonic()
        response = await client.get("/no-such-route")
        assert time.monotonic() - started >= LATENCY_S
    assert response.status_code == 404
    assert response.json() == {"message": "The route api/no-such-route could not be found."}


def test_command_line_serves_with_latency(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "app.sandbox", "--seed", "empty", "--latency-ms", "200"),
            *("--db", str(tmp_path / "cli.db"), "--exit-on-stdin-eof"),
        ],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "POSTDESK_SANDBOX_API_KEY": DEMO_API_KEY},
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("READY "), line
        base_url = line.split(" ", 1)[1].strip()
        headers = {"Authorization": f"Bearer {DEMO_API_KEY}"}
        with httpx.Client(headers=headers, trust_env=False) as client:
            client.get(f"{base_url}/labels")  # connection set up outside the timing
            started = time.monotonic()
            response = client.get(f"{base_url}/labels")
            elapsed = time.monotonic() - started
        assert response.status_code == 200
        assert elapsed >= 0.2
    finally:
        assert process.stdin is not None
        assert process.stdout is not None
        process.stdin.close()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()
