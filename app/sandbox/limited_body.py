"""Reading a request body with a size limit, a chunk at a time (issue 19 §4).

`await request.body()` holds the whole body in memory before anything can look at its size: a
600 MB upload cost 600 MB before it was refused. Here a declared `Content-Length` over the limit
is refused before a byte is read, and a body that grows past it is dropped as soon as it does.
"""

from __future__ import annotations

from starlette.requests import Request


class BodyTooLarge(Exception):
    """The body is (or would be) larger than the limit; nothing of it is kept."""


async def read_limited(request: Request, limit: int) -> bytes:
    """The whole body when it is at most `limit` bytes; BodyTooLarge as soon as it is not."""
    declared = request.headers.get("content-length", "")
    if declared.strip().isdigit() and int(declared) > limit:
        raise BodyTooLarge
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge
        chunks.append(chunk)
    return b"".join(chunks)
