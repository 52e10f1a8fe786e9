"""The workspace the odd server serves: seed data and the rules of spec §2-§4, in memory.

Written from `docs/social-publishing-api.md` alone (no code from `app/`), so that the app can be
tried against a server whose author read the spec independently. Stdlib only.
"""

from __future__ import annotations

import re
import secrets
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

REST_FORMAT = "%Y-%m-%d %H:%M:%S"
POST_STATUSES = ("draft", "scheduled", "publishing", "published", "partially_published", "failed")
EVENTS = (
    "post.created",
    "post.scheduled",
    "post.unscheduled",
    "post.published",
    "post.partially_published",
    "post.failed",
    "post.deleted",
)
PUBLISH_SECONDS = 3.0  # how long a post stays `publishing` before its outcome

CONTENT_TYPES: dict[str, tuple[str, ...]] = {
    "discord": ("discord_message",),
    "facebook": ("facebook_post",),
    "instagram": ("instagram_post", "instagram_reel"),
    "instagram-facebook": ("instagram_post", "instagram_reel", "instagram_story"),
    "linkedin": ("linkedin_post",),
    "mastodon": ("mastodon_post",),
    "pinterest": ("pinterest_pin",),
    "tiktok": ("tiktok_video",),
    "x": ("x_post",),
}
REQUIRED_META: dict[str, tuple[str, ...]] = {
    "pinterest": ("board_id",),
    "tiktok": ("privacy_level",),
    "discord": ("channel_id",),
}


