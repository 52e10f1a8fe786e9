"""The pages in the window and what connects them to the open workspace.

A page plugs in by offering `set_session(session | None)` and `action_specs()`; the calendar is
built at start (it is the first paint), the others when first shown. Calendar requests are
routed to whichever session is open when they are made.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from app.store import CacheChange, CacheError, WorkspaceCache
from ui.calendar import CalendarPage
from ui.messages import Level, Message, MessageBridge, message_for_error
from ui.panels.accounts import AccountsPanel
from ui.shell.keys import page_specs
from ui.shell.main_window import MainWindow
from ui.shell.registry import ActionRegistry
from ui.workspace_manager import WorkspaceManager

if TYPE_CHECKING:
    from app.models import Post
    from ui.composer.page import ComposerPage
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
        self.registry.add_all(page_specs(self.calendar))

    def _built(
        self, build: Callable[[QWidget], QWidget], section: str
    ) -> Callable[[QWidget], QWidget]:
        def build_and_plug(parent: QWidget) -> QWidget:
            page = build(parent)
            self.registry.add_all(page_specs(page))
            set_session = getattr(page, "set_session", None)
            if callable(set_session):
                set_session(self.manager.session)
            return page

        return build_and_plug

    # -- accounts ---
    @property
    def accounts_panel(self) -> AccountsPanel:
        self.window.page("accounts")  # builds it the first time
        assert self._accounts_panel is not None
        return self._accounts_panel

    def _build_accounts_panel(self, parent: QWidget) -> AccountsPanel:
        self._accounts_panel = AccountsPanel(parent)
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
            self.window.set_workspace_name(profile.name)
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
        for name in self.window.sections():
            page = self.window.built_page(name)
            set_session = getattr(page, "set_session", None)
            if callable(set_session):
                set_session(session)
        if session is not None:
            # A write's answer: the calendar moves those chips only (a reload re-reads the
            # whole period, 10-20 ms while a sync writes); syncs still go through dataChanged.
            session.postsStored.connect(self._show_stored)
            session.postsForgotten.connect(self._forget_deleted)
            session.watch_period(*self.calendar.visible_range())
        set_busy = getattr(self.calendar, "set_busy", None)
        plugged = callable(getattr(self.calendar, "set_session", None))
        if session is not None and callable(set_busy) and not plugged:
            session.writes.busyChanged.connect(set_busy)
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
        route: list[tuple[str, Callable[..., Any]]] = [
            ("rescheduleRequested", lambda s, post_id, when: s.reschedule(post_id, when)),
            ("scheduleRequested", lambda s, post_id, when: s.schedule(post_id, when)),
            ("publishNowRequested", lambda s, post_id: s.publish_now(post_id)),
            ("unscheduleRequested", lambda s, post_id: s.move_to_draft(post_id)),
            ("moveToDraftRequested", lambda s, post_id: s.move_to_draft(post_id)),
            ("duplicateRequested", lambda s, post_id: s.duplicate(post_id)),
            ("deleteRequested", lambda s, post_id: s.delete(post_id)),
        ]
        for name, action in route:
            signal = getattr(calendar, name, None)
            if signal is not None:  # signals the calendar page does not offer yet are skipped
                signal.connect(functools.partial(self._with_session, action))
        calendar.newPostRequested.connect(self.new_post)
        calendar.visibleRangeChanged.connect(self._watch_period)
        edit = getattr(calendar, "editRequested", None)
        if edit is not None:
            edit.connect(self.edit_post)

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


def _composer_class() -> type[ComposerPage]:
    from ui.composer.page import ComposerPage  # the composer and its models: not at start-up

    return ComposerPage


def _compose_page(parent: QWidget) -> QWidget:
    return _composer_class()(parent)


def _webhooks_page(parent: QWidget) -> QWidget:
    from ui.panels.webhooks import WebhooksPage  # built when first shown: not at start-up

    return WebhooksPage(parent)


def _labels_page(parent: QWidget) -> QWidget:
    from ui.panels.labels import LabelsPage

    return LabelsPage(parent)


def _signatures_page(parent: QWidget) -> QWidget:
    from ui.panels.signatures import SignaturesPage

    return SignaturesPage(parent)


def _repurposes_page(parent: QWidget) -> QWidget:
    from ui.panels.repurposes import RepurposesPage

    return RepurposesPage(parent)


_PANEL_BUILDERS: dict[str, Callable[[QWidget], QWidget]] = {
    "compose": _compose_page,
    "labels": _labels_page,
    "signatures": _signatures_page,
    "webhooks": _webhooks_page,
    "repurposes": _repurposes_page,
}


def post_when(value: datetime | None) -> str:
    return value.astimezone().strftime("%a %d %b %Y %H:%M") if value is not None else "no date"
