"""Picking several posts: Ctrl+click toggles a post, Shift+click extends from the last post
clicked to this one in the period's order (time, then id: the order the arrows walk), Ctrl+A
takes every post of the shown period that the filter lets through.

A multi-selection holds two posts or more (`CalendarState.marked`); one post left is an ordinary
selection again. The selected post (`CalendarState.selection`) is the one last clicked and stays
the detail panel's.
"""

from __future__ import annotations

from collections.abc import Callable

from ui.calendar.entries import Entry
from ui.calendar.state import CalendarState


class MultiSelect:
    def __init__(self, state: CalendarState, shown: Callable[[], list[Entry]]) -> None:
        """`shown`: the period's posts in order (`ui.calendar.keyboard.ordered`)."""
        self._state = state
        self._shown = shown
        self._anchor: str | None = None

    def ids(self) -> list[str]:
        """The picked posts in the period's order (empty: act on the selected post alone)."""
        marked = self._state.marked
        return [entry.id for entry in self._shown() if entry.id in marked]

    def clicked(self, post_id: str) -> None:
        """A plain click: one post again."""
        self._anchor = post_id
        self._state.marked = frozenset()

    def toggle(self, post_id: str) -> None:
        state = self._state
        picked = set(state.marked) or ({state.selection} if state.selection else set())
        if post_id in picked:
            picked.discard(post_id)
            if state.selection == post_id:
                rest = [entry.id for entry in self._shown() if entry.id in picked]
                state.selection = rest[-1] if rest else None
        else:
            picked.add(post_id)
            state.selection = post_id
        self._anchor = post_id
        self._set(picked)

    def extend(self, post_id: str) -> None:
        state = self._state
        ids = [entry.id for entry in self._shown()]
        anchor = self._anchor if self._anchor in ids else state.selection
        if post_id not in ids:
            return
        if anchor not in ids:
            anchor = post_id
        first, last = sorted((ids.index(anchor), ids.index(post_id)))
        state.selection = post_id
        self._anchor = anchor
        self._set(set(ids[first : last + 1]))

    def select_all(self) -> None:
        ids = [entry.id for entry in self._shown()]
        if not ids:
            return
        if self._state.selection not in ids:
            self._state.selection = ids[0]
        self._anchor = self._state.selection
        self._set(set(ids))

    def clear(self) -> None:
        self._state.marked = frozenset()

    def keep_shown(self) -> None:
        """After a load: posts no longer shown (deleted, moved out, filtered) leave the set."""
        marked = self._state.marked
        if marked:
            self._set({entry.id for entry in self._shown() if entry.id in marked})

    def _set(self, picked: set[str]) -> None:
        if len(picked) < 2:
            if picked and self._state.selection not in picked:
                self._state.selection = next(iter(picked))
            picked = set()
        self._state.marked = frozenset(picked)
