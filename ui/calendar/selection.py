"""What follows the selected post: the views' highlight, the post actions (enabled by what the
post offers now and whether a write for it is in flight) and the detail panel.

Views keep their highlight across a refill, except a list refilled while it had none: so after
every load the selection is handed to them again (a no-op for a view already showing it).

Neither class knows the page: they read `CalendarState` and the loader, show through the small
`SelectionShown` protocol (the page's widgets) and tell the rest through two callables.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from app.posts.lifecycle import PostAction
from ui.calendar.entries import Entry
from ui.calendar.loader import CalendarLoader
from ui.calendar.state import CalendarState

if TYPE_CHECKING:
    from app.models import Post
    from ui.calendar.detail_panel import PostDetailPanel


class SelectedPost:
    """The selected post as an entry, and whether it offers an action now."""

    def __init__(self, state: CalendarState, loader: CalendarLoader) -> None:
        self._state = state
        self._loader = loader

    def entry(self) -> Entry | None:
        post_id = self._state.selection
        return self._loader.entries.get(post_id) if post_id else None

    def can(self, kind: PostAction) -> bool:
        """Allowed by the post's status and no write for it in flight."""
        entry = self.entry()
        return entry is not None and kind in entry.actions and not self._state.is_busy(entry.id)


class SelectionShown(Protocol):
    """Where the selection shows (`ui.calendar.page_widgets.PageWidgets`)."""

    def show_selection(self, post_id: str | None) -> None: ...
    def show_detail(self, entry: Entry | None, post: Post | None) -> None: ...
    def set_detail_visible(self, visible: bool) -> None: ...
    def reveal(self, entry: Entry) -> None: ...
    @property
    def detail(self) -> PostDetailPanel: ...


class SelectionFollower:
    def __init__(
        self,
        selected: SelectedPost,
        state: CalendarState,
        loader: CalendarLoader,
        shown: SelectionShown,
        followed: Callable[[Entry | None], object],
        picked: Callable[[str], object],
    ) -> None:
        """`followed(entry)` after every change (the actions' enabled state, assistive
        technology); `picked(post_id)` when a post became the selection (`postSelected`)."""
        self._selected = selected
        self._state = state
        self._loader = loader
        self._shown = shown
        self._followed = followed
        self._picked = picked
        state.selectionChanged.connect(self._changed)
        state.busyChanged.connect(self._busy_changed)

    def select(self, post_id: str | None) -> None:
        """Only a shown post can be selected; anything else clears the selection."""
        self._state.selection = post_id if post_id in self._loader.entries else None

    def after_load(self) -> None:
        """The selection survives a load while its post is still shown."""
        selected = self._state.selection
        if selected is not None and selected not in self._loader.entries:
            self.select(None)
        else:
            self.refresh()

    def refresh(self) -> None:
        self._shown.show_selection(self._state.selection)
        entry = self._selected.entry()
        self._followed(entry)
        self.show_detail(entry)

    def show_detail(self, entry: Entry | None) -> None:
        # Entries hold cards; the full post is read (and decoded) for the panel only.
        post = self._loader.source.post(entry.id) if entry is not None else None
        self._shown.show_detail(entry if post is not None else None, post)

    def open_detail(self) -> None:
        entry = self._selected.entry()
        if entry is None:
            return
        self.show_detail(entry)
        self._shown.set_detail_visible(True)
        self._shown.reveal(entry)
        self._shown.detail.close_button.setFocus()

    def clicked(self, post_id: str) -> None:
        self.select(post_id)
        if self._state.selection is not None:
            self._shown.set_detail_visible(True)

    def activated(self, post_id: str) -> None:
        self.select(post_id)
        self.open_detail()

    def _changed(self, post_id: str | None) -> None:
        self.refresh()
        if post_id is None:
            self._shown.set_detail_visible(False)
        else:
            self._picked(post_id)

    def _busy_changed(self, post_id: str, _busy: bool) -> None:
        if post_id == self._state.selection:
            self.refresh()
