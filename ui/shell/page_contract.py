"""What the shell needs from a page, as types the checker holds every page to.

Every page offers `Page`: the shell hands it the open workspace (`set_session`) and registers
what it offers (`action_specs`). What only some pages do is a small protocol of its own, asked
with `isinstance` where the shell needs it. Pages are plugged through `plugged()`: statically
(mypy checks the page's class against `Page` where the page is built) and when built (a page
missing a member stops the start with its name, instead of being skipped the way a name
looked up with `getattr(page, "...", None)` was).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from ui.action_spec import ActionSpec
    from ui.session import WorkspaceSession


@runtime_checkable
class Page(Protocol):
    def set_session(self, session: WorkspaceSession | None) -> None:
        """The workspace now open (None: none is): forget the previous one's data."""

    def action_specs(self) -> list[ActionSpec]:
        """The page's commands, keys and menu places (none: an empty list)."""


@runtime_checkable
class KeepsClear(Protocol):
    def keep_clear(self) -> list[QWidget]:
        """Controls a message toast must not cover (the composer's send button)."""


PAGE_MEMBERS: tuple[str, ...] = tuple(name for name in vars(Page) if not name.startswith("_"))


class NotAPage(TypeError):
    """A widget plugged in as a page lacks what the shell calls on it."""


P = TypeVar("P", bound=Page)


def plugged(page: P) -> P:
    """`page` itself, once it has every member of `Page` (`NotAPage` names the ones missing)."""
    _check(page)
    return page


def as_page(widget: object) -> Page:
    """A widget the window holds, seen as the page it was plugged as."""
    _check(widget)
    assert isinstance(widget, Page)
    return widget


def _check(page: object) -> None:
    missing = [name for name in PAGE_MEMBERS if not callable(getattr(page, name, None))]
    if missing:
        raise NotAPage(f"{type(page).__name__} is no page: it lacks {', '.join(missing)}")
