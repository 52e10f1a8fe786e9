"""Fetch a media file named by its address (an export's server media) so the import can upload
it again. Streamed to disk with a size cap; every failure says which address and why."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

MAX_BYTES = 2 * 1024**3
"""Larger than any network's media limit (`app.networks.table`): a bigger file is not media."""
TIMEOUT_S = 60.0
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


class DownloadFailed(Exception):
    """`str()` is the row's reason, for the user."""


def _file_name(url: str) -> str:
    name = url.split("?", 1)[0].split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    return _SAFE.sub("_", name)[-120:] or "media"


async def download(url: str, folder: Path) -> Path:
    """Download `url` into `folder`; raises DownloadFailed naming the address and the reason."""
    target = folder / _file_name(url)
    try:
        async with (
            httpx.AsyncClient(timeout=TIMEOUT_S, follow_redirects=True) as client,
            client.stream("GET", url) as response,
        ):
            if response.status_code != 200:
                raise DownloadFailed(
                    f"media {url} could not be downloaded (the server answered "
                    f"{response.status_code}); download it yourself and give its path"
                )
            written = 0
            with target.open("wb") as out:
                async for chunk in response.aiter_bytes():
                    written += len(chunk)
                    if written > MAX_BYTES:
                        raise DownloadFailed(f"media {url} is larger than 2 GB; not downloaded")
                    out.write(chunk)
    except httpx.HTTPError as exc:
        raise DownloadFailed(
            f"media {url} could not be downloaded ({type(exc).__name__}); check the address "
            "or download it yourself and give its path"
        ) from None
    return target
