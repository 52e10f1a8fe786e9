"""Migrating a SQLite file at its edges (issue 18 §2): a file adopted as the newest version,
stray ";" lines, a statement that is a single word, and the words of an incomplete step."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from app.store import sqlite_file
from app.store.sqlite_file import migrate, split_statements

STEPS = (
    "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);",
    "CREATE INDEX notes_by_text ON notes (text);",
)


def _refuse(found: int, known: int) -> Exception:
    return RuntimeError(f"{found} > {known}")


def test_a_file_adopted_as_the_newest_version_is_used_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "f.sqlite3"
    with sqlite3.connect(path) as db:  # already in the last step's shape, but unnumbered
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        db.execute("CREATE INDEX notes_by_text ON notes (text)")
        db.execute("INSERT INTO notes VALUES (1, 'kept')")
    connection = sqlite_file.connect(path)
    try:
        assert migrate(connection, STEPS, _refuse, lambda _: len(STEPS)) == len(STEPS)
        assert sqlite_file.schema_version(connection) == len(STEPS)
        assert connection.execute("SELECT text FROM notes").fetchall() == [("kept",)]
    finally:
        connection.close()


def test_an_adoption_past_the_newest_version_is_refused(tmp_path: Path) -> None:
    connection = sqlite_file.connect(tmp_path / "f.sqlite3")
    try:
        with pytest.raises(ValueError, match=r"adopted as version 3, outside 0\.\.2"):
            migrate(connection, STEPS, _refuse, lambda _: 3)
        assert sqlite_file.schema_version(connection) == 0
    finally:
        connection.close()


def test_lines_of_only_semicolons_are_not_statements() -> None:
    script = "CREATE TABLE a (x);\n;\n  ; ;\nCREATE TABLE b (y);\n"
    assert split_statements(script) == ["CREATE TABLE a (x);", "CREATE TABLE b (y);"]


def test_a_statement_of_one_word_is_kept() -> None:
    # Blank means blanks, ";" and comments: no other character is taken for one.
    assert split_statements("CREATE TABLE a (x);\nX;\n") == ["CREATE TABLE a (x);", "X;"]


def test_an_incomplete_step_is_quoted_to_sixty_characters() -> None:
    tail = "CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE a SET x = 1 WHERE x = 2 AND y = 3"
    expected = f"incomplete SQL statement in a migration: {tail[:60]}"
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        split_statements(f"CREATE TABLE a (x);\n{tail};")
