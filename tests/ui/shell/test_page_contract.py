"""Every page the window can show is a `Page` (what the shell calls on it), and a widget that is
not one is refused by name when it is plugged in, never skipped (issue 18 §4: signals and
methods were looked up with `getattr(page, "...", None)`, so a typo went unnoticed)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtWidgets import QApplication, QWidget

from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, runner, until  # noqa: F401  # the fixture
from tests.ui.app.test_app_calendar import api_key, options, started, stopped  # noqa: F401
from ui.application import Application
from ui.calendar import CalendarPage, InMemoryCalendarSource
from ui.composer.page import ComposerPage
from ui.panels.accounts import AccountsPanel
from ui.panels.webhooks import WebhooksPage
from ui.sections import SECTIONS
from ui.shell.page_contract import PAGE_MEMBERS, KeepsClear, NotAPage, Page, as_page, plugged
from ui.shell.pages import _PANEL_BUILDERS

BUILDERS: dict[str, Callable[[QWidget], QWidget]] = {
    "calendar": lambda parent: CalendarPage(InMemoryCalendarSource([]), parent=parent),
    "accounts": AccountsPanel,
    **_PANEL_BUILDERS,
}


class Typo(QWidget):
    """A page whose `set_session` is misspelt."""

    def set_sesion(self, session: object) -> None:
        raise AssertionError("never called")

    def action_specs(self) -> list[object]:
        return []


def test_the_page_protocol_is_what_the_shell_calls() -> None:
    assert PAGE_MEMBERS == ("set_session", "action_specs")


def test_every_section_has_a_builder() -> None:
    assert set(BUILDERS) == set(SECTIONS)


@pytest.mark.parametrize("section", SECTIONS)
def test_every_registered_page_is_a_page(qapp: QApplication, section: str) -> None:
    parent = QWidget()
    try:
        page = BUILDERS[section](parent)
        assert isinstance(page, Page)
        assert as_page(page) is page
        assert isinstance(page.action_specs(), list)
        page.set_session(None)  # no workspace: nothing to show, nothing raised
    finally:
        parent.deleteLater()


def test_the_composer_keeps_its_send_button_clear(qapp: QApplication) -> None:
    page = ComposerPage()
    try:
        assert isinstance(page, KeepsClear)
        assert page.keep_clear()
    finally:
        page.deleteLater()
    assert not isinstance(QWidget(), KeepsClear)


def test_a_widget_missing_members_is_refused_by_name(qapp: QApplication) -> None:
    with pytest.raises(NotAPage, match="QWidget is no page: it lacks set_session, action_specs"):
        as_page(QWidget())
    with pytest.raises(NotAPage, match=r"Typo is no page: it lacks set_session$"):
        plugged(Typo())  # type: ignore[type-var]  # mypy refuses it too: the point


def test_the_window_refuses_a_page_builder_that_builds_no_page(
    qapp: QApplication,
    runner: LoopRunner,  # noqa: F811
) -> None:
    async def scenario() -> None:
        app = Application(qapp, options())
        try:
            app.window.set_page_builder("labels", app.pages._built(Typo, "labels"))
            with pytest.raises(NotAPage, match="set_session"):
                app.window.page("labels")
        finally:
            app.window.close()

    runner.run(scenario())


def test_a_webhook_notification_opens_the_webhooks_page_on_that_webhook(
    qapp: QApplication,
    runner: LoopRunner,  # noqa: F811
    demo_sandbox: SandboxServer,
    api_key: str,  # noqa: F811
) -> None:
    """`select_webhook` is called on the page directly (it was looked up by name and skipped
    when missing)."""

    async def scenario() -> None:
        app = Application(qapp, options(demo_sandbox.base_url))
        task = await started(app)
        assert app.window.built_page("webhooks") is None
        webhook_id = demo_sandbox.store.create_webhook(
            "https://hooks.example.com/paused", status="paused"
        )

        app.notifications.open_item("webhook", webhook_id)

        assert app.window.current_section() == "webhooks"
        page = app.window.built_page("webhooks")
        assert isinstance(page, WebhooksPage)
        await until(
            lambda: page.selected is not None and page.selected.id == webhook_id,
            what="the notified webhook selected",
        )
        assert await stopped(app, task) == 0

    runner.run(scenario())
