"""`postdesk` as a user runs it: --screenshot writes a PNG after the first sync, failures exit
non-zero with the reason on stderr, and the key never comes from argv."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from app.sandbox.harness import SandboxServer
from ui.cli import build_parser, parse_args

ROOT = Path(__file__).resolve().parents[3]


def postdesk(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ui.main", *args],
        cwd=ROOT,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_screenshot_of_the_demo_calendar(tmp_path: Path) -> None:
    shot = tmp_path / "calendar.png"
    result = postdesk(
        "--demo", "--demo-posts", "60", "--date", "2026-01-15", "--screenshot", str(shot)
    )
    assert result.returncode == 0, result.stderr
    image = QImage(str(shot))
    assert not image.isNull()
    assert image.width() >= 800
    assert image.height() >= 500


def test_screenshot_against_a_base_url_with_the_key_from_the_environment(
    tmp_path: Path, sandbox: SandboxServer
) -> None:
    shot = tmp_path / "accounts.png"
    result = postdesk(
        "--base-url",
        sandbox.base_url,
        "--view",
        "accounts",
        "--screenshot",
        str(shot),
        env={"POSTDESK_API_KEY": sandbox.keys.admin},
    )
    assert result.returncode == 0, result.stderr
    assert not QImage(str(shot)).isNull()
    assert sandbox.keys.admin not in result.stdout + result.stderr


def test_a_failed_first_sync_exits_non_zero_with_the_reason(
    tmp_path: Path, sandbox: SandboxServer
) -> None:
    shot = tmp_path / "never.png"
    result = postdesk(
        "--base-url",
        sandbox.base_url,
        "--screenshot",
        str(shot),
        env={"POSTDESK_API_KEY": sandbox.keys.expired},
    )
    assert result.returncode == 1
    assert "Token expired." in result.stderr
    assert not shot.exists()
    assert sandbox.keys.expired not in result.stderr


def test_base_url_without_a_key_exits_2_and_says_where_the_key_goes() -> None:
    result = postdesk("--base-url", "http://127.0.0.1:9/api", env={"POSTDESK_API_KEY": ""})
    assert result.returncode == 2
    assert "POSTDESK_API_KEY" in result.stderr


def test_the_command_line_has_no_way_to_pass_a_key() -> None:
    options = " ".join(build_parser().format_help().split())
    assert "--api-key" not in options
    assert "--key" not in options


def test_bad_arguments_are_rejected_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse_args(["--date", "15/01/2026"])
    assert exit_info.value.code == 2
    assert "YYYY-MM-DD" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parse_args(["--demo", "--base-url", "http://x/api"])
