"""Content types, workspace, uploads, media files and the optional global rate limit."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from app.sandbox.clock import ManualClock
from app.sandbox.harness import SandboxServer
from app.sandbox.media_files import gradient_png
from app.sandbox.networks import PLATFORMS

from .conftest import client_for


def test_content_types_cover_every_platform(api: httpx.Client) -> None:
    types = api.get("/content-types").json()
    assert {t["platform"] for t in types} == set(PLATFORMS)
    by_value = {(t["platform"], t["content_type"]): t for t in types}
    assert ("x", "x_post") in by_value
    assert ("instagram-facebook", "instagram_reel") in by_value
    assert by_value[("pinterest", "pinterest_pin")]["required_meta"] == ["board_id"]
    assert by_value[("tiktok", "tiktok_video")]["required_meta"] == ["privacy_level"]
    assert by_value[("discord", "discord_message")]["required_meta"] == ["channel_id"]
    for platform in PLATFORMS:
        assert sum(t["default"] for t in types if t["platform"] == platform) == 1


def test_workspace(api: httpx.Client, sandbox: SandboxServer) -> None:
    body = api.get("/workspace").json()
    assert body["id"] == sandbox.workspace_id
    assert body["name"] == "Northwind Coffee Co."
    assert body["owner"]["name"] == "Ava Lindqvist"
    assert body["members_count"] == 3


def test_upload_returns_a_token_and_serves_the_file(api: httpx.Client) -> None:
    png = gradient_png(4, 3, (0, 0, 0), (255, 255, 255))
    response = api.post("/uploads", files={"file": ("pic.PNG", png, "image/png")})
    assert response.status_code == 201
    body = response.json()
    assert body["upload_token"].startswith("upl_")
    assert body["type"] == "image"
    assert body["size"] == len(png)
    assert body["meta"] == {"width": 4, "height": 3}
    assert body["original_filename"] == "pic.PNG"


def test_upload_needs_a_file(api: httpx.Client) -> None:
    for kwargs in ({"data": {"note": "no file"}}, {"json": {"file": "x"}}):
        response = api.post("/uploads", **kwargs)  # type: ignore[arg-type]
        assert response.status_code == 422
        assert list(response.json()["errors"]) == ["file"]


def test_uploads_belong_to_their_workspace(api: httpx.Client, sandbox: SandboxServer) -> None:
    token = api.post("/uploads", files={"file": ("a.txt", b"hi", "text/plain")}).json()[
        "upload_token"
    ]
    account = sandbox.store.accounts(sandbox.other_workspace_id)[0]["id"]
    with client_for(sandbox, sandbox.keys.other_admin) as other:
        response = other.post(
            "/posts/batch",
            json={
                "media": [{"upload_token": token}],
                "destinations": [{"social_account_id": account}],
            },
        )
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["media.0.upload_token"]


def test_unknown_media_file_is_404(sandbox: SandboxServer) -> None:
    response = httpx.get(f"{sandbox.origin}/storage/medias/nothing.png", trust_env=False)
    assert response.status_code == 404


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[tuple[SandboxServer, ManualClock]]:
    clock = ManualClock(datetime(2030, 1, 1, tzinfo=UTC))
    with SandboxServer(tmp_path / "rl.db", rate_limit=3, now=clock) as server:
        yield server, clock


def test_global_rate_limit(limited: tuple[SandboxServer, ManualClock]) -> None:
    server, clock = limited
    with client_for(server) as client, client_for(server, server.keys.other_admin) as other:
        for _ in range(3):
            assert client.get("/labels").status_code == 200
            clock.advance(timedelta(seconds=10))
        response = client.get("/posts")
        assert response.status_code == 429
        assert response.json() == {"name": "rate_limit_exceeded", "message": "Too Many Attempts."}
        assert response.headers["Retry-After"] == "30"
        # Per key: another key is unaffected.
        assert other.get("/labels").status_code == 200
        clock.advance(timedelta(seconds=30))
        assert client.get("/labels").status_code == 200


def test_unlimited_by_default(api: httpx.Client) -> None:
    statuses = {api.get("/labels").status_code for _ in range(80)}
    assert statuses == {200}
