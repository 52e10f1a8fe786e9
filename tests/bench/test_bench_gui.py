"""GUI responsiveness with 3,000 posts (`make bench`, issue 7 §3): keys `action_stall_ms` and
`month_switch_ms` in bench-results.json (merged with `record_results`).

1. The user reschedules 20 posts while a full sync of 3,000 posts runs: the real app
   (`ui.application.Application`: window, workspace session, its sync, the real cache copied
   from a warm one, the sandbox in its own process) in its qasync loop, with a 5 ms PreciseTimer
   heartbeat. The app opens the warm cache and starts its full sync; each action is
   `calendar.rescheduleRequested` as a drag or the dialog emits it, through the shell's wiring
   to the session (write gate, PUT, the writer thread storing the answer, `postsStored` ->
   `CalendarPage.show_posts`, the "Post rescheduled." banner), 50 ms apart.
   `action_stall_ms` is the longest heartbeat gap (minus the 5 ms interval) while the actions
   run, whatever caused it (the user feels them all), worst of 3 runs. Target <= 16 ms.
   For comparison, the parts alone (a calendar page, a sync service and the client, no window):
   `action_stall_reload_ms` redraws with `reload()` after each action (before the session
   announced its writes), `action_stall_blocking_write_ms` also stores with the blocking
   `cache.upsert_post`.
2. Month switch: `CalendarPage.go_next()` / `go_previous()` on a real cache of 3,000 posts
   (~1,000 in a month), each followed by processing the events it posted (layout and paint).
   `month_switch_ms` is the slowest of 12 switches 0.3 s apart (a user's pause between clicks,
   in which the page reads the neighbouring months ahead; the median is reported too).
   Target <= 16 ms. `month_switch_back_to_back_ms`: the same with no pause (information).
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import os
import shutil
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer
from PySide6.QtWidgets import QApplication

from app.api.client import ApiClient
from app.runtime.gc_policy import settle_after_start
from app.sandbox.seed import DEMO_API_KEY
from app.store import CacheChange, WorkspaceCache
from app.sync import SyncService
from tests.bench.support import SandboxProcess, machine_info, median, record_results
from tests.fresh_process import xdg_environment
from ui.event_loop import EventLoop

pytestmark = pytest.mark.bench

T = TypeVar("T")

POSTS = 3000
ACTIONS = 20
ACTION_PAUSE_S = 0.05
SWITCHES = 6
MONTH_PAUSE_S = 0.3
APP_RUNS = 3
PARTS_RUNS = [(False, False), (True, False)]
"""(blocking store, calendar updated with `show_posts` instead of `reload`) of each parts run."""
HEARTBEAT_MS = 5
TARGET_ACTION_STALL_MS = 16.0
TARGET_MONTH_SWITCH_MS = 16.0


@dataclass
class Segments:
    """Spans (perf_counter) of synchronous GUI-thread work, by what did it."""

    spans: dict[str, list[tuple[float, float]]] = field(default_factory=dict)

    def add(self, name: str, start: float, end: float) -> None:
        self.spans.setdefault(name, []).append((start, end))

    def timed(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        """`function`, unchanged, with the span of every call recorded."""

        def timed_call(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.add(name, started, time.perf_counter())

        return timed_call


def gap_around(ticks: list[float], start: float, end: float) -> float:
    """The heartbeat gap (ms, minus the interval) that contains [start, end]."""
    before = max((tick for tick in ticks if tick <= start), default=start)
    after = min((tick for tick in ticks if tick >= end), default=end)
    return max(0.0, (after - before) * 1000 - HEARTBEAT_MS)


def longest_gap(ticks: list[float], begin: float, finish: float) -> float:
    gaps = [
        (after - before) * 1000 - HEARTBEAT_MS
        for before, after in itertools.pairwise(ticks)
        if after >= begin and before <= finish
    ]
    return max(gaps, default=0.0)


def run(loop: EventLoop, coro: Coroutine[Any, Any, T]) -> T:
    result: T = loop.run_until_complete(coro)
    return result


def app_client(base_url: str) -> ApiClient:
    """The client the app makes for this workspace. With another server zone (`UTC` instead of
    the profile's `ZoneInfo("UTC")`) every stored time reads differently, and a sync would find
    all 3,000 posts and the accounts changed against the warm cache, which no user's cache does."""
    from ui.shell.first_workspace import profile_for_base_url

    return ApiClient(
        base_url, DEMO_API_KEY, server_tz=profile_for_base_url(base_url, "UTC").server_tz
    )


async def fill_cache(base_url: str, path: Path) -> list[str]:
    """A warm cache (as the user has it), and 20 scheduled future posts to reschedule."""
    cache = WorkspaceCache(path)
    try:
        async with app_client(base_url) as client:
            service = SyncService(client, cache, on_state=lambda _: None, on_changed=lambda _: None)
            assert await service.full_refresh(), service.state
        soon = datetime.now(UTC) + timedelta(days=1)
        cards = cache.cards_between(soon, soon + timedelta(days=40), statuses=["scheduled"])
        assert len(cards) >= ACTIONS, len(cards)
        return [card.id for card in cards[:ACTIONS]]
    finally:
        cache.close()


async def actions_during_sync(
    base_url: str,
    cache_path: Path,
    post_ids: list[str],
    *,
    blocking: bool,
    incremental: bool = False,
) -> dict[str, Any]:
    from ui.calendar import CalendarPage

    cache = WorkspaceCache(cache_path)
    page = CalendarPage(cache)
    page.resize(1100, 760)
    page.show()
    segments = Segments()
    ticks: list[float] = []
    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(HEARTBEAT_MS)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))

    def reload() -> None:
        started = time.perf_counter()
        page.reload()
        segments.add("calendar reload", started, time.perf_counter())

    sync_store: list[tuple[float, float]] = []
    try:
        async with app_client(base_url) as client:
            service = SyncService(
                client, cache, on_state=lambda _: None, on_changed=lambda _change: reload()
            )
            original_store = cache.store_full_refresh_async

            async def timed_store(*args: Any, **kwargs: Any) -> CacheChange:
                started = time.perf_counter()
                try:
                    return await original_store(*args, **kwargs)
                finally:
                    sync_store.append((started, time.perf_counter()))

            cache.store_full_refresh_async = timed_store  # type: ignore[method-assign]
            await asyncio.sleep(0.1)  # the page's first paint is not the measurement's
            settle_after_start()
            timer.start()
            await asyncio.sleep(0.05)
            begin = time.perf_counter()
            sync = asyncio.ensure_future(service.full_refresh())
            overlapping = 0
            for number, post_id in enumerate(post_ids):
                when = datetime.now(UTC) + timedelta(days=2, minutes=15 * number)
                post = await client.posts.reschedule(post_id, when)
                started = time.perf_counter()
                if blocking:
                    cache.upsert_post(post)
                    segments.add("store (blocking)", started, time.perf_counter())
                else:
                    stored = asyncio.ensure_future(cache.upsert_post_async(post))
                    segments.add("store (submit)", started, time.perf_counter())
                    await stored
                overlapping += not sync.done()
                if incremental:
                    started = time.perf_counter()
                    page.show_posts([post])
                    segments.add("calendar show_posts", started, time.perf_counter())
                else:
                    reload()
                await asyncio.sleep(ACTION_PAUSE_S)
            actions_done = time.perf_counter()
            assert await sync, service.state
            finish = time.perf_counter()
            await asyncio.sleep(0.1)
            timer.stop()
    finally:
        page.close()
        page.deleteLater()
        cache.close()
    action_gaps = {
        name: max(gap_around(ticks, start, end) for start, end in spans)
        for name, spans in segments.spans.items()
    }
    own = {
        name: max((end - start) * 1000 for start, end in spans)
        for name, spans in segments.spans.items()
    }
    return {
        "blocking_write": blocking,
        "incremental": incremental,
        "actions": len(post_ids),
        "actions_during_sync": overlapping,
        "sync_s": finish - begin,
        "actions_s": actions_done - begin,
        "sync_store_ms": [(end - start) * 1000 for start, end in sync_store],
        "action_stall_ms": longest_gap(ticks, begin, actions_done),
        "action_gap_by_segment_ms": action_gaps,
        "action_own_work_max_ms": own,
        "max_stall_whole_run_ms": longest_gap(ticks, begin, finish),
    }


