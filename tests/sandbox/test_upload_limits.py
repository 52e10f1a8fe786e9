"""Uploads are read with a limit, a chunk at a time, and old ones are pruned (issue 19 §4)."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

import httpx
import pytest

from app.sandbox import uploads_repo
from app.sandbox.harness import SandboxServer

BOUNDARY = "h5boundary"


def raw_post(sandbox: SandboxServer, headers: list[str], body: bytes) -> bytes:
    """Send a request whose body is NOT complete; the answer must come anyway."""
    origin = urlsplit(sandbox.origin)
    assert origin.hostname is not None
    assert origin.port is not None
    with socket.create_connection((origin.hostname, origin.port), timeout=10) as sock:
        head = [
            "POST /api/uploads HTTP/1.1",
            f"Host: {origin.hostname}:{origin.port}",
            f"Authorization: Bearer {sandbox.keys.admin}",
            "Accept: application/json",
            f"Content-Type: multipart/form-data; boundary={BOUNDARY}",
            *headers,
        ]
        sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        answer = b""
        while b"\r\n\r\n" not in answer:  # the status line and headers; timeout = failure
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
        return answer


def test_a_declared_oversized_upload_is_refused_before_it_is_read(
    sandbox: SandboxServer,
) -> None:
    # 600 MB declared, a few bytes sent: waiting for the rest (the old whole-body read) times out.
    answer = raw_post(sandbox, ["Content-Length: 629145600"], b"--" + BOUNDARY.encode())
    assert answer.startswith(b"HTTP/1.1 422"), answer[:200]


def test_a_chunked_upload_is_refused_once_it_grows_past_the_limit(
    sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(uploads_repo, "MAX_UPLOAD_BYTES", 256 * 1024)
    chunk = b"x" * (512 * 1024)
    # One chunk past the limit, and the body never ends: only a streaming reader can answer.
    answer = raw_post(
        sandbox, ["Transfer-Encoding: chunked"], f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    )
    assert answer.startswith(b"HTTP/1.1 422"), answer[:200]


def test_an_upload_within_the_limit_still_works(api: httpx.Client) -> None:
    answer = api.post("/uploads", files={"file": ("a.txt", b"hello", "text/plain")})
    assert answer.status_code == 201


def test_old_uploads_are_pruned_with_their_files(api: httpx.Client, sandbox: SandboxServer) -> None:
    old = api.post("/uploads", files={"file": ("old.txt", b"old bytes", "text/plain")}).json()
    with sandbox.store.tx() as db:
        db.run(
            "UPDATE uploads SET created_at = '2000-01-01 00:00:00' WHERE token = ?",
            (old["upload_token"],),
        )
    api.post("/uploads", files={"file": ("new.txt", b"new bytes", "text/plain")})
    with sandbox.store.tx() as db:
        tokens = {row["token"] for row in db.all("SELECT token FROM uploads")}
        blobs = db.scalar("SELECT count(*) FROM blobs WHERE data = ?", (b"old bytes",))
    assert old["upload_token"] not in tokens
    assert blobs == 0


def test_uploads_beyond_the_kept_size_go_oldest_first(
    api: httpx.Client, sandbox: SandboxServer
) -> None:
    first = api.post("/uploads", files={"file": ("1.txt", b"1" * 100, "text/plain")}).json()
    second = api.post("/uploads", files={"file": ("2.txt", b"2" * 100, "text/plain")}).json()
    with sandbox.store.tx() as db:
        db.run(
            "UPDATE uploads SET created_at = '2999-01-01 00:00:00' WHERE token = ?",
            (second["upload_token"],),
        )
        dropped = uploads_repo.prune_uploads(db, max_bytes=150)
        tokens = {row["token"] for row in db.all("SELECT token FROM uploads")}
    assert dropped == 1
    assert tokens == {second["upload_token"]}
    assert first["upload_token"] not in tokens
