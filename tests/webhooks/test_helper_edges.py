"""The webhook helpers at their edges (issue 18 §2): every verdict of the signature checker, and
the health chart's hours when the clock is not on the hour or the computer is not in UTC."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
import pytest_asyncio

from app.api.webhook_signing import sign
from app.models.webhooks import DeliveryLog
from app.webhooks import local_receiver
from app.webhooks.endpoint import endpoint_problem, is_public_host
from app.webhooks.local_receiver import LocalReceiver
from app.webhooks.raw_log import RawDeliveryLog, payload_of
from app.webhooks.signature_check import Verdict, check_signature
from app.webhooks.timeline import (
    HOURS,
    build_timeline,
    first_hour,
    outcome,
    timeline_from_counts,
    timeline_of,
)
from tests.local_zone import local_zone

BODY = '{"event":"post.published","data":{"id":"p1"}}'
SECRET = "whsec_test"
GOOD = sign(BODY.encode("utf-8"), SECRET)
ALL_HEX = ("0123456789abcdefABCDEF" * 3)[:64]  # every hex digit, upper and lower case


@pytest.mark.parametrize(
    ("signature", "secret", "verdict"),
    [
        (GOOD, "  ", Verdict(False, "Enter the webhook's signing secret (whsec_…).")),
        (" ", SECRET, Verdict(False, "Enter the X-Webhook-Signature header value.")),
        (GOOD, SECRET, Verdict(True, "Verified: this body was signed with this secret.")),
        (
            f"  {GOOD}\n",
            f" {SECRET} ",
            Verdict(True, "Verified: this body was signed with this secret."),
        ),
        (
            "sha256=" + GOOD,
            SECRET,
            Verdict(False, "Does not verify. The header is plain hex: drop the 'sha256=' prefix."),
        ),
        (
            GOOD[:-1],
            SECRET,
            Verdict(False, "Does not verify: a signature is 64 hexadecimal characters."),
        ),
        (
            GOOD[:-1] + "g",
            SECRET,
            Verdict(False, "Does not verify: a signature is 64 hexadecimal characters."),
        ),
        (GOOD.upper(), SECRET, Verdict(False, "Does not verify: the service sends lowercase hex.")),
        (ALL_HEX, SECRET, Verdict(False, "Does not verify: the service sends lowercase hex.")),
        (
            "0" * 64,
            SECRET,
            Verdict(
                False,
                "Does not verify. Check that the body is byte-for-byte what was received (no "
                "re-formatted JSON, no added newline) and that the secret was not rotated since.",
            ),
        ),
    ],
)
def test_every_verdict_of_the_signature_checker(
    signature: str, secret: str, verdict: Verdict
) -> None:
    assert check_signature(BODY, signature, secret) == verdict


def test_the_body_is_checked_as_utf8_bytes() -> None:
    body = '{"text":"Grüße 👋"}'
    assert check_signature(body, sign(body.encode("utf-8"), SECRET), SECRET).ok is True


# -- the chart's hours -------------------------------------------------------------------------


def test_a_log_without_an_answer_is_queued() -> None:
    assert outcome(DeliveryLog(id="d1")) == "queued"
    assert outcome(DeliveryLog(id="d1", failed_at=datetime(2031, 1, 1, tzinfo=UTC))) == "failed"


def test_hours_start_on_the_hour_whatever_the_clock_says() -> None:
    now = datetime(2031, 1, 10, 12, 34, 56, 789_000, tzinfo=UTC)
    chart = timeline_of([], now)
    assert len(chart.buckets) == HOURS
    assert chart.buckets[-1].start == datetime(2031, 1, 10, 12, 0, tzinfo=UTC)
    assert chart.buckets[0].start == datetime(2031, 1, 3, 13, 0, tzinfo=UTC)


@pytest.fixture
def half_hour_zone() -> Iterator[None]:
    """The computer's clock in India (UTC+05:30): local hours are not UTC hours."""
    with local_zone("Asia/Kolkata"):
        yield


