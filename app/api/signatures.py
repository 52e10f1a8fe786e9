"""Signatures: reusable text appended to posts; a paginated list with a server-set page size."""

from __future__ import annotations

from collections.abc import AsyncIterator

from pydantic import TypeAdapter

from app.api import routes
from app.api.resource import Resource
from app.models.labels import Signature
from app.models.pagination import Page
from app.models.requests import SignatureInput

_SIGNATURE = TypeAdapter(Signature)
_SIGNATURE_PAGE = TypeAdapter(Page[Signature])


def _signature_id(signature: Signature) -> str:
    return signature.id


class SignaturesApi(Resource):
    async def page(self, page: int = 1) -> Page[Signature]:
        """Raises `NotFound(route_missing=True)` on deployments without signatures."""
        return await self._page(_SIGNATURE_PAGE, routes.SIGNATURES, page)

    def iter_items(self) -> AsyncIterator[Signature]:
        return self._pages(_SIGNATURE_PAGE, routes.SIGNATURES).iter_items()

    async def all(self, *, concurrency: int = 4) -> list[Signature]:
        return await self._pages(_SIGNATURE_PAGE, routes.SIGNATURES).fetch_all(
            concurrency=concurrency, key=_signature_id
        )

    async def create(self, signature: SignatureInput) -> Signature:
        return await self._call(_SIGNATURE, "POST", routes.SIGNATURES, body=self._wire(signature))

    async def update(self, signature_id: str, signature: SignatureInput) -> Signature:
        """Both `name` and `content` are always sent (the server requires both)."""
        return await self._call(
            _SIGNATURE, "PUT", routes.signature(signature_id), body=self._wire(signature)
        )

    async def delete(self, signature_id: str) -> None:
        await self._send("DELETE", routes.signature(signature_id))
