"""How current the window stays without the user (issue 14 §1), measured from both sides.

With 3,000 posts in a sandbox process (its publisher running) and the sync running as the app
runs it (`run_forever` with its default minute), a post on the demo's Threads account (which
refuses every post) is scheduled a few seconds ahead through the API:
- `freshness_s`: seconds from its status turning `failed` on the server (polled by another
  client) to the cache the calendar reads saying so;
- `light_requests_per_min`: requests the sync made per minute in steady state (the light
  refreshes of the measured minutes, counted at the transport) plus the full refresh's share,
  which comes about once an hour for 200 pages (`FULL_EVERY_PER_PAGE`).
Targets: ≤ 75 s and ≤ 10.
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.api.client import ApiClient
from app.models import BatchRequest, Destination
from app.sandbox.seed import DEMO_API_KEY
from app.store import WorkspaceCache
from app.sync import SyncService, SyncState
from app.sync.service import FULL_EVERY_PER_PAGE
from tests.bench.support import SandboxProcess, machine_info, record_results

# Three minutes of steady state, a full sync before and up to 75 s for the outcome after: more
# than the suite's per-test limit (240 s), which stopped `make bench` here.
pytestmark = [pytest.mark.bench, pytest.mark.timeout(900)]

POSTS = 3000
STEADY_MINUTES = 3
TARGET_FRESHNESS_S = 75.0
TARGET_REQUESTS_PER_MIN = 10.0


class CountingTransport(httpx.AsyncHTTPTransport):
    def __init__(self) -> None:
        super().__init__()
        self.requests: list[tuple[float, str]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append((time.monotonic(), f"{request.method} {request.url.path}"))
        return await super().handle_async_request(request)


async def _failed_at(client: ApiClient, post_id: str) -> float:
    """When the server's answer first says `failed` (read 5 times a second)."""
    while True:
        if (await client.posts.get(post_id)).status == "failed":
            return time.monotonic()
        await asyncio.sleep(0.2)


async def measure(scratch: Path) -> dict[str, Any]:
    counting = CountingTransport()
    with (
        SandboxProcess(
            scratch / "sandbox.sqlite3", posts=POSTS, latency_ms=0, api_key=DEMO_API_KEY
        ) as sandbox,
        WorkspaceCache(scratch / "cache.sqlite3") as cache,
    ):
        async with (
            ApiClient(sandbox.base_url, DEMO_API_KEY, transport=counting) as client,
            ApiClient(sandbox.base_url, DEMO_API_KEY) as observer,
        ):
            changed, synced = asyncio.Event(), asyncio.Event()

            def on_state(state: SyncState) -> None:
                if state.last_full_sync_at is not None:
                    synced.set()

            sync = SyncService(
                client, cache, on_state=on_state, on_changed=lambda _c: changed.set()
            )
            now = datetime.now(UTC)
            sync.show_period(now - timedelta(days=15), now + timedelta(days=20))  # a month
            task = asyncio.ensure_future(sync.run_forever())
            try:
                await synced.wait()
                full_requests = len(counting.requests)
                # Steady state: the light refreshes of the next minutes, nothing else asked.
                steady_from = time.monotonic()
                await asyncio.sleep(STEADY_MINUTES * 60)
                steady = [r for at, r in counting.requests if at >= steady_from]

                threads = next(a for a in await observer.accounts.list() if a.platform == "threads")
                due = datetime.now(UTC) + timedelta(seconds=5)
                [post] = await observer.posts.create_batch(
                    BatchRequest(
                        status="scheduled",
                        scheduled_at=due,
                        content="Freshness probe",
                        destinations=[
                            Destination(social_account_id=threads.id, content_type="threads_post")
                        ],
                    )
                )
                failed_on_server = await _failed_at(observer, post.id)
                while True:
                    cached = cache.post(post.id)
                    if cached is not None and cached.status == "failed":
                        break
                    changed.clear()
                    await changed.wait()
                seen = time.monotonic()
            finally:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
    pages = sync.pages_in_list or 0
    full_share = 60 / FULL_EVERY_PER_PAGE if pages else 0.0  # pages / (pages * per_page) a min
    light = len(steady) / STEADY_MINUTES
    return {
        "freshness_s": round(seen - failed_on_server, 1),
        "light_requests_per_min": round(light + full_share, 1),
        "light_requests_per_min_detail": {
            "light_refreshes_per_min": round(light, 1),
            "full_refresh_share_per_min": round(full_share, 1),
            "full_refresh_requests": full_requests,
            "pages_in_list": pages,
            "steady_requests": steady,
        },
    }


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    values = asyncio.run(measure(tmp_path_factory.mktemp("bench-freshness")))
    values["freshness_machine"] = machine_info()
    record_results(values)
    return values


def test_an_outcome_shows_within_75_seconds(results: dict[str, Any]) -> None:
    assert results["freshness_s"] <= TARGET_FRESHNESS_S


def test_steady_state_costs_at_most_10_requests_a_minute(results: dict[str, Any]) -> None:
    assert results["light_requests_per_min"] <= TARGET_REQUESTS_PER_MIN