async def app_actions_during_sync(
    base_url: str, warm: Path, post_ids: list[str], home: Path, run_number: int
) -> dict[str, Any]:
    """The real app over a copy of the warm cache: 20 reschedules while its first sync runs."""
    from app.workspaces.profiles import Paths
    from ui.application import Application, profile_for_base_url
    from ui.cli import Options

    qt_app = QApplication.instance()
    assert isinstance(qt_app, QApplication)
    segments = Segments()
    ticks: list[float] = []
    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(HEARTBEAT_MS)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    with pytest.MonkeyPatch.context() as patch:
        for variable, value in xdg_environment(home).items():
            patch.setenv(variable, value)
        patch.setenv("POSTDESK_API_KEY", DEMO_API_KEY)
        cache_path = Paths().profile_db(profile_for_base_url(base_url, "UTC").id)
        cache_path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(warm, cache_path)
        options = Options(
            demo=False,
            base_url=base_url,
            server_timezone="UTC",
            view="calendar",
            date=None,
            screenshot=None,
            demo_posts=None,
        )
        app = Application(qt_app, options)
        app.window.resize(1280, 800)
        running = asyncio.ensure_future(app.run())
        try:
            await wait_for(lambda: app.session is not None, "the session")
            session = app.session
            assert session is not None
            await wait_for(lambda: session.state is not None, "the sync")
            assert session.state is not None
            assert session.state.phase == "syncing", session.state
            calendar = app.calendar
            # The posts move to one day: its month is shown (a user drags within the month).
            day = datetime.now(UTC) + timedelta(days=2)
            calendar.go_to(day.astimezone(calendar.display_tz).date())
            for name in ("show_posts", "forget_posts", "reload"):
                setattr(calendar, name, segments.timed(f"calendar {name}", getattr(calendar, name)))
            timer.start()
            await asyncio.sleep(0.05)
            begin = time.perf_counter()
            overlapping = 0
            for number, post_id in enumerate(post_ids):
                when = day.replace(hour=6, minute=0, second=0, microsecond=0) + timedelta(
                    minutes=15 * number + run_number % 4
                )
                calendar.rescheduleRequested.emit(post_id, when)
                await wait_for(lambda: not session.writes.busy_keys(), "the write", poll=0.002)
                overlapping += session.first_sync_ok is None
                await asyncio.sleep(ACTION_PAUSE_S)
            actions_done = time.perf_counter()
            await wait_for(lambda: session.first_sync_ok is not None, "the sync's end")
            assert session.first_sync_ok, session.state
            finish = time.perf_counter()
            await asyncio.sleep(0.1)
            timer.stop()
            shown = [calendar.entry(post_id) for post_id in post_ids]
            in_range = [e for e in shown if e is not None and e.local is not None]
            assert in_range, "none of the rescheduled posts is on the calendar"
        finally:
            app.window.close()
            await asyncio.wait_for(running, 30)
            # A closed window is only hidden: delete it now, so that the later measurements
            # in this process do not carry three apps' widgets and objects along.
            app.window.deleteLater()
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return {
        "path": "app",
        "actions": len(post_ids),
        "actions_during_sync": overlapping,
        "actions_s": actions_done - begin,
        "sync_s_after_first_action": finish - begin,
        "action_stall_ms": longest_gap(ticks, begin, actions_done),
        "action_gap_by_segment_ms": {
            name: max(gap_around(ticks, start, end) for start, end in spans)
            for name, spans in segments.spans.items()
        },
        "action_own_work_max_ms": {
            name: max((end - start) * 1000 for start, end in spans)
            for name, spans in segments.spans.items()
        },
        "max_stall_whole_run_ms": longest_gap(ticks, begin, finish),
    }


