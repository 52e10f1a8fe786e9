"""Every start-up failure takes one path to the user: a clear sentence in a dialog when there is a
display, on stderr otherwise (always on stderr too, for logs). Never a traceback: an unexpected
error is written to a log file and the message says where."""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import traceback
from pathlib import Path
from typing import IO

from app.store.disk_full import is_disk_full
from app.store.private_files import open_private_append

HEADLESS_PLATFORMS = {"offscreen", "minimal", "vnc"}


class StartupError(Exception):
    """Why this run cannot start, in words (shown to the user; exit code 2)."""


def has_display() -> bool:
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform.split(":")[0] in HEADLESS_PLATFORMS:
        return False
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def report_failure(text: str) -> None:
    print(f"postdesk: {text}", file=sys.stderr)
    if not has_display():
        return
    from PySide6.QtWidgets import QApplication, QMessageBox

    if QApplication.instance() is None:
        return
    # The event loop has ended: a blocking dialog is the only thing left running.
    QMessageBox.critical(None, "Postdesk cannot start", text)


def log_unexpected(error: BaseException, log_dir: Path) -> Path | None:
    """Write the traceback where a bug report can find it; None if even that is impossible."""
    try:
        log_dir.mkdir(parents=True, exist_ok=True)
        path = log_dir / "crash.log"
        with open_private_append(path) as handle:  # 0600: a traceback may name the user's files
            traceback.print_exception(error, file=handle)
        return path
    except OSError:
        return None


def usable_folder(path: Path, what: str) -> Path:
    """Create `path` if needed and check that files can be written there."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".postdesk-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        if is_disk_full(error):
            raise StartupError(
                f"The disk is full: the {what} {path} cannot be written. Free some disk "
                "space, then start Postdesk again."
            ) from None
        raise StartupError(
            f"The {what} {path} cannot be used ({error.strerror or error}). Check that it "
            "exists and that you may write to it, or point XDG_DATA_HOME elsewhere."
        ) from None
    return path


class AlreadyRunning(StartupError):
    """Another Postdesk holds the data folder."""


class InstanceLock:
    """One Postdesk per data folder: a second one would write the same caches at once."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "postdesk.lock"
        self._handle: IO[str] | None = None

    def acquire(self) -> None:
        handle = self.path.open("a+", encoding="utf-8")
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise AlreadyRunning(
                f"Postdesk is already running with the data folder {self.path.parent}. "
                "Switch to its window, or quit it before starting another one."
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._handle = handle

    def release(self) -> None:
        handle, self._handle = self._handle, None
        if handle is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
            handle.close()
