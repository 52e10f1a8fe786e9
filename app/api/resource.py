"""Base of the per-resource classes: typed calls over the shared transport."""

from __future__ import annotations

import functools
from typing import Any, TypeVar

from pydantic import TypeAdapter

from app.api.errors import ProtocolError
from app.api.pagination import Pages
from app.api.parsing import Offload, validate
from app.api.transport import RETRY_STATUSES, Transport
from app.models.pagination import Page

T = TypeVar("T")

# The paginator reacts to 429 itself (it lowers its concurrency), so it must see them.
_PAGE_RETRY_STATUSES = RETRY_STATUSES - {429}


class Resource:
    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    async def _call(
        self,
        adapter: TypeAdapter[T],
        method: str,
        path: str,
        *,
        params: dict[str, str | int] | None = None,
        body: Any = None,
        retry_statuses: frozenset[int] | None = None,
        offload: Offload | None = None,
        mend: bool = False,
    ) -> T:
        """`offload`: validate the answer there (a worker thread) instead of on the caller's.
        `mend`: keep items with a usable id, read in part (`app.api.parsing`)."""
        data = await self._transport.request(
            method, path, params=params, json_body=body, retry_statuses=retry_statuses
        )
        if data is None:
            raise ProtocolError(f"The server's answer to {method} {path} was empty.")
        job = functools.partial(
            validate,
            adapter,
            data,
            server_tz=self._transport.server_tz,
            what=f"{method} {path}",
            mend=mend,
        )
        return job() if offload is None else await offload(job)

    async def _send(self, method: str, path: str, *, body: Any = None) -> Any:
        """A call whose answer carries nothing we need (e.g. a 204 delete)."""
        return await self._transport.request(method, path, json_body=body)

    def _wire(self, model: Any) -> dict[str, Any]:
        wire: dict[str, Any] = model.to_wire(self._transport.server_tz)
        return wire

    async def _page(
        self,
        adapter: TypeAdapter[Page[T]],
        path: str,
        number: int,
        *,
        for_walk: bool = False,
        offload: Offload | None = None,
        mend: bool = False,
    ) -> Page[T]:
        return await self._call(
            adapter,
            "GET",
            path,
            params={"page": number},
            retry_statuses=_PAGE_RETRY_STATUSES if for_walk else None,
            offload=offload,
            mend=mend,
        )

    def _pages(
        self,
        adapter: TypeAdapter[Page[T]],
        path: str,
        *,
        offload: Offload | None = None,
        mend: bool = False,
    ) -> Pages[T]:
        async def fetch(number: int) -> Page[T]:
            return await self._page(
                adapter, path, number, for_walk=True, offload=offload, mend=mend
            )

        transport = self._transport
        return Pages(
            fetch,
            clock=transport.clock,
            retry=transport.retry,
            on_retry=lambda: transport.on_retry,
            what=path,
        )
