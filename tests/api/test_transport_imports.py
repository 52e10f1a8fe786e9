"""A request does not search sys.path for `sniffio` (httpcore asks for it 4 times a request;
not installed, each failed import stat-ed every path entry, handing the GIL away each time)."""

from __future__ import annotations

import asyncio
import importlib.abc
import sys
from typing import Any

import httpcore._synchronization as synchronization
import pytest

import app.api.transport  # noqa: F401  (what the client does when it is imported)


class Searches(importlib.abc.MetaPathFinder):
    def __init__(self) -> None:
        self.names: list[str] = []

    def find_spec(self, name: str, path: Any, target: Any = None) -> None:
        self.names.append(name)
        return None


@pytest.mark.asyncio
async def test_httpcore_finds_out_it_runs_on_asyncio_without_a_path_search() -> None:
    searches = Searches()
    sys.meta_path.insert(0, searches)
    try:
        libraries = [synchronization.current_async_library() for _ in range(4)]
    finally:
        sys.meta_path.remove(searches)
    assert libraries == ["asyncio"] * 4
    assert "sniffio" not in searches.names
    assert asyncio.get_running_loop() is not None
