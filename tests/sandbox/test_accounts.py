"""Social accounts: list, toggle, boards and channels."""

from __future__ import annotations

import httpx

from app.sandbox.harness import SandboxServer


def test_list_is_a_plain_array_ordered_by_platform(api: httpx.Client) -> None:
    accounts = api.get("/social-accounts").json()
    assert isinstance(accounts, list)
    platforms = [a["platform"] for a in accounts]
    assert platforms == sorted(platforms)
    assert set(platforms) >= {
        "x", "linkedin", "instagram-facebook", "instagram", "pinterest", "tiktok", "discord",
    }  # fmt: skip
    for account in accounts:
        assert set(account) == {"id", "platform", "display_name", "username", "is_active", "status"}
        assert account["status"] in ("connected", "disconnected", "token_expired")


def test_toggle_flips_is_active(api: httpx.Client, sandbox: SandboxServer) -> None:
    account_id = sandbox.store.account_id("x")
    first = api.put(f"/social-accounts/{account_id}/toggle")
    assert first.status_code == 200
    assert first.json()["id"] == account_id
    assert first.json()["is_active"] is False
    listed = {a["id"]: a for a in api.get("/social-accounts").json()}
    assert listed[account_id]["is_active"] is False
    assert api.put(f"/social-accounts/{account_id}/toggle").json()["is_active"] is True


def test_pinterest_boards_and_discord_channels(api: httpx.Client, sandbox: SandboxServer) -> None:
    boards = api.get(f"/social-accounts/{sandbox.store.account_id('pinterest')}/boards")
    assert boards.status_code == 200
    assert boards.json()[0] == {"id": "918273645501", "name": "Latte Art"}
    channels = api.get(f"/social-accounts/{sandbox.store.account_id('discord')}/channels").json()
    assert {c["name"] for c in channels} >= {"announcements"}
    assert all(set(c) == {"id", "name"} for c in channels)


def test_lookups_refuse_other_platforms(api: httpx.Client, sandbox: SandboxServer) -> None:
    x = sandbox.store.account_id("x")
    for path in (f"/social-accounts/{x}/boards", f"/social-accounts/{x}/channels"):
        response = api.get(path)
        assert response.status_code == 422
        assert set(response.json()) == {"message"}
    missing = api.get("/social-accounts/00000000-0000-4000-8000-000000000000/boards")
    assert missing.status_code == 404
