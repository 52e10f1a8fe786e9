"""The local copy of one workspace: posts, accounts and labels in SQLite (WAL).

The calendar paints from here at start, before the network answers. Every write method returns
whether the cached data changed, so the UI repaints only when there is something new. See
README.md next to this file for the sync rules.

Threads: reads and writes use separate connections, each behind its own lock, so the sync can
write a large refresh in a worker thread while the UI thread keeps reading (WAL readers see the
last committed state and never wait for the writer).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from app.calendar.post_card import (
    AccountChoice,
    CardLabel,
    PostCard,
    StaleCard,
    account_choice_from_json,
    card_from_json,
    card_of,
    label_from_json,
)
from app.store.post_codec import (
    PostRow,
    decode_post,
    dump_model,
    encode_post,
    load_account,
    load_label,
    utc_from_text,
    utc_text,
)
from app.store.schema import SchemaTooNew, migrate
from app.workspaces.profiles import move_aside

if TYPE_CHECKING:
    from app.models import Label, Post, SocialAccountSummary

log = logging.getLogger(__name__)

_SQLITE_BUSY = 5
_SQLITE_LOCKED = 6
_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26
_LAST_SYNC = "last_sync_at"
_LAST_FULL_SYNC = "last_full_sync_at"


class CacheError(Exception):
    """The cache file cannot be opened or written at all (permissions, disk full, locked)."""


@dataclass(frozen=True)
class CacheReset:
    """A damaged cache file was moved aside at open and an empty one started in its place."""

    moved_to: Path
    reason: str

    @property
    def message(self) -> str:
        return (
            "The local copy of this workspace was damaged and has been set aside "
            f"({self.moved_to.name}). Postdesk starts with an empty copy and downloads "
            "everything again; nothing on the server is affected."
        )


RefreshMark = int
"""Taken with `begin_refresh()` before a refresh reads the server; see `replace_all_posts`."""


class WorkspaceCache:
    def __init__(self, path: Path) -> None:
        self._path = path
        self._write_lock = threading.Lock()
        self._read_lock = threading.Lock()
        # Posts changed by the user while a refresh is in flight: id -> sequence number.
        self._local_edits: dict[str, int] = {}
        self._sequence = 0
        # Cards read before, by their JSON: a reload after a sync mostly reads unchanged posts,
        # and parsing 1,000+ cards again is most of its cost.
        self._card_memo: dict[str, PostCard] = {}
        self.reset: CacheReset | None = None
        self._writer, self._reader = self._open()

    @property
    def path(self) -> Path:
        return self._path

    def __repr__(self) -> str:
        return f"WorkspaceCache({self._path})"

    def __enter__(self) -> WorkspaceCache:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        with self._write_lock, self._read_lock:
            self._reader.close()
            self._writer.close()

    # -- opening -------------------------------------------------------------------------------

    def _open(self) -> tuple[sqlite3.Connection, sqlite3.Connection]:
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CacheError(
                f"Cannot create the folder for the local cache {self._path.parent}: "
                f"{exc.strerror or exc}."
            ) from None
        try:
            return self._open_checked()
        except (sqlite3.DatabaseError, SchemaTooNew) as exc:
            if not _is_damage(exc):
                busy = _error_code(exc) in (_SQLITE_BUSY, _SQLITE_LOCKED)
                advice = " Is Postdesk already running with this workspace?" if busy else ""
                raise CacheError(
                    f"Cannot open the local cache {self._path}: {exc}.{advice}"
                ) from None
            reason = str(exc)
        try:
            moved = move_aside(self._path)
        except OSError as exc:
            raise CacheError(
                f"The local cache {self._path} is damaged and cannot be moved aside: "
                f"{exc.strerror or exc}."
            ) from None
        self.reset = CacheReset(moved_to=moved, reason=reason)
        log.warning("cache %s was unreadable (%s); moved to %s", self._path, reason, moved)
        try:
            return self._open_checked()
        except sqlite3.DatabaseError as exc:
            raise CacheError(f"Cannot create the local cache {self._path}: {exc}.") from None

    def _open_checked(self) -> tuple[sqlite3.Connection, sqlite3.Connection]:
        writer = _connect(self._path)
        try:
            mode = writer.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise CacheError(f"The local cache {self._path} cannot use WAL mode ({mode}).")
            migrate(writer)
            problems = [row[0] for row in writer.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise _Damaged("; ".join(str(problem) for problem in problems[:3]))
            reader = _connect(self._path)
        except BaseException:
            writer.close()
            raise
        return writer, reader

    # -- refresh bookkeeping -------------------------------------------------------------------

    def begin_refresh(self) -> RefreshMark:
        """Call before reading the server; pass the mark as `since=` when storing the result.

        Posts the user changes (upsert_post/delete_post) after the mark are left alone by that
        refresh, whose data was read before the change and is older than what the cache holds.
        One refresh at a time: the mark also retires the edits recorded before it.
        """
        with self._write_lock:
            return self._sequence

    def _protected(self, since: RefreshMark | None) -> set[str]:
        if since is None:
            return set()
        return {post_id for post_id, number in self._local_edits.items() if number > since}

    def _retire_edits(self, since: RefreshMark | None) -> None:
        if since is not None:
            self._local_edits = {
                post_id: number for post_id, number in self._local_edits.items() if number > since
            }

    def _note_local_edit(self, post_id: str) -> None:
        self._sequence += 1
        self._local_edits[post_id] = self._sequence

    # -- writes --------------------------------------------------------------------------------

    def replace_all_posts(self, posts: Sequence[Post], *, since: RefreshMark | None = None) -> bool:
        """Full refresh: the cache holds exactly `posts` afterwards (one transaction)."""
        rows = _encode_unique(posts)
        with self._transaction() as db:
            changed = self._replace_posts(db, rows, since)
            self._stamp(db, full=True)
            self._retire_edits(since)
        return changed

    def store_full_refresh(
        self,
        accounts: Sequence[SocialAccountSummary],
        labels: Sequence[Label],
        posts: Sequence[Post] | Mapping[str, PostRow],
        *,
        since: RefreshMark | None = None,
    ) -> bool:
        """Accounts, labels and all posts in one transaction: all of it lands, or none.

        `posts` may come already encoded (`encode_posts`), as the sync does page by page.
        """
        rows = dict(posts) if isinstance(posts, Mapping) else _encode_unique(posts)
        account_bodies = [(item.id, dump_model(item)) for item in accounts]
        label_bodies = [(item.id, dump_model(item)) for item in labels]
        with self._transaction() as db:
            changed = _replace_list(db, "accounts", account_bodies)
            changed = _replace_list(db, "labels", label_bodies) or changed
            changed = self._replace_posts(db, rows, since) or changed
            self._stamp(db, full=True)
            self._retire_edits(since)
        return changed

    def merge_first_pages(
        self,
        posts: Sequence[Post],
        *,
        reached_end: bool = False,
        prune: bool = True,
        since: RefreshMark | None = None,
        checked: Sequence[Post] = (),
    ) -> bool:
        """Light refresh with the first pages of `/posts` (ordered by scheduled_at, newest first).

        Every post read is stored. A cached post missing from the pages is dropped when the pages
        must have contained it: its scheduled_at is later than the earliest scheduled_at read
        (equal times may continue on the next page, so they are kept), or `reached_end` says the
        pages were the whole list. Posts without scheduled_at are only dropped in the latter
        case, since the spec does not say where the server lists them. `prune=False` only
        stores, for pages read while the list was changing. `checked` are posts of
        `window_misses` that were read one by one and still exist (e.g. rescheduled to an
        earlier time): they are stored and kept, and do not widen the window.
        """
        rows = _encode_unique(posts)
        extra = _encode_unique(checked)
        with self._transaction() as db:
            protected = self._protected(since)
            changed = self._upsert_rows(db, {**rows, **extra}, protected)
            stale = self._misses(db, rows, reached_end) if prune else set()
            changed = _delete_posts(db, stale - extra.keys() - protected) or changed
            self._stamp(db, full=False)
            self._retire_edits(since)
        return changed

    def window_misses(self, posts: Sequence[Post], *, reached_end: bool = False) -> set[str]:
        """Ids that `merge_first_pages(posts)` would drop, so that the sync can first check
        them one by one: missing from the pages can also mean rescheduled to an earlier time."""
        rows = _encode_unique(posts)
        with self._read_lock:
            return self._misses(self._reader, rows, reached_end)

    @staticmethod
    def _misses(db: sqlite3.Connection, rows: dict[str, PostRow], reached_end: bool) -> set[str]:
        if reached_end:
            return _all_ids(db) - rows.keys()
        return _ids_scheduled_after(db, _earliest_schedule(rows.values())) - rows.keys()

    def upsert_post(self, post: Post) -> bool:
        """Store the server's answer to a user action (create, edit, reschedule...)."""
        row = encode_post(post)
        with self._transaction() as db:
            self._note_local_edit(post.id)
            return self._upsert_rows(db, {row.id: row}, set())

    def delete_post(self, post_id: str) -> bool:
        with self._transaction() as db:
            self._note_local_edit(post_id)
            return _delete_posts(db, {post_id})

    def set_accounts(self, accounts: Sequence[SocialAccountSummary]) -> bool:
        bodies = [(item.id, dump_model(item)) for item in accounts]
        with self._transaction() as db:
            return _replace_list(db, "accounts", bodies)

    def set_labels(self, labels: Sequence[Label]) -> bool:
        bodies = [(item.id, dump_model(item)) for item in labels]
        with self._transaction() as db:
            return _replace_list(db, "labels", bodies)

    def _replace_posts(
        self, db: sqlite3.Connection, rows: dict[str, PostRow], since: RefreshMark | None
    ) -> bool:
        protected = self._protected(since)
        changed = self._upsert_rows(db, rows, protected)
        stale = _all_ids(db) - rows.keys() - protected
        return _delete_posts(db, stale) or changed

    def _upsert_rows(
        self, db: sqlite3.Connection, rows: dict[str, PostRow], protected: set[str]
    ) -> bool:
        wanted = {post_id: row for post_id, row in rows.items() if post_id not in protected}
        self._remember_cards(wanted.values())
        current = _stored(db, wanted.keys())
        changed = [r for post_id, r in wanted.items() if current.get(post_id) != (r.body, r.card)]
        if not changed:
            return False
        db.executemany(
            """
            INSERT INTO posts (id, scheduled_utc, calendar_utc, created_utc, status, body, card)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET
                scheduled_utc = excluded.scheduled_utc, calendar_utc = excluded.calendar_utc,
                created_utc = excluded.created_utc, status = excluded.status, body = excluded.body,
                card = excluded.card
            """,
            [
                (r.id, r.scheduled_utc, r.calendar_utc, r.created_utc, r.status, r.body, r.card)
                for r in changed
            ],
        )
        ids = [(row.id,) for row in changed]
        db.executemany("DELETE FROM post_accounts WHERE post_id = ?", ids)
        db.executemany("DELETE FROM post_labels WHERE post_id = ?", ids)
        db.executemany(
            "INSERT INTO post_accounts (post_id, account_id) VALUES (?, ?)",
            [(row.id, account) for row in changed for account in row.account_ids],
        )
        db.executemany(
            "INSERT INTO post_labels (post_id, label_id) VALUES (?, ?)",
            [(row.id, label) for row in changed for label in row.label_ids],
        )
        return True

    def _stamp(self, db: sqlite3.Connection, *, full: bool) -> None:
        now = utc_text(datetime.now(UTC))
        keys = [_LAST_SYNC, _LAST_FULL_SYNC] if full else [_LAST_SYNC]
        db.executemany(
            "INSERT INTO sync_meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [(key, now) for key in keys],
        )

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._write_lock:
            db = self._writer
            try:
                db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise CacheError(f"Cannot write to the local cache: {exc}.") from None
            try:
                yield db
                db.execute("COMMIT")
            except sqlite3.Error as exc:
                _rollback(db)
                raise CacheError(f"Cannot write to the local cache: {exc}.") from None
            except BaseException:
                _rollback(db)
                raise

    # -- reads ---------------------------------------------------------------------------------

    def posts_between(
        self,
        start: datetime,
        end: datetime,
        *,
        account_ids: Iterable[str] | None = None,
        label_ids: Iterable[str] | None = None,
        statuses: Iterable[str] | None = None,
    ) -> list[Post]:
        """Posts whose calendar time is in [start, end), earliest first.

        The calendar time is scheduled_at, or published_at for a post published without a
        schedule. `start`/`end` must be aware; any zone works (a month in Europe/Berlin is
        simply its two local midnights). Filters, when given, keep posts that match any of the
        listed accounts / labels / statuses.
        """
        sql, params = _between("body", start, end, account_ids, label_ids, statuses)
        return [decode_post(body) for body in self._read_column(sql, params)]

    def cards_between(
        self,
        start: datetime,
        end: datetime,
        *,
        account_ids: Iterable[str] | None = None,
        label_ids: Iterable[str] | None = None,
        statuses: Iterable[str] | None = None,
    ) -> list[PostCard]:
        """`posts_between`, as the calendar cards of the posts (much cheaper to read)."""
        sql, params = _between("card, body", start, end, account_ids, label_ids, statuses)
        return self._cards(sql, params)

    def unscheduled_drafts(self) -> list[Post]:
        """Posts with no place on the calendar (no scheduled_at, not published), newest first."""
        return [decode_post(body) for body in self._read_column(_UNDATED % "body", [])]

    def unscheduled_cards(self) -> list[PostCard]:
        return self._cards(_UNDATED % "card, body", [])

    def _memo(self) -> dict[str, PostCard]:
        """The parsed-card memo (call with the read lock held), emptied when it grows too big."""
        if len(self._card_memo) > _CARD_MEMO_LIMIT:
            self._card_memo.clear()
        return self._card_memo

    def _remember_cards(self, rows: Iterable[PostRow]) -> None:
        # The calendar reloads right after a sync has stored these: it finds them parsed.
        with self._read_lock:
            self._memo().update((row.card, row.parsed_card) for row in rows)

    def _cards(self, sql: str, params: Sequence[str]) -> list[PostCard]:
        with self._read_lock:
            rows = self._reader.execute(sql, params).fetchall()
            memo = self._memo()
            cards: list[PostCard] = []
            for text, body in rows:
                card = memo.get(text) if text is not None else None
                if card is None:
                    try:
                        card = memo[text] = card_from_json(text)
                    except StaleCard:
                        # Cached by an older Postdesk (no card, or an older kind): build it from
                        # the body; the next sync stores the new card.
                        card = card_of(decode_post(body))
                cards.append(card)
            return cards

    def post(self, post_id: str) -> Post | None:
        bodies = self._read_column("SELECT body FROM posts WHERE id = ?", [post_id])
        return decode_post(bodies[0]) if bodies else None

    def count_posts(self) -> int:
        with self._read_lock:
            return int(self._reader.execute("SELECT count(*) FROM posts").fetchone()[0])

    def post_ids(self) -> set[str]:
        return set(self._read_column("SELECT id FROM posts", []))

    def accounts(self) -> list[SocialAccountSummary]:
        sql = "SELECT body FROM accounts ORDER BY position"
        return [load_account(body) for body in self._read_column(sql, [])]

    def labels(self) -> list[Label]:
        sql = "SELECT body FROM labels ORDER BY position"
        return [load_label(body) for body in self._read_column(sql, [])]

    def account_choices(self) -> list[AccountChoice]:
        """`accounts()` as the calendar's filter lists them (read without pydantic)."""
        sql = "SELECT body FROM accounts ORDER BY position"
        return [account_choice_from_json(body) for body in self._read_column(sql, [])]

    def label_choices(self) -> list[CardLabel]:
        sql = "SELECT body FROM labels ORDER BY position"
        return [label_from_json(body) for body in self._read_column(sql, [])]

    def last_sync_at(self) -> datetime | None:
        """When a refresh (full or light) last succeeded."""
        return self._meta_time(_LAST_SYNC)

    def last_full_sync_at(self) -> datetime | None:
        return self._meta_time(_LAST_FULL_SYNC)

    def _meta_time(self, key: str) -> datetime | None:
        values = self._read_column("SELECT value FROM sync_meta WHERE key = ?", [key])
        return utc_from_text(values[0]) if values else None

    def _read_column(self, sql: str, params: Sequence[str]) -> list[str]:
        with self._read_lock:
            return [row[0] for row in self._reader.execute(sql, params)]


