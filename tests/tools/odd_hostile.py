"""The odd server's hostile modes (issue 19 §1, §3): answers that lie, flood, hang or explode.

Each mode rewrites a normal answer (`distort`) or the way it is sent (`body_chunks`):

  selflink    every list answers its first page whatever `page` was asked, `links.next` pointing
              at itself (a walk that trusts it never ends)
  endless     every list claims `last_page` 1,000,000 (and a matching total); pages past the
              data are empty
  retryneg    every 5th request answers 429 `Retry-After: -5`
  retryhuge   every 5th request answers 429 `Retry-After: 99999999`
  trickle     every answer's body comes one byte a second
  gzipbomb    GET /posts answers a gzip body that expands to `GZIP_BOMB_BYTES`
  deep        GET /posts answers JSON nested `DEEP_LEVELS` levels
  huge        the first post of each posts page has 10 MB of text; the first row of each webhook
              log page a 5 MB response body (for the views that must show a start, not all)
  skew        the `Date` header (and `created_at` of what is created) runs `SKEW_SECONDS` behind
              this computer's clock: as if this computer's clock were 10 minutes fast
Stdlib only.
"""

from __future__ import annotations

import functools
import json
import zlib
from collections.abc import Iterator
from typing import Any

HOSTILE_MODES = (
    "selflink",
    "endless",
    "retryneg",
    "retryhuge",
    "trickle",
    "gzipbomb",
    "deep",
    "skew",
    "huge",
)
HUGE_POST_CHARS = 10 * 1024 * 1024
HUGE_LOG_CHARS = 5 * 1024 * 1024
ENDLESS_LAST_PAGE = 1_000_000
GZIP_BOMB_BYTES = 1 << 30
DEEP_LEVELS = 10_000
SKEW_SECONDS = -600.0
TRICKLE_SECONDS = 1.0
HOSTILE_RETRY_EVERY = 5
RETRY_AFTER_VALUES = {"retryneg": "-5", "retryhuge": "99999999"}


def is_list(body: Any) -> bool:
    return isinstance(body, dict) and isinstance(body.get("data"), list) and "meta" in body


def distort_list(modes: frozenset[str], body: Any, first_page: Any) -> Any:
    """A list page as the modes have it (`first_page`: the same list's page 1)."""
    if not is_list(body):
        return body
    if "selflink" in modes and is_list(first_page):
        body = json.loads(json.dumps(first_page))
        own = body["links"].get("first")
        body["links"]["next"] = own
        body["links"]["last"] = None
        body["meta"].pop("last_page", None)
        body["meta"].pop("total", None)
    if "huge" in modes and body["data"] and isinstance(body["data"][0], dict):
        first_item = body["data"][0]
        if "response_body" in first_item:
            first_item["response_body"] = "<html>" + "x" * HUGE_LOG_CHARS + "</html>"
        elif "content" in first_item:
            first_item["content"] = "A very long post. " * (HUGE_POST_CHARS // 18)
    if "endless" in modes:
        meta = body["meta"]
        meta["last_page"] = ENDLESS_LAST_PAGE
        meta["total"] = ENDLESS_LAST_PAGE * int(meta.get("per_page") or 15)
        meta.pop("links", None)
        first = body["links"].get("first") or ""
        page = int(meta.get("current_page") or 1)
        body["links"]["next"] = first.replace("page=1", f"page={page + 1}")
        body["links"]["last"] = first.replace("page=1", f"page={ENDLESS_LAST_PAGE}")
    return body


def retry_after_for(modes: frozenset[str], number: int) -> str | None:
    """The hostile Retry-After this request answers with, if any."""
    for mode, value in RETRY_AFTER_VALUES.items():
        if mode in modes and number % HOSTILE_RETRY_EVERY == 0:
            return value
    return None


@functools.cache
def gzip_bomb(size: int = GZIP_BOMB_BYTES) -> bytes:
    """A gzip stream of `size` spaces after `{"data": [` (about 1 MB for 1 GB)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts = [packer.compress(b'{"data": [')]
    block = b" " * (1 << 20)
    for _ in range(size // len(block)):
        parts.append(packer.compress(block))
    parts.append(packer.compress(b"]}"))
    parts.append(packer.flush())
    return b"".join(parts)


def deep_json(levels: int = DEEP_LEVELS) -> bytes:
    return b'{"data": ' + b"[" * levels + b"]" * levels + b', "meta": {}}'


def body_chunks(modes: frozenset[str], data: bytes) -> Iterator[bytes]:
    """How the body goes out: whole, or one byte at a time (`trickle`, paced by the caller)."""
    if "trickle" in modes:
        for index in range(len(data)):
            yield data[index : index + 1]
    else:
        yield data
