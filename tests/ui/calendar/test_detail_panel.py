"""Post detail panel: safe plain text, media, destinations with links, labels, time zones."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

from PySide6.QtCore import QObject, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from pytestqt.qtbot import QtBot

from app.calendar.grid import local_instant
from app.models import Post
from tests.ui.calendar.conftest import BERLIN, PageFactory
from tests.ui.calendar.factories import make_post, post_dict
from ui.calendar.page import CalendarPage

WHEN = local_instant(date(2025, 10, 22), time(9, 30), BERLIN)


def open_post(page: CalendarPage, post_id: str) -> None:
    page.select_post(post_id)
    page.open_detail()


class UrlCatcher(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url.toString())


def test_html_content_is_shown_as_inert_plain_text(make_page: PageFactory) -> None:
    post = make_post(
        when=WHEN,
        content=(
            "<p>Autumn blend <b>is here</b> &amp; ready</p><p>Pre-order now</p>"
            "<script>document.title='pwned'</script>"
            '<img src="http://tracker.example/p.png" onerror="alert(1)">'
            "<p>&lt;b&gt;not bold&lt;/b&gt;</p>"
        ),
    )
    page = make_page([post])
    open_post(page, post.id)
    label = page.detail.content_label
    assert label.textFormat() == Qt.TextFormat.PlainText
    assert page.detail.content_text() == (
        "Autumn blend is here & ready\nPre-order now\n<b>not bold</b>"
    )
    for fragment in ("pwned", "tracker", "alert", "<script", "<img"):
        assert fragment not in page.detail.content_text()


def test_media_are_listed_by_name_and_type(make_page: PageFactory) -> None:
    media = [
        {
            "id": "m1",
            "path": "medias/m1.jpg",
            "url": "https://cdn.example.com/m1.jpg",
            "type": "image",
            "mime_type": "image/jpeg",
            "original_filename": "autumn-hero.jpg",
            "size": 1_572_864,
        },
        {"id": "m2", "path": "medias/m2.mp4", "type": "video", "mime_type": "video/mp4"},
    ]
    post = make_post(when=WHEN, media=media)
    page = make_page([post])
    open_post(page, post.id)
    assert page.detail.media_texts() == ["autumn-hero.jpg — image · 1.5 MB", "m2.mp4 — video"]


def test_destinations_show_status_error_and_a_safe_link(
    make_page: PageFactory, qtbot: QtBot
) -> None:
    failed = make_post(
        when=WHEN,
        status="failed",
        error_message="The access token has expired. Reconnect the account.",
    )
    published = make_post(
        when=WHEN, status="published", platform_url="https://www.linkedin.com/feed/update/123"
    )
    sneaky = make_post(when=WHEN, status="published", platform_url="file:///etc/passwd")
    page = make_page([failed, published, sneaky])

    open_post(page, failed.id)
    (row,) = page.detail.platform_rows()
    assert row.status_label.text() == "failed"
    assert row.error_label.text() == "The access token has expired. Reconnect the account."
    assert not row.error_label.isHidden()
    assert row.link_button.isHidden()

    open_post(page, sneaky.id)
    (row,) = page.detail.platform_rows()
    assert row.link_button.isHidden()
    assert not row.open_link()

    open_post(page, published.id)
    (row,) = page.detail.platform_rows()
    assert row.error_label.isHidden()
    assert not row.link_button.isHidden()
    catcher = UrlCatcher()
    QDesktopServices.setUrlHandler("https", catcher, "open")  # type: ignore[arg-type]
    try:
        qtbot.mouseClick(row.link_button, Qt.MouseButton.LeftButton)
    finally:
        QDesktopServices.unsetUrlHandler("https")
    assert catcher.urls == ["https://www.linkedin.com/feed/update/123"]


def test_labels_are_pills(make_page: PageFactory) -> None:
    post = make_post(when=WHEN, labels=("launch", "hiring"))
    page = make_page([post])
    open_post(page, post.id)
    assert page.detail.label_names() == ["Launch", "Hiring"]


def test_time_is_local_and_also_in_the_accounts_zone(make_page: PageFactory) -> None:
    post = make_post(when=WHEN, account_timezone="America/New_York")
    same = make_post(when=WHEN, account_timezone="Europe/Paris")  # same wall clock as Berlin
    broken = make_post(when=WHEN, account_timezone="Mars/Olympus_Mons")
    page = make_page([post, same, broken])
    open_post(page, post.id)
    assert page.detail.when_label.text() == "Wednesday, 22 October 2025 · 09:30 CEST"
    assert page.detail.account_time_label.text() == (
        "Wednesday, 22 October 2025 · 03:30 EDT in America/New_York (account time)"
    )
    assert not page.detail.account_time_label.isHidden()
    for quiet in (same, broken):
        open_post(page, quiet.id)
        assert page.detail.account_time_label.isHidden()


def test_a_non_utc_display_zone_shows_its_own_wall_clock(make_page: PageFactory) -> None:
    post = make_post(when=datetime(2025, 10, 22, 7, 30, tzinfo=UTC))
    page = make_page([post], tz=UTC)
    open_post(page, post.id)
    assert page.detail.when_label.text() == "Wednesday, 22 October 2025 · 07:30 UTC"


def test_unknown_status_is_spelled_out(make_page: PageFactory) -> None:
    post = make_post(when=WHEN, status="in_review")
    page = make_page([post])
    open_post(page, post.id)
    assert page.detail.status_pill.text() == "unknown (in_review)"


def test_closing_the_panel_keeps_the_selection(make_page: PageFactory, qtbot: QtBot) -> None:
    post = make_post(when=WHEN)
    page = make_page([post])
    open_post(page, post.id)
    qtbot.mouseClick(page.detail.close_button, Qt.MouseButton.LeftButton)
    assert not page.detail.isVisible()
    assert page.selected_post_id() == post.id


def test_a_destination_on_a_disconnected_account_says_it_will_be_skipped(
    make_page: PageFactory,
) -> None:
    def on_account(status: str, is_active: bool, post_status: str = "scheduled") -> Post:
        data = post_dict(when=WHEN, status=post_status)
        data["platforms"][0]["social_account"].update(status=status, is_active=is_active)
        return Post.model_validate(data)

    gone = on_account("disconnected", False)
    expired = on_account("token_expired", False)
    paused = on_account("connected", False)
    fine = on_account("connected", True)
    done = on_account("disconnected", False, post_status="published")
    page = make_page([gone, expired, paused, fine, done])
    expected = {
        gone.id: "This account is disconnected: it will be skipped",
        expired.id: "This account's access has expired: it will be skipped",
        paused.id: "This account is turned off for publishing: it will be skipped",
    }
    for post_id, start in expected.items():
        open_post(page, post_id)
        (row,) = page.detail.platform_rows()
        assert row.account_warning.text().startswith(start)
        assert not row.account_warning.isHidden()
    for post_id in (fine.id, done.id):
        open_post(page, post_id)
        (row,) = page.detail.platform_rows()
        assert row.account_warning.isHidden()
