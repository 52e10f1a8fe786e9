"""Seeds: the workspaces and keys every test relies on, plus the rich demo workspace.

Both seeds create the primary workspace "Northwind Coffee Co." with a handful of channels, and a
second workspace "Harbor Bikes" (with a little content) so cross-workspace rules can be tested.
The demo seed adds every platform and a few months of content around `now`. Content is drawn
from a seeded random generator, so it is the same for the same `now` and post count.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from app.sandbox import accounts_repo, labels_repo, posts_repo, repurposes_repo
from app.sandbox.accounts_repo import NewAccount, weekly_slots
from app.sandbox.audio_catalog import catalog
from app.sandbox.auth import token_hash
from app.sandbox.clock import to_db
from app.sandbox.db import Db, Row
from app.sandbox.media_files import gradient_png
from app.sandbox.networks import network
from app.sandbox.posts_repo import NewMedia, NewPlatform, NewPost
from app.sandbox.seed_webhooks import seed_demo_webhooks, seed_other_webhook
from app.sandbox.serializers import post_payload
from app.sandbox.store import SandboxStore

from . import demo_content as text

# The demo workspace is not secret: its key is a published constant.
DEMO_API_KEY = "pd_demo_northwind_coffee_sandbox_key"

Seed = Literal["empty", "demo"]
_RNG_SEED = 20240611


@dataclass(frozen=True, repr=False)
class SandboxKeys:
    """Bearer tokens for each authentication case of §5/§7."""

    admin: str  # admin of the primary workspace
    member: str  # 403 Insufficient workspace permissions.
    expired: str  # 401 Token expired.
    other_admin: str  # admin of the second workspace
    unbound: str  # 401 No workspace selected.
    left: str  # 403 Workspace access denied.

    def __repr__(self) -> str:
        return "SandboxKeys(<tokens hidden>)"


@dataclass(frozen=True)
class SeedResult:
    workspace_id: str
    other_workspace_id: str
    keys: SandboxKeys


def _token(kind: str) -> str:
    return f"pd_sandbox_{kind}_{secrets.token_urlsafe(24)}"


def seed(
    store: SandboxStore, kind: Seed = "empty", *, admin_key: str | None = None, posts: int = 150
) -> SeedResult:
    rng = random.Random(f"{_RNG_SEED}:{to_db(store.clock())}:{posts}")
    keys = SandboxKeys(
        admin=admin_key or _token("admin"),
        member=_token("member"),
        expired=_token("expired"),
        other_admin=_token("other"),
        unbound=_token("unbound"),
        left=_token("left"),
    )
    previous = store.id_factory
    store.id_factory = _id_factory(rng)
    try:
        with store.tx() as db:
            ids = _seed_base(db, rng, keys)
            if kind == "demo":
                _seed_demo(db, rng, ids, posts)
    finally:
        store.id_factory = previous
    store.set_meta("primary_workspace_id", ids.workspace)
    store.set_meta("other_workspace_id", ids.other_workspace)
    return SeedResult(ids.workspace, ids.other_workspace, keys)


def ensure_admin_key(store: SandboxStore, token: str) -> None:
    """Make `token` a key of the primary workspace's admin (for reusing an existing --db)."""
    with store.tx() as db:
        if db.one("SELECT 1 FROM api_keys WHERE token_sha256 = ?", (token_hash(token),)):
            return
        workspace_id = store.primary_workspace_id
        user_id = db.scalar(
            "SELECT user_id FROM members WHERE workspace_id = ? AND role = 'admin' LIMIT 1",
            (workspace_id,),
        )
        _add_key(db, token, str(user_id), workspace_id, "Sandbox admin")


def is_seeded(store: SandboxStore) -> bool:
    return store.get_meta("primary_workspace_id") is not None


def _id_factory(rng: random.Random) -> Callable[[], str]:
    def make() -> str:
        return str(uuid.UUID(int=rng.getrandbits(128), version=4))

    return make


@dataclass
class _Ids:
    workspace: str
    other_workspace: str
    owner: str
    admin: str
    accounts: list[Row]


