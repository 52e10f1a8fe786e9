"""§5/§7 authentication and workspace isolation."""

from __future__ import annotations

import httpx
import pytest

from app.sandbox.harness import SandboxServer

from .conftest import client_for


def _get(server: SandboxServer, headers: dict[str, str], path: str = "/posts") -> httpx.Response:
    with httpx.Client(base_url=server.base_url, trust_env=False) as client:
        return client.get(path, headers=headers)


@pytest.mark.parametrize(
    ("headers", "status", "message"),
    [
        ({}, 401, "Unauthenticated."),
        ({"Authorization": "Bearer nonsense"}, 401, "Unauthenticated."),
        ({"Authorization": "Basic dXNlcjpwdw=="}, 401, "Unauthenticated."),
        ({"Authorization": "Bearer"}, 401, "Unauthenticated."),
    ],
)
def test_missing_or_unknown_key(
    sandbox: SandboxServer, headers: dict[str, str], status: int, message: str
) -> None:
    response = _get(sandbox, headers)
    assert response.status_code == status
    assert response.json() == {"message": message}


@pytest.mark.parametrize(
    ("key", "status", "message"),
    [
        ("expired", 401, "Token expired."),
        ("member", 403, "Insufficient workspace permissions."),
        ("unbound", 401, "No workspace selected."),
        ("left", 403, "Workspace access denied."),
    ],
)
def test_key_variants(sandbox: SandboxServer, key: str, status: int, message: str) -> None:
    for path in ("/posts", "/webhooks", "/labels", "/social-accounts"):
        response = _get(sandbox, {"Authorization": f"Bearer {getattr(sandbox.keys, key)}"}, path)
        assert response.status_code == status, path
        assert response.json() == {"message": message}


def test_admin_and_other_admin_see_their_own_workspace(sandbox: SandboxServer) -> None:
    with client_for(sandbox) as mine, client_for(sandbox, sandbox.keys.other_admin) as theirs:
        own = {a["username"] for a in mine.get("/social-accounts").json()}
        other = {a["username"] for a in theirs.get("/social-accounts").json()}
    assert "northwind.coffee" in own
    assert other == {"harborbikes", "harbor.bikes"}


def test_keys_never_show_in_repr(sandbox: SandboxServer) -> None:
    assert sandbox.keys.admin not in repr(sandbox.keys)
    assert sandbox.keys.member not in repr(sandbox.keys)


def test_another_workspaces_ids_are_missing(sandbox: SandboxServer) -> None:
    with client_for(sandbox, sandbox.keys.other_admin) as theirs:
        post = theirs.get("/posts").json()["data"][0]["id"]
        label = theirs.get("/labels").json()[0]["id"]
        signature = theirs.get("/signatures").json()["data"][0]["id"]
        webhook = theirs.get("/webhooks").json()[0]["id"]
        account = theirs.get("/social-accounts").json()[0]["id"]
        repurpose = theirs.get("/repurposes").json()["data"][0]["id"]
    with client_for(sandbox) as mine:
        for method, path in [
            ("GET", f"/posts/{post}"),
            ("PUT", f"/posts/{post}"),
            ("DELETE", f"/posts/{post}"),
            ("PUT", f"/labels/{label}"),
            ("DELETE", f"/labels/{label}"),
            ("PUT", f"/signatures/{signature}"),
            ("DELETE", f"/signatures/{signature}"),
            ("GET", f"/webhooks/{webhook}"),
            ("PUT", f"/webhooks/{webhook}"),
            ("GET", f"/webhooks/{webhook}/logs"),
            ("POST", f"/webhooks/{webhook}/rotate-secret"),
            ("DELETE", f"/webhooks/{webhook}"),
            ("PUT", f"/social-accounts/{account}/toggle"),
            ("GET", f"/social-accounts/{account}/instagram-audio"),
        ]:
            response = mine.request(method, path, json={"name": "x", "color": "#000000"})
            assert response.status_code == 404, (method, path)
            assert "message" in response.json()
        # Repurposes are the exception of §4: another workspace's id is forbidden, not missing.
        response = mine.get(f"/repurposes/{repurpose}/items")
        assert response.status_code == 403
        assert "message" in response.json()
    # The other workspace's data is intact after all those attempts.
    assert sandbox.store.post(post) is not None
    assert sandbox.store.webhook(webhook) is not None


def test_unknown_route_and_method(api: httpx.Client) -> None:
    response = api.get("/definitely-not-a-route")
    assert response.status_code == 404
    assert response.json() == {
        "message": "The route api/definitely-not-a-route could not be found."
    }
    response = api.get("/posts/batch")
    # GET /posts/batch matches /posts/{post}: an unknown post.
    assert response.status_code == 404
    response = api.delete("/posts")
    assert response.status_code == 405
    assert "message" in response.json()
