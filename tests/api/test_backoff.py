"""The one backoff formula (app/api/backoff.py) and the three ways the client uses it."""

from __future__ import annotations

import pytest

from app.api.backoff import Backoff, backoff_delay
from app.api.retry import RetryPolicy


def test_doubles_from_the_base_up_to_the_cap() -> None:
    delays = [backoff_delay(n, base=0.5, cap=8.0) for n in range(1, 8)]
    assert delays == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0]


def test_zero_failures_counts_as_the_first() -> None:
    assert backoff_delay(0, base=2.0, cap=300.0) == 2.0


def test_a_very_long_outage_stays_at_the_cap() -> None:
    assert backoff_delay(10_000, base=2.0, cap=300.0) == 300.0


@pytest.mark.parametrize(("draw", "expected"), [(0.0, 3.2), (0.5, 4.0), (0.999, 4.7984)])
def test_jitter_is_a_factor_drawn_from_its_range(draw: float, expected: float) -> None:
    delay = backoff_delay(
        2, base=2.0, cap=300.0, jitter_from=0.8, jitter_span=0.4, rng=lambda: draw
    )
    assert delay == pytest.approx(expected)


def test_jitter_is_applied_after_the_cap() -> None:
    assert backoff_delay(9, base=1.0, cap=10.0, jitter_span=0.5, rng=lambda: 1.0) == 15.0


def test_without_jitter_the_random_source_is_not_consulted() -> None:
    def never() -> float:
        raise AssertionError("drawn")

    assert backoff_delay(3, base=1.0, cap=60.0, rng=never) == 4.0


def test_request_retries_add_up_to_a_quarter_on_top() -> None:
    policy = RetryPolicy(base_delay=0.5, max_delay=8.0, jitter=0.25)
    assert policy.backoff(3, lambda: 0.0) == 2.0
    assert policy.backoff(3, lambda: 1.0) == 2.5


def test_a_loop_counts_failures_and_starts_over_after_a_success() -> None:
    backoff = Backoff(base=2.0, cap=10.0)
    assert backoff.next_delay == 2.0
    assert [backoff.failed() for _ in range(5)] == [2.0, 4.0, 8.0, 10.0, 10.0]
    assert backoff.next_delay == 10.0
    backoff.succeeded()
    assert backoff.next_delay == 2.0
    assert backoff.failed() == 2.0
