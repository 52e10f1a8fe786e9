"""Opening and migrating a SQLite file (app/store/sqlite_file.py), the one mechanism behind the
workspace cache and the local file of drafts and outbox."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import cast

import pytest

from app.store import sqlite_file
from app.store.local_schema import LOCAL_SCHEMA_VERSION
from app.store.local_store import LocalStore, NewerLocalSchema
from app.store.sqlite_file import migrate, schema_version, split_statements

STEPS = (
    # 1: a ";" inside a string literal and a trigger whose body holds statements of its own.
    """
    CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL DEFAULT 'a; b', edits INTEGER);
    CREATE TABLE log (note_id INTEGER, said TEXT);
    CREATE TRIGGER notes_logged AFTER UPDATE ON notes BEGIN
        INSERT INTO log VALUES (new.id, 'changed; again');
        UPDATE notes SET edits = coalesce(edits, 0) + 1 WHERE id = new.id;
    END;
    """,
    # 2: two statements on one line, and a comment.
    """
    CREATE INDEX log_by_note ON log (note_id); INSERT INTO notes (id) VALUES (1);  -- seeded
    """,
)


class Refused(Exception):
    pass


def refuse(found: int, known: int) -> Refused:
    return Refused(f"{found} > {known}")


def test_a_trigger_and_a_semicolon_in_a_string_stay_in_their_statements() -> None:
    statements = split_statements(STEPS[0])
    assert len(statements) == 3
    assert "'a; b'" in statements[0]
    assert statements[2].startswith("CREATE TRIGGER")
    assert statements[2].endswith("END;")


def test_statements_on_one_line_are_two() -> None:
    assert len(split_statements(STEPS[1])) == 2


@pytest.mark.parametrize(
    "script", ["CREATE TABLE t (x", "CREATE TRIGGER t AFTER INSERT ON a BEGIN SELECT 1;"]
)
def test_an_unfinished_statement_is_refused(script: str) -> None:
    with pytest.raises(ValueError, match="incomplete SQL"):
        split_statements(script)


def test_migrating_runs_every_step_once_and_the_trigger_works(tmp_path: Path) -> None:
    connection = sqlite_file.connect(tmp_path / "f.sqlite3", pragmas=("foreign_keys = ON",))
    try:
        assert migrate(connection, STEPS, refuse) == 2
        assert migrate(connection, STEPS, refuse) == 2  # again: nothing to do
        assert schema_version(connection) == 2
        assert connection.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        connection.execute("UPDATE notes SET text = 'x' WHERE id = 1")
        assert connection.execute("SELECT text, edits FROM notes").fetchall() == [("x", 1)]
        assert connection.execute("SELECT said FROM log").fetchall() == [("changed; again",)]
    finally:
        connection.close()


def test_a_file_stopped_between_steps_continues(tmp_path: Path) -> None:
    connection = sqlite_file.connect(tmp_path / "f.sqlite3")
    try:
        assert migrate(connection, STEPS[:1], refuse) == 1
        assert migrate(connection, STEPS, refuse) == 2
        assert connection.execute("SELECT count(*) FROM notes").fetchone()[0] == 1
    finally:
        connection.close()


def test_a_failing_step_leaves_the_previous_version_intact(tmp_path: Path) -> None:
    broken = (*STEPS, "CREATE TABLE extra (x); INSERT INTO missing VALUES (1);")
    connection = sqlite_file.connect(tmp_path / "f.sqlite3")
    try:
        with pytest.raises(sqlite3.OperationalError):
            migrate(connection, broken, refuse)
        assert schema_version(connection) == 2
        assert not connection.in_transaction
        names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        assert "extra" not in names
    finally:
        connection.close()


def test_a_newer_file_is_refused_and_not_changed(tmp_path: Path) -> None:
    connection = sqlite_file.connect(tmp_path / "f.sqlite3")
    try:
        migrate(connection, STEPS, refuse)
        connection.execute("PRAGMA user_version = 7")
        with pytest.raises(Refused, match="7 > 1"):
            migrate(connection, STEPS[:1], refuse)
        assert schema_version(connection) == 7
    finally:
        connection.close()


def test_two_openers_of_a_new_file_create_it_once(tmp_path: Path) -> None:
    path = tmp_path / "f.sqlite3"
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def open_and_migrate() -> None:
        connection = sqlite_file.connect(path)
        try:
            start.wait()
            migrate(connection, STEPS, refuse)
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=open_and_migrate) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM notes").fetchone()[0] == 1


def test_the_local_file_uses_it_and_refuses_a_newer_one(tmp_path: Path) -> None:
    path = tmp_path / "local.sqlite3"
    store = LocalStore.open(path)
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == LOCAL_SCHEMA_VERSION
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with sqlite3.connect(path, isolation_level=None) as db:
        db.execute(f"PRAGMA user_version = {LOCAL_SCHEMA_VERSION + 1}")
    with pytest.raises(NewerLocalSchema):
        LocalStore.open(path)


def test_an_unnumbered_file_is_adopted_once_then_continues_by_steps(tmp_path: Path) -> None:
    path = tmp_path / "f.sqlite3"
    with sqlite3.connect(path) as db:  # written before the file had numbered steps
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        db.execute("INSERT INTO notes (id, text) VALUES (5, 'kept')")
    asked: list[tuple[int, bool]] = []

    def adopt(connection: sqlite3.Connection) -> int:
        asked.append((schema_version(connection), connection.in_transaction))
        connection.execute("ALTER TABLE notes ADD COLUMN edits INTEGER")
        connection.execute("CREATE TABLE log (note_id INTEGER, said TEXT)")
        return 1  # now in step 1's shape: step 2 still runs

    connection = sqlite_file.connect(path)
    try:
        assert migrate(connection, STEPS, refuse, adopt) == 2
        assert migrate(connection, STEPS, refuse, adopt) == 2
        assert asked == [(0, True)]
        rows = connection.execute("SELECT id, text FROM notes ORDER BY id").fetchall()
        assert rows == [(1, None), (5, "kept")]  # step 2's row beside the kept one
        names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        assert "log_by_note" in names  # step 2 ran
        assert "notes_logged" not in names  # step 1 did not
    finally:
        connection.close()


def test_adopting_nothing_builds_from_step_one(tmp_path: Path) -> None:
    connection = sqlite_file.connect(tmp_path / "f.sqlite3")
    try:
        assert migrate(connection, STEPS, refuse, lambda _connection: 0) == 2
        names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        assert {"notes", "log", "notes_logged", "log_by_note"} <= names
    finally:
        connection.close()


def test_a_numbered_file_is_never_offered_for_adoption(tmp_path: Path) -> None:
    connection = sqlite_file.connect(tmp_path / "f.sqlite3")

    def adopt(_connection: sqlite3.Connection) -> int:
        raise AssertionError("asked about a numbered file")

    try:
        migrate(connection, STEPS[:1], refuse)
        assert migrate(connection, STEPS, refuse, adopt) == 2
        connection.execute("PRAGMA user_version = 9")
        with pytest.raises(Refused):
            migrate(connection, STEPS, refuse, adopt)
    finally:
        connection.close()


def test_an_adoption_beyond_the_known_steps_changes_nothing(tmp_path: Path) -> None:
    connection = sqlite_file.connect(tmp_path / "f.sqlite3")

    def adopt(connection: sqlite3.Connection) -> int:
        connection.execute("CREATE TABLE half (x)")
        return 3

    try:
        with pytest.raises(ValueError, match="adopted as version 3"):
            migrate(connection, STEPS, refuse, adopt)
        assert schema_version(connection) == 0
        assert connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
    finally:
        connection.close()


def busy(code: int = sqlite3.SQLITE_BUSY) -> sqlite3.OperationalError:
    error = sqlite3.OperationalError("database is locked")
    error.sqlite_errorcode = code  # as the sqlite3 module sets it
    return error


class RefusedAtFirst:
    """Answers each statement with `error` `times` times, then runs it: SQLite's answer to a
    switch to WAL while another connection switches the same file (no busy wait first), which
    threads can only provoke by chance."""

    def __init__(self, times: int, error: sqlite3.OperationalError) -> None:
        self.times = times
        self.error = error
        self.ran: list[str] = []

    def execute(self, sql: str) -> None:
        if self.times:
            self.times -= 1
            raise self.error
        self.ran.append(sql)


def test_a_pragma_refused_as_busy_is_tried_again_after_a_growing_pause(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pauses: list[float] = []
    monkeypatch.setattr(sqlite_file, "_pause", pauses.append)
    connection = RefusedAtFirst(3, busy())
    sqlite_file.set_pragmas(cast(sqlite3.Connection, connection), ["journal_mode = WAL"])
    assert connection.ran == ["PRAGMA journal_mode = WAL"]
    assert pauses == pytest.approx([0.001, 0.002, 0.004])


def test_an_extended_busy_code_counts_as_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlite_file, "_pause", lambda seconds: None)
    connection = RefusedAtFirst(1, busy(sqlite3.SQLITE_BUSY | 1 << 8))  # SQLITE_BUSY_RECOVERY
    sqlite_file.set_pragmas(cast(sqlite3.Connection, connection), ["journal_mode = WAL"])
    assert connection.ran == ["PRAGMA journal_mode = WAL"]


def test_a_lock_that_never_goes_ends_in_the_error_after_the_busy_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [0.0]
    pauses: list[float] = []

    def time_passes(seconds: float) -> None:
        pauses.append(seconds)
        now[0] += seconds

    monkeypatch.setattr(sqlite_file, "_pause", time_passes)
    monkeypatch.setattr(sqlite_file.time, "monotonic", lambda: now[0])
    connection = RefusedAtFirst(10**6, busy())
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        sqlite_file.set_pragmas(cast(sqlite3.Connection, connection), ["journal_mode = WAL"])
    assert connection.ran == []
    assert sqlite_file.BUSY_TIMEOUT_S - 0.05 < sum(pauses) <= sqlite_file.BUSY_TIMEOUT_S
    assert max(pauses) == 0.05  # the pause grows, to a bound


def test_a_pragma_error_that_is_not_a_lock_is_not_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pauses: list[float] = []
    monkeypatch.setattr(sqlite_file, "_pause", pauses.append)
    (tmp_path / "not-a-database.db").write_bytes(b"this is not SQLite" * 100)
    with pytest.raises(sqlite3.DatabaseError):
        sqlite_file.connect(tmp_path / "not-a-database.db", ["journal_mode = WAL"])
    assert pauses == []


def test_simultaneous_openers_of_one_old_file_all_switch_it_to_wal(tmp_path: Path) -> None:
    # The race as it happens: unordered threads; 16 % of such pairs failed before the wait.
    for round_ in range(40):
        path = tmp_path / f"old{round_}.db"
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE t (x)")
        errors: list[BaseException] = []
        start = threading.Barrier(3)

        def open_it(
            path: Path = path,
            errors: list[BaseException] = errors,
            start: threading.Barrier = start,
        ) -> None:
            try:
                start.wait()
                sqlite_file.connect(path, ["journal_mode = WAL"]).close()
            except BaseException as exc:  # reported below
                errors.append(exc)

        threads = [threading.Thread(target=open_it) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == [], f"round {round_}"
