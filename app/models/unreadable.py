"""Items of a list the server sent that could not be read, kept so the UI can name them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class UnreadableItem:
    """One list item that did not match the spec (e.g. a post whose `status` is null).

    `id` is the item's id as sent (None when it had none), `index` its position in the list or
    page, `reason` the field paths and what was wrong, `source` the request (`GET /posts`).
    """

    id: str | None
    index: int
    reason: str
    source: str

    def describe(self) -> str:
        who = f"item {self.id}" if self.id is not None else f"item #{self.index + 1}"
        return f"{who} of {self.source}: {self.reason}"


class ItemList(list[T]):
    """A list read from the server: the good items, plus `unreadable` for those skipped."""

    unreadable: list[UnreadableItem]

    def __init__(self, items: object = (), unreadable: list[UnreadableItem] | None = None) -> None:
        super().__init__(items)  # type: ignore[call-overload]
        self.unreadable = list(unreadable or [])
