"""A full disk told apart from other failures, in the words a person reads, and files narrowed
to their owner (issue 18 §2)."""

from __future__ import annotations

import errno
import sqlite3
import stat
from pathlib import Path

from app.store.disk_full import disk_full_message, is_disk_full
from app.store.private_files import make_private


def test_the_message_names_the_file_being_written_when_known() -> None:
    error = OSError(errno.ENOSPC, "No space left on device", "/home/ann/.local/x.sqlite3")
    assert disk_full_message(error) == (
        "The disk is full (writing /home/ann/.local/x.sqlite3). Free some disk space, then "
        "start Postdesk again; nothing you saved before was changed."
    )


def test_without_a_file_name_the_message_has_no_empty_brackets() -> None:
    assert disk_full_message(OSError(errno.ENOSPC, "No space left on device")) == (
        "The disk is full. Free some disk space, then start Postdesk again; nothing you saved "
        "before was changed."
    )


def test_sqlites_disk_full_error_has_no_file_name_and_still_gets_the_message() -> None:
    assert disk_full_message(sqlite3.OperationalError("database or disk is full")) == (
        "The disk is full. Free some disk space, then start Postdesk again; nothing you saved "
        "before was changed."
    )


def test_only_a_full_disk_is_called_full_and_a_looping_chain_of_causes_ends() -> None:
    assert not is_disk_full(sqlite3.OperationalError("database is locked"))
    assert is_disk_full(sqlite3.OperationalError("database or disk is full"))
    first, second = OSError(errno.EACCES, "Permission denied"), ValueError("wrapped")
    first.__context__, second.__context__ = second, first
    assert not is_disk_full(first)
    full = OSError(errno.ENOSPC, "No space left on device")
    second.__cause__ = full
    assert is_disk_full(first)


def test_a_file_anyone_may_run_or_read_is_narrowed_to_its_owner(tmp_path: Path) -> None:
    path = tmp_path / "crash.log"
    path.write_text("kept")
    path.chmod(0o777)
    make_private(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o700
    assert path.read_text() == "kept"
