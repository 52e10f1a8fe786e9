"""The store's scenario helpers, which other suites use to arrange cases."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from app.sandbox.harness import SandboxServer
from app.sandbox.store import SandboxStore


@pytest.mark.parametrize(
    ("steps", "events"),
    [
        (["scheduled", "draft"], ["post.scheduled", "post.unscheduled"]),
        (["publishing", "published"], ["post.published"]),
        (["publishing", "partially_published"], ["post.partially_published"]),
        (["publishing", "failed", "draft"], ["post.failed"]),
    ],
)
def test_set_post_status_records_transition_events(
    sandbox: SandboxServer, steps: list[str], events: list[str]
) -> None:
    store = sandbox.store
    [post] = store.insert_posts(1)
    for status in steps:
        store.set_post_status(post, status)
    assert [e.event_type for e in store.events(post_id=post)] == events
    snapshot = store.post(post)
    assert snapshot is not None
    assert snapshot["status"] == steps[-1]


def test_set_post_status_shapes_platform_entries(sandbox: SandboxServer) -> None:
    store = sandbox.store
    [post] = store.insert_posts(1)
    with store.tx() as db:  # give the post a second platform
        account = db.one("SELECT * FROM social_accounts WHERE platform = 'linkedin'")
        assert account is not None
        db.insert(
            "post_platforms",
            {"id": "pp-2", "post_id": post, "social_account_id": account["id"],
             "platform": "linkedin", "content_type": "linkedin_post", "meta": "{}",
             "position": 1},
        )  # fmt: skip
    store.set_post_status(post, "partially_published")
    snapshot = store.post(post)
    assert snapshot is not None
    assert [p["status"] for p in snapshot["platforms"]] == ["published", "failed"]
    assert snapshot["platforms"][0]["platform_url"]
    assert snapshot["platforms"][1]["error_message"]
    payload = store.events(post_id=post)[-1].payload
    failed = payload["platforms"][1]
    assert failed["error_message"] == snapshot["platforms"][1]["error_message"]
    assert "error_context" in failed
    assert "error_message" not in payload["platforms"][0]


def test_insert_posts_spacing(sandbox: SandboxServer) -> None:
    start = datetime(2031, 1, 1, tzinfo=UTC)
    ids = sandbox.store.insert_posts(
        3, status="scheduled", scheduled_at=start, spacing=timedelta(days=1)
    )
    times = [sandbox.store.post(i)["scheduled_at"] for i in ids]  # type: ignore[index]
    assert times == ["2031-01-01 00:00:00", "2031-01-02 00:00:00", "2031-01-03 00:00:00"]
    assert sandbox.store.events() == []


def test_webhook_helpers(sandbox: SandboxServer) -> None:
    store = sandbox.store
    hook = store.create_webhook("https://h.example.com/x", ["post.created"])
    store.add_webhook_log(hook, outcome="timeout")
    store.add_webhook_log(hook, outcome="queued")
    logs = store.webhook_logs(hook)
    assert [log["attempts"] for log in logs] == [0, 1]
    assert logs[1]["response_status"] is None
    assert logs[1]["failed_at"] is not None
    store.set_webhook_paused(hook, failures=7)
    webhook = store.webhook(hook)
    assert webhook is not None
    assert (webhook["status"], webhook["consecutive_failures"]) == ("paused", 7)


def test_store_is_shared_safely_between_threads(sandbox: SandboxServer) -> None:
    """Readers in this thread while the server thread writes through HTTP."""
    account = sandbox.store.account_id("x")
    errors: list[BaseException] = []
    counts: list[int] = []
    stop = threading.Event()

    def read() -> None:
        try:
            while not stop.is_set():
                counts.append(sandbox.store.post_count())
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        with httpx.Client(
            base_url=sandbox.base_url,
            headers={"Authorization": f"Bearer {sandbox.keys.admin}"},
            trust_env=False,
        ) as client:
            for n in range(20):
                response = client.post(
                    "/posts/batch",
                    json={"content": f"p{n}", "destinations": [{"social_account_id": account}]},
                )
                assert response.status_code == 201
                sandbox.store.insert_posts(1)
    finally:
        stop.set()
        reader.join()
    assert errors == []
    assert counts == sorted(counts)
    assert sandbox.store.post_count() == 40


def test_failed_transactions_roll_back(tmp_path: Path) -> None:
    store = SandboxStore(tmp_path / "s.db")
    try:

        def write_then_fail() -> None:
            with store.tx() as db:
                db.run("INSERT INTO sandbox_meta (key, value) VALUES ('a', 'b')")
                raise RuntimeError("boom")

        with pytest.raises(RuntimeError):
            write_then_fail()
        assert store.get_meta("a") is None
        with pytest.raises(LookupError):
            _ = store.primary_workspace_id
    finally:
        store.close()
