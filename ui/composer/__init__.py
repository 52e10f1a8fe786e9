"""The Compose page (`ComposerPage`): drafts, destinations, per-network settings, sending.

Imported on first use (`from ui.composer import ComposerPage`), so start-up does not pay for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ui.composer.page import ComposerPage

__all__ = ["ComposerPage"]


def __getattr__(name: str) -> Any:
    if name == "ComposerPage":
        from ui.composer.page import ComposerPage

        return ComposerPage
    raise AttributeError(name)
