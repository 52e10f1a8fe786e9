"""Posts picked in the agenda feed the same bulk actions as the grids' (issue 16 §3): against
the sandbox over loopback with a real session, each picked post is written exactly once
(counted by a relay on its way to the server) and read back from the server."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from tests.ui.app.conftest import LoopRunner, until
from tests.ui.calendar.conftest import focus
from tests.ui.calendar.test_bulk import (  # noqa: F401  (fixtures)
    CTRL,
    LEFT,
    NONE,
    SHIFT,
    World,
    accept,
    runner,
    world,
)


def in_agenda(make: Callable[[], World], qtbot: QtBot) -> World:
    w = make()
    w.page.set_view("agenda")
    focus(qtbot, w.page.agenda_view)
    qtbot.waitUntil(w.page.agenda_view.hasFocus)
    return w


def click_row(w: World, name: str, modifier: Qt.KeyboardModifier = NONE) -> None:
    view = w.page.agenda_view
    model = view.post_model
    row = model.row_of(w.ids[name])
    assert row >= 0, name
    QTest.mouseClick(view.viewport(), LEFT, modifier, view.visualRect(model.index(row)).center())


def settle(w: World, loop: LoopRunner, what: str) -> None:
    loop.run(until(lambda: w.page.bulk.last_report is not None, what=what))
    loop.run(until(lambda: not w.session.writes.busy_keys(), what="the gate to let go"))


def test_rows_picked_with_shift_and_ctrl_click_move_a_day_from_the_bar_each_once(
    world: Callable[[], World],  # noqa: F811
    runner: LoopRunner,  # noqa: F811
    qtbot: QtBot,
) -> None:
    w = in_agenda(world, qtbot)
    page, ids = w.page, w.ids
    before = {name: w.server_time(name) for name in "abcd"}
    click_row(w, "a")
    click_row(w, "c", SHIFT)  # a, b, p, c: the list's order
    click_row(w, "p", CTRL)  # the published one out again
    assert page.state.marked == {ids["a"], ids["b"], ids["c"]}
    bar = page.bulk_bar()
    assert bar.count_label.text() == "3 posts selected"

    QTest.mouseClick(bar.later, LEFT)
    assert accept(w, page.bulk.question, "Move") == "Move 3 posts a day later?"
    settle(w, runner, "the move")
    report = page.bulk.last_report
    assert report is not None
    assert sorted(report.done) == sorted(ids[n] for n in "abc")
    assert all(w.relay.of(ids[n]) == 1 for n in "abc"), w.relay.writes
    assert w.relay.of(ids["d"]) == w.relay.of(ids["p"]) == 0
    for name in "abc":
        assert w.server_time(name) == before[name] + timedelta(days=1)  # type: ignore[operator]
    assert w.server_time("d") == before["d"]


def test_ctrl_a_in_the_agenda_then_to_draft_duplicate_and_delete_each_once(
    world: Callable[[], World],  # noqa: F811
    runner: LoopRunner,  # noqa: F811
    qtbot: QtBot,
) -> None:
    w = in_agenda(world, qtbot)
    page, ids = w.page, w.ids
    QTest.keyClick(page.agenda_view, Qt.Key.Key_A, CTRL)
    assert page.state.marked == set(ids.values())

    QTest.mouseClick(page.bulk_bar().to_draft, LEFT)
    assert accept(w, page.bulk.question, "Move back to draft") == "Move 5 posts back to draft?"
    settle(w, runner, "to draft")
    report = page.bulk.last_report
    assert report is not None
    assert [r.post_id for r in report.refused] == [ids["p"]]  # published: refused, not sent
    assert all(w.relay.of(ids[n]) == 1 for n in "abcd"), w.relay.writes
    assert w.relay.of(ids["p"]) == 0
    for name in "abcd":
        post = w.server.store.post(ids[name])
        assert post is not None
        assert post["status"] == "draft"

    # Drafts keep their day in the agenda: pick them again there.
    runner.run(until(lambda: page.agenda_view.post_model.row_of(ids["d"]) >= 0, what="rows"))
    click_row(w, "a")
    click_row(w, "b", CTRL)
    page.bulk.last_report = None
    count = w.server.store.post_count()
    QTest.mouseClick(page.bulk_bar().duplicate, LEFT)
    assert accept(w, page.bulk.question, "Duplicate") == "Duplicate 2 posts?"
    settle(w, runner, "duplicates")
    report = page.bulk.last_report
    assert report is not None
    assert sorted(report.done) == sorted(ids[n] for n in "ab")
    assert w.server.store.post_count() == count + 2  # one copy each (a creating POST each)
    assert w.relay.writes[("POST", "ba")] == 2, w.relay.writes  # POST /api/posts/batch

    page.bulk.last_report = None
    focus(qtbot, page.agenda_view)  # back from the question's window
    qtbot.waitUntil(page.agenda_view.hasFocus)
    QTest.keyClick(page.agenda_view, Qt.Key.Key_Delete)
    assert accept(w, page.bulk.question, "Delete") == "Delete 2 posts?"
    settle(w, runner, "deletes")
    assert w.relay.of(ids["a"]) == w.relay.of(ids["b"]) == 2, w.relay.writes
    assert w.server.store.post(ids["a"]) is None
    assert w.server.store.post(ids["b"]) is None
    assert w.server.store.post(ids["c"]) is not None


def test_escape_in_the_agenda_drops_the_picked_rows(
    world: Callable[[], World],  # noqa: F811
    qtbot: QtBot,
) -> None:
    w = in_agenda(world, qtbot)
    page = w.page
    click_row(w, "a")
    click_row(w, "d", CTRL)
    assert len(page.state.marked) == 2
    QTest.keyClick(page.agenda_view, Qt.Key.Key_Escape)
    assert not page.state.marked
    assert page.bulk_bar().isHidden()
    assert page.selected_post_id() == w.ids["d"]
