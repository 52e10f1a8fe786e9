"""A dialog the user closed while its write was in flight is gone when the answer lands."""

from __future__ import annotations

import shiboken6


def alive(widget: object) -> bool:
    return widget is not None and shiboken6.isValid(widget)
