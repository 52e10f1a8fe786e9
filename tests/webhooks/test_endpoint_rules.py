"""Issue 17 §6: endpoint rules. A workspace whose server is local or private decides about
private receivers itself; the sandbox resolves names at delivery and refuses private ones."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest

from app.sandbox import webhook_rules
from app.webhooks.endpoint import endpoint_problem, is_public_url, server_may_accept_private


def test_a_local_server_lets_private_receivers_through() -> None:
    assert endpoint_problem("http://127.0.0.1:8901/h") is not None
    assert endpoint_problem("http://localhost:8901/h", allow_private=True) is None
    assert endpoint_problem("http://127.0.0.1:8901/h", allow_private=True) is None
    assert endpoint_problem("ftp://127.0.0.1/h", allow_private=True) is not None
    assert server_may_accept_private("http://127.0.0.1:8765/api")
    assert server_may_accept_private("http://192.168.1.20/api")
    assert not server_may_accept_private("https://api.example.com/api")


def test_replay_to_local_url_knows_what_is_local() -> None:
    assert not is_public_url("http://localhost:8000/h")
    assert not is_public_url("http://10.0.0.5/h")
    assert is_public_url("https://example.com/h")


def test_the_sandbox_refuses_a_name_that_resolves_to_a_private_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = socket.getaddrinfo

    def resolve(host: str, *args: Any, **kwargs: Any) -> Any:
        if host == "vm":  # a name of this machine's network, as /etc/hosts would give it
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", 0))]
        if host == "public.example":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", 0))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolve)

    def problem(url: str, allow: bool = False) -> str | None:
        return asyncio.run(webhook_rules.delivery_problem(url, allow_private=allow))

    assert webhook_rules.endpoint_problem("http://vm:8901/h", allow_private=False) is None
    assert problem("http://vm:8901/h") == "private"
    assert problem("http://vm:8901/h", allow=True) is None
    assert problem("http://public.example/h") is None
    assert problem("http://127.0.0.1/h") == "private"
