"""The thread a refresh parses its pages on, so that the event loop (the GUI thread) only awaits.

Validating a page of posts against the wire models and encoding it for the cache costs a few ms
of CPU per page, and pages fetched ahead arrive in bursts: on the event loop that froze the
window for 30-70 ms at a time. Here each job is one page (or one small step), so the GUI thread
gets the GIL back within the interpreter's switch interval whenever it needs it.

With only a few pages in flight (a server on this machine or next door: the walk keeps `Pace.FEW`
at once because this process is the bottleneck) a page is parsed right here instead: a burst is
at most those few pages (~1 ms each), and handing each one to the thread and back cost more than
the parsing (the GIL passed back and forth between two busy threads: the sync on loopback took
1.08 s that way, 0.81 s here, median of 6 interleaved runs).

A refresh owns its worker (`async with PageWorker() as worker`). Leaving the block, by failure or
cancellation too, drops the jobs not started yet and waits for the one running (a job cannot be
interrupted; one page is a few ms), so nothing a refresh started outlives it. After each job
the awaiting side (the loop's thread) collects garbage if a collection is due (`gc_on_loop`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import threading
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any, TypeVar

from app.api.parsing import Offload
from app.sync.gc_on_loop import collect_if_due

T = TypeVar("T")

THREAD_NAME = "sync-parse"


class PageWorker:
    def __init__(self) -> None:
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        self._jobs: set[concurrent.futures.Future[Any]] = set()
        self.thread_ids: set[int] = set()
        """Threads that ran a job (observable by tests: never the event loop's)."""
        self.jobs_here = 0
        """Jobs of `then(..., here=...)` run on the caller's thread instead."""

    async def __aenter__(self) -> PageWorker:
        self._executor = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix=THREAD_NAME
        )
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def running(self) -> int:
        """Jobs submitted and not finished (0 once `close` returned)."""
        return sum(not job.done() for job in tuple(self._jobs))

    async def run(self, job: Callable[[], T]) -> T:
        """`job()` on the worker thread; the caller's loop keeps running meanwhile. Cancelling
        the caller drops the job if it has not started yet."""
        if self._executor is None:
            raise RuntimeError("the page worker is not open")
        future = self._executor.submit(self._tracked, job)
        self._jobs.add(future)
        future.add_done_callback(self._jobs.discard)
        try:
            return await asyncio.wrap_future(future)
        finally:
            collect_if_due()  # here, on the loop's thread (see gc_on_loop)

    def then(
        self, after: Callable[[Any], object], *, here: Callable[[], bool] | None = None
    ) -> Offload:
        """An offload (`app.api` validates pages through one) that runs `after(result)` in the
        same job: a page parsed and encoded in one hand-off to this thread, not two (each
        costs the loop a wake-up and the GIL back and forth). While `here()` says so, the job
        runs on the caller's thread instead (see the module's docstring)."""
        return _RunThen(self, after, here)

    def _tracked(self, job: Callable[[], T]) -> T:
        self.thread_ids.add(threading.get_ident())
        return job()

    async def close(self) -> None:
        executor, self._executor = self._executor, None
        if executor is None:
            return
        executor.shutdown(wait=False, cancel_futures=True)
        # A copy: jobs leave the set from the worker thread as they finish.
        started = [asyncio.wrap_future(job) for job in tuple(self._jobs) if not job.done()]
        if started:
            await asyncio.gather(*started, return_exceptions=True)
        executor.shutdown(wait=True)  # nothing left to run: the idle thread just exits


class _RunThen:
    def __init__(
        self,
        worker: PageWorker,
        after: Callable[[Any], object],
        here: Callable[[], bool] | None,
    ) -> None:
        self._worker = worker
        self._after = after
        self._here = here

    def __call__(self, job: Callable[[], T], /) -> Awaitable[T]:
        if self._here is not None and self._here():
            return self._run_here(job)
        return self._worker.run(functools.partial(self._both, job))

    async def _run_here(self, job: Callable[[], T]) -> T:
        self._worker.jobs_here += 1
        try:
            return self._both(job)
        finally:
            collect_if_due()  # as after a worker's job: collections stay on this thread

    def _both(self, job: Callable[[], T]) -> T:
        result = job()
        self._after(result)
        return result
