"""What follows the selected post: the views' highlight, the post actions (enabled by what the
post offers now and whether a write for it is in flight) and the detail panel.

Views keep their highlight across a refill, except a list refilled while it had none: so after
every load the selection is handed to them again (a no-op for a view already showing it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.posts.lifecycle import PostAction
from ui.calendar.entries import Entry

if TYPE_CHECKING:
    from ui.calendar.page import CalendarPage


class SelectionFollower:
    def __init__(self, page: CalendarPage) -> None:
        self._page = page
        page.state.selectionChanged.connect(self._changed)
        page.state.busyChanged.connect(self._busy_changed)

    def entry(self) -> Entry | None:
        post_id = self._page.state.selection
        return self._page.loader.entries.get(post_id) if post_id else None

    def can(self, kind: PostAction) -> bool:
        entry = self.entry()
        return entry is not None and kind in entry.actions and not self._page.is_busy(entry.id)

    def select(self, post_id: str | None) -> None:
        """Only a shown post can be selected; anything else clears the selection."""
        self._page.state.selection = post_id if post_id in self._page.loader.entries else None

    def after_load(self) -> None:
        """The selection survives a load while its post is still shown."""
        selected = self._page.state.selection
        if selected is not None and selected not in self._page.loader.entries:
            self.select(None)
        else:
            self.refresh()

    def refresh(self) -> None:
        page = self._page
        page.widgets.show_selection(page.state.selection)
        entry = self.entry()
        page.commands.follow_selection(entry, self.can)
        self.show_detail(entry)
        page.follow_for_assistive_tech(entry)

    def show_detail(self, entry: Entry | None) -> None:
        # Entries hold cards; the full post is read (and decoded) for the panel only.
        post = self._page.loader.source.post(entry.id) if entry is not None else None
        self._page.widgets.show_detail(entry if post is not None else None, post)

    def open_detail(self) -> None:
        entry = self.entry()
        if entry is None:
            return
        widgets = self._page.widgets
        self.show_detail(entry)
        widgets.set_detail_visible(True)
        widgets.reveal(entry)
        widgets.detail.close_button.setFocus()

    def clicked(self, post_id: str) -> None:
        self.select(post_id)
        if self._page.state.selection is not None:
            self._page.widgets.set_detail_visible(True)

    def activated(self, post_id: str) -> None:
        self.select(post_id)
        self.open_detail()

    def _changed(self, post_id: str | None) -> None:
        self.refresh()
        if post_id is None:
            self._page.widgets.set_detail_visible(False)
        else:
            self._page.postSelected.emit(post_id)

    def _busy_changed(self, post_id: str, _busy: bool) -> None:
        if post_id == self._page.state.selection:
            self.refresh()
