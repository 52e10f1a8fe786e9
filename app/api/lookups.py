"""Pinterest boards and Discord channels for the settings forms (spec §4 "reduced route set").

`GET /social-accounts/{id}/boards` and `/channels` answer a list of `{id, name}`. They share the
per-user budget of 60 lookups a minute with audio search (spec §8), so answers are cached 10
minutes per account; a 404 means the deployment lacks the route, and the form offers free text.
"""

from __future__ import annotations

import asyncio
from typing import Literal

from cachetools import TTLCache
from pydantic import TypeAdapter

from app.api import routes
from app.api.errors import NotFound, RateLimited
from app.api.lookup_budget import USER_REQUESTS_PER_WINDOW, WINDOW_SECONDS, LookupBudget
from app.api.parsing import unwrap_list, validate
from app.api.retry import Clock
from app.api.transport import Transport
from app.models.accounts import NamedItem

CACHE_SECONDS = 600.0
_CACHE_ENTRIES = 256
MAX_WAITS = 2
Kind = Literal["boards", "channels"]
_ITEMS = TypeAdapter(list[NamedItem])
# 429 is handled here (it closes the shared budget); gateway errors may be retried.
_RETRY_STATUSES = frozenset({502, 503, 504})


class LookupUnavailable(NotFound):
    """The deployment has no such lookup: let the user type the id."""


class Lookups:
    """Cached, budgeted board and channel lists. `boards()`/`channels()` return the items, or
    raise `LookupUnavailable` (404: type the id instead) or another `ApiError`."""

    def __init__(
        self,
        transport: Transport,
        *,
        user_budget: LookupBudget | None = None,
        clock: Clock | None = None,
    ) -> None:
        self._transport = transport
        self._clock = clock or transport.clock
        self.user_budget = user_budget or LookupBudget(self._clock, USER_REQUESTS_PER_WINDOW)
        # Expiry on the client's clock, so tests move time instead of sleeping.
        self._cache: TTLCache[tuple[Kind, str], list[NamedItem], float] = TTLCache(
            maxsize=_CACHE_ENTRIES, ttl=CACHE_SECONDS, timer=self._clock.now
        )
        self._in_flight: dict[tuple[Kind, str], asyncio.Future[list[NamedItem]]] = {}
        self.requests_sent = 0

    async def boards(self, account_id: str) -> list[NamedItem]:
        return await self._get("boards", account_id)

    async def channels(self, account_id: str) -> list[NamedItem]:
        return await self._get("channels", account_id)

    def cached(self, kind: Kind, account_id: str) -> list[NamedItem] | None:
        items = self._cache.get((kind, account_id))
        return None if items is None else list(items)

    async def _get(self, kind: Kind, account_id: str) -> list[NamedItem]:
        hit = self.cached(kind, account_id)
        if hit is not None:
            return hit
        key = (kind, account_id)
        pending = self._in_flight.get(key)
        if pending is None:
            pending = asyncio.ensure_future(self._fetch(kind, account_id))
            self._in_flight[key] = pending
            pending.add_done_callback(lambda _: self._in_flight.pop(key, None))
        return list(await asyncio.shield(pending))

    async def _fetch(self, kind: Kind, account_id: str) -> list[NamedItem]:
        path = (
            routes.account_boards(account_id)
            if kind == "boards"
            else routes.account_channels(account_id)
        )
        waits = 0
        while True:
            needed = self.user_budget.wait_needed()
            if needed > 0:
                if waits >= MAX_WAITS:
                    raise RateLimited(
                        "Lookup limit reached (60 audio, board and channel lookups per minute).",
                        retry_after=needed,
                    )
                waits += 1
                await self._clock.sleep(needed)
                continue
            self.user_budget.spend()
            self.requests_sent += 1
            try:
                data = await self._transport.request("GET", path, retry_statuses=_RETRY_STATUSES)
                items = validate(
                    _ITEMS,
                    unwrap_list(data),
                    server_tz=self._transport.server_tz,
                    what=f"GET {path}",
                )
            except NotFound as error:
                noun = "boards" if kind == "boards" else "channels"
                raise LookupUnavailable(
                    f"This server cannot list {noun}.",
                    hint=f"Type the {noun[:-1]} id instead.",
                ) from error
            except RateLimited as error:
                # Also closes audio search: the budget is the user's, not the route's.
                self.user_budget.block_for(
                    error.retry_after if error.retry_after is not None else WINDOW_SECONDS
                )
                if waits >= MAX_WAITS:
                    raise
                continue
            self._cache[(kind, account_id)] = items
            return list(items)


__all__ = ["CACHE_SECONDS", "LookupUnavailable", "Lookups"]
