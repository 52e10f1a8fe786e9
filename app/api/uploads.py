"""Media upload tokens: the single place that knows how one is obtained.

The spec does not say; the sandbox (DESIGN.md) takes a multipart `POST /uploads` with the file
in the `file` field and answers `{upload_token, ...}`. Batch requests then reference the media
by that token.
"""

from __future__ import annotations

import asyncio
import mimetypes
from pathlib import Path

from app.api import routes
from app.api.errors import ApiError, ProtocolError
from app.api.resource import Resource

UPLOAD_FIELD = "file"


class UploadsApi(Resource):
    async def upload(self, path: Path, mime_type: str | None = None) -> str:
        """Send the file and return its upload token."""
        try:
            content = await asyncio.to_thread(path.read_bytes)
        except OSError as exc:
            raise ApiError(
                f"Could not read {path.name}: {exc.strerror or type(exc).__name__}.",
                hint="Check that the file still exists and can be opened.",
            ) from None
        kind = mime_type or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        data = await self._transport.request(
            "POST", routes.UPLOADS, files={UPLOAD_FIELD: (path.name, content, kind)}
        )
        token = data.get("upload_token") if isinstance(data, dict) else None
        if not isinstance(token, str) or not token:
            raise ProtocolError(
                f"The server's answer to POST {routes.UPLOADS} has no upload token."
            )
        return token
