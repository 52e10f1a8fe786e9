"""The default display zone is the system's own, with its DST rules (not a fixed offset)."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest
from pytestqt.qtbot import QtBot

from tests.ui.calendar.factories import accounts, labels
from ui.calendar import CalendarPage, InMemoryCalendarSource
from ui.calendar.timezone import system_time_zone, zone_from_name, zone_name


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