class Invalid(Exception):
    """A 422: Laravel's `{message, errors}` with field paths as keys."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        first = next(iter(errors.values()))[0]
        more = sum(len(v) for v in errors.values()) - 1
        message = first if not more else f"{first} (and {more} more error{'s' * (more > 1)})"
        super().__init__(message)
        self.message = message
        self.errors = errors


class Missing(Exception):
    """A 404."""


def rest_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime(REST_FORMAT)


def iso_time(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def new_id() -> str:
    return str(uuid.uuid4())


def blank(value: Any) -> bool:
    """Laravel: absent, null, or a string that is empty after trimming."""
    return value is None or (isinstance(value, str) and not value.strip())


def parse_rest_time(value: Any, key: str) -> datetime:
    try:
        if not isinstance(value, str):
            raise ValueError
        return datetime.strptime(value.strip(), REST_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        raise Invalid({key: [f"The {key} field must match the format Y-m-d H:i:s."]}) from None


@dataclass
class World:
    """Everything one workspace holds; callers hold `lock` of the server around each call."""

    hostile: bool = False
    now: Any = field(default=lambda: datetime.now(UTC))
    accounts: list[dict[str, Any]] = field(default_factory=list)
    labels: list[dict[str, Any]] = field(default_factory=list)
    signatures: list[dict[str, Any]] = field(default_factory=list)
    posts: dict[str, dict[str, Any]] = field(default_factory=dict)
    publishing_since: dict[str, datetime] = field(default_factory=dict)
    webhooks: list[dict[str, Any]] = field(default_factory=list)
    logs: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    repurposes: list[dict[str, Any]] = field(default_factory=list)
    repurpose_items: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    audio: list[dict[str, Any]] = field(default_factory=list)

    # ---- seed -------------------------------------------------------------------------------
    @classmethod
    def seeded(cls, *, hostile: bool = False, posts: int = 60) -> World:
        world = cls(hostile=hostile)
        world._seed_accounts()
        world._seed_labels()
        world._seed_signatures()
        world._seed_posts(posts)
        world._seed_webhooks()
        world._seed_repurposes()
        world._seed_audio()
        if hostile:
            world._make_hostile()
        return world

    def _seed_accounts(self) -> None:
        rows = [
            ("discord", "Odd Bakery Discord", "oddbakery#announcements", "connected"),
            ("facebook", "Odd Bakery", "oddbakery.fb", "token_expired"),
            ("instagram-facebook", "Odd Bakery", "odd.bakery", "connected"),
            ("linkedin", "Ines Oddsen", "ines-oddsen", "connected"),
            ("mastodon", "Odd Bakery", "@odd@bakers.social", "connected"),
            ("pinterest", "Odd Bakery Boards", "oddbakery", "connected"),
            ("tiktok", "oddbakery", "oddbakery", "disconnected"),
            ("x", "Odd Bakery", "oddbakery", "connected"),
        ]
        for platform, name, handle, status in rows:
            self.accounts.append(
                {
                    "id": new_id(),
                    "platform": platform,
                    "display_name": name,
                    "username": handle,
                    "is_active": status == "connected",
                    "status": status,
                }
            )

    def _seed_labels(self) -> None:
        start = self.now() - timedelta(days=40)
        for n, (name, color) in enumerate(
            [
                ("Launch", "#E4572E"),
                ("Seasonal", "#17BEBB"),
                ("Evergreen", "#76B041"),
                ("Promo", "#FFC914"),
                ("Recruiting", "#2E282A"),
            ]
        ):
            when = rest_time(start + timedelta(days=n))
            self.labels.insert(
                0,
                {
                    "id": new_id(),
                    "name": name,
                    "color": color,
                    "created_at": when,
                    "updated_at": when,
                },
            )

    def _seed_signatures(self) -> None:
        start = self.now() - timedelta(days=30)
        for n in range(14):
            when = rest_time(start + timedelta(hours=n * 7))
            self.signatures.insert(
                0,
                {
                    "id": new_id(),
                    "name": f"Sign-off {n + 1}",
                    "content": f"— The Odd Bakery team #{n + 1}\nhttps://odd.example/bakery",
                    "created_at": when,
                    "updated_at": when,
                },
            )

    def _seed_posts(self, count: int) -> None:
        now = self.now().replace(minute=0, second=0, microsecond=0)
        texts = [
            "Sourdough Saturday is back. Doors open at 7.",
            "Meet our new pastry chef, Ana!",
            "Cardamom buns, today only.",
            "We're hiring a morning baker.\nApply in store or by mail.",
            "Behind the scenes: 4 a.m. at the ovens.",
        ]
        for n in range(count):
            account = self.accounts[n % len(self.accounts)]
            offset = timedelta(days=(n * 37) % 61 - 30, hours=(n * 5) % 11 + 7)
            when = now + offset
            if n % 9 == 0:
                status, scheduled = "draft", None
            elif when > now:
                status, scheduled = ("draft" if n % 4 == 0 else "scheduled"), when
            else:
                status = ("published", "published", "failed", "partially_published")[n % 4]
                scheduled = when
            post = self._post(
                content=f"{texts[n % len(texts)]} ({n + 1})",
                account=account,
                status=status,
                scheduled_at=scheduled,
                created=now - timedelta(days=45) + timedelta(hours=n),
                labels=[self.labels[n % len(self.labels)]] if n % 3 else [],
            )
            if status == "partially_published":
                # two platforms, one failed: only multi-destination posts can be partial
                other = self.accounts[(n + 3) % len(self.accounts)]
                post["platforms"].append(self._platform(other, "failed", scheduled))
            self.posts[post["id"]] = post

    def _platform(
        self, account: dict[str, Any], status: str, when: datetime | None
    ) -> dict[str, Any]:
        platform = account["platform"]
        meta: dict[str, Any] = {}
        if platform == "pinterest":
            meta = {"board_id": "998877", "title": "Fresh bread", "link": None}
        elif platform == "tiktok":
            meta = {"privacy_level": "PUBLIC_TO_EVERYONE"}
        elif platform == "discord":
            meta = {"channel_id": "1122334455"}
        published = status == "published"
        return {
            "id": new_id(),
            "platform": platform,
            "content_type": CONTENT_TYPES[platform][0],
            "meta": meta,
            "status": status,
            "enabled": True,
            "platform_url": f"https://{platform}.example/p/{uuid.uuid4().hex[:10]}"
            if published
            else None,
            "published_at": rest_time(when) if published and when else None,
            "error_message": "The network refused the post: account token expired."
            if status == "failed"
            else None,
            "display_name": account["display_name"],
            "display_username": account["username"],
            "display_avatar": None,
            "social_account": dict(account),
        }

    def _post(
        self,
        *,
        content: str | None,
        account: dict[str, Any],
        status: str,
        scheduled_at: datetime | None,
        created: datetime,
        labels: list[dict[str, Any]],
    ) -> dict[str, Any]:
        platform_status = {
            "published": "published",
            "failed": "failed",
            "partially_published": "published",
        }.get(status, "pending")
        published_at = rest_time(scheduled_at) if status == "published" and scheduled_at else None
        return {
            "id": new_id(),
            "content": content,
            "media": [],
            "status": status,
            "schedule_mode": None,
            "scheduled_at": rest_time(scheduled_at) if scheduled_at else None,
            "published_at": published_at,
            "platforms": [self._platform(account, platform_status, scheduled_at)],
            "labels": [dict(label) for label in labels],
            "created_at": rest_time(created),
            "updated_at": rest_time(created),
        }

    def _seed_webhooks(self) -> None:
        now = self.now()
        specs = [
            ("https://hooks.odd.example/postdesk", "enabled", 0, None, 40),
            ("https://flaky.odd.example/in", "paused", 5, now - timedelta(hours=5), 12),
            ("https://old.odd.example/hook", "disabled", 0, None, 3),
        ]
        for n, (endpoint, status, failures, paused, log_count) in enumerate(specs):
            created = now - timedelta(days=20 - n)
            hook = {
                "id": new_id(),
                "endpoint": endpoint,
                "events": list(EVENTS[:4]) if n else list(EVENTS),
                "status": status,
                "last_sent_at": None,
                "paused_at": iso_time(paused) if paused else None,
                "consecutive_failures": failures,
                "signing_secret": "whsec_" + secrets.token_hex(16),
                "created_at": iso_time(created),
                "updated_at": iso_time(created),
            }
            logs = [self._log(hook, now - timedelta(hours=3 * k), k) for k in range(log_count)]
            delivered = [log["delivered_at"] for log in logs if log["delivered_at"]]
            hook["last_sent_at"] = delivered[0] if delivered else None
            self.webhooks.insert(0, hook)
            self.logs[hook["id"]] = logs

    def _log(self, hook: dict[str, Any], when: datetime, k: int) -> dict[str, Any]:
        ok = hook["status"] != "paused" and k % 6 != 1
        log_id = new_id()
        post = next(iter(self.posts.values()))
        event = EVENTS[k % 6]
        return {
            "id": log_id,
            "event_type": event,
            "payload": {
                "id": log_id,
                "type": event,
                "data": {"id": post["id"], "status": post["status"], "content": post["content"]},
                "created_at": iso_time(when),
            },
            "response_status": 200 if ok else 500,
            "response_body": '{"ok":true}' if ok else "Internal Server Error",
            "delivered_at": iso_time(when) if ok else None,
            "failed_at": None if ok else iso_time(when),
            "attempts": 1 if ok else 3,
            "created_at": iso_time(when),
        }

    def _seed_repurposes(self) -> None:
        now = self.now()
        rep = {"id": new_id(), "name": "TikTok → Reels", "created_at": iso_time(now)}
        self.repurposes.append(rep)
        statuses = ("published", "drafted", "skipped", "failed", "pending", "processing")
        reasons = {"skipped": "published_via_service", "failed": "download_failed"}
        items = []
        for k in range(30):
            when = now - timedelta(hours=7 * k)
            status = statuses[k % len(statuses)]
            items.append(
                {
                    "id": new_id(),
                    "repurpose_id": rep["id"],
                    "source_media_id": str(7_000_000_000 + k),
                    "source_permalink": f"https://tiktok.example/@oddbakery/video/{k}",
                    "source_created_at": iso_time(when),
                    "status": status,
                    "reason": reasons.get(status),
                    "error": "HTTP 403 while downloading [redacted]"
                    if status == "failed"
                    else None,
                    "posts": [
                        {
                            "id": new_id(),
                            "platforms": [{"platform": "instagram", "status": "published"}],
                        }
                    ]
                    if status in ("published", "drafted")
                    else [],
                    "created_at": iso_time(when),
                    "updated_at": iso_time(when),
                }
            )
        self.repurpose_items[rep["id"]] = items

    def _seed_audio(self) -> None:
        rows = [
            ("music", "Morning Dough", "The Proofers", 143_000),
            ("music", "Crème Brûlée", "Élodie Sucre", 201_000),
            ("music", "Rise and Shine", "Yeast Coast", 98_000),
            ("music", "Knead You Now", "The Proofers", 187_000),
            ("original_sound", "original sound - odd.bakery", "odd.bakery", 15_000),
            ("original_sound", "oven timer asmr", "crumbqueen", None),
        ]
        for n, (kind, title, artist, duration) in enumerate(rows):
            self.audio.append(
                {
                    "id": str(180_000_000_000 + n),
                    "type": kind,
                    "title": title,
                    "artist": artist,
                    "cover_url": f"https://cdn.odd.example/cover/{n}.jpg?exp=1",
                    "duration_ms": duration,
                    "preview_url": f"https://cdn.odd.example/preview/{n}.mp3?exp=1",
                }
            )

    def _make_hostile(self) -> None:
        """Nulls where the spec promises values, unknown enum values, scripts, huge text."""
        self.labels[1]["name"] = None
        self.labels[2]["color"] = "tomato"
        posts = list(self.posts.values())
        posts[3]["status"] = None
        posts[4]["status"] = "archived"
        posts[5]["content"] = (
            '<script>alert("pwned")</script><img src="http://127.0.0.1:9/track.png" '
            'onerror="alert(1)"><b>Bold</b> &amp; <a href="javascript:alert(2)">click</a>'
        )
        posts[6]["content"] = ("Very long post. " * 700)[:10_000]
        posts[7]["content"] = "🥐☕️👩‍👩‍👧‍👦 מאפייה 面包店 ‮reversed‬ \u200b zero-width 🇫🇷"
        posts[8]["platforms"][0]["platform"] = "myspace"
        posts[8]["platforms"][0]["status"] = "queued"
        posts[9]["platforms"][0]["social_account"] = None
        posts[10]["scheduled_at"] = "2026-13-45 25:61:00"
        posts[11]["labels"] = [{"id": new_id(), "name": None, "color": None}]
        posts[12]["platforms"] = []
        posts[13]["media"] = [
            {
                "id": "m-1",
                "path": "medias/m-1.jpg",
                "url": "http://127.0.0.1:9/never.jpg",
                "type": "hologram",
                "mime_type": "image/jpeg",
                "original_filename": "../../etc/passwd",
            }
        ]
        posts[14]["surprise"] = {"nested": [1, 2, 3]}
        self.accounts[0]["status"] = "suspended"
        self.accounts[1]["display_name"] = None
        self.signatures[0]["content"] = None
        self.webhooks[0]["status"] = "throttled"
        self.webhooks[1]["events"] = ["post.created", "post.exploded"]
        first_logs = self.logs[self.webhooks[0]["id"]]
        first_logs[0]["response_body"] = "<html>" + "A" * 200_000 + "</html>"
        first_logs[1]["response_status"] = None
        first_logs[2]["payload"] = None
        self.audio[0]["title"] = None
        self.audio[1]["type"] = "ringtone"
        self.audio[2]["duration_ms"] = -5
        items = next(iter(self.repurpose_items.values()))
        items[0]["status"] = "exploded"
        items[1]["reason"] = "cosmic_rays"

    def make_nulls(self) -> None:
        """One bad field per post, as a real server sent them (issue 14 §5): a label with a null
        name carried by 7 posts (a pending-approval post and an undated draft among them),
        one post with a null status, and nulls inside others: a network entry's platform and
        `enabled`, a media item's id, a null `platforms`, `media` and `labels`. None of them
        lacks an id, so a client that reads them well shows every post."""
        nameless = self.labels[0]
        nameless["name"] = None
        for post in self.posts.values():
            post["labels"] = [lb for lb in post["labels"] if lb.get("id") != nameless["id"]]
        posts = list(self.posts.values())
        undated = next(p for p in posts if p["status"] == "draft" and not p["scheduled_at"])
        dated = [p for p in posts if p["scheduled_at"] and p is not undated]
        pending = next(p for p in dated if p["status"] == "scheduled")
        pending["status"] = "pending_approval"
        for post in [pending, undated, *[p for p in dated if p is not pending][:5]]:
            post["labels"].append(dict(nameless))
        rest = [p for p in dated if not any(lb["id"] == nameless["id"] for lb in p["labels"])]
        rest[0]["status"] = None
        rest[1]["platforms"][0].update(platform=None, status=None, enabled=None)
        rest[2]["media"] = [
            {"id": None, "url": "https://cdn.odd.example/medias/lost.jpg", "type": "image"},
            {
                "id": new_id(),
                "path": "medias/kept.jpg",
                "url": "https://cdn.odd.example/medias/kept.jpg",
                "type": "image",
                "mime_type": "image/jpeg",
                "original_filename": "kept.jpg",
                "size": None,
                "meta": None,
            },
        ]
        rest[3]["platforms"] = None
        rest[4]["media"] = None
        rest[5]["labels"] = None
        rest[6]["platforms"][0]["social_account"] = None

    # ---- reads ------------------------------------------------------------------------------
    def advance(self) -> None:
        """Due scheduled posts start publishing; publishing posts finish after a few seconds."""
        now = self.now()
        for post in self.posts.values():
            if post["status"] == "scheduled" and post["scheduled_at"]:
                try:
                    due = parse_rest_time(post["scheduled_at"], "scheduled_at") <= now
                except Invalid:
                    due = False
                if due:
                    self._start_publishing(post)
            if post["status"] == "publishing":
                since = self.publishing_since.setdefault(post["id"], now)
                if (now - since).total_seconds() >= PUBLISH_SECONDS:
                    self._finish_publishing(post)

    def _start_publishing(self, post: dict[str, Any]) -> None:
        post["status"] = "publishing"
        self.publishing_since[post["id"]] = self.now()
        for entry in post["platforms"]:
            if entry.get("enabled"):
                entry["status"] = "publishing"

    def _finish_publishing(self, post: dict[str, Any]) -> None:
        now = self.now()
        outcomes = []
        for entry in post["platforms"]:
            if not entry.get("enabled"):
                continue
            account = self._account_or_none(entry.get("social_account") or {})
            if account and account["status"] == "connected" and account["is_active"]:
                entry.update(
                    status="published",
                    published_at=rest_time(now),
                    platform_url=f"https://{entry['platform']}.example/p/{uuid.uuid4().hex[:10]}",
                    error_message=None,
                )
                outcomes.append(True)
            else:
                entry.update(status="failed", error_message="The account is not connected.")
                outcomes.append(False)
        if outcomes and all(outcomes):
            post.update(status="published", published_at=rest_time(now))
        elif any(outcomes):
            post["status"] = "partially_published"
        else:
            post["status"] = "failed"
        post["updated_at"] = rest_time(now)
        self.publishing_since.pop(post["id"], None)

    def _account_or_none(self, ref: dict[str, Any]) -> dict[str, Any] | None:
        return next((a for a in self.accounts if a["id"] == ref.get("id")), None)

    def account(self, account_id: str) -> dict[str, Any]:
        found = next((a for a in self.accounts if a["id"] == account_id), None)
        if found is None:
            raise Missing
        return found

    def sorted_accounts(self) -> list[dict[str, Any]]:
        return sorted(self.accounts, key=lambda a: str(a["platform"]))

    def sorted_posts(self) -> list[dict[str, Any]]:
        """Newest `scheduled_at` first; undated drafts last (by creation, newest first)."""
        dated = [p for p in self.posts.values() if p["scheduled_at"]]
        undated = [p for p in self.posts.values() if not p["scheduled_at"]]
        dated.sort(key=lambda p: str(p["scheduled_at"]), reverse=True)
        undated.sort(key=lambda p: str(p["created_at"]), reverse=True)
        return dated + undated

    def post(self, post_id: str) -> dict[str, Any]:
        if post_id not in self.posts:
            raise Missing
        return self.posts[post_id]

    # ---- post writes ------------------------------------------------------------------------
    def update_post(self, post_id: str, body: dict[str, Any]) -> dict[str, Any]:
        post = self.post(post_id)
        errors: dict[str, list[str]] = {}
        content = post["content"]
        if "content" in body:
            content = None if blank(body["content"]) else body["content"]
            if content is not None and not isinstance(content, str):
                errors["content"] = ["The content field must be a string."]
        scheduled = post["scheduled_at"]
        if "scheduled_at" in body:
            if blank(body["scheduled_at"]):
                scheduled = None
            else:
                try:
                    moment = parse_rest_time(body["scheduled_at"], "scheduled_at")
                    if moment <= self.now():
                        errors["scheduled_at"] = [
                            "The scheduled at field must be a date after now."
                        ]
                    scheduled = rest_time(moment)
                except Invalid as invalid:
                    errors.update(invalid.errors)
        status = post["status"]
        wanted = body.get("status")
        if wanted is not None and wanted != status:
            allowed = {
                ("draft", "scheduled"),
                ("draft", "publishing"),
                ("scheduled", "draft"),
                ("scheduled", "publishing"),
                ("failed", "draft"),
            }
            if wanted not in POST_STATUSES:
                errors["status"] = ["The selected status is invalid."]
            elif (status, wanted) not in allowed:
                errors["status"] = [f"A {status} post cannot be moved to {wanted}."]
            elif wanted == "scheduled" and not scheduled:
                errors["scheduled_at"] = [
                    "The scheduled at field is required when status is scheduled."
                ]
            status = wanted
        labels = post["labels"]
        if "labels" in body:
            labels = []
            for n, label_id in enumerate(body["labels"] or []):
                found = next((lb for lb in self.labels if lb["id"] == label_id), None)
                if found is None:
                    errors[f"labels.{n}"] = [f"The selected labels.{n} is invalid."]
                else:
                    labels.append(dict(found))
        platform_changes = []
        for n, change in enumerate(body.get("platforms") or []):
            entry = next((e for e in post["platforms"] if e["id"] == change.get("id")), None)
            if entry is None:
                errors[f"platforms.{n}.id"] = [f"The selected platforms.{n}.id is invalid."]
            else:
                platform_changes.append((entry, change))
        changing = status in ("scheduled", "publishing") and status != post["status"]
        if changing and blank(content) and not post["media"]:
            errors["content"] = ["The content field is required to schedule or publish."]
        if errors:
            raise Invalid(errors)
        for entry, change in platform_changes:
            for key in ("enabled", "content_type", "meta"):
                if key in change:
                    entry[key] = change[key]
        post.update(
            content=content, scheduled_at=scheduled, labels=labels, updated_at=rest_time(self.now())
        )
        if status != post["status"]:
            if status == "publishing":
                self._start_publishing(post)
            else:
                post["status"] = status
                if status == "draft":
                    post["schedule_mode"] = None
                    for entry in post["platforms"]:
                        entry.update(status="pending", error_message=None)
        return post

    def delete_post(self, post_id: str) -> None:
        self.post(post_id)
        del self.posts[post_id]

    def create_batch(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        errors: dict[str, list[str]] = {}
        status = body.get("status") or "draft"
        if status not in ("draft", "scheduled", "publishing"):
            errors["status"] = ["The selected status is invalid."]
        if "queue_slot" in body:
            errors["queue_slot"] = ["The queue slot field is prohibited."]
        queue = None if blank(body.get("queue")) else body.get("queue")
        if queue is not None and queue not in ("next", "top"):
            errors["queue"] = ["The selected queue is invalid."]
        scheduled: datetime | None = None
        if status == "scheduled" and queue is None:
            if blank(body.get("scheduled_at")):
                errors["scheduled_at"] = [
                    "The scheduled at field is required when status is scheduled."
                ]
            else:
                try:
                    scheduled = parse_rest_time(body["scheduled_at"], "scheduled_at")
                    if scheduled <= self.now():
                        errors["scheduled_at"] = [
                            "The scheduled at field must be a date after now."
                        ]
                except Invalid as invalid:
                    errors.update(invalid.errors)
        shared = None if blank(body.get("content")) else body.get("content")
        shared_media = body.get("media") or []
        destinations = body.get("destinations")
        if not isinstance(destinations, list) or not destinations:
            errors["destinations"] = ["The destinations field is required."]
            destinations = []
        plans = []
        for n, dest in enumerate(destinations):
            key = f"destinations.{n}"
            if not isinstance(dest, dict):
                errors[key] = [f"The {key} field must be an object."]
                continue
            account = next(
                (a for a in self.accounts if a["id"] == dest.get("social_account_id")), None
            )
            if account is None:
                errors[f"{key}.social_account_id"] = [
                    f"The selected {key}.social_account_id is invalid."
                ]
                continue
            content_type = dest.get("content_type")
            if blank(content_type):
                errors[f"{key}.content_type"] = [f"The {key}.content_type field is required."]
            elif content_type not in CONTENT_TYPES.get(account["platform"], ()):
                errors[f"{key}.content_type"] = [
                    f"The {key}.content_type is not available on {account['platform']}."
                ]
            text = shared if blank(dest.get("content")) else dest.get("content")
            media = dest.get("media") if dest.get("media") else shared_media
            meta = dest.get("meta") or {}
            if not isinstance(meta, dict):
                errors[f"{key}.meta"] = [f"The {key}.meta field must be an object."]
                meta = {}
            if status != "draft":
                if blank(text) and not media:
                    errors[f"{key}.content"] = [
                        f"The {key}.content field is required when there is no media."
                    ]
                for required in REQUIRED_META.get(account["platform"], ()):
                    if blank(meta.get(required)):
                        errors[f"{key}.meta.{required}"] = [
                            f"The {key}.meta.{required} field is required."
                        ]
            audio = meta.get("audio")
            if audio is not None and not re.fullmatch(r"[0-9]+", str((audio or {}).get("id", ""))):
                errors[f"{key}.meta.audio.id"] = [f"The {key}.meta.audio.id format is invalid."]
            plans.append((account, content_type, text, media, meta))
        if errors:
            raise Invalid(errors)
        group = new_id()
        now = self.now()
        created = []
        for n, (account, content_type, text, media, meta) in enumerate(plans):
            when = scheduled
            if queue is not None:
                when = (now + timedelta(hours=1 + n)).replace(minute=0, second=0, microsecond=0)
            post = self._post(
                content=text,
                account=account,
                status="draft",
                scheduled_at=when if status == "scheduled" else None,
                created=now,
                labels=[],
            )
            entry = post["platforms"][0]
            entry.update(content_type=content_type, meta=meta)
            post["media"] = [
                {
                    "id": new_id(),
                    "path": f"medias/{n}.jpg",
                    "url": f"https://cdn.odd.example/medias/{n}.jpg",
                    "type": "image",
                    "mime_type": "image/jpeg",
                    "original_filename": f"upload-{n}.jpg",
                    "size": 1234,
                    "meta": {"alt_text": m.get("alt") if isinstance(m, dict) else None},
                }
                for m in media
            ]
            if status == "scheduled":
                post["status"] = "scheduled"
                post["schedule_mode"] = "queue" if queue else None
            self.posts[post["id"]] = post
            if status == "publishing":
                self._start_publishing(post)
            created.append(self._batch_shape(post, group))
        return created

    def _batch_shape(self, post: dict[str, Any], group: str) -> dict[str, Any]:
        shaped = dict(post)
        shaped.update(
            post_group_id=group,
            author={"id": new_id(), "name": "API key owner"},
            approval_requested_by=None,
            approval_requested_at=None,
            approved_by=None,
            approved_at=None,
            recurrence=None,
            origin="social-publishing",
        )
        platforms = []
        for entry in post["platforms"]:
            entry_copy = dict(entry)
            account = dict(entry["social_account"])
            account.pop("is_active", None)
            account.update(
                has_posting_schedule=True,
                timezone="Europe/Lisbon",
                posting_goal=5,
                max_content_length=280 if entry["platform"] == "x" else 3000,
                long_posts=False,
                verified_badge=None,
            )
            entry_copy["social_account"] = account
            platforms.append(entry_copy)
        shaped["platforms"] = platforms
        return shaped

    # ---- labels and signatures -------------------------------------------------------------
    def _label_fields(self, body: dict[str, Any]) -> tuple[str, str]:
        errors: dict[str, list[str]] = {}
        name, color = body.get("name"), body.get("color")
        if blank(name):
            errors["name"] = ["The name field is required."]
        elif not isinstance(name, str) or len(name.strip()) > 255:
            errors["name"] = ["The name field must not be greater than 255 characters."]
        if blank(color):
            errors["color"] = ["The color field is required."]
        elif not isinstance(color, str) or not re.fullmatch(r"#[0-9A-Fa-f]{6}", color.strip()):
            errors["color"] = ["The color field format is invalid."]
        if errors:
            raise Invalid(errors)
        return str(name).strip(), str(color).strip()

    def create_label(self, body: dict[str, Any]) -> dict[str, Any]:
        name, color = self._label_fields(body)
        when = rest_time(self.now())
        label = {
            "id": new_id(),
            "name": name,
            "color": color,
            "created_at": when,
            "updated_at": when,
        }
        self.labels.insert(0, label)
        return label

    def _find(self, rows: list[dict[str, Any]], item_id: str) -> dict[str, Any]:
        found = next((r for r in rows if r["id"] == item_id), None)
        if found is None:
            raise Missing
        return found

    def update_label(self, label_id: str, body: dict[str, Any]) -> dict[str, Any]:
        label = self._find(self.labels, label_id)
        name, color = self._label_fields(body)
        label.update(name=name, color=color, updated_at=rest_time(self.now()))
        for post in self.posts.values():
            for attached in post["labels"]:
                if attached.get("id") == label_id:
                    attached.update(name=name, color=color)
        return label

    def delete_label(self, label_id: str) -> None:
        self.labels.remove(self._find(self.labels, label_id))
        for post in self.posts.values():
            post["labels"] = [lb for lb in post["labels"] if lb.get("id") != label_id]

    def _signature_fields(self, body: dict[str, Any]) -> tuple[str, str]:
        errors: dict[str, list[str]] = {}
        for key in ("name", "content"):
            if blank(body.get(key)):
                errors[key] = [f"The {key} field is required."]
            elif not isinstance(body[key], str):
                errors[key] = [f"The {key} field must be a string."]
        if errors:
            raise Invalid(errors)
        return body["name"].strip(), body["content"]

    def create_signature(self, body: dict[str, Any]) -> dict[str, Any]:
        name, content = self._signature_fields(body)
        when = rest_time(self.now())
        row = {
            "id": new_id(),
            "name": name,
            "content": content,
            "created_at": when,
            "updated_at": when,
        }
        self.signatures.insert(0, row)
        return row

    def update_signature(self, signature_id: str, body: dict[str, Any]) -> dict[str, Any]:
        row = self._find(self.signatures, signature_id)
        name, content = self._signature_fields(body)
        row.update(name=name, content=content, updated_at=rest_time(self.now()))
        return row

    def delete_signature(self, signature_id: str) -> None:
        self.signatures.remove(self._find(self.signatures, signature_id))

    # ---- webhooks ---------------------------------------------------------------------------
    def webhook(self, webhook_id: str) -> dict[str, Any]:
        return self._find(self.webhooks, webhook_id)

    def _check_endpoint(self, value: Any, errors: dict[str, list[str]]) -> None:
        if blank(value) or not isinstance(value, str):
            errors["endpoint"] = ["The endpoint field is required."]
            return
        value = value.strip()
        match = re.fullmatch(r"https?://([^/:?#\s]+)(:\d+)?([/?#]\S*)?", value)
        host = match.group(1).lower() if match else ""
        private = (
            host == "localhost"
            or host.endswith(".localhost")
            or re.match(r"^(127\.|10\.|0\.|169\.254\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)", host)
            or host.startswith("[")
        )
        if len(value) > 255:
            errors["endpoint"] = ["The endpoint field must not be greater than 255 characters."]
        elif not match or "." not in host:
            errors["endpoint"] = ["The endpoint field must be a valid URL."]
        elif private:
            errors["endpoint"] = ["The endpoint must be a public address."]

    def _check_events(self, value: Any, errors: dict[str, list[str]]) -> None:
        if not isinstance(value, list) or not value:
            errors["events"] = ["The events field is required."]
            return
        for n, event in enumerate(value):
            if event not in EVENTS:
                errors[f"events.{n}"] = [f"The selected events.{n} is invalid."]

    def create_webhook(self, body: dict[str, Any]) -> dict[str, Any]:
        errors: dict[str, list[str]] = {}
        self._check_endpoint(body.get("endpoint"), errors)
        self._check_events(body.get("events"), errors)
        if errors:
            raise Invalid(errors)
        when = iso_time(self.now())
        hook = {
            "id": new_id(),
            "endpoint": body["endpoint"].strip(),
            "events": list(dict.fromkeys(body["events"])),
            "status": "enabled",
            "last_sent_at": None,
            "paused_at": None,
            "consecutive_failures": 0,
            "signing_secret": "whsec_" + secrets.token_hex(16),
            "created_at": when,
            "updated_at": when,
        }
        self.webhooks.insert(0, hook)
        self.logs[hook["id"]] = []
        return hook

    def update_webhook(self, webhook_id: str, body: dict[str, Any]) -> dict[str, Any]:
        hook = self.webhook(webhook_id)
        errors: dict[str, list[str]] = {}
        if "endpoint" in body:
            self._check_endpoint(body["endpoint"], errors)
        if "events" in body:
            self._check_events(body["events"], errors)
        if "status" in body and body["status"] not in ("enabled", "disabled"):
            errors["status"] = ["The selected status is invalid."]
        if errors:
            raise Invalid(errors)
        if "endpoint" in body:
            hook["endpoint"] = body["endpoint"].strip()
        if "events" in body:
            hook["events"] = list(dict.fromkeys(body["events"]))
        if body.get("status") == "enabled" and hook["status"] != "enabled":
            hook.update(consecutive_failures=0, paused_at=None)
        if "status" in body:
            hook["status"] = body["status"]
        hook["updated_at"] = iso_time(self.now())
        return hook

    def delete_webhook(self, webhook_id: str) -> None:
        self.webhooks.remove(self.webhook(webhook_id))
        self.logs.pop(webhook_id, None)

    def rotate_secret(self, webhook_id: str) -> dict[str, Any]:
        hook = self.webhook(webhook_id)
        hook["signing_secret"] = "whsec_" + secrets.token_hex(16)
        hook["updated_at"] = iso_time(self.now())
        return hook

    def test_webhook(self, webhook_id: str) -> dict[str, Any]:
        """No network here: endpoints whose host mentions `fail` or `flaky` refuse the ping."""
        hook = self.webhook(webhook_id)
        if "fail" in hook["endpoint"] or "flaky" in hook["endpoint"]:
            raise Invalid({"endpoint": ["The receiver answered HTTP 500 to the test event."]})
        return {"success": True, "response_status": 200}

    def webhook_logs(self, webhook_id: str) -> list[dict[str, Any]]:
        self.webhook(webhook_id)
        return self.logs[webhook_id]

    def replay(self, webhook_id: str, log_id: str) -> dict[str, Any]:
        logs = self.webhook_logs(webhook_id)
        original = self._find(logs, log_id)
        now = self.now()
        row = dict(original)
        row_id = new_id()
        payload = dict(original.get("payload") or {})
        payload.update(id=row_id, created_at=iso_time(now))
        row.update(
            id=row_id,
            payload=payload,
            response_status=None,
            response_body=None,
            delivered_at=None,
            failed_at=None,
            attempts=0,
            created_at=iso_time(now),
        )
        logs.insert(0, row)
        return {"replayed": True}

    # ---- accounts, audio, repurposes --------------------------------------------------------
    def toggle(self, account_id: str) -> dict[str, Any]:
        account = self.account(account_id)
        account["is_active"] = not account["is_active"]
        return account

    def audio_search(self, account_id: str, query: dict[str, str]) -> list[dict[str, Any]]:
        account = self.account(account_id)
        if account["platform"] != "instagram-facebook":
            raise Invalid(
                {
                    "account": [
                        "Audio search works only for Instagram accounts connected via Facebook."
                    ]
                }
            )
        q = query.get("q", "").strip()
        kind = query.get("type")
        errors: dict[str, list[str]] = {}
        if len(q) > 100:
            errors["q"] = ["The q field must not be greater than 100 characters."]
        if kind is not None and kind not in ("music", "original_sound"):
            errors["type"] = ["The selected type is invalid."]
        if errors:
            raise Invalid(errors)
        rows = [r for r in self.audio if kind is None or r["type"] == kind]
        if q:
            words = q.lower().split()
            rows = [
                r
                for r in rows
                if all(w in f"{r['title'] or ''} {r['artist'] or ''}".lower() for w in words)
            ]
        return sorted(rows, key=lambda r: r["type"] != "music")

    def repurpose_items_of(self, repurpose_id: str) -> list[dict[str, Any]]:
        if repurpose_id not in self.repurpose_items:
            raise PermissionError  # spec: another workspace's id gives 403
        return self.repurpose_items[repurpose_id]
