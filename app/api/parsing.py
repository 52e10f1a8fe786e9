"""Validation of decoded answers against the wire models, with typed failures.

Adapters are built once per module (building one is the expensive part). REST timestamps are read
in the profile's server time zone, passed as validation context.

`validate` is a pure function of its arguments (the adapters are safe to share between threads),
so a caller may run it on a worker thread through an `Offload` (the sync does, page by page, to
keep the event loop free).

Lists are read item by item when they must be: one item that breaks the spec (a `null` where a
value is promised) is reported as an `UnreadableItem` (logged, and reachable as `.unreadable` on
the returned `ItemList` or `Page`); the good items are kept. Anything wrong outside the items
(the envelope, a non-list) is still a `ProtocolError`.

With `mend=True` (posts and labels) nothing is dropped for one bad field: an item with a usable
`id` is *mended* and kept. Each part that could not be read is left at its default (absent: a
null date, an empty list, the account of a post-platform entry unknown), a required text that
could not be read becomes "" (a post's `status`, shown "unknown"; a label's `name`, shown
"(unreadable)"), and a nested object without a usable id (a label, a network entry, a media
item) is left out of its list. The item's report says which parts (`fields`) and names it
(`text`, `when`). Only an item without a usable id is left out. A single object (a post read or
written) is not mended: an answer that is not what was asked for (an error shaped otherwise, a
different resource) must not replace a good saved copy with an empty one.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, tzinfo
from typing import Any, Protocol, TypeVar, cast

from pydantic import TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from app.api.errors import ProtocolError
from app.models.pagination import Page
from app.models.unreadable import ItemList, UnreadableItem

T = TypeVar("T")

log = logging.getLogger("app.api")

_MAX_REPORTED = 3
_MAX_MEND_ROUNDS = 32
_TEXT_KEPT = 2000  # of a mended item's text, to name it (its first line is what is shown)


class Offload(Protocol):
    """Runs a parsing job elsewhere (a worker thread) and awaits its result."""

    def __call__(self, job: Callable[[], T], /) -> Awaitable[T]: ...


def validate(
    adapter: TypeAdapter[T], data: Any, *, server_tz: tzinfo, what: str, mend: bool = False
) -> T:
    """`mend`: keep the items of a list or page that have a usable id, their unreadable parts
    left at their defaults (see the module's docstring)."""
    context = {"server_tz": server_tz}
    try:
        return _as_item_list(adapter.validate_python(data, context=context))
    except ValidationError as exc:
        salvaged = _without_bad_items(adapter, data, exc, context, what, mend)
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
    mend: bool = False,
) -> T | None:
    """The answer with the failing items mended (`mend`) or left out, or None when something
    else failed."""
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

    def wrap(chosen: list[Any]) -> Any:
        return {**data, "data": chosen} if prefix else chosen

    def check(item: Any) -> list[ErrorDetails]:
        try:
            adapter.validate_python(wrap([item]), context=context)
        except ValidationError as again:
            return _relative(again, (*prefix, 0))
        return []

    kept: list[Any] = []
    position: dict[int, int] = {}  # index in the answer -> index in the result
    mended: dict[int, tuple[str, ...]] = {}
    for index, item in enumerate(items):
        if index in bad:
            repaired = _mend(item, bad[index], check) if mend else None
            if repaired is None:
                continue
            item, mended[index] = repaired
        position[index] = len(kept)
        kept.append(item)
    try:
        result = adapter.validate_python(wrap(kept), context=context)
    except ValidationError:
        return None
    if not isinstance(result, list | Page):
        return None  # only lists and pages are read item by item
    models = result.data if isinstance(result, Page) else result
    unreadable = []
    for index, errors in sorted(bad.items()):
        text, when = _naming(models[position[index]]) if index in mended else (None, None)
        item = UnreadableItem(
            id=_raw_id(items[index]),
            index=index,
            reason=_describe(errors),
            source=what,
            fields=mended.get(index, ()),
            text=text,
            when=when,
        )
        unreadable.append(item)
        if item.kept:
            log.warning("Kept in part (unreadable parts left empty) %s", item.describe())
        else:
            log.warning("Left out an unreadable %s", item.describe())
    return _as_item_list(result, unreadable)


def _relative(exc: ValidationError, prefix: tuple[str | int, ...]) -> list[ErrorDetails]:
    """The errors under `prefix`, their locations relative to it (any other error: one at the
    root, which no item mends)."""
    found: list[ErrorDetails] = []
    for error in exc.errors(include_url=False, include_input=False):
        location = tuple(error["loc"])
        if location[: len(prefix)] != prefix:
            return [{**error, "loc": ()}]
        found.append({**error, "loc": location[len(prefix) :]})
    return found


