"""What a screen reader gets over AT-SPI from the live demo's first screen (issue 16 §5): no
unnamed interactive control, and the calendar's painted posts as a list of named items (time,
network, status, text). Runs `tests/tools/atspi_session.sh walk --mirrored` (its own Xvfb on a
free display, its own D-Bus session and accessibility bus, `postdesk --demo` with Qt's AT-SPI
bridge on, the system python3's PyGObject walker); about 10 s. The whole tour of every page and
a dozen dialogs is the same script with `tour` (docs/notes/accessibility_atspi.md).

Opt-in (`make a11y-check`, which sets POSTDESK_ATSPI=1): Qt's offscreen platform has no AT-SPI
bridge, so this needs a display (a private Xvfb), which the rest of the suite never does.
Skipped, saying what is missing, where the AT-SPI tools are not installed
(`apt-get install xvfb xdotool at-spi2-core dbus-x11 python3-gi gir1.2-atspi-2.0`)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SESSION = ROOT / "tests" / "tools" / "atspi_session.sh"
SYSTEM_PYTHON = Path("/usr/bin/python3")
BUS_LAUNCHER = Path("/usr/libexec/at-spi-bus-launcher")
POST_NAME = re.compile(r"\d{1,2}[:.]\d{2}(\s?[AaPp]\.?[Mm]\.?)?, [^,]+, [^:]+: .")


def _missing() -> str | None:
    if os.environ.get("POSTDESK_ATSPI") != "1":
        return "opt-in, it needs a display (make a11y-check)"
    for tool in ("Xvfb", "xdotool", "dbus-run-session"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    if not BUS_LAUNCHER.exists():
        return f"{BUS_LAUNCHER} is missing (apt-get install at-spi2-core)"
    if not (ROOT / ".venv" / "bin" / "postdesk").exists():
        return ".venv/bin/postdesk is missing (make install)"
    probe = subprocess.run(
        [
            str(SYSTEM_PYTHON),
            "-c",
            "import gi; gi.require_version('Atspi', '2.0'); from gi.repository import Atspi",
        ],
        capture_output=True,
        check=False,
    )
    if probe.returncode != 0:
        return "the system python3 lacks PyGObject's Atspi (python3-gi, gir1.2-atspi-2.0)"
    return None


MISSING = _missing() if SYSTEM_PYTHON.exists() else "no /usr/bin/python3"


@pytest.mark.skipif(MISSING is not None, reason=f"AT-SPI walk not possible here: {MISSING}")
def test_a_screen_reader_meets_no_unnamed_control_and_the_posts(tmp_path: Path) -> None:
    report = tmp_path / "walk.json"
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "QT_QPA_PLATFORM", "A11Y_DISPLAY")
    }
    environment["A11Y_DIR"] = str(tmp_path / "session")
    run = subprocess.run(
        [str(SESSION), "walk", "--mirrored", "--label", "first screen", "--json", str(report)],
        capture_output=True,
        text=True,
        timeout=180,
        env=environment,
        check=False,
    )
    assert report.exists(), run.stdout + run.stderr
    (walk,) = json.loads(report.read_text(encoding="utf-8"))
    assert walk["interactive"] >= 15, run.stdout  # it reached the window's controls
    assert walk["unnamed"] == [], run.stdout
    mirror = walk["mirror"]
    assert mirror, run.stdout  # the month's posts, each a named item
    assert [name for name in mirror if not POST_NAME.search(name)] == []
    assert run.returncode == 0, run.stdout + run.stderr
