"""Schema of a workspace cache file, versioned with `PRAGMA user_version`.

Each entry of MIGRATIONS moves the file one version up in its own transaction
(`app.store.sqlite_file`). Append new steps; never edit a step that has shipped.
"""

from __future__ import annotations

import sqlite3

from app.store import sqlite_file
from app.store.sqlite_file import schema_version

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "SchemaTooNew", "migrate", "schema_version"]

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
    # 4: times in the one stored form of `app.store.utc_text` (`2026-10-25T00:30:00.000000Z`,
    # the local file's), not `2026-10-25 00:30:00.000000`. Every row changes alike, so text
    # order is still time order.
    """
    UPDATE posts SET scheduled_utc = replace(scheduled_utc, ' ', 'T') || 'Z'
        WHERE scheduled_utc GLOB '????-??-?? *';
    UPDATE posts SET calendar_utc = replace(calendar_utc, ' ', 'T') || 'Z'
        WHERE calendar_utc GLOB '????-??-?? *';
    UPDATE posts SET created_utc = replace(created_utc, ' ', 'T') || 'Z'
        WHERE created_utc GLOB '????-??-?? *';
    UPDATE sync_meta SET value = replace(value, ' ', 'T') || 'Z'
        WHERE key IN ('last_sync_at', 'last_full_sync_at', 'open_since')
        AND value GLOB '????-??-?? *';
    """,
    # 5: every calendar card in the one kind the reader knows (`app.calendar.post_card`, a JSON
    # array, version 3). Object cards (versions 1 and 2) become arrays here, once, so no
    # start after an upgrade decodes bodies with pydantic before its first paint; a card that
    # is neither is dropped, and the reader builds it from the body until a sync writes it.
    """
    UPDATE posts SET card = json_array(
            3, json_extract(card, '$.id'), json_extract(card, '$.status'),
            json_extract(card, '$.at'), json_extract(card, '$.out'),
            json_extract(card, '$.summary'), json_extract(card, '$.platform'),
            json_extract(card, '$.account'), json(json_extract(card, '$.networks')),
            json(json_extract(card, '$.accounts')), json(json_extract(card, '$.labels')))
        WHERE json_valid(card) AND json_extract(card, '$.v') IN (1, 2)
        AND json_type(card, '$.id') = 'text' AND json_type(card, '$.status') = 'text'
        AND json_type(card, '$.summary') = 'text' AND json_type(card, '$.account') = 'text'
        AND json_type(card, '$.networks') = 'array' AND json_type(card, '$.accounts') = 'array'
        AND json_type(card, '$.labels') = 'array';
    UPDATE posts SET card = NULL WHERE card NOT GLOB '[[]3,*';
    """,
    # 6: cards of version 4 end with the post's first image (`thumb_url_of` in
    # `app.calendar.post_card`: the first media item typed `image`, or untyped with an image
    # MIME type, whose URL is http(s)), found here in the stored body, so an upgraded cache
    # shows thumbnails at its first paint, before any sync. A body that is not JSON gives none.
    """
    UPDATE posts SET card = json_insert(json_replace(card, '$[0]', 4), '$[#]', (
            SELECT CASE WHEN m.type = 'object' THEN json_extract(m.value, '$.url') END
            FROM json_each(CASE WHEN json_valid(posts.body)
                AND json_type(posts.body, '$.media') = 'array' THEN posts.body ELSE '[]' END,
                CASE WHEN json_valid(posts.body)
                AND json_type(posts.body, '$.media') = 'array' THEN '$.media' ELSE '$' END) AS m
            WHERE CASE WHEN m.type <> 'object' THEN 0
                WHEN json_type(m.value, '$.url') IS NOT 'text' THEN 0
                WHEN NOT (lower(substr(json_extract(m.value, '$.url'), 1, 8)) GLOB 'http://*'
                    OR lower(substr(json_extract(m.value, '$.url'), 1, 8)) GLOB 'https://*') THEN 0
                WHEN json_type(m.value, '$.type') IN ('null') OR json_type(m.value, '$.type')
                    IS NULL THEN lower(coalesce(json_extract(m.value, '$.mime_type'), ''))
                    GLOB 'image/*' AND json_type(m.value, '$.mime_type') = 'text'
                ELSE json_extract(m.value, '$.type') IS 'image' END
            ORDER BY m.key LIMIT 1))
        WHERE card GLOB '[[]3,*' AND json_valid(card) AND json_array_length(card) = 11;
    UPDATE posts SET card = NULL WHERE card NOT GLOB '[[]4,*';
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)


class SchemaTooNew(Exception):
    """The file was written by a newer Postdesk with a schema this version does not know."""


def migrate(connection: sqlite3.Connection) -> int:
    """Bring the file to SCHEMA_VERSION (see `app.store.sqlite_file.migrate`)."""
    return sqlite_file.migrate(connection, MIGRATIONS, _too_new)


def _too_new(version: int, known: int) -> SchemaTooNew:
    return SchemaTooNew(f"schema version {version}, this Postdesk knows {known}")