@pytest.mark.usefixtures("half_hour_zone")
def test_chart_hours_are_utc_hours_on_a_computer_in_another_zone() -> None:
    now = datetime(2031, 1, 10, 12, 10, tzinfo=UTC)
    created = now - timedelta(minutes=5)
    chart = build_timeline(
        [DeliveryLog(id="d1", created_at=created, delivered_at=created, attempts=1)], now
    )
    assert chart.buckets[-1].start == datetime(2031, 1, 10, 12, 0, tzinfo=UTC)
    assert chart.buckets[-1].delivered == 1
    assert first_hour(now) == chart.buckets[0].start == FIRST_HOUR


def _log(created: datetime, **fields: Any) -> DeliveryLog:
    return DeliveryLog(id="d", created_at=created, **fields)


NOW = datetime(2031, 1, 10, 12, 10, tzinfo=UTC)
FIRST_HOUR = datetime(2031, 1, 3, 13, 0, tzinfo=UTC)


def test_a_log_from_before_the_first_hour_is_counted_apart_and_one_in_it_is_charted() -> None:
    chart = build_timeline(
        [
            _log(FIRST_HOUR - timedelta(minutes=30)),
            _log(FIRST_HOUR - timedelta(days=3)),
            _log(FIRST_HOUR),
        ],
        NOW,
    )
    assert chart.older_skipped == 2
    assert chart.buckets[0].queued == 1
    assert chart.queued == 1


def test_a_log_from_after_now_is_charted_in_the_last_hour() -> None:
    chart = build_timeline([_log(NOW + timedelta(hours=2))], NOW)
    assert chart.buckets[-1].queued == 1


def test_each_outcome_is_counted_not_just_noticed() -> None:
    at = NOW - timedelta(minutes=5)
    logs = [
        *(_log(at, failed_at=at, attempts=3) for _ in range(2)),
        *(_log(at) for _ in range(3)),
        *(_log(at, delivered_at=at, attempts=1) for _ in range(4)),
    ]
    last = build_timeline(logs, NOW).buckets[-1]
    assert (last.failed, last.queued, last.delivered, last.total) == (2, 3, 4, 9)


def _answered_after(elapsed: timedelta, attempts: int = 1) -> list[float]:
    created = datetime(2031, 1, 10, 12, 0, 0, 500_000, tzinfo=UTC)
    log = _log(created, delivered_at=created + elapsed, attempts=attempts)
    return build_timeline([log], NOW).buckets[-1].outcome_ms


def test_response_times_from_zero_up_to_a_minute_exclusive_are_measured() -> None:
    assert _answered_after(timedelta(0)) == [0.0]
    assert _answered_after(timedelta(milliseconds=250)) == [250.0]
    assert _answered_after(timedelta(seconds=60)) == []
    assert _answered_after(timedelta(milliseconds=250), attempts=2) == []


def test_times_without_an_offset_are_utc_and_others_are_converted() -> None:
    naive = DeliveryLog(id="n", created_at=datetime(2031, 1, 10, 11, 30))
    berlin = DeliveryLog(
        id="b", created_at=datetime(2031, 1, 10, 12, 30, tzinfo=timezone(timedelta(hours=2)))
    )
    chart = build_timeline([naive, berlin], NOW)
    assert chart.buckets[-2].queued == 1  # 11:30 UTC
    assert chart.buckets[-3].queued == 1  # 10:30 UTC


@pytest.mark.usefixtures("half_hour_zone")
def test_times_without_an_offset_are_utc_on_a_computer_in_another_zone() -> None:
    naive = DeliveryLog(id="n", created_at=datetime(2031, 1, 10, 11, 30))
    assert build_timeline([naive], NOW).buckets[-2].queued == 1


