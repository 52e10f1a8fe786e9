"""The one "hold until" gate (app/api/hold.py), which the rate gate, a walk's pause after a 429
and the lookup budgets all use."""

from __future__ import annotations

import asyncio

import pytest

from app.api.hold import Hold
from app.api.lookup_budget import LookupBudget
from app.api.pagination import AdaptiveLimit
from app.api.rate_gate import RateGate
from tests.api.helpers import FakeClock


def test_a_hold_only_moves_later() -> None:
    clock = FakeClock()
    hold = Hold(clock)
    assert hold.hold_for(10) is True
    assert hold.hold_for(3) is False
    assert hold.remaining() == 10
    clock.advance(4)
    assert hold.remaining() == 6
    assert hold.held
    assert hold.hold_for(6) is True  # the same deadline: still the one in force
    assert hold.hold_for(0) is False
    assert hold.hold_for(-5) is False
    clock.advance(6)
    assert not hold.held
    assert hold.remaining() == 0.0


@pytest.mark.asyncio
async def test_wait_sleeps_the_whole_hold_on_the_clock() -> None:
    clock = FakeClock()
    hold = Hold(clock)
    await hold.wait()
    assert clock.sleeps == []
    hold.hold_for(7.5)
    await hold.wait()
    assert sum(clock.sleeps) == pytest.approx(7.5)
    assert not hold.held


@pytest.mark.asyncio
async def test_release_lets_a_waiter_go_at_once() -> None:
    hold = Hold(_RealTimeClock())
    hold.hold_for(3600)
    waiter = asyncio.ensure_future(hold.wait())
    await asyncio.sleep(0)
    assert not waiter.done()
    hold.release()
    await asyncio.wait_for(waiter, timeout=5)
    assert hold.remaining() == 0.0


def test_the_three_users_share_the_semantics() -> None:
    clock = FakeClock()
    gate = RateGate(clock)
    gate.hold(30, server_said="30")
    gate.hold(5, server_said="5")  # shorter: kept the longer one and what the server said then
    assert (gate.wait_remaining(), gate.server_said) == (30, "30")
    gate.retry_now()
    assert (gate.wait_remaining(), gate.server_said) == (0.0, None)

    budget = LookupBudget(clock, limit=5)
    budget.block_for(20)
    budget.block_for(2)
    assert budget.server_blocked
    assert budget.wait_needed() == 20

    limit = AdaptiveLimit(8, clock)
    limit.back_off(12)
    limit.back_off(1)
    assert limit.limit == 2


@pytest.mark.asyncio
async def test_a_walk_pauses_until_the_longest_back_off() -> None:
    clock = FakeClock()
    limit = AdaptiveLimit(4, clock)
    limit.back_off(12)
    limit.back_off(1)
    await limit.acquire()
    assert sum(clock.sleeps) == pytest.approx(12)
    await limit.release()


class _RealTimeClock:
    def now(self) -> float:
        return asyncio.get_running_loop().time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