async def wait_for(condition: Callable[[], object], what: str, poll: float = 0.01) -> None:
    """A guard against hanging forever, not a measurement."""
    deadline = time.monotonic() + 60
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(poll)


def month_switches(cache_path: Path, *, pause_s: float) -> dict[str, Any]:
    """12 switches; between two of them the page idles `pause_s` (a user's pause between
    clicks, in which the page reads the neighbouring months ahead), or none (back to back)."""
    from ui.calendar import CalendarPage

    app = QApplication.instance()
    assert app is not None
    cache = WorkspaceCache(cache_path)
    page = CalendarPage(cache)
    page.resize(1100, 760)
    page.show()

    def idle() -> None:
        deadline = time.perf_counter() + pause_s
        while time.perf_counter() < deadline:
            app.processEvents()
            time.sleep(0.005)

    try:
        app.processEvents()
        gc.collect()
        settle_after_start()
        timings: list[float] = []
        shown: list[int] = []
        moves = [page.go_next] * SWITCHES + [page.go_previous] * SWITCHES
        for move in moves:
            idle()
            started = time.perf_counter()
            move()
            app.processEvents()
            timings.append((time.perf_counter() - started) * 1000)
            shown.append(len(page.loader.visible))
    finally:
        page.close()
        page.deleteLater()
        cache.close()
    return {
        "pause_s": pause_s,
        "switches_ms": timings,
        "median_ms": median(timings),
        "max_ms": max(timings),
        "posts_shown": shown,
    }


