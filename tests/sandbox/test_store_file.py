"""The sandbox's `--db` file is opened and migrated like the app's own files
(`app/store/sqlite_file.py`): numbered steps, and files written before the steps existed
(`user_version` 0, tables already there) adopted once."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from app.sandbox.schema import SCHEMA, SCHEMA_VERSION, NewerSandboxFile
from app.sandbox.seed import seed
from app.sandbox.store import SandboxStore
from tests.fresh_process import ROOT

# A file of an early sandbox: some tables only, three columns and an index not there yet, and
# no `user_version`. Built with that sandbox's own way (CREATE, no numbered steps).
OLD_SCHEMA = """
CREATE TABLE IF NOT EXISTS workspaces (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    owner_user_id TEXT NOT NULL,
    timezone TEXT NOT NULL DEFAULT 'UTC',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS users (id TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS members (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id),
    role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
    PRIMARY KEY (workspace_id, user_id)
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
    created_at TEXT NOT NULL
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
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sandbox_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO users VALUES ('u1', 'Ada', 'ada@example.invalid');
INSERT INTO workspaces VALUES ('w1', 'Old shop', 'u1', 'UTC', '2026-01-02 03:04:05',
                               '2026-01-02 03:04:05');
INSERT INTO members VALUES ('w1', 'u1', 'admin');
INSERT INTO social_accounts (id, workspace_id, platform, display_name, username, created_at)
    VALUES ('a1', 'w1', 'mastodon', 'Old shop', 'oldshop', '2026-01-02 03:04:05');
INSERT INTO webhooks VALUES ('h1', 'w1', 'https://example.invalid/hook', '["post.published"]',
                             'enabled', 'secret', NULL, NULL, 0, '2026-01-02 03:04:05',
                             '2026-01-02 03:04:05');
INSERT INTO webhook_logs VALUES ('l1', 'h1', 'post.published', '{}', 'delivered', 200, 'ok',
                                 '2026-01-02 03:04:06', NULL, 1, '2026-01-02 03:04:06');
INSERT INTO sandbox_meta VALUES ('primary_workspace_id', 'w1');
"""


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def shape(path: Path) -> dict[str, object]:
    """Every table's columns (as a set: adopted columns come last) and every index's name."""
    with sqlite3.connect(path) as db:
        tables = [
            row[0]
            for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        found: dict[str, object] = {
            table: {tuple(row[1:]) for row in db.execute(f"PRAGMA table_info({table})")}
            for table in tables
        }
        found["indexes"] = {
            row[0]
            for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            )
        }
    return found


def old_file(path: Path) -> Path:
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SCHEMA)
    assert user_version(path) == 0
    return path


def test_a_new_file_is_created_at_the_latest_version(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    SandboxStore(path).close()
    assert user_version(path) == SCHEMA_VERSION
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    SandboxStore(path).close()  # again: nothing to do
    assert user_version(path) == SCHEMA_VERSION


def test_an_old_file_keeps_its_rows_gains_what_it_lacked_and_a_version(tmp_path: Path) -> None:
    path = old_file(tmp_path / "old.db")
    store = SandboxStore(path)
    try:
        assert store.primary_workspace_id == "w1"
        [account] = store.accounts()
        assert (account["id"], account["username"]) == ("a1", "oldshop")
        assert account["publish_failure"] is None  # a column it lacked
        assert [log["id"] for log in store.webhook_logs("h1")] == ["l1"]
        # tables it lacked work: posts for the old account, a new log with the newer columns
        assert len(store.insert_posts(2, account_id="a1")) == 2
        store.add_webhook_log("h1", outcome="queued")
        assert store.webhook_log_states("h1") == ["delivered", "queued"]
    finally:
        store.close()
    assert user_version(path) == SCHEMA_VERSION
    fresh = tmp_path / "fresh.db"
    SandboxStore(fresh).close()
    assert shape(path) == shape(fresh), "an adopted file ends as a new one starts"


def test_a_seeded_file_of_the_last_unnumbered_sandbox_is_adopted_as_is(tmp_path: Path) -> None:
    path = tmp_path / "seeded.db"
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA)  # what that sandbox ran on every open
    store = SandboxStore(path)
    seed(store, "demo", posts=20)
    posts, accounts = store.post_count(), store.accounts()
    store.close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 0")  # as that sandbox left it
    store = SandboxStore(path)
    try:
        assert store.post_count() == posts
        assert store.accounts() == accounts
    finally:
        store.close()
    assert user_version(path) == SCHEMA_VERSION


def test_two_openers_of_an_old_file_adopt_it_once(tmp_path: Path) -> None:
    path = old_file(tmp_path / "old.db")
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def open_it() -> None:
        try:
            start.wait()
            SandboxStore(path).close()
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []  # no "duplicate column" from a second adoption
    assert user_version(path) == SCHEMA_VERSION


def test_a_file_of_a_newer_sandbox_is_refused_and_left_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    SandboxStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        db.execute("INSERT INTO sandbox_meta VALUES ('written_by', 'a newer sandbox')")
    with pytest.raises(NewerSandboxFile, match="written by a newer sandbox"):
        SandboxStore(path)
    assert user_version(path) == SCHEMA_VERSION + 1
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM sandbox_meta").fetchall() == [("a newer sandbox",)]


def test_the_command_says_why_it_refuses_a_newer_file(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    SandboxStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")

    # With --exit-on-stdin-eof and no stdin, a sandbox that served after all would stop at once.
    command = ["-m", "app.sandbox", "--db", str(path), "--port", "0", "--exit-on-stdin-eof"]
    done = subprocess.run(
        [sys.executable, *command],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert done.returncode == 2
    assert done.stdout == ""  # no READY line
    assert f"{path}: this database file was written by a newer sandbox" in done.stderr
    assert "another --db file" in done.stderr