def test_counts_from_the_database_land_in_their_hours() -> None:
    now = datetime(2031, 1, 10, 12, 34, 56, 789_000, tzinfo=UTC)
    assert first_hour(now) == FIRST_HOUR
    assert first_hour() <= datetime.now(UTC) - timedelta(hours=HOURS - 1)
    chart = timeline_from_counts(
        [
            (-1, "failed", 5),  # before the first hour: not charted, the rest still is
            (0, "failed", 2),
            (0, "failed", 3),
            (0, "delivered", 4),
            (0, "other", 1),
            (HOURS + 10, "delivered", 7),  # a clock ahead: the last hour
        ],
        [(0, 12.5), (-3, 99.0), (HOURS + 10, 40.0)],
        now,
    )
    assert chart.older_skipped == 0
    assert [b.start for b in (chart.buckets[0], chart.buckets[-1])] == [
        FIRST_HOUR,
        datetime(2031, 1, 10, 12, 0, tzinfo=UTC),
    ]
    first, last = chart.buckets[0], chart.buckets[-1]
    assert (first.failed, first.delivered, first.queued, first.outcome_ms) == (5, 4, 1, [12.5])
    assert (last.delivered, last.outcome_ms) == (7, [40.0])
    assert timeline_from_counts([], [], now, older=3).older_skipped == 3


# -- raw logs ----------------------------------------------------------------------------------


def test_a_raw_log_keeps_the_payload_as_sent_and_archives_it_once() -> None:
    sent = {
        "id": "e1",
        "type": "post.created",
        "data": {},
        "created_at": "2031-01-01T00:00:00+00:00",
    }
    log = RawDeliveryLog.model_validate({"id": "d1", "payload": sent})
    assert payload_of(log) == sent  # not re-dumped from the parsed envelope ("…Z")
    archived = json.loads(log.archive_json())
    assert "payload" not in archived
    assert archived["payload_raw"] == sent
    assert payload_of(DeliveryLog(id="d2", payload={"a": 1})) == {"a": 1}
    assert payload_of(DeliveryLog(id="d3")) == {}
    # A row kept before raw payloads were: the parsed envelope as JSON, only what it had.
    parsed = DeliveryLog(
        id="d4", payload={"id": "e2", "type": "t", "created_at": sent["created_at"]}
    )
    assert payload_of(parsed) == {"id": "e2", "type": "t", "created_at": "2031-01-01T00:00:00Z"}


# -- endpoints ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("", "Enter the endpoint URL."),
        ("https://exa mple.com/h", "The endpoint must not contain spaces."),
        ("https://example.com:99999/h", "The endpoint is not a valid URL."),
        ("ftp://example.com/h", "The endpoint must start with http:// or https://."),
        ("https://", "The endpoint needs a host name, e.g. https://example.com/hooks."),
        (
            "http://10.0.0.1/h",
            "The endpoint must be a public address: private, loopback and link-local hosts are "
            "refused by the service.",
        ),
    ],
)
def test_each_endpoint_problem_says_what_is_wrong(url: str, problem: str) -> None:
    assert endpoint_problem(url) == problem


@pytest.mark.parametrize(
    ("host", "public"),
    [
        ("example.com.", True),
        ("localhost.", False),
        ("app.localhost", False),
        ("0x7f.1", False),
        ("224.0.0.1", False),  # multicast
        ("4000::1", False),  # reserved
        ("100.64.0.1", True),
    ],
)
def test_hosts_judged_without_looking_them_up(host: str, public: bool) -> None:
    assert is_public_host(host) is public


# -- the local receiver ------------------------------------------------------------------------