def _add_key(
    db: Db,
    token: str,
    user_id: str,
    workspace_id: str | None,
    name: str,
    expires_at: str | None = None,
) -> None:
    db.insert(
        "api_keys",
        {
            "id": db.new_id(),
            "token_sha256": token_hash(token),
            "user_id": user_id,
            "workspace_id": workspace_id,
            "name": name,
            "expires_at": expires_at,
            "created_at": db.now(),
        },
    )


def _user(db: Db, name: str) -> str:
    user_id = db.new_id()
    email = name.lower().replace(" ", ".") + "@example.com"
    db.insert("users", {"id": user_id, "name": name, "email": email})
    return user_id


def _workspace(db: Db, name: str, owner: str) -> str:
    workspace_id = db.new_id()
    now = db.now()
    db.insert(
        "workspaces",
        {
            "id": workspace_id,
            "name": name,
            "owner_user_id": owner,
            "created_at": now,
            "updated_at": now,
        },
    )
    db.insert("members", {"workspace_id": workspace_id, "user_id": owner, "role": "owner"})
    return workspace_id


def _member(db: Db, workspace_id: str, user_id: str, role: str) -> None:
    db.insert("members", {"workspace_id": workspace_id, "user_id": user_id, "role": role})


_BASE_ACCOUNTS: tuple[NewAccount, ...] = (
    NewAccount(
        "x",
        "Northwind Coffee",
        "northwindcoffee",
        timezone="America/New_York",
        max_content_length=280,
        verified_badge="blue",
    ),
    NewAccount(
        "linkedin",
        "Ava Lindqvist",
        "ava-lindqvist",
        timezone="Europe/Stockholm",
        max_content_length=3000,
    ),
    NewAccount(
        "instagram-facebook",
        "Northwind Coffee Co.",
        "northwind.coffee",
        timezone="America/New_York",
        max_content_length=2200,
    ),
    NewAccount(
        "instagram",
        "Northwind Roastery",
        "northwind.roastery",
        timezone="Europe/Berlin",
        max_content_length=2200,
    ),
    NewAccount(
        "pinterest",
        "Northwind Coffee",
        "northwindcoffee",
        timezone="America/Chicago",
        max_content_length=500,
        boards=[{"id": i, "name": n} for i, n in text.PINTEREST_BOARDS],
    ),
    NewAccount(
        "tiktok",
        "Northwind Coffee",
        "northwind.coffee",
        timezone="America/Los_Angeles",
        max_content_length=2200,
    ),
    NewAccount(
        "discord",
        "Northwind Community",
        "northwind-community",
        timezone="UTC",
        max_content_length=2000,
        channels=[{"id": i, "name": n} for i, n in text.DISCORD_CHANNELS],
    ),
)

_DEMO_ACCOUNTS: tuple[NewAccount, ...] = (
    NewAccount(
        "linkedin-page",
        "Northwind Coffee Co.",
        "northwind-coffee-co",
        timezone="Europe/London",
        max_content_length=3000,
    ),
    NewAccount(
        "facebook",
        "Northwind Coffee Co.",
        "northwindcoffeeco",
        timezone="America/New_York",
        max_content_length=63206,
        long_posts=True,
    ),
    NewAccount(
        "youtube",
        "Northwind Coffee TV",
        "northwindcoffeetv",
        status="token_expired",
        timezone="America/New_York",
        max_content_length=5000,
    ),
    NewAccount(
        "threads",
        "Northwind Coffee",
        "northwind.coffee",
        timezone="America/New_York",
        max_content_length=500,
        # The network refuses this account's posts: the demo shows failures live.
        publish_failure="Threads refused the post: the image aspect ratio is not supported "
        "(allowed: 4:5 to 1.91:1).",
    ),
    NewAccount(
        "bluesky",
        "Northwind Coffee",
        "northwindcoffee.bsky.social",
        timezone="Europe/Amsterdam",
        max_content_length=300,
    ),
    NewAccount(
        "mastodon",
        "Northwind Coffee",
        "northwind@mastodon.example",
        is_active=False,
        timezone="Europe/Berlin",
        max_content_length=500,
    ),
    NewAccount(
        "telegram",
        "Northwind Deals",
        "northwind_deals",
        timezone="Asia/Singapore",
        max_content_length=4096,
    ),
    NewAccount(
        "x",
        "Northwind Careers",
        "northwindjobs",
        status="disconnected",
        timezone="UTC",
        max_content_length=280,
    ),
)

