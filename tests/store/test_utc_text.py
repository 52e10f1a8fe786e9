"""The one stored text form of an instant (app/store/utc_text.py), and the cache's step that moved
its rows to it."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from app.store import WorkspaceCache
from app.store.utc_text import parse_utc_text, utc_text
from tests.store.factories import make_post


def test_the_form_is_iso_8601_in_utc_with_a_fixed_width() -> None:
    berlin_summer = timezone(timedelta(hours=2))
    assert utc_text(datetime(2026, 10, 25, 2, 30, tzinfo=berlin_summer)) == (
        "2026-10-25T00:30:00.000000Z"
    )
    assert utc_text(datetime(999, 1, 2, 3, 4, 5, 6, tzinfo=UTC)) == "0999-01-02T03:04:05.000006Z"


def test_a_naive_time_is_refused() -> None:
    with pytest.raises(ValueError, match="aware"):
        utc_text(datetime(2026, 1, 1))


def test_text_order_is_time_order() -> None:
    start = datetime(2026, 3, 29, 0, 59, 59, 999999, tzinfo=UTC)
    moments = [start + timedelta(microseconds=n * 250_001) for n in range(-5, 6)]
    assert sorted(moments, key=utc_text) == moments


@pytest.mark.parametrize("text", ["2026-10-25T00:30:00.000001Z", "2026-10-25 00:30:00.000001"])
def test_both_stored_forms_read_back_as_the_same_instant(text: str) -> None:
    assert parse_utc_text(text) == datetime(2026, 10, 25, 0, 30, 0, 1, tzinfo=UTC)
    assert parse_utc_text(text).utcoffset() == timedelta(0)


def test_a_cache_written_in_the_old_form_is_moved_to_the_new_one(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    with WorkspaceCache(path) as cache:
        cache.replace_all_posts(
            [
                make_post("p1", scheduled_at="2030-01-05 10:00:00"),
                make_post("p2", scheduled_at="2030-01-04 09:00:00"),
            ]
        )
    with sqlite3.connect(path, isolation_level=None) as db:  # back to version 3, as shipped
        for column in ("scheduled_utc", "calendar_utc", "created_utc"):
            db.execute(f"UPDATE posts SET {column} = replace(rtrim({column}, 'Z'), 'T', ' ')")
        db.execute("UPDATE sync_meta SET value = replace(rtrim(value, 'Z'), 'T', ' ')")
        db.execute("PRAGMA user_version = 3")
        old = db.execute("SELECT scheduled_utc FROM posts WHERE id = 'p1'").fetchone()[0]
        assert old == "2030-01-05 10:00:00.000000"
    with WorkspaceCache(path) as reopened:
        cards = reopened.cards_between(
            datetime(2030, 1, 1, tzinfo=UTC), datetime(2030, 2, 1, tzinfo=UTC)
        )
        assert [card.id for card in cards] == ["p2", "p1"]
        synced = reopened.last_sync_at()
        assert synced is not None
        assert abs(datetime.now(UTC) - synced) < timedelta(minutes=5)
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT scheduled_utc, calendar_utc FROM posts ORDER BY id").fetchall()
        assert rows == [
            ("2030-01-05T10:00:00.000000Z", "2030-01-05T10:00:00.000000Z"),
            ("2030-01-04T09:00:00.000000Z", "2030-01-04T09:00:00.000000Z"),
        ]
        values = [row[0] for row in db.execute("SELECT value FROM sync_meta")]
        assert values
        assert all(value.endswith("Z") and "T" in value for value in values)
