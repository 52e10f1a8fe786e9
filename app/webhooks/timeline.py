"""Deliveries per hour over the retained 7 days, for the health chart (pure data, no Qt)."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from app.models.webhooks import DeliveryLog

RETENTION = timedelta(days=7)
HOURS = 7 * 24


@dataclass
class HourBucket:
    start: datetime  # aware, UTC, on the hour
    delivered: int = 0
    failed: int = 0
    queued: int = 0
    outcome_ms: list[float] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.delivered + self.failed + self.queued

    @property
    def median_ms(self) -> float | None:
        return statistics.median(self.outcome_ms) if self.outcome_ms else None


@dataclass
class Timeline:
    buckets: list[HourBucket]
    older_skipped: int = 0
    """Logs older than the retention window (a server that does not prune)."""

    @property
    def delivered(self) -> int:
        return sum(b.delivered for b in self.buckets)

    @property
    def failed(self) -> int:
        return sum(b.failed for b in self.buckets)

    @property
    def queued(self) -> int:
        return sum(b.queued for b in self.buckets)

    @property
    def success_rate(self) -> float | None:
        done = self.delivered + self.failed
        return self.delivered / done if done else None

    @property
    def peak(self) -> int:
        return max((b.total for b in self.buckets), default=0)

    @property
    def peak_ms(self) -> float:
        return max((b.median_ms or 0.0 for b in self.buckets), default=0.0)


def outcome(log: DeliveryLog) -> str:
    """`delivered`, `failed` or `queued` (no answer yet)."""
    if log.delivered_at is not None:
        return "delivered"
    if log.failed_at is not None:
        return "failed"
    return "queued"


def build_timeline(logs: Iterable[DeliveryLog], now: datetime | None = None) -> Timeline:
    """One bucket per hour ending with the current hour. The response time is approximated by
    the time from the log's creation to its outcome, for deliveries settled at the first attempt
    (the log carries no timing of its own)."""
    return timeline_of(
        (
            (_utc(log.created_at), outcome(log), log.delivered_at or log.failed_at, log.attempts)
            for log in logs
            if log.created_at is not None
        ),
        now,
    )


Fact = tuple[datetime, str, datetime | None, int]
"""What the chart needs of a delivery: created (aware), outcome, settled (or None), attempts."""


def timeline_of(facts: Iterable[Fact], now: datetime | None = None) -> Timeline:
    """`build_timeline` from the few facts the chart needs (kept rows are not parsed whole)."""
    now = (now or datetime.now(UTC)).astimezone(UTC)
    last_hour = now.replace(minute=0, second=0, microsecond=0)
    first_hour = last_hour - timedelta(hours=HOURS - 1)
    first = first_hour.timestamp()
    buckets = [HourBucket(first_hour + timedelta(hours=i)) for i in range(HOURS)]
    older = 0
    for created, kind, settled, attempts in facts:
        created_s = created.timestamp()
        index = int((created_s - first) // 3600)
        if index < 0:
            older += 1
            continue
        bucket = buckets[min(index, HOURS - 1)]
        if kind == "delivered":
            bucket.delivered += 1
        elif kind == "failed":
            bucket.failed += 1
        else:
            bucket.queued += 1
        # Whole-second timestamps on both sides measure nothing (0 or 1,000 ms): no time then.
        measured = settled is not None and bool(created.microsecond or settled.microsecond)
        if settled is not None and measured and attempts <= 1:
            elapsed = (_utc(settled).timestamp() - created_s) * 1000
            if 0 <= elapsed < 60_000:
                bucket.outcome_ms.append(elapsed)
    return Timeline(buckets, older)


def _utc(moment: datetime) -> datetime:
    # A server that sends no offset is read as UTC (DESIGN.md).
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def timeline_from_counts(
    counts: Iterable[tuple[int, str, int]],
    elapsed: Iterable[tuple[int, float]],
    now: datetime | None = None,
    older: int = 0,
) -> Timeline:
    """`build_timeline` from counts per hour (hour 0 = the first of the 7 days ending with the
    current hour, as `first_hour(now)`), e.g. counted by the kept logs' database."""
    start = first_hour(now)
    buckets = [HourBucket(start + timedelta(hours=i)) for i in range(HOURS)]
    for hour, kind, rows in counts:
        if hour < 0:
            continue
        bucket = buckets[min(hour, HOURS - 1)]
        if kind == "delivered":
            bucket.delivered += rows
        elif kind == "failed":
            bucket.failed += rows
        else:
            bucket.queued += rows
    for hour, ms in elapsed:
        if hour >= 0:
            buckets[min(hour, HOURS - 1)].outcome_ms.append(ms)
    return Timeline(buckets, older)


def first_hour(now: datetime | None = None) -> datetime:
    """The start of the chart's first hour: 7 days of hours ending with the current one."""
    now = (now or datetime.now(UTC)).astimezone(UTC)
    return now.replace(minute=0, second=0, microsecond=0) - timedelta(hours=HOURS - 1)
