"""The documented key table is the one the registry generates (`python -m ui.shell.keys`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication

from ui.shell.keys import app_specs, markdown_table

ROOT = Path(__file__).resolve().parents[3]
START, END = "<!-- keys:start -->", "<!-- keys:end -->"


def documented_table() -> tuple[Path, str]:
    """The table between the markers: the README once the lead merged it, else the notes."""
    for path in (ROOT / "README.md", ROOT / "docs/notes/shell.md"):
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        if START in text and END in text:
            return path, text.split(START, 1)[1].split(END, 1)[0].strip() + "\n"
    raise AssertionError("no generated key table between the keys markers")


def test_the_documented_key_table_is_the_generated_one(qapp: QApplication) -> None:
    path, table = documented_table()
    assert table == markdown_table(app_specs()), f"regenerate the table in {path}"


def test_the_table_has_the_keys_users_ask_for(qapp: QApplication) -> None:
    table = markdown_table(app_specs())
    for row in ("| Ctrl+Q | Quit |", "| Ctrl+K | Command palette |", "| W | Week view |"):
        assert row in table


def test_the_module_prints_it() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ui.shell.keys"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.startswith("| Keys | Does | Where |")
