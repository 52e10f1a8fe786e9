"""Replay many deliveries at once (issue 17 §3), each at most once.

Like the outbox, what is asked is written down before it is asked (`delivery_replays`, one row
per delivery and batch, committed first): a delivery recorded as asked is never asked again by
this batch, whatever happens next, also after a restart. An answer that is lost in transit
(`OutcomeUnknown`: the request may have reached the service) is not asked again either: once
every delivery was asked, the webhook's newest log pages are read and a new row carrying the
same `data` (spec §6 rule 4: a replay keeps the original data, with a new envelope id and a new
log row), newer than anything kept when the batch began, confirms it. One that is not found is
reported, never sent blindly.

A 429 means the service did not take the request: the batch waits the `Retry-After` (the
client's rate gate holds every request of the workspace meanwhile) and asks that one again.
Pause holds the batch between two deliveries; cancel stops it there (the one in flight ends).
"""

from __future__ import annotations

import asyncio
import sqlite3
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from app.api.client import ApiClient
from app.api.errors import ApiError, OutcomeUnknown, RateLimited
from app.models.webhooks import DeliveryLog
from app.store.delivery_logs import DeliveryArchive, LogKey, created_utc
from app.store.local_store import utc_text
from app.webhooks.raw_log import payload_of

CHECK_PAGES = 10
"""Log pages read at most to confirm the replays whose answer was lost."""
RATE_WAIT_DEFAULT_S = 5.0
MAX_RATE_WAITS = 20
"""429s in a row before the batch gives up (the rest are reported as not asked)."""

QUEUED, REFUSED, UNKNOWN, CONFIRMED, NOT_FOUND, NOT_ASKED = (
    "queued",
    "refused",
    "unknown",
    "confirmed",
    "not_found",
    "not_asked",
)


@dataclass
class ReplayProgress:
    total: int
    asked: int = 0
    queued: int = 0
    refused: int = 0
    unknown: int = 0
    """Answers lost in transit, waiting to be checked against the log."""
    confirmed: int = 0
    """Lost answers found in the log: queued after all."""
    not_found: int = 0
    not_asked: int = 0
    state: str = "running"  # running, paused, waiting (429), checking, cancelled, finished
    wait_s: float = 0.0
    refusals: list[str] = field(default_factory=list)

    @property
    def done(self) -> int:
        return self.asked + self.not_asked

    def summary(self) -> str:
        parts = [f"{self.queued + self.confirmed:,} of {self.total:,} replays queued"]
        if self.confirmed:
            parts.append(f"{self.confirmed:,} of them confirmed from the log (answer lost)")
        if self.refused:
            parts.append(f"{self.refused:,} refused by the service")
        if self.not_found:
            parts.append(
                f"{self.not_found:,} sent without an answer and not in the log: check before "
                "replaying them again"
            )
        if self.not_asked:
            parts.append(f"{self.not_asked:,} not asked (cancelled or rate-limited)")
        return "; ".join(parts) + "."


@dataclass(frozen=True)
class _Item:
    log_id: str
    data: Any


