"""An adaptive page walk keeps as many pages in flight as pay off (issue 14 §7).

`Pace` decides from windows of pages: the share of the wall time the process was busy (CPU time)
and the pages a second. Its decisions are checked here with clocks the test moves; the walk's
side (the bound follows the pace, never past the cap or what a 429 left, pages in order) with a
scripted pace, and one walk against a server that only waits, with the real clocks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
import pytest

from app.api import pagination
from app.api.pagination import Pace
from tests.api.helpers import json_response, make_client, posts_page

LAST_PAGE = 40


class Clocks:
    """A wall clock and a CPU clock that move only when the test says so."""

    def __init__(self) -> None:
        self.wall_time = 100.0
        self.cpu_time = 10.0

    def wall(self) -> float:
        return self.wall_time

    def cpu(self) -> float:
        return self.cpu_time

    def page(self, pace: Pace, *, fetch: float, use: float, busy: float) -> int:
        """One page of a walk: its fetch took `fetch` s; with `pace.in_flight` pages in flight
        it comes every max(fetch / n, use) s, the consumer uses it for `use` s, and the process
        was busy for `busy` of the time. What the pace asks for after it."""
        every = max(fetch / pace.in_flight, use)
        pace.fetched(fetch)
        self._advance(every - use, busy)
        pace.handed_out()
        self._advance(use, busy)
        return pace.page_done()

    def _advance(self, seconds: float, busy: float) -> None:
        self.wall_time += seconds
        self.cpu_time += seconds * busy


def paced(cap: int, clocks: Clocks) -> Pace:
    return Pace(cap, wall=clocks.wall, cpu=clocks.cpu)


def test_a_walk_that_waits_goes_to_the_cap_and_stays_there() -> None:
    clocks = Clocks()
    pace = paced(16, clocks)
    # 60 ms a fetch, 4 ms of work a page: waiting dominates.
    n = clocks.page(pace, fetch=0.060, use=0.004, busy=0.1)
    assert n == 16
    for _ in range(200):
        n = clocks.page(pace, fetch=0.060, use=0.004, busy=0.9)
    # The window after the change is not judged; the next one lost nothing: it stays.
    assert [entry[0] for entry in pace.history] == [1, 16, 16]
    assert (n, pace.settled) == (16, True)


def test_a_server_that_chokes_on_many_requests_halves_them() -> None:
    clocks = Clocks()
    pace = paced(16, clocks)

    def fetch() -> float:  # the server serves 4 at once; beyond, each waits for the others
        return 0.008 if pace.in_flight <= 4 else 0.010 * pace.in_flight

    # A server far enough away that this process is mostly idle at one page in flight.
    while (n := clocks.page(pace, fetch=fetch(), use=0.004, busy=0.3)) == 1:
        pass
    assert n == 16
    for _ in range(300):
        n = clocks.page(pace, fetch=fetch(), use=0.004, busy=0.6)
    assert [entry[0] for entry in pace.history][-3:] == [8, 4, 4]
    assert (n, pace.settled) == (4, True)


def test_a_walk_busy_with_its_own_work_at_one_page_goes_to_a_few_not_the_cap() -> None:
    """The sandbox on loopback: a page's fetch (5 ms) is mostly the server's work on the other
    core, clearly longer than its use (1 ms), and this process is busy 65 % of the time at one
    in flight: a few pages cover the wait."""
    clocks = Clocks()
    pace = paced(32, clocks)
    while (n := clocks.page(pace, fetch=0.005, use=0.001, busy=0.65)) == 1:
        pass
    assert n == Pace.FEW == 4
    for _ in range(100):
        n = clocks.page(pace, fetch=0.005, use=0.001, busy=0.95)
    assert n == 4  # nothing lost at a few: the search ends there


def test_a_walk_whose_fetch_is_as_quick_as_its_use_stays_sequential() -> None:
    clocks = Clocks()
    pace = paced(16, clocks)
    for _ in range(200):  # a local server: 2 ms to fetch a page, 3 ms to use it
        # A busy machine: this process gets only half of a core, so it looks idle.
        assert clocks.page(pace, fetch=0.002, use=0.003, busy=0.5) == 1
    assert len(pace.history) > 5
    assert all(n == 1 for n, _busy, _rate in pace.history)


def test_when_every_concurrency_loses_the_walk_goes_back_to_one() -> None:
    clocks = Clocks()
    pace = paced(16, clocks)

    def fetch() -> float:  # every request in flight slows all the others down
        return 0.040 if pace.in_flight == 1 else 0.080 * pace.in_flight

    while clocks.page(pace, fetch=fetch(), use=0.005, busy=0.2) == 1:
        pass
    for _ in range(400):
        clocks.page(pace, fetch=fetch(), use=0.005, busy=0.2)
    assert [entry[0] for entry in pace.history if entry[0] > 1][::2] == [16, 8, 4, 2]
    assert (pace.in_flight, pace.settled) == (1, True)


def test_a_window_waits_for_enough_time_and_pages() -> None:
    clocks = Clocks()
    pace = paced(16, clocks)
    for _ in range(Pace.MIN_WINDOW * 3):  # 1 ms pages: not yet MIN_SPAN
        clocks.page(pace, fetch=0.001, use=0.001, busy=0.1)
    assert pace.history == []
    while not pace.history:
        clocks.page(pace, fetch=0.001, use=0.001, busy=0.1)
    assert pace.history[0][2] == pytest.approx(1000, rel=0.01)  # pages a second
    assert pace.in_flight == 1  # nothing to overlap: each page is used as long as fetched


# -- the walk's side ------------------------------------------------------------------------


class ScriptedPace(Pace):
    """Asks for what the test wants after each page (by the number of pages handed out)."""

    script: Callable[[int], int] = staticmethod(lambda done: 1)

    def __init__(self, cap: int) -> None:
        super().__init__(cap)
        self.done = 0

    def page_done(self) -> int:
        self.done += 1
        self.in_flight = min(self.cap, type(self).script(self.done))
        return self.in_flight


class CountingServer:
    """/posts pages; remembers how many requests were in flight when each one arrived."""

    def __init__(self, limited_pages: dict[int, int] | None = None) -> None:
        self.in_flight = 0
        self.seen: list[tuple[int, int]] = []  # (page, requests in flight with it)
        self.limited_pages = dict(limited_pages or {})

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        number = int(request.url.params.get("page", "1"))
        self.in_flight += 1
        self.seen.append((number, self.in_flight))
        try:
            for _ in range(20):  # long enough for every allowed fetch to arrive meanwhile
                await asyncio.sleep(0)
            retry_after = self.limited_pages.pop(number, None)
            if retry_after is not None:
                return json_response(
                    429,
                    {"name": "rate_limit_exceeded", "message": "Too Many Attempts."},
                    {"Retry-After": str(retry_after)},
                )
            return json_response(200, posts_page(number, LAST_PAGE))
        finally:
            self.in_flight -= 1


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> type[ScriptedPace]:
    monkeypatch.setattr(pagination, "Pace", ScriptedPace)
    return ScriptedPace


@pytest.mark.asyncio
async def test_the_walk_keeps_in_flight_what_the_pace_asks_and_pages_stay_in_order(
    scripted: type[ScriptedPace],
) -> None:
    scripted.script = staticmethod(lambda done: 1 if done < 5 else (6 if done < 20 else 2))
    server = CountingServer()
    client, _, _ = make_client(server)
    async with client:
        pages = [p.page_number async for p in client.posts.iter_pages(concurrency=8, adaptive=True)]
    assert pages == list(range(1, LAST_PAGE + 1))
    by_page = dict(server.seen)
    assert max(by_page[n] for n in range(1, 6)) == 1  # sequential while the pace says 1
    assert max(by_page.values()) == 6  # never more than asked
    assert max(by_page[n] for n in range(30, LAST_PAGE + 1)) <= 2  # and fewer when it says so


@pytest.mark.asyncio
async def test_the_cap_and_a_429_bound_what_the_pace_may_ask(
    scripted: type[ScriptedPace],
) -> None:
    scripted.script = staticmethod(lambda done: 50)
    server = CountingServer(limited_pages={10: 1})
    client, _, clock = make_client(server)
    async with client:
        pages = [p.page_number async for p in client.posts.iter_pages(concurrency=8, adaptive=True)]
    assert pages == list(range(1, LAST_PAGE + 1))
    assert max(n for _page, n in server.seen) == 8  # the cap, whatever the pace wants
    assert 1.0 in clock.sleeps
    after = server.seen[[page for page, _n in server.seen].index(10) + 1 :]
    later = after[8:]  # requests already in flight when the 429 came may finish
    assert later
    assert max(n for _page, n in later) <= 4


@pytest.mark.asyncio
async def test_a_walk_against_a_distant_server_fetches_ahead() -> None:
    """Real clocks: a server 20 ms away, nothing to compute. The walk raises its bound."""
    in_flight = 0
    peak = 0

    async def distant(request: httpx.Request) -> httpx.Response:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        try:
            await asyncio.sleep(0.02)  # the network, simulated
            return json_response(200, posts_page(int(request.url.params["page"]), LAST_PAGE))
        finally:
            in_flight -= 1

    client, _, _ = make_client(distant)
    async with client:
        walk = client.posts.iter_pages(concurrency=8, adaptive=True)
        pages = [page.page_number async for page in walk]
        pace = client.posts.last_walk.last_pace if client.posts.last_walk else None
    assert pages == list(range(1, LAST_PAGE + 1))
    assert pace is not None
    assert pace.history
    assert pace.history[0][0] == 1
    assert peak > 1
    assert pace.in_flight > 1


@pytest.mark.asyncio
async def test_a_walk_without_adaptive_keeps_its_fixed_concurrency() -> None:
    server = CountingServer()
    client, _, _ = make_client(server)
    async with client:
        pages = [p.page_number async for p in client.posts.iter_pages(concurrency=4)]
        walk = client.posts.last_walk
    assert pages == list(range(1, LAST_PAGE + 1))
    assert walk is not None
    assert walk.last_pace is None
    assert max(n for _page, n in server.seen) == 4