@pytest.fixture(scope="module")
def results(qapp: QApplication, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    scratch = tmp_path_factory.mktemp("bench-gui")
    qapp.setQuitOnLastWindowClosed(False)  # as the app: a page closed here must not stop the loop
    loop = EventLoop(qapp)
    asyncio.set_event_loop(loop)
    # Other work on the machine inflates every figure: the load is kept with them.
    report: dict[str, Any] = {"machine": machine_info(), "load_average_before": os.getloadavg()}
    try:
        with SandboxProcess(
            scratch / "sandbox.sqlite3", posts=POSTS, latency_ms=0, api_key=DEMO_API_KEY
        ) as sandbox:
            warm = scratch / "warm.sqlite3"
            post_ids = run(loop, fill_cache(sandbox.base_url, warm))
            app_runs = []
            for number in range(APP_RUNS):
                home = scratch / f"app-{number}"
                measured_app = app_actions_during_sync(
                    sandbox.base_url, warm, post_ids, home, number
                )
                app_runs.append(run(loop, measured_app))
            report["app_actions"] = app_runs
            runs = []
            for blocking, incremental in PARTS_RUNS:
                copy = scratch / f"actions-{len(runs)}.sqlite3"
                shutil.copy(warm, copy)
                measured = actions_during_sync(
                    sandbox.base_url, copy, post_ids, blocking=blocking, incremental=incremental
                )
                runs.append(run(loop, measured))
            report["actions"] = runs
            report["months"] = month_switches(warm, pause_s=MONTH_PAUSE_S)
            report["months_back_to_back"] = month_switches(warm, pause_s=0.0)
    finally:
        pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.close()
        asyncio.set_event_loop(None)
    writer_runs = [r for r in report["actions"] if not r["blocking_write"] and not r["incremental"]]
    blocking_runs = [r for r in report["actions"] if r["blocking_write"]]
    app_stalls = [r["action_stall_ms"] for r in report["app_actions"]]
    summary = {
        "action_stall_ms": max(app_stalls),
        "action_stall_median_ms": median(app_stalls),
        "action_stall_reload_ms": max(r["action_stall_ms"] for r in writer_runs),
        "action_stall_blocking_write_ms": max(r["action_stall_ms"] for r in blocking_runs),
        "month_switch_ms": report["months"]["max_ms"],
        "month_switch_median_ms": report["months"]["median_ms"],
        "month_switch_back_to_back_ms": report["months_back_to_back"]["max_ms"],
    }
    report["load_average_after"] = os.getloadavg()
    record_results({**summary, "gui_bench": report})
    print(
        f"\nload average before/after: {report['load_average_before']}, "
        f"{report['load_average_after']}"
    )
    for name, value in summary.items():
        print(f"{name:34} {value:8.1f}")
    for result in report["app_actions"]:
        print(
            f"  app actions (session, show_posts): gaps {result['action_gap_by_segment_ms']}, "
            f"own work {result['action_own_work_max_ms']}, during sync "
            f"{result['actions_during_sync']}/{result['actions']}, stall "
            f"{result['action_stall_ms']:.1f} ms, whole run max "
            f"{result['max_stall_whole_run_ms']:.1f} ms"
        )
    for result in report["actions"]:
        print(
            f"  actions ({'blocking' if result['blocking_write'] else 'writer thread'}"
            f"{', show_posts' if result['incremental'] else ', reload'}): "
            f"gaps {result['action_gap_by_segment_ms']}, own work "
            f"{result['action_own_work_max_ms']}, during sync {result['actions_during_sync']}"
            f"/{result['actions']}, sync store {result['sync_store_ms']}, whole run max "
            f"{result['max_stall_whole_run_ms']:.1f} ms"
        )
    for key in ("months", "months_back_to_back"):
        switches = [round(t, 1) for t in report[key]["switches_ms"]]
        print(f"  month switches ({report[key]['pause_s']} s apart): {switches}")
    return {**summary, **report}


def test_actions_during_a_full_sync_do_not_stall_the_gui(results: dict[str, Any]) -> None:
    assert results["action_stall_ms"] <= TARGET_ACTION_STALL_MS


def test_month_switch_with_3000_posts(results: dict[str, Any]) -> None:
    assert results["month_switch_ms"] <= TARGET_MONTH_SWITCH_MS