_SLOT_TIMES: tuple[tuple[str, ...], ...] = (
    ("08:30", "12:15", "17:45"),
    ("09:00", "13:00"),
    ("07:45", "11:30", "16:00", "19:30"),
)


def _insert_accounts(db: Db, workspace_id: str, templates: tuple[NewAccount, ...]) -> list[Row]:
    rows = []
    for i, template in enumerate(templates):
        slots = template.queue_slots or weekly_slots(list(_SLOT_TIMES[i % len(_SLOT_TIMES)]))
        account = dataclasses.replace(template, queue_slots=slots)
        account_id = accounts_repo.insert_account(db, workspace_id, account)
        row = db.one("SELECT * FROM social_accounts WHERE id = ?", (account_id,))
        assert row is not None
        rows.append(row)
    return rows


def _seed_base(db: Db, rng: random.Random, keys: SandboxKeys) -> _Ids:
    owner = _user(db, "Ava Lindqvist")
    admin = _user(db, "Marco Rossi")
    member = _user(db, "Priya Natarajan")
    leaver = _user(db, "Sam Okoye")
    workspace = _workspace(db, "Northwind Coffee Co.", owner)
    _member(db, workspace, admin, "admin")
    _member(db, workspace, member, "member")
    other_owner = _user(db, "Hana Sato")
    other = _workspace(db, "Harbor Bikes", other_owner)

    past = to_db(db.clock() - timedelta(days=1))
    _add_key(db, keys.admin, admin, workspace, "Sandbox admin")
    _add_key(db, keys.member, member, workspace, "Member key")
    _add_key(db, keys.expired, admin, workspace, "Expired key", expires_at=past)
    _add_key(db, keys.other_admin, other_owner, other, "Harbor Bikes key")
    _add_key(db, keys.unbound, admin, None, "Unbound key")
    _add_key(db, keys.left, leaver, workspace, "Key of a former member")

    accounts = _insert_accounts(db, workspace, _BASE_ACCOUNTS)
    _seed_audio(db)
    _seed_other_workspace(db, other, other_owner)
    return _Ids(workspace, other, owner, admin, accounts)


def _seed_audio(db: Db) -> None:
    entries = catalog()
    db.many(
        "INSERT INTO audio_assets (id, type, title, artist, duration_ms, popularity, "
        "trending_rank) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (a.id, a.type, a.title, a.artist, a.duration_ms, len(entries) - i, a.trending_rank)
            for i, a in enumerate(entries)
        ],
    )


def _seed_other_workspace(db: Db, workspace: str, owner: str) -> None:
    accounts = _insert_accounts(
        db,
        workspace,
        (
            NewAccount("x", "Harbor Bikes", "harborbikes", max_content_length=280),
            NewAccount("instagram-facebook", "Harbor Bikes", "harbor.bikes"),
        ),
    )
    label = labels_repo.create_label(db, workspace, "Repairs", "#123456")
    labels_repo.create_signature(db, workspace, "Shop hours", "Open Tue–Sun 10–6")
    post = posts_repo.insert_post(
        db,
        NewPost(
            workspace_id=workspace,
            user_id=owner,
            content="Spring tune-ups are back!",
            status="draft",
            platforms=[NewPlatform(accounts[0], "x_post")],
            label_ids=[label],
            created_via="web",
        ),
    )
    seed_other_webhook(db, workspace, post)
    repurpose = repurposes_repo.create_repurpose(
        db, workspace, "Instagram to X", "instagram", "harbor.bikes", [accounts[0]["id"]]
    )
    repurposes_repo.add_item(db, repurpose, source_media_id="17900000000000001", status="pending")


