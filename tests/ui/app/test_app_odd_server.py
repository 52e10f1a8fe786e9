"""The whole app against the independent odd server (tests/tools/odd_server.py): what a user
sees when the server breaks the spec's promises or misbehaves."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from app.sync.state import SyncState
from tests.tools.odd_server import DROP_EVERY, RATE_EVERY, OddServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import options, started, stopped
from ui.application import Application
from ui.messages import Level
from ui.panels.webhooks import WebhooksPage


@pytest.fixture
def hostile(monkeypatch: pytest.MonkeyPatch) -> Iterator[OddServer]:
    monkeypatch.setenv("POSTDESK_API_KEY", "odd-key")
    with OddServer(modes={"hostile"}, quiet=True) as server:
        yield server


def test_items_read_in_part_are_kept_and_named_in_the_window(
    qapp: QApplication, runner: LoopRunner, hostile: OddServer
) -> None:
    """Three posts and a label break the spec (nulls, an impossible date): all of them show,
    and the window says which could not be read whole instead of staying silent."""

    async def scenario() -> None:
        app = Application(qapp, options(hostile.base_url))
        task = await started(app)
        assert app.session is not None
        assert app.session.first_sync_ok is True
        banner = app.window.banner
        await until(lambda: "could not be read" in banner.text(), what="unreadable items named")
        assert banner.current is not None
        assert banner.current.level is Level.WARNING
        assert "3 posts could not be read whole" in banner.text()
        assert "1 label could not be read whole (its name)" in banner.text()
        assert app.cache is not None
        assert app.cache.count_posts() == 60
        # A light refresh that finds the same items does not post the message again.
        banner.dismiss()
        states: list[SyncState] = []
        # Connected after the workspace's own handler: it runs once that handler has returned.
        app.session.syncStateChanged.connect(states.append)
        app.session.refresh()
        await until(
            lambda: any(s.phase == "syncing" for s in states) and states[-1].phase != "syncing",
            what="the refresh to finish",
        )
        assert states[-1].phase == "idle"
        assert "3 posts could not be read whole" in states[-1].unreadable_summary()
        assert banner.current is None
        app.window.close()
        assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())


UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)


def window_texts(window: QWidget) -> list[str]:
    """Every text and tooltip the window's labels show (the banner, the status bar...)."""
    return [
        text
        for label in window.findChildren(QLabel)
        for text in (label.text(), label.toolTip())
        if text
    ]


def test_a_server_sending_nulls_loses_no_post_and_names_what_it_could_not_read_in_words(
    qapp: QApplication,
    runner: LoopRunner,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 14 §5: one label with a null name on 7 posts (a pending-approval post and an
    undated draft among them), one post with a null status, nulls inside network entries and
    media. Every post shows, the label as "(unreadable)" (still offered by the filter), the
    status as "unknown"; the window names the posts by their first line and day, the ids are
    in the log only."""
    monkeypatch.setenv("POSTDESK_API_KEY", "odd-key")

    async def scenario() -> None:
        with OddServer(modes={"nulls"}, quiet=True) as odd:
            with odd.api.lock:
                world = odd.api.world
                nameless = next(lb for lb in world.labels if lb["name"] is None)
                posts = [dict(p) for p in world.posts.values()]
            no_status = next(p for p in posts if p["status"] is None)
            pending = next(p for p in posts if p["status"] == "pending_approval")
            undated = next(
                p
                for p in posts
                if not p["scheduled_at"] and any(lb["id"] == nameless["id"] for lb in p["labels"])
            )
            app = Application(qapp, options(odd.base_url))
            task = await started(app)
            assert app.session is not None
            assert app.cache is not None
            assert app.session.first_sync_ok is True
            banner = app.window.banner
            await until(lambda: "could not be read whole" in banner.text(), what="the summary")
            assert app.cache.count_posts() == len(posts) == 60

            # The window says what, in words: the post's first line and day, and which part.
            text = banner.text()
            first_line = no_status["content"].split("\n")[0]
            assert f"“{first_line}” on {day_of(no_status)} (its status)" in text
            assert "a label on 7 of them" in text
            assert "1 label could not be read whole (its name): shown as “(unreadable)”" in text
            assert "Labels page" in text  # where the label can be named again
            shown = window_texts(app.window)
            assert text in shown
            assert [t for t in shown if UUID.search(t)] == []
            # The ids are in the log, for whoever reads it.
            logged = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
            assert any(no_status["id"] in line for line in logged)

            # The calendar holds and paints them: status "unknown", the label "(unreadable)".
            calendar = app.calendar
            shown_as = {}
            for post in (no_status, pending, undated):
                if post["scheduled_at"]:
                    calendar.go_to(rest_day(post).astimezone(calendar.display_tz).date())
                # An undated draft is listed whatever the period.
                await until(lambda p=post: calendar.entry(p["id"]) is not None, what="the post")
                assert not app.window.grab().isNull()  # painted
                entry = calendar.entry(post["id"])
                assert entry is not None
                shown_as[post["id"]] = (entry.status_text, [lb.name for lb in entry.labels])
            assert shown_as[no_status["id"]][0] == "unknown"
            for post, status in ((pending, "Pending approval"), (undated, "Draft")):
                assert shown_as[post["id"]][0] == status
                assert "(unreadable)" in shown_as[post["id"]][1]
            combo = calendar.filter_bar.label_combo
            offered = {combo.itemData(i): combo.itemText(i) for i in range(combo.count())}
            assert offered[nameless["id"]] == "(unreadable)"
            assert await stopped(app, task) == 0

    with caplog.at_level(logging.WARNING, logger="app.api"):
        runner.run(scenario())


def rest_day(post: dict[str, Any]) -> datetime:
    return datetime.strptime(post["scheduled_at"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)


def day_of(post: dict[str, Any]) -> str:
    local = rest_day(post).astimezone()
    now = datetime.now().astimezone()
    return f"{local.day} {local:%b}" + (f" {local.year}" if local.year != now.year else "")


def test_a_duplicate_whose_answer_was_lost_is_reconciled_without_being_asked(
    qapp: QApplication, runner: LoopRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server commits the batch, then drops the connection: the app must not resend, and
    must read the server again by itself so the copy shows, instead of leaving the user with a
    "Refresh to check" banner while the calendar says nothing was made."""
    monkeypatch.setenv("POSTDESK_API_KEY", "odd-key")

    async def scenario() -> None:
        with OddServer(modes={"drop"}, quiet=True) as odd:
            app = Application(qapp, options(odd.base_url))
            task = await started(app)
            assert app.session is not None
            assert app.cache is not None
            await until(
                lambda: app.cache is not None and app.cache.count_posts() == 60, what="sync"
            )
            original = next(
                post
                for post in map(app.cache.post, sorted(app.cache.post_ids()))
                if post is not None and post.status == "scheduled" and post.platforms
            )
            with odd.traffic.lock:  # the next request is the one the server drops
                odd.traffic.count = DROP_EVERY - 1
            app.session.duplicate(original.id)
            await until(
                lambda: app.cache is not None and app.cache.count_posts() == 61, 10, "the copy"
            )
            assert len(odd.api.world.posts) == 61  # made once, never resent
            banner = app.window.banner
            assert "unknown whether it was saved" in banner.text()
            assert "Refresh to check" not in banner.text()
            app.window.close()
            assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())


