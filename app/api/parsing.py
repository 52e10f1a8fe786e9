"""Validation of decoded answers against the wire models, with typed failures.

Adapters are built once per module (building one is the expensive part). REST timestamps are read
in the profile's server time zone, passed as validation context.

`validate` is a pure function of its arguments (the adapters are safe to share between threads),
so a caller may run it on a worker thread through an `Offload` (the sync does, page by page, to
keep the event loop free).

Lists are read item by item when they must be: one item that breaks the spec (a `null` where a
value is promised) is left out and reported as an `UnreadableItem` (logged, and reachable as
`.unreadable` on the returned `ItemList` or `Page`); the good items are kept. Anything wrong
outside the items (the envelope, a non-list) is still a `ProtocolError`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import tzinfo
from typing import Any, Protocol, TypeVar, cast

from pydantic import TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from app.api.errors import ProtocolError
from app.models.pagination import Page
from app.models.unreadable import ItemList, UnreadableItem

T = TypeVar("T")

log = logging.getLogger("app.api")

_MAX_REPORTED = 3


class Offload(Protocol):
    """Runs a parsing job elsewhere (a worker thread) and awaits its result."""

    def __call__(self, job: Callable[[], T], /) -> Awaitable[T]: ...


def validate(adapter: TypeAdapter[T], data: Any, *, server_tz: tzinfo, what: str) -> T:
    context = {"server_tz": server_tz}
    try:
        return _as_item_list(adapter.validate_python(data, context=context))
    except ValidationError as exc:
        salvaged = _without_bad_items(adapter, data, exc, context, what)
        if salvaged is not None:
            return salvaged
        raise ProtocolError(
            f"The server's answer to {what} does not have the expected shape "
            f"({describe_validation_error(exc)})."
        ) from None


def _as_item_list(result: T, unreadable: list[UnreadableItem] | None = None) -> T:
    if isinstance(result, list) and not isinstance(result, ItemList):
        return cast(T, ItemList(result, unreadable))
    if isinstance(result, Page) and unreadable:
        result._unreadable = unreadable
    return result


def _without_bad_items(
    adapter: TypeAdapter[T],
    data: Any,
    exc: ValidationError,
    context: dict[str, Any],
    what: str,
) -> T | None:
    """The answer with the failing items left out, or None when something else failed."""
    prefix: tuple[str, ...]
    if isinstance(data, list):
        items, prefix = data, ()
    elif isinstance(data, dict) and isinstance(data.get("data"), list):
        items, prefix = data["data"], ("data",)
    else:
        return None
    depth = len(prefix)
    bad: dict[int, list[ErrorDetails]] = {}
    for error in exc.errors(include_url=False, include_input=False):
        location = error["loc"]
        if tuple(location[:depth]) != prefix or len(location) <= depth:
            return None
        index = location[depth]
        if not isinstance(index, int):
            return None
        bad.setdefault(index, []).append({**error, "loc": location[depth + 1 :]})
    kept = [item for index, item in enumerate(items) if index not in bad]
    try:
        result = adapter.validate_python(
            {**data, "data": kept} if prefix else kept, context=context
        )
    except ValidationError:
        return None
    if not isinstance(result, list | Page):
        return None  # only lists and pages are read item by item
    unreadable = [
        UnreadableItem(id=_raw_id(items[index]), index=index, reason=_describe(errors), source=what)
        for index, errors in sorted(bad.items())
    ]
    for item in unreadable:
        log.warning("Left out an unreadable %s", item.describe())
    return _as_item_list(result, unreadable)


def _raw_id(item: Any) -> str | None:
    raw = item.get("id") if isinstance(item, dict) else None
    return str(raw) if isinstance(raw, str | int) and not isinstance(raw, bool) else None


def _describe(errors: list[ErrorDetails]) -> str:
    parts = []
    for item in errors[:_MAX_REPORTED]:
        location = ".".join(str(part) for part in item["loc"]) or "item"
        parts.append(f"{location}: {item['msg']}")
    if len(errors) > _MAX_REPORTED:
        parts.append(f"{len(errors) - _MAX_REPORTED} more")
    return "; ".join(parts)


def describe_validation_error(exc: ValidationError) -> str:
    """Field paths and reasons only: input values could be large or sensitive."""
    return _describe(exc.errors(include_url=False, include_input=False))


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
