"""The sandbox's SQLite store, shared by the HTTP routes and by tests arranging scenarios.

Uvicorn serves from one thread while tests read and write from another, so every access goes
through `tx()`, which holds one re-entrant lock for the duration of a transaction.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from app.sandbox import (
    accounts_repo,
    labels_repo,
    posts_repo,
    repurposes_repo,
    serializers,
    webhooks_repo,
)
from app.sandbox.clock import Clock, system_clock, to_db
from app.sandbox.db import Db, dumps, loads, new_id
from app.sandbox.networks import network
from app.sandbox.schema import STEPS, NewerSandboxFile, adopt_unnumbered
from app.sandbox.webhook_rules import EVENT_NAMES
from app.store import sqlite_file

PRAGMAS = ("journal_mode = WAL", "synchronous = NORMAL", "foreign_keys = ON")


@dataclass(frozen=True)
class OutboxEvent:
    id: int
    workspace_id: str
    post_id: str
    event_type: str
    payload: dict[str, Any]
    created_at: str
    dispatched_at: str | None


class SandboxStore:
    def __init__(self, db_path: Path, *, now: Clock | None = None) -> None:
        """Opens (or creates) the file and brings it to the latest schema; `NewerSandboxFile`
        when a newer sandbox wrote it."""
        self.clock: Clock = now or system_clock
        self.media_base_url = "http://127.0.0.1/storage"
        # Flip to make the audio search answer 502 as if Instagram failed upstream.
        self.audio_upstream_failing = False
        self.id_factory: Callable[[], str] = new_id
        self._lock = threading.RLock()
        self._depth = 0
        self._conn = sqlite_file.connect(db_path, PRAGMAS)
        try:
            sqlite_file.migrate(self._conn, STEPS, NewerSandboxFile, adopt_unnumbered)
        except BaseException:
            self._conn.close()
            raise
        self._conn.row_factory = sqlite3.Row

    # -- plumbing -------------------------------------------------------------------------

    @contextmanager
    def tx(self) -> Iterator[Db]:
        """One transaction; nested calls join the outer one."""
        with self._lock:
            db = Db(self._conn, self.clock, self.media_base_url, self.id_factory)
            if self._depth:
                self._depth += 1
                try:
                    yield db
                finally:
                    self._depth -= 1
                return
            self._conn.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield db
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            else:
                self._conn.execute("COMMIT")
            finally:
                self._depth = 0

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def get_meta(self, key: str) -> str | None:
        with self.tx() as db:
            value = db.scalar("SELECT value FROM sandbox_meta WHERE key = ?", (key,))
        return None if value is None else str(value)

    def set_meta(self, key: str, value: str) -> None:
        with self.tx() as db:
            db.run("INSERT OR REPLACE INTO sandbox_meta (key, value) VALUES (?, ?)", (key, value))

    @property
    def primary_workspace_id(self) -> str:
        value = self.get_meta("primary_workspace_id")
        if value is None:
            raise LookupError("the store has not been seeded")
        return value

    def _ws(self, workspace_id: str | None) -> str:
        return workspace_id or self.primary_workspace_id

    def _user(self, db: Db, workspace_id: str) -> str:
        return str(db.scalar("SELECT owner_user_id FROM workspaces WHERE id = ?", (workspace_id,)))

    # -- accounts -------------------------------------------------------------------------

    def accounts(self, workspace_id: str | None = None) -> list[dict[str, Any]]:
        with self.tx() as db:
            rows = accounts_repo.list_accounts(db, self._ws(workspace_id))
        return [dict(r) for r in rows]

    def account_id(self, platform: str, workspace_id: str | None = None) -> str:
        """The first account of `platform` in the workspace (seeded accounts come first)."""
        for account in self.accounts(workspace_id):
            if account["platform"] == platform:
                return str(account["id"])
        raise LookupError(f"no {platform} account in the workspace")

    def set_account(
        self,
        account_id: str,
        *,
        status: str | None = None,
        is_active: bool | None = None,
        publish_failure: str | None = None,
    ) -> None:
        """Change an account; `publish_failure` makes its network refuse every post with that
        message ("" clears it)."""
        changes: dict[str, Any] = {}
        if publish_failure is not None:
            changes["publish_failure"] = publish_failure or None
        if status is not None:
            changes["status"] = status
        if is_active is not None:
            changes["is_active"] = int(is_active)
        with self.tx() as db:
            db.update("social_accounts", account_id, changes)

    # -- posts ----------------------------------------------------------------------------

    def insert_posts(
        self,
        count: int,
        *,
        account_id: str | None = None,
        workspace_id: str | None = None,
        status: str = "draft",
        scheduled_at: datetime | None = None,
        spacing: timedelta = timedelta(hours=1),
        content: str = "Sandbox post {n}",
        label_ids: list[str] | None = None,
    ) -> list[str]:
        """Insert `count` posts quickly (no outbox events). With `scheduled_at`, post n is
        scheduled at `scheduled_at + n * spacing`."""
        ws = self._ws(workspace_id)
        with self.tx() as db:
            account_row = db.one(
                "SELECT * FROM social_accounts WHERE workspace_id = ? AND (id = ? OR ? IS NULL) "
                "ORDER BY rowid LIMIT 1",
                (ws, account_id, account_id),
            )
            if account_row is None:
                raise LookupError("no such account in the workspace")
            user_id = self._user(db, ws)
            content_type = network(account_row["platform"]).default_content_type
            ids = []
            for n in range(count):
                when = None if scheduled_at is None else to_db(scheduled_at + n * spacing)
                ids.append(
                    posts_repo.insert_post(
                        db,
                        posts_repo.NewPost(
                            workspace_id=ws,
                            user_id=user_id,
                            content=content.format(n=n),
                            status=status,
                            scheduled_at=when,
                            platforms=[posts_repo.NewPlatform(account_row, content_type)],
                            label_ids=list(label_ids or []),
                        ),
                    )
                )
        return ids

    def add_platform(self, post_id: str, account_id: str, *, enabled: bool = True) -> str:
        """Target one more account with an existing post (as the dashboard can); the new
        entry's id."""
        with self.tx() as db:
            account = db.one("SELECT * FROM social_accounts WHERE id = ?", (account_id,))
            if account is None:
                raise LookupError(account_id)
            position = db.scalar(
                "SELECT COUNT(*) FROM post_platforms WHERE post_id = ?", (post_id,)
            )
            entry_id = db.new_id()
            db.insert(
                "post_platforms",
                {
                    "id": entry_id,
                    "post_id": post_id,
                    "social_account_id": account_id,
                    "platform": account["platform"],
                    "content_type": network(account["platform"]).default_content_type,
                    "meta": "{}",
                    "enabled": int(enabled),
                    "display_name": account["display_name"],
                    "display_username": account["username"],
                    "display_avatar": account["avatar_url"],
                    "position": position,
                },
            )
        return entry_id

    def post(self, post_id: str) -> dict[str, Any] | None:
        """The post as `GET /posts/{id}` shows it, or None."""
        with self.tx() as db:
            bundles = posts_repo.load_bundles(db, [post_id])
            return serializers.post_rest(bundles[0], db.media_base_url) if bundles else None

    def post_count(self, workspace_id: str | None = None) -> int:
        with self.tx() as db:
            ws = self._ws(workspace_id)
            return int(db.scalar("SELECT COUNT(*) FROM posts WHERE workspace_id = ?", (ws,)))

    def set_post_status(
        self,
        post_id: str,
        status: str,
        *,
        error_message: str = "The network rejected the post.",
        record_event: bool = True,
    ) -> None:
        """Force a post into `status`, shaping its platform entries to match, and record the
        event that transition emits per §3 (a scenario arranger, not a publisher)."""
        with self.tx() as db:
            post = db.one("SELECT * FROM posts WHERE id = ?", (post_id,))
            if post is None:
                raise LookupError(post_id)
            now = db.now()
            changes: dict[str, Any] = {"status": status, "updated_at": now}
            if status == "scheduled" and post["scheduled_at"] is None:
                changes["scheduled_at"] = to_db(db.clock() + timedelta(hours=1))
            if status == "published":
                changes["published_at"] = now
            db.update("posts", post_id, changes)
            platforms = db.all(
                "SELECT id FROM post_platforms WHERE post_id = ? AND enabled = 1 ORDER BY position",
                (post_id,),
            )
            for index, platform in enumerate(platforms):
                succeeded = status == "published" or (
                    status == "partially_published" and index == 0
                )
                failed = status == "failed" or (status == "partially_published" and index > 0)
                if succeeded:
                    db.update(
                        "post_platforms",
                        platform["id"],
                        {
                            "status": "published",
                            "published_at": now,
                            "platform_post_id": new_id(),
                            "platform_url": f"https://social.example.invalid/p/{platform['id']}",
                            "error_message": None,
                        },
                    )
                elif failed:
                    db.update(
                        "post_platforms",
                        platform["id"],
                        {
                            "status": "failed",
                            "error_message": error_message,
                            "error_context": dumps({"code": "sandbox_failure"}),
                        },
                    )
                elif status == "publishing":
                    db.update("post_platforms", platform["id"], {"status": "publishing"})
                else:
                    db.update("post_platforms", platform["id"], {"status": "pending"})
            event = posts_repo.event_for_status_change(post["status"], status)
            if record_event and event is not None:
                posts_repo.record_event(db, post_id, event)

    def events(
        self, workspace_id: str | None = None, *, post_id: str | None = None
    ) -> list[OutboxEvent]:
        """Outbox rows, oldest first."""
        with self.tx() as db:
            rows = db.all(
                "SELECT * FROM events WHERE workspace_id = ? AND (post_id = ? OR ? IS NULL) "
                "ORDER BY id",
                (self._ws(workspace_id), post_id, post_id),
            )
        return [
            OutboxEvent(
                id=r["id"],
                workspace_id=r["workspace_id"],
                post_id=r["post_id"],
                event_type=r["event_type"],
                payload=loads(r["payload"]),
                created_at=r["created_at"],
                dispatched_at=r["dispatched_at"],
            )
            for r in rows
        ]

    # -- labels, signatures ---------------------------------------------------------------

    def create_label(self, name: str, color: str, workspace_id: str | None = None) -> str:
        with self.tx() as db:
            return labels_repo.create_label(db, self._ws(workspace_id), name, color)

    def create_signature(self, name: str, content: str, workspace_id: str | None = None) -> str:
        with self.tx() as db:
            return labels_repo.create_signature(db, self._ws(workspace_id), name, content)

    # -- webhooks -------------------------------------------------------------------------

    def create_webhook(
        self,
        endpoint: str,
        events: list[str] | None = None,
        *,
        status: str = "enabled",
        workspace_id: str | None = None,
    ) -> str:
        """Insert a webhook directly (no endpoint checks, any status)."""
        with self.tx() as db:
            return webhooks_repo.create_webhook(
                db, self._ws(workspace_id), endpoint, list(events or EVENT_NAMES), status
            )

    def webhook(self, webhook_id: str) -> dict[str, Any] | None:
        """The webhook as `GET /webhooks/{id}` shows it (with its secret), or None."""
        with self.tx() as db:
            row = webhooks_repo.get_webhook(db, webhook_id)
            return None if row is None else serializers.webhook(row, with_secret=True)

    def set_webhook_paused(self, webhook_id: str, failures: int = 5) -> None:
        """Put a webhook in the state the service leaves it in after `failures` failures."""
        with self.tx() as db:
            db.update(
                "webhooks",
                webhook_id,
                {"status": "paused", "paused_at": db.now(), "consecutive_failures": failures},
            )

    def add_webhook_log(
        self,
        webhook_id: str,
        *,
        event_type: str = "post.published",
        outcome: str = "delivered",
        response_status: int | None = None,
        response_body: str | None = None,
        attempts: int | None = None,
        created_at: datetime | None = None,
        data: dict[str, Any] | None = None,
    ) -> str:
        """Add a delivery log. `outcome`: delivered, failed, timeout (failed, no status) or
        queued."""
        state = "failed" if outcome == "timeout" else outcome
        if response_status is None and outcome == "delivered":
            response_status = 200
        if response_status is None and outcome == "failed":
            response_status = 500
        with self.tx() as db:
            created = db.now() if created_at is None else to_db(created_at)
            return webhooks_repo.insert_log(
                db,
                webhook_id,
                event_type,
                data if data is not None else {"id": new_id()},
                state=state,
                response_status=response_status,
                response_body=response_body,
                attempts=attempts if attempts is not None else (0 if state == "queued" else 1),
                created_at=created,
                finished_at=None if state == "queued" else created,
            )

    def webhook_log_states(self, webhook_id: str) -> list[str]:
        """`queued`, `delivered` or `failed` per log, oldest first."""
        with self.tx() as db:
            rows = db.all(
                "SELECT state FROM webhook_logs WHERE webhook_id = ? ORDER BY created_at, rowid",
                (webhook_id,),
            )
        return [r["state"] for r in rows]

    def webhook_logs(self, webhook_id: str) -> list[dict[str, Any]]:
        """Logs as the API shows them, newest first."""
        with self.tx() as db:
            rows, _ = webhooks_repo.page_of_logs(db, webhook_id, 1, 1_000_000)
        return [serializers.webhook_log(r) for r in rows]

    # -- repurposes -----------------------------------------------------------------------

    def create_repurpose(
        self,
        name: str = "Instagram to TikTok",
        *,
        source_platform: str = "instagram",
        source_username: str = "northwind.coffee",
        destination_account_ids: list[str] | None = None,
        workspace_id: str | None = None,
    ) -> str:
        with self.tx() as db:
            return repurposes_repo.create_repurpose(
                db,
                self._ws(workspace_id),
                name,
                source_platform,
                source_username,
                list(destination_account_ids or []),
            )

    def add_repurpose_item(
        self,
        repurpose_id: str,
        *,
        status: str = "published",
        reason: str | None = None,
        error: str | None = None,
        source_created_at: datetime | None = None,
        created_at: datetime | None = None,
        post_ids: list[str] | None = None,
        source_media_id: str | None = None,
    ) -> str:
        with self.tx() as db:
            return repurposes_repo.add_item(
                db,
                repurpose_id,
                source_media_id=source_media_id or f"{secrets.randbelow(10**17):017d}",
                status=status,
                reason=reason,
                error=error,
                source_permalink=None,
                source_created_at=None if source_created_at is None else to_db(source_created_at),
                post_ids=post_ids,
                created_at=None if created_at is None else to_db(created_at),
            )

    # -- audio ----------------------------------------------------------------------------

    def audio_lookup_count(self, workspace_id: str | None = None) -> int:
        """Uncached audio lookups recorded for the workspace (all time)."""
        with self.tx() as db:
            ws = self._ws(workspace_id)
            return int(
                db.scalar("SELECT COUNT(*) FROM audio_lookups WHERE workspace_id = ?", (ws,))
            )
