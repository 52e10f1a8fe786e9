"""A process-wide setting changed while at least one user needs it, then put back.

The interpreter's settings (the GIL switch interval, automatic garbage collection) belong to the
whole process, while the refreshes that want them changed overlap (two workspaces, tests): the
first user in saves the value and applies the change, the last one out restores what it saved.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class SharedSetting(Generic[T]):
    def __init__(self, apply: Callable[[], T], restore: Callable[[T], None]) -> None:
        self._apply = apply
        """Changes the setting and returns the value it had before."""
        self._restore = restore
        self._lock = threading.Lock()
        self._users = 0
        self._saved: T | None = None

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        with self._lock:
            if self._users == 0:
                self._saved = self._apply()
            self._users += 1
        try:
            yield
        finally:
            with self._lock:
                self._users -= 1
                if self._users == 0:
                    saved, self._saved = self._saved, None
                    self._restore(saved)  # type: ignore[arg-type]  # set by the first user
