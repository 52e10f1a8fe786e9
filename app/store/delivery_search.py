"""Search over every kept delivery (issue 17 §2): event, outcome, HTTP status class, a date
range and free text in the payload and the response body, over the whole archive, not only the
rows a table has loaded.

Free text uses an SQLite FTS5 index of each row's kept log (`body`: the payload as sent and the
response body), made on first use and then kept current by triggers. An SQLite built without
FTS5 cannot make it: the search then says so (`indexed` is False) and matches the words with
LIKE, which gives the same rows, only slower on a large archive.

The index refers to rows by their implicit `rowid`; nothing here runs VACUUM, which could
renumber them (should one ever run, `prepare(rebuild=True)` makes the index again).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from app.store.delivery_logs import KeptRow, LogDb, LogKey

STATUS_CLASSES = ("2xx", "3xx", "4xx", "5xx", "none")
"""`none`: no HTTP answer at all (a timeout, a refused connection, or not sent yet)."""
_INDEX = "delivery_logs_text"
_COLUMNS = (
    "l.webhook_id, l.id, l.created_utc, l.event_type, l.outcome, l.response_status, "
    "l.attempts, l.settled_utc, l.gap_below"
)
_MAKE_INDEX = (
    f"CREATE VIRTUAL TABLE IF NOT EXISTS {_INDEX} "
    "USING fts5(body, content='delivery_logs', content_rowid='rowid')",
    f"CREATE TRIGGER IF NOT EXISTS {_INDEX}_added AFTER INSERT ON delivery_logs BEGIN "
    f"INSERT INTO {_INDEX} (rowid, body) VALUES (new.rowid, new.body); END",
    f"CREATE TRIGGER IF NOT EXISTS {_INDEX}_removed AFTER DELETE ON delivery_logs BEGIN "
    f"INSERT INTO {_INDEX} ({_INDEX}, rowid, body) VALUES ('delete', old.rowid, old.body); END",
    f"CREATE TRIGGER IF NOT EXISTS {_INDEX}_changed AFTER UPDATE OF body ON delivery_logs "
    f"BEGIN INSERT INTO {_INDEX} ({_INDEX}, rowid, body) VALUES ('delete', old.rowid, old.body); "
    f"INSERT INTO {_INDEX} (rowid, body) VALUES (new.rowid, new.body); END",
)


@dataclass(frozen=True)
class LogQuery:
    webhook_id: str | None = None
    """None: every webhook kept, those deleted on the server included."""
    event: str = ""
    outcome: str = ""  # delivered, failed, queued
    status_class: str = ""  # one of STATUS_CLASSES
    since_utc: str = ""
    """Created at or after (a `created_utc` text); "" for no bound."""
    until_utc: str = ""
    """Created before; "" for no bound."""
    text: str = ""

    @property
    def words(self) -> list[str]:
        return self.text.split()

    @property
    def empty(self) -> bool:
        return not (
            self.event
            or self.outcome
            or self.status_class
            or self.since_utc
            or self.until_utc
            or self.words
        )


@dataclass(frozen=True, slots=True)
class SearchHit:
    webhook_id: str
    row: KeptRow


def fts5_available() -> bool:
    """Whether this Python's SQLite can make an FTS5 table."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.execute("CREATE VIRTUAL TABLE probe USING fts5(x)")
    except sqlite3.OperationalError:
        return False
    finally:
        connection.close()
    return True


def match_expression(words: list[str]) -> str:
    """Every word as a quoted phrase (so `post-12` or `a"b` are text, never FTS syntax)."""
    return " AND ".join('"' + word.replace('"', '""') + '"' for word in words)


class DeliverySearch:
    def __init__(self, db: LogDb) -> None:
        self.db = db
        self.indexed: bool | None = None
        """True once the FTS5 index exists; False when FTS5 is missing (LIKE is used)."""

    async def prepare(self, *, rebuild: bool = False) -> bool:
        """Make the text index if it is not there (filling it from the kept rows)."""
        if self.indexed is not None and not rebuild:
            return self.indexed
        if not fts5_available():
            self.indexed = False
            return False

        def work(connection: sqlite3.Connection) -> None:
            existed = connection.execute(
                "SELECT 1 FROM sqlite_master WHERE name = ?", (_INDEX,)
            ).fetchall()
            for statement in _MAKE_INDEX:
                connection.execute(statement)
            if rebuild or not existed:
                connection.execute(f"INSERT INTO {_INDEX} ({_INDEX}) VALUES ('rebuild')")

        await self.db.transaction(work)
        self.indexed = True
        return True

    def search(
        self, query: LogQuery, *, below: tuple[str, LogKey] | None = None, limit: int = 100
    ) -> list[SearchHit]:
        """Up to `limit` matching rows, newest first; `below`: (webhook id, key) of the last
        hit shown, for the next batch."""
        where: list[str] = []
        params: list[Any] = []
        if query.webhook_id is not None:
            where.append("l.webhook_id = ?")
            params.append(query.webhook_id)
        if query.event:
            where.append("l.event_type = ?")
            params.append(query.event)
        if query.outcome:
            where.append("l.outcome = ?")
            params.append(query.outcome)
        if query.status_class == "none":
            where.append("l.response_status IS NULL")
        elif query.status_class:
            first = int(query.status_class[0]) * 100
            where.append("l.response_status >= ? AND l.response_status < ?")
            params += [first, first + 100]
        if query.since_utc:
            where.append("l.created_utc >= ?")
            params.append(query.since_utc)
        if query.until_utc:
            where.append("l.created_utc < ?")
            params.append(query.until_utc)
        if below is not None:
            webhook_id, (created, log_id) = below
            where.append("(l.created_utc, l.id, l.webhook_id) < (?, ?, ?)")
            params += [created, log_id, webhook_id]
        words = query.words
        if words and self.indexed:
            where.append(f"l.rowid IN (SELECT rowid FROM {_INDEX} WHERE {_INDEX} MATCH ?)")
            params.append(match_expression(words))
        elif words:
            for word in words:
                where.append("l.body LIKE ? ESCAPE '\\'")
                escaped = word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
                params.append(f"%{escaped}%")
        clause = " AND ".join(where) or "1"
        found = self.db.read(
            f"SELECT {_COLUMNS} FROM delivery_logs l WHERE {clause} "
            "ORDER BY l.created_utc DESC, l.id DESC, l.webhook_id DESC LIMIT ?",
            [*params, limit],
        )
        return [
            SearchHit(
                row[0],
                KeptRow(row[1], row[2], row[3], row[4], row[5], row[6], row[7], bool(row[8])),
            )
            for row in found
        ]
