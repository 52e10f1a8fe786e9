"""Thumbnails on the calendar: images from the real sandbox, read off the GUI thread, painted in
the week view and the details once ready, owned by the workspace session."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QRect
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication, QWidget
from shiboken6 import Shiboken

from app.media.thumbnail_cache import ThumbnailCache, files_for
from app.sandbox.harness import SandboxServer
from app.sandbox.media_files import gradient_png
from app.store import WorkspaceCache
from app.workspaces.profiles import Profile
from tests.media.served_media import StallingServer, serve
from tests.ui.calendar.conftest import PageFactory
from tests.ui.calendar.factories import make_post, utc
from tests.ui.loop_runner import LoopRunner, until
from ui.calendar.thumbnails import Thumbnails
from ui.messages import MessageBridge
from ui.session import WorkspaceSession

RED = (220, 30, 30)
RED_PNG = gradient_png(80, 60, RED, RED)


@pytest.fixture(autouse=True)
def collect_in_this_thread(qapp: QApplication) -> Iterator[None]:
    """Qt objects left by earlier tests are collected here, in the GUI thread: these tests run
    the sandbox's server thread, where a garbage collection may otherwise delete them (and Qt
    refuses to stop their timers from there)."""
    gc.collect()
    yield
    for widget in QApplication.topLevelWidgets():
        widget.close()
        widget.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()


@pytest.fixture
def runner(qapp: QApplication) -> Iterator[LoopRunner]:
    loop_runner = LoopRunner(qapp)
    yield loop_runner
    loop_runner.close()


def image_media(url: str, n: int = 1, alt: str = "A red square") -> dict[str, Any]:
    return {
        "id": f"media-{n}",
        "path": f"medias/{n}.png",
        "url": url,
        "type": "image",
        "mime_type": "image/png",
        "original_filename": f"photo-{n}.png",
        "meta": {"alt_text": alt},
    }


@pytest.fixture
def make_thumbnails() -> Iterator[type[Thumbnails]]:
    """Thumbnails deleted in this thread at the end (a later garbage collection may run in the
    sandbox's thread, where Qt refuses to delete objects of this one)."""
    made: list[Thumbnails] = []

    def make(source: ThumbnailCache) -> Thumbnails:
        made.append(Thumbnails(source))
        return made[-1]

    yield make  # type: ignore[misc]
    for thumbnails in made:
        thumbnails.close()
        Shiboken.delete(thumbnails)


@contextlib.asynccontextmanager
async def downloading(cache: ThumbnailCache) -> AsyncIterator[ThumbnailCache]:
    task = asyncio.create_task(cache.run())
    try:
        yield cache
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await cache.aclose()


def is_red(color: QColor) -> bool:
    return color.red() > 180 and color.green() < 90 and color.blue() < 90


def centre(widget: QWidget, rect: QRect) -> QColor:
    image = widget.grab().toImage()
    ratio = image.devicePixelRatio()
    point = rect.center()
    return image.pixelColor(round(point.x() * ratio), round(point.y() * ratio))


def test_a_thumbnail_is_read_once_off_the_gui_thread_and_kept_small_on_disk(
    runner: LoopRunner,
    sandbox: SandboxServer,
    tmp_path: Path,
    make_thumbnails: type[Thumbnails],
) -> None:
    url = serve(sandbox, "red.png", "image/png", RED_PNG)
    cache = ThumbnailCache(tmp_path / "thumbs")
    thumbnails = make_thumbnails(cache)
    changed: list[bool] = []
    thumbnails.changed.connect(lambda: changed.append(True))

    async def body() -> None:
        async with downloading(cache):
            answers = [thumbnails.pixmap(url, 30) for _ in range(10)]
            assert answers == [None] * 10  # never waits
            await until(lambda: changed, what="`changed`, once the pixmap is ready")

    runner.run(body())
    pixmap = thumbnails.pixmap(url, 30)
    assert pixmap is not None
    assert pixmap.deviceIndependentSize().toSize().width() == 30
    assert pixmap.deviceIndependentSize().toSize().height() == 30  # cropped square
    assert is_red(pixmap.toImage().pixelColor(pixmap.width() // 2, pixmap.height() // 2))
    assert cache.requests_made == 1
    assert thumbnails.decodes == 1
    files = files_for(tmp_path / "thumbs", url)
    assert files.small.exists()
    assert not files.original.exists()
    assert QImage(str(files.small)).width() == 80  # small already: kept at its size


def test_an_image_that_cannot_be_read_fails_once_and_is_not_asked_again(
    runner: LoopRunner,
    sandbox: SandboxServer,
    tmp_path: Path,
    make_thumbnails: type[Thumbnails],
) -> None:
    url = serve(sandbox, "broken.png", "image/png", b"\x89PNG\r\n\x1a\nnot really")
    cache = ThumbnailCache(tmp_path / "thumbs")
    thumbnails = make_thumbnails(cache)

    async def body() -> None:
        async with downloading(cache):
            thumbnails.pixmap(url, 30)
            await until(lambda: thumbnails.failed(url), what="the failure")
            for _ in range(20):
                assert thumbnails.pixmap(url, 30) is None
                assert thumbnails.pixmap(url, 60) is None

    runner.run(body())
    assert cache.requests_made == 1
    assert thumbnails.decodes == 1
    assert cache.failure(url) is not None
    assert not any(path.exists() for path in files_for(tmp_path / "thumbs", url))


def test_the_week_view_paints_a_thumbnail_once_it_is_ready(
    make_page: PageFactory, runner: LoopRunner, sandbox: SandboxServer, tmp_path: Path
) -> None:
    url = serve(sandbox, "red.png", "image/png", RED_PNG)
    post = make_post(when=utc(2025, 10, 22, 8, 30), media=[image_media(url)])
    plain = make_post(when=utc(2025, 10, 23, 8, 30))
    page = make_page([post, plain])
    page.set_view("week")
    view = page.week_view
    view.scroll_to_minutes(9 * 60)
    cache = ThumbnailCache(tmp_path / "thumbs")
    rect = view.thumbnail_rect(post.id)
    assert rect.width() == rect.height() == view.TALL_BLOCK_HEIGHT - 4
    assert view.thumbnail_rect(plain.id).isEmpty()  # no image, no thumbnail
    assert not is_red(centre(view.viewport(), rect))  # no workspace: no image
    page.thumbnails.set_source(cache)
    assert not is_red(centre(view.viewport(), rect))  # this paint asks for the image

    async def body() -> None:
        async with downloading(cache):
            await until(lambda: is_red(centre(view.viewport(), rect)), what="the thumbnail")

    runner.run(body())
    assert cache.requests_made == 1


def test_the_details_show_the_posts_images(
    make_page: PageFactory, runner: LoopRunner, sandbox: SandboxServer, tmp_path: Path
) -> None:
    url = serve(sandbox, "red.png", "image/png", RED_PNG)
    post = make_post(when=utc(2025, 10, 22, 8, 30), media=[image_media(url)])
    page = make_page([post])
    cache = ThumbnailCache(tmp_path / "thumbs")
    page.thumbnails.set_source(cache)
    page.select_post(post.id)
    page.open_detail()
    (label,) = page.detail.thumbnail_labels()
    assert label.accessibleName() == "Image: A red square"

    async def body() -> None:
        async with downloading(cache):
            await until(lambda: not label.pixmap().isNull(), what="the image in the details")

    runner.run(body())
    assert is_red(label.pixmap().toImage().pixelColor(10, 10))


def test_closing_the_workspace_cancels_its_downloads(
    runner: LoopRunner, sandbox: SandboxServer, tmp_path: Path
) -> None:
    server = StallingServer()
    origin = runner.run(server.up())
    profile = Profile(id="test-thumbs", name="ws", base_url=sandbox.base_url)
    session = WorkspaceSession(
        profile,
        sandbox.keys.admin,
        WorkspaceCache(tmp_path / "ws.sqlite3"),
        MessageBridge().scope(),
    )
    try:
        session.start_thumbnails()
        session.thumbnail_cache.request(f"{origin}/slow.png")
        runner.run(until(lambda: server.open == 1, what="the download in flight"))
        runner.run(session.close())
        runner.run(until(lambda: server.closed == 1, what="its connection closed"))
        assert session.thumbnail_cache.in_flight == 0
        assert session.thumbnail_cache.closed
    finally:
        runner.run(server.down())
        # Deleted here: a later garbage collection may run in another thread (the cache's
        # writer), where Qt refuses to stop the session's timers.
        Shiboken.delete(session)


def test_the_details_say_when_an_image_has_no_preview(
    make_page: PageFactory, runner: LoopRunner, sandbox: SandboxServer, tmp_path: Path
) -> None:
    url = f"{sandbox.origin}/storage/medias/gone.png"
    post = make_post(when=utc(2025, 10, 22, 8, 30), media=[image_media(url, alt="")])
    page = make_page([post])
    cache = ThumbnailCache(tmp_path / "thumbs")
    page.thumbnails.set_source(cache)
    page.select_post(post.id)
    page.open_detail()
    (label,) = page.detail.thumbnail_labels()
    assert label.accessibleName() == "Image: photo-1.png"  # no alt text: its name

    async def body() -> None:
        async with downloading(cache):
            await until(lambda: label.text() == "No\npreview", what="the failure said")

    runner.run(body())
    assert label.pixmap().isNull()
    assert cache.requests_made == 1