class BulkReplay:
    def __init__(
        self,
        client: ApiClient,
        archive: DeliveryArchive,
        webhook_id: str,
        logs: Sequence[DeliveryLog],
        *,
        batch: str | None = None,
        on_progress: Callable[[ReplayProgress], None] = lambda _progress: None,
        sleep: Callable[[float], Any] = asyncio.sleep,
    ) -> None:
        self.client = client
        self.archive = archive
        self.webhook_id = webhook_id
        self.batch = batch or uuid.uuid4().hex
        unique = {log.id: log for log in logs}  # a row selected twice is asked once
        self.items = [_Item(log.id, _data_of(log)) for log in unique.values()]
        self.progress = ReplayProgress(total=len(self.items))
        self._on_progress = on_progress
        self._sleep = sleep
        self._resume = asyncio.Event()
        self._resume.set()
        self._cancelled = False
        newest = archive.newest(webhook_id)
        self._newest_at_start: LogKey | None = newest.key if newest is not None else None

    # -- control ---------------------------------------------------------------------------------

    def pause(self) -> None:
        if self.progress.state in ("running", "waiting"):
            self._resume.clear()
            self._set(state="paused")

    def resume(self) -> None:
        if self.progress.state == "paused":
            self._set(state="running")
        self._resume.set()

    def cancel(self) -> None:
        self._cancelled = True
        self._resume.set()

    # -- the run ---------------------------------------------------------------------------------

    async def run(self) -> ReplayProgress:
        await self._plan()
        lost: list[tuple[_Item, str]] = []
        for item in self.items:
            await self._resume.wait()
            if self._cancelled:
                break
            asked_at = await self._record_asking(item)
            if asked_at is None:
                continue  # asked before (this batch, an earlier run): never twice
            outcome = await self._ask(item)
            if outcome == UNKNOWN:
                lost.append((item, asked_at))
        skipped = self.progress.total - self.progress.asked
        self._set(not_asked=skipped)
        if lost:
            self._set(state="checking")
            await self._check(lost)
        self._set(state="cancelled" if self._cancelled else "finished")
        return self.progress

    async def _ask(self, item: _Item) -> str:
        waits = 0
        while True:
            try:
                queued = await self.client.webhooks.replay(self.webhook_id, item.log_id)
            except RateLimited as error:
                # Not taken by the service: wait as it says, then this one again.
                waits += 1
                if waits > MAX_RATE_WAITS or self._cancelled:
                    await self._note(item, NOT_ASKED, error.message)
                    self._set(asked=self.progress.asked - 1)
                    return NOT_ASKED
                wait = error.retry_after if error.retry_after is not None else RATE_WAIT_DEFAULT_S
                self._set(state="waiting", wait_s=wait)
                await self._sleep(wait)
                await self._resume.wait()
                self._set(state="running", wait_s=0.0)
                continue
            except OutcomeUnknown as error:
                await self._note(item, UNKNOWN, error.message)
                self._set(unknown=self.progress.unknown + 1)
                return UNKNOWN
            except ApiError as error:
                await self._note(item, REFUSED, error.message)
                self._set(
                    refused=self.progress.refused + 1,
                    refusals=[*self.progress.refusals, f"{item.log_id}: {error.message}"],
                )
                return REFUSED
            await self._note(item, QUEUED if queued else UNKNOWN)
            if queued:
                self._set(queued=self.progress.queued + 1)
                return QUEUED
            self._set(unknown=self.progress.unknown + 1)
            return UNKNOWN

    async def _check(self, lost: list[tuple[_Item, str]]) -> None:
        """Find each lost answer's replay in the log: a new row with the same data."""
        wanted = list(lost)
        claimed: set[str] = set()
        number = 1
        while wanted and number <= CHECK_PAGES:
            try:
                page = await self.client.webhooks.logs_page(self.webhook_id, number)
            except ApiError:
                break
            for row in page.data:
                key = (created_utc(row.created_at), row.id)
                if row.id in claimed or (
                    self._newest_at_start is not None and key <= self._newest_at_start
                ):
                    continue
                data = _data_of(row)
                for index, (item, _asked) in enumerate(wanted):
                    if item.data == data and row.id != item.log_id:
                        claimed.add(row.id)
                        del wanted[index]
                        await self._note(item, CONFIRMED, row.id)
                        self._set(
                            confirmed=self.progress.confirmed + 1,
                            unknown=self.progress.unknown - 1,
                        )
                        break
            start = self._newest_at_start
            older = start is not None and all(
                (created_utc(row.created_at), row.id) <= start for row in page.data
            )
            if not page.has_next or not page.data or older:
                break  # rows kept before the batch began: no replay of it is further down
            number += 1
        for item, _asked in wanted:
            await self._note(item, NOT_FOUND)
            self._set(not_found=self.progress.not_found + 1, unknown=self.progress.unknown - 1)

    # -- the record ------------------------------------------------------------------------------

    async def _plan(self) -> None:
        rows = [(self.webhook_id, item.log_id, self.batch) for item in self.items]

        def work(connection: sqlite3.Connection) -> None:
            connection.executemany(
                "INSERT OR IGNORE INTO delivery_replays (webhook_id, log_id, batch, state) "
                "VALUES (?, ?, ?, 'planned')",
                rows,
            )

        await self.archive.db.transaction(work)

    async def _record_asking(self, item: _Item) -> str | None:
        """Mark `item` asked, committed before the request; None when it was asked before."""
        now = utc_text(datetime.now(UTC))

        def work(connection: sqlite3.Connection) -> bool:
            return (
                connection.execute(
                    "UPDATE delivery_replays SET state = 'asking', asked_utc = ? "
                    "WHERE webhook_id = ? AND log_id = ? AND batch = ? AND state = 'planned'",
                    (now, self.webhook_id, item.log_id, self.batch),
                ).rowcount
                == 1
            )

        if not await self.archive.db.transaction(work):
            return None
        self._set(asked=self.progress.asked + 1)
        return now

    async def _note(self, item: _Item, state: str, detail: str | None = None) -> None:
        await self.archive.db.transaction(
            lambda connection: connection.execute(
                "UPDATE delivery_replays SET state = ?, detail = ? "
                "WHERE webhook_id = ? AND log_id = ? AND batch = ?",
                (state, detail, self.webhook_id, item.log_id, self.batch),
            )
        )

    def _set(self, **changes: Any) -> None:
        for name, value in changes.items():
            setattr(self.progress, name, value)
        self._on_progress(self.progress)


def _data_of(log: DeliveryLog) -> Any:
    payload = payload_of(log)
    return payload.get("data") if isinstance(payload, dict) else None
