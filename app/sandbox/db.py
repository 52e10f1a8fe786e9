"""Thin typed wrapper over one sqlite3 connection, handed to the repository functions."""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from app.sandbox.clock import Clock, to_db

Row = sqlite3.Row
Params = Sequence[Any] | dict[str, Any]


def new_id() -> str:
    return str(uuid.uuid4())


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def placeholders(count: int) -> str:
    return ",".join("?" * count)


@dataclass
class Db:
    conn: sqlite3.Connection
    clock: Clock
    # Absolute prefix of public media URLs (`<origin>/storage`); known once the server listens.
    media_base_url: str
    id_factory: Callable[[], str] = new_id

    def new_id(self) -> str:
        return self.id_factory()

    def now(self) -> str:
        return to_db(self.clock())

    def one(self, sql: str, params: Params = ()) -> Row | None:
        row: Row | None = self.conn.execute(sql, params).fetchone()
        return row

    def all(self, sql: str, params: Params = ()) -> list[Row]:
        return list(self.conn.execute(sql, params).fetchall())

    def scalar(self, sql: str, params: Params = ()) -> Any:
        row = self.conn.execute(sql, params).fetchone()
        return None if row is None else row[0]

    def run(self, sql: str, params: Params = ()) -> int:
        return self.conn.execute(sql, params).rowcount

    def many(self, sql: str, rows: Iterable[Params]) -> None:
        self.conn.executemany(sql, rows)

    def insert(self, table: str, values: dict[str, Any]) -> None:
        columns = ",".join(values)
        self.conn.execute(
            f"INSERT INTO {table} ({columns}) VALUES ({placeholders(len(values))})",
            tuple(values.values()),
        )

    def update(self, table: str, row_id: str, values: dict[str, Any]) -> None:
        if not values:
            return
        assignments = ",".join(f"{column} = ?" for column in values)
        self.conn.execute(
            f"UPDATE {table} SET {assignments} WHERE id = ?", (*values.values(), row_id)
        )

    def media_url(self, path: str) -> str:
        return f"{self.media_base_url}/{path}"
