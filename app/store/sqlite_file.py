"""Opening a SQLite file and migrating it by numbered steps: the one way both of Postdesk's
files (the workspace cache, `schema.py`; the local file of drafts and outbox, `local_schema.py`)
and the sandbox's `--db` file (`app/sandbox/schema.py`) are opened.

A schema is a tuple of steps; step N (1-based) moves `PRAGMA user_version` from N-1 to N in its
own `BEGIN IMMEDIATE` transaction, so a crash between two steps leaves a file the next open
simply continues to migrate, and two processes opening a new file at once do not both create
the tables (the version is read again inside each write transaction). Append steps; never edit
one that has shipped. A step is split into statements with `sqlite3.complete_statement`, so a
trigger body or a ";" inside a string literal stays in its statement.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path

BUSY_TIMEOUT_S = 10.0
"""How long a statement waits for another connection's lock before "database is locked"."""

TooNew = Callable[[int, int], BaseException]
"""Builds the error for a file whose version is newer than the steps known: (found, known)."""

Adopt = Callable[[sqlite3.Connection], int]
"""Recognises a file written before its schema had numbered steps (`user_version` 0 with tables
in it), brings it to the shape of some step N and returns N; returns 0 for a file to build from
step 1. Runs inside the write transaction of the first step, so it happens once."""


def connect(path: Path | str, pragmas: Sequence[str] = ()) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit, never implicit), usable from
    the worker threads that own it in turn, with `pragmas` (e.g. "synchronous = FULL") set."""
    connection = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
    )
    try:
        set_pragmas(connection, pragmas)
    except BaseException:
        connection.close()
        raise
    return connection


def set_pragmas(connection: sqlite3.Connection, pragmas: Sequence[str]) -> None:
    for pragma in pragmas:
        _set_pragma(connection, pragma)


def _set_pragma(connection: sqlite3.Connection, pragma: str) -> None:
    # Switching a file to WAL needs it to itself for a moment, and SQLite answers "database is
    # locked" at once, without its busy wait, while another connection reads or switches it too
    # (two processes opening one file: measured on 16 % of simultaneous opens). So this one
    # statement waits here, as long as any other statement would.
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    pause = 0.001
    while True:
        try:
            connection.execute(f"PRAGMA {pragma}")
            return
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or time.monotonic() + pause > deadline:
                raise
        _pause(pause)
        pause = min(pause * 2, 0.05)


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    # The primary code: an extended one (SQLITE_BUSY_RECOVERY, ...) carries it in its low byte.
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


_pause = time.sleep
"""The wait between two tries (a seam for the test that holds the lock until it is called)."""


def schema_version(connection: sqlite3.Connection) -> int:
    return int(connection.execute("PRAGMA user_version").fetchone()[0])


def migrate(
    connection: sqlite3.Connection,
    steps: Sequence[str],
    too_new: TooNew,
    adopt: Adopt | None = None,
) -> int:
    """Bring the file to version `len(steps)`; running it again does nothing. Returns the version.

    The connection must be in autocommit mode (`isolation_level=None`). A newer file raises
    `too_new(found, known)` and is left unchanged. `adopt`, when given, is asked first about a
    file at version 0 (see `Adopt`).
    """
    known = len(steps)
    while True:
        connection.execute("BEGIN IMMEDIATE")
        try:
            version = schema_version(connection)
            if version > known:
                raise too_new(version, known)
            if version == known:
                connection.execute("COMMIT")
                return version
            if version == 0 and adopt is not None:
                adopted = adopt(connection)
                if not 0 <= adopted <= known:
                    raise ValueError(f"adopted as version {adopted}, outside 0..{known}")
                if adopted:
                    connection.execute(f"PRAGMA user_version = {adopted}")
                    connection.execute("COMMIT")
                    continue
            for statement in split_statements(steps[version]):
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {version + 1}")
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise


def split_statements(script: str) -> list[str]:
    """The statements of `script`, each complete as SQLite parses it (a ";" inside a trigger
    body or a string literal does not end one)."""
    statements: list[str] = []
    *pieces, rest = script.split(";")
    buffer = ""
    for piece in pieces:
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            if not _blank(buffer):
                statements.append(buffer.strip())
            buffer = ""
    rest = buffer + rest
    if not _blank(rest):
        raise ValueError(f"incomplete SQL statement in a migration: {rest.strip()[:60]}")
    return statements


def _blank(text: str) -> bool:
    """Only blanks, ";" and `--` comment lines: nothing to execute."""
    lines = (line.strip(" \t\r;") for line in text.splitlines())
    return all(not line or line.startswith("--") for line in lines)
