"""The local copy of one workspace: posts, accounts and labels in SQLite (WAL).

The calendar paints from here at start, before the network answers. Every write method returns
whether the cached data changed, so the UI repaints only when there is something new. See
README.md next to this file for the sync rules.

Threads: one writer thread owns the write connection; every write runs there, in order. The
async methods (`upsert_post_async`, `store_full_refresh_async`...) return when their write is
done without blocking the event loop; the plain methods wait for the writer (tests, scripts).
Reads run on the calling thread with their own connection: WAL readers see the last committed
state and never wait for the writer.

`PRAGMA quick_check` reads the whole file, so it runs only when the previous session did not
close the cache (a marker in `sync_meta`, set at open and cleared at close).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import sqlite3
import threading
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, NamedTuple, ParamSpec, TypeVar

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
from app.store import sqlite_file
from app.store.post_codec import (
    PostRow,
    decode_post,
    dump_model,
    encode_post,
    load_account,
    load_label,
)
from app.store.private_files import make_private
from app.store.schema import SchemaTooNew, migrate
from app.store.utc_text import parse_utc_text, utc_text
from app.workspaces.profiles import move_aside

if TYPE_CHECKING:
    from concurrent import futures as concurrent_futures

    from app.models import Label, Post, SocialAccountSummary

log = logging.getLogger(__name__)

_SQLITE_BUSY = 5
_SQLITE_LOCKED = 6
_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26
_LAST_SYNC = "last_sync_at"
_LAST_FULL_SYNC = "last_full_sync_at"
_OPEN_MARKER = "open_since"
"""Set in sync_meta while a session has the cache open; found at open = unclean shutdown."""

P = ParamSpec("P")
R = TypeVar("R")


class CacheError(Exception):
    """The cache file cannot be opened or written at all (permissions, disk full, locked)."""


class CacheReset(NamedTuple):
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


class CacheChange(NamedTuple):
    """What a refresh changed in the cache: views that show a part of it update that part
    (a calendar showing ~1,300 posts re-read them all in ~12 ms for a sync that changed three)."""

    cards: tuple[PostCard, ...] = ()
    """Posts stored anew or changed, as the calendar reads them."""
    gone: tuple[str, ...] = ()
    """Ids of the posts deleted."""
    lists: bool = False
    """The accounts or the labels changed (what posts are filtered by and named with)."""

    @property
    def any(self) -> bool:
        return bool(self.cards or self.gone or self.lists)

    def then(self, later: CacheChange) -> CacheChange:
        """This change followed by `later` (one report for a refresh that wrote twice)."""
        return CacheChange(
            self.cards + later.cards, self.gone + later.gone, self.lists or later.lists
        )


RefreshMark = int
"""Taken with `begin_refresh()` before a refresh reads the server; see `replace_all_posts`."""


class WorkspaceCache:
    def __init__(self, path: Path) -> None:
        self._path = path
        self._edits_lock = threading.Lock()
        self._read_lock = threading.Lock()
        self._closed = False
        self.checked_integrity = False
        """Whether this open ran `PRAGMA quick_check` (only after an unclean shutdown)."""
        self.damage_seen = False
        """A read or write met damaged pages; the next open checks and rebuilds the file."""
        # Posts changed by the user while a refresh is in flight: id -> sequence number.
        self._local_edits: dict[str, int] = {}
        self._sequence = 0
        # Cards read before, by their JSON: a reload after a sync mostly reads unchanged posts,
        # and parsing 1,000+ cards again is most of its cost.
        self._card_memo: dict[str, PostCard] = {}
        self.reset: CacheReset | None = None
        self._writer, self._reader = self._open()
        self._writer_thread: threading.Thread | None = None
        self._executor: concurrent_futures.ThreadPoolExecutor | None = None
        self._executor_lock = threading.Lock()

    @property
    def _writes(self) -> concurrent_futures.ThreadPoolExecutor:
        """The writer thread's queue, made at the first write: a start that only reads (the
        first paint) does not import `concurrent.futures` (~2 ms) for it."""
        with self._executor_lock:
            if self._executor is None:
                from concurrent.futures import ThreadPoolExecutor

                self._executor = ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix="cache-writer", initializer=self._claim_writer
                )
            return self._executor

    def _claim_writer(self) -> None:
        self._writer_thread = threading.current_thread()

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
        """Finish the queued writes, mark the shutdown clean and close both connections."""
        if self._closed:
            return
        self._closed = True
        try:
            self._writes.submit(self._close_writer).result()
        finally:
            self._writes.shutdown(wait=True)
            with self._read_lock:
                self._reader.close()

    async def aclose(self) -> None:
        """`close` from the event loop: queued writes finish without freezing the window."""
        import asyncio  # not at the top: the first paint reads the cache before asyncio loads

        await asyncio.to_thread(self.close)

    def _close_writer(self) -> None:
        try:
            if not self.damage_seen:
                self._writer.execute("DELETE FROM sync_meta WHERE key = ?", (_OPEN_MARKER,))
        except sqlite3.Error as exc:
            log.warning("could not mark the cache %s as closed cleanly: %s", self._path, exc)
        finally:
            self._writer.close()

    # -- the writer thread ---------------------------------------------------------------------

    def _write(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run `fn` on the writer thread and wait for it."""
        if threading.current_thread() is self._writer_thread:
            return fn(*args, **kwargs)
        return self._submit(fn, *args, **kwargs).result()

    async def _write_async(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run `fn` on the writer thread; the event loop keeps running meanwhile."""
        import asyncio

        return await asyncio.wrap_future(self._submit(fn, *args, **kwargs))

    def _submit(
        self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs
    ) -> concurrent_futures.Future[R]:
        if self._closed:
            raise CacheError("The local cache is closed.")
        try:
            return self._writes.submit(functools.partial(fn, *args, **kwargs))
        except RuntimeError:  # shut down meanwhile
            raise CacheError("The local cache is closed.") from None

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
                    f"Cannot open the local cache {self._path}: {_said(exc)}.{advice}"
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
            raise CacheError(f"Cannot create the local cache {self._path}: {_said(exc)}.") from None

    def _open_checked(self) -> tuple[sqlite3.Connection, sqlite3.Connection]:
        writer = _connect(self._path)
        try:
            sqlite_file.set_pragmas(writer, ["journal_mode = WAL"])  # waits out a busy file
            mode = writer.execute("PRAGMA journal_mode").fetchone()[0]
            if str(mode).lower() != "wal":
                raise CacheError(f"The local cache {self._path} cannot use WAL mode ({mode}).")
            migrate(writer)
            if _was_left_open(writer):
                self.checked_integrity = True
                problems = [row[0] for row in writer.execute("PRAGMA quick_check")]
                if problems != ["ok"]:
                    raise _Damaged("; ".join(str(problem) for problem in problems[:3]))
            _set_open_marker(writer)
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
        with self._edits_lock:
            return self._sequence

    def _protected(self, since: RefreshMark | None) -> set[str]:
        if since is None:
            return set()
        with self._edits_lock:
            return {post_id for post_id, number in self._local_edits.items() if number > since}

    def _retire_edits(self, since: RefreshMark | None) -> None:
        if since is not None:
            with self._edits_lock:
                self._local_edits = {
                    post_id: number
                    for post_id, number in self._local_edits.items()
                    if number > since
                }

    def _note_local_edit(self, post_id: str) -> None:
        with self._edits_lock:
            self._sequence += 1
            self._local_edits[post_id] = self._sequence

    # -- writes --------------------------------------------------------------------------------

    def replace_all_posts(self, posts: Sequence[Post], *, since: RefreshMark | None = None) -> bool:
        """Full refresh: the cache holds exactly `posts` afterwards (one transaction)."""
        return self._write(self._replace_all_posts, posts, since)

    def _replace_all_posts(self, posts: Sequence[Post], since: RefreshMark | None) -> bool:
        rows = _encode_unique(posts)
        with self._transaction() as db:
            stored, gone = self._replace_posts(db, rows, since, set())
            self._stamp(db, full=True)
            self._retire_edits(since)
        return bool(stored or gone)

    def store_full_refresh(
        self,
        accounts: Sequence[SocialAccountSummary],
        labels: Sequence[Label],
        posts: Sequence[Post] | Mapping[str, PostRow],
        *,
        since: RefreshMark | None = None,
        keep: Collection[str] = (),
    ) -> CacheChange:
        """Accounts, labels and all posts in one transaction: all of it lands, or none.

        `posts` may come already encoded (`encode_posts`), as the sync does page by page.
        Cached posts whose ids are in `keep` stay even though `posts` lacks them (the server
        listed them, but they could not be read).
        """
        return self._write(self._store_full_refresh, accounts, labels, posts, since, keep)

    async def store_full_refresh_async(
        self,
        accounts: Sequence[SocialAccountSummary],
        labels: Sequence[Label],
        posts: Sequence[Post] | Mapping[str, PostRow],
        *,
        since: RefreshMark | None = None,
        keep: Collection[str] = (),
    ) -> CacheChange:
        """`store_full_refresh` on the writer thread, awaited."""
        return await self._write_async(
            self._store_full_refresh, accounts, labels, posts, since, keep
        )

    def _store_full_refresh(
        self,
        accounts: Sequence[SocialAccountSummary],
        labels: Sequence[Label],
        posts: Sequence[Post] | Mapping[str, PostRow],
        since: RefreshMark | None,
        keep: Collection[str],
    ) -> CacheChange:
        rows = dict(posts) if isinstance(posts, Mapping) else _encode_unique(posts)
        account_bodies = [(item.id, dump_model(item)) for item in accounts]
        label_bodies = [(item.id, dump_model(item)) for item in labels]
        with self._transaction() as db:
            lists = _replace_list(db, "accounts", account_bodies)
            lists = _replace_list(db, "labels", label_bodies) or lists
            stored, gone = self._replace_posts(db, rows, since, set(keep))
            self._stamp(db, full=True)
            self._retire_edits(since)
        return _change(stored, gone, lists)

    def merge_first_pages(
        self,
        posts: Sequence[Post],
        *,
        reached_end: bool = False,
        prune: bool = True,
        since: RefreshMark | None = None,
        checked: Sequence[Post] = (),
        keep: Collection[str] = (),
        from_top: bool = True,
    ) -> CacheChange:
        """Light refresh with consecutive pages of `/posts` (ordered by scheduled_at, newest
        first): the first pages, or (`from_top=False`) pages from the middle of the list.

        Every post read is stored. A cached post missing from the pages is dropped when the pages
        must have contained it: its scheduled_at is later than the earliest scheduled_at read
        (equal times may continue on the next page, so they are kept), or `reached_end` says the
        pages were the whole list. Posts without scheduled_at are only dropped in the latter
        case, since the spec does not say where the server lists them. `prune=False` only
        stores, for pages read while the list was changing. `checked` are posts of
        `window_misses` that were read one by one and still exist (e.g. rescheduled to an
        earlier time): they are stored and kept, and do not widen the window. Ids in `keep`
        are never dropped (listed by the server but unreadable). Pages from the middle bound the
        window above too: only posts strictly between the latest and the earliest time read
        can be dropped.
        """
        return self._write(
            self._merge_first_pages, posts, reached_end, prune, since, checked, keep, from_top
        )

    async def merge_first_pages_async(
        self,
        posts: Sequence[Post],
        *,
        reached_end: bool = False,
        prune: bool = True,
        since: RefreshMark | None = None,
        checked: Sequence[Post] = (),
        keep: Collection[str] = (),
        from_top: bool = True,
    ) -> CacheChange:
        """`merge_first_pages` on the writer thread, awaited."""
        return await self._write_async(
            self._merge_first_pages, posts, reached_end, prune, since, checked, keep, from_top
        )

    def _merge_first_pages(
        self,
        posts: Sequence[Post],
        reached_end: bool,
        prune: bool,
        since: RefreshMark | None,
        checked: Sequence[Post],
        keep: Collection[str],
        from_top: bool = True,
    ) -> CacheChange:
        rows = _encode_unique(posts)
        extra = _encode_unique(checked)
        with self._transaction() as db:
            protected = self._protected(since) | set(keep)
            stored = self._upsert_rows(db, {**rows, **extra}, protected)
            stale = self._misses(db, rows, reached_end, from_top) if prune else set()
            gone = _delete_posts(db, stale - extra.keys() - protected)
            self._stamp(db, full=False)
            self._retire_edits(since)
        return _change(stored, gone, lists=False)

    def window_misses(
        self, posts: Sequence[Post], *, reached_end: bool = False, from_top: bool = True
    ) -> set[str]:
        """Ids that `merge_first_pages(posts)` would drop, so that the sync can first check
        them one by one: missing from the pages can also mean rescheduled to another time."""
        rows = _encode_unique(posts)
        with self._reading() as db:
            return self._misses(db, rows, reached_end, from_top)

    @staticmethod
    def _misses(
        db: sqlite3.Connection, rows: dict[str, PostRow], reached_end: bool, from_top: bool
    ) -> set[str]:
        if from_top:
            if reached_end:
                return _all_ids(db) - rows.keys()
            return _ids_scheduled_after(db, _earliest_schedule(rows.values())) - rows.keys()
        return _ids_scheduled_inside(db, rows.values(), reached_end) - rows.keys()

    def upsert_post(self, post: Post) -> bool:
        """Store the server's answer to a user action (create, edit, reschedule...). Waits for
        the writer: from the event loop use `upsert_post_async`."""
        return self._write(self._upsert_post, post)

    async def upsert_post_async(self, post: Post) -> bool:
        """`upsert_post` on the writer thread: the GUI never waits behind a sync's write."""
        return await self._write_async(self._upsert_post, post)

    def _upsert_post(self, post: Post) -> bool:
        row = encode_post(post)
        with self._transaction() as db:
            self._note_local_edit(post.id)
            return bool(self._upsert_rows(db, {row.id: row}, set()))

    def delete_post(self, post_id: str) -> bool:
        return self._write(self._delete_post, post_id)

    async def delete_post_async(self, post_id: str) -> bool:
        """`delete_post` on the writer thread."""
        return await self._write_async(self._delete_post, post_id)

    def _delete_post(self, post_id: str) -> bool:
        with self._transaction() as db:
            self._note_local_edit(post_id)
            return bool(_delete_posts(db, {post_id}))

    def set_accounts(self, accounts: Sequence[SocialAccountSummary]) -> bool:
        return self._write(self._set_list, "accounts", accounts)

    def set_labels(self, labels: Sequence[Label]) -> bool:
        return self._write(self._set_list, "labels", labels)

    async def set_accounts_async(self, accounts: Sequence[SocialAccountSummary]) -> bool:
        return await self._write_async(self._set_list, "accounts", accounts)

    async def set_labels_async(self, labels: Sequence[Label]) -> bool:
        return await self._write_async(self._set_list, "labels", labels)

    def _set_list(
        self, table: str, items: Sequence[SocialAccountSummary] | Sequence[Label]
    ) -> bool:
        bodies = [(item.id, dump_model(item)) for item in items]
        with self._transaction() as db:
            return _replace_list(db, table, bodies)

    def _replace_posts(
        self,
        db: sqlite3.Connection,
        rows: dict[str, PostRow],
        since: RefreshMark | None,
        keep: set[str],
    ) -> tuple[list[PostRow], list[str]]:
        """The rows stored (new or changed) and the ids deleted."""
        protected = self._protected(since)
        stored = self._upsert_rows(db, rows, protected)
        stale = _all_ids(db) - rows.keys() - protected - keep
        return stored, _delete_posts(db, stale)

    def _upsert_rows(
        self, db: sqlite3.Connection, rows: dict[str, PostRow], protected: set[str]
    ) -> list[PostRow]:
        """Stores the rows that are new or differ from the cached ones; returns those."""
        wanted = {post_id: row for post_id, row in rows.items() if post_id not in protected}
        self._remember_cards(wanted.values())
        current = _stored(db, wanted.keys())
        changed = [r for post_id, r in wanted.items() if current.get(post_id) != (r.body, r.card)]
        if not changed:
            return []
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
        # Only a post cached before has links to replace (a first sync has none: 2 x 3,000
        # deletes of nothing, ~5 % of its store).
        ids = [(row.id,) for row in changed if row.id in current]
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
        return changed

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
        """A write transaction; runs on the writer thread only (so it needs no lock)."""
        assert threading.current_thread() is self._writer_thread, "writes run on the writer"
        db = self._writer
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise CacheError(f"Cannot write to the local cache: {_said(exc)}.") from None
        try:
            yield db
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            _rollback(db)
            if _is_damage(exc):
                raise self._read_failed(exc) from None
            raise CacheError(f"Cannot write to the local cache: {_said(exc)}.") from None
        except BaseException:
            _rollback(db)
            raise

    # -- reads ---------------------------------------------------------------------------------

    def cards_between(
        self,
        start: datetime,
        end: datetime,
        *,
        account_ids: Iterable[str] | None = None,
        label_ids: Iterable[str] | None = None,
        statuses: Iterable[str] | None = None,
    ) -> list[PostCard]:
        """The cards of the posts whose calendar time is in [start, end), earliest first.

        The calendar time is scheduled_at, or published_at for a post published without a
        schedule. `start`/`end` must be aware; any zone works (a month in Europe/Berlin is
        simply its two local midnights). Filters, when given, keep posts that match any of the
        listed accounts / labels / statuses. A card is what a list of posts needs, without
        pydantic; `posts(ids)` reads the whole posts behind some of them.
        """
        sql, params = _between("card, id", start, end, account_ids, label_ids, statuses)
        return self._cards(sql, params)

    def unscheduled_cards(self) -> list[PostCard]:
        """Posts with no place on the calendar (no scheduled_at, not published), newest first."""
        return self._cards(_UNDATED % "card, id", [])

    def _memo(self) -> dict[str, PostCard]:
        """The parsed-card memo (call with the read lock held), emptied when it grows too big."""
        if len(self._card_memo) > _CARD_MEMO_LIMIT:
            self._card_memo.clear()
        return self._card_memo

    def _remember_cards(self, rows: Iterable[PostRow]) -> None:
        # The calendar reloads right after a sync has stored these: it finds them parsed. A card
        # already known keeps its object, so the calendar sees by identity that it is unchanged.
        with self._read_lock:
            memo = self._memo()
            for row in rows:
                memo.setdefault(row.card, row.parsed_card)

    def _cards(self, sql: str, params: Sequence[str]) -> list[PostCard]:
        with self._reading() as db:
            rows = db.execute(sql, params).fetchall()
            memo = self._memo()
            cards: list[PostCard] = []
            # Cards only: reading every body too (the whole post, ~10x the card) made a month
            # switch with 1,000+ posts spend most of its read time copying unused text.
            for text, post_id in rows:
                card = memo.get(text) if text is not None else None
                if card is None:
                    try:
                        card = memo[text] = card_from_json(text)
                    except StaleCard:
                        # Cached by an older Postdesk (no card, or an older kind): build it from
                        # the body; the next sync stores the new card.
                        body = db.execute(
                            "SELECT body FROM posts WHERE id = ?", (post_id,)
                        ).fetchone()[0]
                        card = card_of(decode_post(body))
                cards.append(card)
            return cards

    def post(self, post_id: str) -> Post | None:
        bodies = self._read_column("SELECT body FROM posts WHERE id = ?", [post_id])
        return decode_post(bodies[0]) if bodies else None

    def posts(self, post_ids: Iterable[str]) -> list[Post]:
        """The whole posts with these ids, in that order; ids the cache lacks are left out."""
        wanted = list(dict.fromkeys(post_ids))
        with self._reading() as db:
            bodies = dict(_rows_by_id(db, "id, body", wanted))
        return [decode_post(bodies[post_id]) for post_id in wanted if post_id in bodies]

    def count_posts(self) -> int:
        with self._reading() as db:
            return int(db.execute("SELECT count(*) FROM posts").fetchone()[0])

    def ids_with_status(self, status: str) -> list[str]:
        """Ids of the cached posts in `status`, the earliest scheduled first (undated last)."""
        return self._read_column(
            "SELECT id FROM posts WHERE status = ? "
            "ORDER BY scheduled_utc IS NULL, scheduled_utc, id",
            [status],
        )

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
        return parse_utc_text(values[0]) if values else None

    def _read_column(self, sql: str, params: Sequence[str]) -> list[str]:
        with self._reading() as db:
            return [row[0] for row in db.execute(sql, params)]

    @contextlib.contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The read connection, under its lock; SQLite failures become a `CacheError`."""
        with self._read_lock:
            try:
                yield self._reader
            except sqlite3.DatabaseError as exc:
                raise self._read_failed(exc) from None

    def _read_failed(self, exc: sqlite3.Error) -> CacheError:
        if not _is_damage(exc):
            return CacheError(f"Cannot read the local cache {self._path}: {_said(exc)}.")
        # Found only now because the file was closed cleanly (no check at open): leave the
        # open marker at close, so the next start checks the file and rebuilds it.
        self.damage_seen = True
        log.warning("cache %s is damaged: %s", self._path, exc)
        return CacheError(
            "The local copy of this workspace is damaged. Restart Postdesk: it will set the "
            "file aside and download everything again; nothing on the server is affected."
        )


class _Damaged(sqlite3.DatabaseError):
    sqlite_errorcode = _SQLITE_CORRUPT


def _said(exc: BaseException) -> str:
    """An error's text to end one of our sentences (Python's "closed database" one has its own
    full stop)."""
    return str(exc).rstrip(".")


def _connect(path: Path) -> sqlite3.Connection:
    if str(path) != ":memory:":
        with contextlib.suppress(OSError):  # sqlite's own open below reports it, as before
            make_private(path)  # 0600, and so are its -wal and -shm (issue 19 §4)
    # synchronous=NORMAL: durable enough with WAL, much faster.
    return sqlite_file.connect(path, pragmas=("synchronous=NORMAL",))


def _was_left_open(db: sqlite3.Connection) -> bool:
    sql = "SELECT 1 FROM sync_meta WHERE key = ?"
    return db.execute(sql, (_OPEN_MARKER,)).fetchone() is not None


def _set_open_marker(db: sqlite3.Connection) -> None:
    db.execute(
        "INSERT INTO sync_meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (_OPEN_MARKER, utc_text(datetime.now(UTC))),
    )


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

_IDS_PER_QUERY = 500  # well under SQLite's limit of bound parameters per statement
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


def _rows_by_id(db: sqlite3.Connection, columns: str, ids: Iterable[str]) -> Iterator[Any]:
    """`columns` of the cached posts among `ids` (any number of them, in a few queries)."""
    wanted = list(ids)
    for first in range(0, len(wanted), _IDS_PER_QUERY):
        chunk = wanted[first : first + _IDS_PER_QUERY]
        yield from db.execute(
            f"SELECT {columns} FROM posts WHERE id IN ({_marks(len(chunk))})", chunk
        )


def _stored(db: sqlite3.Connection, ids: Iterable[str]) -> dict[str, tuple[str, str | None]]:
    """(body, card) of the given posts that are cached."""
    return {row[0]: (row[1], row[2]) for row in _rows_by_id(db, "id, body, card", ids)}


def _all_ids(db: sqlite3.Connection) -> set[str]:
    return {row[0] for row in db.execute("SELECT id FROM posts")}


def _earliest_schedule(rows: Iterable[PostRow]) -> str | None:
    return min((row.scheduled_utc for row in rows if row.scheduled_utc is not None), default=None)


def _ids_scheduled_after(db: sqlite3.Connection, boundary: str | None) -> set[str]:
    if boundary is None:
        return set()
    sql = "SELECT id FROM posts WHERE scheduled_utc > ?"
    return {row[0] for row in db.execute(sql, (boundary,))}


def _ids_scheduled_inside(
    db: sqlite3.Connection, rows: Iterable[PostRow], reached_end: bool
) -> set[str]:
    """Cached posts that pages from the middle of the list must have held: scheduled strictly
    between the earliest and the latest time read (equal times may sit on the pages around),
    and, when the pages reached the end, everything earlier and every undated draft."""
    times = [row.scheduled_utc for row in rows if row.scheduled_utc is not None]
    if not times:
        # Only undated drafts were read, and their order among themselves is not stated.
        return set()
    latest, earliest = max(times), min(times)
    if reached_end:
        sql = "SELECT id FROM posts WHERE scheduled_utc < ? OR scheduled_utc IS NULL"
        return {row[0] for row in db.execute(sql, (latest,))}
    sql = "SELECT id FROM posts WHERE scheduled_utc > ? AND scheduled_utc < ?"
    return {row[0] for row in db.execute(sql, (earliest, latest))}


def _delete_posts(db: sqlite3.Connection, ids: set[str]) -> list[str]:
    """Deletes the cached posts among `ids`; returns the ids that were cached."""
    if not ids:
        return []
    present = {row[0] for row in _rows_by_id(db, "id", ids)}
    cached = sorted(present)
    params = [(post_id,) for post_id in cached]
    db.executemany("DELETE FROM posts WHERE id = ?", params)
    db.executemany("DELETE FROM post_accounts WHERE post_id = ?", params)
    db.executemany("DELETE FROM post_labels WHERE post_id = ?", params)
    return cached


def _change(stored: list[PostRow], gone: list[str], lists: bool) -> CacheChange:
    return CacheChange(tuple(row.parsed_card for row in stored), tuple(gone), lists)


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
