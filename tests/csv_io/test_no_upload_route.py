"""Issue 15 §3: against a deployment without an upload route (the independent odd server), a
file to upload is refused with what that means and what to do, not "Not found… deleted"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.api import errors as e
from app.compose.uploads import NO_UPLOADS, upload_failure
from app.csv_io import cli
from app.sandbox.media_files import gradient_png
from tests.tools.odd_server import OddServer


@pytest.fixture
def odd() -> Iterator[OddServer]:
    with OddServer(quiet=True) as server:
        yield server


def test_a_missing_upload_route_is_said_plainly() -> None:
    said = upload_failure(e.NotFound())
    assert str(said) == NO_UPLOADS
    assert "deleted" not in said.hint
    other = e.ServerError()
    assert upload_failure(other) is other


def test_an_import_with_a_picture_names_the_missing_upload_route(
    odd: OddServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("POSTDESK_API_KEY", "odd-key")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    (tmp_path / "cup.png").write_bytes(gradient_png(32, 32, (0, 0, 0), (9, 9, 9)))
    plan = tmp_path / "plan.csv"
    plan.write_text("content,accounts,media\nA cup,linkedin:ines-oddsen,cup.png\n", "utf-8")
    status = cli.main(["import", str(plan), "--base-url", odd.base_url, "--wait", "5"])
    out = capsys.readouterr().out
    assert status == 1
    assert "row 2: not queued: This server does not take media uploads from Postdesk" in out, out
    assert "deleted" not in out
