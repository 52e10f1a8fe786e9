"""The CSV format: header checks, row numbers, times in local time and with offsets."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from app.csv_io.format import CsvFormatError, format_when, parse_when, read_records

BERLIN = ZoneInfo("Europe/Berlin")


def test_local_times_follow_the_zone_rules() -> None:
    winter = parse_when("2026-01-15 09:30", BERLIN)
    summer = parse_when("2026-07-15 09:30", BERLIN)
    assert winter.utcoffset() == timedelta(hours=1)
    assert summer.utcoffset() == timedelta(hours=2)
    assert format_when(summer, BERLIN) == "2026-07-15T09:30:00+02:00"


def test_times_the_clock_skips_or_repeats_are_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="does not exist in local time"):
        parse_when("2026-03-29 02:30", BERLIN)
    with pytest.raises(ValueError, match="happens twice"):
        parse_when("2026-10-25 02:30", BERLIN)
    # With an offset the repeated hour is unambiguous.
    second = parse_when("2026-10-25T02:30:00+01:00", BERLIN)
    assert second.astimezone(UTC) == datetime(2026, 10, 25, 1, 30, tzinfo=UTC)


def test_iso_times_need_an_offset() -> None:
    assert parse_when("2026-05-01T08:00:00Z", BERLIN) == datetime(2026, 5, 1, 8, tzinfo=UTC)
    assert parse_when("2026-05-01T08:00:00-05:00", BERLIN).utcoffset() == timedelta(hours=-5)
    with pytest.raises(ValueError, match="has no offset"):
        parse_when("2026-05-01T08:00:00", BERLIN)
    assert parse_when("2026-05-01 08:00", UTC).tzinfo is UTC


def test_header_problems_and_ragged_rows_are_reported_by_row_and_column() -> None:
    text = "\ufeffContent, accounts ,schedule_at,status\r\nHi,x:a,,\r\n\r\nA,b,c,d,e\r\n"
    records, errors = read_records(text)
    assert next(str(error) for error in errors).startswith("row 1, column schedule_at: unknown")
    assert any(str(error).startswith("row 4, column number 5:") for error in errors)
    assert [(record.row, record["content"], record["accounts"]) for record in records] == [
        (2, "Hi", "x:a")
    ]
    _, missing = read_records("content\nHello\n")
    assert [str(error) for error in missing] == ["row 1, column accounts: missing column"]


def test_semicolon_files_from_european_spreadsheets_are_read() -> None:
    records, errors = read_records('content;accounts\n"Hello, world";"x:a;x:b"\n')
    assert errors == []
    assert records[0]["content"] == "Hello, world"
    assert records[0]["accounts"] == "x:a;x:b"


def test_an_empty_file_is_refused() -> None:
    with pytest.raises(CsvFormatError, match="empty"):
        read_records("  \n")
