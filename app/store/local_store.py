"""The durable local file of one workspace: the user's drafts (and the outbox, `app.sync.outbox`).

What the user wrote lives here, apart from the cache, and is never thrown away or replaced:
- A file written by a newer Postdesk is refused (`NewerLocalSchema`), opened for nothing and left
  byte for byte as it was, so a downgrade cannot destroy it.
- A damaged file is reported (`LocalStoreDamaged`); it is never renamed or rebuilt silently.
- One writer thread owns the write connection; the GUI awaits the async methods, which return
  once the change is committed (WAL, `synchronous=FULL`: an fsync per commit, so even a power
  loss keeps an acknowledged save; a kill -9 cannot lose it with NORMAL either, but drafts are
  small and saved at most about once a second, so the fsync is cheap insurance). Reads use their
  own connection and see the last committed state at once.

Drafts hold the composer's document as opaque JSON text plus a title. Saves are compare-and-set
on `revision`: a save based on an old revision (a second window, a stale editor) never
overwrites; its text becomes a conflict copy beside the current version, and both are shown.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from app.store import sqlite_file
from app.store.disk_full import is_disk_full
from app.store.local_schema import LOCAL_MIGRATIONS, LOCAL_SCHEMA_VERSION
from app.store.private_files import make_private
from app.store.utc_text import parse_utc_text as parse_utc_text  # re-exported
from app.store.utc_text import utc_text as utc_text  # re-exported
from app.workspaces.profiles import Paths

T = TypeVar("T")

_PREVIEW_CHARS = 160
_INSERT_COLUMNS = (
    "id, title, document, search_text, revision, created_utc, updated_utc, "
    "server_post_id, server_version, conflict_of"
)
# Reads take only the start of the search text: enough for the preview, and a list of many
# long drafts stays cheap to read on the GUI thread.
_DRAFT_COLUMNS = _INSERT_COLUMNS.replace(
    "search_text", f"substr(search_text, 1, {_PREVIEW_CHARS * 3})"
)


class LocalStoreError(Exception):
    """The local file could not be used; `message` says what happened and what to do."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


class NewerLocalSchema(LocalStoreError):
    """The file was written by a newer Postdesk; it is left untouched."""


class LocalStoreDamaged(LocalStoreError):
    """The file is not a readable database; it is left where it is for the user to rescue."""


@dataclass(frozen=True)
class Draft:
    """One local draft. `document` is the composer's JSON text, opaque to the store."""

    id: str
    title: str
    document: str
    revision: int
    created_at: datetime
    updated_at: datetime
    preview: str
    server_post_id: str | None = None
    """The server post this draft edits (opened from the calendar), else None."""
    server_version: str | None = None
    """That post's `updated_at` as the server sent it when the draft last matched it."""
    conflict_of: str | None = None
    """On a conflict copy: the id of the draft it conflicts with."""


@dataclass(frozen=True)
class SaveResult:
    """`saved` holds the text you passed. When `conflict` is set, the draft had changed since
    `base_revision` (or its server post changed): `saved` is then a new conflict copy and
    `conflict` is the other version, left as it was. Show both; keep editing `saved`."""

    saved: Draft
    conflict: Draft | None = None


@dataclass(frozen=True)
class UnsentWork:
    """What removing a workspace would throw away: ask before deleting when not `empty`."""

    drafts: int
    outbox: int
    """Outbox entries not sent yet (queued, unknown, needing the user)."""

    @property
    def empty(self) -> bool:
        return self.drafts == 0 and self.outbox == 0


