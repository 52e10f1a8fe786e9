"""A sender process killed with SIGKILL in the middle of sending: the next start creates every
batch exactly once (reconciling the one that was in flight)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.models.requests import BatchRequest, Destination
from app.sandbox.harness import SandboxServer
from app.store.local_store import LocalStore
from app.sync.outbox import Outbox, OutboxState
from app.sync.outbox_sender import OutboxSender
from tests.api.helpers import sandbox_client

ROOT = Path(__file__).resolve().parents[2]
BATCHES = 40

_CHILD = """
import asyncio, sys
from pathlib import Path
from app.api.client import ApiClient
from app.store.local_store import LocalStore
from app.sync.outbox import Outbox, OutboxState
from app.sync.outbox_sender import OutboxSender

async def main() -> None:
    store = LocalStore.open(Path(sys.argv[1]))
    outbox = Outbox(store)
    def report(entry) -> None:
        if entry.state is OutboxState.SENT:
            print("sent", entry.id, flush=True)
    outbox.listeners.append(report)
    async with ApiClient(sys.argv[2], sys.stdin.readline().strip()) as client:
        await OutboxSender(outbox, client, settle_seconds=0).send_pending()

asyncio.run(main())
"""


@pytest.mark.asyncio
async def test_a_sender_killed_mid_send_loses_and_doubles_nothing(
    sandbox: SandboxServer, tmp_path: Path
) -> None:
    path = tmp_path / "crash.local.sqlite3"
    store = LocalStore.open(path)
    x = sandbox.store.account_id("x")
    for n in range(BATCHES):
        await Outbox(store).enqueue(
            BatchRequest(
                content=f"Crash test {n}",
                destinations=[Destination(social_account_id=x, content_type="x_post")],
            )
        )
    store.close()

    sent_before = await asyncio.to_thread(_send_and_kill, path, sandbox)
    assert sent_before == 8, "the child did not get going"

    reopened = LocalStore.open(path)
    try:
        outbox = Outbox(reopened)
        async with sandbox_client(sandbox) as client:
            # Give a request the child left running on the server time to finish first.
            sender = OutboxSender(outbox, client, settle_seconds=1)
            for _ in range(20):
                result = await sender.send_pending()
                if not outbox.entries(
                    [OutboxState.QUEUED, OutboxState.SENDING, OutboxState.OUTCOME_UNKNOWN]
                ):
                    break
                await _sleep(result.retry_in)
        entries = outbox.entries()
    finally:
        reopened.close()
    assert [entry.state for entry in entries] == [OutboxState.SENT] * BATCHES
    assert sandbox.store.post_count() == BATCHES
    credited = {post_id for entry in entries for post_id in entry.post_ids}
    assert len(credited) == BATCHES


def _send_and_kill(path: Path, sandbox: SandboxServer) -> int:
    """Start a sender process on `path` and SIGKILL it right after its 8th sent batch."""
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(path), sandbox.base_url],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdin is not None
    assert child.stdout is not None
    child.stdin.write(sandbox.keys.admin + "\n")  # the key never goes on the command line
    child.stdin.flush()
    sent = 0
    deadline = time.monotonic() + 60
    while sent < 8 and time.monotonic() < deadline:
        if not child.stdout.readline():
            break
        sent += 1
    child.send_signal(signal.SIGKILL)
    child.wait()
    child.stdin.close()
    child.stdout.close()
    return sent


async def _sleep(seconds: float | None) -> None:
    await asyncio.sleep(min(seconds or 0.05, 2.0))
