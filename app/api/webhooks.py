"""Outgoing webhooks: CRUD, secret rotation, test ping, delivery logs and replay.

Only `create`, `get` and `rotate_secret` answers carry `signing_secret`; it is excluded from the
model's repr, and must never be logged.
"""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator

from pydantic import TypeAdapter

from app.api import routes
from app.api.resource import Resource
from app.models.pagination import Page
from app.models.requests import WebhookInput, WebhookUpdate
from app.models.webhooks import TestPingResult, Webhook
from app.webhooks.raw_log import RawDeliveryLog

_WEBHOOK = TypeAdapter(Webhook)
_WEBHOOKS = TypeAdapter(list[Webhook])
_LOG_PAGE = TypeAdapter(Page[RawDeliveryLog])  # payloads kept as sent (issue 17 §4)
_PING = TypeAdapter(TestPingResult)


class WebhooksApi(Resource):
    async def list(self) -> builtins.list[Webhook]:
        """Newest first, without signing secrets."""
        return await self._call(_WEBHOOKS, "GET", routes.WEBHOOKS)

    async def get(self, webhook_id: str) -> Webhook:
        """Includes the signing secret."""
        return await self._call(_WEBHOOK, "GET", routes.webhook(webhook_id))

    async def create(self, webhook: WebhookInput) -> Webhook:
        """Created `enabled`; the answer includes the signing secret."""
        return await self._call(_WEBHOOK, "POST", routes.WEBHOOKS, body=self._wire(webhook))

    async def update(self, webhook_id: str, update: WebhookUpdate) -> Webhook:
        """Only the fields set are sent; the answer omits the secret."""
        return await self._call(
            _WEBHOOK, "PUT", routes.webhook(webhook_id), body=self._wire(update)
        )

    async def delete(self, webhook_id: str) -> None:
        await self._send("DELETE", routes.webhook(webhook_id))

    async def rotate_secret(self, webhook_id: str) -> Webhook:
        """The previous secret stops working at once; the answer carries the new one."""
        return await self._call(_WEBHOOK, "POST", routes.webhook_rotate_secret(webhook_id))

    async def send_test(self, webhook_id: str) -> TestPingResult:
        """A synchronous signed `webhook.test` ping (runs even when paused or disabled)."""
        return await self._call(_PING, "POST", routes.webhook_test(webhook_id))

    async def logs_page(self, webhook_id: str, page: int = 1) -> Page[RawDeliveryLog]:
        """15 per page, newest first."""
        return await self._page(_LOG_PAGE, routes.webhook_logs(webhook_id), page)

    def iter_logs(self, webhook_id: str) -> AsyncIterator[RawDeliveryLog]:
        return self._pages(_LOG_PAGE, routes.webhook_logs(webhook_id)).iter_items()

    async def replay(self, webhook_id: str, log_id: str) -> bool:
        """Queue a new signed delivery of the logged event. True once queued, which does not
        mean the receiver answered: watch the logs for the new row."""
        data = await self._send("POST", routes.webhook_log_replay(webhook_id, log_id))
        return isinstance(data, dict) and data.get("replayed") is True
