"""Files only this user may read: the drafts, the cache, the crash log (issue 19 §4).

They hold what the user wrote, their posts and tracebacks; a shared machine must not read them.
SQLite gives a database's `-wal`/`-shm`/journal files the database file's own permissions, so
creating the database 0600 before SQLite opens it covers those too.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import IO

PRIVATE_MODE = 0o600


def make_private(path: Path) -> None:
    """Create `path` empty with mode 0600 when it is missing; narrow an existing file's mode
    to 0600 when others may read it. An existing file's content is never touched. A mode that
    cannot be changed (a file of another user, a FAT drive) is left as it is."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_MODE)
    except FileExistsError:
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
            if mode & 0o077:
                path.chmod(mode & 0o700)
        except OSError:
            pass
        return
    os.close(descriptor)


def open_private_append(path: Path) -> IO[str]:
    """`path` opened to append text, created 0600 when missing."""
    make_private(path)
    return path.open("a", encoding="utf-8")
