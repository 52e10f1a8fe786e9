"""Loads the application style sheet (resources/style.qss, a template over ui/theme's roles) and
applies a theme: "system" follows the desktop's colour scheme as it changes."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from ui import theme
from ui.resources import resource

_followers: set[int] = set()


def stylesheet_template() -> str:
    return resource("style.qss").read_text(encoding="utf-8")


def apply_style(app: QApplication, choice: str | None = None) -> theme.Theme:
    """Apply `choice` ("system", "light", "dark"; None: the remembered one)."""
    chosen = theme.remembered_choice() if choice is None else choice
    applied = theme.apply(app, chosen, stylesheet_template())
    if id(app) not in _followers:  # once per application: the system's scheme as it changes
        _followers.add(id(app))
        app.styleHints().colorSchemeChanged.connect(lambda _scheme: _follow_system(app))
    return applied


def _follow_system(app: QApplication) -> None:
    if theme.choice() == "system":
        theme.apply(app, "system", stylesheet_template())


def choose_theme(app: QApplication, choice: str) -> theme.Theme:
    """View > Theme: apply and remember."""
    applied = apply_style(app, choice)
    theme.remember_choice(choice)
    return applied
