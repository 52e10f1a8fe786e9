"""The desktop side of `postdesk`: --version, --help naming the window-less commands, --theme,
the .desktop file (one main category, StartupWMClass) and the window icon."""

from __future__ import annotations

import configparser
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from ui.cli import parse_args
from ui.resources import resource
from ui.shell.app_icon import app_icon

ROOT = Path(__file__).resolve().parents[3]
MAIN_CATEGORIES = set(
    [
        "AudioVideo",
        "Audio",
        "Video",
        "Development",
        "Education",
        "Game",
        "Graphics",
        "Network",
        "Office",
        "Science",
        "Settings",
        "System",
        "Utility",
    ]
)


def postdesk(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ui.main", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_version_prints_the_version_and_exits() -> None:
    result = postdesk("--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("postdesk ")
    assert result.stdout.split()[1][0].isdigit() or "not installed" in result.stdout


def test_help_names_import_export_and_the_theme() -> None:
    result = postdesk("--help")
    assert result.returncode == 0
    for words in ("postdesk import", "postdesk export", "--theme", "--version"):
        assert words in result.stdout


def test_theme_option() -> None:
    assert parse_args(["--theme", "dark"]).theme == "dark"
    assert parse_args([]).theme is None
    with pytest.raises(SystemExit):
        parse_args(["--theme", "purple"])


def test_the_desktop_file_has_one_main_category_and_a_wm_class() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read(resource("postdesk.desktop"), encoding="utf-8")
    desktop = entry["Desktop Entry"]
    categories = [c for c in desktop["Categories"].split(";") if c]
    assert len([c for c in categories if c in MAIN_CATEGORIES]) == 1
    assert desktop["StartupWMClass"] == "Postdesk"


def test_the_app_icon_renders(qapp: QApplication) -> None:
    icon = app_icon()
    assert not icon.isNull()
    assert not icon.pixmap(32, 32).isNull()
