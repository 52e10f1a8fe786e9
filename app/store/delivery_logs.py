"""Webhook delivery logs kept in the workspace's durable file (`local_store.py`, schema steps 3
and 4): the delivery archive (issue 17).

The service keeps a delivery log for 7 days; what was read here is kept (90 days unless the
user sets another retention), so after a week these rows are the only copy; a webhook deleted
on the server keeps its rows until the user removes them (`note_listed`, `remove`). A webhook
read before is topped up by reading its newest pages until a row already kept
(`app.sync.webhook_monitor`), and its chart is computed from the kept rows instead of walking
the server's pages at every click.

Rows are keyed by (webhook id, delivery id) and listed newest first by `created_at`, then id,
never by page number: every new delivery pushes the server's rows one place down.

What the server listed one after another is stored as a *run* (`store_run`). A kept row whose
next row on the server has not been read yet carries `gap_below`: the last row of a page read
on its own, or of a top-up that stopped before it met a kept row. A row without it is followed
on the server by a kept row, or by nothing (the end of the log). Readers list rows from the
newest down to the second of the first gap and no further (`rows()`), so what lies below a gap
is shown only once the gap has been read: never a row out of place, never one twice.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, TypeVar

from pydantic import TypeAdapter, ValidationError

from app.models.webhooks import DeliveryLog
from app.store.local_schema import LOCAL_MIGRATIONS
from app.store.local_store import utc_text
from app.webhooks.raw_log import RawDeliveryLog

T = TypeVar("T")
LogKey = tuple[str, str]
"""(created_utc, id): the order of the log, newest first when descending."""

MAX_ATTEMPTS = 3
"""Spec §6: up to 3 attempts; a failed row with fewer may still be retried."""
KEEP_FOR = timedelta(days=90)
"""The default retention: kept rows older than this are dropped (a busy webhook's file would
grow for ever); the user sets another (`set_retention_days`)."""
MIN_RETENTION_DAYS = 7
MAX_RETENTION_DAYS = 3650

_LOG = TypeAdapter(RawDeliveryLog)
_COLUMNS = "id, created_utc, event_type, outcome, response_status, attempts, settled_utc, gap_below"
_ORDER = "ORDER BY created_utc DESC, id DESC"
_IDS_PER_QUERY = 400


class LogDb(Protocol):
    """What the archive needs of a file: `LocalStore` is one, `MemoryDb` another."""

    def read(self, sql: str, params: Any = ()) -> list[Any]: ...

    async def transaction(self, work: Callable[[sqlite3.Connection], T]) -> T: ...


class MemoryDb:
    """The same tables in memory, for a session whose durable file could not be opened: the
    logs are then kept until the workspace closes."""

    def __init__(self) -> None:
        self._connection = sqlite3.connect(
            ":memory:", isolation_level=None, check_same_thread=False
        )
        self._lock = threading.Lock()
        for script in LOCAL_MIGRATIONS:
            self._connection.executescript(script)

    def read(self, sql: str, params: Any = ()) -> list[Any]:
        with self._lock:
            return self._connection.execute(sql, params).fetchall()

    async def transaction(self, work: Callable[[sqlite3.Connection], T]) -> T:
        with self._lock:
            self._connection.execute("BEGIN IMMEDIATE")
            try:
                result = work(self._connection)
            except BaseException:
                self._connection.rollback()
                raise
            self._connection.commit()
        return result


@dataclass(frozen=True, slots=True)
class KeptRow:
    """What the log table shows of a kept delivery (the whole log: `DeliveryArchive.log`)."""

    id: str
    created_utc: str
    event_type: str | None
    outcome: str  # delivered, failed, queued
    response_status: int | None
    attempts: int
    settled_utc: str | None
    gap_below: bool

    @property
    def key(self) -> LogKey:
        return (self.created_utc, self.id)

    @property
    def created_at(self) -> datetime | None:
        return datetime.fromisoformat(self.created_utc) if self.created_utc else None


@dataclass(frozen=True, slots=True)
class ArchivedWebhook:
    webhook_id: str
    endpoint: str | None
    gone_utc: str | None
    """When the server's list stopped holding it (None: it is still there)."""
    rows: int
    bytes: int
    oldest_utc: str | None
    newest_utc: str | None