async def _send(port: int, raw: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(raw)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    await writer.wait_closed()
    return answer


@pytest_asyncio.fixture
async def listening() -> AsyncIterator[LocalReceiver]:
    receiver = LocalReceiver(lambda request: None)
    assert (receiver.port, receiver.url, receiver.secret) == (None, "", None)
    await receiver.start(0, SECRET)
    yield receiver
    await receiver.stop()
    assert (receiver.port, receiver.url, receiver.secret) == (None, "", None)


@pytest.mark.asyncio
async def test_a_request_with_bare_newlines_and_a_host_with_a_port_is_read(
    listening: LocalReceiver,
) -> None:
    port = listening.port
    assert port is not None
    signature = sign(b"{}", SECRET)
    raw = (
        f"POST /hooks HTTP/1.1\nHost: 127.0.0.1:{port}\nX-Webhook-Signature: {signature}\n"
        "Content-Length: 2\n\n{}"
    ).encode()
    answer = await _send(port, raw)
    assert answer.startswith(b"HTTP/1.1 200 OK\r\n")
    (request,) = listening.received
    assert request.header("host") == f"127.0.0.1:{port}"
    assert request.header("X-Missing") is None
    assert (request.verified, request.verdict) == (
        True,
        "Signature verified with the webhook's secret.",
    )


@pytest.mark.asyncio
async def test_a_request_without_a_length_has_an_empty_body(listening: LocalReceiver) -> None:
    assert listening.port is not None
    answer = await _send(listening.port, b"POST /hooks HTTP/1.1\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 401 Unauthorized\r\n")
    assert listening.received[0].body == b""


@pytest.mark.asyncio
async def test_a_request_line_with_a_double_space_is_refused(listening: LocalReceiver) -> None:
    assert listening.port is not None
    answer = await _send(listening.port, b"POST  /hooks HTTP/1.1\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400 Bad Request\r\n")
    assert listening.received == []


@pytest.mark.asyncio
async def test_a_silent_client_is_let_go_after_the_read_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(local_receiver, "READ_TIMEOUT_S", 0.2)
    receiver = LocalReceiver(lambda request: None)
    await receiver.start(0, SECRET)
    try:
        assert receiver.port is not None
        reader, writer = await asyncio.open_connection("127.0.0.1", receiver.port)
        assert await asyncio.wait_for(reader.read(), 5) == b""  # closed without an answer
        writer.close()
        await writer.wait_closed()
    finally:
        await receiver.stop()


@pytest.mark.asyncio
async def test_the_receiver_listens_on_the_port_asked_for() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    receiver = LocalReceiver(lambda request: None)
    await receiver.start(port, SECRET)
    try:
        assert receiver.port == port
        assert receiver.url == f"http://127.0.0.1:{port}/webhooks"
    finally:
        await receiver.stop()


@pytest.mark.asyncio
async def test_what_was_received_is_recorded_and_answered_in_full(
    listening: LocalReceiver,
) -> None:
    assert listening.port is not None
    body = b'{"a":1}'
    raw = (
        f"PUT /in/here HTTP/1.1\r\nX-Webhook-Signature: {sign(body, SECRET)}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    before = time.time()
    answer = await _send(listening.port, raw)
    assert answer == (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n"
        b"Connection: close\r\n\r\nok"
    )
    (request,) = listening.received
    assert before <= request.at <= time.time()
    assert (request.method, request.path, request.body, request.answered) == (
        "PUT",
        "/in/here",
        body,
        200,
    )
    unsigned = await _send(listening.port, b"POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}")
    assert unsigned == (
        b"HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\nContent-Length: 22\r\n"
        b"Connection: close\r\n\r\nsignature not verified"
    )
    assert listening.received[-1].answered == 401


@pytest.mark.asyncio
async def test_bodies_up_to_the_limit_are_read_and_larger_or_negative_ones_refused(
    listening: LocalReceiver,
) -> None:
    assert listening.port is not None
    limit = local_receiver.MAX_BODY
    head = f"POST / HTTP/1.1\r\nContent-Length: {limit}\r\n\r\n".encode()
    assert (await _send(listening.port, head + b"x" * limit)).startswith(b"HTTP/1.1 401 ")
    assert len(listening.received[-1].body) == limit
    refused = (
        b"HTTP/1.1 413 Payload Too Large\r\nContent-Type: text/plain\r\nContent-Length: 14\r\n"
        b"Connection: close\r\n\r\nbody too large"
    )
    for length in (limit + 1, -1):
        raw = f"POST / HTTP/1.1\r\nContent-Length: {length}\r\n\r\n".encode()
        assert await _send(listening.port, raw) == refused
    assert len(listening.received) == 1
    bad = await _send(listening.port, b"GET\r\n\r\n")
    assert bad == (
        b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 16\r\n"
        b"Connection: close\r\n\r\nbad request line"
    )
