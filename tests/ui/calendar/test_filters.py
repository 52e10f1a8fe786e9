"""Filters by account or network, label and status, in the views and in the tray."""

from __future__ import annotations

from datetime import date, time

from PySide6.QtWidgets import QComboBox
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from app.calendar.post_card import card_of
from app.models import Post
from tests.ui.calendar.conftest import BERLIN, PageFactory
from tests.ui.calendar.factories import ACCOUNTS, LABELS, make_post
from ui.calendar.filters import UNKNOWN_STATUS, PostFilter
from ui.calendar.page import CalendarPage

DAY = date(2025, 10, 22)


def at(hour: int) -> object:
    return local_instant(DAY, time(hour), BERLIN)


def sample() -> dict[str, Post]:
    return {
        "linkedin": make_post(when=at(8), account="linkedin", labels=("launch",)),
        "x": make_post(when=at(9), account="x", labels=("hiring",), status="draft"),
        "x-second": make_post(when=at(10), account="x-second", status="failed"),
        "odd": make_post(when=at(11), account="instagram-facebook", status="in_review"),
        "tray-x": make_post(when=None, account="x", status="draft"),
        "tray-linkedin": make_post(when=None, account="linkedin", status="draft"),
    }


def shown(page: CalendarPage) -> set[str]:
    """The posts the month shows on DAY: as chips, or counted by its "+N" (every day's chips
    have two lines since issue 16, so four posts no longer all get one)."""
    view = page.month_view
    on_day = {entry.id for entry in view.entries_on(DAY)}
    assert len(view.visible_post_ids(DAY)) + view.hidden_count(DAY) == len(on_day)
    return on_day


def choose(combo: QComboBox, data: str) -> None:
    index = combo.findData(data)
    assert index >= 0, data
    combo.setCurrentIndex(index)


def test_post_filter_rules() -> None:
    posts = {name: card_of(post) for name, post in sample().items()}
    assert PostFilter(network="x").matches(posts["x-second"])
    assert not PostFilter(network="x").matches(posts["linkedin"])
    assert PostFilter(account_id=ACCOUNTS["x"]["id"]).matches(posts["x"])
    assert not PostFilter(account_id=ACCOUNTS["x"]["id"]).matches(posts["x-second"])
    assert PostFilter(label_id=LABELS["launch"]["id"]).matches(posts["linkedin"])
    assert not PostFilter(label_id=LABELS["launch"]["id"]).matches(posts["x"])
    assert PostFilter(status="failed").matches(posts["x-second"])
    assert PostFilter(status=UNKNOWN_STATUS).matches(posts["odd"])
    assert not PostFilter(status=UNKNOWN_STATUS).matches(posts["x"])
    assert not PostFilter().active
    assert PostFilter().apply(posts.values()) == list(posts.values())


def test_network_filter_covers_every_account_of_the_network(make_page: PageFactory) -> None:
    posts = sample()
    page = make_page(posts.values())
    assert len(shown(page)) == 4
    choose(page.filter_bar.account_combo, "network:x")
    assert shown(page) == {posts["x"].id, posts["x-second"].id}
    assert page.tray_list.post_model.post_ids() == [posts["tray-x"].id]
    assert page.filter_bar.clear_button.isVisibleTo(page)


def test_account_filter_shows_one_account(make_page: PageFactory) -> None:
    posts = sample()
    page = make_page(posts.values())
    choose(page.filter_bar.account_combo, f"account:{ACCOUNTS['x-second']['id']}")
    assert shown(page) == {posts["x-second"].id}
    assert page.tray_list.post_model.post_ids() == []
    assert page.tray_empty.isVisibleTo(page)


def test_label_and_status_filters_combine(make_page: PageFactory) -> None:
    posts = sample()
    page = make_page(posts.values())
    choose(page.filter_bar.label_combo, LABELS["hiring"]["id"])
    assert shown(page) == {posts["x"].id}
    choose(page.filter_bar.status_combo, "scheduled")
    assert shown(page) == set()
    assert page.empty_state.isVisible()
    assert page.empty_state.title.text() == "No posts match these filters"
    page.empty_state.button.click()  # "Clear filters"
    assert page.current_filter() == PostFilter()
    assert len(shown(page)) == 4
    assert not page.empty_state.isVisible()


def test_unknown_status_filter(make_page: PageFactory) -> None:
    posts = sample()
    page = make_page(posts.values())
    choose(page.filter_bar.status_combo, UNKNOWN_STATUS)
    assert shown(page) == {posts["odd"].id}


def test_filter_choices_list_networks_accounts_and_labels(make_page: PageFactory) -> None:
    page = make_page(sample().values())
    combo = page.filter_bar.account_combo
    items = [combo.itemText(i) for i in range(combo.count()) if combo.itemText(i)]
    assert items[0] == "All accounts"
    assert "All X" in items
    assert "Northwind Jobs (@northwindjobs)" in items
    labels_combo = page.filter_bar.label_combo
    assert [labels_combo.itemText(i) for i in range(labels_combo.count())] == [
        "All labels",
        "Launch",
        "Hiring",
    ]


def test_filters_survive_a_reload(make_page: PageFactory) -> None:
    posts = sample()
    page = make_page(posts.values())
    choose(page.filter_bar.account_combo, "network:x")
    page.reload()
    assert page.current_filter().network == "x"
    assert shown(page) == {posts["x"].id, posts["x-second"].id}


def test_an_open_account_list_is_as_wide_as_its_longest_item(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    page = make_page(sample().values())
    page.resize(1024, 640)
    page.show()
    qtbot.waitExposed(page)
    combo = page.filter_bar.account_combo
    longest = max(
        combo.fontMetrics().horizontalAdvance(combo.itemText(i)) for i in range(combo.count())
    )
    combo.showPopup()
    try:
        qtbot.waitUntil(combo.view().isVisible)
        assert combo.view().width() >= longest + 24  # the closed box is narrower than that
        assert combo.view().minimumWidth() == combo.view().sizeHintForColumn(0) + 24
    finally:
        combo.hidePopup()
