"""Time zones work on a system without a tz database: `tzdata` is a dependency (issue 18 §3)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROBE = """
import zoneinfo
from datetime import datetime
zones = zoneinfo.available_timezones()
tokyo = datetime(2026, 1, 1, tzinfo=zoneinfo.ZoneInfo("Asia/Tokyo")).utcoffset()
print(len(zones), int(tokyo.total_seconds()))
"""


def test_zones_come_from_tzdata_when_the_system_has_none(tmp_path: Path) -> None:
    # An empty search path is what a system without /usr/share/zoneinfo looks like to zoneinfo.
    env = {**os.environ, "PYTHONTZPATH": str(tmp_path / "no-tz-database")}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    count, tokyo_offset = map(int, done.stdout.split())
    # The connect dialog lists these zones; without tzdata it would list none but UTC.
    assert count > 300
    assert tokyo_offset == 9 * 3600
