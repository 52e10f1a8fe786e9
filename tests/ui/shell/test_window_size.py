"""The main window fits the screen it opens on, title bar included."""

from __future__ import annotations

import pytest

from ui.shell.main_window import (
    MINIMUM_SIZE,
    PREFERRED_SIZE,
    WINDOW_FRAME_ALLOWANCE,
    fitted_size,
)


def test_a_large_screen_gets_the_preferred_size() -> None:
    assert fitted_size(PREFERRED_SIZE, (2560, 1400)) == PREFERRED_SIZE


def test_a_laptop_screen_gets_a_window_that_fits_with_its_title_bar() -> None:
    width, height = fitted_size(PREFERRED_SIZE, (1366, 740))  # 768 minus a panel
    assert width == 1360
    assert height == 740 - WINDOW_FRAME_ALLOWANCE


@pytest.mark.parametrize("available", [(800, 600), (1024, 600)])
def test_never_below_the_minimum_the_layout_is_made_for(available: tuple[int, int]) -> None:
    assert fitted_size(PREFERRED_SIZE, available) == MINIMUM_SIZE


def test_without_a_screen_to_fit_the_preferred_size_stays() -> None:
    assert fitted_size(PREFERRED_SIZE, None) == PREFERRED_SIZE