# -- demo ---------------------------------------------------------------------------------


def _seed_demo(db: Db, rng: random.Random, ids: _Ids, post_count: int) -> None:
    accounts = ids.accounts + _insert_accounts(db, ids.workspace, _DEMO_ACCOUNTS)
    label_ids = []
    for name, color in text.LABELS:
        label_ids.append(labels_repo.create_label(db, ids.workspace, name, color))
    _seed_signatures(db, ids.workspace)
    blobs = _seed_blobs(db)
    post_ids = _seed_posts(db, rng, ids, accounts, label_ids, blobs, post_count)
    _seed_webhooks(db, rng, ids.workspace, post_ids)
    _seed_repurposes(db, rng, ids.workspace, accounts, post_ids)


def _seed_signatures(db: Db, workspace: str) -> None:
    for i in range(30):
        name, content = text.SIGNATURE_TOPICS[i % len(text.SIGNATURE_TOPICS)]
        if i >= len(text.SIGNATURE_TOPICS):
            name = f"{name} (short)"
            content = content.split(" · ")[0]
        labels_repo.create_signature(db, workspace, name, content)


def _seed_blobs(db: Db) -> list[tuple[str, int]]:
    blobs = []
    for top, bottom in text.IMAGE_PALETTES:
        data = gradient_png(240, 240, top, bottom)
        blob_id = hashlib.sha256(data).hexdigest()[:32]
        db.run(
            "INSERT OR IGNORE INTO blobs (id, mime_type, data) VALUES (?, 'image/png', ?)",
            (blob_id, data),
        )
        blobs.append((blob_id, len(data)))
    return blobs


_CATALOG = catalog()
_VIDEO_PLATFORMS = ("tiktok", "youtube")
_MEDIA_PLATFORMS = ("instagram", "instagram-facebook", "pinterest", *_VIDEO_PLATFORMS)


def _image(rng: random.Random, blobs: list[tuple[str, int]], n: int) -> NewMedia:
    blob_id, size = rng.choice(blobs)
    meta: dict[str, Any] = {"width": 240, "height": 240}
    if rng.random() < 0.6:
        meta["alt_text"] = rng.choice(
            [
                "Latte art on a wooden table",
                "Bags of freshly roasted beans",
                "Barista pouring milk",
                "Our Harbor Street shop at sunrise",
            ]
        )
    return NewMedia("image", "image/png", f"photo-{n}.png", "png", size, meta, blob_id)


def _video(n: int) -> NewMedia:
    return NewMedia(
        "video",
        "video/mp4",
        f"clip-{n}.mp4",
        "mp4",
        8_400_000 + n * 1000,
        {"width": 1080, "height": 1920, "duration": 24},
    )


def _platform_settings(rng: random.Random, account: Row) -> tuple[str, dict[str, Any]]:
    platform = account["platform"]
    choices = [ct.value for ct in network(platform).content_types]
    content_type = rng.choice(choices)
    meta: dict[str, Any] = {}
    if platform == "pinterest":
        meta = {
            "board_id": rng.choice(text.PINTEREST_BOARDS)[0],
            "title": "Northwind Coffee",
            "link": "https://northwind.example",
        }
    elif platform == "tiktok":
        meta = {"privacy_level": rng.choice(["PUBLIC_TO_EVERYONE", "FOLLOWER_OF_CREATOR"])}
    elif platform == "discord":
        meta = {"channel_id": rng.choice(text.DISCORD_CHANNELS)[0]}
    elif platform == "x" and rng.random() < 0.1:
        meta = {"thread_replies": [{"text": t, "media": []} for t in text.THREAD_REPLIES]}
    elif content_type == "instagram_reel" and rng.random() < 0.5:
        meta = {"audio": {"id": rng.choice(_CATALOG).id}}
    return content_type, meta


