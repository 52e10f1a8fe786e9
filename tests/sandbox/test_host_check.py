"""The sandbox answers only requests addressed to it by a loopback name and its port (issue 19
§4: DNS rebinding could otherwise reach it from a browser)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from app.sandbox.harness import SandboxServer
from app.sandbox.seed import DEMO_API_KEY
from tests.bench.support import SandboxProcess
from tests.sandbox.conftest import client_for


def port_of(sandbox: SandboxServer) -> int:
    return int(sandbox.origin.rsplit(":", 1)[1])


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "LOCALHOST", "[::1]"])
def test_loopback_names_with_its_port_are_answered(sandbox: SandboxServer, name: str) -> None:
    with client_for(sandbox) as client:
        answer = client.get("/labels", headers={"Host": f"{name}:{port_of(sandbox)}"})
    assert answer.status_code == 200, answer.text


@pytest.mark.parametrize(
    "host",
    ["evil.example:{port}", "evil.example", "localhost.evil.example:{port}", "127.0.0.1.nip.io"],
)
def test_any_other_host_is_refused_before_anything_is_done(
    sandbox: SandboxServer, host: str
) -> None:
    with client_for(sandbox) as client:
        before = client.get("/labels").json()
        refused = client.post(
            "/labels",
            json={"name": "rebound", "color": "#112233"},
            headers={"Host": host.format(port=port_of(sandbox))},
        )
        after = client.get("/labels").json()
    assert refused.status_code == 421
    assert "127.0.0.1" in refused.json()["message"]
    assert after == before


def test_the_usual_client_is_answered(sandbox: SandboxServer) -> None:
    answer = httpx.get(
        sandbox.base_url + "/labels",
        headers={"Authorization": f"Bearer {sandbox.keys.admin}"},
        trust_env=False,
    )
    assert answer.status_code == 200


def test_the_demo_server_also_checks_its_port(tmp_path: Path) -> None:
    """`python -m app.sandbox` (what the demo runs): the name and its own port."""
    with SandboxProcess(tmp_path / "demo.db", posts=3, latency_ms=0, api_key=DEMO_API_KEY) as demo:
        port = int(demo.base_url.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
        headers = {"Authorization": f"Bearer {DEMO_API_KEY}"}
        with httpx.Client(base_url=demo.base_url, headers=headers, trust_env=False) as client:
            assert client.get("/labels").status_code == 200
            for host in (f"localhost:{port}", f"[::1]:{port}"):
                assert client.get("/labels", headers={"Host": host}).status_code == 200
            for host in ("127.0.0.1", f"127.0.0.1:{port + 1}", f"evil.example:{port}"):
                assert client.get("/labels", headers={"Host": host}).status_code == 421, host
