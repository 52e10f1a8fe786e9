"""How things are named in lists, the same in the calendar and in the wire models."""

from __future__ import annotations


def account_label(display_name: str | None, username: str | None, account_id: str) -> str:
    """How an account is named in lists: "Name (@handle)", or whichever of them exists."""
    name = display_name or username or account_id
    return f"{name} (@{username})" if username and display_name else name


UNREADABLE_NAME = "(unreadable)"
"""How a name the server sent unreadable (null, not text) is shown: a label's, for one."""


def shown_name(name: str | None) -> str:
    """A label's name as lists show it: an empty one (what an unreadable name is read as) is
    shown as "(unreadable)" (the server requires a name, so empty cannot be meant)."""
    return name if name and name.strip() else UNREADABLE_NAME
