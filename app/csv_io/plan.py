"""Turn CSV records into batch requests, checking every cell locally first.

One row is one batch. Nothing here talks to the server: the workspace's accounts and labels
come in as `WorkspaceFacts` (read once by the caller). Every problem is reported as
`row N, column C: reason`, all of them at once, so the user fixes the file in one go.
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

from app.csv_io.format import (
    POST_STATUSES,
    STATUSES,
    CsvError,
    Record,
    parse_when,
    split_list,
)
from app.domain.enums import AccountStatus
from app.models.accounts import SocialAccountSummary
from app.models.labels import Label
from app.models.requests import BatchRequest, Destination
from app.networks import find_network, validate_destination
from app.networks.validate import Problem

_Fail = Callable[[str, str], None]


@dataclass(frozen=True)
class WorkspaceFacts:
    accounts: Sequence[SocialAccountSummary]
    labels: Sequence[Label] | None
    """None when the deployment has no labels route."""


@dataclass(frozen=True)
class FileFacts:
    """What the local media checks need to know about a file (`app.networks.MediaFacts`).
    `url`: a file given by its address (an export's server media), downloaded at import."""

    path: Path | None
    url: str | None
    mime: str
    size: int | None
    width: int | None = None
    height: int | None = None
    duration_s: float | None = None


@dataclass(frozen=True)
class PlannedRow:
    """A valid row: its request (media still to upload) and a key that makes re-imports safe."""

    row: int
    request: BatchRequest
    media: tuple[Path | str, ...] = ()  # local files, or addresses (str) to download first
    source_key: str = ""
    summary: str = ""
    account_names: tuple[str, ...] = field(default=())


def plan_rows(
    records: Sequence[Record],
    facts: WorkspaceFacts,
    *,
    base_dir: Path,
    local_tz: tzinfo,
    now: datetime,
    others_as_drafts: bool = False,
    skipped: list[CsvError] | None = None,
) -> tuple[list[PlannedRow], list[CsvError]]:
    """Every valid row and every problem; send nothing unless the problems are empty.

    Rows whose status an export writes but a post cannot be created with (published, failed,
    …) are not problems: they are left out and listed in `skipped`, or imported as drafts
    (without a past date) with `others_as_drafts` (issue 15 §1: export → import round trip)."""
    planned: list[PlannedRow] = []
    errors: list[CsvError] = []
    seen: Counter[str] = Counter()
    for record in records:
        row_errors: list[CsvError] = []
        status = record["status"].lower()
        if status in POST_STATUSES and status not in STATUSES:
            if not others_as_drafts:
                if skipped is not None:
                    skipped.append(CsvError(record.row, "status", f"{status}: skipped"))
                continue
            cells = dict(record.cells, status="draft")
            if _is_past(cells.get("scheduled_at", ""), local_tz, now):
                cells["scheduled_at"] = ""
            record = Record(record.row, cells)
        row = _plan(record, facts, base_dir, local_tz, now, row_errors)
        if row_errors and others_as_drafts and status == "scheduled":
            # What only blocks scheduling (an inactive account, a missing setting or video)
            # does not block a draft: the row comes in as one, to complete in the composer.
            as_draft: list[CsvError] = []
            row = _plan(
                Record(record.row, dict(record.cells, status="draft")),
                facts,
                base_dir,
                local_tz,
                now,
                as_draft,
            )
            row_errors = as_draft
        errors += row_errors
        if row is not None and not row_errors:
            fingerprint = _fingerprint(row)
            seen[fingerprint] += 1
            key = f"csv:{fingerprint}:{seen[fingerprint]}"
            planned.append(
                PlannedRow(
                    row.row,
                    row.request,
                    row.media,
                    key,
                    row.summary,
                    row.account_names,
                )
            )
    return planned, errors


def _is_past(text: str, local_tz: tzinfo, now: datetime) -> bool:
    try:
        return bool(text) and parse_when(text, local_tz) <= now
    except ValueError:
        return False  # reported by the row's own check


def _plan(
    record: Record,
    facts: WorkspaceFacts,
    base_dir: Path,
    local_tz: tzinfo,
    now: datetime,
    errors: list[CsvError],
) -> PlannedRow | None:
    def fail(column: str, reason: str) -> None:
        errors.append(CsvError(record.row, column, reason))

    content = record["content"]
    status = record["status"].lower() or "draft"
    if status not in STATUSES:
        fail(
            "status",
            f"“{record['status']}” is not a status; use draft or scheduled (empty = draft)",
        )
        status = "draft"

    when: datetime | None = None
    if record["scheduled_at"]:
        try:
            when = parse_when(record["scheduled_at"], local_tz)
        except ValueError as exc:
            fail("scheduled_at", str(exc))
    if status == "scheduled" and when is None and not record["scheduled_at"]:
        fail("scheduled_at", "a scheduled post needs a date and time")
    if status == "scheduled" and when is not None and when <= now:
        fail("scheduled_at", f"{record['scheduled_at']} is in the past")

    accounts = _accounts(record, facts.accounts, fail, scheduling=status == "scheduled")
    labels = _labels(record, facts.labels, fail)
    media = _media(record, base_dir, fail)
    meta = _meta(record, fail)
    # Files named by address come from a server that accepted them (an export): counted, but
    # not judged by the local media rules (issue 15 §3, as for an edited post's media).
    local_media = [item for item in media if item.path is not None]
    content_type = record["content_type"] or None

    destinations: list[Destination] = []
    for index, account in enumerate(accounts):
        net = find_network(account.platform)
        chosen = content_type
        if chosen is not None and net is not None and not net.accepts(chosen):
            offered = ", ".join(ct.value for ct in net.content_types)
            fail(
                "content_type",
                f"{chosen} is not a content type of {net.name} ({account.label}); "
                f"it offers {offered}",
            )
            continue
        if chosen is None:
            if net is None:
                fail("accounts", f"{account.label} is on {account.platform}, which is not known")
                continue
            chosen = net.default_content_type
        own_meta = {
            key: value
            for key, value in meta.items()
            if net is None or net.meta_field(key) is not None
        }
        problems = validate_destination(
            account.platform,
            chosen,
            content,
            own_meta,
            local_media,
            account_max_length=account.max_content_length,
            scheduling=status == "scheduled",
            kept_media=len(media) - len(local_media),
        )
        for problem in problems:
            column, reason = _column_of(problem, account, index)
            fail(column, reason)
        destinations.append(
            Destination(social_account_id=account.id, content_type=chosen, meta=own_meta or None)
        )

    if not record["accounts"]:
        fail("accounts", "choose at least one account (ids or platform:username, separated by ;)")
    if errors or not destinations:
        return None
    request = BatchRequest(
        destinations=destinations,
        content=content or None,
        status=status,
        scheduled_at=when,
        labels=labels or None,
    )
    words = " ".join(content.split())
    return PlannedRow(
        record.row,
        request,
        tuple(item.path if item.path is not None else item.url or "" for item in media),
        summary=f"row {record.row}: {words[:60] or '(no text)'}",
        account_names=tuple(account.label for account in accounts),
    )


def _accounts(
    record: Record,
    accounts: Sequence[SocialAccountSummary],
    fail: _Fail,
    *,
    scheduling: bool = True,
) -> list[SocialAccountSummary]:
    found: list[SocialAccountSummary] = []
    for name in split_list(record["accounts"]):
        matches = _find_account(name, accounts)
        if not matches:
            fail("accounts", f"no account “{name}” in this workspace")
            continue
        if len(matches) > 1:
            fail("accounts", f"“{name}” matches {len(matches)} accounts; use the account id")
            continue
        account = matches[0]
        if any(existing.id == account.id for existing in found):
            fail("accounts", f"{account.label} is listed twice")
            continue
        # A draft may name an account that cannot publish now (as in the composer).
        problem = _unusable(account) if scheduling else None
        if problem:
            fail("accounts", problem)
            continue
        found.append(account)
    return found


def _find_account(
    name: str, accounts: Sequence[SocialAccountSummary]
) -> list[SocialAccountSummary]:
    by_id = [account for account in accounts if account.id == name]
    if by_id:
        return by_id
    platform, separator, username = name.partition(":")
    if not separator:
        return []
    wanted = username.strip().lstrip("@").lower()
    return [
        account
        for account in accounts
        if account.platform.lower() == platform.strip().lower()
        and (account.username or "").lstrip("@").lower() == wanted
    ]


def _unusable(account: SocialAccountSummary) -> str | None:
    if account.status == AccountStatus.DISCONNECTED:
        return f"{account.label} is disconnected; reconnect it first"
    if account.status == AccountStatus.TOKEN_EXPIRED:
        return f"{account.label} needs to be reconnected (its access expired)"
    if account.is_active is False:
        return f"{account.label} is inactive"
    return None


def _labels(record: Record, labels: Sequence[Label] | None, fail: _Fail) -> list[str]:
    names = split_list(record["labels"])
    if not names:
        return []
    if labels is None:
        fail("labels", "this workspace has no labels (the server does not offer them)")
        return []
    ids: list[str] = []
    for name in names:
        match = [label for label in labels if label.name.strip().lower() == name.lower()]
        if not match:
            fail("labels", f"no label named “{name}”")
        elif match[0].id not in ids:
            ids.append(match[0].id)
    return ids


def _media(record: Record, base_dir: Path, fail: _Fail) -> list[FileFacts]:
    found: list[FileFacts] = []
    for text in split_list(record["media"]):
        if "://" in text:
            if not text.lower().startswith(("http://", "https://")):
                fail("media", f"{text}: only http and https addresses can be downloaded")
                continue
            # Downloaded and uploaded again at import (an export names the server's files).
            name = text.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
            mime = mimetypes.guess_type(name)[0] or "application/octet-stream"
            found.append(FileFacts(None, text, mime, None))
            continue
        path = Path(text).expanduser()
        if not path.is_absolute():
            path = base_dir / path
        try:
            size = path.stat().st_size
        except OSError:
            fail("media", f"{text}: no such file")
            continue
        if not path.is_file():
            fail("media", f"{text} is not a file")
            continue
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        found.append(FileFacts(path, None, mime, size))
    return found


def _meta(record: Record, fail: _Fail) -> dict[str, Any]:
    cell = record["meta"]
    if not cell:
        return {}
    try:
        value = json.loads(cell)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        fail("meta", 'not a JSON object; write the settings like {"board_id": "123"}')
        return {}
    return value


def _column_of(problem: Problem, account: SocialAccountSummary, index: int) -> tuple[str, str]:
    where = f"{account.label}: "
    if problem.path.startswith("meta."):
        key = problem.path.split(".")[1]
        net = find_network(account.platform)
        spec = net.meta_field(key) if net is not None else None
        name = spec.label if spec is not None else key.replace("_", " ")
        text = problem.message(name.lower())
        return (
            "meta",
            f"{where}{text} Give it in the meta column (for example "
            f'{{"{key}": "…"}}), or import the row as a draft and complete it in the composer.',
        )
    text = problem.message()
    if problem.path.startswith("media"):
        return "media", where + text
    if problem.path == "content_type":
        return "content_type", where + text
    return "content", where + text


def _fingerprint(row: PlannedRow) -> str:
    body = {
        "request": json.loads(row.request.model_dump_json(exclude_none=True)),
        "media": [str(path) for path in row.media],
    }
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:32]
