"""What the command palette can find: every action (one of another page shows that page first),
the sections, and the open workspace's accounts and posts (read from its local cache, so it
works offline)."""

from __future__ import annotations

import functools
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from ui.locale_text import date_time
from ui.sections import SECTIONS
from ui.shell.keys import key_text
from ui.shell.palette import PaletteEntry

if TYPE_CHECKING:
    from ui.shell.pages import PageWiring
    from ui.shell.registry import ActionRegistry

POST_YEARS = 5
"""Posts this many years either side of today are searchable."""


def palette_entries(registry: ActionRegistry, pages: PageWiring) -> list[PaletteEntry]:
    entries: list[PaletteEntry] = []
    seen: set[tuple[str, str]] = set()
    for spec in registry.reachable():
        if spec.id == "view.palette" or (spec.text, spec.scope) in seen:
            continue  # twin bindings of one command show once
        seen.add((spec.text, spec.scope))
        detail = key_text(spec.shortcut) if spec.shortcut else spec.help
        kind = "Section" if spec.id.removeprefix("go.") in SECTIONS else "Action"
        entries.append(
            PaletteEntry(kind, spec.text, detail, functools.partial(registry.run_anywhere, spec.id))
        )
    window = pages.window
    cache = pages.manager.cache
    if cache is None:
        return entries
    for account in cache.accounts():
        name = account.display_name or account.username or account.id
        entries.append(
            PaletteEntry(
                "Account", str(name), str(account.platform),
                lambda: window.show_section("accounts"),
            )
        )  # fmt: skip
    now = datetime.now(UTC)
    span = timedelta(days=365 * POST_YEARS)
    cards = [*cache.cards_between(now - span, now + span), *cache.unscheduled_cards()]
    for card in cards:
        when = card.scheduled_at
        shown = date_time(when.astimezone()) if when else "no date"
        entries.append(
            PaletteEntry(
                "Post",
                card.summary or "(no text)",
                f"{shown} · {card.account_text} · {card.status}",
                functools.partial(open_post, pages, card.id, when),
            )
        )
    return entries


def open_post(pages: PageWiring, post_id: str, when: datetime | None) -> None:
    pages.window.show_section("calendar")
    calendar = pages.calendar
    if when is not None:
        calendar.go_to(when.astimezone(calendar.display_tz).date())
    calendar.select_post(post_id)
    calendar.open_detail()
