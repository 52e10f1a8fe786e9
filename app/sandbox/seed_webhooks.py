"""The demo workspace's webhooks and their past deliveries.

Every endpoint is a built-in receiver (`demo_receivers.py`), so the webhooks keep working while
the demo runs: a healthy one, a flaky one, one failing that is one failed delivery away from
being paused, one already paused, and a disabled one. The history is derived the way the
engine would have made it, so it is consistent: attempts 60 s apart, `failed_at` on deliveries
that needed a retry, `last_sent_at` = the newest `delivered_at`, `consecutive_failures` = the
failed deliveries since then, `paused_at` = when the fifth of those failed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from app.sandbox import webhooks_repo
from app.sandbox.clock import db_to_iso, to_db
from app.sandbox.db import Db
from app.sandbox.deliveries import PAUSE_AFTER_FAILURES
from app.sandbox.demo_receivers import DEMO_RECEIVER_HOST
from app.sandbox.webhook_rules import EVENT_NAMES

_RETRY = timedelta(seconds=60)
_ANSWER = timedelta(seconds=1)


@dataclass(frozen=True)
class _Outcome:
    delivered: bool
    attempts: int
    status: int | None
    body: str | None


_OK = _Outcome(True, 1, 200, '{"received":true}')
_OK_204 = _Outcome(True, 1, 204, "")
_SECOND_TRY = _Outcome(True, 2, 200, '{"received":true}')
_THIRD_TRY = _Outcome(True, 3, 200, '{"received":true}')
_ERROR_500 = _Outcome(False, 3, 500, '{"error":"Internal Server Error"}')
_ERROR_502 = _Outcome(False, 3, 502, "<html><body><h1>502 Bad Gateway</h1></body></html>")
_TIMEOUT = _Outcome(False, 3, None, None)


def endpoint(kind: str, name: str) -> str:
    return f"https://{DEMO_RECEIVER_HOST}/{kind}/{name}"


class _History:
    def __init__(self, db: Db, rng: random.Random, workspace: str, samples: list[Any]) -> None:
        self.db = db
        self.rng = rng
        self.workspace = workspace
        self.samples = samples
        self.now = db.clock()

    def webhook(self, url: str, events: list[str], age: timedelta) -> str:
        hook = webhooks_repo.create_webhook(self.db, self.workspace, url, events, "enabled")
        when = to_db(self.now - age)
        self.db.update("webhooks", hook, {"created_at": when, "updated_at": when})
        return hook

    def log(self, hook: str, event: str, when: datetime, outcome: _Outcome) -> None:
        data = self.rng.choice(self.samples)
        if event == "post.deleted":
            data = {"id": data.get("id"), "workspace_id": self.workspace}
        last_attempt = when + _RETRY * (outcome.attempts - 1)
        finished = to_db(last_attempt + _ANSWER)
        failed_at = None
        if outcome.delivered and outcome.attempts > 1:
            failed_at = to_db(last_attempt - _RETRY + _ANSWER)
        log_id = webhooks_repo.insert_log(
            self.db,
            hook,
            event,
            data,
            state="delivered" if outcome.delivered else "failed",
            response_status=outcome.status,
            response_body=outcome.body,
            attempts=outcome.attempts,
            created_at=to_db(when),
            finished_at=finished,
            failed_at=failed_at,
        )
        # The stored envelope is the last attempt's, which carries that attempt's time.
        self.db.run(
            "UPDATE webhook_logs SET payload = json_set(payload, '$.created_at', ?) WHERE id = ?",
            (db_to_iso(to_db(last_attempt)), log_id),
        )

    def settle(self, hook: str, *, pause: bool) -> None:
        """Counters from the history, as the engine leaves them."""
        rows = self.db.all(
            "SELECT state, delivered_at, failed_at FROM webhook_logs WHERE webhook_id = ? "
            "ORDER BY created_at, rowid",
            (hook,),
        )
        last_sent = None
        failures = 0
        paused_at = None
        for row in rows:
            if row["state"] == "delivered":
                last_sent, failures = row["delivered_at"], 0
            else:
                failures += 1
                if failures == PAUSE_AFTER_FAILURES:
                    paused_at = row["failed_at"]
        changes: dict[str, Any] = {"last_sent_at": last_sent, "consecutive_failures": failures}
        if pause:
            assert paused_at is not None, "a paused webhook needs five failures in a row"
            changes.update({"status": "paused", "paused_at": paused_at, "updated_at": paused_at})
        else:
            assert failures < PAUSE_AFTER_FAILURES
        self.db.update("webhooks", hook, changes)


def seed_demo_webhooks(
    db: Db, rng: random.Random, workspace: str, payload_of: Callable[[str], Any], posts: list[str]
) -> None:
    history = _History(db, rng, workspace, [payload_of(p) for p in posts[:12]] or [{}])
    now = history.now
    some_events = ["post.created", "post.scheduled", "post.published"]

    disabled = history.webhook(
        endpoint("ok", "old-automation"), ["post.created"], timedelta(days=60)
    )
    for days in (6, 5, 5):
        when = now - timedelta(days=days, hours=rng.randint(0, 20))
        history.log(disabled, "post.created", when, _OK)
    history.settle(disabled, pause=False)
    db.update("webhooks", disabled, {"status": "disabled"})

    paused = history.webhook(
        endpoint("failing", "crm"), ["post.published", "post.failed"], timedelta(days=30)
    )
    for i in range(14):
        outcome = rng.choice([_OK, _OK, _SECOND_TRY])
        history.log(
            paused, rng.choice(["post.published", "post.failed"]), _ago(now, 6, i * 9), outcome
        )
    for i, outcome in enumerate([_ERROR_500, _TIMEOUT, _ERROR_502, _TIMEOUT, _ERROR_500]):
        history.log(paused, "post.published", now - timedelta(hours=14 - 3 * i), outcome)
    history.settle(paused, pause=True)

    failing = history.webhook(
        endpoint("failing", "legacy-erp"), list(EVENT_NAMES), timedelta(days=9)
    )
    for i in range(6):
        history.log(failing, rng.choice(some_events), _ago(now, 5, i * 11), _OK)
    # One failed delivery away from the pause: the demo shows it being paused.
    for i, outcome in enumerate([_ERROR_500, _ERROR_500, _TIMEOUT, _ERROR_500]):
        history.log(failing, rng.choice(some_events), now - timedelta(hours=8 - 2 * i), outcome)
    history.settle(failing, pause=False)

    flaky = history.webhook(
        endpoint("flaky", "analytics"),
        ["post.created", "post.published", "post.partially_published", "post.failed"],
        timedelta(days=12),
    )
    for i in range(24):
        outcome = rng.choice([_OK, _SECOND_TRY, _OK, _SECOND_TRY, _THIRD_TRY])
        history.log(flaky, rng.choice(some_events), now - timedelta(hours=i * 6.5 + 1), outcome)
    history.settle(flaky, pause=False)

    healthy = history.webhook(
        endpoint("ok", "northwind-crm"), list(EVENT_NAMES), timedelta(days=10)
    )
    trailing_failures = 0
    for i in reversed(range(40)):
        outcome = rng.choice([_OK] * 12 + [_OK_204, _SECOND_TRY, _ERROR_500, _TIMEOUT])
        if not outcome.delivered and (trailing_failures >= 2 or i == 0):
            outcome = _OK  # healthy: never more than two failures in a row, newest delivered
        trailing_failures = 0 if outcome.delivered else trailing_failures + 1
        when = now - timedelta(hours=i * 3.5 + rng.random() + 0.2)
        history.log(healthy, rng.choice(EVENT_NAMES), when, outcome)
    history.settle(healthy, pause=False)


def _ago(now: datetime, days: int, plus_hours: float) -> datetime:
    return now - timedelta(days=days) + timedelta(hours=plus_hours)


def seed_other_webhook(db: Db, workspace: str, post_id: str) -> None:
    history = _History(db, random.Random(0), workspace, [{"id": post_id}])
    hook = webhooks_repo.create_webhook(
        db, workspace, endpoint("ok", "harbor-bikes"), ["post.published"]
    )
    history.log(hook, "post.published", history.now - timedelta(hours=3), _OK)
    history.settle(hook, pause=False)
