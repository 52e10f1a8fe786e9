"""Instagram audio search, kept inside the service's limits (spec §4 instagram-audio, §8).

The server keeps an answer 10 minutes per (account, type, query) and allows 30 uncached lookups
a minute per workspace (searches and track reads together) and 60 lookup requests a minute per
user (shared with board and channel lookups, `app.api.lookups`). So the client caches the same
way, refuses invalid queries before sending, and stops itself before a budget is used up. With
`wait=True` a search waits out a closed budget or a server 429 (at most twice) instead of failing.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections import OrderedDict
from collections.abc import Callable
from typing import NamedTuple
from urllib.parse import parse_qs, urlsplit

import httpx
from cachetools import TTLCache
from pydantic import TypeAdapter

from app.api import routes
from app.api.errors import (
    AudioBudgetExhausted,
    AudioQueryInvalid,
    NotFound,
    ProtocolError,
    RateLimited,
)
from app.api.lookup_budget import (
    LOOKUPS_PER_WINDOW,
    USER_REQUESTS_PER_WINDOW,
    WINDOW_SECONDS,
    BudgetStatus,
    LookupBudget,
)
from app.api.resource import Resource
from app.api.retry import Clock
from app.api.transport import Transport
from app.domain.enums import AudioType
from app.models.audio import AudioAsset

__all__ = [
    "CACHE_SECONDS",
    "LOOKUPS_PER_WINDOW",
    "MAX_QUERY_CHARS",
    "USER_REQUESTS_PER_WINDOW",
    "WINDOW_SECONDS",
    "AudioKey",
    "BudgetStatus",
    "InstagramAudio",
    "LookupBudget",
    "cache_key",
    "link_expires_at",
    "normalise_query",
    "normalise_type",
]

MAX_QUERY_CHARS = 100
CACHE_SECONDS = 600.0
MAX_WAITS = 2
_CACHE_ENTRIES = 256
_COVER_ENTRIES = 300
_COVER_MAX_BYTES = 2 * 1024 * 1024
_COVER_TIMEOUT = 10.0
# Neither a 429 (that is the budget) nor a 502 (each try is another paid lookup) is retried here.
_NO_STATUS_RETRIES: frozenset[int] = frozenset()

_ASSETS = TypeAdapter(list[AudioAsset])
_ASSET = TypeAdapter(AudioAsset)

WaitHook = Callable[[float, str], None]
"""Called before a wait: (seconds, why in words)."""


class AudioKey(NamedTuple):
    account_id: str
    type: str | None
    q: str | None


def normalise_query(q: str | None) -> str | None:
    """Stripped; empty means "no query" (trending). Raises when over 100 characters."""
    text = (q or "").strip()
    if len(text) > MAX_QUERY_CHARS:
        raise AudioQueryInvalid(
            f"The search is {len(text)} characters long; at most {MAX_QUERY_CHARS} are allowed.",
            hint=f"Shorten the search to {MAX_QUERY_CHARS} characters or fewer.",
        )
    return text or None


def normalise_type(audio_type: str | None) -> str | None:
    text = (audio_type or "").strip()
    if not text:
        return None
    if text not in {t.value for t in AudioType}:
        raise AudioQueryInvalid(
            f"Unknown audio type “{text}”.",
            hint="Choose music or original sound, or leave the type empty for both.",
        )
    return text


def cache_key(account_id: str, q: str | None = None, audio_type: str | None = None) -> AudioKey:
    return AudioKey(account_id, normalise_type(audio_type), normalise_query(q))


_HEX = re.compile(r"^[0-9a-fA-F]{8}$")


def link_expires_at(url: str | None) -> float | None:
    """Unix time a signed CDN link stops working, when the link says so: `expires=<unix>` or
    Facebook's `oe=<hex unix>`. None when unknown."""
    if not url:
        return None
    params = parse_qs(urlsplit(url).query)
    for value in params.get("expires", []) + params.get("Expires", []):
        if value.isdigit():
            return float(value)
    for value in params.get("oe", []):
        if _HEX.match(value):
            return float(int(value, 16))
    return None


def _cover_key(url: str) -> str:
    # Signed links change on every answer; the file behind them does not.
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{parts.path}"


