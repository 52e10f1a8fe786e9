"""A page worker's bookkeeping as tests and callers see it: the thread that ran each job, and
finished jobs that leave quietly (no error logged by the executor's callbacks)."""

from __future__ import annotations

import logging
import threading

import pytest

from app.sync.page_worker import PageWorker


@pytest.mark.asyncio
async def test_the_worker_names_the_thread_that_ran_its_jobs() -> None:
    async with PageWorker() as worker:
        ran_on = {await worker.run(threading.get_ident) for _ in range(3)}
        assert worker.thread_ids == ran_on
    assert threading.get_ident() not in ran_on


@pytest.mark.asyncio
async def test_finished_jobs_leave_without_an_error_in_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    async with PageWorker() as worker:
        results = [await worker.run(lambda n=n: n * n) for n in range(5)]
        assert worker.running == 0
    assert results == [0, 1, 4, 9, 16]
    assert [record.getMessage() for record in caplog.records] == []
