"""Schema of the durable local file (drafts, outbox, kept webhook delivery logs): one step per
version, append only.

Unlike the cache, this file holds what the user wrote, so it is never rebuilt: a file whose
`user_version` is newer than `LOCAL_SCHEMA_VERSION` is refused (a downgrade must not destroy it).
"""

from __future__ import annotations

LOCAL_MIGRATIONS: tuple[str, ...] = (
    # 1: drafts and the outbox.
    """
    CREATE TABLE drafts (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        document TEXT NOT NULL,
        search_text TEXT NOT NULL,
        revision INTEGER NOT NULL,
        created_utc TEXT NOT NULL,
        updated_utc TEXT NOT NULL,
        server_post_id TEXT,
        server_version TEXT,
        conflict_of TEXT,
        deleted_utc TEXT
    );
    CREATE INDEX drafts_by_update ON drafts (deleted_utc, updated_utc);
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        draft_id TEXT,
        request TEXT NOT NULL,
        summary TEXT NOT NULL,
        scheduled_utc TEXT,
        state TEXT NOT NULL,
        reason TEXT,
        post_ids TEXT NOT NULL DEFAULT '[]',
        attempts INTEGER NOT NULL DEFAULT 0,
        sent_utc TEXT,
        check_after_utc TEXT,
        source_key TEXT,
        created_utc TEXT NOT NULL,
        updated_utc TEXT NOT NULL
    );
    CREATE INDEX outbox_by_state ON outbox (state, id);
    CREATE UNIQUE INDEX outbox_by_source ON outbox (source_key) WHERE source_key IS NOT NULL;
    """,
    # 2: the server's field errors of a refused batch, so the composer can mark the fields.
    """
    ALTER TABLE outbox ADD COLUMN field_errors TEXT NOT NULL DEFAULT '{}';
    """,
    # 3: webhook delivery logs read from the server (`delivery_logs.py`): the service keeps
    # them 7 days, so after that the rows kept here are the only copy.
    """
    CREATE TABLE delivery_logs (
        webhook_id TEXT NOT NULL,
        id TEXT NOT NULL,
        created_utc TEXT NOT NULL,
        event_type TEXT,
        outcome TEXT NOT NULL,
        response_status INTEGER,
        attempts INTEGER NOT NULL,
        settled_utc TEXT,
        undecided INTEGER NOT NULL,
        undecided_since TEXT,
        gap_below INTEGER NOT NULL DEFAULT 0,
        created_s INTEGER NOT NULL,
        settle_ms REAL,
        body TEXT NOT NULL,
        PRIMARY KEY (webhook_id, id)
    );
    CREATE INDEX delivery_logs_in_order ON delivery_logs (webhook_id, created_utc, id);
    CREATE INDEX delivery_logs_gaps ON delivery_logs (webhook_id, created_utc, id)
        WHERE gap_below = 1;
    CREATE INDEX delivery_logs_chart
        ON delivery_logs (webhook_id, created_utc, outcome, created_s, settle_ms);
    CREATE TABLE delivery_log_sources (
        webhook_id TEXT PRIMARY KEY,
        total INTEGER,
        head_total INTEGER,
        read_utc TEXT NOT NULL
    );
    """,
    # 4: the delivery archive (issue 17): a webhook deleted on the server keeps its rows until
    # the user removes them (`gone_utc`, its `endpoint` to name it by); the user's retention;
    # bulk replays, one row per delivery recorded before it is asked (at most once each).
    """
    ALTER TABLE delivery_log_sources ADD COLUMN gone_utc TEXT;
    ALTER TABLE delivery_log_sources ADD COLUMN endpoint TEXT;
    CREATE TABLE delivery_archive_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE delivery_replays (
        webhook_id TEXT NOT NULL,
        log_id TEXT NOT NULL,
        batch TEXT NOT NULL,
        state TEXT NOT NULL,
        asked_utc TEXT,
        detail TEXT,
        PRIMARY KEY (webhook_id, log_id, batch)
    );
    """,
)

LOCAL_SCHEMA_VERSION = len(LOCAL_MIGRATIONS)
