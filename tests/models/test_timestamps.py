"""REST timestamps (`Y-m-d H:i:s`, no zone) are read and written in the profile's server zone;
webhook timestamps are ISO 8601 with an offset."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from pydantic import TypeAdapter

from app.models import (
    BatchRequest,
    Destination,
    Label,
    Post,
    PostUpdate,
    Webhook,
    format_rest_datetime,
    parse_rest_datetime,
)

BERLIN = ZoneInfo("Europe/Berlin")
POST = TypeAdapter(Post)


def test_rest_timestamps_default_to_utc() -> None:
    label = Label.model_validate(
        {"id": "l1", "name": "n", "color": "#000000", "created_at": "2025-03-01 10:00:00"}
    )
    assert label.created_at == datetime(2025, 3, 1, 10, 0, tzinfo=UTC)


def test_rest_timestamps_are_read_in_the_server_zone_given_as_context() -> None:
    post = POST.validate_python(
        {
            "id": "p1",
            "status": "scheduled",
            "scheduled_at": "2025-07-01 09:30:00",
            "created_at": "2025-01-15 08:00:00",
            "platforms": [{"id": "pp1", "platform": "x", "published_at": "2025-07-01 09:31:00"}],
        },
        context={"server_tz": BERLIN},
    )
    assert post.scheduled_at is not None
    assert post.created_at is not None
    assert post.scheduled_at.astimezone(UTC) == datetime(2025, 7, 1, 7, 30, tzinfo=UTC)  # CEST
    assert post.created_at.astimezone(UTC) == datetime(2025, 1, 15, 7, 0, tzinfo=UTC)  # CET
    assert post.platforms[0].published_at == datetime(2025, 7, 1, 9, 31, tzinfo=BERLIN)


def test_an_iso_value_with_offset_on_a_rest_field_keeps_its_offset() -> None:
    label = Label.model_validate(
        {"id": "l1", "name": "n", "created_at": "2025-03-01T10:00:00+02:00"},
        context={"server_tz": BERLIN},
    )
    assert label.created_at == datetime(2025, 3, 1, 8, 0, tzinfo=UTC)


def test_requests_write_scheduled_at_as_wall_time_in_the_server_zone() -> None:
    when = datetime(2025, 7, 1, 7, 30, tzinfo=UTC)
    update = PostUpdate(status="scheduled", scheduled_at=when)
    assert update.to_wire(BERLIN) == {"status": "scheduled", "scheduled_at": "2025-07-01 09:30:00"}
    assert update.to_wire() == {"status": "scheduled", "scheduled_at": "2025-07-01 07:30:00"}
    batch = BatchRequest(
        destinations=[Destination(social_account_id="a", content_type="x_post")],
        status="scheduled",
        scheduled_at=datetime(2025, 12, 24, 18, 0, tzinfo=timezone(timedelta(hours=-5))),
    )
    assert batch.to_wire(BERLIN)["scheduled_at"] == "2025-12-25 00:00:00"


def test_webhook_timestamps_are_iso_with_offset() -> None:
    hook = Webhook.model_validate(
        {
            "id": "w1",
            "endpoint": "https://example.com/hook",
            "events": ["post.created"],
            "status": "paused",
            "paused_at": "2025-03-01T10:00:00+01:00",
            "last_sent_at": None,
            "created_at": "2025-02-01T00:00:00Z",
        },
        context={"server_tz": BERLIN},
    )
    assert hook.paused_at == datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
    assert hook.created_at == datetime(2025, 2, 1, tzinfo=UTC)
    assert hook.last_sent_at is None


@given(
    moment=st.datetimes(
        min_value=datetime(2000, 1, 1), max_value=datetime(2099, 12, 31), timezones=st.just(UTC)
    ),
    zone=st.sampled_from(["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata"]),
)
@example(moment=datetime(2038, 10, 31, 0, 0, tzinfo=UTC), zone="Europe/Berlin")  # in a fold
def test_format_then_parse_is_the_same_instant(moment: datetime, zone: str) -> None:
    tz = ZoneInfo(zone)
    moment = moment.replace(microsecond=0)
    text = format_rest_datetime(moment, tz)
    parsed = parse_rest_datetime(text, tz)
    # A wall time inside a DST fold is ambiguous; outside of it the instant survives. Compared
    # in UTC: Python's inter-zone `==` is False for any time in a fold (PEP 495), even the
    # same instant (hypothesis found 2038-10-31 00:00 UTC in Berlin).
    if parsed.utcoffset() == moment.astimezone(tz).utcoffset():
        assert parsed.astimezone(UTC) == moment


def test_a_malformed_timestamp_is_a_validation_error() -> None:
    with pytest.raises(ValueError, match="created_at"):
        Label.model_validate({"id": "l1", "name": "n", "created_at": "yesterday"})


def test_a_time_stored_with_its_zone_reads_back_in_that_zone() -> None:
    # 02:30 on 25 Oct 2026 happens twice in Berlin; the second one is CET (+01:00).
    label = Label.model_validate(
        {"id": "l1", "name": "n", "created_at": "2026-10-25T02:30:00.250000+01:00[Europe/Berlin]"}
    )
    moment = datetime(2026, 10, 25, 2, 30, 0, 250000, tzinfo=BERLIN, fold=1)
    assert label.created_at == moment
    assert label.created_at is not None
    assert label.created_at.tzinfo == BERLIN
    assert label.created_at.utcoffset() == timedelta(hours=1)


def test_a_stored_fixed_offset_or_an_unknown_zone_keeps_the_instant() -> None:
    fixed = parse_rest_datetime("2026-03-01T10:00:00+05:30[+05:30]")
    assert fixed.utcoffset() == timedelta(hours=5, minutes=30)
    assert fixed == datetime(2026, 3, 1, 4, 30, tzinfo=UTC)
    unknown = parse_rest_datetime("2026-03-01T10:00:00+02:00[Mars/Olympus_Mons]")
    assert unknown == datetime(2026, 3, 1, 8, 0, tzinfo=UTC)


def test_brackets_without_a_timestamp_with_offset_are_refused() -> None:
    with pytest.raises(ValueError, match="created_at"):
        Label.model_validate({"id": "l1", "name": "n", "created_at": "2026-03-01T10:00:00[UTC]"})
    with pytest.raises(ValueError, match="created_at"):
        Label.model_validate({"id": "l1", "name": "n", "created_at": "soon [UTC]"})
