"""Drafts, cache and crash.log are the user's alone (0600), a 0-byte drafts file is said, and
a full disk is named as such (issue 19 §2, §4)."""

from __future__ import annotations

import asyncio
import errno
import sqlite3
import stat
from pathlib import Path

import pytest

import ui.main
import ui.shell.startup
from app.store import WorkspaceCache
from app.store.disk_full import is_disk_full
from app.store.local_store import LocalStore, LocalStoreError
from ui.shell.startup import log_unexpected


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def open_umask() -> object:
    import os

    before = os.umask(0o022)  # the usual desktop umask: files 0644 unless made private
    yield
    os.umask(before)


def test_the_drafts_file_and_its_wal_are_private(tmp_path: Path) -> None:
    path = tmp_path / "ws.local.sqlite3"
    store = LocalStore.open(path)
    try:
        asyncio.run(store.create_draft('{"content": "secret plans"}', title="t"))
        assert mode_of(path) == 0o600
        wal = path.with_name(path.name + "-wal")
        assert wal.exists()
        assert mode_of(wal) == 0o600
    finally:
        store.close()


def test_an_existing_readable_drafts_file_is_narrowed_to_0600(tmp_path: Path) -> None:
    path = tmp_path / "ws.local.sqlite3"
    LocalStore.open(path).close()
    path.chmod(0o644)
    LocalStore.open(path).close()
    assert mode_of(path) == 0o600


def test_the_cache_is_private(tmp_path: Path) -> None:
    path = tmp_path / "ws.sqlite3"
    cache = WorkspaceCache(path)
    try:
        cache.count_posts()
        assert mode_of(path) == 0o600
    finally:
        cache.close()


def test_the_crash_log_is_private(tmp_path: Path) -> None:
    try:
        raise RuntimeError("boom")
    except RuntimeError as error:
        log = log_unexpected(error, tmp_path / "logs")
    assert log is not None
    assert mode_of(log) == 0o600
    assert "boom" in log.read_text()


def test_a_zero_byte_drafts_file_is_said_not_taken_silently_as_new(tmp_path: Path) -> None:
    path = tmp_path / "ws.local.sqlite3"
    path.write_bytes(b"")
    store = LocalStore.open(path)
    try:
        assert store.notice is not None
        assert "empty (0 bytes)" in store.notice
        assert str(path) in store.notice
    finally:
        store.close()
    again = LocalStore.open(path)  # now a real (new) file: nothing more to say
    try:
        assert again.notice is None
    finally:
        again.close()


def test_a_new_drafts_file_has_nothing_to_say(tmp_path: Path) -> None:
    store = LocalStore.open(tmp_path / "new.local.sqlite3")
    try:
        assert store.notice is None
    finally:
        store.close()


def test_a_full_disk_is_named_when_the_drafts_file_cannot_be_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import app.store.local_store as local_store

    def full(path: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(local_store, "make_private", full)
    with pytest.raises(LocalStoreError) as raised:
        LocalStore.open(tmp_path / "ws.local.sqlite3")
    assert raised.value.message.startswith("The disk is full")


def test_sqlite_full_and_oserror_enospc_are_disk_full() -> None:
    assert is_disk_full(OSError(errno.ENOSPC, "No space left on device"))
    assert is_disk_full(sqlite3.OperationalError("database or disk is full"))
    wrapped = RuntimeError("wrapped")
    wrapped.__cause__ = OSError(errno.ENOSPC, "No space left on device")
    assert is_disk_full(wrapped)
    assert not is_disk_full(OSError(errno.EACCES, "Permission denied"))


def test_a_full_disk_at_start_says_so_and_writes_no_crash_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    failures: list[str] = []
    monkeypatch.setattr(ui.shell.startup, "report_failure", failures.append)

    def full(*_: object, **__: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "data" / "x"))

    monkeypatch.setattr(ui.main, "_run", full)
    code = ui.main.main([])
    assert code == 2
    assert failures, "nothing was said"
    assert failures[0].startswith("The disk is full"), failures
    assert "unexpected" not in failures[0]
    assert not list((tmp_path / "cache").rglob("crash.log"))


def test_a_full_disk_for_the_data_folder_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ui.shell.startup import StartupError, usable_folder

    def full(self: Path, *_: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device", str(self))

    monkeypatch.setattr(Path, "write_bytes", full)
    with pytest.raises(StartupError) as raised:
        usable_folder(tmp_path / "data", "data folder")
    assert str(raised.value).startswith("The disk is full")
