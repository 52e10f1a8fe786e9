"""The default display zone is the system's own, with its DST rules (not a fixed offset)."""

from __future__ import annotations

from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from PySide6.QtCore import QByteArray, QTimeZone
from pytestqt.qtbot import QtBot

from tests.ui.calendar.factories import accounts, labels
from ui.calendar import CalendarPage, InMemoryCalendarSource, timezone
from ui.calendar.timezone import linked_zone_name, system_time_zone, zone_from_name, zone_name


def test_the_tz_variable_names_the_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", ":America/New_York")
    assert system_time_zone() == ZoneInfo("America/New_York")


def test_a_bad_tz_variable_falls_back_to_the_system(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Nowhere/Special")
    zone = system_time_zone()
    assert zone_name(zone) != "Nowhere/Special"
    assert zone_from_name("Nowhere/Special") is None
    assert zone_from_name("") is None


def test_a_page_without_a_zone_uses_the_system_zone(
    monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    monkeypatch.setenv("TZ", "Pacific/Auckland")
    page = CalendarPage(InMemoryCalendarSource([], accounts=accounts(), labels=labels()))
    qtbot.addWidget(page)
    assert page.display_tz == ZoneInfo("Pacific/Auckland")


def test_the_zone_linux_links_to_is_read_without_asking_qt(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Qt's lookup loads its zone database first (~3 ms of the first paint).
    link = tmp_path / "localtime"
    link.symlink_to("../usr/share/zoneinfo/Asia/Tokyo")
    monkeypatch.delenv("TZ", raising=False)
    monkeypatch.setattr(timezone, "LOCALTIME", str(link))
    monkeypatch.setattr(QTimeZone, "systemTimeZoneId", _not_asked)
    assert system_time_zone() == ZoneInfo("Asia/Tokyo")


def test_without_such_a_link_qt_names_the_zone(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    copied = tmp_path / "localtime"
    copied.write_bytes(b"TZif")
    monkeypatch.delenv("TZ", raising=False)
    monkeypatch.setattr(timezone, "LOCALTIME", str(copied))
    monkeypatch.setattr(
        QTimeZone, "systemTimeZoneId", staticmethod(lambda: QByteArray(b"Asia/Kolkata"))
    )
    assert linked_zone_name(str(copied)) == ""
    assert linked_zone_name(str(tmp_path / "missing")) == ""
    assert system_time_zone() == ZoneInfo("Asia/Kolkata")


def _not_asked() -> QByteArray:
    raise AssertionError("Qt was asked for the zone")
