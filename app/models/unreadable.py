"""Items of a list the server sent that could not be read (whole), kept so the UI can name them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class UnreadableItem:
    """One item that did not match the spec (e.g. a post whose `status` is null).

    `id` is the item's id as sent (None when it had none), `index` its position in the list or
    page, `reason` the field paths and what was wrong (for the log: it may name ids), `source`
    the request (`GET /posts`).

    An item with a usable id is kept (`kept`): its unreadable parts (`fields`, dotted paths such
    as `status` or `labels.2.name`) were left at their defaults ("" for a required text: a post's
    status, a label's name), so it is shown with them marked as unreadable. `text` (a post's
    content, or a label's name when that was readable) and `when` (a post's day) name it in
    words. An item without a usable id is left out (`kept` False, `fields` empty).
    """

    id: str | None
    index: int
    reason: str
    source: str
    fields: tuple[str, ...] = ()
    text: str | None = None
    when: datetime | None = None

    @property
    def kept(self) -> bool:
        return bool(self.fields)

    def describe(self) -> str:
        who = f"item {self.id}" if self.id is not None else f"item #{self.index + 1}"
        return f"{who} of {self.source}: {self.reason}"


class ItemList(list[T]):
    """A list read from the server: the good items (and the kept ones, read in part), plus
    `unreadable` for those read in part or left out."""

    unreadable: list[UnreadableItem]

    def __init__(self, items: object = (), unreadable: list[UnreadableItem] | None = None) -> None:
        super().__init__(items)  # type: ignore[call-overload]
        self.unreadable = list(unreadable or [])
