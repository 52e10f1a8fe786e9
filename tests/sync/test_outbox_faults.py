"""`--fail-after-commit`: the batch is saved, the answer is lost; and the outbox service's loop."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from app.api import errors as e
from app.models.requests import BatchRequest, Destination
from app.sandbox.cli import parse_args
from app.sandbox.harness import SandboxServer
from app.store.local_store import LocalStore, unsent_work
from app.sync.outbox import Outbox, OutboxState
from app.sync.outbox_service import OutboxService
from tests.api.helpers import sandbox_client


def test_the_flag_takes_a_rate_between_0_and_1() -> None:
    args = parse_args(["--fail-after-commit", "0.5", "--fault-seed", "4"])
    assert args.fail_after_commit == 0.5
    assert args.fault_seed == 4
    assert parse_args([]).fail_after_commit == 0.0
    with pytest.raises(SystemExit):
        parse_args(["--fail-after-commit", "1.5"])


@pytest.mark.asyncio
async def test_a_dropped_answer_is_an_unknown_outcome_of_a_saved_batch(tmp_path: Path) -> None:
    with SandboxServer(tmp_path / "s.db", fail_after_commit=1.0) as server:
        request = BatchRequest(
            content="Saved, then silence",
            destinations=[
                Destination(social_account_id=server.store.account_id("x"), content_type="x_post")
            ],
        )
        async with sandbox_client(server) as client:
            with pytest.raises(e.OutcomeUnknown) as caught:
                await client.posts.create_batch(request)
            # The client never resends a POST by itself.
            assert server.store.post_count() == 1
            # Refused requests are answered normally.
            with pytest.raises(e.ValidationFailed):
                await client.posts.create_batch(request.model_copy(update={"status": "scheduled"}))
        assert isinstance(caught.value.__cause__, httpx.RemoteProtocolError)
        assert server.faults is not None
        assert server.faults.dropped == 1


@pytest.mark.asyncio
async def test_the_same_seed_drops_the_same_answers(tmp_path: Path) -> None:
    patterns = []
    for run in range(2):
        with SandboxServer(tmp_path / f"s{run}.db", fail_after_commit=0.5, fault_seed=9) as server:
            x = server.store.account_id("x")
            outcome = []
            async with sandbox_client(server) as client:
                for n in range(8):
                    try:
                        await client.posts.create_batch(
                            BatchRequest(
                                content=f"n{n}",
                                destinations=[
                                    Destination(social_account_id=x, content_type="x_post")
                                ],
                            )
                        )
                        outcome.append(True)
                    except e.OutcomeUnknown:
                        outcome.append(False)
            patterns.append(outcome)
    assert patterns[0] == patterns[1]
    assert True in patterns[0]
    assert False in patterns[0]


@pytest.mark.asyncio
async def test_the_running_service_sends_what_is_queued_at_once(
    sandbox: SandboxServer, tmp_path: Path
) -> None:
    store = LocalStore.open(tmp_path / "run.local.sqlite3")
    try:
        async with sandbox_client(sandbox) as client:
            service = OutboxService(store, client, settle_seconds=0)
            outbox = service.outbox
            sent = asyncio.Event()
            outbox.listeners.append(
                lambda entry: sent.set() if entry.state is OutboxState.SENT else None
            )
            task = asyncio.create_task(service.run())
            try:
                await service.watch(lambda: service.rounds_done > 0)  # idle: nothing queued
                entry = await service.enqueue(
                    BatchRequest(
                        content="Woken up",
                        destinations=[
                            Destination(
                                social_account_id=sandbox.store.account_id("x"),
                                content_type="x_post",
                            )
                        ],
                    )
                )
                await asyncio.wait_for(sent.wait(), 10)
            finally:
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task
        done = outbox.get(entry.id)
        assert done is not None
        assert done.state is OutboxState.SENT
        assert unsent_work(store.path).outbox == 0
    finally:
        store.close()


@pytest.mark.asyncio
async def test_unsent_work_counts_what_removing_a_workspace_would_lose(tmp_path: Path) -> None:
    path = tmp_path / "ws.local.sqlite3"
    assert unsent_work(path).empty
    store = LocalStore.open(path)
    try:
        await store.create_draft('{"content": "keep me"}')
        gone = await store.create_draft("{}")
        await store.delete_draft(gone.id)
        await Outbox(store).enqueue(
            BatchRequest(
                content="later",
                destinations=[Destination(social_account_id="a", content_type="x_post")],
            )
        )
    finally:
        store.close()
    work = unsent_work(path)
    assert (work.drafts, work.outbox) == (1, 1)
    assert not work.empty
