"""Large delivery logs stay fast (issue 9 §6): a webhook with 10,000 log rows, seeded directly in
the sandbox database, served by the sandbox in its own process (so its work never holds our GIL).

1. `webhook_logs_open_ms`: select the webhook in the real `WebhooksPage` until the first page of
   its log is in the table and painted (median of 5 opens; each one a fresh model source, the
   7-day timeline loading alongside as in the app). Target <= 150 ms.
2. `webhook_logs_scroll_stall_ms`: scroll the log table, a few rows per frame like a fast wheel,
   until row 1,000 is loaded and on screen; the longest gap of a 5 ms heartbeat minus 5 ms
   (pages are fetched on demand while scrolling). Target <= 16 ms (one frame at 60 Hz).
3. `webhook_select_requests` (issue 14 §4): requests when the webhook, its 10,000 log rows read
   once before (kept in the workspace's file), is selected again after 20 new deliveries,
   counted by a relay in front of the sandbox until the log, its top-up and the chart are done.
   Target <= 3 (before: the log's page 1 and every page of 7 days for the chart, ~670).
"""

from __future__ import annotations

import asyncio
import os
import re
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
from app.store.local_store import LocalStore
from app.workspaces.profiles import Profile
from tests.bench.support import GcWatch, SandboxProcess, machine_info, record_results
from tests.ui.app.conftest import LoopRunner
from tests.ui.panels.counting_relay import CountingRelay
from ui.messages import MessageBridge
from ui.panels.webhooks import WebhooksPage
from ui.panels.webhooks.logs_model import LogRole
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
NEW_DELIVERIES = 20
TARGET_SELECT_REQUESTS = 3
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
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, Path]]:
    db = tmp_path_factory.mktemp("webhook-bench") / "sandbox.db"
    webhook_id = _seed_logs(db)
    with SandboxProcess(db, posts=0, latency_ms=0, api_key=API_KEY) as sandbox:
        yield sandbox.base_url, webhook_id, db


