"""Several posts at once (issue 16 §3), against the sandbox over loopback with a real session:
Ctrl+click, Shift+click and Ctrl+A pick posts, one question names the count, each post is
written exactly once (counted by a relay on the way to the server and read back from it), the
refusals are listed by post, and a move is undone as one."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import date, datetime, time, timedelta
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from app.sandbox.harness import SandboxServer
from app.store import WorkspaceCache
from app.workspaces.profiles import Profile
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.proxy import Relay
from tests.ui.calendar.conftest import BERLIN, focus
from tests.ui.calendar.test_keyboard import keyed
from ui.calendar import CalendarPage
from ui.messages import Message, MessageBridge
from ui.session import WorkspaceSession

LEFT = Qt.MouseButton.LeftButton
NONE = Qt.KeyboardModifier.NoModifier
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
ALT = Qt.KeyboardModifier.AltModifier
MONTH = date(2030, 3, 1)
WRITE = re.compile(rb"(PUT|DELETE|POST) /api/posts(?:/([0-9a-f-]+))?")


def at(day: int, hour: int, minute: int = 30) -> datetime:
    return local_instant(date(2030, 3, day), time(hour, minute), BERLIN)


class WriteCounter(Relay):
    """Counts each write request per post on its way to the server (a request line cut
    between two reads is rare with these small requests; a tail is kept anyway)."""

    def __init__(self, target_port: int) -> None:
        super().__init__(target_port)
        self.writes: Counter[tuple[str, str]] = Counter()

    async def _to_server(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        tail = b""
        try:
            while data := await reader.read(65536):
                seen = tail + data
                for match in WRITE.finditer(seen):
                    if match.end() <= len(tail):
                        continue  # counted with the previous read
                    method, post = match.group(1), match.group(2) or b""
                    self.writes[(method.decode(), post.decode())] += 1
                tail = seen[-80:]
                writer.write(data)
                await writer.drain()
        finally:
            with contextlib.suppress(OSError):
                writer.close()

    def of(self, post_id: str) -> int:
        return sum(n for (_method, post), n in self.writes.items() if post == post_id)


class World:
    def __init__(
        self,
        server: SandboxServer,
        relay: WriteCounter,
        session: WorkspaceSession,
        page: CalendarPage,
        ids: dict[str, str],
        posted: list[Message],
    ) -> None:
        self.server, self.relay, self.session, self.page = server, relay, session, page
        self.ids, self.posted = ids, posted

    def server_time(self, name: str) -> datetime | None:
        post = self.server.store.post(self.ids[name])
        assert post is not None
        value = post["scheduled_at"]
        return datetime.fromisoformat(value.replace("Z", "+00:00")) if value else None


@pytest.fixture
def runner(qapp: QApplication) -> Iterator[LoopRunner]:
    loop_runner = LoopRunner(qapp)
    yield loop_runner
    loop_runner.close()


@pytest.fixture
def world(tmp_path: Path, qtbot: QtBot, runner: LoopRunner) -> Iterator[Callable[[], World]]:
    made: list[tuple[SandboxServer, WriteCounter, WorkspaceSession]] = []

    def make() -> World:
        server = SandboxServer(tmp_path / "sandbox.sqlite3").__enter__()
        account = server.store.account_id("linkedin")
        plan = {
            "a": ("scheduled", at(4, 9), "Alpha launch note for the spring range"),
            "b": ("scheduled", at(5, 9), "Bravo roastery tour, book your seat"),
            "p": ("published", at(5, 12), "Published recap of the winter market"),
            "c": ("scheduled", at(6, 9), "Charlie tasting evening this Friday"),
            "d": ("scheduled", at(7, 9), "Delta brewing guide, part two"),
        }
        ids: dict[str, str] = {}
        for name, (status, when, text) in plan.items():
            (post_id,) = server.store.insert_posts(
                1, account_id=account, status="scheduled", scheduled_at=when, content=text
            )
            if status != "scheduled":
                server.store.set_post_status(post_id, status)
            ids[name] = post_id
        relay = WriteCounter(urlsplit(server.base_url).port or 0)
        runner.run(relay.up())
        posted: list[Message] = []
        bridge = MessageBridge()
        bridge.posted.connect(posted.append)
        profile = Profile(id="test-bulk", name="bulk", base_url=relay.base_url)
        cache = WorkspaceCache(tmp_path / "workspace.sqlite3")
        session = WorkspaceSession(profile, server.keys.admin, cache, bridge.scope())
        session._bridge = bridge  # type: ignore[attr-defined]  # kept alive with the session
        assert runner.run(session.sync.full_refresh())
        made.append((server, relay, session))
        page = CalendarPage(
            cache,
            display_tz=BERLIN,
            today=lambda: date(2030, 3, 1),
            now=lambda: local_instant(date(2030, 3, 1), time(8), BERLIN),
        )
        page.set_session(session)
        # As the shell does (ui/shell/pages.py): a write's answer moves those chips only.
        session.postsStored.connect(page.show_posts)
        session.postsForgotten.connect(page.forget_posts)
        page.registry = keyed(page)  # type: ignore[attr-defined]
        page.resize(1360, 860)
        page.show()
        qtbot.waitExposed(page)
        page.go_to(MONTH)
        focus(qtbot, page.month_view)
        qtbot.waitUntil(page.month_view.hasFocus)
        return World(server, relay, session, page, ids, posted)

    yield make
    runner.cancel_pending()
    for server, relay, session in made:
        runner.run(session.close())
        runner.run(relay.down())
        server.__exit__(None, None, None)


def click_chip(world: World, name: str, modifier: Qt.KeyboardModifier = NONE) -> None:
    view = world.page.month_view
    centre = view.chip_rect(world.ids[name]).center()
    QTest.mouseClick(view, LEFT, modifier, centre)


def accept(world: World, box: QMessageBox | None, button: str) -> str:
    assert box is not None
    assert box.isVisible()
    text = box.text()
    (chosen,) = [b for b in box.findChildren(QPushButton) if b.text() == button]
    QTest.mouseClick(chosen, LEFT)
    return text


def test_shift_and_ctrl_click_pick_posts_and_alt_right_moves_each_once_then_undo(
    world: Callable[[], World], runner: LoopRunner, qtbot: QtBot
) -> None:
    w = world()
    page, ids = w.page, w.ids
    before = {name: w.server_time(name) for name in "abcd"}
    click_chip(w, "a")
    click_chip(w, "c", SHIFT)  # a, b, p, c in the period's order
    assert page.state.marked == {ids["a"], ids["b"], ids["p"], ids["c"]}
    click_chip(w, "d", CTRL)
    click_chip(w, "b", CTRL)  # toggled off
    assert page.state.marked == {ids["a"], ids["p"], ids["c"], ids["d"]}
    click_chip(w, "b", CTRL)
    bar = page.bulk_bar()
    assert bar.isVisible()
    assert bar.count_label.text() == "5 posts selected"

    QTest.keyClick(page.month_view, Qt.Key.Key_Right, ALT)
    question = accept(w, page.bulk.question, "Move")
    assert question == "Move 5 posts a day later?"

    runner.run(until(lambda: page.bulk.last_report is not None, what="the run"))
    report = page.bulk.last_report
    assert report is not None
    assert sorted(report.done) == sorted(ids[n] for n in "abcd")
    assert [(r.post_id, r.reason) for r in report.refused] == [
        (ids["p"], "its status has no date to move")
    ]
    assert all(w.relay.of(ids[n]) == 1 for n in "abcd"), w.relay.writes
    assert w.relay.of(ids["p"]) == 0
    for name in "abcd":
        assert w.server_time(name) == before[name] + timedelta(days=1)  # type: ignore[operator]
    shown = page.bulk.report_view
    assert shown is not None
    assert shown.isVisible()
    assert shown.refusals.count() == 1
    assert "winter market" in shown.refusals.item(0).text()
    assert shown.result.text() == "4 posts moved. 1 post could not be moved:"
    runner.run(until(lambda: not w.session.writes.busy_keys(), what="the gate to let go"))
    # The calendar shows the new days without a reload.
    assert page.entry(ids["a"]).day == date(2030, 3, 5)  # type: ignore[union-attr]

    (undo,) = [m for m in w.posted if m.action_label == "Undo"]
    assert undo.text == "4 posts moved."
    assert undo.action is not None
    page.bulk.last_report = None
    undo.action()
    runner.run(until(lambda: page.bulk.last_report is not None, what="the undo"))
    assert all(w.relay.of(ids[n]) == 2 for n in "abcd"), w.relay.writes
    for name in "abcd":
        assert w.server_time(name) == before[name]


def test_ctrl_a_and_delete_one_question_each_post_once_refusals_listed(
    world: Callable[[], World], runner: LoopRunner
) -> None:
    w = world()
    page, ids = w.page, w.ids
    QTest.keyClick(page.month_view, Qt.Key.Key_A, CTRL)
    assert page.state.marked == set(ids.values())
    # Gone on the server meanwhile: its delete is refused (404) and listed.
    with w.server.store.tx() as db:
        db.update("posts", ids["d"], {"workspace_id": w.server.other_workspace_id})
    QTest.keyClick(page.month_view, Qt.Key.Key_Delete)
    assert accept(w, page.bulk.question, "Delete") == "Delete 5 posts?"
    runner.run(until(lambda: page.bulk.last_report is not None, what="the run"))
    report = page.bulk.last_report
    assert report is not None
    assert sorted(report.done) == sorted(ids[n] for n in "abpc")
    assert [r.post_id for r in report.refused] == [ids["d"]]
    assert all(w.relay.of(post_id) == 1 for post_id in ids.values()), w.relay.writes
    for name in "abpc":
        assert w.server.store.post(ids[name]) is None
    runner.run(until(lambda: ids["a"] not in page.loader.entries, what="chips gone"))
    assert not page.state.marked  # one post left is no multi-selection


def test_ctrl_a_takes_the_filtered_posts_only_and_labels_and_draft_each_post_once(
    world: Callable[[], World], runner: LoopRunner
) -> None:
    w = world()
    page, ids = w.page, w.ids
    label_id = w.server.store.create_label("Spring", "#3366cc")
    assert runner.run(w.session.sync.full_refresh())
    page.reload()
    status = page.filter_bar.status_combo
    status.setCurrentIndex(status.findData("scheduled"))
    QTest.keyClick(page.month_view, Qt.Key.Key_A, CTRL)
    assert page.state.marked == {ids[n] for n in "abcd"}  # not the published one

    menu = page.bulk_bar().label_menu
    menu.aboutToShow.emit()  # filled when it opens
    (add_menu,) = [a.menu() for a in menu.actions() if a.text() == "Add label"]
    (spring,) = [a for a in add_menu.actions() if a.text() == "Spring"]
    spring.trigger()
    assert accept(w, page.bulk.question, "Add label") == "Add the label “Spring” to 4 posts?"
    runner.run(until(lambda: page.bulk.last_report is not None, what="labels"))
    assert all(w.relay.of(ids[n]) == 1 for n in "abcd"), w.relay.writes
    for name in "abcd":
        post = w.server.store.post(ids[name])
        assert post is not None
        assert [label["id"] for label in post["labels"]] == [label_id]

    runner.run(until(lambda: not w.session.writes.busy_keys(), what="the gate to let go"))
    page.bulk.last_report = None
    QTest.mouseClick(page.bulk_bar().to_draft, LEFT)
    assert accept(w, page.bulk.question, "Move back to draft") == ("Move 4 posts back to draft?")
    runner.run(until(lambda: page.bulk.last_report is not None, what="drafts"))
    assert all(w.relay.of(ids[n]) == 2 for n in "abcd"), w.relay.writes
    for name in "abcd":
        post = w.server.store.post(ids[name])
        assert post is not None
        assert post["status"] == "draft"


def test_dragging_a_picked_chip_moves_every_picked_post_by_as_many_days(
    world: Callable[[], World], runner: LoopRunner
) -> None:
    w = world()
    page, ids = w.page, w.ids
    before = {name: w.server_time(name) for name in "ab"}
    click_chip(w, "a")
    click_chip(w, "b", CTRL)
    view = page.month_view
    start = view.chip_rect(ids["a"]).center()
    target = view.cell_rect(date(2030, 3, 11)).center()  # a week later
    QTest.mousePress(view, LEFT, NONE, start)
    for step in range(1, 7):
        QTest.mouseMove(view, start + (target - start) * step / 6)
    QTest.mouseMove(view, target)
    QTest.mouseRelease(view, LEFT, NONE, target)
    assert accept(w, page.bulk.question, "Move") == "Move 2 posts 7 days later?"
    runner.run(until(lambda: page.bulk.last_report is not None, what="the run"))
    for name in "ab":
        assert w.relay.of(ids[name]) == 1
        assert w.server_time(name) == before[name] + timedelta(days=7)  # type: ignore[operator]
    assert w.relay.of(ids["c"]) == 0


def test_escape_drops_the_multi_selection_first(world: Callable[[], World]) -> None:
    w = world()
    page = w.page
    click_chip(w, "a")
    click_chip(w, "b", CTRL)
    assert len(page.state.marked) == 2
    QTest.keyClick(page.month_view, Qt.Key.Key_Escape)
    assert not page.state.marked
    assert page.selected_post_id() == w.ids["b"]
    assert page.bulk_bar().isHidden()
    _ = QPoint


def test_the_bar_and_the_report_have_no_unnamed_control(
    world: Callable[[], World], runner: LoopRunner
) -> None:
    from tests.ui.a11y_walk import unnamed_controls

    w = world()
    page = w.page
    QTest.keyClick(page.month_view, Qt.Key.Key_A, CTRL)
    QTest.mouseClick(page.bulk_bar().later, LEFT)
    accept(w, page.bulk.question, "Move")
    runner.run(until(lambda: page.bulk.last_report is not None, what="the run"))
    assert page.bulk.report_view is not None
    assert page.bulk.report_view.isVisible()
    assert unnamed_controls(page) == []


def test_a_post_whose_write_is_in_flight_is_refused_and_not_sent(
    world: Callable[[], World], runner: LoopRunner
) -> None:
    w = world()
    page, ids = w.page, w.ids
    click_chip(w, "a")
    click_chip(w, "b", CTRL)
    QTest.keyClick(page.month_view, Qt.Key.Key_Right, ALT)
    held = asyncio.Event()

    async def hold() -> None:
        await held.wait()

    assert w.session.writes.run(ids["a"], hold()) is not None  # another write of "a" in flight
    assert page.is_busy(ids["a"])  # the page follows its session's gate ("Saving…" on the chip)
    accept(w, page.bulk.question, "Move")
    runner.run(until(lambda: page.bulk.last_report is not None, what="the run"))
    report = page.bulk.last_report
    assert report is not None
    assert report.done == [ids["b"]]
    assert [(r.post_id, r.reason) for r in report.refused] == [
        (ids["a"], "a change to it was still being saved; nothing was sent")
    ]
    assert w.relay.of(ids["a"]) == 0
    assert w.relay.of(ids["b"]) == 1
    held.set()