def unsent_work(path: Path) -> UnsentWork:
    """Count the live drafts and unsent outbox entries of a local file, reading only (the
    workspace need not be open). A missing file holds nothing. Raises `LocalStoreError` when
    the file cannot be read: then keep it, the user's writing may be in it."""
    if not path.exists():
        return UnsentWork(0, 0)
    _check_existing(path)
    uri = path.resolve().as_uri() + "?mode=ro"
    try:
        connection = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=10.0)
        try:
            if connection.execute("PRAGMA user_version").fetchone()[0] < 1:
                return UnsentWork(0, 0)
            drafts = connection.execute(
                "SELECT COUNT(*) FROM drafts WHERE deleted_utc IS NULL"
            ).fetchone()[0]
            outbox = connection.execute(
                "SELECT COUNT(*) FROM outbox WHERE state != 'sent'"
            ).fetchone()[0]
        finally:
            connection.close()
    except sqlite3.Error as exc:
        raise _as_store_error(exc, path) from None
    return UnsentWork(int(drafts), int(outbox))


def local_store_path(paths: Paths, profile_id: str) -> Path:
    """`<data_dir>/workspaces/<id>.local.sqlite3`, beside the workspace's cache."""
    cache = paths.profile_db(profile_id)
    return cache.with_name(f"{profile_id}.local.sqlite3")


def _now() -> datetime:
    return datetime.now(UTC)