def test_an_expired_key_given_for_one_run_says_how_to_replace_it(
    qapp: QApplication, runner: LoopRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With --base-url the key comes from POSTDESK_API_KEY and the window has no way to
    replace it: the advice must not point at a control that is not there."""
    monkeypatch.setenv("POSTDESK_API_KEY", "odd-key")

    async def scenario() -> None:
        with OddServer(modes={"expired"}, quiet=True) as odd:
            app = Application(qapp, options(odd.base_url))
            task = await started(app)
            banner = app.window.banner
            await until(lambda: "Token expired." in banner.text(), what="the refusal")
            assert not banner.second_button.isVisible()  # no "Replace key…" for a one-run key
            assert "replace it here" not in banner.text()
            assert "POSTDESK_API_KEY" in banner.text()
            app.window.close()
            assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())


def test_the_status_bar_leaves_rate_limited_once_a_write_got_through(
    qapp: QApplication, runner: LoopRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 429 on a write says "Rate limited, retrying in 1 s"; once the retry went through the
    status bar must not keep saying so until the next sync."""
    monkeypatch.setenv("POSTDESK_API_KEY", "odd-key")

    async def scenario() -> None:
        with OddServer(modes={"rate"}, quiet=True) as odd:
            app = Application(qapp, options(odd.base_url))
            task = await started(app)
            assert app.session is not None
            assert app.cache is not None
            label = app.window.connection_label
            await until(lambda: label.text() == "Online", what="first sync done")
            post_id = next(
                post.id
                for post in map(app.cache.post, sorted(app.cache.post_ids()))
                if post is not None and post.status == "scheduled"
            )
            # Any Retry-After of the first sync has passed, for the server and for the app.
            session = app.session
            await until(
                lambda: (
                    time.monotonic() >= odd.traffic.limited_until
                    and session.client.rate_gate.wait_remaining() == 0
                ),
                what="the first sync's rate limit to pass",
            )
            with odd.traffic.lock:  # the next request is answered 429
                odd.traffic.count = RATE_EVERY - 1
            app.session.move_to_draft(post_id)
            await until(lambda: label.text().startswith("Rate limited"), what="the 429 shown")
            await until(lambda: app.cache is not None and app.cache.post(post_id) is not None
                        and app.cache.post(post_id).status == "draft", what="the write")  # type: ignore[union-attr]  # fmt: skip
            await until(lambda: label.text() == "Online", 3, "the status back to Online")
            assert odd.stats()["early"] == []
            app.window.close()
            assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())


def test_a_refused_test_ping_is_explained_once_without_a_form_hint(
    qapp: QApplication, runner: LoopRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The odd server refuses the ping of its flaky webhook with a 422 (the receiver did not
    answer 2xx): the line under the buttons says so; no toast tells the user to correct
    highlighted fields that do not exist."""
    monkeypatch.setenv("POSTDESK_API_KEY", "odd-key")

    async def scenario() -> None:
        with OddServer(quiet=True) as odd:
            app = Application(qapp, options(odd.base_url))
            task = await started(app)
            app.window.show_section("webhooks")
            page = app.window.built_page("webhooks")
            assert isinstance(page, WebhooksPage)
            await until(lambda: page.model.rowCount() == 3, what="the webhooks")
            flaky = next(h for h in odd.api.world.webhooks if "flaky" in h["endpoint"])
            page.select_webhook(flaky["id"])
            page.send_test()
            await until(lambda: "could not be sent" in page.test_label.text(), what="the answer")
            assert "HTTP 500" in page.test_label.text()
            # The write has ended and its failure, if any, has been reported.
            await until(lambda: not page.gate.is_busy(flaky["id"]), what="the ping to end")
            assert "highlighted fields" not in app.window.banner.text()
            app.window.close()
            assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())
