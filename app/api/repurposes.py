"""Repurposes and their activity items (where to look when a video was not replicated)."""

from __future__ import annotations

from collections.abc import AsyncIterator

from pydantic import TypeAdapter

from app.api import routes
from app.api.resource import Resource
from app.models.pagination import Page
from app.models.repurposes import Repurpose, RepurposeItem

_REPURPOSE_PAGE = TypeAdapter(Page[Repurpose])
_ITEM_PAGE = TypeAdapter(Page[RepurposeItem])


class RepurposesApi(Resource):
    async def page(self, page: int = 1) -> Page[Repurpose]:
        """Raises `NotFound(route_missing=True)` on deployments without repurposes."""
        return await self._page(_REPURPOSE_PAGE, routes.REPURPOSES, page)

    def iter_repurposes(self) -> AsyncIterator[Repurpose]:
        return self._pages(_REPURPOSE_PAGE, routes.REPURPOSES).iter_items()

    async def items_page(self, repurpose_id: str, page: int = 1) -> Page[RepurposeItem]:
        """25 per page, newest source first. Another workspace's id gives `PermissionDenied`."""
        return await self._page(_ITEM_PAGE, routes.repurpose_items(repurpose_id), page)

    def iter_items(self, repurpose_id: str) -> AsyncIterator[RepurposeItem]:
        return self._pages(_ITEM_PAGE, routes.repurpose_items(repurpose_id)).iter_items()