class _Damaged(sqlite3.DatabaseError):
    sqlite_errorcode = _SQLITE_CORRUPT


def _connect(path: Path) -> sqlite3.Connection:
    # Autocommit mode: transactions are explicit (BEGIN IMMEDIATE), never implicit.
    connection = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
    try:
        connection.execute("PRAGMA synchronous=NORMAL")  # durable enough with WAL, much faster
    except BaseException:
        connection.close()
        raise
    return connection


def _rollback(db: sqlite3.Connection) -> None:
    if db.in_transaction:
        db.execute("ROLLBACK")


def _error_code(exc: BaseException) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None  # primary code, without extended bits


def _is_damage(exc: BaseException) -> bool:
    if isinstance(exc, SchemaTooNew | _Damaged):
        return True
    return _error_code(exc) in (_SQLITE_CORRUPT, _SQLITE_NOTADB)


def _encode_unique(posts: Iterable[Post]) -> dict[str, PostRow]:
    # Pages read while the list shifts can hold a post twice; the later copy wins.
    return {row.id: row for row in map(encode_post, posts)}


_CARD_MEMO_LIMIT = 50_000

_UNDATED = (
    "SELECT %s FROM posts WHERE calendar_utc IS NULL "
    "ORDER BY created_utc IS NULL, created_utc DESC, id"
)


