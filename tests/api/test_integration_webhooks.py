"""Webhooks against the sandbox: CRUD, secrets, test pings to a local receiver, logs, replay."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from app.api import errors as e
from app.api.webhook_signing import SIGNATURE_HEADER, verify
from app.models.requests import WebhookInput, WebhookUpdate
from app.sandbox.harness import SandboxServer
from tests.api.helpers import sandbox_client

PUBLIC_ENDPOINT = "https://hooks.example.com/postdesk"
EVENTS = ["post.created", "post.published"]


@dataclass
class Receiver:
    """A webhook receiver on 127.0.0.1 that records what it gets and answers `status`."""

    url: str = ""
    status: int = 204
    received: list[tuple[bytes, str | None]] = field(default_factory=list)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            state.received.append((body, self.headers.get(SIGNATURE_HEADER)))
            self.send_response(state.status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.mark.asyncio
async def test_webhook_lifecycle_and_where_the_secret_appears(sandbox: SandboxServer) -> None:
    async with sandbox_client(sandbox) as client:
        created = await client.webhooks.create(
            WebhookInput(endpoint=PUBLIC_ENDPOINT, events=EVENTS)
        )
        listed = await client.webhooks.list()
        fetched = await client.webhooks.get(created.id)
        disabled = await client.webhooks.update(created.id, WebhookUpdate(status="disabled"))
        rotated = await client.webhooks.rotate_secret(created.id)
        after_rotate = await client.webhooks.get(created.id)
        await client.webhooks.delete(created.id)
        with pytest.raises(e.NotFound):
            await client.webhooks.get(created.id)
    assert created.status == "enabled"
    assert created.events == EVENTS
    assert created.signing_secret is not None
    assert created.signing_secret.startswith("whsec_")
    assert len(created.signing_secret) == len("whsec_") + 32
    assert created.signing_secret not in repr(created)
    assert [hook.id for hook in listed] == [created.id]
    assert listed[0].signing_secret is None
    assert fetched.signing_secret == created.signing_secret
    assert disabled.status == "disabled"
    assert disabled.signing_secret is None
    assert rotated.signing_secret not in (None, created.signing_secret)
    assert after_rotate.signing_secret == rotated.signing_secret
    assert created.created_at is not None
    assert created.created_at.utcoffset() is not None


@pytest.mark.asyncio
async def test_invalid_webhooks_are_refused_by_field(sandbox: SandboxServer) -> None:
    async with sandbox_client(sandbox) as client:
        with pytest.raises(e.ValidationFailed) as private:
            await client.webhooks.create(
                WebhookInput(endpoint="http://127.0.0.1/hook", events=EVENTS)
            )
        with pytest.raises(e.ValidationFailed) as wildcard:
            await client.webhooks.create(WebhookInput(endpoint=PUBLIC_ENDPOINT, events=["*"]))
        hook = await client.webhooks.create(WebhookInput(endpoint=PUBLIC_ENDPOINT, events=EVENTS))
        # Built without client-side validation: a user cannot set `paused`.
        not_allowed = WebhookUpdate.model_construct(status="paused")  # type: ignore[arg-type]
        with pytest.raises(e.ValidationFailed) as paused:
            await client.webhooks.update(hook.id, not_allowed)
    assert list(private.value.errors) == ["endpoint"]
    assert list(wildcard.value.errors) == ["events.0"]
    assert list(paused.value.errors) == ["status"]


@pytest.mark.asyncio
async def test_re_enabling_a_paused_webhook_clears_the_pause(sandbox: SandboxServer) -> None:
    hook_id = sandbox.store.create_webhook(PUBLIC_ENDPOINT, EVENTS)
    sandbox.store.set_webhook_paused(hook_id)
    async with sandbox_client(sandbox) as client:
        paused = await client.webhooks.get(hook_id)
        enabled = await client.webhooks.update(hook_id, WebhookUpdate(status="enabled"))
    assert (paused.status, paused.consecutive_failures) == ("paused", 5)
    assert paused.paused_at is not None
    assert (enabled.status, enabled.consecutive_failures, enabled.paused_at) == ("enabled", 0, None)


@pytest.mark.asyncio
async def test_another_workspaces_webhook_is_not_found(sandbox: SandboxServer) -> None:
    foreign = sandbox.store.create_webhook(
        PUBLIC_ENDPOINT, EVENTS, workspace_id=sandbox.other_workspace_id
    )
    async with sandbox_client(sandbox) as client:
        with pytest.raises(e.NotFound):
            await client.webhooks.get(foreign)
        with pytest.raises(e.NotFound):
            await client.webhooks.rotate_secret(foreign)
        with pytest.raises(e.NotFound):
            await client.webhooks.logs_page(foreign)


@pytest.mark.asyncio
async def test_a_test_ping_is_signed_with_the_current_secret(
    private_sandbox: SandboxServer, receiver: Receiver
) -> None:
    async with sandbox_client(private_sandbox) as client:
        hook = await client.webhooks.create(WebhookInput(endpoint=receiver.url, events=EVENTS))
        ok = await client.webhooks.send_test(hook.id)
        rotated = await client.webhooks.rotate_secret(hook.id)
        receiver.status = 500
        failed = await client.webhooks.send_test(hook.id)
    assert (ok.success, ok.status) == (True, 204)
    assert (failed.success, failed.status) == (False, 500)
    assert failed.message
    assert hook.signing_secret is not None
    assert rotated.signing_secret is not None
    (first_body, first_sig), (second_body, second_sig) = receiver.received
    assert b'"webhook.test"' in first_body
    assert verify(first_body, first_sig, hook.signing_secret)
    assert verify(second_body, second_sig, rotated.signing_secret)
    assert not verify(second_body, second_sig, hook.signing_secret)
    assert private_sandbox.store.webhook_logs(hook.id) == []


@pytest.mark.asyncio
async def test_logs_are_paged_newest_first_and_can_be_replayed(sandbox: SandboxServer) -> None:
    hook_id = sandbox.store.create_webhook(PUBLIC_ENDPOINT, EVENTS)
    for n in range(18):
        sandbox.store.add_webhook_log(
            hook_id, outcome="failed" if n % 3 == 0 else "delivered", data={"id": f"post-{n}"}
        )
    async with sandbox_client(sandbox) as client:
        first = await client.webhooks.logs_page(hook_id, 1)
        every = [log async for log in client.webhooks.iter_logs(hook_id)]
        failed = next(log for log in every if not log.succeeded)
        replayed = await client.webhooks.replay(hook_id, failed.id)
        with pytest.raises(e.NotFound):
            await client.webhooks.replay(hook_id, "00000000-0000-4000-8000-000000000000")
        after = await client.webhooks.logs_page(hook_id, 1)
    assert (len(first.data), first.meta.per_page, first.meta.total) == (15, 15, 18)
    assert first.meta.links is None
    assert len(every) == 18
    created = [log.created_at for log in every]
    assert all(c is not None for c in created)
    assert created == sorted(created, reverse=True)  # type: ignore[type-var]
    assert failed.response_status == 500
    assert failed.payload is not None
    assert replayed is True
    assert after.meta.total == 19
    assert len(sandbox.store.webhook_logs(hook_id)) == 19
