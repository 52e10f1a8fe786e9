"""Instagram audio search, kept inside the service's limits (spec §4 instagram-audio, §8).

The server keeps an answer 10 minutes per (account, type, query) and allows 30 uncached lookups
per minute per workspace; going over gives 429 for everyone in the workspace. So the client
caches the same way, refuses invalid queries before sending, and stops itself before the budget
is used up instead of letting the server refuse.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from typing import NamedTuple

from pydantic import TypeAdapter

from app.api import routes
from app.api.errors import AudioBudgetExhausted, AudioQueryInvalid, RateLimited
from app.api.resource import Resource
from app.api.retry import Clock
from app.api.transport import Transport
from app.domain.enums import AudioType
from app.models.audio import AudioAsset

MAX_QUERY_CHARS = 100
CACHE_SECONDS = 600.0
LOOKUPS_PER_WINDOW = 30
WINDOW_SECONDS = 60.0
_CACHE_ENTRIES = 256
# Neither a 429 (that is the budget) nor a 502 (each try is another paid lookup) is retried here.
_NO_STATUS_RETRIES: frozenset[int] = frozenset()

_ASSETS = TypeAdapter(list[AudioAsset])


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


class LookupBudget:
    """Sliding window of uncached lookups. A 429 from the server closes it until Retry-After."""

    def __init__(
        self, clock: Clock, limit: int = LOOKUPS_PER_WINDOW, window: float = WINDOW_SECONDS
    ) -> None:
        self._clock = clock
        self._limit = limit
        self._window = window
        self._spent: deque[float] = deque()
        self._blocked_until = 0.0

    def _forget_old(self, now: float) -> None:
        while self._spent and self._spent[0] <= now - self._window:
            self._spent.popleft()

    def wait_needed(self) -> float:
        """Seconds until one more lookup may be sent; 0 when it may go now."""
        now = self._clock.now()
        self._forget_old(now)
        wait = self._blocked_until - now
        if len(self._spent) >= self._limit:
            wait = max(wait, self._spent[-self._limit] + self._window - now)
        return max(wait, 0.0)

    @property
    def used(self) -> int:
        self._forget_old(self._clock.now())
        return len(self._spent)

    def spend(self) -> None:
        self._spent.append(self._clock.now())

    def block_for(self, seconds: float) -> None:
        self._blocked_until = max(self._blocked_until, self._clock.now() + seconds)


class InstagramAudio(Resource):
    def __init__(self, transport: Transport, *, clock: Clock | None = None) -> None:
        super().__init__(transport)
        self._clock = clock or transport.clock
        self.budget = LookupBudget(self._clock)
        self._cache: OrderedDict[AudioKey, tuple[float, list[AudioAsset]]] = OrderedDict()
        self._in_flight: dict[AudioKey, asyncio.Task[list[AudioAsset]]] = {}

    def cached(self, key: AudioKey) -> list[AudioAsset] | None:
        entry = self._cache.get(key)
        if entry is None:
            return None
        expires_at, assets = entry
        if expires_at <= self._clock.now():
            del self._cache[key]
            return None
        return list(assets)

    async def search(
        self, account_id: str, q: str | None = None, type: str | None = None
    ) -> list[AudioAsset]:
        """Trending audio without `q`; `type` narrows to `music` or `original_sound`.

        Raises `AudioQueryInvalid` or `AudioBudgetExhausted` without sending anything;
        `ValidationFailed` when the account cannot search audio (only `instagram-facebook`
        accounts can), `UpstreamFailed` when Instagram did not answer.
        """
        key = cache_key(account_id, q, type)
        hit = self.cached(key)
        if hit is not None:
            return hit
        task = self._in_flight.get(key)
        if task is None:
            wait = self.budget.wait_needed()
            if wait > 0:
                raise AudioBudgetExhausted(retry_after=wait)
            self.budget.spend()
            task = asyncio.ensure_future(self._lookup(key))
            self._in_flight[key] = task
            task.add_done_callback(lambda done: self._finished(key, done))
        # Shielded: a caller that gives up (a debounced picker) must not waste a paid lookup.
        return list(await asyncio.shield(task))

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
            self.budget.block_for(
                error.retry_after if error.retry_after is not None else WINDOW_SECONDS
            )
            raise
        self._cache[key] = (self._clock.now() + CACHE_SECONDS, assets)
        self._cache.move_to_end(key)
        while len(self._cache) > _CACHE_ENTRIES:
            self._cache.popitem(last=False)
        return list(assets)