def _status_for(rng: random.Random, offset: timedelta) -> str:
    hours = offset.total_seconds() / 3600
    roll = rng.random()
    if hours < -2:
        if roll < 0.06:
            return "draft"
        if roll < 0.2:
            return "failed"
        if roll < 0.3:
            return "partially_published"
        return "published"
    if hours < 0:
        return "publishing"
    if roll < 0.72:
        return "scheduled"
    return "draft"


def _seed_posts(
    db: Db,
    rng: random.Random,
    ids: _Ids,
    accounts: list[Row],
    label_ids: list[str],
    blobs: list[tuple[str, int]],
    count: int,
) -> list[str]:
    now = db.clock()
    usable = [a for a in accounts if a["status"] == "connected"]
    forced = [
        "published",
        "partially_published",
        "failed",
        "scheduled",
        "draft",
        "publishing",
        "draft",
    ]
    post_ids = []
    for n in range(count):
        offset = timedelta(minutes=rng.randint(-45 * 24 * 60, 45 * 24 * 60))
        status = _status_for(rng, offset)
        if n < len(forced):
            status = forced[n]
            sign = -1 if status in ("published", "partially_published", "failed") else 1
            offset = sign * timedelta(days=rng.randint(1, 20), minutes=rng.randint(0, 1439))
            if status == "publishing":
                offset = -timedelta(minutes=rng.randint(1, 30))
        undated = status == "draft" and (n == len(forced) - 1 or rng.random() < 0.4)
        targets = rng.sample(
            usable,
            2
            if status == "partially_published"
            else (rng.choice([2, 3]) if rng.random() < 0.12 else 1),
        )
        scheduled = None if undated else now + offset
        if scheduled is not None and status != "publishing":
            scheduled = _at_posting_hours(scheduled, now, status, rng)
        content = (
            rng.choice(text.HTML_TEXTS) if rng.random() < 0.15 else rng.choice(text.POST_TEXTS)
        )
        if rng.random() < 0.3:
            content += " " + " ".join(rng.sample(text.HASHTAGS, 2))
        if status == "draft" and rng.random() < 0.05:
            content = ""
        media: list[NewMedia] = []
        needs_media = any(t["platform"] in _MEDIA_PLATFORMS for t in targets)
        if any(t["platform"] in _VIDEO_PLATFORMS for t in targets):
            media = [_video(n)]
        elif needs_media or rng.random() < 0.35:
            media = [_image(rng, blobs, n * 10 + k) for k in range(rng.choice([1, 1, 1, 2, 3]))]
        published_at = None if scheduled is None else to_db(scheduled + timedelta(minutes=2))
        platforms = []
        for index, account in enumerate(targets):
            content_type, meta = _platform_settings(rng, account)
            entry = NewPlatform(account, content_type, meta)
            ok = status == "published" or (status == "partially_published" and index == 0)
            bad = status == "failed" or (status == "partially_published" and index > 0)
            if ok:
                entry.status = "published"
                entry.published_at = published_at
                entry.platform_post_id = str(rng.getrandbits(60))
                entry.platform_url = (
                    f"https://{account['platform']}.example.invalid/{account['username']}/"
                    f"{entry.platform_post_id}"
                )
            elif bad:
                entry.status = "failed"
                entry.error_message = rng.choice(text.FAILURE_MESSAGES)
                entry.error_context = {"attempt": rng.randint(1, 3), "code": "publish_failed"}
            elif status == "publishing":
                entry.status = "publishing"
            platforms.append(entry)
        if status == "scheduled" and len(targets) == 1 and rng.random() < 0.25:
            schedule_mode: str | None = "queue"
        else:
            schedule_mode = None
        created = min(now, scheduled or now) - timedelta(minutes=rng.randint(60, 14 * 24 * 60))
        post_ids.append(
            posts_repo.insert_post(
                db,
                NewPost(
                    workspace_id=ids.workspace,
                    user_id=rng.choice([ids.owner, ids.admin]),
                    content=content,
                    status=status,
                    platforms=platforms,
                    media=media,
                    label_ids=rng.sample(label_ids, rng.choice([0, 0, 1, 1, 2])),
                    scheduled_at=None if scheduled is None else to_db(scheduled),
                    published_at=published_at if status == "published" else None,
                    schedule_mode=schedule_mode,
                    created_via=rng.choice(["web", "web", "api", "mcp"]),
                    created_at=to_db(created),
                ),
            )
        )
    return post_ids