def _new_deliveries(db: Path, webhook_id: str, count: int, first: int) -> None:
    """Deliveries made while the page looked elsewhere, straight into the served database."""
    store = SandboxStore(db)
    try:
        with store.tx() as tx:
            for i in range(count):
                created = to_db(datetime.now(UTC))
                webhooks_repo.insert_log(
                    tx,
                    webhook_id,
                    "post.published",
                    _payload(LOG_ROWS + first + i),
                    state="delivered",
                    response_status=200,
                    attempts=1,
                    created_at=created,
                    finished_at=created,
                )
    finally:
        store.close()


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
    base_url, webhook_id, _db = served
    runner = LoopRunner(qapp)
    folder = tmp_path_factory.mktemp("webhook-bench-cache")
    local = LocalStore.open(folder / "bench.local.sqlite3")
    session = WorkspaceSession(
        Profile(id="bench", name="bench", base_url=base_url),
        API_KEY,
        WorkspaceCache(folder / "cache.sqlite3"),
        MessageBridge().scope(),
        local_store=local,
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
        local.close()
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


class AddressKeepingRelay(CountingRelay):
    """Counts requests and passes them on with the sandbox's own address in `Host`, as a reverse
    proxy does: the sandbox process answers 421 to any other (its DNS-rebinding guard,
    `app/sandbox/host_check.py`), and this bench's first list read waited for ever on that."""

    async def _to_server(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        host = re.compile(rb"(?i)(\r\nhost: 127\.0\.0\.1:)%d\r\n" % self.port)
        to = rb"\g<1>%d\r\n" % self.target_port

        class Rewriting:
            async def read(self, size: int) -> bytes:
                return host.sub(to, await reader.read(size))

        await super()._to_server(Rewriting(), writer)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def selection(
    served: tuple[str, str, Path], qapp: QApplication, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    base_url, webhook_id, db = served
    runner = LoopRunner(qapp)
    folder = tmp_path_factory.mktemp("webhook-bench-select")
    local = LocalStore.open(folder / "select.local.sqlite3")
    port = int(base_url.split(":")[-1].split("/")[0])
    relay = AddressKeepingRelay(port, b"GET /api/")
    page = WebhooksPage()
    page.resize(1280, 860)
    page.show()
    sessions: list[WorkspaceSession] = []

    def session() -> WorkspaceSession:
        made = WorkspaceSession(
            Profile(id="bench-select", name="bench", base_url=relay.base_url),
            API_KEY,
            WorkspaceCache(folder / f"cache-{len(sessions)}.sqlite3"),
            MessageBridge().scope(),
            local_store=local,
        )
        sessions.append(made)
        return made

    try:
        runner.run(relay.up())
        report = runner.run(_measure_selection(page, session, relay, webhook_id, db))
    finally:
        page.set_session(None)
        for made in sessions:
            runner.run(made.close())
        runner.run(relay.down())
        runner.close()
        local.close()
        page.deleteLater()
    record_results(
        {
            "webhook_select_requests": report["requests"],
            "webhook_archive_topup_requests": report["topup_requests"],
            "webhook_select": report,
        }
    )
    print()
    print(
        f"webhook select ({LOG_ROWS:,} rows read once, {NEW_DELIVERIES} new): "
        f"{report['requests']} requests (target <= {TARGET_SELECT_REQUESTS}); opening the page "
        f"in a new session ({NEW_DELIVERIES} more): {report['open_page_requests']} requests; "
        f"reading the {LOG_ROWS:,} rows once took {report['read_once_requests']} requests in "
        f"{report['read_once_s']:.1f} s; archive top-up of {NEW_DELIVERIES} new: "
        f"{report['topup_requests']} requests (target <= {TARGET_TOPUP_REQUESTS})"
    )
    return report


async def _measure_selection(
    page: WebhooksPage,
    new_session: Any,
    relay: CountingRelay,
    webhook_id: str,
    db: Path,
) -> dict[str, Any]:
    # Read once: the whole log, as scrolling to its end (or the background fill) reads it.
    first = new_session()
    page.set_session(first)
    await _until(lambda: page.selected is not None and page.logs.model.rowCount() > 0)
    started, before = time.perf_counter(), relay.count
    monitor = first.webhooks
    while (gap := monitor.archive.first_gap(webhook_id)) is not None:
        assert await monitor.fill_below(webhook_id, gap.id)
    read_once_s, read_once_requests = time.perf_counter() - started, relay.count - before
    kept = monitor.archive.count(webhook_id)
    assert kept == LOG_ROWS
    await _until(lambda: not len(page.tasks) and not monitor.busy)
    model = page.logs.model
    # Looking elsewhere while 20 deliveries are made; then the webhook is selected again.
    page.table.clearSelection()
    _new_deliveries(db, webhook_id, NEW_DELIVERIES, first=0)
    before = relay.count
    page.table.selectRow(0)
    await _until(
        lambda: (
            model.rowCount() > 0
            and page.chart.timeline is not None
            and not len(page.tasks)
            and not monitor.busy
        )
    )
    requests = relay.count - before
    kept_after_select = monitor.archive.count(webhook_id)
    newest = model.index(0, 0).data(LogRole)
    # The app started again (a new session on the same file), 20 more meanwhile: opening the
    # page reads the list and tops the log up.
    page.set_session(None)
    _new_deliveries(db, webhook_id, NEW_DELIVERIES, first=NEW_DELIVERIES)
    second = new_session()
    before = relay.count
    page.set_session(second)
    await _until(
        lambda: (
            page.logs.model.rowCount() > 0
            and page.chart.timeline is not None
            and not len(page.tasks)
            and not second.webhooks.busy
        )
    )
    open_page_requests = relay.count - before
    kept_after_restart = second.webhooks.archive.count(webhook_id)
    # The archive's own top-up (issue 17 §1): 20 more, read by the monitor alone.
    await _until(lambda: not len(page.tasks) and not second.webhooks.busy)
    kept_before_topup = second.webhooks.archive.count(webhook_id)
    _new_deliveries(db, webhook_id, NEW_DELIVERIES, first=2 * NEW_DELIVERIES)
    before = relay.count
    await second.webhooks.top_up(webhook_id)
    topup_requests = relay.count - before
    topup_added = second.webhooks.archive.count(webhook_id) - kept_before_topup
    return {
        "topup_requests": topup_requests,
        "topup_added": topup_added,
        "requests": requests,
        "kept": kept_after_select,
        "newest_shown": newest.id if newest is not None else None,
        "open_page_requests": open_page_requests,
        "kept_after_restart": kept_after_restart,
        "read_once_requests": read_once_requests,
        "read_once_s": read_once_s,
        "target_requests": TARGET_SELECT_REQUESTS,
        "log_rows": LOG_ROWS,
        "new_deliveries": NEW_DELIVERIES,
    }


def test_webhook_select_requests_within_3(selection: dict[str, Any]) -> None:
    assert selection["kept"] == LOG_ROWS + NEW_DELIVERIES
    assert selection["kept_after_restart"] == LOG_ROWS + 2 * NEW_DELIVERIES
    assert selection["requests"] <= TARGET_SELECT_REQUESTS, selection


# -- the delivery archive (issue 17) -------------------------------------------------------------

ARCHIVE_ROWS = 100_000
TARGET_SEARCH_MS = 50.0
TARGET_TOPUP_REQUESTS = 3
SEARCHES = 7


def _archived(n: int, now: datetime) -> Any:
    from app.webhooks.raw_log import RawDeliveryLog

    created = (now - timedelta(seconds=30 * n)).isoformat()
    failed = n % 23 == 0
    return RawDeliveryLog.model_validate(
        {
            "id": f"log-{n:06d}",
            "event_type": ("post.published", "post.created", "post.failed")[n % 3],
            "payload": {
                "id": f"env-{n}",
                "type": "post.published",
                "data": {
                    "id": f"post-{n}",
                    "status": "published",
                    "content": f"Post {n}: fresh roast of the week, come by for a taste.",
                    "labels": [{"id": "l1", "name": "Coffee"}],
                },
                "created_at": created,
            },
            "response_status": 500 if failed else 200,
            "response_body": "upstream exploded" if failed else '{"received":true}',
            "delivered_at": None if failed else created,
            "failed_at": created if failed else None,
            "attempts": 3 if failed else 1,
            "created_at": created,
        }
    )


@pytest.fixture(scope="module")
def archive_search(
    qapp: QApplication, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    from PySide6.QtWidgets import QTableView

    from app.store.delivery_logs import DeliveryArchive
    from app.store.delivery_search import DeliverySearch, LogQuery
    from ui.panels.webhooks.archive_search import SearchResultsModel

    runner = LoopRunner(qapp)
    local = LocalStore.open(tmp_path_factory.mktemp("archive-bench") / "bench.local.sqlite3")
    archive = DeliveryArchive(local)
    search = DeliverySearch(local)
    now = datetime.now(UTC)

    async def fill() -> float:
        chunk = 5_000
        for start in range(0, ARCHIVE_ROWS, chunk):
            logs = [_archived(n, now) for n in range(start, start + chunk)]
            await archive.store_run("hook-a", logs, reaches_end=start + chunk >= ARCHIVE_ROWS)
        started = time.perf_counter()
        await search.prepare()
        return time.perf_counter() - started

    model = SearchResultsModel()
    table = QTableView()
    table.setModel(model)
    table.resize(900, 600)
    table.show()
    queries = {
        "one post id": LogQuery(webhook_id="hook-a", text="post-73512"),
        "a rare word": LogQuery(webhook_id="hook-a", text="exploded"),
        "a word in every row": LogQuery(webhook_id="hook-a", text="roast"),
        "text + 5xx + event": LogQuery(
            webhook_id="hook-a", text="upstream", status_class="5xx", event="post.failed"
        ),
    }
    try:
        index_s = runner.run(fill())
        timings: dict[str, list[float]] = {name: [] for name in queries}
        found: dict[str, int] = {}
        for _ in range(SEARCHES):
            for name, query in queries.items():
                started = time.perf_counter()
                model.run(search, archive, query)
                table.viewport().repaint()  # the first results shown
                timings[name].append((time.perf_counter() - started) * 1000)
                found[name] = model.rowCount()
        medians = {name: statistics.median(runs) for name, runs in timings.items()}
        size = archive.summary()[0].bytes
        yield {
            "rows": ARCHIVE_ROWS,
            "medians_ms": medians,
            "worst_ms": max(medians.values()),
            "first_results": found,
            "index_build_s": index_s,
            "fts5": search.indexed,
            "archive_bytes": size,
        }
    finally:
        table.deleteLater()
        runner.close()
        local.close()


def test_webhook_search_within_50_ms(archive_search: dict[str, Any]) -> None:
    report = archive_search
    record_results({"webhook_search_ms": report["worst_ms"], "webhook_search": report})
    print()
    print(
        f"archive search over {report['rows']:,} rows (FTS5 {report['fts5']}): "
        + ", ".join(f"{name} {ms:.1f} ms" for name, ms in report["medians_ms"].items())
        + f"; index built in {report['index_build_s']:.1f} s; "
        f"{report['archive_bytes'] / 1e6:.0f} MB of logs"
    )
    assert report["first_results"]["one post id"] == 1
    assert report["first_results"]["a word in every row"] == 100
    assert report["worst_ms"] <= TARGET_SEARCH_MS, report["medians_ms"]


def test_webhook_archive_topup_requests_within_3(selection: dict[str, Any]) -> None:
    assert selection["topup_added"] == NEW_DELIVERIES
    assert selection["topup_requests"] <= TARGET_TOPUP_REQUESTS, selection


# -- a 5 MB response body (issue 19 §3) --------------------------------------------------------
HUGE_OPENS = 3
TARGET_HUGE_STALL_MS = 50.0


def _timed(steps: dict[str, float], name: str, page: WebhooksPage, action: Any) -> None:
    """Time `action` and the paint it causes."""
    started = time.perf_counter()
    action()
    page.repaint()
    steps[name] = (time.perf_counter() - started) * 1000


@pytest.fixture(scope="module")
def huge_delivery(qapp: QApplication, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """`webhook_huge_delivery_stall_ms`: the longest GUI stall (a 5 ms heartbeat's longest gap
    minus 5 ms) while a delivery whose response body is 5 MB (the odd server's `huge` mode, in
    its own process) is selected, its Response, Raw and Pretty tabs shown and painted, and
    "Show more" clicked once. Median of 3 opens, each parsing the log from the file again.
    Before: the body was laid out whole (12 minutes of frozen window)."""
    import subprocess
    import sys

    from app.content.long_text import MORE_CHARS
    from tests.tools.odd_hostile import HUGE_LOG_CHARS

    root = Path(__file__).resolve().parents[2]
    command = [sys.executable, "-m", "tests.tools.odd_server", "--port", "0"]
    command += ["--mode", "huge", "--quiet", "--key", API_KEY]
    server = subprocess.Popen(command, cwd=root, stdout=subprocess.PIPE, text=True)
    runner = LoopRunner(qapp)
    folder = tmp_path_factory.mktemp("huge-delivery")
    local = LocalStore.open(folder / "bench.local.sqlite3")
    page = WebhooksPage()
    page.resize(1280, 860)
    page.show()
    try:
        assert server.stdout is not None
        base_url = server.stdout.readline().strip()
        session = WorkspaceSession(
            Profile(id="huge", name="huge", base_url=base_url),
            API_KEY,
            WorkspaceCache(folder / "cache.sqlite3"),
            MessageBridge().scope(),
            local_store=local,
        )

        async def measure() -> dict[str, Any]:
            page.set_session(session)
            await _until(lambda: page.model.rowCount() > 0)
            page.table.selectRow(0)
            logs = page.logs
            await _until(lambda: logs.model.rowCount() > 1)
            detail = logs.detail
            runs: list[dict[str, float]] = []
            for _ in range(HUGE_OPENS):
                logs.select_row(1)
                logs.model._parsed.clear()  # parsed from the file again, as at a first open
                await asyncio.sleep(0.3)
                heartbeat = Heartbeat()
                heartbeat.timer.start()
                await asyncio.sleep(0.03)
                steps: dict[str, float] = {}
                _timed(steps, "select", page, lambda: logs.select_row(0))
                await asyncio.sleep(0.02)
                for name in ("response", "raw", "pretty"):
                    view = getattr(detail, name)
                    _timed(steps, name, page, lambda view=view: detail.setCurrentWidget(view))
                    await asyncio.sleep(0.02)
                detail.setCurrentWidget(detail.response)
                await asyncio.sleep(0.02)
                _timed(steps, "show more", page, detail.response.more_button.click)
                await asyncio.sleep(0.05)
                heartbeat.timer.stop()
                stall = heartbeat.stalls()[0]
                runs.append({"select_ms": steps["select"], **stall, "steps_ms": steps})
            part = detail.response.part()
            assert part.total > HUGE_LOG_CHARS
            assert part.end < 20_000 + MORE_CHARS + 100  # shown: bounded
            return {
                "body_chars": part.total,
                "runs": runs,
                "stall_ms": statistics.median(run["ms"] for run in runs),
                "worst_stall_ms": max(run["ms"] for run in runs),
                "select_ms": statistics.median(run["select_ms"] for run in runs),
                "load_average": os.getloadavg(),
                "target_ms": TARGET_HUGE_STALL_MS,
            }

        try:
            report = runner.run(measure())
        finally:
            page.set_session(None)
            runner.run(session.close())
    finally:
        runner.close()
        local.close()
        page.deleteLater()
        server.terminate()
        server.wait(timeout=10)
        if server.stdout is not None:
            server.stdout.close()
    record_results({"webhook_huge_delivery_stall_ms": report["stall_ms"], "webhook_huge": report})
    runs_ms = [run["ms"] for run in report["runs"]]
    print()
    print(
        f"a delivery with a {report['body_chars'] / 1e6:.1f} MB response body: longest stall "
        f"opening it {report['stall_ms']:.1f} ms (worst {report['worst_stall_ms']:.1f}; runs "
        f"{', '.join(f'{run_ms:.0f}' for run_ms in runs_ms)}; target <= "
        f"{TARGET_HUGE_STALL_MS:.0f}); the selection itself {report['select_ms']:.1f} ms; load "
        f"{report['load_average'][0]:.1f}"
    )
    return report


def test_webhook_huge_delivery_opens_within_50_ms(huge_delivery: dict[str, Any]) -> None:
    assert huge_delivery["stall_ms"] <= TARGET_HUGE_STALL_MS, huge_delivery["runs"]
