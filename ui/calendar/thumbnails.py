"""Post images as small pixmaps for the calendar, ready when painted, never waited for.

`pixmap(url, side)` is called from paint methods: it answers from an LRU of pixmaps or says None
at once and gets the image ready: the workspace's `ThumbnailCache` (app/media) downloads it,
then a worker thread here reads it with `QImageReader` (scaled while read where the format
allows), keeps a small version on disk for the next start, and crops and scales it to a square of
`side` logical pixels. `changed` fires (coalesced) when pixmaps became ready or an image
failed for good: repaint then.
The paint path never decodes, scales a large image or touches the network.

One `Thumbnails` per calendar page; its source follows the open workspace (`set_source`), so
views keep one object for their life. Views get it through `set_thumbnails(thumbnails)`.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, QRect, QSize, Qt, QThreadPool, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QImage, QImageReader, QPixmap

if TYPE_CHECKING:
    from collections.abc import Callable

    from app.media.thumbnail_cache import ThumbnailFiles

SMALL_SIDE = 192
"""Pixels of the longer side of the small version kept on disk: 64 logical px at 3x, or 96 at 2x."""
MAX_PIXELS = 40_000_000
"""An image with more pixels than this is not decoded (a tiny file can declare 30,000²)."""
LRU_ENTRIES = 800
DECODE_THREADS = 2
CHANGED_COALESCE_MS = 30
"""Pixmaps made ready within this long are announced by one `changed` (one repaint)."""


class ThumbnailSource(Protocol):
    """What `Thumbnails` needs of `app.media.thumbnail_cache.ThumbnailCache`."""

    listeners: list[Callable[[str, bool], None]]

    def request(self, url: str) -> ThumbnailFiles | None: ...

    def failure(self, url: str) -> str | None: ...

    def mark_failed(self, url: str, reason: str) -> None: ...

    def forget(self, url: str) -> None: ...


class _Relay(QObject):
    """Carries a worker's result to the GUI thread (a queued connection: emitted elsewhere)."""

    done = Signal(int, str, object)  # generation, url, {side: QImage} or an error text


class Thumbnails(QObject):
    changed = Signal()

    def __init__(self, source: ThumbnailSource | None = None, parent: QObject | None = None):
        super().__init__(parent)
        # Made before the relay: children are deleted in order, and the pool waits for its
        # workers, so none is left to emit through a deleted relay.
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(DECODE_THREADS)
        self._pool.setExpiryTimeout(5_000)  # idle threads end: none is left running at exit
        app = QGuiApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self._pool.waitForDone)
        self._relay = _Relay(self)
        self._relay.done.connect(self._decoded)
        self._changed_soon = QTimer(self)
        self._changed_soon.setSingleShot(True)
        self._changed_soon.setInterval(CHANGED_COALESCE_MS)
        self._changed_soon.timeout.connect(self.changed)
        self._source: ThumbnailSource | None = None
        self._generation = 0
        self._pixmaps: OrderedDict[tuple[str, int], QPixmap] = OrderedDict()
        self._wanted: dict[str, set[int]] = {}  # sides asked for and not ready
        self._busy: set[str] = set()  # downloading or decoding
        self.decodes = 0
        """Images read by the workers (for tests and the figures in the notes)."""
        self.set_source(source)

    # -- the source ----------------------------------------------------------------------------
    def set_source(self, source: ThumbnailSource | None) -> None:
        """The open workspace's downloads (None: no workspace). What was made for the last one
        is dropped; results still on their way from it are ignored."""
        if source is self._source:
            return
        if self._source is not None:
            with contextlib.suppress(ValueError):
                self._source.listeners.remove(self._downloaded)
        self._source = source
        self._generation += 1
        self._pool.clear()
        self._pixmaps.clear()
        self._wanted.clear()
        self._busy.clear()
        if source is not None:
            source.listeners.append(self._downloaded)
        self.changed.emit()

    def close(self) -> None:
        """Stop: queued reads are dropped, running ones finished (they take milliseconds)."""
        self.set_source(None)
        self._pool.waitForDone()

    # -- asking --------------------------------------------------------------------------------
    def pixmap(self, url: str | None, side: int) -> QPixmap | None:
        """A square pixmap of `url`'s image, `side` logical pixels wide, when it is ready; else
        None, and it is being made (`changed` fires when it is). Never blocks."""
        if not url or side <= 0 or self._source is None:
            return None
        key = (url, side)
        found = self._pixmaps.get(key)
        if found is not None:
            self._pixmaps.move_to_end(key)
            return found
        if self._source.failure(url) is not None:  # not this session, or not yet again
            return None
        self._wanted.setdefault(url, set()).add(side)
        if url not in self._busy:
            self._prepare(url)
        return None

    def failed(self, url: str | None) -> bool:
        """No thumbnail comes for `url` now (refused, unreadable, or its server unreachable)."""
        return bool(url and self._source is not None and self._source.failure(url) is not None)

    def ready_count(self) -> int:
        return len(self._pixmaps)

    def _prepare(self, url: str) -> None:
        source = self._source
        assert source is not None
        self._busy.add(url)
        files = source.request(url)
        if files is not None:
            self._decode(url, files)
            return
        if source.failure(url) is not None:
            self._fail(url)
        # else: downloading; `_downloaded` goes on.

    def _downloaded(self, url: str, ok: bool) -> None:
        if url not in self._busy or self._source is None:
            return
        if ok:
            self._busy.discard(url)
            if self._wanted.get(url):
                self._prepare(url)
        else:
            self._fail(url)

    def _fail(self, url: str) -> None:
        self._busy.discard(url)
        self._wanted.pop(url, None)
        self._changed_later()  # a view may say "no preview"

    def _changed_later(self) -> None:
        if not self._changed_soon.isActive():
            self._changed_soon.start()

    # -- reading, off the GUI thread -----------------------------------------------------------
    def _decode(self, url: str, files: ThumbnailFiles) -> None:
        sides = frozenset(self._wanted.get(url, ()))
        ratio = _device_pixel_ratio()
        generation = self._generation
        relay = self._relay

        def work() -> None:
            try:
                result: object = _read_squares(files, sides, ratio)
            except Exception as error:  # said back to the GUI thread, not lost
                result = f"{type(error).__name__}: {error}"
            relay.done.emit(generation, url, result)

        self.decodes += 1
        self._pool.start(work)

    def _decoded(self, generation: int, url: str, result: object) -> None:
        if generation != self._generation or self._source is None:
            return
        self._busy.discard(url)
        if not isinstance(result, dict):
            # Unreadable: its files go (a new session downloads it again), not asked this one.
            self._source.forget(url)
            self._source.mark_failed(url, str(result))
            self._fail(url)
            return
        ratio = _device_pixel_ratio()
        wanted = self._wanted.get(url, set())
        for side, image in result.items():
            pixmap = QPixmap.fromImage(image)
            pixmap.setDevicePixelRatio(ratio)
            self._pixmaps[(url, side)] = pixmap
            wanted.discard(side)
        while len(self._pixmaps) > LRU_ENTRIES:
            self._pixmaps.popitem(last=False)
        if wanted:  # sides asked for while this read ran
            self._prepare(url)
        else:
            self._wanted.pop(url, None)
        self._changed_later()


