"""SQLite schema of the sandbox. Instants are naive UTC `YYYY-MM-DD HH:MM:SS` text (see clock.py).

JSON-valued columns hold compact JSON text. `rowid` breaks ties between rows created within the
same second, so orderings stay deterministic.

Migrated by numbered steps (`STEPS`, through `app/store/sqlite_file.py`, like the app's own
files): append a step, never edit one that has shipped. Files written before the steps existed
carry `user_version` 0 with their tables already there; `adopt_unnumbered` brings them to step
1's shape once (missing columns added, missing tables and indexes created) and they continue
from there. That is why step 1 says `IF NOT EXISTS`: adoption runs it over such a file.
"""

from __future__ import annotations

import sqlite3

from app.store.sqlite_file import split_statements

SCHEMA = """
CREATE TABLE IF NOT EXISTS workspaces (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    owner_user_id TEXT NOT NULL,
    timezone TEXT NOT NULL DEFAULT 'UTC',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS members (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id),
    role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
    PRIMARY KEY (workspace_id, user_id)
);
CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    token_sha256 TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL REFERENCES users(id),
    workspace_id TEXT REFERENCES workspaces(id) ON DELETE SET NULL,
    name TEXT NOT NULL,
    expires_at TEXT,
    revoked_at TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS social_accounts (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    display_name TEXT NOT NULL,
    username TEXT NOT NULL,
    avatar_url TEXT,
    is_active INTEGER NOT NULL DEFAULT 1,
    status TEXT NOT NULL DEFAULT 'connected',
    timezone TEXT NOT NULL DEFAULT 'UTC',
    has_posting_schedule INTEGER NOT NULL DEFAULT 1,
    posting_goal INTEGER NOT NULL DEFAULT 0,
    max_content_length INTEGER NOT NULL DEFAULT 5000,
    long_posts INTEGER NOT NULL DEFAULT 0,
    verified_badge TEXT,
    queue_slots TEXT NOT NULL DEFAULT '[]',
    boards TEXT NOT NULL DEFAULT '[]',
    channels TEXT NOT NULL DEFAULT '[]',
    publish_failure TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS social_accounts_ws ON social_accounts (workspace_id, platform);
CREATE TABLE IF NOT EXISTS blobs (
    id TEXT PRIMARY KEY,
    mime_type TEXT NOT NULL,
    data BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS uploads (
    token TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    blob_id TEXT REFERENCES blobs(id),
    type TEXT NOT NULL,
    mime_type TEXT NOT NULL,
    original_filename TEXT NOT NULL,
    size INTEGER NOT NULL,
    extension TEXT NOT NULL,
    meta TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS posts (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    user_id TEXT REFERENCES users(id),
    post_group_id TEXT,
    content TEXT,
    status TEXT NOT NULL,
    schedule_mode TEXT,
    scheduled_at TEXT,
    published_at TEXT,
    created_via TEXT,
    origin TEXT,
    recurrence TEXT,
    approval_requested_by TEXT,
    approval_requested_at TEXT,
    approved_by TEXT,
    approved_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS posts_listing
    ON posts (workspace_id, scheduled_at IS NULL, scheduled_at DESC, created_at DESC);
CREATE TABLE IF NOT EXISTS post_platforms (
    id TEXT PRIMARY KEY,
    post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    social_account_id TEXT REFERENCES social_accounts(id) ON DELETE SET NULL,
    platform TEXT NOT NULL,
    content_type TEXT NOT NULL,
    meta TEXT,
    status TEXT NOT NULL DEFAULT 'pending',
    enabled INTEGER NOT NULL DEFAULT 1,
    platform_post_id TEXT,
    platform_url TEXT,
    published_at TEXT,
    error_message TEXT,
    error_context TEXT,
    display_name TEXT,
    display_username TEXT,
    display_avatar TEXT,
    position INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS post_platforms_post ON post_platforms (post_id, position);
CREATE INDEX IF NOT EXISTS post_platforms_account ON post_platforms (social_account_id);
CREATE TABLE IF NOT EXISTS media (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    post_id TEXT REFERENCES posts(id) ON DELETE CASCADE,
    blob_id TEXT REFERENCES blobs(id),
    path TEXT NOT NULL,
    type TEXT,
    mime_type TEXT NOT NULL,
    original_filename TEXT NOT NULL,
    size INTEGER,
    meta TEXT NOT NULL DEFAULT '{}',
    source TEXT,
    source_meta TEXT,
    position INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS media_post ON media (post_id, position);
CREATE TABLE IF NOT EXISTS labels (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    color TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS post_labels (
    post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    label_id TEXT NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
    position INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (post_id, label_id)
);
CREATE INDEX IF NOT EXISTS post_labels_label ON post_labels (label_id);
CREATE TABLE IF NOT EXISTS signatures (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS webhooks (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    endpoint TEXT NOT NULL,
    events TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('enabled', 'disabled', 'paused')),
    signing_secret TEXT NOT NULL,
    last_sent_at TEXT,
    paused_at TEXT,
    consecutive_failures INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS webhook_logs (
    id TEXT PRIMARY KEY,
    webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event_type TEXT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('queued', 'delivered', 'failed')),
    response_status INTEGER,
    response_body TEXT,
    delivered_at TEXT,
    failed_at TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    next_attempt_at TEXT,
    replay INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS webhook_logs_listing ON webhook_logs (webhook_id, created_at DESC);
CREATE TABLE IF NOT EXISTS repurposes (
    id TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    source_platform TEXT NOT NULL,
    source_username TEXT NOT NULL,
    destination_account_ids TEXT NOT NULL DEFAULT '[]',
    is_active INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS repurpose_items (
    id TEXT PRIMARY KEY,
    repurpose_id TEXT NOT NULL REFERENCES repurposes(id) ON DELETE CASCADE,
    source_media_id TEXT NOT NULL,
    source_permalink TEXT,
    source_created_at TEXT,
    status TEXT NOT NULL,
    reason TEXT,
    error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS repurpose_items_listing
    ON repurpose_items (repurpose_id, COALESCE(source_created_at, created_at) DESC);
CREATE TABLE IF NOT EXISTS repurpose_item_posts (
    item_id TEXT NOT NULL REFERENCES repurpose_items(id) ON DELETE CASCADE,
    post_id TEXT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (item_id, post_id)
);
CREATE TABLE IF NOT EXISTS audio_assets (
    id TEXT PRIMARY KEY CHECK (id GLOB '[0-9]*'),
    type TEXT NOT NULL CHECK (type IN ('music', 'original_sound')),
    title TEXT NOT NULL,
    artist TEXT,
    cover_path TEXT,
    preview_path TEXT,
    duration_ms INTEGER,
    popularity INTEGER NOT NULL,
    trending_rank INTEGER
);
CREATE TABLE IF NOT EXISTS audio_cache (
    account_id TEXT NOT NULL,
    type TEXT NOT NULL,
    q TEXT NOT NULL,
    response TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    PRIMARY KEY (account_id, type, q)
);
CREATE TABLE IF NOT EXISTS audio_lookups (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audio_lookups_ws ON audio_lookups (workspace_id, at);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id TEXT NOT NULL,
    post_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at TEXT NOT NULL,
    dispatched_at TEXT
);
CREATE INDEX IF NOT EXISTS events_pending ON events (dispatched_at, id);
CREATE TABLE IF NOT EXISTS lookup_hits (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS lookup_hits_user ON lookup_hits (user_id, at);
CREATE TABLE IF NOT EXISTS sandbox_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""

# Columns that files written before the numbered steps may lack (they were added one by one
# while each open diffed `PRAGMA table_info`); adoption adds them before step 1's indexes.
ADDED_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("social_accounts", "publish_failure", "TEXT"),
    ("webhook_logs", "next_attempt_at", "TEXT"),
    ("webhook_logs", "replay", "INTEGER NOT NULL DEFAULT 0"),
)
# Last in step 1: in an adopted file the column it indexes exists only once ADDED_COLUMNS ran.
LATE_INDEXES = """
CREATE INDEX IF NOT EXISTS webhook_logs_due ON webhook_logs (next_attempt_at);
"""

# The posts list's order (`posts_repo.page_of_ids`) ends in `rowid DESC`; the first index
# stored `rowid` ascending, so SQLite sorted each page's run of rows again and stepped through
# OFFSET rows doing so (~1 ms for page 100 of 200). Declared the other way round and read
# backwards, the index gives that exact order: ~0.08 ms.
LIST_ORDER_INDEX = """
DROP INDEX IF EXISTS posts_listing;
CREATE INDEX IF NOT EXISTS posts_list_order
    ON posts (workspace_id, scheduled_at IS NULL DESC, scheduled_at, created_at);
"""

STEPS: tuple[str, ...] = (
    # 1: every table as the sandbox had them when files started carrying a version.
    SCHEMA + LATE_INDEXES,
    # 2: the posts list read in index order.
    LIST_ORDER_INDEX,
)
SCHEMA_VERSION = len(STEPS)


class NewerSandboxFile(Exception):
    """The `--db` file was written by a newer sandbox; it is left as it is."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(
            f"this database file was written by a newer sandbox (schema version {found}; "
            f"this one knows up to {known}); it was left unchanged. Use a newer sandbox, or "
            "another --db file."
        )


def adopt_unnumbered(connection: sqlite3.Connection) -> int:
    """A file at version 0 with tables in it was written before the numbered steps: give it
    the columns it lacks, then run step 1 (only what is missing is created) and call it 1. An
    empty file returns 0 and is built by step 1 like any new one."""
    tables = {
        row[0]
        for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    }
    if not tables:
        return 0
    for table, column, declaration in ADDED_COLUMNS:
        if table not in tables:
            continue  # step 1 creates it whole
        present = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
        if column not in present:
            connection.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")
    for statement in split_statements(STEPS[0]):
        connection.execute(statement)
    return 1
