"""The user's answers to an entry waiting for them: confirm unchanged, at a new time, as a draft;
a double answer re-queues once; the words of a refusal."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from app.models.requests import BatchRequest, Destination
from app.store.local_store import LocalStore
from app.sync.outbox import Outbox, OutboxEntry, OutboxState

DUE = datetime(2030, 5, 1, 9, 0, tzinfo=UTC)


def scheduled_batch() -> BatchRequest:
    return BatchRequest(
        content="Spring menu",
        status="scheduled",
        scheduled_at=DUE,
        destinations=[Destination(social_account_id="acc-1", content_type="x_post")],
    )


async def waiting_entry(outbox: Outbox, state: OutboxState) -> OutboxEntry:
    entry = await outbox.enqueue(scheduled_batch())
    moved = await outbox.transition(entry.id, state, expect=[OutboxState.QUEUED], reason="why")
    assert moved is not None
    return moved


@pytest.mark.asyncio
async def test_confirming_without_a_choice_sends_the_batch_unchanged(store: LocalStore) -> None:
    outbox = Outbox(store)
    entry = await waiting_entry(outbox, OutboxState.NEEDS_CONFIRMATION)
    confirmed = await outbox.confirm(entry.id)
    assert confirmed.state is OutboxState.QUEUED
    assert confirmed.request == scheduled_batch()
    assert confirmed.scheduled_at == DUE


@pytest.mark.asyncio
async def test_confirming_at_a_new_time_stores_that_time(store: LocalStore) -> None:
    outbox = Outbox(store)
    entry = await waiting_entry(outbox, OutboxState.NEEDS_CONFIRMATION)
    later = DUE + timedelta(days=2)
    confirmed = await outbox.confirm(entry.id, scheduled_at=later)
    assert confirmed.scheduled_at == later
    assert confirmed.request.scheduled_at == later
    again = outbox.get(entry.id)
    assert again is not None
    assert again.scheduled_at == later


@pytest.mark.asyncio
async def test_confirming_as_a_draft_drops_the_time(store: LocalStore) -> None:
    outbox = Outbox(store)
    entry = await waiting_entry(outbox, OutboxState.NEEDS_ATTENTION)
    confirmed = await outbox.confirm(entry.id, as_draft=True)
    assert confirmed.state is OutboxState.QUEUED
    assert confirmed.scheduled_at is None
    assert confirmed.request.status == "draft"
    assert confirmed.request.scheduled_at is None


@pytest.mark.asyncio
async def test_a_double_confirm_requeues_once_and_the_second_is_told_why(
    store: LocalStore,
) -> None:
    outbox = Outbox(store)
    entry = await waiting_entry(outbox, OutboxState.NEEDS_CONFIRMATION)
    heard: list[OutboxEntry] = []
    outbox.listeners.append(heard.append)
    results = await asyncio.gather(
        outbox.confirm(entry.id), outbox.confirm(entry.id), return_exceptions=True
    )
    errors = [r for r in results if isinstance(r, BaseException)]
    assert [str(error) for error in errors] == ["This batch changed meanwhile; look at it again."]
    assert [(e.id, e.state) for e in heard] == [(entry.id, OutboxState.QUEUED)]


@pytest.mark.asyncio
async def test_an_entry_that_waits_for_nobody_cannot_be_confirmed(store: LocalStore) -> None:
    outbox = Outbox(store)
    entry = await outbox.enqueue(scheduled_batch())
    with pytest.raises(ValueError, match="nothing to confirm") as refused:
        await outbox.confirm(entry.id)
    assert str(refused.value) == "This batch is queued; nothing to confirm."


@pytest.mark.asyncio
async def test_discarding_a_batch_that_may_be_on_the_server_says_so(store: LocalStore) -> None:
    outbox = Outbox(store)
    entry = await outbox.enqueue(scheduled_batch())
    await outbox.transition(entry.id, OutboxState.SENDING, expect=[OutboxState.QUEUED])
    with pytest.raises(ValueError, match="may already be on the server") as refused:
        await outbox.discard(entry.id)
    assert str(refused.value) == "This batch may already be on the server; wait for the check."
    assert outbox.get(entry.id) is not None
