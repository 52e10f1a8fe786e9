"""The calendar: month, week and agenda views of the workspace's posts."""

from ui.calendar.page import CalendarPage
from ui.calendar.source import CalendarSource, InMemoryCalendarSource

__all__ = ["CalendarPage", "CalendarSource", "InMemoryCalendarSource"]