class LocalStore:
    """Drafts (and, through `app.sync.outbox.Outbox`, the outbox) of one workspace.

    Open with `LocalStore.open(path)`; call `close()` when the workspace closes. Async methods
    return once the change is committed; `get_draft` / `list_drafts` read synchronously (cheap).
    """

    def __init__(
        self,
        path: Path,
        reader: sqlite3.Connection,
        *,
        now: Callable[[], datetime] = _now,
    ) -> None:
        self.path = path
        self._reader = reader
        self._read_lock = threading.Lock()
        self._now = now
        self._writer_conn: sqlite3.Connection | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="local-store-writer")
        self._closed = False
        self.notice: str | None = None
        """Something the user must be told about the file as it was opened (it was empty)."""

    # -- opening ------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path, *, now: Callable[[], datetime] = _now) -> LocalStore:
        """Open (creating or upgrading) the file. Raises `NewerLocalSchema`,
        `LocalStoreDamaged` or `LocalStoreError`; in every case the file is left as it was."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LocalStoreError(
                f"Could not create the folder for your drafts, {path.parent}: "
                f"{exc.strerror or exc}."
            ) from None
        notice = None
        if path.exists():
            if _is_empty_file(path):
                # SQLite takes a 0-byte file for a new database: whatever it held (a crash, a
                # full disk, a sync tool) is gone already, and the user must hear it.
                notice = _empty_file_notice(path)
            _check_existing(path)
        try:
            make_private(path)  # 0600 before SQLite opens it: its -wal/-shm follow
        except OSError as exc:
            raise _os_error(exc, path) from None
        connection = _connect(path)
        try:
            _configure(connection)
            _migrate(connection, path)
        except sqlite3.Error as exc:
            connection.close()
            raise _as_store_error(exc, path) from None
        except BaseException:
            connection.close()
            raise
        store = cls(path, connection, now=now)
        store.notice = notice
        return store

    # -- drafts: reads ------------------------------------------------------------------------

    def get_draft(self, draft_id: str) -> Draft | None:
        """The draft, or None when it does not exist or was deleted."""
        rows = self.read(
            f"SELECT {_DRAFT_COLUMNS} FROM drafts WHERE id = ? AND deleted_utc IS NULL",
            (draft_id,),
        )
        return _draft(rows[0]) if rows else None

    def list_drafts(self, search: str = "") -> list[Draft]:
        """Live drafts, most recently changed first. `search`: every word must appear in the
        title or the text (case-insensitive)."""
        clauses = ["deleted_utc IS NULL"]
        params: list[Any] = []
        for word in search.split():
            pattern = "%" + _escape_like(word) + "%"
            clauses.append("(title LIKE ? ESCAPE '\\' OR search_text LIKE ? ESCAPE '\\')")
            params += [pattern, pattern]
        rows = self.read(
            f"SELECT {_DRAFT_COLUMNS} FROM drafts WHERE {' AND '.join(clauses)} "
            "ORDER BY updated_utc DESC, id",
            params,
        )
        return [_draft(row) for row in rows]

    def drafts_of_post(self, post_id: str) -> list[Draft]:
        """Live drafts that edit the server post `post_id` (conflict copies included)."""
        rows = self.read(
            f"SELECT {_DRAFT_COLUMNS} FROM drafts WHERE server_post_id = ? "
            "AND deleted_utc IS NULL ORDER BY updated_utc DESC, id",
            (post_id,),
        )
        return [_draft(row) for row in rows]

    # -- drafts: writes -----------------------------------------------------------------------

    async def create_draft(
        self,
        document: str = "{}",
        *,
        title: str = "",
        text: str | None = None,
        server_post_id: str | None = None,
        server_version: str | None = None,
    ) -> Draft:
        """A new draft. `text`: the plain words to search and preview (default: every string in
        the document). `server_post_id` / `server_version` link it to the post it edits."""
        search_text = _search_text(document, text)

        def work(connection: sqlite3.Connection) -> Draft:
            return _insert_draft(
                connection,
                self._now(),
                title=title,
                document=document,
                search_text=search_text,
                server_post_id=server_post_id,
                server_version=server_version,
            )

        return await self.transaction(work)

    async def save_draft(
        self,
        draft_id: str,
        document: str,
        *,
        base_revision: int,
        title: str | None = None,
        text: str | None = None,
    ) -> SaveResult:
        """Save the editor's document, compare-and-set on `base_revision` (the revision the
        editor last loaded or saved). Never overwrites a newer version: see `SaveResult`.
        A draft deleted meanwhile is brought back with this text."""
        search_text = _search_text(document, text)

        def work(connection: sqlite3.Connection) -> SaveResult:
            now = self._now()
            row = _draft_row(connection, draft_id, include_deleted=True)
            if row is None or row[-1] is not None:
                if row is not None:
                    connection.execute("DELETE FROM drafts WHERE id = ?", (draft_id,))
                saved = _insert_draft(
                    connection,
                    now,
                    title=title if title is not None else (row[1] if row else ""),
                    document=document,
                    search_text=search_text,
                    draft_id=draft_id,
                    revision=max(base_revision, row[4] if row else 0) + 1,
                    server_post_id=row[7] if row else None,
                    server_version=row[8] if row else None,
                )
                return SaveResult(saved)
            current = _draft(row[:-1])
            if current.revision != base_revision:
                copy = _insert_draft(
                    connection,
                    now,
                    title=_conflict_title(title if title is not None else current.title),
                    document=document,
                    search_text=search_text,
                    server_post_id=current.server_post_id,
                    server_version=current.server_version,
                    conflict_of=current.id,
                )
                return SaveResult(copy, conflict=current)
            connection.execute(
                "UPDATE drafts SET document = ?, search_text = ?, title = ?, revision = ?, "
                "updated_utc = ? WHERE id = ?",
                (
                    document,
                    search_text,
                    title if title is not None else current.title,
                    current.revision + 1,
                    utc_text(now),
                    draft_id,
                ),
            )
            saved = _draft_row(connection, draft_id)
            assert saved is not None
            return SaveResult(_draft(saved))

        return await self.transaction(work)

    async def rename_draft(self, draft_id: str, title: str) -> Draft:
        """Change the title (a rename is not an edit of the text: no conflict check).
        Raises KeyError for an unknown draft."""

        def work(connection: sqlite3.Connection) -> Draft:
            cursor = connection.execute(
                "UPDATE drafts SET title = ?, revision = revision + 1, updated_utc = ? "
                "WHERE id = ? AND deleted_utc IS NULL",
                (title.strip(), utc_text(self._now()), draft_id),
            )
            if cursor.rowcount == 0:
                raise KeyError(draft_id)
            row = _draft_row(connection, draft_id)
            assert row is not None
            return _draft(row)

        return await self.transaction(work)

    async def delete_draft(self, draft_id: str) -> None:
        """Hide the draft (kept in the file until `purge_deleted`, so `restore_draft` can undo)."""
        now = utc_text(self._now())
        await self.transaction(
            lambda connection: connection.execute(
                "UPDATE drafts SET deleted_utc = ? WHERE id = ? AND deleted_utc IS NULL",
                (now, draft_id),
            )
        )

    async def restore_draft(self, draft_id: str) -> Draft | None:
        """Undo a delete; None when there is nothing to restore."""

        def work(connection: sqlite3.Connection) -> Draft | None:
            connection.execute("UPDATE drafts SET deleted_utc = NULL WHERE id = ?", (draft_id,))
            row = _draft_row(connection, draft_id)
            return _draft(row) if row else None

        return await self.transaction(work)

    async def duplicate_draft(self, draft_id: str) -> Draft:
        """A new draft with the same title (+ " (copy)") and document, linked to no server
        post: a duplicate becomes a new post. Raises KeyError for an unknown draft."""

        def work(connection: sqlite3.Connection) -> Draft:
            row = _draft_row(connection, draft_id)
            if row is None:
                raise KeyError(draft_id)
            source = _draft(row)
            return _insert_draft(
                connection,
                self._now(),
                title=f"{source.title} (copy)" if source.title else "",
                document=source.document,
                search_text=connection.execute(
                    "SELECT search_text FROM drafts WHERE id = ?", (draft_id,)
                ).fetchone()[0],
            )

        return await self.transaction(work)

    async def link_server_post(self, draft_id: str, post_id: str, server_version: str) -> Draft:
        """Record that the draft now matches the server post at `server_version` (after it was
        created from this draft or saved with `PUT /posts/{id}`). Raises KeyError."""

        def work(connection: sqlite3.Connection) -> Draft:
            cursor = connection.execute(
                "UPDATE drafts SET server_post_id = ?, server_version = ? WHERE id = ?",
                (post_id, server_version, draft_id),
            )
            if cursor.rowcount == 0:
                raise KeyError(draft_id)
            row = _draft_row(connection, draft_id)
            assert row is not None
            return _draft(row)

        return await self.transaction(work)

    async def check_server_version(
        self,
        draft_id: str,
        server_version: str,
        server_document: str,
        *,
        server_title: str = "",
        server_text: str | None = None,
    ) -> Draft | None:
        """Call with the post as the server has it now (before saving the draft to it, or
        when a sync sees it). If it changed since the draft's `server_version`, the server's
        version is kept as a conflict copy beside the draft (returned; the UI shows both);
        the draft itself is not touched. None when nothing changed. Raises KeyError."""
        search_text = _search_text(server_document, server_text)

        def work(connection: sqlite3.Connection) -> Draft | None:
            row = _draft_row(connection, draft_id)
            if row is None:
                raise KeyError(draft_id)
            draft = _draft(row)
            if draft.server_version is None or draft.server_version == server_version:
                return None
            existing = connection.execute(
                "SELECT id FROM drafts WHERE conflict_of = ? AND server_version = ? "
                "AND deleted_utc IS NULL",
                (draft_id, server_version),
            ).fetchone()
            if existing is not None:
                return None
            return _insert_draft(
                connection,
                self._now(),
                title=_server_title(server_title or draft.title),
                document=server_document,
                search_text=search_text,
                server_post_id=draft.server_post_id,
                server_version=server_version,
                conflict_of=draft.id,
            )

        return await self.transaction(work)

    async def purge_deleted(self, older_than: datetime) -> int:
        """Remove drafts deleted before `older_than` for good; returns how many."""
        cutoff = utc_text(older_than)

        def work(connection: sqlite3.Connection) -> int:
            cursor = connection.execute(
                "DELETE FROM drafts WHERE deleted_utc IS NOT NULL AND deleted_utc < ?", (cutoff,)
            )
            return cursor.rowcount

        return await self.transaction(work)

    # -- plumbing shared with the outbox --------------------------------------------------------

    def now(self) -> datetime:
        return self._now()

    async def transaction(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run `work(connection)` in the writer thread inside one `BEGIN IMMEDIATE` transaction;
        returns once committed. sqlite errors become `LocalStoreError`."""
        return await asyncio.wrap_future(self.submit(work))

    def submit(self, work: Callable[[sqlite3.Connection], T]) -> Future[T]:
        """`transaction` for code without an event loop (tests, the CLI's set-up)."""
        if self._closed:
            raise LocalStoreError("The drafts file is closed.")
        return self._executor.submit(self._run_write, work)

    def read(self, sql: str, params: Any = ()) -> list[Any]:
        """Rows of one query on the reader connection (last committed state)."""
        if self._closed:
            raise LocalStoreError("The drafts file is closed.")
        try:
            with self._read_lock:
                return self._reader.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise _as_store_error(exc, self.path) from None

    def close(self) -> None:
        """Finish queued writes, then close both connections. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        self._executor.submit(self._close_writer)
        self._executor.shutdown(wait=True)
        with self._read_lock:
            self._reader.close()

    def _run_write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        if self._writer_conn is None:
            self._writer_conn = _connect(self.path)
            _configure(self._writer_conn)
        connection = self._writer_conn
        try:
            connection.execute("BEGIN IMMEDIATE")
            try:
                result = work(connection)
            except BaseException:
                connection.rollback()
                raise
            connection.commit()
        except sqlite3.Error as exc:
            if connection.in_transaction:
                connection.rollback()
            raise _as_store_error(exc, self.path) from None
        return result

    def _close_writer(self) -> None:
        if self._writer_conn is not None:
            self._writer_conn.close()
            self._writer_conn = None


# -- helpers -----------------------------------------------------------------------------------


def _connect(path: Path) -> sqlite3.Connection:
    try:
        return sqlite_file.connect(path)
    except sqlite3.Error as exc:
        raise _as_store_error(exc, path) from None


def _configure(connection: sqlite3.Connection) -> None:
    sqlite_file.set_pragmas(connection, _PRAGMAS)


def _check_existing(path: Path) -> None:
    """Look at an existing file read-only: refuse a newer schema, report damage."""
    uri = path.resolve().as_uri() + "?mode=ro"
    try:
        connection = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=10.0)
    except sqlite3.Error as exc:
        raise _as_store_error(exc, path) from None
    try:
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version > LOCAL_SCHEMA_VERSION:
            raise NewerLocalSchema(
                f"Your drafts file {path} was written by a newer version of Postdesk "
                f"(format {version}; this version knows up to {LOCAL_SCHEMA_VERSION}). "
                "It was not opened and not changed. Use the newer Postdesk to open it."
            )
        status = connection.execute("PRAGMA quick_check").fetchone()[0]
        if status != "ok":
            raise LocalStoreDamaged(_damaged_message(path, status))
    except sqlite3.Error as exc:
        raise _as_store_error(exc, path) from None
    finally:
        connection.close()


_PRAGMAS = ("journal_mode = WAL", "synchronous = FULL", "foreign_keys = ON")


def _migrate(connection: sqlite3.Connection, path: Path) -> None:
    def too_new(_version: int, _known: int) -> NewerLocalSchema:
        return NewerLocalSchema(
            f"Your drafts file {path} was written by a newer version of Postdesk; "
            "it was not changed."
        )

    sqlite_file.migrate(connection, LOCAL_MIGRATIONS, too_new)


def _is_empty_file(path: Path) -> bool:
    try:
        return path.is_file() and path.stat().st_size == 0
    except OSError:
        return False


def _empty_file_notice(path: Path) -> str:
    return (
        f"Your drafts file {path} was empty (0 bytes), so there were no drafts or outbox "
        "entries to show: it was started again as a new file. If you had drafts, look for a "
        "backup of that file."
    )


def _os_error(exc: OSError, path: Path) -> LocalStoreError:
    if is_disk_full(exc):
        return LocalStoreError(
            f"The disk is full: your drafts file {path} could not be created. Free some disk "
            "space; what you typed is still in the window."
        )
    return LocalStoreError(
        f"Could not create your drafts file {path}: {exc.strerror or exc}. Check the "
        "permissions of the folder."
    )


def _damaged_message(path: Path, detail: str) -> str:
    return (
        f"Your drafts file {path} is damaged ({detail}). It was left as it is, so nothing in "
        "it is thrown away: close Postdesk and copy the file somewhere safe before trying to "
        "repair it (for example with `sqlite3 FILE .recover`)."
    )


def _as_store_error(exc: sqlite3.Error, path: Path) -> LocalStoreError:
    text = str(exc)
    if isinstance(exc, sqlite3.DatabaseError) and (
        "not a database" in text or "malformed" in text or "corrupt" in text
    ):
        return LocalStoreDamaged(_damaged_message(path, text))
    if is_disk_full(exc):
        return LocalStoreError(
            f"The disk is full: your drafts file {path} could not be written. Free some disk "
            "space; what you typed is still in the window."
        )
    if "disk I/O" in text:
        return LocalStoreError(
            f"Could not write your drafts file {path} ({text}). Free some disk space; "
            "what you typed is still in the window."
        )
    if "locked" in text or "busy" in text:
        return LocalStoreError(
            f"Your drafts file {path} is in use by another program ({text}). Close other "
            "Postdesk windows of this workspace and try again."
        )
    if "readonly" in text or "unable to open" in text or "permission" in text.lower():
        return LocalStoreError(
            f"Could not open your drafts file {path} for writing ({text}). Check the "
            "permissions of the folder."
        )
    return LocalStoreError(f"Your drafts file {path} could not be used ({text}).")


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _search_text(document: str, text: str | None) -> str:
    if text is not None:
        return text
    try:
        parsed = json.loads(document)
    except ValueError:
        return document
    found: list[str] = []
    _strings(parsed, found)
    return "\n".join(found)


def _strings(value: Any, found: list[str]) -> None:
    if isinstance(value, str):
        if value.strip():
            found.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, found)
    elif isinstance(value, list):
        for item in value:
            _strings(item, found)


def _conflict_title(title: str) -> str:
    return f"{title} (conflict copy)" if title else "(conflict copy)"


def _server_title(title: str) -> str:
    return f"{title} (server version)" if title else "(server version)"


def _draft_row(
    connection: sqlite3.Connection, draft_id: str, *, include_deleted: bool = False
) -> Any:
    if include_deleted:
        return connection.execute(
            f"SELECT {_DRAFT_COLUMNS}, deleted_utc FROM drafts WHERE id = ?", (draft_id,)
        ).fetchone()
    return connection.execute(
        f"SELECT {_DRAFT_COLUMNS} FROM drafts WHERE id = ? AND deleted_utc IS NULL", (draft_id,)
    ).fetchone()


def _draft(row: Any) -> Draft:
    return Draft(
        id=row[0],
        title=row[1],
        document=row[2],
        preview=" ".join(row[3].split())[:_PREVIEW_CHARS],
        revision=row[4],
        created_at=parse_utc_text(row[5]),
        updated_at=parse_utc_text(row[6]),
        server_post_id=row[7],
        server_version=row[8],
        conflict_of=row[9],
    )


def _insert_draft(
    connection: sqlite3.Connection,
    now: datetime,
    *,
    title: str,
    document: str,
    search_text: str,
    draft_id: str | None = None,
    revision: int = 1,
    server_post_id: str | None = None,
    server_version: str | None = None,
    conflict_of: str | None = None,
) -> Draft:
    new_id = draft_id or uuid.uuid4().hex
    stamp = utc_text(now)
    connection.execute(
        f"INSERT INTO drafts ({_INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            new_id,
            title.strip(),
            document,
            search_text,
            revision,
            stamp,
            stamp,
            server_post_id,
            server_version,
            conflict_of,
        ),
    )
    row = _draft_row(connection, new_id)
    assert row is not None
    return _draft(row)