@dataclass(frozen=True)
class StoredRun:
    added: tuple[str, ...]
    """Ids new to the file."""
    changed: tuple[str, ...]
    """Ids kept before whose log changed (a queued delivery decided, an attempt more)."""
    met_kept: bool
    """The run held a row kept before it."""


def outcome_of(log: DeliveryLog) -> str:
    if log.delivered_at is not None:
        return "delivered"
    if log.failed_at is not None:
        return "failed"
    return "queued"


def undecided(log: DeliveryLog) -> bool:
    """Not delivered, and not failed for good: queued, or failed with attempts left."""
    return log.delivered_at is None and (log.failed_at is None or log.attempts < MAX_ATTEMPTS)


def created_utc(moment: datetime | None) -> str:
    """Fixed-width UTC text (a time without an offset is UTC, DESIGN.md); "" when missing."""
    if moment is None:
        return ""
    return utc_text(moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC))


def _row_values(log: DeliveryLog) -> tuple[Any, ...]:
    """The columns of `_VALUES`, in order; the body last."""
    settled = log.delivered_at or log.failed_at
    created, settled_at = _aware(log.created_at), _aware(settled)
    settle_ms = None
    # Only where it is measured (issue 17 §6): two whole-second timestamps say 0 or 1,000 ms
    # whatever the receiver took, so no time is derived from them.
    measured = any(moment is not None and moment.microsecond for moment in (created, settled_at))
    if measured and created is not None and settled_at is not None and log.attempts <= 1:
        elapsed = (settled_at - created).total_seconds() * 1000
        settle_ms = elapsed if 0 <= elapsed < 60_000 else None
    return (
        created_utc(log.created_at),
        log.event_type,
        outcome_of(log),
        log.response_status,
        log.attempts,
        created_utc(settled) or None,
        int(undecided(log)),
        int(created.timestamp()) if created is not None else 0,
        settle_ms,
        log.archive_json() if isinstance(log, RawDeliveryLog) else log.model_dump_json(),
    )


_VALUES = (
    "created_utc, event_type, outcome, response_status, attempts, settled_utc, undecided, "
    "created_s, settle_ms, body"
)


