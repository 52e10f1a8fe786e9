"""The drafts file at its edges (issue 18 §2): the server's version kept beside a draft says what
it is and is searchable by its own words, and every SQLite failure reaches the user as a
sentence that says what happened to their drafts file."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.store.local_schema import LOCAL_SCHEMA_VERSION
from app.store.local_store import (
    LocalStore,
    LocalStoreDamaged,
    LocalStoreError,
    NewerLocalSchema,
    _as_store_error,
    unsent_work,
)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[LocalStore]:
    opened = LocalStore.open(tmp_path / "ws.local.sqlite3")
    yield opened
    opened.close()


def _doc(text: str) -> str:
    return json.dumps({"content": text})


@pytest.mark.asyncio
async def test_the_servers_version_is_named_after_the_drafts_title_unless_given_its_own(
    store: LocalStore,
) -> None:
    draft = await store.create_draft(
        _doc("ours"), title="Launch", server_post_id="p1", server_version="v1"
    )
    kept = await store.check_server_version(draft.id, "v2", _doc("theirs"))
    assert kept is not None
    assert kept.title == "Launch (server version)"
    assert (kept.conflict_of, kept.server_post_id, kept.server_version) == (draft.id, "p1", "v2")
    named = await store.check_server_version(draft.id, "v3", _doc("x"), server_title="Their name")
    assert named is not None
    assert named.title == "Their name (server version)"


@pytest.mark.asyncio
async def test_an_untitled_drafts_server_version_is_still_labelled(store: LocalStore) -> None:
    draft = await store.create_draft(_doc("ours"), server_post_id="p1", server_version="v1")
    kept = await store.check_server_version(draft.id, "v2", _doc("theirs"))
    assert kept is not None
    assert kept.title == "(server version)"


@pytest.mark.asyncio
async def test_the_servers_version_previews_and_searches_by_the_words_given(
    store: LocalStore,
) -> None:
    draft = await store.create_draft(_doc("ours"), server_post_id="p1", server_version="v1")
    kept = await store.check_server_version(
        draft.id, "v2", _doc("document words"), server_text="plain words of the server"
    )
    assert kept is not None
    assert kept.preview == "plain words of the server"
    assert [d.id for d in store.list_drafts("plain")] == [kept.id]
    # The same server version seen again is not kept twice.
    assert await store.check_server_version(draft.id, "v2", _doc("document words")) is None


@pytest.mark.parametrize(
    "text",
    [
        "file is not a database",
        "database disk image is malformed",
        "database corrupt at page 3",
    ],
)
def test_a_damaged_file_is_reported_as_damaged_with_sqlites_words(text: str) -> None:
    error = _as_store_error(sqlite3.DatabaseError(text), Path("/data/ws.local.sqlite3"))
    assert isinstance(error, LocalStoreDamaged)
    assert error.message.startswith(
        f"Your drafts file /data/ws.local.sqlite3 is damaged ({text}). It was left as it is"
    )


def test_a_locked_file_is_in_use_not_damaged() -> None:
    error = _as_store_error(
        sqlite3.OperationalError("database is locked"), Path("/data/ws.local.sqlite3")
    )
    assert not isinstance(error, LocalStoreDamaged)
    assert error.message == (
        "Your drafts file /data/ws.local.sqlite3 is in use by another program (database is "
        "locked). Close other Postdesk windows of this workspace and try again."
    )


def test_a_failure_that_is_not_a_database_error_is_never_called_damage() -> None:
    # Words that would mean damage from SQLite's file layer, on an interface misuse.
    error = _as_store_error(
        sqlite3.InterfaceError("corrupt malformed not a database"), Path("/d/ws.sqlite3")
    )
    assert not isinstance(error, LocalStoreDamaged)
    assert isinstance(error, LocalStoreError)
    assert error.message == (
        "Your drafts file /d/ws.sqlite3 could not be used (corrupt malformed not a database)."
    )


@pytest.mark.asyncio
async def test_untitled_copies_stay_untitled_or_say_what_they_are(store: LocalStore) -> None:
    draft = await store.create_draft(_doc("one"))
    assert (await store.duplicate_draft(draft.id)).title == ""
    titled = await store.create_draft(_doc("two"), title="Plan")
    assert (await store.duplicate_draft(titled.id)).title == "Plan (copy)"
    result = await store.save_draft(draft.id, _doc("stale"), base_revision=0)
    assert result.conflict is not None
    assert result.saved.title == "(conflict copy)"


@pytest.mark.asyncio
async def test_unknown_drafts_are_named_in_the_error_or_give_nothing(store: LocalStore) -> None:
    with pytest.raises(KeyError) as raised:
        await store.rename_draft("no-such-draft", "Title")
    assert raised.value.args == ("no-such-draft",)
    assert await store.restore_draft("no-such-draft") is None


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("search", "texts", "found"),
    [
        ("100%", ["100% done", "1000 done"], ["100% done"]),
        ("a_b", ["a_b here", "axb here"], ["a_b here"]),
        ("a\\b", ["a\\b here", "ab here"], ["a\\b here"]),
        ("a\\%", ["a\\% here", "a\\x here", "ax here"], ["a\\% here"]),
    ],
)
async def test_search_words_match_literally_whatever_their_signs(
    store: LocalStore, search: str, texts: list[str], found: list[str]
) -> None:
    for text in texts:
        await store.create_draft(_doc(text), text=text)
    assert [d.preview for d in store.list_drafts(search)] == found


class _Clock:
    def __init__(self) -> None:
        self.moment = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.moment


@pytest.mark.asyncio
async def test_a_draft_keeps_when_it_was_made_and_says_when_it_last_changed(
    tmp_path: Path,
) -> None:
    clock = _Clock()
    store = LocalStore.open(tmp_path / "deep" / "er" / "ws.local.sqlite3", now=clock)
    try:
        assert store.notice is None  # a new file: nothing to tell
        draft = await store.create_draft()
        assert (draft.document, draft.title, draft.preview) == ("{}", "", "")
        assert draft.created_at == draft.updated_at == clock.moment
        made = clock.moment
        clock.moment = made + timedelta(hours=2)
        saved = (await store.save_draft(draft.id, _doc("later"), base_revision=1)).saved
        assert (saved.created_at, saved.updated_at) == (made, clock.moment)
        again = store.get_draft(draft.id)
        assert again is not None
        assert (again.created_at, again.updated_at) == (made, clock.moment)
    finally:
        store.close()


@pytest.mark.asyncio
async def test_every_string_of_the_document_is_searchable_unless_words_are_given(
    store: LocalStore,
) -> None:
    document = json.dumps({"content": "first", "replies": [{"text": "second"}, ["third"]]})
    draft = await store.create_draft(document)
    assert draft.preview == "first second third"
    assert [d.id for d in store.list_drafts("third")] == [draft.id]
    given = await store.create_draft(document, text="only these words")
    assert given.preview == "only these words"
    saved = (
        await store.save_draft(given.id, _doc("new"), base_revision=1, text="typed words")
    ).saved
    assert saved.preview == "typed words"


@pytest.mark.asyncio
async def test_a_deleted_draft_cannot_be_duplicated_or_compared(store: LocalStore) -> None:
    draft = await store.create_draft(_doc("x"), server_post_id="p1", server_version="v1")
    await store.delete_draft(draft.id)
    with pytest.raises(KeyError):
        await store.duplicate_draft(draft.id)
    with pytest.raises(KeyError):
        await store.check_server_version(draft.id, "v2", _doc("theirs"))


def test_a_closed_store_says_so_and_closing_again_is_harmless(tmp_path: Path) -> None:
    path = tmp_path / "ws.local.sqlite3"
    store = LocalStore.open(path)
    store.submit(lambda connection: connection.execute("SELECT 1")).result()
    store.close()
    store.close()
    # Both connections are closed: SQLite removed the write-ahead log with the last one.
    assert not path.with_name(path.name + "-wal").exists()
    with pytest.raises(LocalStoreError) as raised:
        store.read("SELECT 1")
    assert raised.value.message == "The drafts file is closed."
    with pytest.raises(LocalStoreError, match=r"The drafts file is closed\."):
        store.submit(lambda connection: None)


def test_a_file_from_a_newer_postdesk_is_refused_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "ws.local.sqlite3"
    made = sqlite3.connect(path)
    made.execute("PRAGMA user_version = 99")
    made.close()
    before = path.read_bytes()
    with pytest.raises(NewerLocalSchema) as raised:
        LocalStore.open(path)
    assert f"(format 99; this version knows up to {LOCAL_SCHEMA_VERSION})" in raised.value.message
    assert path.read_bytes() == before
    with pytest.raises(NewerLocalSchema):
        unsent_work(path)


def test_a_damaged_file_is_reported_and_left_in_place(tmp_path: Path) -> None:
    path = tmp_path / "ws.local.sqlite3"
    path.write_bytes(b"SQLite format 3\x00" + b"\x07" * 4000)
    before = path.read_bytes()
    with pytest.raises(LocalStoreDamaged) as raised:
        LocalStore.open(path)
    assert raised.value.message.startswith(f"Your drafts file {path} is damaged (")
    assert path.read_bytes() == before
