"""Large delivery logs stay fast (issue 9 §6): a webhook with 10,000 log rows, seeded directly in
the sandbox database, served by the sandbox in its own process (so its work never holds our GIL).

1. `webhook_logs_open_ms`: select the webhook in the real `WebhooksPage` until the first page of
   its log is in the table and painted (median of 5 opens; each one a fresh model source, the
   7-day timeline loading alongside as in the app). Target <= 150 ms.
2. `webhook_logs_scroll_stall_ms`: scroll the log table, a few rows per frame like a fast wheel,
   until row 1,000 is loaded and on screen; the longest gap of a 5 ms heartbeat minus 5 ms
   (pages are fetched on demand while scrolling). Target <= 16 ms (one frame at 60 Hz).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from app.runtime.gc_policy import settle_after_start
from app.sandbox import webhooks_repo
from app.sandbox.clock import to_db
from app.sandbox.seed import seed
from app.sandbox.store import SandboxStore
from app.store import WorkspaceCache
from app.workspaces.profiles import Profile
from tests.bench.support import GcWatch, SandboxProcess, machine_info, record_results
from tests.ui.app.conftest import LoopRunner
from ui.messages import MessageBridge
from ui.panels.webhooks import WebhooksPage
from ui.session import WorkspaceSession

pytestmark = pytest.mark.bench

LOG_ROWS = 10_000
OPENS = 5
TARGET_ROW = 1000
ROWS_PER_FRAME = 5
FRAME_S = 0.016
HEARTBEAT_MS = 5
TARGET_OPEN_MS = 150.0
TARGET_STALL_MS = 16.0
API_KEY = "bench-webhooks-key-0123456789"


def _payload(i: int) -> dict[str, Any]:
    return {
        "id": f"post-{i}",
        "workspace_id": "ws",
        "status": "published",
        "created_via": "api",
        "content": f"Post number {i}: fresh roast of the week, come by for a taste. " * 3,
        "labels": [{"id": "l1", "name": "Coffee", "color": "#7C4A1E"}],
        "media": [],
        "platforms": [
            {
                "id": f"pp-{i}-{n}",
                "platform": platform,
                "status": "published",
                "enabled": True,
                "platform_url": f"https://{platform}.example/p/{i}",
                "meta": {},
            }
            for n, platform in enumerate(("x", "linkedin", "threads"))
        ],
    }


def _seed_logs(db_path: Path) -> str:
    store = SandboxStore(db_path)
    try:
        seed(store, "empty", admin_key=API_KEY)
        webhook_id = store.create_webhook("https://hooks.example.com/bench")
        now = datetime.now(UTC)
        step = timedelta(days=7) / LOG_ROWS
        with store.tx() as db:
            for i in range(LOG_ROWS):
                created = now - step * i
                failed = i % 23 == 0
                webhooks_repo.insert_log(
                    db,
                    webhook_id,
                    ("post.published", "post.created", "post.scheduled")[i % 3],
                    _payload(i),
                    state="failed" if failed else "delivered",
                    response_status=500 if failed else 200,
                    response_body='{"received":true}',
                    attempts=3 if failed else 1,
                    created_at=to_db(created),
                    finished_at=to_db(created + timedelta(milliseconds=120)),
                )
    finally:
        store.close()
    return webhook_id


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    db = tmp_path_factory.mktemp("webhook-bench") / "sandbox.db"
    webhook_id = _seed_logs(db)
    with SandboxProcess(db, posts=0, latency_ms=0, api_key=API_KEY) as sandbox:
        yield sandbox.base_url, webhook_id


class Heartbeat:
    """Ticks every 5 ms; each tick also notes the thread's CPU time, so a gap can be told apart:
    our own work (CPU time grew as much as the gap) or the OS running someone else."""

    def __init__(self) -> None:
        self.ticks: list[tuple[float, float]] = []
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(HEARTBEAT_MS)
        self.timer.timeout.connect(
            lambda: self.ticks.append((time.perf_counter(), time.thread_time()))
        )

    def stalls(self) -> list[dict[str, float]]:
        """Gaps minus the interval, longest first, with the CPU time this thread used in them."""
        found = [
            {
                "ms": max(0.0, (b[0] - a[0]) * 1000 - HEARTBEAT_MS),
                "cpu_ms": (b[1] - a[1]) * 1000,
            }
            for a, b in zip(self.ticks, self.ticks[1:], strict=False)
        ]
        return sorted(found, key=lambda stall: stall["ms"], reverse=True)


async def _until(predicate: Any, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.001)


@pytest.fixture(scope="module")
def results(
    served: tuple[str, str], qapp: QApplication, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    base_url, webhook_id = served
    runner = LoopRunner(qapp)
    folder = tmp_path_factory.mktemp("webhook-bench-cache")
    session = WorkspaceSession(
        Profile(id="bench", name="bench", base_url=base_url),
        API_KEY,
        WorkspaceCache(folder / "cache.sqlite3"),
        MessageBridge().scope(),
    )
    page = WebhooksPage()
    page.resize(1280, 860)
    page.show()
    try:
        report = runner.run(_measure(page, session, webhook_id))
    finally:
        page.set_session(None)
        runner.run(session.close())
        runner.close()
        page.deleteLater()
    report["machine"] = machine_info()
    record_results(
        {
            "webhook_logs_open_ms": report["open_median_ms"],
            "webhook_logs_scroll_stall_ms": report["scroll_stall_ms"],
            "webhook_logs": report,
        }
    )
    print()
    print(
        f"webhook logs ({LOG_ROWS:,} rows): open {report['open_median_ms']:.0f} ms "
        f"(runs {', '.join(f'{v:.0f}' for v in report['open_runs_ms'])}; target <= "
        f"{TARGET_OPEN_MS:.0f}); longest stall scrolling to row {TARGET_ROW:,} "
        f"{report['scroll_stall_ms']:.1f} ms, {report['scroll_stall_cpu_ms']:.1f} ms of it on our "
        f"CPU (target <= {TARGET_STALL_MS:.0f}); load {report['load_average'][0]:.1f}; "
        f"most CPU in one gap {report['scroll_max_cpu_in_a_gap_ms']:.1f} ms; "
        f"{len(report['full_gc_passes_ms'])} full GC passes; scrolled in "
        f"{report['scroll_s']:.1f} s, {report['rows_loaded']} rows loaded"
    )
    return report


async def _measure(
    page: WebhooksPage, session: WorkspaceSession, webhook_id: str
) -> dict[str, Any]:
    page.set_session(session)
    await _until(lambda: page.model.rowCount() == 1)
    await _until(lambda: page.logs.model.rowCount() > 0 and page.chart.timeline is not None)
    settle_after_start()  # as the app does once its window has painted
    model = page.logs.model
    table = page.logs.table
    opens = []
    for _ in range(OPENS):
        await asyncio.sleep(0.2)
        page.selected = None  # as if another webhook had been shown
        started = time.perf_counter()
        page.table.clearSelection()
        page.table.selectRow(0)
        await _until(lambda: model.rowCount() > 0)
        table.viewport().repaint()
        opens.append((time.perf_counter() - started) * 1000)
    await _until(lambda: page.chart.timeline is not None)
    await asyncio.sleep(0.3)

    heartbeat = Heartbeat()
    watch = GcWatch()
    heartbeat.timer.start()
    bar = table.verticalScrollBar()
    assert table.verticalScrollMode() == table.ScrollMode.ScrollPerPixel
    row_height = table.verticalHeader().defaultSectionSize()
    started = time.perf_counter()
    deadline = time.monotonic() + 120
    watching = watch.watching()
    watching.__enter__()
    while True:
        bottom = table.rowAt(table.viewport().height() - 1)
        if bottom >= TARGET_ROW:
            break
        if time.monotonic() > deadline:
            raise AssertionError(f"stuck at row {bottom} with {model.rowCount()} loaded")
        bar.setValue(bar.value() + ROWS_PER_FRAME * row_height)
        await asyncio.sleep(FRAME_S)
    scroll_s = time.perf_counter() - started
    await asyncio.sleep(0.05)
    heartbeat.timer.stop()
    watching.__exit__(None, None, None)
    stalls = heartbeat.stalls()
    full_gc = [p.ms for p in watch.passes if p.generation == 2]
    return {
        "log_rows": LOG_ROWS,
        "open_runs_ms": opens,
        "open_median_ms": statistics.median(opens),
        "scroll_stall_ms": stalls[0]["ms"] if stalls else 0.0,
        "scroll_stall_cpu_ms": stalls[0]["cpu_ms"] if stalls else 0.0,
        "scroll_top_stalls": stalls[:5],
        "scroll_max_cpu_in_a_gap_ms": max((stall["cpu_ms"] for stall in stalls), default=0.0),
        "load_average": os.getloadavg(),
        "full_gc_passes_ms": full_gc,
        "scroll_s": scroll_s,
        "rows_loaded": model.rowCount(),
        "rows_per_frame": ROWS_PER_FRAME,
        "heartbeat_ms": HEARTBEAT_MS,
        "target_open_ms": TARGET_OPEN_MS,
        "target_scroll_stall_ms": TARGET_STALL_MS,
    }


def test_webhook_logs_open_within_150_ms(results: dict[str, Any]) -> None:
    assert results["open_median_ms"] <= TARGET_OPEN_MS, results["open_runs_ms"]


def test_webhook_logs_scroll_stall_within_16_ms(results: dict[str, Any]) -> None:
    assert results["scroll_stall_ms"] <= TARGET_STALL_MS, results["scroll_stall_ms"]
