"""Validation of decoded answers against the wire models, with typed failures.

Adapters are built once per module (building one is the expensive part). REST timestamps are read
in the profile's server time zone, passed as validation context.
"""

from __future__ import annotations

from datetime import tzinfo
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from app.api.errors import ProtocolError

T = TypeVar("T")

_MAX_REPORTED = 3


def validate(adapter: TypeAdapter[T], data: Any, *, server_tz: tzinfo, what: str) -> T:
    try:
        return adapter.validate_python(data, context={"server_tz": server_tz})
    except ValidationError as exc:
        raise ProtocolError(
            f"The server's answer to {what} does not have the expected shape "
            f"({describe_validation_error(exc)})."
        ) from None


def describe_validation_error(exc: ValidationError) -> str:
    """Field paths and reasons only: input values could be large or sensitive."""
    parts = []
    for item in exc.errors(include_url=False, include_input=False)[:_MAX_REPORTED]:
        location = ".".join(str(part) for part in item["loc"]) or "body"
        parts.append(f"{location}: {item['msg']}")
    more = exc.error_count() - _MAX_REPORTED
    if more > 0:
        parts.append(f"{more} more")
    return "; ".join(parts)


def unwrap_list(data: Any) -> Any:
    """A plain array, or the same array inside `{data: [...]}` (tolerated on loosely shaped
    routes)."""
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        return data["data"]
    return data


def unwrap_object(data: Any) -> Any:
    """An object, or the same object inside `{data: {...}}`."""
    if isinstance(data, dict) and len(data) == 1 and isinstance(data.get("data"), dict):
        return data["data"]
    return data
