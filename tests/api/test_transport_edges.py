"""Edges of the transport: the exact words of its errors, what is retried after a lost answer,
what the retry hook and the log are told, secrets in headers, and the limits on what of an
answer is shown (excerpts, page titles)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from app.api import errors as e
from app.api.bounded_body import BodyDecoder, BodyRefused
from app.api.client import ApiClient
from app.api.retry import RetryPolicy
from app.api.transport import Transport, redact_headers
from tests.api.helpers import BASE_URL, SECRET_KEY, FakeClock, Recorder, json_response, make_client


def sequence(*steps: httpx.Response | Exception) -> Callable[[httpx.Request], httpx.Response]:
    """A handler answering (or failing) with each step in turn, the last one for ever after."""
    remaining = list(steps)

    def handler(_: httpx.Request) -> httpx.Response:
        step = remaining.pop(0) if len(remaining) > 1 else remaining[0]
        if isinstance(step, Exception):
            raise step
        return step

    return handler


def transport_over(
    handler: Callable[[httpx.Request], httpx.Response],
    *,
    base_url: str = BASE_URL,
    retry: RetryPolicy | None = None,
    rng: Callable[[], float] | None = None,
) -> tuple[Transport, Recorder, FakeClock]:
    recorder = Recorder(handler)
    clock = FakeClock()
    transport = Transport(
        base_url,
        SECRET_KEY,
        transport=httpx.MockTransport(recorder),
        retry=retry or RetryPolicy(jitter=0.0),
        clock=clock,
        rng=rng,
    )
    return transport, recorder, clock


async def failure_of(
    method: str,
    path: str,
    handler: Callable[[httpx.Request], httpx.Response],
    *,
    base_url: str = BASE_URL,
) -> tuple[e.ApiError, Recorder]:
    transport, recorder, _ = transport_over(handler, base_url=base_url)
    try:
        with pytest.raises(e.ApiError) as caught:
            await transport.request(method, path)
    finally:
        await transport.aclose()
    return caught.value, recorder


# -- secrets --------------------------------------------------------------------------------


def test_logged_headers_hide_every_credential_and_keep_the_rest() -> None:
    headers = {
        "Authorization": f"Bearer {SECRET_KEY}",
        "Proxy-Authorization": "Basic dXNlcjpwYXNz",
        "Cookie": "session=abc",
        "Set-Cookie": "session=def",
        "Accept": "application/json",
    }
    assert redact_headers(headers) == {
        "Authorization": "[redacted]",
        "Proxy-Authorization": "[redacted]",
        "Cookie": "[redacted]",
        "Set-Cookie": "[redacted]",
        "Accept": "application/json",
    }


def test_without_a_key_there_is_nothing_to_scrub() -> None:
    transport = Transport(BASE_URL, "  ")
    assert transport.scrub("Token expired.") == "Token expired."


@pytest.mark.asyncio
async def test_a_key_may_hold_every_visible_ascii_character_from_bang_to_tilde() -> None:
    key = "!pd_live~"
    client, recorder, _ = make_client(lambda _: json_response(200, []), api_key=key)
    async with client:
        await client.labels.list()
    assert recorder.requests[0].headers["Authorization"] == f"Bearer {key}"


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("", "No API key was given."),
        (
            "pd live",
            "The API key contains spaces, line breaks or characters an API key cannot have.",
        ),
        (
            "pd_livé",
            "The API key contains spaces, line breaks or characters an API key cannot have.",
        ),
    ],
)
async def test_a_key_that_cannot_be_one_is_refused_in_words(key: str, message: str) -> None:
    client, recorder, _ = make_client(lambda _: json_response(200, []), api_key=key)
    async with client:
        with pytest.raises(e.Unauthenticated) as caught:
            await client.labels.list()
    assert caught.value.message == message
    assert recorder.requests == []


@pytest.mark.asyncio
async def test_the_query_the_body_and_the_files_given_are_what_is_sent() -> None:
    transport, recorder, _ = transport_over(sequence(httpx.Response(204)))
    try:
        await transport.request("GET", "/posts", params={"page": 2})
        await transport.request("POST", "/labels", json_body={"name": "News"})
        await transport.request(
            "POST", "/uploads", files={"file": ("a.png", b"PNGDATA", "image/png")}
        )
    finally:
        await transport.aclose()
    query, created, uploaded = recorder.requests
    assert query.url.params["page"] == "2"
    assert created.read() == b'{"name":"News"}'
    assert b"PNGDATA" in uploaded.read()
    assert b'filename="a.png"' in uploaded.read()


# -- answers without an answer ---------------------------------------------------------------

LOST = httpx.RemoteProtocolError("Server disconnected without sending a response.")


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("method", "failure", "kind", "message", "tries"),
    [
        (
            "GET",
            httpx.ConnectTimeout("slow"),
            e.ConnectionFailed,
            "Connecting to the server timed out.",
            4,
        ),
        (
            "GET",
            LOST,
            e.ConnectionFailed,
            "The connection to the server was lost before it answered.",
            4,
        ),
        (
            "GET",
            httpx.ReadTimeout("slow"),
            e.RequestTimedOut,
            "The server did not answer in time.",
            4,
        ),
        (
            "POST",
            httpx.ReadTimeout("slow"),
            e.OutcomeUnknown,
            "No answer came after sending; it is unknown whether the server saved it.",
            1,
        ),
        (
            "POST",
            httpx.ReadError("reset"),
            e.OutcomeUnknown,
            "The connection was lost after sending; it is unknown whether it was saved.",
            1,
        ),
        (
            "PUT",
            httpx.ReadTimeout("slow"),
            e.RequestTimedOut,
            "The server did not answer in time; the change may or may not have been saved.",
            1,
        ),
        (
            "DELETE",
            LOST,
            e.ConnectionFailed,
            "The connection was lost before the server answered; the change may or may not have "
            "been saved.",
            1,
        ),
    ],
)
async def test_each_lost_answer_says_what_may_have_happened(
    method: str, failure: Exception, kind: type[e.ApiError], message: str, tries: int
) -> None:
    error, recorder = await failure_of(method, "/labels/l1", sequence(failure))
    assert type(error) is kind
    assert error.message == message
    assert len(recorder.requests) == tries


@pytest.mark.asyncio
async def test_a_lost_change_says_to_refresh_before_trying_again() -> None:
    error, _ = await failure_of("PUT", "/labels/l1", sequence(httpx.ReadError("reset")))
    assert error.hint == "Refresh to see whether the change was saved, then try again if needed."


@pytest.mark.asyncio
async def test_a_head_that_lost_its_answer_is_asked_again_like_a_get() -> None:
    transport, recorder, _ = transport_over(sequence(LOST, httpx.Response(200)))
    try:
        assert await transport.request("HEAD", "/labels") is None
    finally:
        await transport.aclose()
    assert [request.method for request in recorder.requests] == ["HEAD", "HEAD"]


@pytest.mark.asyncio
async def test_an_upload_past_its_deadline_counts_the_time_its_size_allowed(
    tmp_path: Path,
) -> None:
    # The whole-request deadline grows by a second per 100 KB sent: 1 MB gets 120 + 10 s.
    def deadline_passes(_: httpx.Request) -> httpx.Response:
        raise TimeoutError

    video = tmp_path / "clip.mp4"
    video.write_bytes(b"\0" * 1_000_000)
    client, recorder, _ = make_client(deadline_passes)
    async with client:
        with pytest.raises(e.OutcomeUnknown) as caught:
            await client.uploads.upload(video)
    assert caught.value.message == (
        "The server took more than 130 s to answer POST /uploads; it is unknown whether it "
        "saved it."
    )
    assert len(recorder.requests) == 1


# -- retries: hook, log, jitter -------------------------------------------------------------


@pytest.mark.asyncio
async def test_each_wait_is_told_to_the_hook_and_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    seen: list[tuple[int, float, str]] = []
    transport, _, clock = transport_over(
        sequence(httpx.ConnectError("refused"), httpx.ConnectError("refused"), httpx.Response(204))
    )
    transport.on_retry = lambda attempt, delay, error: seen.append((attempt, delay, error.message))
    with caplog.at_level(logging.INFO, logger="app.api"):
        try:
            assert await transport.request("GET", "/labels") is None
        finally:
            await transport.aclose()
    refused = "Could not connect to the server."
    assert seen == [(1, 0.5, refused), (2, 1.0, refused)]
    assert clock.sleeps == [0.5, 1.0]
    retrying = [m for m in caplog.messages if m.startswith("Retrying")]
    assert retrying == [
        f"Retrying in 0.5 s after: {refused}",
        f"Retrying in 1.0 s after: {refused}",
    ]


@pytest.mark.asyncio
async def test_the_debug_log_tells_each_step_with_the_key_masked(
    caplog: pytest.LogCaptureFixture,
) -> None:
    transport, _, _ = transport_over(sequence(httpx.ConnectError("refused"), httpx.Response(204)))
    with caplog.at_level(logging.DEBUG, logger="app.api"):
        try:
            await transport.request("get", "/labels")
        finally:
            await transport.aclose()
    assert [r.getMessage() for r in caplog.records if r.name == "app.api"] == [
        "GET /labels headers={'Accept': 'application/json', 'Accept-Encoding': 'gzip, deflate', "
        "'User-Agent': 'Postdesk/0.1', 'Authorization': '[redacted]'}",
        "GET /labels failed on attempt 1: "
        "ConnectionFailed(status=None, message='Could not connect to the server.')",
        "Retrying in 0.5 s after: Could not connect to the server.",
        f"GET {BASE_URL}/labels -> 204 (attempt 2)",
    ]


@pytest.mark.asyncio
async def test_the_jitter_draws_from_the_random_source_given() -> None:
    transport, _, clock = transport_over(
        sequence(httpx.ConnectError("refused"), httpx.ConnectError("refused"), httpx.Response(204)),
        retry=RetryPolicy(jitter=0.25),
        rng=lambda: 0.5,
    )
    try:
        await transport.request("GET", "/labels")
    finally:
        await transport.aclose()
    assert clock.sleeps == [0.5 * 1.125, 1.0 * 1.125]


@pytest.mark.asyncio
async def test_a_gate_closed_for_exactly_the_longest_wait_is_waited_out() -> None:
    transport, recorder, clock = transport_over(sequence(httpx.Response(204)))
    transport.rate_gate.hold(60.0, "60")  # RetryPolicy().max_retry_after
    try:
        assert await transport.request("GET", "/labels") is None
    finally:
        await transport.aclose()
    assert clock.sleeps == [60.0]
    assert len(recorder.requests) == 1


@pytest.mark.asyncio
async def test_a_gate_closed_longer_is_reported_with_the_servers_words() -> None:
    transport, recorder, _ = transport_over(sequence(httpx.Response(204)))
    transport.rate_gate.hold(900.0, "99999999")
    try:
        with pytest.raises(e.RateLimited) as caught:
            await transport.request("GET", "/labels")
    finally:
        await transport.aclose()
    assert recorder.requests == []
    assert caught.value.retry_after == 900.0
    assert caught.value.server_said == "99999999"
    assert "“Retry-After: 99999999”" in caught.value.hint


# -- answers that are not the API ------------------------------------------------------------


@pytest.mark.asyncio
async def test_data_nested_too_deep_is_refused_with_advice() -> None:
    error, _ = await failure_of("GET", "/labels", sequence(httpx.Response(200, content=b"[" * 300)))
    assert type(error) is e.ProtocolError
    assert error.message == (
        "The server's answer to GET /labels was refused: its data is nested more than 200 "
        "levels deep."
    )
    assert error.hint == (
        "Nothing of it was used. The server is broken or not the API; tell its administrator."
    )


@pytest.mark.asyncio
async def test_a_web_page_is_named_by_its_content_type_when_it_has_no_title() -> None:
    page = httpx.Response(200, content=b"<p>Welcome</p>", headers={"Content-Type": "text/html"})
    error, _ = await failure_of("GET", "/labels", sequence(page))
    assert error.message == (
        "The server answered GET /labels with a web page (HTTP 200) instead of API data."
    )


@pytest.mark.asyncio
async def test_a_page_with_a_title_is_a_web_page_whatever_its_content_type() -> None:
    page = httpx.Response(
        401, content=b"<title>Sign in</title>", headers={"Content-Type": "text/plain"}
    )
    error, _ = await failure_of("GET", "/posts/p1", sequence(page))
    assert error.message == (
        "The server answered GET /posts/p1 with a web page (“Sign in”) (HTTP 401) instead of "
        "API data."
    )


@pytest.mark.asyncio
async def test_a_title_is_shown_up_to_eighty_characters() -> None:
    title = "A" * 100
    page = httpx.Response(200, content=f"<title>{title}</title>".encode())
    error, _ = await failure_of("GET", "/labels", sequence(page))
    assert f"(“{'A' * 80}”)" in error.message


@pytest.mark.asyncio
async def test_only_a_title_within_the_first_8_kb_is_looked_for() -> None:
    tag = b"<title>Late</title>"
    inside = b" " * (8192 - len(tag)) + tag
    outside = b" " * (8193 - len(tag)) + tag
    found, _ = await failure_of("GET", "/labels", sequence(httpx.Response(200, content=inside)))
    missed, _ = await failure_of("GET", "/labels", sequence(httpx.Response(200, content=outside)))
    assert "(“Late”)" in found.message
    assert missed.message == "The server's answer to GET /labels (HTTP 200) is not valid JSON."


@pytest.mark.asyncio
async def test_bytes_that_are_not_utf8_are_shown_replaced_not_a_crash() -> None:
    page = httpx.Response(200, content=b"<title>Caf\xe9</title> na\xefve")
    error, _ = await failure_of("GET", "/labels", sequence(page))
    assert "(“Caf\ufffd”)" in error.message
    assert isinstance(error, e.ProtocolError)
    assert error.excerpt == "<title>Caf\ufffd</title> na\ufffdve"


@pytest.mark.asyncio
async def test_the_excerpt_looks_at_the_first_4_kb_only() -> None:
    body = b" " * 4096 + b"tail"
    error, _ = await failure_of("GET", "/labels", sequence(httpx.Response(418, content=body)))
    assert isinstance(error, e.ProtocolError)
    assert error.excerpt == ""


# -- statuses ------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_status_300_is_a_redirect_too() -> None:
    answer = httpx.Response(300, headers={"Location": "https://example.test/api/posts"})
    error, _ = await failure_of("GET", "/posts", sequence(answer))
    assert type(error) is e.Redirected


@pytest.mark.asyncio
async def test_a_plain_text_400_is_an_unexpected_status_not_bad_json() -> None:
    answer = httpx.Response(400, content=b"Bad Request")
    error, _ = await failure_of("GET", "/posts/p1", sequence(answer))
    assert type(error) is e.ProtocolError
    assert error.message == "The server answered GET /posts/p1 with an unexpected status 400."
    assert error.excerpt == "Bad Request"


@pytest.mark.asyncio
async def test_an_unexpected_status_quotes_the_servers_message() -> None:
    error, _ = await failure_of(
        "GET", "/posts/p1", sequence(json_response(418, {"message": "I'm a teapot"}))
    )
    assert error.message == (
        "The server answered GET /posts/p1 with an unexpected status 418: I'm a teapot"
    )
    assert isinstance(error, e.ProtocolError)
    assert error.excerpt == '{"message": "I\'m a teapot"}'


@pytest.mark.asyncio
async def test_a_status_beyond_599_is_not_a_server_error() -> None:
    as_json, _ = await failure_of(
        "GET", "/posts/p1", sequence(json_response(600, {"message": "odd"}))
    )
    assert type(as_json) is e.ProtocolError
    assert as_json.message == "The server answered GET /posts/p1 with an unexpected status 600: odd"
    as_text, _ = await failure_of("GET", "/posts/p1", sequence(httpx.Response(600, content=b"?")))
    assert as_text.message == "The server's answer to GET /posts/p1 (HTTP 600) is not valid JSON."


@pytest.mark.asyncio
async def test_a_payment_message_of_the_server_is_kept() -> None:
    error, _ = await failure_of(
        "GET", "/posts", sequence(json_response(402, {"message": "Your trial ended."}))
    )
    assert type(error) is e.PaymentRequired
    assert error.message == "Your trial ended."


@pytest.mark.asyncio
async def test_a_rate_limit_name_that_is_not_text_is_dropped() -> None:
    transport, _, _ = transport_over(
        sequence(json_response(429, {"message": "Slow down.", "name": 42})),
        retry=RetryPolicy(max_attempts=1, jitter=0.0),
    )
    try:
        with pytest.raises(e.RateLimited) as caught:
            await transport.request("GET", "/posts")
    finally:
        await transport.aclose()
    assert caught.value.name is None
    assert caught.value.message == "Slow down."


# -- redirects and addresses ------------------------------------------------------------------

DEFAULT_ADVICE = (
    "The server address is probably wrong: check http:// versus https:// and that it ends in /api."
)


def redirect(location: str | None) -> httpx.Response:
    headers = {"Location": location} if location is not None else {}
    return httpx.Response(302, headers=headers, content=b"<html> Moved   here </html>")


@pytest.mark.asyncio
async def test_http_to_https_gives_both_pieces_of_advice_in_order() -> None:
    error, _ = await failure_of(
        "GET",
        "/posts",
        sequence(redirect("https://example.test/api/posts")),
        base_url="http://example.test/api",
    )
    assert error.hint == (
        "Use https:// instead of http:// (https://example.test…). " + DEFAULT_ADVICE
    )
    assert isinstance(error, e.Redirected)
    assert error.excerpt == "<html> Moved here </html>"


@pytest.mark.asyncio
async def test_an_address_ending_in_api_is_not_told_it_misses_api() -> None:
    for location in ("https://example.test/login", "https://example.test/api/v2/posts"):
        error, _ = await failure_of("GET", "/posts", sequence(redirect(location)))
        assert error.hint == DEFAULT_ADVICE


@pytest.mark.asyncio
async def test_a_redirect_nowhere_from_an_address_without_api_gives_the_general_advice() -> None:
    error, _ = await failure_of(
        "GET", "/posts", sequence(redirect(None)), base_url="https://example.test"
    )
    assert error.hint == DEFAULT_ADVICE


@pytest.mark.asyncio
async def test_an_address_that_is_not_a_web_address_says_what_to_enter() -> None:
    client = ApiClient("ftp://example.test/api", SECRET_KEY)
    async with client:
        with pytest.raises(e.ConnectionFailed) as caught:
            await client.accounts.list()
    assert caught.value.message == "The server address is not a valid web address."
    assert caught.value.hint == (
        "Enter the full API address, starting with https:// and usually ending in /api."
    )


@pytest.mark.asyncio
async def test_check_connection_names_a_missing_api_in_words() -> None:
    client, _, _ = make_client(lambda _: json_response(404, {"message": "Not Found"}))
    async with client:
        with pytest.raises(e.ProtocolError) as caught:
            await client.check_connection()
    assert caught.value.message == "No Social Publishing API was found at this address (Not Found)."
    assert caught.value.status == 404
    assert caught.value.hint == "Check the server address: it should end in /api."


# -- body limits -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("limit", "words"),
    [(1000, "1,000 bytes"), (1024 * 1024 - 1, "1,048,575 bytes"), (1024 * 1024, "1 MB")],
)
def test_a_body_past_its_limit_names_the_limit_in_bytes_or_mb(limit: int, words: str) -> None:
    decoder = BodyDecoder("", limit)
    with pytest.raises(BodyRefused) as caught:
        decoder.feed(b"x" * (limit + 1))
    assert caught.value.reason == f"it is larger than {words} once unpacked"