class _Unmendable(Exception):
    """The item itself is what could not be read (its id, or not an object at all)."""


_GONE = object()  # an element of a nested list left out; swept once a round is done


def _mend(
    item: Any, errors: list[ErrorDetails], check: Callable[[Any], list[ErrorDetails]]
) -> tuple[Any, tuple[str, ...]] | None:
    """A copy of `item` with its unreadable parts left at their defaults, and the dotted paths
    of those parts; None when the item has no usable id or cannot be mended."""
    if _raw_id(item) is None:
        return None
    mended = copy.deepcopy(item)
    tries: dict[tuple[str | int, ...], int] = {}
    given_up: list[str] = []
    origins = _Origins()
    for _ in range(_MAX_MEND_ROUNDS):
        swept: list[list[Any]] = []
        touched = False
        try:
            for error in errors:
                part = _mend_part(mended, tuple(error["loc"]), error["type"], tries, swept, origins)
                if part is not None:
                    touched = True
                    if part not in given_up:
                        given_up.append(part)
        except _Unmendable:
            return None
        for nested in swept:
            origins.sweep(nested)
        if not touched:
            return None
        errors = check(mended)
        if not errors:
            return mended, tuple(given_up)
    return None


class _Origins:
    """Where the elements of the nested lists swept so far were in the item as sent: paths are
    reported (and attempts counted) by those positions, which do not move when an element
    before them leaves its list."""

    def __init__(self) -> None:
        self._lists: dict[int, tuple[list[Any], list[int]]] = {}  # the list kept: ids stay unique

    def sweep(self, nested: list[Any]) -> None:
        kept = [n for n, element in enumerate(nested) if element is not _GONE]
        self._lists[id(nested)] = (nested, [self.position(nested, n) for n in kept])
        nested[:] = [nested[n] for n in kept]

    def position(self, nested: list[Any], index: int) -> int:
        entry = self._lists.get(id(nested))
        return index if entry is None else entry[1][index]


def _mend_part(
    root: dict[str, Any],
    loc: tuple[str | int, ...],
    kind: str,
    tries: dict[tuple[str | int, ...], int],
    swept: list[list[Any]],
    origins: _Origins,
) -> str | None:
    """Give up the part at `loc`; its dotted path (positions as sent), or None when an earlier
    step of this round already took it away (it is looked at again next round)."""
    trail: list[tuple[Any, Any]] = []  # (container, key) from the root down
    node: Any = root
    rest: tuple[str | int, ...] = ()
    for n, part in enumerate(loc):
        if not _holds(node, part):
            rest = loc[n:]
            break
        trail.append((node, part))
        node = node[part]
    if rest:
        if kind == "missing" and isinstance(node, dict) and len(rest) == 1:
            trail.append((node, rest[0]))  # a required field that is absent
        elif isinstance(node, dict | list):
            return None  # taken away earlier in this round
        # else: a scalar, with the validator's tags after it: the scalar is the part
    if not trail:
        raise _Unmendable
    container, key = trail[-1]
    path = tuple(origins.position(c, k) if isinstance(c, list) else k for c, k in trail)
    attempt = tries.get(path, 0)
    tries[path] = attempt + 1
    if isinstance(container, list):
        container[key] = _GONE  # an element unreadable as a whole leaves its list
        swept.append(container)
    elif key == "id" or attempt >= 2:
        # An object without a usable id (or a field nothing fits): the object goes.
        if len(trail) == 1:
            raise _Unmendable
        owner, owner_key = trail[-2]
        path = path[:-1]
        if isinstance(owner, list):
            owner[owner_key] = _GONE
            swept.append(owner)
        else:
            del owner[owner_key]  # e.g. a network entry's account: left unknown
    elif attempt == 0 and key in container:
        del container[key]  # left at its default
    else:
        container[key] = ""  # a required text nothing could be read into
    return ".".join(str(k) for k in path)


def _holds(node: Any, part: str | int) -> bool:
    if isinstance(node, dict):
        return isinstance(part, str) and part in node
    if isinstance(node, list):
        return isinstance(part, int) and 0 <= part < len(node) and node[part] is not _GONE
    return False


def _naming(model: Any) -> tuple[str | None, datetime | None]:
    """What names a mended item in words: a post's content (a label's name when readable),
    and a post's day."""
    text = getattr(model, "content", None)
    if not isinstance(text, str) or not text.strip():
        name = getattr(model, "name", None)
        text = name if isinstance(name, str) and name.strip() else None
    when = getattr(model, "scheduled_at", None) or getattr(model, "published_at", None)
    return (text[:_TEXT_KEPT] if text else None), (when if isinstance(when, datetime) else None)


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