def _between(
    columns: str,
    start: datetime,
    end: datetime,
    account_ids: Iterable[str] | None,
    label_ids: Iterable[str] | None,
    statuses: Iterable[str] | None,
) -> tuple[str, list[str]]:
    sql = [f"SELECT {columns} FROM posts WHERE calendar_utc >= ? AND calendar_utc < ?"]
    params: list[str] = [utc_text(start), utc_text(end)]
    for column, table, values in (
        ("account_id", "post_accounts", account_ids),
        ("label_id", "post_labels", label_ids),
    ):
        if values is not None:
            chosen = list(values)
            sql.append(
                f"AND id IN (SELECT post_id FROM {table} WHERE {column} IN ({_marks(len(chosen))}))"
            )
            params += chosen
    if statuses is not None:
        chosen = list(statuses)
        sql.append(f"AND status IN ({_marks(len(chosen))})")
        params += chosen
    sql.append("ORDER BY calendar_utc, id")
    return " ".join(sql), params


def _marks(count: int) -> str:
    return ", ".join("?" * count) if count else "NULL"


def _stored(db: sqlite3.Connection, ids: Iterable[str]) -> dict[str, tuple[str, str | None]]:
    """(body, card) of the given posts that are cached."""
    wanted = list(ids)
    found: dict[str, tuple[str, str | None]] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        sql = f"SELECT id, body, card FROM posts WHERE id IN ({_marks(len(chunk))})"
        found.update((row[0], (row[1], row[2])) for row in db.execute(sql, chunk))
    return found


