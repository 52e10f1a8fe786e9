"""The demo's server process does not inherit the user's POSTDESK_API_KEY (issue 19 §4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.workspaces.demo import DemoSandbox

REAL_KEY = "pd_live_the-users-real-key-0123456789"


def test_the_demo_child_does_not_inherit_the_api_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POSTDESK_API_KEY", REAL_KEY)
    monkeypatch.setenv("POSTDESK_H5_PROBE", "inherited")
    demo = DemoSandbox(tmp_path / "demo.sqlite3", posts=5)
    demo.start()
    try:
        process = demo._process
        assert process is not None
        environ = Path(f"/proc/{process.pid}/environ").read_bytes().split(b"\0")
    finally:
        demo.stop()
    assert b"POSTDESK_H5_PROBE=inherited" in environ  # the rest of the environment is passed
    assert not any(entry.startswith(b"POSTDESK_API_KEY=") for entry in environ)
    assert not any(REAL_KEY.encode() in entry for entry in environ)