def _device_pixel_ratio() -> float:
    app = QGuiApplication.instance()
    return app.devicePixelRatio() if isinstance(app, QGuiApplication) else 1.0


def _read_squares(files: ThumbnailFiles, sides: frozenset[int], ratio: float) -> dict[int, QImage]:
    """In a worker thread: the small version (made now from the download if need be), cropped
    to a centred square and scaled to each side."""
    small = _read_small(files)
    shortest = min(small.width(), small.height())
    square = small.copy(
        QRect((small.width() - shortest) // 2, (small.height() - shortest) // 2, shortest, shortest)
    )
    squares: dict[int, QImage] = {}
    for side in sides:
        pixels = max(1, math.ceil(side * ratio))
        squares[side] = square.scaled(
            pixels,
            pixels,
            Qt.AspectRatioMode.IgnoreAspectRatio,
            Qt.TransformationMode.SmoothTransformation,
        ).convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
    return squares


def _read_small(files: ThumbnailFiles) -> QImage:
    if files.small.exists():
        image = QImageReader(str(files.small)).read()
        if not image.isNull():
            with contextlib.suppress(OSError):
                os.utime(files.small)  # in use: kept by the cache's pruning
            return image
    reader = QImageReader(str(files.original))
    reader.setAutoTransform(True)  # EXIF orientation: the photo stands as taken
    size = reader.size()
    if not size.isValid() or size.isEmpty():
        raise ValueError(reader.errorString() or "not an image Qt can read")
    if size.width() * size.height() > MAX_PIXELS:
        raise ValueError(f"too many pixels ({size.width()}×{size.height()})")
    scale = min(1.0, SMALL_SIDE / max(size.width(), size.height()))
    reader.setScaledSize(
        QSize(max(1, round(size.width() * scale)), max(1, round(size.height() * scale)))
    )
    image = reader.read()
    if image.isNull():
        raise ValueError(reader.errorString() or "not an image Qt can read")
    # Written whole or not at all; the name ends in .png, which says the format to `save`.
    temporary = files.small.with_name(f".{os.getpid()}.{threading.get_ident()}.{files.small.name}")
    if image.save(str(temporary)):
        os.replace(temporary, files.small)
        with contextlib.suppress(OSError):
            files.original.unlink()
    else:
        with contextlib.suppress(OSError):
            temporary.unlink()
    return image
