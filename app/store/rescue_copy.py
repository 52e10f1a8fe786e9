"""A copy of what the user wrote, in a file they choose, when the drafts file cannot take it
(issue 19 §2). Plain text: readable anywhere, whatever happens to Postdesk."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from app.store.disk_full import is_disk_full
from app.store.private_files import PRIVATE_MODE


class RescueFailed(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def write_rescue_copy(path: Path, text: str) -> None:
    """Write `text` to `path` whole or not at all (a temporary file renamed over it), 0600.
    RescueFailed says why in words (the disk is full, no permission...)."""
    folder = path.parent
    handle = None
    temporary = ""
    try:
        descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
        os.fchmod(descriptor, PRIVATE_MODE)
        handle = os.fdopen(descriptor, "w", encoding="utf-8")
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
        handle.close()
        handle = None
        os.replace(temporary, path)
        temporary = ""
    except OSError as exc:
        if is_disk_full(exc):
            raise RescueFailed(
                f"The disk is full: the copy could not be written to {path}. Choose a "
                "place on another drive (a USB stick), or free some space."
            ) from None
        raise RescueFailed(
            f"The copy could not be written to {path}: {exc.strerror or exc}."
        ) from None
    finally:
        if handle is not None:
            handle.close()
        if temporary:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