class InstagramAudio(Resource):
    def __init__(
        self,
        transport: Transport,
        *,
        clock: Clock | None = None,
        user_budget: LookupBudget | None = None,
    ) -> None:
        super().__init__(transport)
        self._clock = clock or transport.clock
        self.budget = LookupBudget(self._clock)
        # Per user: shared with `Lookups` (boards, channels) through the client.
        self.user_budget = user_budget or LookupBudget(self._clock, USER_REQUESTS_PER_WINDOW)
        # Least recently used go first when full; expiry on the client's clock (tests move it).
        self._cache: TTLCache[AudioKey, list[AudioAsset], float] = TTLCache(
            maxsize=_CACHE_ENTRIES, ttl=CACHE_SECONDS, timer=self._clock.now
        )
        self._in_flight: dict[AudioKey, asyncio.Task[list[AudioAsset]]] = {}
        self._covers: OrderedDict[str, bytes] = OrderedDict()
        self._cover_gate = asyncio.Semaphore(4)
        self.requests_sent = 0
        """Requests that left for the audio routes (for the bench and the picker's tests)."""

    # -- budgets ------------------------------------------------------------------------

    def wait_needed(self) -> float:
        return max(self.budget.wait_needed(), self.user_budget.wait_needed())

    def status(self) -> BudgetStatus:
        return BudgetStatus(
            self.budget.remaining,
            self.budget.limit,
            self.user_budget.remaining,
            self.user_budget.limit,
            self.wait_needed(),
            self.budget.server_blocked or self.user_budget.server_blocked,
        )

    def _exhausted(self, wait: float) -> AudioBudgetExhausted:
        if self.budget.server_blocked or self.user_budget.server_blocked:
            message = "The server asked to wait before the next audio search."
        elif self.budget.wait_needed() >= self.user_budget.wait_needed():
            message = "Audio search limit reached (30 new searches per minute in this workspace)."
        else:
            message = "Lookup limit reached (60 audio, board and channel lookups per minute)."
        return AudioBudgetExhausted(message, retry_after=wait)

    async def _wait_for_budget(self, waits: int, on_wait: WaitHook | None, wait: bool) -> int:
        """Waits until both budgets have room; returns the number of waits so far."""
        needed = self.wait_needed()
        while needed > 0:
            if not wait or waits >= MAX_WAITS:
                raise self._exhausted(needed)
            waits += 1
            if on_wait is not None:
                on_wait(needed, str(self._exhausted(needed)))
            # Never wake early: a clock may round down, so sleep until the budget really has room.
            await self._clock.sleep(needed)
            needed = self.wait_needed()
        return waits

    def _spend(self) -> None:
        self.budget.spend()
        self.user_budget.spend()
        self.requests_sent += 1

    def _blocked_by_server(self, error: RateLimited) -> None:
        seconds = error.retry_after if error.retry_after is not None else WINDOW_SECONDS
        self.budget.block_for(seconds)
        self.user_budget.block_for(seconds)

    # -- search -------------------------------------------------------------------------

    def cached(self, key: AudioKey) -> list[AudioAsset] | None:
        assets = self._cache.get(key)
        return None if assets is None else list(assets)

    async def search(
        self,
        account_id: str,
        q: str | None = None,
        type: str | None = None,
        *,
        fresh: bool = False,
        wait: bool = False,
        on_wait: WaitHook | None = None,
    ) -> list[AudioAsset]:
        """Trending audio without `q`; `type` narrows to `music` or `original_sound`.

        Cached answers cost nothing. `fresh` skips the cache (new links). Raises
        `AudioQueryInvalid` without sending; `AudioBudgetExhausted` when a budget is closed
        (with `wait`, after waiting twice); `RateLimited` on a server 429 without `wait`;
        `ValidationFailed` when the account cannot search audio (only `instagram-facebook`
        accounts can); `UpstreamFailed` (502) when Instagram did not answer — retryable.
        """
        key = cache_key(account_id, q, type)
        waits = 0
        while True:
            if not fresh:
                hit = self.cached(key)
                if hit is not None:
                    return hit
            task = None if fresh else self._in_flight.get(key)
            if task is None:
                waits = await self._wait_for_budget(waits, on_wait, wait)
                self._spend()
                task = asyncio.ensure_future(self._lookup(key))
                if not fresh:
                    self._in_flight[key] = task
                task.add_done_callback(lambda done: self._finished(key, done))
            try:
                # Shielded: a caller that gives up (a debounced picker) must not waste a lookup.
                return list(await asyncio.shield(task))
            except AudioBudgetExhausted:
                raise
            except RateLimited:
                if not wait or waits >= MAX_WAITS:
                    raise
                # The budgets are closed until Retry-After; the loop waits it out.

    def _finished(self, key: AudioKey, task: asyncio.Task[list[AudioAsset]]) -> None:
        if self._in_flight.get(key) is task:
            del self._in_flight[key]
        if not task.cancelled():
            task.exception()  # retrieved here so an abandoned failure is not reported as lost

    async def _lookup(self, key: AudioKey) -> list[AudioAsset]:
        params: dict[str, str | int] = {}
        if key.q is not None:
            params["q"] = key.q
        if key.type is not None:
            params["type"] = key.type
        try:
            assets = await self._call(
                _ASSETS,
                "GET",
                routes.account_audio(key.account_id),
                params=params,
                retry_statuses=_NO_STATUS_RETRIES,
            )
        except RateLimited as error:
            self._blocked_by_server(error)
            raise
        self._cache[key] = assets
        return list(assets)

    # -- one track, fresh links ---------------------------------------------------------

    async def track(
        self,
        account_id: str,
        asset: AudioAsset,
        *,
        q: str | None = None,
        type: str | None = None,
        wait: bool = False,
        on_wait: WaitHook | None = None,
    ) -> AudioAsset:
        """The track again with fresh `preview_url`/`cover_url` (they expire).

        Reads `GET /social-accounts/{account}/instagram-audio/{id}`; where a deployment lacks
        that route (404), re-runs the search that found it (`q`, `type`) bypassing the cache.
        Both count as uncached lookups. Raises `NotFound` when the track is no longer offered.
        """
        waits = 0
        while True:
            waits = await self._wait_for_budget(waits, on_wait, wait)
            self._spend()
            try:
                return await self._call(
                    _ASSET,
                    "GET",
                    routes.account_audio_track(account_id, asset.id),
                    retry_statuses=_NO_STATUS_RETRIES,
                )
            except RateLimited as error:
                self._blocked_by_server(error)
                if not wait or waits >= MAX_WAITS:
                    raise
            except (NotFound, ProtocolError):
                break  # the deployment has no such route: search again instead
        results = await self.search(account_id, q, type, fresh=True, wait=wait, on_wait=on_wait)
        for found in results:
            if found.id == asset.id:
                return found
        raise NotFound(
            f"“{asset.title}” is no longer offered by Instagram.",
            hint="Search again and choose another track.",
        )

    # -- covers ---------------------------------------------------------------------------

    def cached_cover(self, url: str | None) -> bytes | None:
        return self._covers.get(_cover_key(url)) if url else None

    async def cover(self, url: str | None) -> bytes | None:
        """The cover image's bytes, or None when it cannot be had (no URL, an unreachable CDN,
        not an image, over 2 MB). Fetched without the API key: covers live on a CDN."""
        if not url:
            return None
        key = _cover_key(url)
        if key in self._covers:
            self._covers.move_to_end(key)
            return self._covers[key]
        parts = urlsplit(url)
        host = parts.hostname or ""
        # `.invalid` never resolves (RFC 6761): the sandbox's fake CDN.
        if parts.scheme not in ("http", "https") or not host or host.endswith(".invalid"):
            return None
        async with self._cover_gate:
            data = await self._fetch_cover(url)
        if data is not None:
            self._covers[key] = data
            while len(self._covers) > _COVER_ENTRIES:
                self._covers.popitem(last=False)
        return data

    async def _fetch_cover(self, url: str) -> bytes | None:
        try:
            async with (
                httpx.AsyncClient(timeout=_COVER_TIMEOUT, follow_redirects=True) as client,
                client.stream("GET", url) as response,
            ):
                kind = response.headers.get("content-type", "")
                if response.status_code != 200 or not kind.startswith("image/"):
                    return None
                chunks: list[bytes] = []
                size = 0
                async for chunk in response.aiter_bytes():
                    size += len(chunk)
                    if size > _COVER_MAX_BYTES:
                        return None
                    chunks.append(chunk)
                return b"".join(chunks)
        except (httpx.HTTPError, httpx.InvalidURL, OSError):
            return None


def seconds_until_expiry(url: str | None, now_unix: float) -> float | None:
    """Seconds a link stays valid (negative when expired); None when unknown."""
    expires = link_expires_at(url)
    return None if expires is None else expires - math.floor(now_unix)
