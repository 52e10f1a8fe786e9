"""Checks while typing, keyed by the same field paths the server's 422 uses.

`check_document()` finds problems locally (no network); `map_validation_error()` turns a server
422 into the same `path -> messages` mapping, so the composer shows both at the same field:
`content`, `scheduled_at`, `destinations.2.content`, `destinations.2.meta.board_id`, ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from app.api.errors import ValidationFailed
from app.compose.document import ComposerDocument, ScheduleMode
from app.domain.enums import AccountStatus
from app.models.accounts import SocialAccountSummary
from app.networks import find_network, has_text, text_length, validate_destination

GENERAL = ""
"""Path of problems that belong to no field (shown above the form)."""

NO_DESTINATIONS = "Choose at least one account to post to."
NEEDS_TEXT_OR_MEDIA = "Write some text or attach media before scheduling or publishing."
TIME_MISSING = "Choose a date and time to schedule."
TIME_PAST = "This time is in the past; choose a later one."
DRAFT_TIME_PAST = "The date of this draft is in the past."
ACCOUNT_UNKNOWN = "This account is no longer in the workspace; remove it from the post."
ACCOUNT_DISCONNECTED = (
    "This account is disconnected and would be skipped at publish time; reconnect it in the "
    "web dashboard or remove it."
)
ACCOUNT_EXPIRED = (
    "This account's login has expired and would be skipped at publish time; reconnect it in "
    "the web dashboard or remove it."
)
ACCOUNT_INACTIVE = "This account is switched off for publishing; switch it on or remove it."
DUPLICATE_ACCOUNT = "This account is chosen twice."


@dataclass(frozen=True)
class Issue:
    """A problem at one field. `blocking`: the chosen action (save draft / schedule / publish)
    would be refused, so the send button stays off; otherwise it is a warning."""

    path: str
    message: str
    blocking: bool = True


@dataclass(frozen=True)
class CharCount:
    used: int
    limit: int

    @property
    def over_by(self) -> int:
        return max(0, self.used - self.limit)

    @property
    def remaining(self) -> int:
        return self.limit - self.used


def char_count(
    doc: ComposerDocument, index: int, account: SocialAccountSummary | None = None
) -> CharCount | None:
    """The counter of one destination: its effective text against its limit (the account's
    `max_content_length` when known, else the network's default). None for an unknown network."""
    dest = doc.destinations[index]
    net = find_network(dest.platform)
    if net is None:
        return None
    account_max = account.max_content_length if account is not None else None
    return CharCount(
        text_length(doc.content_for(index), dest.platform), net.max_length(account_max)
    )


def account_problem(account: SocialAccountSummary | None) -> str | None:
    """Why an account cannot be posted to, or None. Unknown status values are not refused."""
    if account is None:
        return ACCOUNT_UNKNOWN
    if account.status == AccountStatus.DISCONNECTED:
        return ACCOUNT_DISCONNECTED
    if account.status == AccountStatus.TOKEN_EXPIRED:
        return ACCOUNT_EXPIRED
    if account.is_active is False:
        return ACCOUNT_INACTIVE
    return None


def check_document(
    doc: ComposerDocument,
    accounts: Mapping[str, SocialAccountSummary] | None = None,
    *,
    now: datetime | None = None,
    board_ids: Mapping[str, Sequence[str]] | None = None,
    channel_ids: Mapping[str, Sequence[str]] | None = None,
) -> list[Issue]:
    """All local problems of the document for its chosen schedule mode.

    `accounts` by id (None = not loaded yet: no account checks); `board_ids`/`channel_ids` by
    account id, where a lookup answered (otherwise any non-empty id is accepted).
    """
    now = now or datetime.now(UTC)
    sending = doc.schedule.sends_out
    issues: list[Issue] = []
    if not doc.destinations:
        issues.append(Issue("destinations", NO_DESTINATIONS, blocking=True))

    mode = doc.schedule.mode
    at = doc.schedule.at
    if mode is ScheduleMode.AT:
        if at is None:
            issues.append(Issue("scheduled_at", TIME_MISSING))
        elif at <= now:
            issues.append(Issue("scheduled_at", TIME_PAST))
    elif mode is ScheduleMode.DRAFT and at is not None and at <= now:
        issues.append(Issue("scheduled_at", DRAFT_TIME_PAST, blocking=False))

    seen: set[str] = set()
    for i, dest in enumerate(doc.destinations):
        prefix = f"destinations.{i}."
        if dest.account_id in seen:
            issues.append(Issue(f"{prefix}social_account_id", DUPLICATE_ACCOUNT))
        seen.add(dest.account_id)
        account = accounts.get(dest.account_id) if accounts is not None else None
        if accounts is not None:
            problem = account_problem(account)
            if problem is not None:
                issues.append(Issue(f"{prefix}social_account_id", problem, blocking=sending))
        content = doc.content_for(i)
        media = doc.media_for(i)
        # Media already on the server post were accepted there: local rules judge only what
        # the user adds (issue 15 §3). Paths `media.N` still index the whole list.
        added = [item for item in media if item.server_media_id is None]
        added_at = [n for n, item in enumerate(media) if item.server_media_id is None]
        for found in validate_destination(
            dest.platform,
            dest.content_type,
            content,
            dest.meta,
            added,
            kept_media=len(media) - len(added),
            account_max_length=account.max_content_length if account is not None else None,
            scheduling=sending,
            board_ids=(board_ids or {}).get(dest.account_id),
            channel_ids=(channel_ids or {}).get(dest.account_id),
        ):
            path = f"{prefix}{_whole_list_path(found.path, added_at)}"
            if found.path == "content" and not has_text(content) and not media:
                # The shared editor is where text goes unless this destination overrides it.
                issues.append(Issue(path, NEEDS_TEXT_OR_MEDIA))
                continue
            # Length and media limits are the network's; a draft may still be saved.
            blocking = sending or found.path.startswith("meta.") or found.path == "content_type"
            issues.append(
                Issue(path, found.message(_attribute(dest.platform, found.path)), blocking=blocking)
            )
    return _dedupe(issues)


def _whole_list_path(path: str, added_at: Sequence[int]) -> str:
    """`media.N` of the added files as the index in the destination's whole media list."""
    head, _, rest = path.partition(".")
    if head == "media" and rest.isdigit() and int(rest) < len(added_at):
        return f"media.{added_at[int(rest)]}"
    return path


def _attribute(platform: str, path: str) -> str:
    """The name a message uses for a field: the setting's label for meta keys, else the last
    named segment (`content`, `content_type`)."""
    parts = [p for p in path.split(".") if not p.isdigit()]
    net = find_network(platform)
    if parts and parts[0] == "meta" and len(parts) > 1 and net is not None:
        spec = net.meta_field(parts[1])
        if spec is not None:
            return spec.label.lower() if len(parts) == 2 else f"{spec.label.lower()} {parts[-1]}"
    return parts[-1] if parts else path


def _dedupe(issues: list[Issue]) -> list[Issue]:
    seen: set[tuple[str, str]] = set()
    result = []
    for issue in issues:
        key = (issue.path, issue.message)
        if key not in seen:
            seen.add(key)
            result.append(issue)
    return result


def issues_by_path(issues: Sequence[Issue]) -> dict[str, list[str]]:
    result: dict[str, list[str]] = {}
    for issue in issues:
        result.setdefault(issue.path, []).append(issue.message)
    return result


def blocking(issues: Sequence[Issue]) -> list[Issue]:
    return [i for i in issues if i.blocking]


def blocker_summary(stops: Sequence[Issue], name_of: Callable[[str], str | None]) -> str:
    """The line under the send button: every blocker, with a count when there are several.
    `name_of(path)` names the destination a path belongs to (None: no destination). A time
    problem is left out: it is shown at the time field just above (it read twice)."""
    lines: list[str] = []
    for stop in stops:
        if stop.path == "scheduled_at":
            continue
        who = name_of(stop.path)
        line = f"{who}: {stop.message}" if who else stop.message
        if line not in lines:
            lines.append(line)
    if len(lines) <= 1:
        return lines[0] if lines else ""
    return f"{len(lines)} things stop sending: " + " · ".join(lines)


def for_field(mapping: Mapping[str, Sequence[str]], path: str) -> list[str]:
    """Messages of `path` and its sub-fields (`destinations.0` gets `destinations.0.meta.x`)."""
    prefix = f"{path}."
    return [
        message
        for key, messages in mapping.items()
        if key == path or key.startswith(prefix)
        for message in messages
    ]


def map_validation_error(
    error: ValidationFailed, *, platform_indexes: Mapping[int, int] | None = None
) -> dict[str, list[str]]:
    """A server 422 as `path -> messages`, with the composer's paths.

    Batch errors already use `destinations.N.…`. Update errors (`PUT /posts/{id}`) name
    `platforms.N.…`: `platform_indexes` maps a platform entry index to its destination index
    (from `batch.build_update`). A 422 without field errors lands on `GENERAL`.
    """
    return map_field_errors(error.errors, error.message, platform_indexes=platform_indexes)


def map_field_errors(
    errors: Mapping[str, list[str]],
    message: str,
    *,
    platform_indexes: Mapping[int, int] | None = None,
) -> dict[str, list[str]]:
    """`map_validation_error` for errors kept apart from their exception (an outbox entry
    stores a refused batch's field errors; `message` lands on `GENERAL` when there are none)."""
    result: dict[str, list[str]] = {}
    for key, messages in errors.items():
        path = key
        if platform_indexes is not None and key.startswith("platforms."):
            head, _, rest = key[len("platforms.") :].partition(".")
            if head.isdigit() and int(head) in platform_indexes:
                path = f"destinations.{platform_indexes[int(head)]}" + (f".{rest}" if rest else "")
        result.setdefault(path, []).extend(messages)
    if not result:
        result[GENERAL] = [message]
    return result


def value_at(doc: ComposerDocument, path: str) -> object:
    """What the document holds at a field path of a 422 (`content`, `scheduled_at`,
    `destinations.2.meta.board_id`, `destinations.0.media.1`): a server's mark stays on a field
    until that field changes, not until anything changes (issue 15 §4: switching the mode
    cleared a 422 about a Pinterest board)."""
    parts = path.split(".")
    if parts[0] == "destinations" and len(parts) > 2 and parts[1].isdigit():
        index = int(parts[1])
        if index >= len(doc.destinations):
            return None
        if parts[2] == "content":
            return doc.content_for(index)
        if parts[2] == "media":
            return [item.model_dump(mode="json") for item in doc.media_for(index)]
    if parts[0] == "scheduled_at":
        return doc.schedule.model_dump(mode="json")
    node: object = doc.model_dump(mode="json")
    for part in parts:
        if isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node
