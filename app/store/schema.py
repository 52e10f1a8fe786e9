"""Schema of a workspace cache file, versioned with `PRAGMA user_version`.

Each entry of MIGRATIONS moves the file one version up and runs in its own transaction, so a
crash between two steps leaves a file that the next start simply continues to migrate. Append
new steps; never edit a step that has shipped.
"""

from __future__ import annotations

import sqlite3

MIGRATIONS: tuple[str, ...] = (
    # 1: posts with the columns the calendar filters on, accounts, labels, sync bookkeeping.
    """
    CREATE TABLE posts (
        id TEXT PRIMARY KEY,
        scheduled_utc TEXT,
        calendar_utc TEXT,
        created_utc TEXT,
        status TEXT NOT NULL,
        body TEXT NOT NULL
    );
    CREATE INDEX posts_by_calendar_time ON posts (calendar_utc);
    CREATE INDEX posts_by_scheduled_time ON posts (scheduled_utc);
    CREATE INDEX posts_by_status ON posts (status);
    CREATE TABLE post_accounts (
        post_id TEXT NOT NULL,
        account_id TEXT NOT NULL,
        PRIMARY KEY (post_id, account_id)
    ) WITHOUT ROWID;
    CREATE INDEX post_accounts_by_account ON post_accounts (account_id, post_id);
    CREATE TABLE post_labels (
        post_id TEXT NOT NULL,
        label_id TEXT NOT NULL,
        PRIMARY KEY (post_id, label_id)
    ) WITHOUT ROWID;
    CREATE INDEX post_labels_by_label ON post_labels (label_id, post_id);
    CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        position INTEGER NOT NULL,
        body TEXT NOT NULL
    );
    CREATE TABLE labels (
        id TEXT PRIMARY KEY,
        position INTEGER NOT NULL,
        body TEXT NOT NULL
    );
    CREATE TABLE sync_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 2: the calendar card of each post (app.calendar.post_card). Rows cached before it have
    # none; the reader builds theirs from the body until the next sync writes them.
    """
    ALTER TABLE posts ADD COLUMN card TEXT;
    """,
    # 3: the calendar reads its month from an index that holds everything it needs. Read from
    # the table, each card sits behind its post's body, whose overflow pages SQLite must walk
    # to reach it: 1,400 cards took ~14 ms to fetch, ~1 ms from this index.
    """
    CREATE INDEX posts_calendar_cards ON posts (calendar_utc, id, status, card);
    DROP INDEX posts_by_calendar_time;
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)


class SchemaTooNew(Exception):
    """The file was written by a newer Postdesk with a schema this version does not know."""


def schema_version(connection: sqlite3.Connection) -> int:
    return int(connection.execute("PRAGMA user_version").fetchone()[0])


def migrate(connection: sqlite3.Connection) -> int:
    """Bring the file to SCHEMA_VERSION; running it again does nothing. Returns the version.

    The connection must be in autocommit mode (`isolation_level=None`). The version is read again
    inside each write transaction, so two processes opening a new file at once do not both
    create the tables.
    """
    while True:
        connection.execute("BEGIN IMMEDIATE")
        try:
            version = schema_version(connection)
            if version > SCHEMA_VERSION:
                raise SchemaTooNew(
                    f"schema version {version}, this Postdesk knows {SCHEMA_VERSION}"
                )
            if version == SCHEMA_VERSION:
                connection.execute("COMMIT")
                return version
            for statement in _statements(MIGRATIONS[version]):
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {version + 1}")
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise


def _statements(script: str) -> list[str]:
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise ValueError(f"incomplete SQL statement in a migration: {buffer.strip()[:60]}")
    return statements
