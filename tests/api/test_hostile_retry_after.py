"""Issue 19 §3: a server's Retry-After cannot flood (negative) nor lock (huge) the workspace."""

from __future__ import annotations

import pytest

from app.api import errors as e
from app.api.client import ApiClient
from app.api.retry import MAX_RETRY_AFTER, MIN_RETRY_AFTER
from tests.api.helpers import FakeClock
from tests.tools.odd_server import OddServer


@pytest.mark.asyncio
async def test_a_negative_retry_after_waits_the_floor_and_never_comes_back_early() -> None:
    # the real clock: the server itself judges whether a request came back too early
    with OddServer(modes={"retryneg"}, quiet=True) as server:
        async with ApiClient(server.base_url, "odd-key") as api:
            for _ in range(6):
                await api.workspace.workspace()
            assert api.rate_gate.server_said == "-5"
            stats = server.stats()
    # the 5th request was a 429 "-5": one wait of the floor, then once more, never early
    assert stats["early"] == []
    assert stats["requests"] == 7
    assert MIN_RETRY_AFTER == 1.0


@pytest.mark.asyncio
async def test_a_huge_retry_after_is_capped_named_and_can_be_cut_short() -> None:
    clock = FakeClock()
    with OddServer(modes={"retryhuge"}, quiet=True) as server:
        async with ApiClient(server.base_url, "odd-key", clock=clock) as api:
            for _ in range(4):
                await api.workspace.workspace()
            with pytest.raises(e.RateLimited) as caught:
                await api.workspace.workspace()  # the 5th: 429 "Retry-After: 99999999"
            assert caught.value.retry_after == MAX_RETRY_AFTER
            assert "99999999" in caught.value.hint
            assert "Retry now" in caught.value.hint
            assert 0 < api.rate_gate.wait_remaining() <= MAX_RETRY_AFTER
            # held: the next request says so at once instead of hanging (nothing sent)
            with pytest.raises(e.RateLimited) as held:
                await api.workspace.workspace()
            assert "99999999" in held.value.hint
            before = server.stats()["requests"]
            assert before == 5
            api.rate_gate.retry_now()
            await api.workspace.workspace()
            assert server.stats()["requests"] == before + 1


@pytest.mark.asyncio
async def test_retry_now_wakes_a_request_waiting_at_the_gate() -> None:
    import asyncio

    from app.api.rate_gate import RateGate
    from app.api.retry import SYSTEM_CLOCK

    gate = RateGate(SYSTEM_CLOCK)
    gate.hold(600.0, "600")
    waiting = asyncio.ensure_future(gate.wait())
    await asyncio.sleep(0)
    assert not waiting.done()
    gate.retry_now()
    await asyncio.wait_for(waiting, 5)
    assert gate.wait_remaining() == 0.0
