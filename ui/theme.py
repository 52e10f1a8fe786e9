"""Light and dark: one palette of colour roles that the style sheets and the painted views read.

The choice is "system" (follow Qt's `QStyleHints.colorScheme`, Qt >= 6.5), "light" or "dark";
it comes from `--theme` or from View > Theme, which remembers it (QSettings "ui/theme").
Applying a theme sets the application's QPalette (painted code reads Base/Text from it) and
fills the style sheet templates (`$role` placeholders) with the roles' colours.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, fields
from string import Template

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from app.domain.enums import PostStatus

CHOICES = ("system", "light", "dark")
SETTINGS_KEY = "ui/theme"


@dataclass(frozen=True)
class Theme:
    name: str
    window: str  # page backgrounds
    surface: str  # fields, lists, grids
    sunken: str  # sidebar, status bar, headers, quoted content
    text: str
    strong_text: str  # sidebar entries
    muted: str
    disabled: str
    line: str  # borders
    soft_line: str  # grid lines inside lists
    control_line: str  # button and field borders
    hover: str
    pressed: str
    accent: str
    accent_strong: str
    on_accent: str  # text on an accent fill
    selection: str  # a selected row's background
    selection_text: str
    checked: str
    checked_line: str
    focus: str  # the focus ring
    today: str
    now_line: str
    danger: str
    danger_line: str
    danger_hover: str
    warning: str
    popup: str
    # chip colours per post status
    draft: str
    scheduled: str
    publishing: str
    published: str
    partially_published: str
    failed: str
    pending_approval: str
    unknown_status: str

    @property
    def dark(self) -> bool:
        return QColor(self.window).lightnessF() < 0.5

    def roles(self) -> dict[str, str]:
        return {field.name: getattr(self, field.name) for field in fields(self)}

    def fill(self, template: str) -> str:
        """A style sheet template with `$role` placeholders filled in."""
        return Template(template).substitute(self.roles())

    def status_colors(self) -> dict[PostStatus | None, str]:
        return {
            PostStatus.DRAFT: self.draft,
            PostStatus.SCHEDULED: self.scheduled,
            PostStatus.PUBLISHING: self.publishing,
            PostStatus.PUBLISHED: self.published,
            PostStatus.PARTIALLY_PUBLISHED: self.partially_published,
            PostStatus.FAILED: self.failed,
            PostStatus.PENDING_APPROVAL: self.pending_approval,
            None: self.unknown_status,
        }

    def palette(self) -> QPalette:
        palette = QPalette()
        role = QPalette.ColorRole
        for target, colour in (
            (role.Window, self.window),
            (role.WindowText, self.text),
            (role.Base, self.surface),
            (role.AlternateBase, self.sunken),
            (role.Text, self.text),
            (role.Button, self.surface),
            (role.ButtonText, self.text),
            (role.Highlight, self.accent),
            (role.HighlightedText, self.on_accent),
            (role.ToolTipBase, self.popup),
            (role.ToolTipText, self.text),
            (role.PlaceholderText, self.muted),
            (role.Link, self.accent),
            (role.Mid, self.muted),  # "palette(mid)" marks hints in some pages
            (role.Midlight, self.soft_line),
            (role.Light, self.surface),
            (role.Dark, self.control_line),
        ):
            palette.setColor(target, QColor(colour))
        for group_role in (role.WindowText, role.Text, role.ButtonText):
            palette.setColor(QPalette.ColorGroup.Disabled, group_role, QColor(self.disabled))
        return palette


LIGHT = Theme(
    name="light",
    window="#ffffff",
    surface="#ffffff",
    sunken="#f5f6f8",
    text="#1f2937",
    strong_text="#374151",
    muted="#6b7280",
    disabled="#9ca3af",
    line="#e5e7eb",
    soft_line="#eef0f3",
    control_line="#d1d5db",
    hover="#f3f4f6",
    pressed="#e5e7eb",
    accent="#2563eb",
    accent_strong="#1d4ed8",
    on_accent="#ffffff",
    selection="#dbe7fd",
    selection_text="#1f2937",
    checked="#eff6ff",
    checked_line="#93c5fd",
    focus="#2563eb",
    today="#2563eb",
    now_line="#dc2626",
    danger="#b42318",
    danger_line="#f3b4ae",
    danger_hover="#fef2f2",
    warning="#b54708",
    popup="#ffffff",
    draft="#6b7280",
    scheduled="#2563eb",
    publishing="#7c3aed",  # violet: apart from Partially published's orange
    published="#16a34a",
    partially_published="#ea580c",
    failed="#dc2626",
    pending_approval="#0891b2",
    unknown_status="#8b7fa8",
)

DARK = Theme(
    name="dark",
    window="#17191e",
    surface="#1e2128",
    sunken="#23262e",
    text="#e6e8ec",
    strong_text="#d1d5db",
    muted="#9aa1ad",
    disabled="#6b7280",
    line="#343842",
    soft_line="#2b2f37",
    control_line="#4a4f5b",
    hover="#2c3039",
    pressed="#363b46",
    accent="#4f8cf7",
    accent_strong="#7aa7fa",
    on_accent="#0b1220",
    selection="#24406e",
    selection_text="#f3f4f6",
    checked="#1f3358",
    checked_line="#3b69b8",
    focus="#7aa7fa",
    today="#6ea0fa",
    now_line="#f87171",
    danger="#f87171",
    danger_line="#7f2a2a",
    danger_hover="#3a1f22",
    warning="#fbbf24",
    popup="#23262e",
    draft="#9ca3af",
    scheduled="#60a5fa",
    publishing="#a78bfa",
    published="#4ade80",
    partially_published="#fb923c",
    failed="#f87171",
    pending_approval="#22d3ee",
    unknown_status="#b4a9d6",
)

_current: Theme = LIGHT
_choice: str = "system"
_listeners: list[weakref.WeakMethod[Callable[[Theme], None]]] = []


def current() -> Theme:
    return _current


def choice() -> str:
    return _choice


def system_theme() -> Theme:
    app = QGuiApplication.instance()
    dark = isinstance(app, QGuiApplication) and (
        app.styleHints().colorScheme() == Qt.ColorScheme.Dark
    )
    return DARK if dark else LIGHT


def theme_for(choice_name: str) -> Theme:
    if choice_name == "dark":
        return DARK
    if choice_name == "light":
        return LIGHT
    return system_theme()


def remembered_choice() -> str:
    value = str(QSettings().value(SETTINGS_KEY, "system") or "system")
    return value if value in CHOICES else "system"


def remember_choice(choice_name: str) -> None:
    QSettings().setValue(SETTINGS_KEY, choice_name)


def on_change(listener: Callable[[Theme], None]) -> None:
    """`listener(theme)` after every change of theme (widgets with their own style sheet).
    `listener` is a bound method, held weakly: a closed page does not live on for it."""
    _listeners.append(weakref.WeakMethod(listener))


def apply(app: QApplication, choice_name: str, stylesheet: str) -> Theme:
    """Make `choice_name`'s theme the application's: palette, style sheet, listeners."""
    global _current, _choice
    if choice_name not in CHOICES:
        raise ValueError(f"unknown theme {choice_name!r}: choose one of {', '.join(CHOICES)}")
    _choice = choice_name
    _current = theme_for(choice_name)
    app.setPalette(_current.palette())
    app.setStyleSheet(_current.fill(stylesheet))
    for reference in list(_listeners):
        listener = reference()
        try:
            if listener is not None:
                listener(_current)
                continue
        except RuntimeError:  # its widget's C++ side is gone
            pass
        _listeners.remove(reference)
    return _current


def readable(colour: str | QColor) -> QColor:
    """A text colour chosen for light backgrounds, lightened in the dark theme so it still reads
    (status words in tables: "Connected", "Failed", ...)."""
    chosen = QColor(colour)
    if not _current.dark:
        return chosen
    hue = max(chosen.hslHueF(), 0.0)  # -1 for greys
    lightness = max(chosen.lightnessF(), 0.7)
    return QColor.fromHslF(hue, chosen.hslSaturationF(), lightness, chosen.alphaF())
