"""The Laravel pagination envelope (spec §2 Pagination envelope).

`links` is absent on some lists and `meta` may carry only `current_page`, `per_page`, `total`
(repurpose items), so everything but `data` is optional and `last_page` can be derived.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Generic, TypeVar

from pydantic import Field, PrivateAttr

from app.models.base import ListOrNull, WireModel
from app.models.unreadable import UnreadableItem

T = TypeVar("T")


class PageLinks(WireModel):
    first: str | None = None
    last: str | None = None
    prev: str | None = None
    next: str | None = None


class PageMeta(WireModel):
    current_page: int = 1
    from_: int | None = Field(default=None, alias="from")
    to: int | None = None
    last_page: int | None = None
    per_page: int | None = None
    total: int | None = None
    path: str | None = None
    links: Any = None
    """Laravel's numbered page links, kept as sent: nothing here reads them, and modelling the
    ~200 of a posts page tripled the objects each page made (~740 instead of ~220, all
    walked by the garbage collector during a sync) and cost a quarter of its validation."""


class Page(WireModel, Generic[T]):
    data: Annotated[list[T], ListOrNull] = Field(default_factory=list)
    links: PageLinks | None = None
    meta: PageMeta = Field(default_factory=PageMeta)
    _unreadable: list[UnreadableItem] = PrivateAttr(default_factory=list)

    @property
    def unreadable(self) -> list[UnreadableItem]:
        """Items of `data` that did not match the spec and were left out (see app.api.parsing)."""
        return self._unreadable

    @property
    def page_number(self) -> int:
        return self.meta.current_page

    @property
    def last_page(self) -> int:
        """Last page number, from `meta.last_page` or, failing that, `total` / `per_page`."""
        if self.meta.last_page is not None:
            return max(self.meta.last_page, 1)
        if self.meta.total is not None and self.meta.per_page:
            return max(math.ceil(self.meta.total / self.meta.per_page), 1)
        if self.links is not None and self.links.next is None:
            return self.meta.current_page
        # Unknown size: keep going while pages are full.
        return self.meta.current_page + (1 if self.data else 0)

    @property
    def has_next(self) -> bool:
        if self.links is not None and (self.links.next is not None or self.links.last is not None):
            return self.links.next is not None
        return self.meta.current_page < self.last_page
