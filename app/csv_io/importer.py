"""Run a CSV import: check every row, then queue the rows in the outbox and wait for them.

Nothing is queued while any row is invalid. Valid rows go through the workspace's outbox like
any batch (exactly once, reconciled after a lost answer), each under a source key made from its
content, so importing the same file again — after an interruption, or once with `postdesk
import` and once in the window, which share the workspace's outbox file — sends only what was
not sent yet. The sending is the outbox service's: the window's session runs it, the command
line runs it for the length of the import.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from pathlib import Path

from app.api import errors as e
from app.api.client import ApiClient
from app.csv_io.format import CsvError, read_records
from app.csv_io.plan import PlannedRow, WorkspaceFacts, plan_rows
from app.models.requests import MediaRef
from app.sync.outbox import Outbox, OutboxEntry, OutboxState
from app.sync.outbox_service import FINAL_STATES, OutboxService


@dataclass(frozen=True)
class RowOutcome:
    row: int
    state: OutboxState | None
    """None: it never reached the outbox (its media could not be uploaded)."""
    reason: str | None = None
    post_ids: tuple[str, ...] = ()
    already_imported: bool = False


@dataclass
class ImportReport:
    errors: list[CsvError] = field(default_factory=list)
    """Problems found before sending; when present nothing was sent."""
    outcomes: list[RowOutcome] = field(default_factory=list)

    @property
    def all_sent(self) -> bool:
        return not self.errors and all(o.state is OutboxState.SENT for o in self.outcomes)

    def summary_lines(self) -> list[str]:
        if self.errors:
            return [
                *(str(error) for error in self.errors),
                f"Nothing was sent: {len(self.errors)} problem"
                f"{'s' if len(self.errors) != 1 else ''} to fix first.",
            ]
        lines: list[str] = []
        counts: dict[str, int] = {}
        for outcome in self.outcomes:
            label = outcome.state.label if outcome.state else "Not queued"
            counts[label] = counts.get(label, 0) + 1
            if outcome.state is not OutboxState.SENT:
                lines.append(f"row {outcome.row}: {label.lower()}: {outcome.reason or ''}".strip())
        already = sum(1 for outcome in self.outcomes if outcome.already_imported)
        parts = [f"{count} {label.lower()}" for label, count in counts.items()]
        total = len(self.outcomes)
        tail = f" ({already} imported before)" if already else ""
        lines.append(f"{total} row{'s' if total != 1 else ''}: {', '.join(parts)}{tail}.")
        return lines


Progress = Callable[[int, int, str], None]
"""(rows finished, rows in all, what is happening)."""


async def read_workspace_facts(client: ApiClient) -> WorkspaceFacts:
    accounts = await client.accounts.list()
    try:
        labels = await client.labels.list()
    except e.NotFound:
        return WorkspaceFacts(accounts, None)
    return WorkspaceFacts(accounts, labels)


async def check_csv(
    text: str,
    client: ApiClient,
    *,
    base_dir: Path,
    local_tz: tzinfo,
    now: datetime | None = None,
) -> tuple[list[PlannedRow], list[CsvError]]:
    """Read and check every row (reads the workspace's accounts and labels once)."""
    records, errors = read_records(text)
    if any(error.row == 1 for error in errors):
        # With the header wrong, every row would be misread: fix the header first.
        return [], errors
    facts = await read_workspace_facts(client)
    planned, row_errors = plan_rows(
        records, facts, base_dir=base_dir, local_tz=local_tz, now=now or datetime.now(UTC)
    )
    return planned, errors + row_errors


async def import_csv(
    text: str,
    service: OutboxService,
    *,
    base_dir: Path,
    local_tz: tzinfo,
    on_progress: Progress | None = None,
    wait_seconds: float = 120.0,
) -> ImportReport:
    """Check and queue every row, then wait until each is sent or needs the user, at most
    `wait_seconds` (what is left stays queued in the outbox). `service` must be running."""
    client = service.client
    outbox = service.outbox
    planned, errors = await check_csv(text, client, base_dir=base_dir, local_tz=local_tz)
    if errors:
        return ImportReport(errors=errors)
    progress = on_progress or (lambda done, total, what: None)
    total = len(planned)
    entries: dict[int, int] = {}
    earlier: set[int] = set()
    failed: dict[int, str] = {}
    tokens: dict[Path, str] = {}
    for index, row in enumerate(planned):
        progress(0, total, f"queueing row {row.row} ({index + 1}/{total})")
        known = outbox.find_by_source(row.source_key)
        if known is not None:
            entries[row.row] = known.id
            earlier.add(row.row)
            continue
        request = row.request
        if row.media:
            try:
                refs = [MediaRef(upload_token=await _upload(client, tokens, p)) for p in row.media]
            except e.ApiError as exc:
                failed[row.row] = f"{exc} {exc.hint}"
                continue
            request = request.model_copy(update={"media": refs})
        entry = await service.enqueue(request, summary=row.summary, source_key=row.source_key)
        entries[row.row] = entry.id

    shown: tuple[int, str] | None = None

    def finished() -> bool:
        nonlocal shown
        states = _states(outbox, entries)
        done = sum(1 for entry in states.values() if entry.state in FINAL_STATES)
        now = (done + len(failed), _describe(service.status.message, states))
        if now != shown:
            shown = now
            progress(now[0], total, now[1])
        return done == len(entries)

    service.wake()  # rows queued by an earlier, interrupted import go now too
    await service.watch(finished, wait_seconds)

    states = _states(outbox, entries)
    outcomes = [
        RowOutcome(row.row, None, failed[row.row])
        if row.row in failed
        else _outcome(row.row, states.get(row.row), row.row in earlier)
        for row in planned
    ]
    return ImportReport(outcomes=outcomes)


async def _upload(client: ApiClient, tokens: dict[Path, str], path: Path) -> str:
    if path not in tokens:
        tokens[path] = await client.uploads.upload(path)
    return tokens[path]


def _states(outbox: Outbox, entries: dict[int, int]) -> dict[int, OutboxEntry]:
    found: dict[int, OutboxEntry] = {}
    for row, entry_id in entries.items():
        entry = outbox.get(entry_id)
        if entry is not None:
            found[row] = entry
    return found


def _describe(status: str, states: dict[int, OutboxEntry]) -> str:
    waiting = sum(1 for entry in states.values() if entry.state not in FINAL_STATES)
    return status or (f"{waiting} to send" if waiting else "done")


def _outcome(row: int, entry: OutboxEntry | None, earlier: bool) -> RowOutcome:
    if entry is None:
        return RowOutcome(row, None, "it was removed from the outbox")
    reason = entry.reason
    if entry.state in (OutboxState.QUEUED, OutboxState.OUTCOME_UNKNOWN, OutboxState.SENDING):
        reason = (reason or "") + " It stays in the outbox and is sent later."
    return RowOutcome(row, entry.state, reason, entry.post_ids, earlier)
