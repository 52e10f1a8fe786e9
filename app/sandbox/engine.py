"""The sandbox's background work: publishing due posts and delivering webhooks.

One thread runs one asyncio loop that owns every delivery task and the HTTP client. Each tick,
on the sandbox clock: prune old logs (daily), decide posts that were publishing, start due
scheduled posts, queue new events for their webhooks, then attempt every due delivery. A post
that starts publishing in one tick gets its outcome in the next, so `publishing` is visible.

`start()` ticks every `interval` seconds (the command line does this); tests leave it off and
call `run_once()`, which also waits for the attempts it started.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Coroutine
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from app.sandbox import deliveries, publisher
from app.sandbox.demo_receivers import Answer
from app.sandbox.store import SandboxStore
from app.sandbox.webhook_rules import delivery_problem
from app.sandbox.webhook_sender import DELIVERY_TIMEOUT_SECONDS, envelope_body, post_signed

if TYPE_CHECKING:
    import httpx

log = logging.getLogger(__name__)
T = TypeVar("T")

DEFAULT_RETRY_DELAY = 60.0
DEFAULT_INTERVAL = 0.5


class SandboxEngine:
    def __init__(
        self,
        store: SandboxStore,
        *,
        retry_delay: float = DEFAULT_RETRY_DELAY,
        allow_private_endpoints: bool = False,
        interval: float = DEFAULT_INTERVAL,
    ) -> None:
        self.store = store
        self.retry_delay = timedelta(seconds=retry_delay)
        self.allow_private_endpoints = allow_private_endpoints
        self.interval = interval
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._client: httpx.AsyncClient | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._inflight: set[asyncio.Task[None]] = set()
        self._guard = threading.Lock()

    # -- lifetime -------------------------------------------------------------------------

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        with self._guard:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(
                    target=loop.run_forever, name="sandbox-engine", daemon=True
                )
                thread.start()
                self._loop, self._thread = loop, thread
            return self._loop

    def _call(self, coroutine: Coroutine[Any, Any, T], timeout: float | None) -> T:
        future = asyncio.run_coroutine_threadsafe(coroutine, self._ensure_loop())
        return future.result(timeout)

    def start(self) -> None:
        """Tick in the background until `close()`; first makes rows a stopped run left claimed
        due again."""
        with self.store.tx() as db:
            deliveries.release_unfinished(db)

        async def begin() -> None:
            self._ticker = asyncio.create_task(self._tick_forever())

        self._call(begin(), 10)

    def run_once(self, timeout: float = 30.0) -> None:
        """One tick, waiting for the delivery attempts it started (thread-safe)."""
        self._call(self._tick(wait=True), timeout)

    def close(self) -> None:
        """Cancel the ticker and every attempt in flight, close the client, stop the thread."""
        loop = self._loop
        if loop is None:
            return
        try:
            self._call(self._shutdown(), 15)
        finally:
            loop.call_soon_threadsafe(loop.stop)
            if self._thread is not None:
                self._thread.join(15)
            loop.close()
            self._loop = None

    async def _shutdown(self) -> None:
        tasks = [t for t in (self._ticker, *self._inflight) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    # -- ticks ----------------------------------------------------------------------------

    async def _tick_forever(self) -> None:
        while True:
            try:
                await self._tick(wait=False)
            except Exception:  # a bad row must not stop the engine for good
                log.exception("sandbox engine tick failed")
            await asyncio.sleep(self.interval)

    async def _tick(self, *, wait: bool) -> None:
        with self.store.tx() as db:
            deliveries.prune_if_due(db)
            publisher.resolve_publishing(db)
            publisher.promote_due(db)
            deliveries.dispatch_events(db)
            jobs = deliveries.claim_due(db)
        tasks = [asyncio.create_task(self._deliver(job)) for job in jobs]
        for task in tasks:
            self._inflight.add(task)
            task.add_done_callback(self._inflight.discard)
        if wait and tasks:
            await asyncio.gather(*tasks)

    def _http(self) -> httpx.AsyncClient:
        import httpx

        if self._client is None:
            self._client = httpx.AsyncClient(follow_redirects=False, trust_env=False)
        return self._client

    async def _deliver(self, job: deliveries.Job) -> None:
        with self.store.tx() as db:
            target = deliveries.target(db, job.webhook_id)
            envelope = deliveries.envelope_for(db, job)
        if target is None:
            return  # deleted: its queued jobs went with it
        answer = Answer(None, None)
        # §4 rule 2: the endpoint is judged again at delivery time.
        # The host name is resolved too: a name pointing at a private address is refused.
        problem = await delivery_problem(
            target.endpoint, allow_private=self.allow_private_endpoints
        )
        if problem is None:
            try:
                answer, _ = await post_signed(
                    self._http(),
                    target.endpoint,
                    envelope_body(envelope),
                    target.secret,
                    timeout_seconds=DELIVERY_TIMEOUT_SECONDS,
                    envelope_id=job.log_id,
                    attempt=job.attempt,
                )
            except Exception:  # counted as a failed attempt, never a lost job
                log.exception("webhook delivery raised")
        with self.store.tx() as db:
            deliveries.record_attempt(db, job, envelope, answer, self.retry_delay)
