"""Run a CSV import: check every row, then queue the rows in the outbox and wait for them.

Nothing is queued while any row is invalid. Valid rows go through the workspace's outbox like
any batch (exactly once, reconciled after a lost answer), each under a source key made from its
content, so importing the same file again — after an interruption, or once with `postdesk
import` and once in the window, which share the workspace's outbox file — sends only what was
not sent yet. The sending is the outbox service's: the window's session runs it, the command
line runs it for the length of the import.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from pathlib import Path

from app.api import errors as e
from app.api.client import ApiClient
from app.compose.uploads import upload_failure
from app.csv_io.download import DownloadFailed, download
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
    skipped: list[CsvError] = field(default_factory=list)
    """Rows of an export that record what happened (published, failed…): not imported."""

    @property
    def all_sent(self) -> bool:
        return not self.errors and all(o.state is OutboxState.SENT for o in self.outcomes)

    def summary_lines(self) -> list[str]:
        if self.errors:
            return [
                *(str(error) for error in self.errors),
                f"Nothing was sent: {len(self.errors)} problem"
                f"{'s' if len(self.errors) != 1 else ''} to fix first.",
                *self._skipped_lines(),
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
        return [*lines, *self._skipped_lines()]

    def _skipped_lines(self) -> list[str]:
        lines: list[str] = []
        if self.skipped:
            by_status: dict[str, int] = {}
            for skip in self.skipped:
                status = skip.reason.split(":", 1)[0]
                by_status[status] = by_status.get(status, 0) + 1
            what = ", ".join(f"{n} {status}" for status, n in by_status.items())
            lines.append(
                f"{len(self.skipped)} row{'s' if len(self.skipped) != 1 else ''} skipped "
                f"({what}): a post cannot be created with that status. Import them as drafts "
                "with --as-drafts (or the import dialog's option)."
            )
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
    others_as_drafts: bool = False,
    skipped: list[CsvError] | None = None,
) -> tuple[list[PlannedRow], list[CsvError]]:
    """Read and check every row (reads the workspace's accounts and labels once); see
    `plan_rows` for `others_as_drafts` and `skipped`."""
    records, errors = read_records(text)
    if any(error.row == 1 for error in errors):
        # With the header wrong, every row would be misread: fix the header first.
        return [], errors
    facts = await read_workspace_facts(client)
    planned, row_errors = plan_rows(
        records,
        facts,
        base_dir=base_dir,
        local_tz=local_tz,
        now=now or datetime.now(UTC),
        others_as_drafts=others_as_drafts,
        skipped=skipped,
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
    others_as_drafts: bool = False,
) -> ImportReport:
    """Check and queue every row, then wait until each is sent or needs the user, at most
    `wait_seconds` (what is left stays queued in the outbox). `service` must be running."""
    client = service.client
    outbox = service.outbox
    skipped: list[CsvError] = []
    planned, errors = await check_csv(
        text,
        client,
        base_dir=base_dir,
        local_tz=local_tz,
        others_as_drafts=others_as_drafts,
        skipped=skipped,
    )
    if errors:
        return ImportReport(errors=errors, skipped=skipped)
    progress = on_progress or (lambda done, total, what: None)
    total = len(planned)
    entries: dict[int, int] = {}
    earlier: set[int] = set()
    failed: dict[int, str] = {}
    tokens: dict[Path | str, str] = {}
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
            except DownloadFailed as exc:
                failed[row.row] = str(exc)
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
    return ImportReport(outcomes=outcomes, skipped=skipped)


async def _upload(client: ApiClient, tokens: dict[Path | str, str], source: Path | str) -> str:
    """The upload token of a local file, or of a file at an address (downloaded first, into a
    temporary folder removed right after)."""
    if source not in tokens:
        try:
            if isinstance(source, Path):
                tokens[source] = await client.uploads.upload(source)
            else:
                with tempfile.TemporaryDirectory(prefix="postdesk-import-") as folder:
                    path = await download(source, Path(folder))
                    tokens[source] = await client.uploads.upload(path)
        except e.ApiError as exc:
            raise upload_failure(exc) from exc
    return tokens[source]


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
