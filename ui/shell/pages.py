"""The pages in the window and what connects them to the open workspace.

A page plugs in by offering `set_session(session | None)` and `action_specs()` (the `Page`
protocol of `ui.shell.page_contract`, checked by mypy where each page is built and again when it
is plugged); the calendar is built at start (it is the first paint), the others when first
shown. Calendar requests are routed to whichever session is open when they are made.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, SignalInstance
from PySide6.QtWidgets import QWidget

from app.store import CacheChange, CacheError, WorkspaceCache
from ui.calendar import CalendarPage
from ui.locale_text import date_time
from ui.messages import Level, Message, MessageBridge, message_for_error
from ui.panels.accounts import AccountsPanel
from ui.shell.main_window import MainWindow
from ui.shell.page_contract import Page, as_page, plugged
from ui.shell.registry import ActionRegistry
from ui.workspace_manager import WorkspaceManager

if TYPE_CHECKING:
    from app.models import Post
    from ui.composer.page import ComposerPage
    from ui.panels.webhooks import WebhooksPage
    from ui.session import WorkspaceSession


class PageWiring(QObject):
    def __init__(
        self,
        window: MainWindow,
        manager: WorkspaceManager,
        registry: ActionRegistry,
        messages: MessageBridge,
        calendar: CalendarPage,
    ) -> None:
        """`calendar`: the page the first frame built inside `window`."""
        super().__init__(window)
        self.window = window
        self.manager = manager
        self.registry = registry
        self.messages = messages
        self.calendar = calendar
        self._painted_from: WorkspaceCache | None = None
        self._accounts_panel: AccountsPanel | None = None
        self._pages: dict[str, Page] = {"calendar": plugged(calendar)}
        """The pages built so far, by section: the ones a new session is handed to."""
        window.set_page_builder("accounts", self._built(self._build_accounts_panel, "accounts"))
        for section, build in _PANEL_BUILDERS.items():
            window.set_page_builder(section, self._built(build, section))
        self._connect_calendar()
        manager.cacheOpened.connect(self._on_cache_opened)
        manager.sessionChanged.connect(self._on_session_changed)
        manager.dataChanged.connect(self.paint_from_cache)

    def painted_already(self, cache: WorkspaceCache | None) -> None:
        """The calendar shows `cache` already (the first frame painted it): when that cache
        opens, it is not read a second time."""
        self._painted_from = cache

    def register_calendar_actions(self) -> None:
        self.registry.add_all(self.calendar.action_specs())
        # Enter opens the post selected by the arrows (a checked key)
        self.calendar.state.selectionChanged.connect(
            lambda _post_id: self.registry.refresh_enabled()
        )

    def _built(
        self, build: Callable[[QWidget], QWidget], section: str
    ) -> Callable[[QWidget], QWidget]:
        def build_and_plug(parent: QWidget) -> QWidget:
            widget = build(parent)
            page = as_page(widget)  # a page lacking a member stops here, named
            self._pages[section] = page
            self.registry.add_all(page.action_specs())
            page.set_session(self.manager.session)
            return widget

        return build_and_plug

    # -- accounts ---
    @property
    def accounts_panel(self) -> AccountsPanel:
        self.window.page("accounts")  # builds it the first time
        assert self._accounts_panel is not None
        return self._accounts_panel

    def _build_accounts_panel(self, parent: QWidget) -> AccountsPanel:
        self._accounts_panel = plugged(AccountsPanel(parent))
        self._show_accounts()
        return self._accounts_panel

    def _show_accounts(self) -> None:
        cache = self.manager.cache
        if self._accounts_panel is not None and cache is not None:
            self._accounts_panel.show_data(cache.accounts(), cache.count_posts())

    # -- the workspace ---
    def _on_cache_opened(self, cache: WorkspaceCache) -> None:
        profile = self.manager.profile
        if profile is not None:
            self.window.set_workspace_name(profile.name, profile.base_url)
        self.window.show_sync_state(None)
        painted, self._painted_from = self._painted_from, None
        try:
            self.window.show_saved_sync(cache.last_sync_at(), cache.last_full_sync_at())
            if cache is not painted:
                self.calendar.set_source(cache)  # paints the cached calendar at once
            self._show_accounts()
        except CacheError as error:
            self.cache_unreadable(error)

    def _on_session_changed(self, session: WorkspaceSession | None) -> None:
        for page in list(self._pages.values()):
            page.set_session(session)
        if session is not None:
            # A write's answer: the calendar moves those chips only (a reload re-reads the
            # whole period, 10-20 ms while a sync writes); syncs still go through dataChanged.
            session.postsStored.connect(self._show_stored)
            session.postsForgotten.connect(self._forget_deleted)
            session.watch_period(*self.calendar.visible_range())
        self.registry.refresh_enabled()

    def paint_from_cache(self, change: CacheChange | None = None) -> None:
        """The cache changed: `change` says how when a sync knows (None: re-read it all)."""
        if self.manager.cache is None:
            return
        try:
            if change is None:
                self.calendar.reload()
            else:
                self.calendar.show_change(change)
            self._show_accounts()
        except CacheError as error:
            self.cache_unreadable(error)

    def _show_stored(self, posts: list[Post]) -> None:
        if self.manager.cache is None:
            return
        try:
            self.calendar.show_posts(posts)
            self._show_accounts()  # its post count (a duplicate adds posts)
        except CacheError as error:
            self.cache_unreadable(error)

    def _forget_deleted(self, post_ids: list[str]) -> None:
        if self.manager.cache is None:
            return
        try:
            self.calendar.forget_posts(post_ids)
            self._show_accounts()
        except CacheError as error:
            self.cache_unreadable(error)

    def cache_unreadable(self, error: CacheError) -> None:
        """A read of the local cache failed: say so (once per kind of failure); the server's
        data is untouched and the next start checks the file again."""
        self.manager.scope.post(message_for_error(error))

    # -- calendar requests ---
    def _connect_calendar(self) -> None:
        calendar = self.calendar
        route: list[tuple[SignalInstance, Callable[..., Any]]] = [
            (calendar.rescheduleRequested, lambda s, post_id, when: s.reschedule(post_id, when)),
            (calendar.scheduleRequested, lambda s, post_id, when: s.schedule(post_id, when)),
            (calendar.publishNowRequested, lambda s, post_id: s.publish_now(post_id)),
            (calendar.unscheduleRequested, lambda s, post_id: s.move_to_draft(post_id)),
            (calendar.moveToDraftRequested, lambda s, post_id: s.move_to_draft(post_id)),
            (calendar.duplicateRequested, lambda s, post_id: s.duplicate(post_id)),
            (calendar.deleteRequested, lambda s, post_id: s.delete(post_id)),
        ]
        for signal, action in route:
            signal.connect(functools.partial(self._with_session, action))
        calendar.newPostRequested.connect(self.new_post)
        calendar.visibleRangeChanged.connect(self._watch_period)
        calendar.editRequested.connect(self.edit_post)

    def _watch_period(self, start: datetime, end: datetime) -> None:
        if self.manager.session is not None:
            self.manager.session.watch_period(start, end)

    def _with_session(self, action: Callable[..., Any], *args: Any) -> None:
        session = self.manager.session
        if session is None:
            self.messages.post(
                Message(
                    "Not connected to a workspace yet.",
                    Level.WARNING,
                    hint="Wait for the connection, or connect a workspace.",
                )
            )
            return
        action(session, *args)

    def new_post(self, day: date | None = None) -> None:
        """Compose, empty, with the cursor in the text (on `day` when one was chosen)."""
        self.window.show_section("compose")
        self.composer().new_post(day)

    def edit_post(self, post_id: str) -> None:
        self.window.show_section("compose")
        self.composer().edit_post(post_id)

    def composer(self) -> ComposerPage:
        page = self.window.page("compose")  # builds it the first time
        assert isinstance(page, _composer_class())
        return page

    def built_composer(self) -> ComposerPage | None:
        """The composer if it was built (never builds it, nor imports it)."""
        page = self.window.built_page("compose")
        return None if page is None else self.composer()

    def webhooks(self) -> WebhooksPage:
        from ui.panels.webhooks import WebhooksPage

        page = self.window.page("webhooks")  # builds it the first time
        assert isinstance(page, WebhooksPage)
        return page


def _composer_class() -> type[ComposerPage]:
    from ui.composer.page import ComposerPage  # the composer and its models: not at start-up

    return ComposerPage


def _compose_page(parent: QWidget) -> QWidget:
    return plugged(_composer_class()(parent))


def _webhooks_page(parent: QWidget) -> QWidget:
    from ui.panels.webhooks import WebhooksPage  # built when first shown: not at start-up

    return plugged(WebhooksPage(parent))


def _labels_page(parent: QWidget) -> QWidget:
    from ui.panels.labels import LabelsPage

    return plugged(LabelsPage(parent))


def _signatures_page(parent: QWidget) -> QWidget:
    from ui.panels.signatures import SignaturesPage

    return plugged(SignaturesPage(parent))


def _repurposes_page(parent: QWidget) -> QWidget:
    from ui.panels.repurposes import RepurposesPage

    return plugged(RepurposesPage(parent))


_PANEL_BUILDERS: dict[str, Callable[[QWidget], QWidget]] = {
    "compose": _compose_page,
    "labels": _labels_page,
    "signatures": _signatures_page,
    "webhooks": _webhooks_page,
    "repurposes": _repurposes_page,
}


def post_when(value: datetime | None) -> str:
    return date_time(value.astimezone()) if value is not None else "no date"
