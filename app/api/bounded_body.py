"""Reading an answer's body with limits (issue 19 §3): a server cannot make one answer cost
gigabytes (a gzip body that expands to 1 GB), nor decode into a RecursionError (JSON nested
10,000 levels).

The body is read from the wire as it comes and decompressed here, `zlib` asked for at most what
is still allowed, so neither the compressed nor the expanded bytes pass `MAX_BODY_BYTES` (plus
one read's worth). httpx's own decoders expand a whole read at once (a 64 KB read of a bomb is
64 MB), hence our own.
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import AsyncIterator
from typing import Any

MAX_BODY_BYTES = 64 * 1024 * 1024
"""The most one answer may hold once decompressed: a posts page is ~50 KB; a post of 10 MB (the
largest anyone has asked about) still fits."""
MAX_JSON_DEPTH = 200
"""Nothing in the API nests deeper than ~8 levels; deeper is a broken or hostile server."""
ACCEPT_ENCODING = "gzip, deflate"
"""Only what `BodyDecoder` expands with a limit."""


class BodyRefused(Exception):
    """The answer broke a limit; `reason` says which, in words for the user."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class BodyDecoder:
    """Expands `gzip` / `deflate` (or nothing) up to `limit` bytes in total."""

    def __init__(self, encoding: str, limit: int = MAX_BODY_BYTES) -> None:
        encoding = encoding.strip().lower()
        if encoding in ("", "identity"):
            self._inflate: Any = None
        elif encoding in ("gzip", "x-gzip"):
            self._inflate = zlib.decompressobj(zlib.MAX_WBITS | 32)  # gzip or zlib header
        elif encoding == "deflate":
            self._inflate = zlib.decompressobj()
        else:
            raise BodyRefused(f"it is compressed as “{encoding[:20]}”, which Postdesk cannot read")
        self.limit = limit
        self.size = 0
        self._parts: list[bytes] = []

    def feed(self, chunk: bytes) -> None:
        if self._inflate is None:
            self._keep(chunk)
            return
        data = chunk
        while data:
            try:
                out = self._inflate.decompress(data, self.limit - self.size + 1)
            except zlib.error:
                raise BodyRefused("its compressed body is damaged") from None
            self._keep(out)
            data = self._inflate.unconsumed_tail

    def _keep(self, out: bytes) -> None:
        self.size += len(out)
        if self.size > self.limit:
            raise BodyRefused(f"it is larger than {_size(self.limit)} once unpacked")
        self._parts.append(out)

    def finish(self) -> bytes:
        if self._inflate is not None:
            self._keep(self._inflate.flush())
        body = b"".join(self._parts)
        self._parts = []
        return body


def _size(count: int) -> str:
    return f"{count / (1024 * 1024):g} MB" if count >= 1024 * 1024 else f"{count:,} bytes"


async def read_bounded(
    chunks: AsyncIterator[bytes], encoding: str, limit: int = MAX_BODY_BYTES
) -> bytes:
    decoder = BodyDecoder(encoding, limit)
    async for chunk in chunks:
        decoder.feed(chunk)
    return decoder.finish()


def loads_bounded(content: bytes) -> Any:
    """`json.loads`, refusing data nested deeper than `MAX_JSON_DEPTH` with a message instead of
    a RecursionError (from the decoder or, later, from whatever walks the data). Raises
    ValueError for what is not JSON."""
    if _DEEP_RUN.search(content.translate(None, _NOT_A_BRACKET)) is not None:
        raise BodyRefused(f"its data is nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        return json.loads(content)
    except RecursionError:
        raise BodyRefused(f"its data is nested more than {MAX_JSON_DEPTH} levels deep") from None


# Nesting is a run of opening brackets once everything but brackets is left out: keys, values
# and whitespace between them do not end a level, only a closing bracket does. Dropping the rest
# first (`bytes.translate`, C speed) leaves ~2 % of a posts page to search, so the check costs
# ~0.02 ms a page instead of the ~0.2 ms a regular expression over the whole body took (it ran
# longer than the decode it guards). Brackets inside strings count too: a text of 200 opening
# brackets in a row is refused with the rest, which no real answer holds.
_NOT_A_BRACKET = bytes(byte for byte in range(256) if byte not in b"[]{}")
_DEEP_RUN = re.compile(rb"[\[{]{%d}" % (MAX_JSON_DEPTH + 1))
