"""The preview script renders one PNG per view from generated data."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from zoneinfo import ZoneInfo

from PySide6.QtGui import QImage

from app.domain.enums import PostStatus, known
from tests.tools.calendar_preview import render, sample_data


def test_sample_data_is_realistic() -> None:
    tz = ZoneInfo("Europe/Berlin")
    posts, accounts, labels = sample_data(date(2025, 10, 21), tz)
    assert len(posts) > 100
    assert {p.status for p in posts} >= {"published", "scheduled", "draft", "failed"}
    assert any(known(PostStatus, p.status) is None for p in posts)
    assert any(p.scheduled_at is None for p in posts)
    assert accounts
    assert labels


def test_render_writes_a_png_per_view(tmp_path: Path) -> None:
    written = render(tmp_path, date(2025, 10, 21), ZoneInfo("Europe/Berlin"), 1.5, app_style=False)
    names = {path.name for path in written}
    assert names >= {"month.png", "week.png", "agenda.png", "more-popup.png"}
    for path in written:
        image = QImage(str(path))
        assert not image.isNull()
        assert image.width() == (440 if path.name == "more-popup.png" else 1440)
