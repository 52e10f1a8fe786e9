"""Post rules that hold without a UI: which status changes the API allows and which actions a
post offers because of them."""

from app.posts.lifecycle import (
    USER_TRANSITIONS,
    PostAction,
    action_text,
    allowed_actions,
    can_change,
    is_in_future,
)

__all__ = [
    "USER_TRANSITIONS",
    "PostAction",
    "action_text",
    "allowed_actions",
    "can_change",
    "is_in_future",
]
