"""Render the calendar with realistic generated data to PNG files, one per view.

    python -m tests.tools.calendar_preview OUTDIR [--date YYYY-MM-DD] [--zone ZONE] [--posts N]

Used to look at the views without a server; runs headless (offscreen) unless told otherwise.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import uuid
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from app.calendar.grid import local_instant
from app.models import Label, Post, SocialAccountSummary, format_rest_datetime

ACCOUNTS: list[dict[str, Any]] = [
    {"platform": "linkedin", "display_name": "Maya Chen", "username": "mayachen"},
    {"platform": "linkedin-page", "display_name": "Northwind Coffee", "username": "northwind"},
    {"platform": "x", "display_name": "Northwind", "username": "northwindcoffee"},
    {
        "platform": "instagram-facebook",
        "display_name": "Northwind Coffee",
        "username": "nw.coffee",
        "timezone": "America/New_York",
    },
    {"platform": "facebook", "display_name": "Northwind Coffee Roasters", "username": "nwroasters"},
    {"platform": "tiktok", "display_name": "Northwind", "username": "northwind.brews"},
    {"platform": "youtube", "display_name": "Northwind Coffee TV", "username": "northwindtv"},
    {"platform": "bluesky", "display_name": "Northwind", "username": "northwind.bsky.social"},
    {"platform": "mastodon", "display_name": "Northwind", "username": "northwind@mastodon.social"},
    {"platform": "threads", "display_name": "Northwind Coffee", "username": "nw.coffee"},
    {
        "platform": "pinterest",
        "display_name": "Northwind Recipes",
        "username": "northwindrecipes",
        "timezone": "Asia/Tokyo",
    },
]
LABELS = [
    ("Launch", "#7c3aed"),
    ("Evergreen", "#059669"),
    ("Webinar", "#f59e0b"),
    ("Hiring", "#db2777"),
    ("Seasonal", "#0ea5e9"),
]
TEXTS = [
    "<p>Our autumn blend is here 🍂 Notes of <strong>caramel, fig</strong> and a hint of clove."
    "</p><p>Pre-order today, ships Monday.</p>",
    "Behind the roaster: meet Jonas, who has been dialing in our espresso for 8 years.",
    "<p>5 ways to brew better coffee at home:</p><ul><li>Weigh your beans</li>"
    "<li>Use filtered water</li><li>Grind right before brewing</li></ul>",
    "We're hiring a Head of Wholesale in Berlin. Remote-friendly, great coffee guaranteed.",
    "Live Q&amp;A on Thursday: how we source single-origin beans directly from farmers.",
    "Cold brew season isn't over yet. Here's our 12-hour recipe →",
    "<p>Thank you for 50k followers!<br>To celebrate: 20% off everything this weekend.</p>",
    "New café opening in Hamburg – Schanzenviertel, from 1 December.",
    "Webinar recording: Sustainable packaging in specialty coffee (62 min).",
    "<p>Latte art throwdown 🏆 results are in. Congratulations to Aylin!</p>",
    "Decaf doesn't have to be boring. Try our Swiss-water processed Colombian.",
    "Quick poll: oat, almond or whole milk? Tell us below.",
    "Our roastery is now powered 100% by renewable energy. Read the full report.",
    "Holiday gift boxes are back, with a new hand-thrown ceramic cup.",
]
MEDIA = [
    ("autumn-blend-hero.jpg", "image", "image/jpeg", 1_834_221),
    ("roaster-jonas.mp4", "video", "video/mp4", 48_201_733),
    ("brew-guide.pdf", "document", "application/pdf", 402_118),
]


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def sample_accounts(rng: random.Random) -> list[dict[str, Any]]:
    return [
        {"id": _uuid(rng), "is_active": True, "status": "connected", **account}
        for account in ACCOUNTS
    ]


def _status_for(when: datetime, now: datetime, rng: random.Random) -> str:
    if when < now - timedelta(hours=1):
        return rng.choices(["published", "failed", "partially_published"], weights=[84, 8, 8])[0]
    if when < now + timedelta(hours=1):
        return "publishing"
    return rng.choices(["scheduled", "draft"], weights=[72, 28])[0]


def _platform(account: dict[str, Any], status: str, rng: random.Random) -> dict[str, Any]:
    platform_status = {
        "published": "published",
        "failed": "failed",
        "partially_published": rng.choice(["published", "failed"]),
        "publishing": "publishing",
    }.get(status, "pending")
    entry: dict[str, Any] = {
        "id": _uuid(rng),
        "platform": account["platform"],
        "content_type": f"{account['platform'].split('-')[0]}_post",
        "meta": {},
        "status": platform_status,
        "enabled": True,
        "platform_url": None,
        "published_at": None,
        "error_message": None,
        "display_name": account["display_name"],
        "display_username": account["username"],
        "display_avatar": None,
        "social_account": {k: v for k, v in account.items()},
    }
    if platform_status == "published":
        entry["platform_url"] = f"https://example.com/{account['platform']}/{_uuid(rng)[:8]}"
    if platform_status == "failed":
        entry["error_message"] = rng.choice(
            [
                "The access token has expired. Reconnect the account and try again.",
                "Video is too long for this network (max 60 s).",
                "Rate limited by the network; the post was not published.",
            ]
        )
    return entry


def sample_post(
    rng: random.Random,
    accounts: list[dict[str, Any]],
    labels: list[dict[str, Any]],
    when: datetime | None,
    now: datetime,
    *,
    status: str | None = None,
) -> dict[str, Any]:
    status = status or (_status_for(when, now, rng) if when is not None else "draft")
    chosen = [rng.choice(accounts)]
    if rng.random() < 0.08:
        chosen.append(rng.choice(accounts))
    media = []
    if rng.random() < 0.35:
        name, kind, mime, size = rng.choice(MEDIA)
        media_id = _uuid(rng)
        media.append(
            {
                "id": media_id,
                "path": f"medias/{media_id}.{name.rsplit('.', 1)[1]}",
                "url": f"https://cdn.example.com/medias/{media_id}",
                "type": kind,
                "mime_type": mime,
                "original_filename": name,
                "size": size,
            }
        )
    stamp = format_rest_datetime(now - timedelta(days=rng.randint(1, 20)))
    return {
        "id": _uuid(rng),
        "content": rng.choice(TEXTS),
        "media": media,
        "status": status,
        "scheduled_at": format_rest_datetime(when) if when is not None else None,
        "published_at": format_rest_datetime(when + timedelta(minutes=1))
        if when is not None and status == "published"
        else None,
        "platforms": [_platform(account, status, rng) for account in chosen],
        "labels": rng.sample(labels, k=rng.choice([0, 0, 1, 1, 2])),
        "created_at": stamp,
        "updated_at": stamp,
    }


def sample_data(
    anchor: date, tz: tzinfo, *, seed: int = 7, per_day: float = 2.6
) -> tuple[list[Post], list[SocialAccountSummary], list[Label]]:
    """Posts from five weeks before `anchor` to six after, with one busy day and some odd ones."""
    rng = random.Random(seed)
    accounts = sample_accounts(rng)
    stamp = "2025-01-06 09:00:00"
    labels = [
        {"id": _uuid(rng), "name": name, "color": color, "created_at": stamp, "updated_at": stamp}
        for name, color in LABELS
    ]
    now = local_instant(anchor, time(11, 40), tz)
    raw: list[dict[str, Any]] = []
    for offset in range(-35, 43):
        day = anchor + timedelta(days=offset)
        count = max(0, round(rng.gauss(per_day, 1.3)))
        if day.weekday() >= 5:
            count = count // 2
        if offset == 2:
            count = 9  # a busy launch day that overflows its month cell
        for _ in range(count):
            minutes = rng.randrange(7 * 4, 20 * 4) * 15
            when = local_instant(day, time(minutes // 60, minutes % 60), tz)
            raw.append(sample_post(rng, accounts, labels, when, now))
    odd_day = anchor + timedelta(days=1)
    raw.append(
        sample_post(
            rng, accounts, labels, local_instant(odd_day, time(16, 30), tz), now, status="in_review"
        )
    )
    for _ in range(6):
        raw.append(sample_post(rng, accounts, labels, None, now))
    posts = [Post.model_validate(item) for item in raw]
    return (
        posts,
        [SocialAccountSummary.model_validate(a) for a in accounts],
        [Label.model_validate(label) for label in labels],
    )


def render(
    outdir: Path, anchor: date, tz: tzinfo, posts_per_day: float, *, app_style: bool = True
) -> list[Path]:
    from PySide6.QtWidgets import QApplication

    from ui.calendar.page import CalendarPage
    from ui.calendar.source import InMemoryCalendarSource

    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    if app_style:
        try:
            from ui.style import apply_style

            apply_style(app)
        except ImportError:  # the shared style sheet is optional for a preview
            pass
    posts, accounts, labels = sample_data(anchor, tz, per_day=posts_per_day)
    source = InMemoryCalendarSource(posts, accounts=accounts, labels=labels)
    page = CalendarPage(source, display_tz=tz, today=lambda: anchor)
    page.resize(1440, 900)
    page.show()
    outdir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def shot(name: str) -> None:
        app.processEvents()
        path = outdir / f"{name}.png"
        page.grab().save(str(path))
        written.append(path)

    page.detail.hide()
    shot("month")
    page.set_view("week")
    shot("week")
    page.set_view("agenda")
    shot("agenda")
    page.set_view("month")
    rich = max(
        (p for p in posts if p.scheduled_at is not None and p.status in ("failed", "published")),
        key=lambda p: (len(p.media) > 0) + len(p.labels) + (p.status == "failed"),
    )
    assert rich.scheduled_at is not None
    page.go_to(rich.scheduled_at.astimezone(tz).date())
    page.select_post(rich.id)
    page.open_detail()
    shot("detail")
    page.go_to(anchor + timedelta(days=365 * 3))
    page.detail.hide()
    shot("empty")
    page.go_to(anchor)
    busy_day = anchor + timedelta(days=2)
    page.show_more(busy_day)
    app.processEvents()
    popup = outdir / "more-popup.png"
    page.day_popup.grab().save(str(popup))
    written.append(popup)
    page.day_popup.close()
    page.close()
    page.deleteLater()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--date", type=date.fromisoformat, default=None)
    parser.add_argument("--zone", default="Europe/Berlin")
    parser.add_argument("--posts-per-day", type=float, default=2.6)
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    tz = ZoneInfo(args.zone)
    anchor = args.date or datetime.now(UTC).astimezone(tz).date()
    for path in render(args.outdir, anchor, tz, args.posts_per_day):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
