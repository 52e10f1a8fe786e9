"""Post images for thumbnails, each downloaded once into the workspace's cache folder.

The calendar asks for an image while it paints (`request`), so asking must never wait: it says
whether the file is on disk and otherwise queues the download. The downloads run in `run()`,
which the workspace session starts and cancels like its other services; at most `concurrency`
at once, at most one per URL. A URL the server refused (404, not an image, too large) is not
tried again this session; one that could not be reached (offline, a timeout, a 5xx) is tried
again when asked after `RETRY_UNREACHABLE_S`: a broken CDN costs one request per image every few
minutes, never one per repaint, and thumbnails come back after the train leaves the tunnel. The
newest request is served first: the period on screen is the one the user last moved to.

Nothing from a server is trusted: only http(s) URLs with a host, no API key sent (media URLs are
public files, and a CDN has no business seeing the key), `image/*` answers only (SVG refused:
it is a document that can reference other files), at most `max_bytes` read however the answer
is encoded, a deadline per download. Files are written whole or not at all (temporary file and
rename), named by a hash of their URL. The UI decodes a downloaded file off the GUI thread and
keeps a small version beside it (`ThumbnailFiles.small`); the original is then removed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import httpx

from app.content.safe_links import is_openable_url

log = logging.getLogger(__name__)

MAX_BYTES = 10 * 1024 * 1024
"""A post image larger than this is not downloaded for a thumbnail (networks take up to ~8 MB
for images; a thumbnail of a bigger file is not worth the wait or the disk)."""
CONCURRENCY = 4
TIMEOUT_S = 10.0
"""For connecting and between two reads."""
DEADLINE_S = 30.0
"""For a whole download: a server trickling bytes does not hold a slot for ever."""
MAX_REDIRECTS = 3
RETRY_UNREACHABLE_S = 300.0
KEEP_DAYS = 30
"""A file not read for this long is removed when the workspace opens (the UI touches what it
reads): images of posts long gone, or of URLs that changed (the demo's sandbox gets a new port
each run), do not pile up."""
REFUSED_TYPES = frozenset({"image/svg+xml"})

Listener = Callable[[str, bool], None]
"""Told `(url, ok)` on the event loop's thread when a download ended."""


class ThumbnailFiles(NamedTuple):
    """Where one URL's image is kept: the small version the UI wrote, else the download."""

    small: Path
    original: Path


class DownloadRefused(Exception):
    """Why an image was not downloaded, in words (shown in logs). `unreachable`: the server was
    not reached or did not answer in full, which may pass; otherwise it refused for good."""

    def __init__(self, reason: str, *, unreachable: bool = False) -> None:
        super().__init__(reason)
        self.unreachable = unreachable


def files_for(folder: Path, url: str) -> ThumbnailFiles:
    name = hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest()[:40]
    return ThumbnailFiles(folder / f"{name}.png", folder / f"{name}.download")


