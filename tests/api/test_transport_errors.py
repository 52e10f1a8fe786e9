"""Answers the sandbox cannot produce, mapped onto the typed error tree (MockTransport)."""

from __future__ import annotations

import logging

import httpx
import pytest

from app.api import errors as e
from app.api.client import ApiClient
from app.api.retry import RetryPolicy
from tests.api.helpers import SECRET_KEY, json_response, make_client, post_json

SPEC_ERRORS = [
    (401, "Unauthenticated.", e.Unauthenticated),
    (401, "Token expired.", e.TokenExpired),
    (401, "Token not found.", e.TokenNotFound),
    (401, "No workspace selected.", e.NoWorkspaceSelected),
    (401, "Some other reason.", e.AuthError),
    (402, "Active subscription required.", e.PaymentRequired),
    (403, "Insufficient workspace permissions.", e.InsufficientPermissions),
    (403, "Workspace access denied.", e.WorkspaceAccessDenied),
    (403, "Personal access token required.", e.PersonalAccessTokenRequired),
    (403, "This action is unauthorized.", e.Unauthorized),
    (403, "Members cannot manage webhooks.", e.PermissionDenied),
    (404, "No query results for model [Post].", e.NotFound),
    (422, "The content field is required.", e.ValidationFailed),
    (429, "Too Many Attempts.", e.RateLimited),
    (502, "Instagram did not answer.", e.UpstreamFailed),
    (500, "Server Error", e.ServerError),
]


@pytest.mark.asyncio
@pytest.mark.parametrize(("status", "message", "expected"), SPEC_ERRORS)
async def test_every_spec_error_becomes_its_class_with_the_server_message(
    status: int, message: str, expected: type[e.ApiError]
) -> None:
    client, recorder, _ = make_client(lambda _: json_response(status, {"message": message}))
    async with client:
        with pytest.raises(e.ApiError) as caught:
            await client.posts.get("p1")
    assert type(caught.value) is expected
    assert caught.value.message == message
    assert str(caught.value) == message
    assert caught.value.hint
    assert caught.value.status == status
    assert recorder.requests[0].headers["Authorization"] == f"Bearer {SECRET_KEY}"


@pytest.mark.asyncio
async def test_the_auth_hints_say_what_to_do_next() -> None:
    async def fail_with(status: int, message: str) -> e.ApiError:
        client, _, _ = make_client(lambda _: json_response(status, {"message": message}))
        async with client:
            with pytest.raises(e.ApiError) as caught:
                await client.accounts.list()
        return caught.value

    expired = await fail_with(401, "Token expired.")
    assert "Settings → API Keys" in expired.hint
    not_admin = await fail_with(403, "Insufficient workspace permissions.")
    assert "admin" in not_admin.hint
    unpaid = await fail_with(402, "Active subscription required.")
    assert "subscription" in unpaid.hint


@pytest.mark.asyncio
async def test_validation_errors_are_kept_by_field_path() -> None:
    body = {
        "message": "The destinations.0.meta.board id field is required. (and 1 more error)",
        "errors": {
            "destinations.0.meta.board_id": ["The destinations.0.meta.board id field is required."],
            "content": "The content field is required.",
        },
    }
    client, _, _ = make_client(lambda _: json_response(422, body))
    async with client:
        with pytest.raises(e.ValidationFailed) as caught:
            await client.labels.list()
    error = caught.value
    assert error.errors["destinations.0.meta.board_id"] == [
        "The destinations.0.meta.board id field is required."
    ]
    assert error.errors["content"] == ["The content field is required."]
    assert error.for_field("destinations.0.meta") == [
        "The destinations.0.meta.board id field is required."
    ]
    assert error.for_field("destinations.1") == []


@pytest.mark.asyncio
async def test_rate_limit_carries_name_and_retry_after_when_not_retried() -> None:
    body = {"name": "rate_limit_exceeded", "message": "Too Many Attempts."}
    client, recorder, _ = make_client(lambda _: json_response(429, body, {"Retry-After": "600"}))
    async with client:
        with pytest.raises(e.RateLimited) as caught:
            await client.posts.get("p1")
    assert caught.value.retry_after == 600
    assert caught.value.name == "rate_limit_exceeded"
    assert "600" in caught.value.hint
    assert len(recorder.requests) == 1


@pytest.mark.asyncio
async def test_a_404_on_a_reduced_route_collection_marks_the_route_missing() -> None:
    client, _, _ = make_client(lambda _: json_response(404, {"message": "Not Found"}))
    async with client:
        with pytest.raises(e.NotFound) as collection:
            await client.signatures.page(1)
        with pytest.raises(e.NotFound) as item:
            await client.labels.delete("l1")
    assert collection.value.route_missing is True
    assert item.value.route_missing is False


@pytest.mark.asyncio
async def test_malformed_json_is_a_protocol_error_with_an_excerpt() -> None:
    client, _, _ = make_client(
        lambda _: httpx.Response(200, content=b'{"data": [', headers={"Content-Type": "json"})
    )
    async with client:
        with pytest.raises(e.ProtocolError) as caught:
            await client.posts.page(1)
    assert "not valid JSON" in caught.value.message
    assert caught.value.excerpt == '{"data": ['
    assert caught.value.status == 200


@pytest.mark.asyncio
async def test_an_html_page_is_named_as_such_even_with_an_auth_status() -> None:
    page = b"<html><head><title>Hotel Wi-Fi login</title></head><body>Sign in</body></html>"
    client, _, _ = make_client(
        lambda _: httpx.Response(401, content=page, headers={"Content-Type": "text/html"})
    )
    async with client:
        with pytest.raises(e.ProtocolError) as caught:
            await client.accounts.list()
    assert "web page" in caught.value.message
    assert "Hotel Wi-Fi login" in caught.value.message
    assert caught.value.status == 401
    assert "Sign in" in caught.value.excerpt


