"""The process's local time zone set for a test, and put back after it."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def local_zone(name: str) -> Iterator[None]:
    """`TZ` set to `name` (e.g. "Asia/Tokyo") and applied; the previous value restored."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = name
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before
        time.tzset()