class ThumbnailCache:
    def __init__(
        self,
        folder: Path,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        max_bytes: int = MAX_BYTES,
        concurrency: int = CONCURRENCY,
        timeout: float = TIMEOUT_S,
        deadline: float = DEADLINE_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.folder = folder
        self.max_bytes = max_bytes
        self.concurrency = concurrency
        self.listeners: list[Listener] = []
        self.requests_made = 0
        """Downloads started this session (for tests and the figures in the notes)."""
        self._transport = transport
        self._timeout = timeout
        self._deadline = deadline
        self._queue: asyncio.LifoQueue[str] = asyncio.LifoQueue()
        self._pending: set[str] = set()  # queued or downloading
        self._on_disk: set[str] = set()
        self._failed: dict[str, str] = {}
        self._retry_after: dict[str, float] = {}  # unreachable URLs: when to try again
        self._clock = clock
        self._in_flight = 0
        self._client: httpx.AsyncClient | None = None
        self._client_lock = asyncio.Lock()
        self.closed = False

    # -- asking (never waits) ----------------------------------------------------------------
    def request(self, url: str) -> ThumbnailFiles | None:
        """The files of `url` when it was downloaded (now or in an earlier session); else None,
        and a download is queued unless one is queued or running, or it failed this session."""
        if url in self._on_disk:
            return files_for(self.folder, url)
        if url in self._pending or self.failure(url) is not None or self.closed:
            return None
        files = files_for(self.folder, url)
        # One stat per URL and session: the answer is remembered.
        if files.small.exists() or files.original.exists():
            self._on_disk.add(url)
            return files
        if not is_openable_url(url):
            self._failed[url] = "only http and https addresses are fetched"
            return None
        self._pending.add(url)
        self._queue.put_nowait(url)
        return None

    def failure(self, url: str) -> str | None:
        """Why `url` cannot be had now; None when it did not fail, or its server could not be
        reached `RETRY_UNREACHABLE_S` ago or more (then the next `request` tries again)."""
        reason = self._failed.get(url)
        retry_at = self._retry_after.get(url)
        if reason is not None and retry_at is not None and self._clock() >= retry_at:
            del self._failed[url], self._retry_after[url]
            return None
        return reason

    def forget(self, url: str) -> None:
        """Its files turned out unreadable: the next `request` downloads it again, once."""
        self._on_disk.discard(url)
        files = files_for(self.folder, url)
        for path in files:
            with contextlib.suppress(OSError):
                path.unlink()

    def mark_failed(self, url: str, reason: str) -> None:
        """The UI could not decode what was downloaded: not asked for again this session."""
        self._on_disk.discard(url)
        self._failed[url] = reason

    @property
    def in_flight(self) -> int:
        return self._in_flight

    @property
    def waiting(self) -> int:
        return self._queue.qsize()

    # -- downloading ---------------------------------------------------------------------------
    async def run(self) -> None:
        """Download what is asked for until cancelled (the session's `close()`); old files are
        pruned meanwhile, in a worker thread."""
        async with asyncio.TaskGroup() as group:
            group.create_task(asyncio.to_thread(self.prune))
            for _ in range(self.concurrency):
                group.create_task(self._work())

    def prune(self, now: float | None = None) -> int:
        """Remove the files not read or written for `KEEP_DAYS`; how many went."""
        limit = (time.time() if now is None else now) - KEEP_DAYS * 86_400
        removed = 0
        try:
            entries = list(os.scandir(self.folder))
        except OSError:
            return 0  # no folder yet (nothing downloaded), or unreadable: nothing to prune
        for entry in entries:
            with contextlib.suppress(OSError):
                if entry.is_file(follow_symlinks=False) and entry.stat().st_mtime < limit:
                    os.unlink(entry.path)
                    removed += 1
        return removed

    async def _work(self) -> None:
        while True:
            url = await self._queue.get()
            self._in_flight += 1
            ok = False
            try:
                await self._download(url)
                self._on_disk.add(url)
                ok = True
            except DownloadRefused as refused:
                self._failed[url] = str(refused)
                if refused.unreachable:
                    self._retry_after[url] = self._clock() + RETRY_UNREACHABLE_S
                log.info("thumbnail of %s not downloaded: %s", url, refused)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # one bad image never stops the others
                self._failed[url] = f"{type(error).__name__}: {error}"
                log.warning("thumbnail of %s failed", url, exc_info=True)
            finally:
                self._in_flight -= 1
                self._pending.discard(url)
            if not self.closed:
                self._tell(url, ok)

    def _tell(self, url: str, ok: bool) -> None:
        for listener in list(self.listeners):
            try:
                listener(url, ok)
            except Exception:  # a listener's bug must not stop the downloads
                log.exception("thumbnail listener failed")

    async def _http(self) -> httpx.AsyncClient:
        async with self._client_lock:
            if self._client is None:
                transport = self._transport
                verify: object = True
                if transport is None:
                    from app.api.transport import shared_ssl_context

                    # The CA store is read in a worker thread: seconds of a frozen window when
                    # done on the GUI thread on busy cores (app/api/transport.py).
                    verify = await asyncio.to_thread(shared_ssl_context)
                self._client = httpx.AsyncClient(
                    transport=transport,
                    verify=verify,  # type: ignore[arg-type]
                    timeout=httpx.Timeout(self._timeout),
                    follow_redirects=True,
                    max_redirects=MAX_REDIRECTS,
                    trust_env=False,
                    headers={"Accept": "image/*"},
                )
            return self._client

    async def _download(self, url: str) -> None:
        client = await self._http()
        self.requests_made += 1
        try:
            async with asyncio.timeout(self._deadline):
                data = await self._fetch(client, url)
        except TimeoutError:
            raise DownloadRefused(
                f"no whole answer within {self._deadline:.0f} s", unreachable=True
            ) from None
        except httpx.TransportError as error:  # not connected, timed out, cut off
            raise DownloadRefused(f"{type(error).__name__}: {error}", unreachable=True) from None
        except (httpx.HTTPError, httpx.InvalidURL) as error:
            raise DownloadRefused(f"{type(error).__name__}: {error}") from None
        target = files_for(self.folder, url).original
        await asyncio.to_thread(_write_whole, target, data)

    async def _fetch(self, client: httpx.AsyncClient, url: str) -> bytes:
        async with client.stream("GET", url) as response:
            # A redirect may lead anywhere httpx can go; only web addresses are followed.
            if response.url.scheme not in ("http", "https"):
                raise DownloadRefused("redirected away from the web")
            if response.status_code != 200:
                status = response.status_code
                passing = status >= 500 or status in (408, 429)
                raise DownloadRefused(f"the server answered {status}", unreachable=passing)
            kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
            if not kind.startswith("image/") or kind in REFUSED_TYPES:
                raise DownloadRefused(f"not an image ({kind or 'no content type'})")
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > self.max_bytes:
                raise DownloadRefused(f"larger than {self.max_bytes:,} bytes ({declared})")
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_bytes():  # decoded: the cap holds for gzip too
                size += len(chunk)
                if size > self.max_bytes:
                    raise DownloadRefused(f"larger than {self.max_bytes:,} bytes")
                chunks.append(chunk)
            return b"".join(chunks)

    async def aclose(self) -> None:
        """After `run()` was cancelled: no more requests are queued; the connections close."""
        self.closed = True
        self.listeners.clear()
        if self._client is not None:
            await self._client.aclose()


def _write_whole(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temp_name = tempfile.mkstemp(dir=target.parent, prefix=".", suffix=".part")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise
