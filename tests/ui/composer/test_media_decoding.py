"""Issue 15 §3: every picture is decoded and every video probed before it is attached; a file
that is not what its name says is refused, naming the file and the reason."""

from __future__ import annotations

import os
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.sandbox.media_files import gradient_png
from tests.compose.test_media_probe import movie, mvhd, trak
from ui.composer.media_strip import MediaStrip


def _strip(qtbot: QtBot) -> MediaStrip:
    strip = MediaStrip()
    qtbot.addWidget(strip)
    return strip


def test_random_bytes_named_jpg_are_refused_with_the_file_and_the_reason(
    qtbot: QtBot, tmp_path: Path
) -> None:
    fake = tmp_path / "holiday.jpg"
    fake.write_bytes(os.urandom(48 * 1024))
    strip = _strip(qtbot)
    problems = strip.add_paths([str(fake)])
    assert strip.items() == []
    assert len(problems) == 1
    assert problems[0].startswith("holiday.jpg is not a picture Postdesk can read")


def test_a_cut_off_png_is_refused(qtbot: QtBot, tmp_path: Path) -> None:
    whole = gradient_png(200, 120, (10, 20, 30), (200, 210, 220))
    cut = tmp_path / "cut.png"
    cut.write_bytes(whole[: len(whole) // 2])
    problems = _strip(qtbot).add_paths([str(cut)])
    assert problems
    assert problems[0].startswith("cut.png")


def test_a_real_picture_is_attached_with_its_size_and_a_png_named_jpg_is_sent_as_png(
    qtbot: QtBot, tmp_path: Path
) -> None:
    picture = tmp_path / "really-a-png.jpg"
    picture.write_bytes(gradient_png(64, 48, (0, 0, 0), (255, 255, 255)))
    strip = _strip(qtbot)
    assert strip.add_paths([str(picture)]) == []
    (item,) = strip.items()
    assert (item.width, item.height, item.mime) == (64, 48, "image/png")


def test_videos_are_probed_for_length_and_size_or_refused(qtbot: QtBot, tmp_path: Path) -> None:
    strip = _strip(qtbot)
    good = movie(tmp_path, mvhd(1000, 12_500) + trak(b"vide", 1080, 1920))
    assert strip.add_paths([str(good)]) == []
    (item,) = strip.items()
    assert (item.duration_s, item.width, item.height) == (12.5, 1080, 1920)
    fake = tmp_path / "clip2.mp4"
    fake.write_bytes(os.urandom(10_000))
    problems = strip.add_paths([str(fake)])
    assert problems
    assert problems[0].startswith("clip2.mp4 could not be read as a video")
    assert len(strip.items()) == 1
