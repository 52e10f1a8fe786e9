"""How things are named in lists, the same in the calendar and in the wire models."""

from __future__ import annotations


def account_label(display_name: str | None, username: str | None, account_id: str) -> str:
    """How an account is named in lists: "Name (@handle)", or whichever of them exists."""
    name = display_name or username or account_id
    return f"{name} (@{username})" if username and display_name else name
