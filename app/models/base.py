"""Shared pieces of the wire models: tolerant base class and the two timestamp formats.

REST timestamps are `Y-m-d H:i:s` with no zone; they are read in the profile's server time zone,
passed as validation context (`{"server_tz": ZoneInfo}`), UTC when absent. Webhook timestamps are
ISO 8601 with an offset and parse as such. The local cache stores them losslessly as ISO 8601
with the offset and, in brackets, the zone (RFC 9557: `2026-10-25T02:30:00+02:00[Europe/Berlin]`),
which the same fields read back in that zone.
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Annotated, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    PlainSerializer,
    SerializationInfo,
    ValidationInfo,
)

REST_FORMAT = "%Y-%m-%d %H:%M:%S"


class WireModel(BaseModel):
    """Base of every model read from the server: unknown fields are kept, never rejected."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)


def server_tz_from(context: Any) -> tzinfo:
    if isinstance(context, dict):
        tz = context.get("server_tz")
        if isinstance(tz, tzinfo):
            return tz
    return UTC


def parse_rest_datetime(value: str, tz: tzinfo = UTC) -> datetime:
    """`Y-m-d H:i:s` in the server zone -> aware datetime. An ISO string with an offset is kept;
    one with its zone in brackets (as the cache stores times) comes back in that zone."""
    if value.endswith("]"):
        return parse_zoned_datetime(value)
    if _is_rest_shape(value):
        # `fromisoformat` reads exactly this shape ~10x faster than `strptime` (which was half
        # of a page's validation); any other text takes the `strptime` path as before.
        try:
            return datetime.fromisoformat(value).replace(tzinfo=tz)
        except ValueError:
            pass
    try:
        return datetime.strptime(value, REST_FORMAT).replace(tzinfo=tz)
    except ValueError:
        parsed = datetime.fromisoformat(value)
        return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=tz)


def _is_rest_shape(value: str) -> bool:
    """`dddd-dd-dd dd:dd:dd`, the one form where `fromisoformat` and `strptime(REST_FORMAT)`
    agree (`fromisoformat` alone also takes week dates, `T`, offsets...)."""
    return (
        len(value) == 19
        and value[4] == value[7] == "-"
        and value[10] == " "
        and value[13] == value[16] == ":"
        and (
            value[:4] + value[5:7] + value[8:10] + value[11:13] + value[14:16] + value[17:]
        ).isdigit()
        and value.isascii()
    )


@functools.lru_cache(maxsize=8192)  # label and account timestamps repeat across many posts
def parse_zoned_datetime(text: str) -> datetime:
    """`2026-10-25T02:30:00+02:00[Europe/Berlin]` -> that instant in that zone; with an offset in
    the brackets (`[+02:00]`), in that fixed offset. ValueError when it is not of that form.

    The zone name matters: Python never finds a time in a DST fold equal to the same instant
    in a fixed-offset zone. A zone this machine does not know keeps the instant, offset only.
    """
    stamp, bracket, zone = text[:-1].rpartition("[")
    moment = datetime.fromisoformat(stamp)
    if not bracket or moment.tzinfo is None:
        raise ValueError(f"not a timestamp with an offset and a zone: {text!r}")
    if zone[:1] in "+-":
        return moment
    try:
        return moment.astimezone(ZoneInfo(zone))
    except (ZoneInfoNotFoundError, ValueError):
        return moment


def zoned_text(value: datetime) -> str:
    """The inverse of `parse_zoned_datetime`: ISO 8601 with the offset and, in brackets, the zone
    name (or the offset again for a fixed-offset zone). A naive datetime stays plain ISO."""
    if value.tzinfo is None:
        return value.isoformat()
    tz = value.tzinfo
    zone = tz.key if isinstance(tz, ZoneInfo) and tz.key else _offset_text(value.utcoffset())
    return f"{value.isoformat()}[{zone}]"


@functools.lru_cache(maxsize=256)  # a few offsets recur on every post (UTC above all)
def _offset_text(offset: timedelta | None) -> str:
    seconds = int((offset or timedelta()).total_seconds())
    sign = "-" if seconds < 0 else "+"
    hours, rest = divmod(abs(seconds), 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{sign}{hours:02d}:{minutes:02d}" + (f":{seconds:02d}" if seconds else "")


STORED_FORM: dict[str, Any] = {"stored_form": True}
"""Serialization context for the local cache: REST timestamps come out as `zoned_text`."""


def format_rest_datetime(value: datetime, tz: tzinfo = UTC) -> str:
    """Aware datetime -> `Y-m-d H:i:s` wall time in the server zone (naive is taken as UTC)."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(tz).strftime(REST_FORMAT)


def _validate_rest(value: Any, info: ValidationInfo) -> Any:
    if isinstance(value, str):
        return parse_rest_datetime(value, server_tz_from(info.context))
    if isinstance(value, datetime) and value.tzinfo is None:
        return value.replace(tzinfo=server_tz_from(info.context))
    return value


def _serialize_rest(value: datetime, info: SerializationInfo) -> str:
    context = info.context
    if context is STORED_FORM:
        return zoned_text(value)
    return format_rest_datetime(value, server_tz_from(context))


def _none_as_empty_list(value: Any) -> Any:
    return [] if value is None else value


def _none_as_empty_dict(value: Any) -> Any:
    return {} if value is None else value


def _id_as_str(value: Any) -> Any:
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


RestDateTime = Annotated[
    datetime,
    BeforeValidator(_validate_rest),
    PlainSerializer(_serialize_rest, return_type=str, when_used="json"),
]
"""A REST `Y-m-d H:i:s` timestamp, aware, in the server time zone."""

IsoDateTime = datetime
"""A webhook-side ISO 8601 timestamp with offset (pydantic parses these natively)."""

Id = Annotated[str, BeforeValidator(_id_as_str)]
"""Identifiers are opaque strings; an integer id from a tolerant route is turned into one."""

ListOrNull = BeforeValidator(_none_as_empty_list)
DictOrNull = BeforeValidator(_none_as_empty_dict)
