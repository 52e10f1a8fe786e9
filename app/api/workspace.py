"""Workspace details and content types: shapes the spec does not give, read tolerantly.

Both routes belong to the "reduced route set": where they are missing, a `NotFound` with
`route_missing=True` tells the UI to hide what depends on them.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from app.api import routes
from app.api.parsing import unwrap_list, unwrap_object, validate
from app.api.resource import Resource
from app.models.accounts import NamedItem

_NAMED_ITEMS = TypeAdapter(list[NamedItem])


_ID_KEYS = ("content_type", "value", "slug", "key", "name")


def _as_named(entry: Any) -> Any:
    """A content type as a bare string ("x_post"), or an object whose identifier is under
    another key (the sandbox sends `{platform, content_type, label, ...}`)."""
    if isinstance(entry, str):
        return {"id": entry, "name": entry}
    if isinstance(entry, dict) and entry.get("id") is None:
        for key in _ID_KEYS:
            if isinstance(entry.get(key), str):
                return {**entry, "id": entry[key]}
    return entry


class WorkspaceApi(Resource):
    async def workspace(self) -> dict[str, Any] | None:
        """The workspace record as sent (None when the server sends no object)."""
        data = unwrap_object(await self._transport.request("GET", routes.WORKSPACE))
        return data if isinstance(data, dict) else None

    async def content_types(self) -> list[NamedItem]:
        data = unwrap_list(await self._transport.request("GET", routes.CONTENT_TYPES))
        if isinstance(data, dict):
            # `{"x": [...], ...}` or `{"x_post": "X post"}`: flatten what can be named.
            data = [
                {"id": key, "name": value} if isinstance(value, str) else _as_named(key)
                for key, value in data.items()
            ]
        if isinstance(data, list):
            data = [_as_named(entry) for entry in data]
        return validate(
            _NAMED_ITEMS,
            data,
            server_tz=self._transport.server_tz,
            what=f"GET {routes.CONTENT_TYPES}",
        )
