"""The edges of an adaptive walk's pace and of the bound it sets (issue 18 §2).

`Pace` is checked with a wall clock and a CPU clock that move only when the test says so, at the
boundaries its rules name (`MIN_SPAN`, `BUSY`, `WAITS`, the typical use, the loss that halves)
and in what it records per window. A walk is then run against a handler that takes its fetch
time on the same clock: what the pace measures from the walk decides how many pages the server
sees in flight and whether anything is asked for while the consumer still holds a page.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
import pytest

from app.api import pagination
from app.api.pagination import AdaptiveLimit, Pace
from tests.api.helpers import FakeClock, json_response, make_client, posts_page

LAST_PAGE = 24


class Clocks:
    """A wall clock and a CPU clock that move only when the test says so (from 0.0, so that
    binary fractions of a second stay exact)."""

    def __init__(self) -> None:
        self.wall_time = 0.0
        self.cpu_time = 0.0

    def wall(self) -> float:
        return self.wall_time

    def cpu(self) -> float:
        return self.cpu_time

    def pace(self, cap: int) -> Pace:
        return Pace(cap, wall=self.wall, cpu=self.cpu)

    def page(self, pace: Pace, *, fetch: float, use: float, busy: float = 0.1) -> int:
        """One page of a walk: its fetch took `fetch` s; with `pace.in_flight` pages in flight
        it comes every max(fetch / n, use) s, the consumer uses it for `use` s, the process is
        busy `busy` of the time. What the pace asks for after it."""
        every = max(fetch / pace.in_flight, use)
        pace.fetched(fetch)
        self.advance(every - use, busy)
        pace.handed_out()
        self.advance(use, busy)
        return pace.page_done()

    def advance(self, seconds: float, busy: float = 0.0) -> None:
        self.wall_time += seconds
        self.cpu_time += seconds * busy


def one_window(pace: Pace, clocks: Clocks, *, fetch: float, use: float, end: float) -> int:
    """A first window of one page: fetched in `fetch` s, handed out, used `use` s, and asked
    past at wall time `end` exactly."""
    pace.fetched(fetch)
    clocks.wall_time = end - use
    pace.handed_out()
    clocks.wall_time = end
    return pace.page_done()


# -- Pace on its own ------------------------------------------------------------------------


@pytest.mark.parametrize("cap", [1, 0, -3])
def test_a_cap_of_one_or_less_never_reads_ahead(cap: int) -> None:
    clocks = Clocks()
    pace = clocks.pace(cap)
    for _ in range(50):  # a distant server: a page waits 64 ms and is used for 1 ms
        assert clocks.page(pace, fetch=0.064, use=0.001) == 1
    assert pace.history


def test_a_window_of_exactly_min_span_is_judged() -> None:
    clocks = Clocks()
    pace = clocks.pace(16)
    n = one_window(pace, clocks, fetch=0.04, use=0.01, end=Pace.MIN_SPAN)
    assert (len(pace.history), n) == (1, 16)


def test_a_window_shorter_than_min_span_is_not_judged() -> None:
    clocks = Clocks()
    pace = clocks.pace(16)
    n = one_window(pace, clocks, fetch=0.04, use=0.01, end=Pace.MIN_SPAN * 0.99)
    assert (pace.history, n) == ([], 1)


@pytest.mark.parametrize(("busy_share", "wanted"), [(0.5, Pace.FEW), (0.49, 16)])
def test_a_process_busy_half_the_time_at_one_page_goes_to_a_few(
    busy_share: float, wanted: int
) -> None:
    clocks = Clocks()
    pace = clocks.pace(16)
    clocks.cpu_time = 0.0625 * busy_share  # busy 50 % of 62.5 ms exactly: "at least BUSY"
    n = one_window(pace, clocks, fetch=0.05, use=0.015625, end=0.0625)
    assert pace.history[0][1] == pytest.approx(busy_share)
    assert n == wanted


@pytest.mark.parametrize(("fetch", "wanted"), [(0.0625, 1), (0.0626, 16)])
def test_a_fetch_of_exactly_twice_the_use_is_not_clearly_longer(fetch: float, wanted: int) -> None:
    clocks = Clocks()
    pace = clocks.pace(16)
    assert one_window(pace, clocks, fetch=fetch, use=0.03125, end=0.0625) == wanted


def test_the_typical_use_is_the_median_not_the_quickest_pages() -> None:
    """Five pages of nine used for 4 ms, four for 1 ms: typically 4 ms, and a 6 ms fetch is not
    clearly longer than that; the quick pages alone must not make the walk read ahead."""
    clocks = Clocks()
    pace = clocks.pace(16)
    for use in (0.004, 0.001) * 4 + (0.004,):
        n = clocks.page(pace, fetch=0.006, use=use)
    assert len(pace.history) == 1  # one window of nine pages (54 ms)
    assert n == 1


def test_without_a_measured_fetch_or_use_a_pace_keeps_one_page_in_flight() -> None:
    """A caller that reports only part of a page's life (no fetch time, no hand-out) gets a
    pace that stays at one page, without failing: nothing shows a wait to overlap."""
    clocks = Clocks()
    unfetched = clocks.pace(16)
    for _ in range(30):
        clocks.advance(0.008)
        unfetched.handed_out()
        clocks.advance(0.001)
        assert unfetched.page_done() == 1
    unused = clocks.pace(16)
    for page in range(30):
        unused.fetched(0.064)
        clocks.advance(0.064)
        if page == 1:  # one hand-out reported, of a page used long: the others not at all
            unused.handed_out()
            clocks.advance(0.2)
        assert unused.page_done() == 1
    assert unfetched.history
    assert unused.history


def test_each_window_records_the_pages_a_second_it_saw() -> None:
    clocks = Clocks()
    pace = clocks.pace(16)
    for _ in range(400):  # a page every 1 ms, its fetch as long as its use: nothing to overlap
        clocks.page(pace, fetch=0.001, use=0.001)
    assert len(pace.history) >= 5
    assert [rate for _n, _busy, rate in pace.history] == pytest.approx(
        [1000.0] * len(pace.history), rel=1e-6
    )


def test_after_a_change_a_window_spans_twice_the_pages_in_flight() -> None:
    """Pages already on their way when the count changed are not judged with the new count."""
    clocks = Clocks()
    pace = clocks.pace(16)
    pages_per_window: list[int] = []
    pages = 0
    for _ in range(100):  # 64 ms a fetch, 1 ms of use: at 16 in flight, a page every 4 ms
        windows = len(pace.history)
        clocks.page(pace, fetch=0.064, use=0.001)
        pages += 1
        if len(pace.history) > windows:
            pages_per_window.append(pages)
            pages = 0
    assert pages_per_window == [1, 32, 32]
    assert (pace.in_flight, pace.settled) == (16, True)


def test_a_window_a_little_faster_than_the_best_keeps_its_pages_in_flight() -> None:
    clocks = Clocks()
    pace = clocks.pace(16)

    def fetch() -> float:  # 100 pages a second at one in flight, ~110 at any more
        return 0.010 if pace.in_flight == 1 else 0.0091 * pace.in_flight

    for _ in range(200):
        clocks.page(pace, fetch=fetch(), use=0.004)
    assert [n for n, _busy, _rate in pace.history] == [1, 16, 16]
    assert pace.history[-1][2] == pytest.approx(1.099 * pace.history[0][2], rel=0.01)
    assert (pace.in_flight, pace.settled) == (16, True)


def test_halving_an_odd_count_keeps_whole_pages_in_flight() -> None:
    clocks = Clocks()
    pace = clocks.pace(7)

    def fetch() -> float:  # every page in flight beyond one slows all the others down
        return 0.040 if pace.in_flight == 1 else 0.080 * pace.in_flight

    asked = [clocks.page(pace, fetch=fetch(), use=0.005, busy=0.2) for _ in range(300)]
    assert all(isinstance(n, int) for n in asked)
    counts = [n for n, _busy, _rate in pace.history]
    assert [n for i, n in enumerate(counts) if i == 0 or counts[i - 1] != n] == [1, 7, 3]
    assert (pace.in_flight, pace.settled) == (1, True)  # 3 lost too: back to where the best was


# -- the bound ------------------------------------------------------------------------------


async def turns(count: int = 20) -> None:
    for _ in range(count):
        await asyncio.sleep(0)


@pytest.mark.asyncio
@pytest.mark.parametrize(("bound", "admitted"), [(0, 1), (1, 1), (3, 3)])
async def test_a_bound_admits_its_number_and_one_more_for_each_release(
    bound: int, admitted: int
) -> None:
    limit = AdaptiveLimit(bound, FakeClock())
    waiting = [asyncio.ensure_future(limit.acquire()) for _ in range(admitted + 2)]
    await turns()
    assert sum(task.done() for task in waiting) == admitted
    await limit.release()
    await turns()
    assert sum(task.done() for task in waiting) == admitted + 1
    for _ in range(2):
        await limit.release()
    await turns()
    assert all(task.done() for task in waiting)
    assert limit.peak == admitted


# -- a walk paced from what it measures -----------------------------------------------------


class PacedServer:
    """/posts pages whose fetch takes `fetch(n)` s on the test's wall clock; remembers each
    request with how many were in flight when it arrived (itself included)."""

    def __init__(self, clocks: Clocks, fetch: Callable[[int], float]) -> None:
        self.clocks = clocks
        self.fetch = fetch
        self.in_flight = 0
        self.seen: list[tuple[int, int]] = []

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        number = int(request.url.params.get("page", "1"))
        self.in_flight += 1
        self.seen.append((number, self.in_flight))
        try:
            self.clocks.advance(self.fetch(number))
            await turns()
            return json_response(200, posts_page(number, LAST_PAGE))
        finally:
            self.in_flight -= 1

    @property
    def asked(self) -> list[int]:
        return [number for number, _ in self.seen]


@pytest.fixture
def clocks(monkeypatch: pytest.MonkeyPatch) -> Clocks:
    """Every walk's pace measures on these clocks."""
    clocks = Clocks()

    class Clocked(Pace):
        def __init__(self, cap: int) -> None:
            super().__init__(cap, wall=clocks.wall, cpu=clocks.cpu)

    monkeypatch.setattr(pagination, "Pace", Clocked)
    return clocks


