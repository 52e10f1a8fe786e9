"""What an `ApiClient` hands down to every request: the server's time zone and the timeout."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest

from tests.api.helpers import json_response, make_client, post_json

TOKYO = ZoneInfo("Asia/Tokyo")


@pytest.mark.asyncio
async def test_times_in_answers_are_read_in_the_servers_time_zone() -> None:
    client, _, _ = make_client(lambda _: json_response(200, post_json("p1")), server_tz=TOKYO)
    async with client:
        post = await client.posts.get("p1")
    assert client.server_tz is TOKYO
    # "2025-03-01 10:00:00" on a Tokyo server is 01:00 UTC.
    assert post.created_at == datetime(2025, 3, 1, 1, 0, tzinfo=UTC)


@pytest.mark.asyncio
@pytest.mark.parametrize(("given", "expected"), [(None, 20.0), (7.5, 7.5)])
async def test_every_request_carries_the_clients_timeout(
    given: float | None, expected: float
) -> None:
    options: dict[str, Any] = {} if given is None else {"timeout": given}
    client, recorder, _ = make_client(lambda _: json_response(200, []), **options)
    async with client:
        await client.labels.list()
    timeouts = recorder.requests[0].extensions["timeout"]
    assert timeouts == dict.fromkeys(("connect", "read", "write", "pool"), expected)


def test_a_client_without_a_time_zone_reads_utc() -> None:
    client, _, _ = make_client(lambda _: httpx.Response(204))
    assert client.server_tz is UTC
