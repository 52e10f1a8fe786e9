"""WorkspaceCache against a real SQLite file in the test's temp folder."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.calendar.post_card import PostCard
from app.models import Post
from app.store import CacheError, WorkspaceCache
from app.store.schema import SCHEMA_VERSION, migrate, schema_version
from tests.store.factories import make_account, make_label, make_post, raw_post

BERLIN = ZoneInfo("Europe/Berlin")


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[WorkspaceCache]:
    with WorkspaceCache(tmp_path / "workspace.sqlite3") as opened:
        yield opened


def ids(cards: list[PostCard]) -> list[str]:
    return [card.id for card in cards]


# -- round trip ------------------------------------------------------------------------------


def test_a_post_reads_back_equal_with_unknown_fields_and_status(cache: WorkspaceCache) -> None:
    raw = raw_post(
        "p1",
        status="awaiting_legal_review",
        content=None,
        future_field={"nested": [1, 2, {"deep": None}]},
        post_group_id="g1",
        author={"id": "u1", "name": "Ann", "role": "editor"},
    )
    raw["platforms"][0]["brand_new_flag"] = True
    raw["platforms"][0]["meta"] = {"thread_replies": [{"text": "2/2", "media": []}]}
    raw["media"] = [
        {
            "id": "m1",
            "path": "medias/m1.png",
            "url": "https://cdn.example/m1.png",
            "type": "hologram",
            "mime_type": "image/png",
            "original_filename": "ü.png",
            "meta": {"alt_text": "A cat"},
            "focal_point": [0.5, 0.5],
        }
    ]
    post = Post.model_validate(raw, context={"server_tz": BERLIN})

    cache.upsert_post(post)
    stored = cache.post("p1")

    assert stored == post
    assert stored is not None
    assert stored.model_dump(mode="json") == post.model_dump(mode="json")
    assert stored.model_fields_set == post.model_fields_set
    assert stored.status == "awaiting_legal_review"
    assert stored.known_status is None
    assert stored.model_extra == {"future_field": {"nested": [1, 2, {"deep": None}]}}
    assert stored.platforms[0].model_extra == {"brand_new_flag": True}
    assert stored.media[0].model_extra == {"focal_point": [0.5, 0.5]}


def test_absent_and_null_fields_stay_distinct(cache: WorkspaceCache) -> None:
    raw = raw_post("p1")
    del raw["schedule_mode"]
    post = Post.model_validate(raw)

    cache.upsert_post(post)
    stored = cache.post("p1")

    assert stored is not None
    assert "schedule_mode" not in stored.model_fields_set
    assert "published_at" in stored.model_fields_set


def test_sub_second_times_in_any_zone_survive(cache: WorkspaceCache) -> None:
    moment = datetime(2026, 10, 25, 2, 30, 15, 123456, tzinfo=BERLIN)
    post = make_post("p1").model_copy(update={"scheduled_at": moment})

    cache.upsert_post(post)
    stored = cache.post("p1")

    assert stored is not None
    assert stored.scheduled_at == moment
    assert stored.scheduled_at.utcoffset() == moment.utcoffset()


@settings(
    max_examples=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    content=st.none() | st.text(max_size=200),
    status=st.text(min_size=1, max_size=30),
    scheduled=st.none()
    | st.datetimes(
        min_value=datetime(1990, 1, 1), max_value=datetime(2090, 1, 1), timezones=st.just(UTC)
    ),
    extra=st.dictionaries(
        st.text(min_size=1, max_size=10).filter(lambda key: key not in Post.model_fields),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.text(max_size=20),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(st.text(max_size=5), inner, max_size=3)
            ),
            max_leaves=6,
        ),
        max_size=3,
    ),
)
def test_round_trip_property(
    cache: WorkspaceCache,
    content: str | None,
    status: str,
    scheduled: datetime | None,
    extra: dict[str, object],
) -> None:
    post = Post.model_validate({**raw_post("p", content=content, status=status), **extra})
    post = post.model_copy(update={"scheduled_at": scheduled})

    cache.upsert_post(post)

    assert cache.post("p") == post


def test_text_that_looks_like_a_stored_time_stays_text(cache: WorkspaceCache) -> None:
    looks_stored = "2026-10-25T02:30:00+01:00[Europe/Berlin]"
    post = Post.model_validate(
        {**raw_post("p", content=looks_stored), "note": looks_stored, "tags": [looks_stored]}
    )

    cache.upsert_post(post)
    stored = cache.post("p")

    assert stored == post
    assert stored is not None
    assert stored.content == looks_stored
    assert stored.model_extra == {"note": looks_stored, "tags": [looks_stored]}


def test_label_and_account_times_keep_their_zone(cache: WorkspaceCache) -> None:
    label = make_label("l1").model_copy(
        update={"created_at": datetime(2026, 10, 25, 2, 30, fold=1, tzinfo=BERLIN)}
    )
    account = make_account("a1", connected_at="2026-03-01 10:00:00")
    post = make_post("p", label_ids=("l1",)).model_copy(update={"labels": [label]})
    cache.store_full_refresh([account], [label], [post])

    assert cache.labels() == [label]
    assert cache.accounts() == [account]
    stored = cache.post("p")
    assert stored is not None
    assert stored.labels[0].created_at == label.created_at
    assert stored.labels[0].created_at is not None
    assert stored.labels[0].created_at.utcoffset() == timedelta(hours=1)


def test_a_body_stored_by_the_previous_version_reads_back(cache: WorkspaceCache) -> None:
    # The text the previous version wrote (its reader walked the JSON tree to revive the
    # times); the format is unchanged, only the reading moved into the models.
    cache.upsert_post(make_post("p"))
    body = (
        '{"content":"Hello","created_at":"2026-01-05T08:00:00+00:00[+00:00]","id":"p",'
        '"labels":[],"media":[],"platforms":[],"published_at":null,'
        '"schedule_mode":null,"scheduled_at":"2026-03-29T03:00:00+02:00[Europe/Berlin]",'
        '"status":"scheduled","updated_at":"2026-01-05T08:00:00.500000+00:00[+00:00]"}'
    )
    with sqlite3.connect(cache.path) as db:
        db.execute("UPDATE posts SET body = ? WHERE id = 'p'", (body,))

    stored = cache.post("p")

    assert stored is not None
    assert stored.scheduled_at == datetime(2026, 3, 29, 3, 0, tzinfo=BERLIN)
    assert stored.scheduled_at is not None
    assert stored.scheduled_at.tzinfo == BERLIN
    assert stored.updated_at == datetime(2026, 1, 5, 8, 0, 0, 500000, tzinfo=UTC)
    assert stored.published_at is None
    assert "published_at" in stored.model_fields_set


def test_whole_posts_are_read_by_id_in_the_order_asked(cache: WorkspaceCache) -> None:
    posts = [make_post(f"p{number:04d}") for number in range(1200)]  # more than one query
    cache.replace_all_posts(posts)
    wanted = [post.id for post in reversed(posts)] + ["missing", posts[0].id]

    read = cache.posts(wanted)

    assert [post.id for post in read] == [post.id for post in reversed(posts)]
    assert read == list(reversed(posts))
    assert cache.posts([]) == []


# -- calendar queries ------------------------------------------------------------------------


def test_month_query_across_the_spring_dst_change_in_berlin(cache: WorkspaceCache) -> None:
    # Server time zone Europe/Berlin: the REST strings are Berlin wall times.
    times = {
        "feb-last-evening": "2026-02-28 23:30:00",
        "march-first-minute": "2026-03-01 00:00:00",
        "before-switch": "2026-03-29 01:59:59",
        "after-switch": "2026-03-29 03:00:00",
        "march-last-minute": "2026-03-31 23:59:59",
        "april-first": "2026-04-01 00:00:00",
    }
    cache.replace_all_posts(
        [make_post(name, scheduled_at=text, server_tz=BERLIN) for name, text in times.items()]
    )
    march = cache.cards_between(
        datetime(2026, 3, 1, tzinfo=BERLIN), datetime(2026, 4, 1, tzinfo=BERLIN)
    )
    dst_day = cache.cards_between(
        datetime(2026, 3, 29, tzinfo=BERLIN), datetime(2026, 3, 30, tzinfo=BERLIN)
    )

    assert ids(march) == [
        "march-first-minute",
        "before-switch",
        "after-switch",
        "march-last-minute",
    ]
    # 01:59:59 and 03:00 are one second apart in real time, both on the 23-hour day.
    assert ids(dst_day) == ["before-switch", "after-switch"]
    first, second = (post.scheduled_at for post in dst_day)
    assert first is not None
    assert second is not None
    assert second.timestamp() - first.timestamp() == 1


def test_query_bounds_may_be_in_any_zone(cache: WorkspaceCache) -> None:
    cache.replace_all_posts([make_post("p", scheduled_at="2026-03-10 09:00:00")])  # UTC server

    tokyo = ZoneInfo("Asia/Tokyo")
    assert ids(
        cache.cards_between(
            datetime(2026, 3, 10, 18, tzinfo=tokyo), datetime(2026, 3, 10, 19, tzinfo=tokyo)
        )
    ) == ["p"]
    assert (
        cache.cards_between(
            datetime(2026, 3, 10, 9, 0, 1, tzinfo=UTC), datetime(2026, 3, 11, tzinfo=UTC)
        )
        == []
    )


def test_naive_bounds_are_refused(cache: WorkspaceCache) -> None:
    with pytest.raises(ValueError, match="aware"):
        cache.cards_between(datetime(2026, 3, 1), datetime(2026, 4, 1))


def test_filters_by_account_label_and_status(cache: WorkspaceCache) -> None:
    cache.replace_all_posts(
        [
            make_post("a", account_id="acc-1", label_ids=("promo",)),
            make_post("b", account_id="acc-2", label_ids=("promo", "news")),
            make_post("c", account_id="acc-2", status="failed"),
        ]
    )
    start, end = datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 4, 1, tzinfo=UTC)

    assert ids(cache.cards_between(start, end, account_ids=["acc-2"])) == ["b", "c"]
    assert ids(cache.cards_between(start, end, label_ids=["news"])) == ["b"]
    assert ids(cache.cards_between(start, end, statuses=["failed", "draft"])) == ["c"]
    assert ids(cache.cards_between(start, end, account_ids=["acc-2"], label_ids=["promo"])) == ["b"]
    assert cache.cards_between(start, end, account_ids=[]) == []


def test_unscheduled_drafts_and_posts_published_without_a_schedule(cache: WorkspaceCache) -> None:
    published_now = make_post(
        "now", scheduled_at=None, status="published", published_at="2026-03-05 12:00:00"
    )
    older_draft = make_post(
        "d1", scheduled_at=None, status="draft", created_at="2026-01-01 00:00:00"
    )
    newer_draft = make_post(
        "d2", scheduled_at=None, status="draft", created_at="2026-02-01 00:00:00"
    )
    cache.replace_all_posts([published_now, older_draft, newer_draft, make_post("s")])

    assert ids(cache.unscheduled_cards()) == ["d2", "d1"]
    march = cache.cards_between(datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 4, 1, tzinfo=UTC))
    assert ids(march) == ["now", "s"]


# -- full refresh ------------------------------------------------------------------------------


def test_replace_all_reports_only_real_changes(cache: WorkspaceCache) -> None:
    posts = [make_post("a"), make_post("b")]

    assert cache.replace_all_posts(posts) is True
    assert cache.replace_all_posts([make_post("a"), make_post("b")]) is False
    assert cache.replace_all_posts([make_post("a", content="edited"), make_post("b")]) is True
    assert cache.replace_all_posts([make_post("a", content="edited")]) is True
    assert cache.count_posts() == 1
    stored = cache.post("a")
    assert stored is not None
    assert stored.content == "edited"
    assert cache.post("b") is None


def test_replace_all_rewrites_the_filter_columns(cache: WorkspaceCache) -> None:
    cache.replace_all_posts([make_post("a", account_id="acc-1", label_ids=("old",))])
    cache.replace_all_posts([make_post("a", account_id="acc-2", label_ids=("new",))])
    start, end = datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 4, 1, tzinfo=UTC)

    assert cache.cards_between(start, end, account_ids=["acc-1"]) == []
    assert cache.cards_between(start, end, label_ids=["old"]) == []
    assert ids(cache.cards_between(start, end, account_ids=["acc-2"], label_ids=["new"])) == ["a"]


def test_a_post_listed_twice_is_stored_once(cache: WorkspaceCache) -> None:
    cache.replace_all_posts([make_post("a", content="first"), make_post("a", content="second")])

    assert cache.count_posts() == 1


def test_full_refresh_stores_accounts_labels_and_posts_together(cache: WorkspaceCache) -> None:
    accounts = [make_account("zeta", "linkedin"), make_account("alpha", "x", timezone="UTC")]
    labels = [make_label("l2"), make_label("l1")]

    first = cache.store_full_refresh(accounts, labels, [make_post("a")])
    assert ([card.id for card in first.cards], first.gone, first.lists) == (["a"], (), True)
    every = (datetime(2000, 1, 1, tzinfo=UTC), datetime(2100, 1, 1, tzinfo=UTC))
    assert first.cards == tuple(cache.cards_between(*every))  # as the calendar reads it
    assert cache.store_full_refresh(accounts, labels, [make_post("a")]).any is False

    assert cache.accounts() == accounts  # the server's order is kept
    assert cache.labels() == labels
    assert cache.count_posts() == 1
    again = cache.store_full_refresh(accounts[:1], labels, [make_post("b")])
    assert ([card.id for card in again.cards], again.gone, again.lists) == (["b"], ("a",), True)


def test_accounts_and_labels_report_changes(cache: WorkspaceCache) -> None:
    assert cache.set_accounts([make_account("a")]) is True
    assert cache.set_accounts([make_account("a")]) is False
    assert cache.set_accounts([make_account("a", status="token_expired")]) is True
    assert cache.accounts()[0].status == "token_expired"
    assert cache.set_labels([make_label("l1", "Promo")]) is True
    assert cache.set_labels([make_label("l1", "Promo")]) is False
    assert cache.set_labels([]) is True
    assert cache.labels() == []


def test_last_sync_is_recorded_by_refreshes_only(cache: WorkspaceCache) -> None:
    assert cache.last_sync_at() is None
    cache.upsert_post(make_post("a"))
    assert cache.last_sync_at() is None

    before = datetime.now(UTC)
    cache.merge_first_pages([make_post("a")])
    light = cache.last_sync_at()
    assert light is not None
    assert light >= before.replace(microsecond=0)
    assert cache.last_full_sync_at() is None

    cache.replace_all_posts([make_post("a")])
    full = cache.last_full_sync_at()
    assert full is not None
    assert full >= light


# -- light refresh: the deletion rule ----------------------------------------------------------


def _schedule(day: int) -> str:
    return f"2026-03-{day:02d} 09:00:00"


@pytest.fixture
def ten_days(cache: WorkspaceCache) -> WorkspaceCache:
    """Posts on March 1..10 plus one unscheduled draft; the server lists March 10 first."""
    posts = [make_post(f"d{day}", scheduled_at=_schedule(day)) for day in range(1, 11)]
    cache.replace_all_posts([*posts, make_post("draft", scheduled_at=None, status="draft")])
    return cache


def test_light_refresh_adds_new_and_updates_changed_posts(ten_days: WorkspaceCache) -> None:
    window = [make_post("new", scheduled_at=_schedule(12)), make_post("d10", content="edited")]
    window += [make_post(f"d{day}", scheduled_at=_schedule(day)) for day in (9, 8)]
    window[1] = make_post("d10", scheduled_at=_schedule(10), content="edited")

    change = ten_days.merge_first_pages(window)
    assert sorted(card.id for card in change.cards) == ["d10", "new"]  # d9, d8: unchanged
    assert (change.gone, change.lists) == ((), False)
    assert ten_days.count_posts() == 12
    stored = ten_days.post("d10")
    assert stored is not None
    assert stored.content == "edited"


def test_light_refresh_drops_what_the_window_should_have_held(ten_days: WorkspaceCache) -> None:
    # Pages cover March 10..7; d9 is missing from them, so it was deleted on the server.
    window = [make_post(f"d{day}", scheduled_at=_schedule(day)) for day in (10, 8, 7)]

    change = ten_days.merge_first_pages(window)

    assert (change.cards, change.gone, change.lists) == ((), ("d9",), False)
    assert ten_days.post("d9") is None
    # Older than the window's earliest post: the pages could not show them, so they stay.
    assert all(ten_days.post(f"d{day}") is not None for day in range(1, 7))
    assert ten_days.post("draft") is not None


def test_window_misses_names_what_would_be_dropped(ten_days: WorkspaceCache) -> None:
    window = [make_post(f"d{day}", scheduled_at=_schedule(day)) for day in (10, 7)]

    assert ten_days.window_misses(window) == {"d8", "d9"}
    assert ten_days.window_misses(window, reached_end=True) == {
        *(f"d{day}" for day in (1, 2, 3, 4, 5, 6, 8, 9)),
        "draft",
    }
    assert ten_days.count_posts() == 11  # only a question, nothing changed


def test_checked_posts_are_stored_and_kept(ten_days: WorkspaceCache) -> None:
    window = [make_post(f"d{day}", scheduled_at=_schedule(day)) for day in (10, 7)]
    moved = make_post("d9", scheduled_at="2026-02-01 09:00:00")  # read one by one: it exists

    change = ten_days.merge_first_pages(window, checked=[moved])
    assert ([card.id for card in change.cards], change.gone) == (["d9"], ("d8",))

    assert ten_days.post("d8") is None
    stored = ten_days.post("d9")
    assert stored is not None
    assert stored.scheduled_at == moved.scheduled_at
    # The moved post is not part of the window: it does not lower the boundary.
    assert all(ten_days.post(f"d{day}") is not None for day in range(1, 7))


def test_posts_at_the_window_boundary_time_are_kept(ten_days: WorkspaceCache) -> None:
    ten_days.upsert_post(make_post("tie", scheduled_at=_schedule(8)))
    # The page ended at d8; "tie" has the same time and may be first on the next page.
    window = [make_post(f"d{day}", scheduled_at=_schedule(day)) for day in (10, 9, 8)]

    assert ten_days.merge_first_pages(window).any is False

    assert ten_days.post("tie") is not None


def test_when_the_pages_hold_the_whole_list_everything_missing_goes(
    ten_days: WorkspaceCache,
) -> None:
    window = [make_post(f"d{day}", scheduled_at=_schedule(day)) for day in (10, 3)]

    change = ten_days.merge_first_pages(window, reached_end=True)
    assert change.cards == ()
    assert change.gone == tuple(sorted({f"d{day}" for day in range(1, 10)} - {"d3"} | {"draft"}))

    assert sorted(ten_days.post_ids()) == ["d10", "d3"]


def test_unconsistent_pages_drop_nothing(ten_days: WorkspaceCache) -> None:
    window = [
        make_post("d10", scheduled_at=_schedule(10)),
        make_post("d1", scheduled_at=_schedule(1)),
    ]

    assert ten_days.merge_first_pages(window, prune=False).any is False
    assert ten_days.count_posts() == 11


def test_a_window_of_drafts_only_drops_nothing(ten_days: WorkspaceCache) -> None:
    draft = make_post("draft", scheduled_at=None, status="draft")
    assert ten_days.merge_first_pages([draft]).any is False
    assert ten_days.count_posts() == 11


# -- user actions during a refresh -------------------------------------------------------------


def test_a_refresh_read_before_a_user_edit_does_not_undo_it(cache: WorkspaceCache) -> None:
    cache.replace_all_posts([make_post("a", content="server"), make_post("b")])
    mark = cache.begin_refresh()  # the refresh starts reading the server...
    cache.upsert_post(make_post("a", content="my edit"))  # ...the user saves an edit...
    cache.delete_post("b")  # ...and deletes a post...
    cache.upsert_post(make_post("c"))  # ...and creates one.

    # ...then the refresh lands with what it read before those actions.
    cache.replace_all_posts([make_post("a", content="server"), make_post("b")], since=mark)

    stored = cache.post("a")
    assert stored is not None
    assert stored.content == "my edit"
    assert cache.post("b") is None
    assert cache.post("c") is not None

    # The next refresh, started after the edits, is the truth again.
    cache.replace_all_posts([make_post("a", content="server")], since=cache.begin_refresh())
    assert sorted(cache.post_ids()) == ["a"]
    stored = cache.post("a")
    assert stored is not None
    assert stored.content == "server"


def test_without_a_mark_a_refresh_overwrites(cache: WorkspaceCache) -> None:
    cache.upsert_post(make_post("a", content="mine"))
    cache.replace_all_posts([make_post("a", content="server")])

    stored = cache.post("a")
    assert stored is not None
    assert stored.content == "server"


def test_upsert_and_delete_report_changes(cache: WorkspaceCache) -> None:
    assert cache.upsert_post(make_post("a")) is True
    assert cache.upsert_post(make_post("a")) is False
    assert cache.delete_post("a") is True
    assert cache.delete_post("a") is False


# -- the file ----------------------------------------------------------------------------------


def test_the_file_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    WorkspaceCache(path).close()

    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_migrations_run_once_and_keep_data(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    with WorkspaceCache(path) as first:
        first.upsert_post(make_post("a"))
    with WorkspaceCache(path) as second:
        assert second.count_posts() == 1
        assert second.reset is None

    db = sqlite3.connect(path, isolation_level=None)
    try:
        assert schema_version(db) == SCHEMA_VERSION
        assert migrate(db) == SCHEMA_VERSION
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"posts", "accounts", "labels", "sync_meta"} <= tables
    finally:
        db.close()


def test_a_file_that_is_not_a_database_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    garbage = b"this is not sqlite" * 200
    path.write_bytes(garbage)

    with WorkspaceCache(path) as cache:
        assert cache.reset is not None
        assert cache.reset.moved_to.read_bytes() == garbage
        assert cache.reset.moved_to.name.startswith("c.sqlite3.corrupt-")
        assert "damaged" in cache.reset.message
        assert cache.reset.moved_to.name in cache.reset.message
        assert cache.count_posts() == 0
        cache.upsert_post(make_post("a"))
        assert cache.count_posts() == 1


def test_a_damaged_page_inside_the_file_is_detected(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    with WorkspaceCache(path) as cache:
        cache.replace_all_posts([make_post(f"p{i}", content="x" * 500) for i in range(200)])
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(path.read_bytes())
    for page in range(3, len(data) // page_size, 2):
        data[page * page_size : page * page_size + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))

    with WorkspaceCache(path) as reopened:
        assert reopened.reset is not None
        assert reopened.count_posts() == 0


def test_a_file_from_a_newer_version_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")

    with WorkspaceCache(path) as cache:
        assert cache.reset is not None
        assert "schema version" in cache.reset.reason


def test_an_unopenable_path_is_a_clear_error_and_nothing_is_moved(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    path.mkdir()

    with pytest.raises(CacheError, match="Cannot open the local cache"):
        WorkspaceCache(path)
    assert path.is_dir()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("c.")) == ["c.sqlite3"]