async def consume(server: PacedServer, cap: int, use: float) -> list[tuple[int, int]]:
    """Walks every page adaptively, using each for `use` s; for each page, the highest page
    asked for while the consumer held it."""
    client, _, _ = make_client(server)
    held: list[tuple[int, int]] = []
    async with client:
        async for page in client.posts.iter_pages(concurrency=cap, adaptive=True):
            await turns(40)  # every fetch the walk allows has reached the server meanwhile
            held.append((page.page_number, max(server.asked)))
            server.clocks.advance(use)
    assert [number for number, _ in held] == list(range(1, LAST_PAGE + 1))
    return held


@pytest.mark.asyncio
@pytest.mark.parametrize("cap", [2, 8])
async def test_a_quick_server_and_a_slow_consumer_are_walked_one_page_at_a_time(
    clocks: Clocks, cap: int
) -> None:
    """The first page is slow (a cold start), the others quick, and each is used longer than
    it took to fetch: nothing to overlap. The next page is asked for only once the consumer is
    done with the one it holds."""
    server = PacedServer(clocks, lambda number: 0.010 if number == 1 else 0.002)
    held = await consume(server, cap, use=0.004)
    assert held == [(number, number) for number in range(1, LAST_PAGE + 1)]
    assert max(in_flight for _, in_flight in server.seen) == 1


@pytest.mark.asyncio
async def test_a_distant_server_is_read_ahead_from_the_second_page_on(clocks: Clocks) -> None:
    """Every page waits 64 ms and is used for 1 ms: the first page alone shows it."""
    server = PacedServer(clocks, lambda number: 0.064)
    held = await consume(server, 8, use=0.001)
    assert held[1] == (2, 9)  # while the consumer holds page 2, pages up to 9 are on their way
    assert dict(server.seen)[9] == 8
