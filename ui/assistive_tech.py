"""Work done only for an assistive technology (the calendar's list of its painted posts) has to
start when one starts reading the app, which is often after the work's usual moment: Qt's
AT-SPI bridge turns `QAccessible.isActive()` on a few event-loop turns after start (the first
month is shown before that), or whenever Orca starts later. PySide6 has no activation
observer; the first request for an accessible interface once active is the sign. A factory
that never makes an interface sees every such request (Qt asks factories before its own), and
costs nothing while nothing asks."""

from __future__ import annotations

import weakref
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAccessible, QAccessibleInterface

from ui.widgets.alive import alive

_waiting: list[weakref.WeakMethod[Callable[[], None]]] = []
_installed = False


def when_assistive_tech_listens(callback: Callable[[], None]) -> None:
    """Calls the bound method `callback` once, from the event loop, when an assistive
    technology is listening (now if it already is). Held weakly: a page that is gone is
    not called."""
    global _installed
    ref = weakref.WeakMethod(callback)
    if QAccessible.isActive():
        QTimer.singleShot(0, lambda: _call(ref))
        return
    _waiting[:] = [held for held in _waiting if held() is not None]  # pages closed meanwhile
    _waiting.append(ref)
    if not _installed:
        _installed = True
        QAccessible.installFactory(_asked)


def _asked(_class_name: str, _obj: QObject) -> QAccessibleInterface | None:
    if _waiting and QAccessible.isActive():
        waiting = list(_waiting)
        _waiting.clear()
        for ref in waiting:
            # Not from inside Qt's interface lookup: the callback builds and names widgets.
            QTimer.singleShot(0, lambda ref=ref: _call(ref))
    return None  # Qt's own interfaces, as without this factory


def _call(ref: weakref.WeakMethod[Callable[[], None]]) -> None:
    callback = ref()
    if callback is not None and alive(getattr(callback, "__self__", None)):
        callback()
