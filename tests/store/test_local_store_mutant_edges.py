"""The drafts file where a person would read the wrong words or lose a save (issue 18 §2): each
kind of SQLite failure gets its own sentence naming the file, a file that cannot be created is
named, unknown drafts are named in the error, a closed file says so exactly, and writes handed
over together run one after another on the file's single writer."""

from __future__ import annotations

import errno
import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import app.store.local_store as local_store
from app.store.local_store import LocalStore, LocalStoreError, _as_store_error

FILE = Path("/data/ws.local.sqlite3")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[LocalStore]:
    opened = LocalStore.open(tmp_path / "ws.local.sqlite3")
    yield opened
    opened.close()


def _doc(text: str) -> str:
    return json.dumps({"content": text})


FULL = (
    "The disk is full: your drafts file /data/ws.local.sqlite3 could not be written. Free some "
    "disk space; what you typed is still in the window."
)


def _io(text: str) -> str:
    return (
        f"Could not write your drafts file /data/ws.local.sqlite3 ({text}). Free some disk "
        "space; what you typed is still in the window."
    )


def _busy(text: str) -> str:
    return (
        f"Your drafts file /data/ws.local.sqlite3 is in use by another program ({text}). Close "
        "other Postdesk windows of this workspace and try again."
    )


def _denied(text: str) -> str:
    return (
        f"Could not open your drafts file /data/ws.local.sqlite3 for writing ({text}). Check "
        "the permissions of the folder."
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("database or disk is full", FULL),
        ("disk I/O error", _io("disk I/O error")),
        ("database is busy", _busy("database is busy")),
        ("attempt to write a readonly database", _denied("attempt to write a readonly database")),
        ("unable to open database file", _denied("unable to open database file")),
        ("Permission denied", _denied("Permission denied")),
        (
            "no such table: drafts",
            "Your drafts file /data/ws.local.sqlite3 could not be used (no such table: drafts).",
        ),
    ],
)
def test_each_kind_of_sqlite_failure_gets_its_own_words(text: str, message: str) -> None:
    assert _as_store_error(sqlite3.OperationalError(text), FILE).message == message


def test_a_full_disk_known_only_by_sqlites_code_is_still_a_full_disk() -> None:
    error = sqlite3.OperationalError("could not write page 12")
    error.sqlite_errorcode = 13  # SQLITE_FULL
    assert _as_store_error(error, FILE).message == FULL


def test_a_file_that_cannot_be_created_is_named_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ws.local.sqlite3"

    def denied(where: Path) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(where))

    monkeypatch.setattr(local_store, "make_private", denied)
    with pytest.raises(LocalStoreError) as raised:
        LocalStore.open(path)
    assert raised.value.message == (
        f"Could not create your drafts file {path}: Permission denied. Check the permissions "
        "of the folder."
    )


@pytest.mark.asyncio
async def test_unknown_drafts_are_named_when_copied_or_compared(store: LocalStore) -> None:
    with pytest.raises(KeyError) as copied:
        await store.duplicate_draft("no-such-draft")
    assert copied.value.args == ("no-such-draft",)
    with pytest.raises(KeyError) as compared:
        await store.check_server_version("gone-draft", "v2", _doc("theirs"))
    assert compared.value.args == ("gone-draft",)


def test_a_closed_file_refuses_writes_in_exact_words(tmp_path: Path) -> None:
    store = LocalStore.open(tmp_path / "ws.local.sqlite3")
    store.close()
    with pytest.raises(LocalStoreError) as raised:
        store.submit(lambda connection: None)
    assert raised.value.message == "The drafts file is closed."


def test_writes_handed_over_together_run_one_after_another_on_one_writer(
    tmp_path: Path,
) -> None:
    before = set(threading.enumerate())
    store = LocalStore.open(tmp_path / "ws.local.sqlite3")
    try:
        store.submit(lambda connection: connection.execute("SELECT 1")).result()
        release, order = threading.Event(), []

        def first(connection: sqlite3.Connection) -> None:
            order.append("first starts")
            release.wait(timeout=10)  # set below, once the second write was handed over
            connection.execute("INSERT INTO drafts_probe VALUES (1)")
            order.append("first ends")

        def second(connection: sqlite3.Connection) -> int:
            order.append("second")
            return int(connection.execute("SELECT COUNT(*) FROM drafts_probe").fetchone()[0])

        store.submit(lambda connection: connection.execute("CREATE TABLE drafts_probe (x)"))
        one = store.submit(first)
        two = store.submit(second)
        release.set()
        one.result(timeout=10)
        assert two.result(timeout=10) == 1  # it saw the first write committed
        assert order == ["first starts", "first ends", "second"]
        # One writer thread for the file, whatever was handed over at once.
        assert len(set(threading.enumerate()) - before) == 1
    finally:
        store.close()
