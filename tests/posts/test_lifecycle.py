"""The post lifecycle of spec §3 and the actions derived from it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from app.domain.enums import PostStatus
from app.posts.lifecycle import (
    USER_TRANSITIONS,
    PostAction,
    action_text,
    allowed_actions,
    can_change,
    is_in_future,
)

WHEN = datetime(2025, 10, 22, 9, 30, tzinfo=UTC)
S, R, P, M, E, D, X = (
    PostAction.SCHEDULE,
    PostAction.RESCHEDULE,
    PostAction.PUBLISH_NOW,
    PostAction.MOVE_TO_DRAFT,
    PostAction.EDIT,
    PostAction.DUPLICATE,
    PostAction.DELETE,
)


@dataclass(frozen=True)
class Card:
    status: str
    scheduled_at: datetime | None


@pytest.mark.parametrize(
    ("status", "dated", "expected"),
    [
        ("scheduled", True, {R, P, M, E, D, X}),
        ("draft", True, {S, R, P, E, D, X}),
        ("draft", False, {P, E, D, X}),
        ("failed", True, {M, E, D, X}),
        ("failed", False, {M, E, D, X}),
        ("publishing", True, {D, X}),
        ("published", True, {D, X}),
        ("partially_published", True, {D, X}),
        ("pending_approval", True, {D, X}),
        ("in_review", True, {D, X}),  # a status this client does not know
    ],
)
def test_actions_follow_the_status(status: str, dated: bool, expected: set[PostAction]) -> None:
    assert allowed_actions(Card(status, WHEN if dated else None)) == expected


def test_the_transitions_are_those_of_spec_section_3() -> None:
    assert {
        (PostStatus.DRAFT, PostStatus.SCHEDULED),
        (PostStatus.SCHEDULED, PostStatus.DRAFT),
        (PostStatus.DRAFT, PostStatus.PUBLISHING),
        (PostStatus.SCHEDULED, PostStatus.PUBLISHING),
        (PostStatus.FAILED, PostStatus.DRAFT),
    } == USER_TRANSITIONS
    assert not can_change("published", PostStatus.SCHEDULED)  # rule 3: never republished
    assert not can_change("failed", PostStatus.PUBLISHING)
    assert not can_change("in_review", PostStatus.DRAFT)
    assert not can_change(None, PostStatus.DRAFT)


def test_a_failed_post_is_edited_to_retry_it() -> None:
    assert action_text(E, "failed") == "Edit and retry"
    assert action_text(E, "draft") == "Edit"
    assert action_text(P) == "Publish now…"  # it asks first


def test_only_a_time_after_now_can_be_scheduled() -> None:
    assert is_in_future(WHEN + timedelta(seconds=1), WHEN)
    assert not is_in_future(WHEN, WHEN)
    assert not is_in_future(WHEN - timedelta(minutes=1), WHEN)
