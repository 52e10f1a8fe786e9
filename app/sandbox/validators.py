"""Field checks shared by the post routes (batch create and update)."""

from __future__ import annotations

from typing import Any

from app.sandbox.clock import parse_rest, to_db
from app.sandbox.db import Db, Row, loads, placeholders
from app.sandbox.errors import (
    AFTER_NOW,
    ARRAY,
    DATE_FORMAT,
    INVALID_CHOICE,
    REQUIRED,
    STRING,
    FieldErrors,
)
from app.sandbox.http_support import is_blank
from app.sandbox.posts_repo import NewMedia
from app.sandbox.uploads_repo import find_upload, media_from_upload

OBJECT = "The {attr} field must be an array."
NEEDS_TEXT_OR_MEDIA = "The {attr} field is required when no media is attached."
REQUIRED_TO_SCHEDULE = "The {attr} field is required when status is scheduled."


def optional_string(errors: FieldErrors, body: dict[str, Any], key: str, prefix: str = "") -> None:
    value = body.get(key)
    if value is not None and not isinstance(value, str):
        errors.add(prefix + key, STRING)


def optional_object(errors: FieldErrors, body: dict[str, Any], key: str, prefix: str = "") -> None:
    value = body.get(key)
    if value is not None and not isinstance(value, dict):
        errors.add(prefix + key, OBJECT)


def schedule_time(db: Db, errors: FieldErrors, value: Any, key: str, *, future: bool) -> str | None:
    """Validate a request `scheduled_at` (`Y-m-d H:i:s`, UTC); returns the stored form."""
    if value is None:
        return None
    parsed = parse_rest(value) if isinstance(value, str) else None
    if parsed is None:
        errors.add(key, DATE_FORMAT)
        return None
    if future and parsed <= db.clock():
        errors.add(key, AFTER_NOW)
        return None
    return to_db(parsed)


def media_refs(
    db: Db, errors: FieldErrors, workspace_id: str, value: Any, key: str
) -> list[NewMedia] | None:
    """Resolve `[{upload_token, alt}]` into media copies; None when absent or invalid."""
    if value is None:
        return None
    if not isinstance(value, list):
        errors.add(key, ARRAY)
        return None
    result: list[NewMedia] = []
    for i, item in enumerate(value):
        item_key = f"{key}.{i}"
        if not isinstance(item, dict):
            errors.add(item_key, OBJECT)
            continue
        token = item.get("upload_token")
        alt = item.get("alt")
        if alt is not None and not isinstance(alt, str):
            errors.add(f"{item_key}.alt", STRING)
        if is_blank(token):
            errors.add(f"{item_key}.upload_token", REQUIRED)
            continue
        upload = find_upload(db, workspace_id, token) if isinstance(token, str) else None
        if upload is None:
            errors.add(f"{item_key}.upload_token", INVALID_CHOICE)
            continue
        result.append(media_from_upload(upload, alt if isinstance(alt, str) else None))
    return result


def label_ids(
    db: Db, errors: FieldErrors, workspace_id: str, value: Any, key: str = "labels"
) -> list[str] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        errors.add(key, ARRAY)
        return None
    strings = [v for v in value if isinstance(v, str)]
    marks = placeholders(len(strings))
    rows = db.all(
        f"SELECT id FROM labels WHERE workspace_id = ? AND id IN ({marks})",
        (workspace_id, *strings),
    )
    known = {r["id"] for r in rows}
    for i, label_id in enumerate(value):
        if label_id not in known:
            errors.add(f"{key}.{i}", INVALID_CHOICE)
    return list(dict.fromkeys(v for v in strings if v in known))


def has_text(content: Any) -> bool:
    return isinstance(content, str) and content.strip() != ""


def account_choices(account: Row, column: str) -> list[str]:
    return [entry["id"] for entry in loads(account[column]) or []]
