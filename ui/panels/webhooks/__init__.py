"""Webhook health, delivery logs with replay, and the signature checker."""

from ui.panels.webhooks.page import WebhooksPage

__all__ = ["WebhooksPage"]
