"""Checks while typing: counters, required settings, time, accounts; 422 mapping."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.api import errors as e
from app.compose.batch import build_update
from app.compose.checks import (
    ACCOUNT_DISCONNECTED,
    ACCOUNT_EXPIRED,
    ACCOUNT_INACTIVE,
    GENERAL,
    TIME_MISSING,
    TIME_PAST,
    blocking,
    char_count,
    check_document,
    for_field,
    issues_by_path,
    map_validation_error,
)
from app.compose.document import ComposerDocument, Schedule, ScheduleMode
from app.compose.opening import document_from_post
from app.models.accounts import SocialAccountSummary
from app.models.requests import BatchRequest, Destination
from app.sandbox.harness import SandboxServer
from tests.api.helpers import sandbox_client

NOW = datetime(2031, 1, 10, 12, 0, tzinfo=UTC)


def account(id_: str, platform: str, **fields: object) -> SocialAccountSummary:
    return SocialAccountSummary.model_validate(
        {"id": id_, "platform": platform, "status": "connected", "is_active": True, **fields}
    )


def test_the_counter_uses_the_accounts_max_content_length() -> None:
    doc = ComposerDocument(content="x" * 300)
    doc.add_destination("a", "linkedin")
    first = char_count(doc, 0)
    assert first is not None
    assert first.limit == 3000
    count = char_count(doc, 0, account("a", "linkedin", max_content_length=250))
    assert count is not None
    assert (count.used, count.limit, count.over_by) == (300, 250, 50)
    issues = check_document(doc, {"a": account("a", "linkedin", max_content_length=250)}, now=NOW)
    assert [(i.path, i.blocking) for i in issues] == [("destinations.0.content", False)]
    doc.schedule = Schedule(mode=ScheduleMode.PUBLISH_NOW)
    issues = check_document(doc, {"a": account("a", "linkedin", max_content_length=250)}, now=NOW)
    assert [(i.path, i.blocking) for i in issues] == [("destinations.0.content", True)]


def test_a_time_in_the_past_or_missing_blocks_scheduling() -> None:
    doc = ComposerDocument(content="hi", schedule=Schedule(mode=ScheduleMode.AT))
    doc.add_destination("a", "linkedin")
    assert issues_by_path(check_document(doc, now=NOW)) == {"scheduled_at": [TIME_MISSING]}
    doc.schedule = Schedule(mode=ScheduleMode.AT, at=NOW - timedelta(minutes=1))
    assert issues_by_path(check_document(doc, now=NOW)) == {"scheduled_at": [TIME_PAST]}
    doc.schedule = Schedule(mode=ScheduleMode.AT, at=NOW + timedelta(minutes=1))
    assert check_document(doc, now=NOW) == []
    doc.schedule = Schedule(mode=ScheduleMode.DRAFT, at=NOW - timedelta(days=1))
    assert [i.blocking for i in check_document(doc, now=NOW)] == [False]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"status": "disconnected"}, ACCOUNT_DISCONNECTED),
        ({"status": "token_expired"}, ACCOUNT_EXPIRED),
        ({"is_active": False}, ACCOUNT_INACTIVE),
    ],
)
def test_an_account_that_cannot_publish_is_flagged(fields: dict[str, object], message: str) -> None:
    doc = ComposerDocument(content="hi")
    doc.add_destination("a", "linkedin")
    accounts = {"a": account("a", "linkedin", **fields)}
    draft = check_document(doc, accounts, now=NOW)
    assert [(i.path, i.message, i.blocking) for i in draft] == [
        ("destinations.0.social_account_id", message, False)
    ]
    doc.schedule = Schedule(mode=ScheduleMode.QUEUE_NEXT)
    assert [i.blocking for i in check_document(doc, accounts, now=NOW)] == [True]


def test_an_unknown_account_status_is_not_refused() -> None:
    doc = ComposerDocument(content="hi", schedule=Schedule(mode=ScheduleMode.PUBLISH_NOW))
    doc.add_destination("a", "linkedin")
    assert check_document(doc, {"a": account("a", "linkedin", status="reauthorizing")}) == []


def test_required_settings_name_the_setting() -> None:
    doc = ComposerDocument(content="hi", schedule=Schedule(mode=ScheduleMode.QUEUE_TOP))
    doc.add_destination("a", "linkedin")
    doc.add_destination("t", "tiktok")
    found = issues_by_path(blocking(check_document(doc, now=NOW)))
    assert found["destinations.1.meta.privacy_level"] == ["The privacy level field is required."]
    assert for_field(found, "destinations.1") == [
        "The privacy level field is required.",
        "A video on TikTok needs a video.",
    ]
    assert for_field(found, "destinations.0") == []


def test_no_destination_is_flagged() -> None:
    assert [i.path for i in check_document(ComposerDocument(content="x"))] == ["destinations"]


def test_a_422_without_field_errors_lands_on_the_general_slot() -> None:
    error = e.ValidationFailed("Something is off.", errors={})
    assert map_validation_error(error) == {GENERAL: ["Something is off."]}


@pytest.mark.asyncio
async def test_an_update_422_maps_platform_entries_onto_destinations(
    sandbox: SandboxServer,
) -> None:
    pinterest = sandbox.store.account_id("pinterest")
    linkedin = sandbox.store.account_id("linkedin")
    async with sandbox_client(sandbox) as client:
        [created] = await client.posts.create_batch(
            BatchRequest(
                content="Pin",
                destinations=[
                    Destination(social_account_id=pinterest, content_type="pinterest_pin")
                ],
            )
        )
        doc = document_from_post(created)
        doc.add_destination(linkedin, "linkedin")  # not on the post: not sent by an update
        doc.destinations = [doc.destinations[1], doc.destinations[0]]
        doc.schedule = Schedule(mode=ScheduleMode.AT, at=datetime.now(UTC) + timedelta(days=1))
        plan = build_update(doc, created)
        with pytest.raises(e.ValidationFailed) as caught:
            await client.posts.update(created.id, plan.update)
    assert "platforms.0.meta.board_id" in caught.value.errors
    mapped = map_validation_error(caught.value, platform_indexes=plan.platform_indexes)
    assert "destinations.1.meta.board_id" in mapped
    local = {i.path for i in check_document(doc) if i.blocking and not i.path.endswith("media")}
    assert "destinations.1.meta.board_id" in local


def test_the_send_line_names_every_blocker_with_a_count_and_the_time_once() -> None:
    from app.compose.checks import Issue, blocker_summary

    def name_of(path: str) -> str | None:
        return {"destinations.0": "X @a", "destinations.1": "Bluesky @b"}.get(
            ".".join(path.split(".")[:2])
        )

    one = [Issue("destinations.0.content", "Too long for X by 1: 281 of at most 280 ...")]
    assert blocker_summary(one, name_of) == "X @a: Too long for X by 1: 281 of at most 280 ..."
    many = [
        Issue("scheduled_at", "This time is in the past; choose a later one."),
        *one,
        Issue("destinations.1.media", "Bluesky does not mix pictures and videos in one post."),
        Issue("destinations", "Choose at least one account to post to."),
    ]
    summary = blocker_summary(many, name_of)
    assert summary.startswith("3 things stop sending: X @a: Too long")
    assert "Bluesky @b: Bluesky does not mix" in summary
    assert "in the past" not in summary  # shown at the time field already
    assert blocker_summary(many[:1], name_of) == ""


def test_a_server_mark_is_tied_to_its_own_fields_value() -> None:
    from app.compose.checks import value_at

    doc = ComposerDocument(content="Hello")
    dest = doc.add_destination("p1", "pinterest")
    dest.meta = {"board_id": "b1"}
    before = {p: value_at(doc, p) for p in ("destinations.0.meta.board_id", "content")}
    doc.schedule = Schedule(mode=ScheduleMode.AT, at=datetime.now(UTC) + timedelta(days=1))
    assert {p: value_at(doc, p) for p in before} == before  # the mode is another field
    dest.meta = {"board_id": "b2"}
    assert value_at(doc, "destinations.0.meta.board_id") == "b2"
    assert value_at(doc, "destinations.0.content") == "Hello"
    assert value_at(doc, "nowhere.3") is None