def _aware(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _kept(row: Any) -> KeptRow:
    return KeptRow(row[0], row[1], row[2], row[3], row[4], row[5], row[6], bool(row[7]))


def _chunks(items: Sequence[str]) -> Iterable[Sequence[str]]:
    for start in range(0, len(items), _IDS_PER_QUERY):
        yield items[start : start + _IDS_PER_QUERY]


def _marks(count: int) -> str:
    return ", ".join("?" * count)


class DeliveryArchive:
    """The kept delivery logs of one workspace. Reads are synchronous and cheap (indexed, the
    body is parsed only by `log()`); writes return once committed."""

    def __init__(self, db: LogDb | None = None) -> None:
        self.db: LogDb = db if db is not None else MemoryDb()

    # -- reads ---------------------------------------------------------------------------------

    def rows(
        self, webhook_id: str, *, below: LogKey | None = None, limit: int = 100
    ) -> list[KeptRow]:
        """Up to `limit` rows older than `below` (from the newest when None), newest first, not
        past the second of the first gap (`gap_for`): rows of earlier seconds may have unread
        rows between them and these until the gap is read."""
        where, params = "webhook_id = ?", [webhook_id]
        if below is not None:
            where += " AND (created_utc, id) < (?, ?)"
            params += list(below)
        gap = self.gap_for(webhook_id, below)
        if gap is not None:
            where += " AND created_utc >= ?"
            params.append(gap.created_utc)
        found = self.db.read(
            f"SELECT {_COLUMNS} FROM delivery_logs WHERE {where} {_ORDER} LIMIT ?",
            [*params, limit],
        )
        return [_kept(row) for row in found]

    def gap_for(self, webhook_id: str, below: LogKey | None = None) -> KeptRow | None:
        """The newest row with a gap below it, of `below`'s second or earlier (any when None).
        Seconds are the unit because rows of one second are ordered by id here but by arrival
        on the server: an unread row of that second may still sort anywhere among them (it is
        put in its place when read)."""
        where, params = "webhook_id = ? AND gap_below = 1", [webhook_id]
        if below is not None:
            where += " AND created_utc <= ?"
            params.append(below[0])
        found = self.db.read(
            f"SELECT {_COLUMNS} FROM delivery_logs WHERE {where} {_ORDER} LIMIT 1", params
        )
        return _kept(found[0]) if found else None

    def newer(self, webhook_id: str, above: LogKey) -> list[KeptRow]:
        """Every kept row newer than `above`, newest first (gaps included: check them)."""
        found = self.db.read(
            f"SELECT {_COLUMNS} FROM delivery_logs WHERE webhook_id = ? "
            f"AND (created_utc, id) > (?, ?) {_ORDER}",
            (webhook_id, *above),
        )
        return [_kept(row) for row in found]

    def count_newer(self, webhook_id: str, above: LogKey) -> int:
        return int(
            self.db.read(
                "SELECT COUNT(*) FROM delivery_logs WHERE webhook_id = ? "
                "AND (created_utc, id) > (?, ?)",
                (webhook_id, *above),
            )[0][0]
        )

    def count_through_second(self, webhook_id: str, second: str) -> int:
        """Kept rows of `second` (a `created_utc`) or newer: where the last kept row of that
        second sits in the server's list, when the kept rows above it are all there is."""
        return int(
            self.db.read(
                "SELECT COUNT(*) FROM delivery_logs WHERE webhook_id = ? AND created_utc >= ?",
                (webhook_id, second),
            )[0][0]
        )

    def count(self, webhook_id: str) -> int:
        return int(
            self.db.read("SELECT COUNT(*) FROM delivery_logs WHERE webhook_id = ?", (webhook_id,))[
                0
            ][0]
        )

    def row(self, webhook_id: str, log_id: str) -> KeptRow | None:
        found = self.rows_by_id(webhook_id, [log_id])
        return found[0] if found else None

    def rows_by_id(self, webhook_id: str, ids: Sequence[str]) -> list[KeptRow]:
        """The kept rows among `ids`, newest first."""
        found: list[KeptRow] = []
        for chunk in _chunks(list(ids)):
            found += map(
                _kept,
                self.db.read(
                    f"SELECT {_COLUMNS} FROM delivery_logs WHERE webhook_id = ? "
                    f"AND id IN ({_marks(len(chunk))})",
                    (webhook_id, *chunk),
                ),
            )
        return sorted(found, key=lambda row: row.key, reverse=True)

    def known_ids(self, webhook_id: str, ids: Sequence[str]) -> set[str]:
        known: set[str] = set()
        for chunk in _chunks(list(ids)):
            known.update(
                row[0]
                for row in self.db.read(
                    f"SELECT id FROM delivery_logs WHERE webhook_id = ? "
                    f"AND id IN ({_marks(len(chunk))})",
                    (webhook_id, *chunk),
                )
            )
        return known

    def log(self, webhook_id: str, log_id: str) -> RawDeliveryLog | None:
        """The whole log as the server sent it (None when not kept or no longer readable)."""
        found = self.db.read(
            "SELECT body FROM delivery_logs WHERE webhook_id = ? AND id = ?", (webhook_id, log_id)
        )
        if not found:
            return None
        try:
            return _LOG.validate_json(found[0][0])
        except ValidationError:
            return None

    def first_gap(self, webhook_id: str) -> KeptRow | None:
        """The newest row with a gap below it: what to read next to extend the log."""
        found = self.db.read(
            f"SELECT {_COLUMNS} FROM delivery_logs WHERE webhook_id = ? AND gap_below = 1 "
            f"{_ORDER} LIMIT 1",
            (webhook_id,),
        )
        return _kept(found[0]) if found else None

    def newest(self, webhook_id: str) -> KeptRow | None:
        found = self.db.read(
            f"SELECT {_COLUMNS} FROM delivery_logs WHERE webhook_id = ? {_ORDER} LIMIT 1",
            (webhook_id,),
        )
        return _kept(found[0]) if found else None

    def undecided(self, webhook_id: str, since: datetime | None = None) -> list[KeptRow]:
        """Rows the service may still change (queued, or failed with attempts left); with
        `since`, only those first kept undecided since then (this computer's clock: a
        duration, not a server time)."""
        where, params = "webhook_id = ? AND undecided = 1", [webhook_id]
        if since is not None:
            where += " AND undecided_since >= ?"
            params.append(utc_text(since))
        found = self.db.read(f"SELECT {_COLUMNS} FROM delivery_logs WHERE {where} {_ORDER}", params)
        return [_kept(row) for row in found]

    def total(self, webhook_id: str) -> int | None:
        """The server's count of logs when a page was last read (None: never read)."""
        found = self.db.read(
            "SELECT total FROM delivery_log_sources WHERE webhook_id = ?", (webhook_id,)
        )
        return None if not found or found[0][0] is None else int(found[0][0])

    def head_total(self, webhook_id: str) -> int | None:
        """The server's count when its newest page was last read: while the count is still
        that, no row was added above the kept ones (positions below them hold)."""
        found = self.db.read(
            "SELECT head_total FROM delivery_log_sources WHERE webhook_id = ?", (webhook_id,)
        )
        return None if not found or found[0][0] is None else int(found[0][0])

    def chart_counts(
        self, webhook_id: str, first_hour: datetime
    ) -> tuple[list[tuple[int, str, int]], list[tuple[int, float]]]:
        """For the 7-day chart, counted by SQLite from columns written with each row (no
        timestamp is parsed): (hour, outcome, rows) for the rows created since `first_hour`
        (aware, on the hour), hour 0 being that one; and (hour, ms from creation to outcome)
        of those settled at their first attempt within a minute (`app.webhooks.timeline`)."""
        since, epoch = utc_text(first_hour), int(first_hour.timestamp())
        counts = self.db.read(
            "SELECT (created_s - ?) / 3600 AS hour, outcome, COUNT(*) FROM delivery_logs "
            "WHERE webhook_id = ? AND created_utc >= ? GROUP BY hour, outcome",
            (epoch, webhook_id, since),
        )
        elapsed = self.db.read(
            "SELECT (created_s - ?) / 3600, settle_ms FROM delivery_logs "
            "WHERE webhook_id = ? AND created_utc >= ? AND settle_ms IS NOT NULL",
            (epoch, webhook_id, since),
        )
        return [tuple(row) for row in counts], [tuple(row) for row in elapsed]

    def count_before(self, webhook_id: str, moment: datetime) -> int:
        """Kept rows created before `moment` (aware)."""
        return int(
            self.db.read(
                "SELECT COUNT(*) FROM delivery_logs WHERE webhook_id = ? AND created_utc < ?",
                (webhook_id, utc_text(moment)),
            )[0][0]
        )

    # -- writes --------------------------------------------------------------------------------

    async def store_run(
        self,
        webhook_id: str,
        logs: Sequence[DeliveryLog],
        *,
        reaches_end: bool,
        total: int | None = None,
        head: bool = False,
        after: str | None = None,
    ) -> StoredRun:
        """Keep `logs`, which the server listed one after another in this order (a page, or
        consecutive pages). A kept row is replaced when its log changed. Every row but the
        last is followed by a kept row now; the last, when new, has a gap below it unless
        `reaches_end` (the server's list ends there). `head`: the run starts at page 1 (its
        `total` is the `head_total`). `after`: the kept row listed just before the run."""
        ordered: list[tuple[str, tuple[Any, ...]]] = []
        seen: set[str] = set()
        for log in logs:
            if log.id not in seen:  # a row listed twice (the pages moved between two reads)
                seen.add(log.id)
                ordered.append((log.id, _row_values(log)))
        read_at = utc_text(datetime.now(UTC))

        def work(connection: sqlite3.Connection) -> StoredRun:
            ids = [log_id for log_id, _values in ordered]
            bodies: dict[str, str] = {}
            for chunk in _chunks(ids):
                bodies.update(
                    connection.execute(
                        f"SELECT id, body FROM delivery_logs WHERE webhook_id = ? "
                        f"AND id IN ({_marks(len(chunk))})",
                        (webhook_id, *chunk),
                    ).fetchall()
                )
            added: list[str] = []
            changed: list[str] = []
            for log_id, values in ordered:
                before = bodies.get(log_id)
                if before is None:
                    connection.execute(
                        f"INSERT INTO delivery_logs (webhook_id, id, {_VALUES}, "
                        "undecided_since) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                        "CASE WHEN ? = 1 THEN ? END)",
                        (webhook_id, log_id, *values, values[6], read_at),
                    )
                    added.append(log_id)
                elif before != values[-1]:
                    connection.execute(
                        "UPDATE delivery_logs SET created_utc = ?, event_type = ?, outcome = ?, "
                        "response_status = ?, attempts = ?, settled_utc = ?, undecided = ?, "
                        "created_s = ?, settle_ms = ?, body = ?, "
                        "undecided_since = CASE WHEN ? = 0 THEN NULL "
                        "ELSE coalesce(undecided_since, ?) END WHERE webhook_id = ? AND id = ?",
                        (*values, values[6], read_at, webhook_id, log_id),
                    )
                    changed.append(log_id)
            followed = ids[:-1] + ([after] if after is not None and ids else [])
            for chunk in _chunks(followed):
                connection.execute(
                    f"UPDATE delivery_logs SET gap_below = 0 WHERE webhook_id = ? "
                    f"AND gap_below = 1 AND id IN ({_marks(len(chunk))})",
                    (webhook_id, *chunk),
                )
            if ids:
                last = ids[-1]
                if reaches_end or last in added:
                    connection.execute(
                        "UPDATE delivery_logs SET gap_below = ? WHERE webhook_id = ? AND id = ?",
                        (0 if reaches_end else 1, webhook_id, last),
                    )
            if ids or total is not None:
                connection.execute(
                    "INSERT INTO delivery_log_sources (webhook_id, total, head_total, read_utc) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (webhook_id) DO UPDATE SET "
                    "total = coalesce(excluded.total, total), "
                    "head_total = CASE WHEN ? THEN excluded.head_total ELSE head_total END, "
                    "read_utc = excluded.read_utc",
                    (webhook_id, total, total if head else None, read_at, head),
                )
            return StoredRun(tuple(added), tuple(changed), len(bodies) > 0)

        return await self.db.transaction(work)

    async def close_gap(self, webhook_id: str, log_id: str | None = None) -> None:
        """Nothing more can be read below this row (None: below any row of the webhook): the
        server's list ends above it, or it was pruned there."""
        sql = "UPDATE delivery_logs SET gap_below = 0 WHERE webhook_id = ?"
        params: tuple[str, ...] = (webhook_id,)
        if log_id is not None:
            sql += " AND id = ?"
            params = (webhook_id, log_id)
        await self.db.transaction(lambda connection: connection.execute(sql, params))

    async def note_listed(self, webhooks: Iterable[tuple[str, str]]) -> int:
        """The server's whole list, as (id, endpoint): a kept webhook missing from it was deleted
        there. Its rows stay (after 7 days they are the only copy) until the user removes them
        (`remove`); returns how many webhooks were newly marked gone."""
        listed = dict(webhooks)
        now = utc_text(datetime.now(UTC))

        def work(connection: sqlite3.Connection) -> int:
            held = connection.execute(
                "SELECT webhook_id, gone_utc FROM delivery_log_sources"
            ).fetchall()
            gone = 0
            for webhook_id, endpoint in listed.items():
                connection.execute(
                    "INSERT INTO delivery_log_sources (webhook_id, endpoint, read_utc) "
                    "VALUES (?, ?, ?) ON CONFLICT (webhook_id) DO UPDATE SET gone_utc = NULL, "
                    "endpoint = excluded.endpoint",
                    (webhook_id, endpoint, now),
                )
            for webhook_id, gone_utc in held:
                if webhook_id not in listed and gone_utc is None:
                    connection.execute(
                        "UPDATE delivery_log_sources SET gone_utc = ? WHERE webhook_id = ?",
                        (now, webhook_id),
                    )
                    gone += 1
            return gone

        return await self.db.transaction(work)

    async def remove(self, webhook_id: str) -> int:
        """The user removes a webhook's archive; returns how many rows went."""

        def work(connection: sqlite3.Connection) -> int:
            removed = connection.execute(
                "DELETE FROM delivery_logs WHERE webhook_id = ?", (webhook_id,)
            ).rowcount
            connection.execute(
                "DELETE FROM delivery_log_sources WHERE webhook_id = ?", (webhook_id,)
            )
            return int(removed)

        return await self.db.transaction(work)

    def all_logs(self, webhook_id: str) -> list[RawDeliveryLog]:
        """Every kept log of a webhook, newest first (an export; rows no longer readable are
        left out)."""
        logs = []
        for (body,) in self.db.read(
            f"SELECT body FROM delivery_logs WHERE webhook_id = ? {_ORDER}", (webhook_id,)
        ):
            try:
                logs.append(_LOG.validate_json(body))
            except ValidationError:
                continue
        return logs

    def retention_days(self) -> int:
        found = self.db.read(
            "SELECT value FROM delivery_archive_settings WHERE name = 'retention_days'"
        )
        try:
            days = int(found[0][0]) if found else KEEP_FOR.days
        except ValueError:
            days = KEEP_FOR.days
        return min(max(days, MIN_RETENTION_DAYS), MAX_RETENTION_DAYS)

    async def set_retention_days(self, days: int) -> None:
        """Kept rows older than `days` go at the next prune (`prune`)."""
        if not MIN_RETENTION_DAYS <= days <= MAX_RETENTION_DAYS:
            raise ValueError(
                f"Keep deliveries between {MIN_RETENTION_DAYS} and {MAX_RETENTION_DAYS} days."
            )
        await self.db.transaction(
            lambda connection: connection.execute(
                "INSERT INTO delivery_archive_settings (name, value) VALUES ('retention_days', ?) "
                "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                (str(days),),
            )
        )

    def summary(self) -> list[ArchivedWebhook]:
        """Every webhook with kept rows (or a source row), its size and whether it is gone."""
        found = self.db.read(
            "SELECT s.webhook_id, s.endpoint, s.gone_utc, COUNT(l.id), "
            "coalesce(SUM(length(l.body)), 0), MIN(l.created_utc), MAX(l.created_utc) "
            "FROM delivery_log_sources s LEFT JOIN delivery_logs l ON l.webhook_id = s.webhook_id "
            "GROUP BY s.webhook_id ORDER BY s.gone_utc IS NOT NULL, s.webhook_id"
        )
        return [
            ArchivedWebhook(row[0], row[1], row[2], int(row[3]), int(row[4]), row[5], row[6])
            for row in found
        ]

    async def prune(self, now: datetime) -> int:
        """Drop kept rows older than the retention the user set; returns how many."""
        cutoff = utc_text(now - timedelta(days=self.retention_days()))
        return await self.db.transaction(
            lambda connection: (
                connection.execute(
                    "DELETE FROM delivery_logs WHERE created_utc != '' AND created_utc < ?",
                    (cutoff,),
                ).rowcount
            )
        )
