"""The demo workspace lives: its publishing posts get outcomes, its webhooks get deliveries from
the built-in receivers, and the failing webhook gets paused."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from app.sandbox.clock import ManualClock
from app.sandbox.harness import SandboxServer

from .conftest import client_for

NOW = datetime(2030, 6, 15, 12, 0, tzinfo=UTC)


def test_demo_deliveries_pause_the_failing_webhook(tmp_path: Path) -> None:
    clock = ManualClock(NOW)
    with (
        SandboxServer(tmp_path / "demo.db", seed="demo", posts=40, now=clock) as demo,
        client_for(demo) as api,
    ):
        assert demo.engine is not None
        before = {w["endpoint"]: w for w in api.get("/webhooks").json()}
        for _ in range(4):
            demo.engine.run_once()
            clock.advance(timedelta(seconds=60))
        after = {w["endpoint"]: w for w in api.get("/webhooks").json()}

    failing = next(url for url in after if url.endswith("/failing/legacy-erp"))
    assert before[failing]["status"] == "enabled"
    assert after[failing]["status"] == "paused"
    assert after[failing]["consecutive_failures"] == 5
    healthy = next(url for url in after if url.endswith("/ok/northwind-crm"))
    assert after[healthy]["last_sent_at"] > before[healthy]["last_sent_at"]
    # Real events are skipped while paused or disabled.
    for url in after:
        if before[url]["status"] != "enabled":
            assert after[url]["last_sent_at"] == before[url]["last_sent_at"]