def _all_ids(db: sqlite3.Connection) -> set[str]:
    return {row[0] for row in db.execute("SELECT id FROM posts")}


def _earliest_schedule(rows: Iterable[PostRow]) -> str | None:
    return min((row.scheduled_utc for row in rows if row.scheduled_utc is not None), default=None)


def _ids_scheduled_after(db: sqlite3.Connection, boundary: str | None) -> set[str]:
    if boundary is None:
        return set()
    sql = "SELECT id FROM posts WHERE scheduled_utc > ?"
    return {row[0] for row in db.execute(sql, (boundary,))}


def _delete_posts(db: sqlite3.Connection, ids: set[str]) -> bool:
    if not ids:
        return False
    params = [(post_id,) for post_id in ids]
    before = db.total_changes
    db.executemany("DELETE FROM posts WHERE id = ?", params)
    deleted = db.total_changes != before
    db.executemany("DELETE FROM post_accounts WHERE post_id = ?", params)
    db.executemany("DELETE FROM post_labels WHERE post_id = ?", params)
    return deleted


def _replace_list(db: sqlite3.Connection, table: str, items: list[tuple[str, str]]) -> bool:
    """Accounts or labels: the server's list, in its order (duplicates: first one kept)."""
    first: dict[str, str] = {}
    for item_id, body in items:
        first.setdefault(item_id, body)
    unique = list(first.items())
    current = db.execute(f"SELECT id, body FROM {table} ORDER BY position").fetchall()
    if [tuple(row) for row in current] == unique:
        return False
    db.execute(f"DELETE FROM {table}")
    db.executemany(
        f"INSERT INTO {table} (id, position, body) VALUES (?, ?, ?)",
        [(item_id, position, body) for position, (item_id, body) in enumerate(unique)],
    )
    return True
