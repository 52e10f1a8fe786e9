"""A redirect means a wrong base URL: say where it pointed and how to fix the address."""

from __future__ import annotations

import httpx
import pytest

from app.api import errors as e
from app.api.client import ApiClient
from app.api.retry import RetryPolicy
from tests.api.helpers import FakeClock, Recorder


def redirecting(location: str | None, status: int = 302) -> Recorder:
    headers = {"Location": location} if location is not None else {}
    return Recorder(lambda _: httpx.Response(status, headers=headers, text="<html>Moved</html>"))


def client_for(base_url: str, recorder: Recorder) -> ApiClient:
    return ApiClient(
        base_url,
        "key",
        transport=httpx.MockTransport(recorder),
        retry=RetryPolicy(jitter=0.0),
        clock=FakeClock(),
    )


@pytest.mark.asyncio
@pytest.mark.parametrize("status", [301, 302, 307, 308])
async def test_http_to_https_says_so(status: int) -> None:
    recorder = redirecting("https://example.test/api/posts", status)
    async with client_for("http://example.test/api", recorder) as client:
        with pytest.raises(e.Redirected) as caught:
            await client.posts.page(1)
    error = caught.value
    assert error.message == "The server redirected to https://example.test/api/posts."
    assert error.location == "https://example.test/api/posts"
    assert error.status == status
    assert error.hint.startswith("Use https:// instead of http://")
    assert "is not valid JSON" not in error.message
    assert len(recorder.requests) == 1  # a redirect is not followed, nor retried


@pytest.mark.asyncio
async def test_a_missing_api_suffix_is_named() -> None:
    recorder = redirecting("/api/posts")
    async with client_for("https://example.test/app", recorder) as client:
        with pytest.raises(e.Redirected) as caught:
            await client.posts.page(1)
    assert caught.value.location == "https://example.test/api/posts"  # resolved
    assert caught.value.hint.startswith("The address is probably missing /api at the end.")


@pytest.mark.asyncio
async def test_a_redirect_without_location_still_explains() -> None:
    async with client_for("https://example.test/api", redirecting(None)) as client:
        with pytest.raises(e.Redirected) as caught:
            await client.labels.list()
    assert caught.value.message == "The server redirected to another address (none given)."
    assert "http:// versus https://" in caught.value.hint
    assert "ends in /api" in caught.value.hint


@pytest.mark.asyncio
async def test_the_key_never_appears_in_the_location() -> None:
    key = "pd_live_Zq8sECRETkey0123456789abcdef"
    recorder = Recorder(
        lambda _: httpx.Response(302, headers={"Location": f"https://x.test/login?k={key}"})
    )
    client = ApiClient(
        "https://example.test/api", key, transport=httpx.MockTransport(recorder), clock=FakeClock()
    )
    async with client:
        with pytest.raises(e.Redirected) as caught:
            await client.labels.list()
    assert key not in caught.value.message
    assert key not in caught.value.location