def _payload(db: Db, post_id: str) -> dict[str, Any]:
    return post_payload(posts_repo.load_bundle(db, post_id), db.media_base_url)


def _seed_webhooks(db: Db, rng: random.Random, workspace: str, post_ids: list[str]) -> None:
    seed_demo_webhooks(db, rng, workspace, lambda post_id: _payload(db, post_id), post_ids)


def _seed_repurposes(
    db: Db, rng: random.Random, workspace: str, accounts: list[Row], post_ids: list[str]
) -> None:
    now = db.clock()
    by_platform = {a["platform"]: a["id"] for a in reversed(accounts)}
    reels = repurposes_repo.create_repurpose(
        db,
        workspace,
        "Instagram Reels → TikTok & YouTube Shorts",
        "instagram-facebook",
        "northwind.coffee",
        [by_platform["tiktok"], by_platform["youtube"]],
        created_at=to_db(now - timedelta(days=40)),
    )
    tiktok = repurposes_repo.create_repurpose(
        db,
        workspace,
        "TikTok → Instagram Reels",
        "tiktok",
        "northwind.coffee",
        [by_platform["instagram-facebook"]],
        is_active=False,
        created_at=to_db(now - timedelta(days=20)),
    )
    published = db.all(
        "SELECT id, status FROM posts WHERE workspace_id = ? AND status IN "
        "('published', 'draft') ORDER BY rowid",
        (workspace,),
    )
    done = [r["id"] for r in published if r["status"] == "published"] or post_ids[:1]
    drafts = [r["id"] for r in published if r["status"] == "draft"] or post_ids[:1]
    plan: list[tuple[str, str | None]] = [
        ("pending", None),
        ("processing", None),
        ("published", None),
        ("drafted", None),
        ("skipped", "published_via_service"),
        ("skipped", "no_usable_destinations"),
        ("failed", "media_url_missing"),
        ("failed", "download_failed"),
        ("failed", "post_creation_failed"),
    ]
    plan += [(rng.choice(["published", "published", "drafted"]), None) for _ in range(21)]
    for i, (status, reason) in enumerate(plan):
        source_time = now - timedelta(hours=i * 19 + 1)
        posts: list[str] = []
        if status == "published":
            posts = [rng.choice(done)]
        elif status == "drafted":
            posts = [rng.choice(drafts)]
        repurposes_repo.add_item(
            db,
            reels,
            source_media_id=f"{17_900_000_000_000_000 + i * 7919}",
            status=status,
            reason=reason,
            error=text.REPURPOSE_ERRORS.get(reason or ""),
            source_permalink=f"https://www.instagram.example.invalid/reel/NW{i:04d}/",
            # Some sources do not share their creation time; the list falls back to created_at.
            source_created_at=None if i % 7 == 3 else to_db(source_time),
            post_ids=posts,
            created_at=to_db(source_time + timedelta(minutes=5)),
        )
    for i in range(3):
        repurposes_repo.add_item(
            db,
            tiktok,
            source_media_id=f"{7_300_000_000_000_000_000 + i}",
            status="skipped",
            reason="published_via_service",
            source_created_at=to_db(now - timedelta(days=15 + i)),
            created_at=to_db(now - timedelta(days=15 + i)),
        )


PAST_STATUSES = ("published", "partially_published", "failed")


def _at_posting_hours(when: datetime, now: datetime, status: str, rng: random.Random) -> datetime:
    """Managers post in the daytime, on round minutes; the status still decides past or future."""
    when = when.replace(hour=rng.randint(7, 20), minute=rng.choice((0, 15, 30, 45)), second=0)
    if status in PAST_STATUSES and when >= now:
        when -= timedelta(days=1)
    elif status == "scheduled" and when <= now:
        when += timedelta(days=1)
    return when
