"""POST /posts/batch: rules 1-6 of §4 and the events it records."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from app.sandbox.clock import ManualClock
from app.sandbox.harness import SandboxServer

FUTURE = "2031-03-04 10:30:00"


def _batch(api: httpx.Client, body: dict[str, Any]) -> httpx.Response:
    return api.post("/posts/batch", json=body)


def _dest(sandbox: SandboxServer, platform: str, **extra: Any) -> dict[str, Any]:
    return {"social_account_id": sandbox.store.account_id(platform), **extra}


def test_one_post_per_destination_sharing_a_group(
    api: httpx.Client, sandbox: SandboxServer
) -> None:
    response = _batch(
        api,
        {
            "content": "Shared text",
            "destinations": [
                _dest(sandbox, "x", content_type="x_post"),
                _dest(sandbox, "linkedin", content="Own text for LinkedIn"),
            ],
        },
    )
    assert response.status_code == 201
    posts = response.json()["posts"]
    assert len(posts) == 2
    assert posts[0]["post_group_id"] == posts[1]["post_group_id"]
    assert posts[0]["id"] != posts[1]["id"]
    assert [p["content"] for p in posts] == ["Shared text", "Own text for LinkedIn"]
    for post in posts:
        assert post["status"] == "draft"
        assert post["author"] == {"id": post["author"]["id"], "name": "Marco Rossi"}
        assert post["origin"] == "social-publishing-api"
        for key in ("approval_requested_by", "approval_requested_at", "approved_by", "approved_at"):
            assert post[key] is None
        assert post["recurrence"] is None
        assert len(post["platforms"]) == 1
        account = post["platforms"][0]["social_account"]
        assert "is_active" not in account
        assert set(account) >= {
            "has_posting_schedule", "timezone", "posting_goal", "max_content_length",
            "long_posts", "verified_badge",
        }  # fmt: skip
    assert posts[0]["platforms"][0]["content_type"] == "x_post"
    assert posts[1]["platforms"][0]["platform"] == "linkedin"
    assert posts[1]["platforms"][0]["content_type"] == "linkedin_post"
    # The single-post read omits the batch-only fields again.
    single = api.get(f"/posts/{posts[0]['id']}").json()
    assert "post_group_id" not in single
    assert "is_active" in single["platforms"][0]["social_account"]


def test_created_as_draft_even_with_a_time(api: httpx.Client, sandbox: SandboxServer) -> None:
    response = _batch(
        api, {"content": "Hi", "scheduled_at": FUTURE, "destinations": [_dest(sandbox, "x")]}
    )
    post = response.json()["posts"][0]
    assert post["status"] == "draft"
    assert post["scheduled_at"] == FUTURE
    events = [e.event_type for e in sandbox.store.events(post_id=post["id"])]
    assert events == ["post.created"]


def test_scheduling_records_created_then_scheduled(
    api: httpx.Client, sandbox: SandboxServer
) -> None:
    response = _batch(
        api,
        {
            "status": "scheduled",
            "scheduled_at": FUTURE,
            "content": "Going out later",
            "destinations": [_dest(sandbox, "x"), _dest(sandbox, "linkedin")],
        },
    )
    assert response.status_code == 201
    for post in response.json()["posts"]:
        assert post["status"] == "scheduled"
        assert post["scheduled_at"] == FUTURE
        events = sandbox.store.events(post_id=post["id"])
        assert [e.event_type for e in events] == ["post.created", "post.scheduled"]
        assert events[0].payload["status"] == "draft"
        assert events[1].payload["status"] == "scheduled"
        payload = events[1].payload
        assert payload["scheduled_at"] == "2031-03-04T10:30:00+00:00"
        assert payload["created_via"] == "api"
        assert payload["workspace"]["name"] == "Northwind Coffee Co."
        assert (
            payload["platforms"][0]["social_account_id"]
            == post["platforms"][0]["social_account"]["id"]
        )


def test_scheduling_needs_a_time_or_a_queue(api: httpx.Client, sandbox: SandboxServer) -> None:
    response = _batch(
        api, {"status": "scheduled", "content": "x", "destinations": [_dest(sandbox, "x")]}
    )
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["scheduled_at"]
    assert sandbox.store.post_count() == 0


@pytest.mark.parametrize("value", ["2031-03-04T10:30:00Z", "2031-3-4 10:30:00", "tomorrow", 5])
def test_scheduled_at_format_is_y_m_d_h_i_s(
    api: httpx.Client, sandbox: SandboxServer, value: object
) -> None:
    response = _batch(
        api, {"content": "x", "scheduled_at": value, "destinations": [_dest(sandbox, "x")]}
    )
    assert response.status_code == 422
    assert response.json()["errors"]["scheduled_at"] == [
        "The scheduled at field must match the format Y-m-d H:i:s."
    ]


def test_cannot_schedule_in_the_past(api: httpx.Client, sandbox: SandboxServer) -> None:
    response = _batch(
        api,
        {
            "status": "scheduled",
            "scheduled_at": "2001-01-01 00:00:00",
            "content": "x",
            "destinations": [_dest(sandbox, "x")],
        },
    )
    assert response.status_code == 422
    assert "scheduled_at" in response.json()["errors"]


def test_required_meta_errors_per_destination(api: httpx.Client, sandbox: SandboxServer) -> None:
    response = _batch(
        api,
        {
            "status": "scheduled",
            "scheduled_at": FUTURE,
            "content": "Pin it",
            "destinations": [
                _dest(sandbox, "pinterest"),
                _dest(sandbox, "tiktok"),
                _dest(sandbox, "discord", meta={}),
                _dest(sandbox, "x"),
            ],
        },
    )
    assert response.status_code == 422
    body = response.json()
    assert body["errors"] == {
        "destinations.0.meta.board_id": ["The destinations.0.meta.board id field is required."],
        "destinations.1.meta.privacy_level": [
            "The destinations.1.meta.privacy level field is required."
        ],
        "destinations.2.meta.channel_id": ["The destinations.2.meta.channel id field is required."],
    }
    assert body["message"] == (
        "The destinations.0.meta.board id field is required. (and 2 more errors)"
    )
    assert sandbox.store.post_count() == 0


def test_required_meta_is_not_needed_for_drafts(api: httpx.Client, sandbox: SandboxServer) -> None:
    response = _batch(api, {"content": "Later", "destinations": [_dest(sandbox, "pinterest")]})
    assert response.status_code == 201


def test_valid_meta_schedules(api: httpx.Client, sandbox: SandboxServer) -> None:
    boards = api.get(f"/social-accounts/{sandbox.store.account_id('pinterest')}/boards").json()
    channels = api.get(f"/social-accounts/{sandbox.store.account_id('discord')}/channels").json()
    response = _batch(
        api,
        {
            "status": "scheduled",
            "scheduled_at": FUTURE,
            "content": "All set",
            "destinations": [
                _dest(sandbox, "pinterest", meta={"board_id": boards[0]["id"], "title": "T"}),
                _dest(sandbox, "tiktok", meta={"privacy_level": "SELF_ONLY"}),
                _dest(sandbox, "discord", meta={"channel_id": channels[1]["id"]}),
            ],
        },
    )
    assert response.status_code == 201, response.text
    metas = [p["platforms"][0]["meta"] for p in response.json()["posts"]]
    assert metas[0] == {"board_id": boards[0]["id"], "title": "T"}
    assert metas[1] == {"privacy_level": "SELF_ONLY"}


def test_meta_values_are_checked(api: httpx.Client, sandbox: SandboxServer) -> None:
    response = _batch(
        api,
        {
            "content": "x",
            "destinations": [
                _dest(sandbox, "pinterest", meta={"board_id": "no-such-board"}),
                _dest(sandbox, "tiktok", meta={"privacy_level": "EVERYONE"}),
                _dest(
                    sandbox,
                    "instagram-facebook",
                    content_type="instagram_reel",
                    meta={"audio": {"id": "abc123"}},
                ),
            ],
        },
    )
    assert response.status_code == 422
    assert set(response.json()["errors"]) == {
        "destinations.0.meta.board_id",
        "destinations.1.meta.privacy_level",
        "destinations.2.meta.audio.id",
    }


def test_shared_meta_is_validated_against_each_destination(
    api: httpx.Client, sandbox: SandboxServer
) -> None:
    response = _batch(
        api,
        {
            "content": "x",
            "meta": {"privacy_level": "NOPE"},
            "destinations": [_dest(sandbox, "x"), _dest(sandbox, "tiktok")],
        },
    )
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["destinations.1.meta.privacy_level"]


def test_audio_id_of_digits_is_accepted(api: httpx.Client, sandbox: SandboxServer) -> None:
    response = _batch(
        api,
        {
            "content": "Reel",
            "destinations": [
                _dest(
                    sandbox,
                    "instagram-facebook",
                    content_type="instagram_reel",
                    meta={"audio": {"id": "908172630001"}},
                )
            ],
        },
    )
    assert response.status_code == 201
    assert response.json()["posts"][0]["platforms"][0]["meta"]["audio"]["id"] == "908172630001"


def test_unknown_account_and_wrong_content_type(api: httpx.Client, sandbox: SandboxServer) -> None:
    other_account = sandbox.store.accounts(sandbox.other_workspace_id)[0]["id"]
    response = _batch(
        api,
        {
            "content": "x",
            "destinations": [
                {"social_account_id": "00000000-0000-4000-8000-000000000000"},
                {"social_account_id": other_account},
                _dest(sandbox, "x", content_type="instagram_reel"),
                _dest(sandbox, "instagram", content_type="x_post"),
                {},
            ],
        },
    )
    assert response.status_code == 422
    errors = response.json()["errors"]
    assert errors["destinations.0.social_account_id"] == [
        "The selected destinations.0.social account id is invalid."
    ]
    assert "destinations.1.social_account_id" in errors
    assert "destinations.2.content_type" in errors
    assert "destinations.3.content_type" in errors
    assert errors["destinations.4.social_account_id"] == [
        "The destinations.4.social account id field is required."
    ]


@pytest.mark.parametrize(
    ("platform", "content_type"),
    [
        ("instagram", "instagram_story"),
        ("instagram-facebook", "instagram_post"),
        ("pinterest", "pinterest_pin"),
        ("linkedin", "linkedin_post"),
    ],
)
def test_content_types_fit_their_network(
    api: httpx.Client, sandbox: SandboxServer, platform: str, content_type: str
) -> None:
    response = _batch(
        api, {"content": "x", "destinations": [_dest(sandbox, platform, content_type=content_type)]}
    )
    assert response.status_code == 201
    assert response.json()["posts"][0]["platforms"][0]["content_type"] == content_type


def test_destinations_are_required(api: httpx.Client) -> None:
    bodies: list[dict[str, Any]] = [{}, {"destinations": []}, {"destinations": "x"}]
    for body in bodies:
        response = _batch(api, body)
        assert response.status_code == 422
        assert "destinations" in response.json()["errors"]


def test_queue_slot_is_rejected(api: httpx.Client, sandbox: SandboxServer) -> None:
    response = _batch(
        api,
        {
            "content": "x",
            "queue_slot": "2031-01-01 09:00:00",
            "destinations": [_dest(sandbox, "x")],
        },
    )
    assert response.status_code == 422
    assert response.json()["errors"] == {"queue_slot": ["The queue slot field is prohibited."]}


def test_schedule_needs_text_or_media(api: httpx.Client, sandbox: SandboxServer) -> None:
    response = _batch(
        api,
        {"status": "scheduled", "scheduled_at": FUTURE, "destinations": [_dest(sandbox, "x")]},
    )
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["destinations.0.content"]
    # A draft may be empty.
    assert _batch(api, {"destinations": [_dest(sandbox, "x")]}).status_code == 201


def test_invalid_status_and_queue_values(api: httpx.Client, sandbox: SandboxServer) -> None:
    response = _batch(
        api,
        {"status": "published", "queue": "later", "content": "x",
         "destinations": [_dest(sandbox, "x")]},
    )  # fmt: skip
    assert response.status_code == 422
    assert set(response.json()["errors"]) == {"status", "queue"}


def test_labels_apply_to_every_post(api: httpx.Client, sandbox: SandboxServer) -> None:
    label = sandbox.store.create_label("Launch", "#abcdef")
    response = _batch(
        api,
        {
            "content": "x",
            "labels": [label],
            "destinations": [_dest(sandbox, "x"), _dest(sandbox, "linkedin")],
        },
    )
    assert [p["labels"][0]["id"] for p in response.json()["posts"]] == [label, label]
    bad = _batch(api, {"content": "x", "labels": ["nope"], "destinations": [_dest(sandbox, "x")]})
    assert bad.status_code == 422
    assert list(bad.json()["errors"]) == ["labels.0"]


def test_media_by_upload_token_gives_each_post_its_own_copy(
    api: httpx.Client, sandbox: SandboxServer
) -> None:
    upload = api.post(
        "/uploads", files={"file": ("beans.png", b"\x89PNG\r\n\x1a\nnot-really", "image/png")}
    ).json()
    response = _batch(
        api,
        {
            "content": "Look",
            "media": [{"upload_token": upload["upload_token"], "alt": "Coffee beans"}],
            "destinations": [_dest(sandbox, "x"), _dest(sandbox, "instagram-facebook")],
        },
    )
    assert response.status_code == 201
    media = [p["media"][0] for p in response.json()["posts"]]
    assert media[0]["id"] != media[1]["id"]
    for item in media:
        assert item["type"] == "image"
        assert item["mime_type"] == "image/png"
        assert item["original_filename"] == "beans.png"
        assert item["path"] == f"medias/{item['id']}.png"
        assert item["url"].endswith(item["path"])
        assert item["size"] == len(b"\x89PNG\r\n\x1a\nnot-really")
        assert item["meta"]["alt_text"] == "Coffee beans"
    file = httpx.get(media[0]["url"], trust_env=False)
    assert file.status_code == 200
    assert file.content == b"\x89PNG\r\n\x1a\nnot-really"

    bad = _batch(
        api,
        {
            "media": [{"upload_token": "upl_unknown"}],
            "destinations": [_dest(sandbox, "x", media=[{}])],
        },
    )
    assert bad.status_code == 422
    assert set(bad.json()["errors"]) == {
        "media.0.upload_token",
        "destinations.0.media.0.upload_token",
    }


def test_media_alone_is_enough_to_schedule(api: httpx.Client, sandbox: SandboxServer) -> None:
    token = api.post("/uploads", files={"file": ("a.mp4", b"video", "video/mp4")}).json()[
        "upload_token"
    ]
    response = _batch(
        api,
        {
            "status": "scheduled",
            "scheduled_at": FUTURE,
            "destinations": [_dest(sandbox, "x", media=[{"upload_token": token}])],
        },
    )
    assert response.status_code == 201
    assert response.json()["posts"][0]["media"][0]["type"] == "video"


# -- queue --------------------------------------------------------------------------------

# A Wednesday; the x account's queue (America/New_York) has 08:30, 12:15 and 17:45 daily.
QUEUE_NOW = datetime(2030, 1, 2, 15, 0, tzinfo=UTC)  # 10:00 in New York


@pytest.fixture
def queue_sandbox(tmp_path: Any) -> Any:
    with SandboxServer(tmp_path / "q.db", now=ManualClock(QUEUE_NOW)) as server:
        yield server


def _queue(server: SandboxServer, mode: str, text: str) -> dict[str, Any]:
    with httpx.Client(
        base_url=server.base_url,
        headers={"Authorization": f"Bearer {server.keys.admin}"},
        trust_env=False,
    ) as client:
        response = client.post(
            "/posts/batch",
            json={"queue": mode, "content": text, "destinations": [_dest(server, "x")]},
        )
        assert response.status_code == 201, response.text
        post: dict[str, Any] = response.json()["posts"][0]
        return post


def test_queue_next_takes_the_next_free_slots(queue_sandbox: SandboxServer) -> None:
    first = _queue(queue_sandbox, "next", "one")
    second = _queue(queue_sandbox, "next", "two")
    third = _queue(queue_sandbox, "next", "three")
    assert first["status"] == "scheduled"
    assert first["schedule_mode"] == "queue"
    # 12:15, 17:45 New York (EST, UTC-5) today, then 08:30 tomorrow.
    assert [first["scheduled_at"], second["scheduled_at"], third["scheduled_at"]] == [
        "2030-01-02 17:15:00",
        "2030-01-02 22:45:00",
        "2030-01-03 13:30:00",
    ]
    events = [e.event_type for e in queue_sandbox.store.events(post_id=first["id"])]
    assert events == ["post.created", "post.scheduled"]


def test_queue_next_skips_slots_held_by_fixed_time_posts(queue_sandbox: SandboxServer) -> None:
    queue_sandbox.store.insert_posts(
        1,
        account_id=queue_sandbox.store.account_id("x"),
        status="scheduled",
        scheduled_at=datetime(2030, 1, 2, 17, 15, tzinfo=UTC),
    )
    assert _queue(queue_sandbox, "next", "one")["scheduled_at"] == "2030-01-02 22:45:00"


def test_queue_top_goes_first_and_pushes_the_queue_back(queue_sandbox: SandboxServer) -> None:
    one = _queue(queue_sandbox, "next", "one")
    two = _queue(queue_sandbox, "next", "two")
    top = _queue(queue_sandbox, "top", "urgent")
    assert top["scheduled_at"] == "2030-01-02 17:15:00"
    store = queue_sandbox.store
    one_after, two_after = store.post(one["id"]), store.post(two["id"])
    assert one_after is not None
    assert two_after is not None
    assert one_after["scheduled_at"] == "2030-01-02 22:45:00"
    assert two_after["scheduled_at"] == "2030-01-03 13:30:00"
    # Moving within the queue is an edit: no extra events for the displaced posts.
    assert [e.event_type for e in store.events(post_id=one["id"])] == [
        "post.created",
        "post.scheduled",
    ]


def test_queue_needs_the_required_meta_too(queue_sandbox: SandboxServer) -> None:
    with httpx.Client(
        base_url=queue_sandbox.base_url,
        headers={"Authorization": f"Bearer {queue_sandbox.keys.admin}"},
        trust_env=False,
    ) as client:
        response = client.post(
            "/posts/batch",
            json={
                "queue": "next",
                "content": "x",
                "destinations": [_dest(queue_sandbox, "pinterest")],
            },
        )
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["destinations.0.meta.board_id"]


def test_malformed_json_body(api: httpx.Client) -> None:
    response = api.post(
        "/posts/batch", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400
    assert set(response.json()) == {"message"}
    response = api.post("/posts/batch", json=[1, 2])
    assert response.status_code == 400


def test_clock_now_is_used_for_timestamps(queue_sandbox: SandboxServer) -> None:
    post = _queue(queue_sandbox, "next", "one")
    assert post["created_at"] == "2030-01-02 15:00:00"
    assert datetime.strptime(post["scheduled_at"], "%Y-%m-%d %H:%M:%S").replace(
        tzinfo=UTC
    ) - QUEUE_NOW < timedelta(hours=3)