@pytest.mark.asyncio
async def test_a_login_page_answered_with_200_is_not_taken_for_data() -> None:
    page = b"<!doctype html><html><head><title>Sign in</title></head></html>"
    client, _, _ = make_client(
        lambda _: httpx.Response(200, content=page, headers={"Content-Type": "text/html"})
    )
    async with client:
        with pytest.raises(e.ProtocolError) as caught:
            await client.labels.list()
    assert "web page" in caught.value.message
    assert caught.value.status == 200


@pytest.mark.asyncio
async def test_an_answer_of_the_wrong_shape_is_a_protocol_error_naming_the_field() -> None:
    client, _, _ = make_client(lambda _: json_response(200, {"id": "p1", "content": "x"}))
    async with client:
        with pytest.raises(e.ProtocolError) as caught:
            await client.posts.get("p1")
    assert "status" in caught.value.message
    assert "GET /posts/p1" in caught.value.message


@pytest.mark.asyncio
async def test_an_empty_answer_where_data_is_expected_is_a_protocol_error() -> None:
    client, _, _ = make_client(lambda _: httpx.Response(204))
    async with client:
        with pytest.raises(e.ProtocolError):
            await client.labels.list()


@pytest.mark.asyncio
@pytest.mark.parametrize("status", [400, 405, 418])
async def test_an_unexpected_status_is_a_protocol_error(status: int) -> None:
    client, _, _ = make_client(
        lambda _: json_response(status, {"message": "nope"}, {"Location": "https://elsewhere/"})
    )
    async with client:
        with pytest.raises(e.ProtocolError) as caught:
            await client.posts.get("p1")
    assert caught.value.status == status
    assert str(status) in caught.value.message


@pytest.mark.asyncio
async def test_a_server_error_without_a_body_still_says_what_happened() -> None:
    client, _, _ = make_client(lambda _: httpx.Response(500))
    async with client:
        with pytest.raises(e.ServerError) as caught:
            await client.posts.get("p1")
    assert "500" in caught.value.message


@pytest.mark.asyncio
async def test_ids_cannot_escape_their_path_segment() -> None:
    client, recorder, _ = make_client(lambda _: json_response(200, post_json("x")))
    async with client:
        await client.posts.get("../labels?x=1")
    assert recorder.requests[0].url.raw_path == b"/api/posts/..%2Flabels%3Fx%3D1"


@pytest.mark.asyncio
async def test_unknown_fields_and_statuses_survive_parsing() -> None:
    body = post_json("p1", status="archived_by_robot", brand_new_field={"x": 1})
    client, _, _ = make_client(lambda _: json_response(200, body))
    async with client:
        post = await client.posts.get("p1")
    assert post.status == "archived_by_robot"
    assert post.known_status is None
    assert post.model_extra == {"brand_new_field": {"x": 1}}


@pytest.mark.asyncio
async def test_check_connection_explains_a_wrong_address() -> None:
    client, _, _ = make_client(lambda _: httpx.Response(404, content=b"<html>Not Found</html>"))
    async with client:
        with pytest.raises(e.ProtocolError) as caught:
            await client.check_connection()
    assert "/api" in caught.value.hint


@pytest.mark.asyncio
async def test_a_key_with_a_line_break_is_refused_without_sending_or_echoing_it() -> None:
    client, recorder, _ = make_client(lambda _: json_response(200, []), api_key="abc\ndef")
    async with client:
        with pytest.raises(e.Unauthenticated) as caught:
            await client.accounts.list()
    assert recorder.requests == []
    assert "abc" not in str(caught.value)
    assert "def" not in repr(caught.value)


@pytest.mark.asyncio
async def test_a_non_http_address_is_a_connection_failure_with_advice() -> None:
    client = ApiClient("ftp://x/api", "k")
    async with client:
        with pytest.raises(e.ConnectionFailed) as caught:
            await client.accounts.list()
    assert "https://" in caught.value.hint


@pytest.mark.asyncio
async def test_the_key_never_reaches_errors_or_logs(caplog: pytest.LogCaptureFixture) -> None:
    echoed = f"Bad token {SECRET_KEY} given; Authorization: Bearer {SECRET_KEY}"
    answers = iter(
        [
            json_response(401, {"message": echoed}),
            httpx.Response(500, content=f"<html><title>{SECRET_KEY}</title></html>".encode()),
            json_response(422, {"message": "bad", "errors": {"key": [echoed]}}),
            httpx.Response(200, content=f"oops {SECRET_KEY}".encode()),
        ]
    )
    client, _, _ = make_client(lambda _: next(answers), retry=RetryPolicy(max_attempts=1))
    caught: list[e.ApiError] = []
    with caplog.at_level(logging.DEBUG):
        async with client:
            for _ in range(4):
                try:
                    await client.labels.list()
                except e.ApiError as failure:
                    caught.append(failure)
                    logging.getLogger("app.api").exception("failed")
    assert len(caught) == 4
    for seen in caught:
        texts = [str(seen), repr(seen), seen.hint, getattr(seen, "excerpt", "")]
        if isinstance(seen, e.ValidationFailed):
            texts += [m for ms in seen.errors.values() for m in ms]
        assert all(SECRET_KEY not in text for text in texts)
    assert any("[redacted]" in str(seen) for seen in caught)
    assert SECRET_KEY not in caplog.text
    assert "failed" in caplog.text
    assert SECRET_KEY not in repr(client)
