"""The Qt-free webhook helpers: endpoint checks, signature checker, timeline, local replay."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
from datetime import UTC, datetime, timedelta

import pytest

from app.models.webhooks import DeliveryLog
from app.webhooks.endpoint import endpoint_problem
from app.webhooks.local_replay import replay_to_url
from app.webhooks.signature_check import check_signature
from app.webhooks.timeline import HOURS, build_timeline
from tests.webhooks.receiver import receiver


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        ("", "Enter"),
        ("ftp://example.com/h", "http"),
        ("https://exa mple.com/h", "spaces"),
        ("https://", "host"),
        ("http://localhost:8000/h", "public"),
        ("http://127.0.0.1/h", "public"),
        ("http://127.1/h", "public"),
        ("http://10.1.2.3/h", "public"),
        ("http://[::1]/h", "public"),
        ("http://[::ffff:192.168.1.1]/h", "public"),
        ("http://169.254.1.1/h", "public"),
        ("https://example.com:99999/h", "valid"),
        ("https://example.com/" + "a" * 236, "255"),
    ],
)
def test_endpoint_problems_are_explained(url: str, fragment: str) -> None:
    problem = endpoint_problem(url)
    assert problem is not None
    assert fragment in problem


@pytest.mark.parametrize(
    "url", ["https://example.com/hooks", "http://93.184.216.34/h", "https://a.b/" + "x" * 243]
)
def test_public_endpoints_pass(url: str) -> None:
    assert endpoint_problem(url) is None


def test_signature_checker_verifies_and_explains() -> None:
    body = '{"id":"1","type":"post.created","data":{},"created_at":"2026-01-01T00:00:00+00:00"}'
    secret = "whsec_" + "a" * 32
    good = hmac.new(secret.encode(), body.encode(), hashlib.sha256).hexdigest()
    assert check_signature(body, good, secret).ok
    assert check_signature(body, f"  {good}\n", secret).ok
    assert not check_signature(body + "\n", good, secret).ok
    assert "prefix" in check_signature(body, "sha256=" + good, secret).text
    assert "lowercase" in check_signature(body, good.upper(), secret).text
    assert "64" in check_signature(body, good[:10], secret).text
    assert "secret" in check_signature(body, good, " ").text
    assert not check_signature(body, good, secret + "x").ok


def _log(created: datetime, *, ok: bool | None, attempts: int = 1, ms: int = 120) -> DeliveryLog:
    settled = (created + timedelta(milliseconds=ms)).isoformat()
    return DeliveryLog.model_validate(
        {
            "id": "00000000-0000-4000-8000-000000000000",
            "event_type": "post.published",
            "created_at": created.isoformat(),
            "delivered_at": settled if ok else None,
            "failed_at": settled if ok is False else None,
            "attempts": attempts,
        }
    )


def test_timeline_buckets_per_hour_with_outcomes_and_response_time() -> None:
    now = datetime(2026, 3, 10, 12, 30, tzinfo=UTC)
    logs = [
        _log(now - timedelta(minutes=5), ok=True, ms=100),
        _log(now - timedelta(minutes=10), ok=True, ms=300),
        _log(now - timedelta(minutes=20), ok=False, ms=50),
        _log(now - timedelta(hours=2), ok=None),
        _log(now - timedelta(hours=3), ok=True, attempts=3, ms=120_000),
        _log(now - timedelta(days=8), ok=True),
    ]
    timeline = build_timeline(logs, now=now)
    assert len(timeline.buckets) == HOURS
    last = timeline.buckets[-1]
    assert last.start == datetime(2026, 3, 10, 12, tzinfo=UTC)
    assert (last.delivered, last.failed, last.queued) == (2, 1, 0)
    assert last.median_ms == pytest.approx(100)
    assert timeline.buckets[-3].queued == 1
    assert timeline.buckets[-4].outcome_ms == []  # retried deliveries say nothing of speed
    assert timeline.older_skipped == 1
    assert timeline.success_rate == pytest.approx(3 / 4)


def test_timeline_reads_times_without_offset_as_utc() -> None:
    now = datetime(2026, 3, 10, 12, 30, tzinfo=UTC)
    log = DeliveryLog.model_validate(
        {"id": "x", "created_at": "2026-03-10T12:00:00", "delivered_at": "2026-03-10T12:00:01"}
    )
    timeline = build_timeline([log], now=now)
    assert timeline.buckets[-1].delivered == 1


def test_replay_to_local_url_signs_the_exact_bytes_it_sends() -> None:
    secret = "whsec_" + "k" * 32
    envelope = {"id": "e1", "type": "post.failed", "data": {"id": "p", "content": "é"}}
    with receiver(status=200, answer=b"thanks") as target:
        result = asyncio.run(replay_to_url(target.url, envelope, secret))
    assert result.ok
    assert result.status == 200
    assert result.body == "thanks"
    (got,) = target.got
    expected = hmac.new(secret.encode(), got.body, hashlib.sha256).hexdigest()
    assert got.headers["X-Webhook-Signature"] == expected == result.signature
    assert json.loads(got.body) == envelope


def test_replay_to_local_url_reports_failures_in_words() -> None:
    with receiver(status=302, answer=b"") as target:
        redirect = asyncio.run(replay_to_url(target.url, {"id": "e"}, "s"))
    assert not redirect.ok
    assert "redirect" in redirect.message
    with receiver(status=500, answer=b"boom" * 1000) as target:
        failed = asyncio.run(replay_to_url(target.url, {"id": "e"}, "s"))
    assert failed.status == 500
    assert len(failed.body) == 2000
    assert "retry" in failed.message
    bad = asyncio.run(replay_to_url("localhost:8000", {"id": "e"}, "s"))
    assert bad.status is None
    assert "http://" in bad.message
    with receiver() as target:
        closed_url = target.url
    refused = asyncio.run(replay_to_url(closed_url, {"id": "e"}, "s"))
    assert not refused.ok
    assert "Could not reach" in refused.message


def test_a_delivery_says_what_it_tells() -> None:
    """Issue 17 §6: a 3xx is a failure, a queued row is "queued", the attempts as a timeline."""
    from ui.panels.webhooks.log_detail import attempts_timeline, status_text

    assert "counts as a failure" in status_text(301, "failed")
    assert status_text(None, "queued").startswith("queued")
    assert status_text(None, "failed").startswith("no answer")
    failed = DeliveryLog.model_validate(
        {
            "id": "l",
            "attempts": 3,
            "created_at": "2026-01-01T00:00:00+00:00",
            "failed_at": "2026-01-01T00:02:00+00:00",
        }
    )
    line = attempts_timeline(failed, "failed")
    assert "2 failed attempts" in line
    assert "given up after 3 attempts" in line


def test_whole_second_timestamps_give_no_response_time() -> None:
    """Issue 17 §6: created 12:00:00, delivered 12:00:01 says nothing about 1,000 ms."""
    now = datetime(2026, 1, 2, 12, 30, tzinfo=UTC)
    whole = DeliveryLog.model_validate(
        {
            "id": "w",
            "attempts": 1,
            "created_at": "2026-01-02T12:00:00+00:00",
            "delivered_at": "2026-01-02T12:00:01+00:00",
        }
    )
    measured = whole.model_copy(
        update={"id": "m", "delivered_at": datetime(2026, 1, 2, 12, 0, 0, 250_000, tzinfo=UTC)}
    )
    assert build_timeline([whole], now).peak_ms == 0.0
    assert build_timeline([measured], now).peak_ms == 250.0
