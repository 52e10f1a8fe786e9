"""The drafts file as the composer uses it: which file (the workspace session's, or one the page
opened itself), the *Drafts on this computer* list and its actions (open, rename, duplicate,
delete with undo), opening a server post (or the local draft of it), and retiring a draft that
became a post so it can never be sent again as a new batch."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QWidget

from app.compose.document import ComposerDocument
from app.compose.opening import document_from_post, too_long_to_edit
from app.models.posts import Post
from app.store.local_store import (
    Draft,
    LocalStore,
    LocalStoreError,
    SaveResult,
    local_store_path,
)
from app.workspaces.profiles import Paths
from ui.composer.autosave import Autosaver
from ui.composer.drafts_panel import DraftsPanel
from ui.composer.state import ComposerState
from ui.messages import Level, MessageBridge, MessageScope
from ui.tasks import TaskGroup

if TYPE_CHECKING:
    from ui.session import WorkspaceSession

Say = Callable[[str, Level], None]
SwitchTo = Callable[[ComposerDocument, str | None, int, Post | None], None]


class DraftsController:
    def __init__(
        self,
        state: ComposerState,
        autosave: Autosaver,
        panel: DraftsPanel,
        tasks: TaskGroup,
        *,
        say: Say,
        messages: Callable[[], MessageBridge | MessageScope],
        switch_to: SwitchTo,
        new_post: Callable[[], None],
        session: Callable[[], WorkspaceSession | None],
        dialog_parent: QWidget,
    ) -> None:
        self.state = state
        self.autosave = autosave
        self.panel = panel
        self.tasks = tasks
        self._say = say
        self._messages = messages
        self._switch_to = switch_to
        self._new_post = new_post
        self._session = session
        self._dialog_parent = dialog_parent
        self.store: LocalStore | None = None
        self.owns_store = False
        self.long_post_dialog: QWidget | None = None
        autosave.saved.connect(self._saved)
        autosave.conflict.connect(self._conflict)
        panel.renameRequested.connect(lambda i, t: self.tasks.spawn(self._rename(i, t)))
        panel.duplicateRequested.connect(lambda i: self.tasks.spawn(self._duplicate(i)))
        panel.deleteRequested.connect(lambda i: self.tasks.spawn(self._delete(i)))
        panel.searchChanged.connect(lambda _t: self.refresh())

    # -- the file ------------------------------------------------------------------------------
    def open_for(
        self, session: WorkspaceSession, no_file: Callable[[str, bool], None]
    ) -> tuple[LocalStore, bool] | None:
        """The session's drafts file, or (a session never started) the workspace's file opened
        here: (the file, whether it was opened here). None when there is none: `no_file` gets
        the reason and whether to post it as an error."""
        store = session.local_store
        owned = False
        if store is None and not session.local_store_problem:
            # A session that was not started (no outbox): drafts still work from the file.
            try:
                store = LocalStore.open(local_store_path(Paths(), session.profile.id))
            except LocalStoreError as exc:
                no_file(exc.message, True)
                return None
            owned = True
            if store.notice:  # it was empty (0 bytes): said, not taken silently as new
                self._say(store.notice, Level.WARNING)
        if store is None:
            no_file(session.local_store_problem, False)
            return None
        return store, owned

    def attach(self, store: LocalStore, *, owned: bool = False) -> None:
        self.store = store
        self.owns_store = owned
        self.autosave.store = store

    def leave(self, session: WorkspaceSession | None) -> None:
        """Stop using the file after its last save: the session closes its own file after it,
        a file opened here is closed here."""
        store, owned = self.store, self.owns_store
        pending = self.autosave.before_replace()
        self.store = None
        self.owns_store = False
        self.autosave.store = None
        if store is not None and not owned and session is not None:
            if pending is not None:
                session.finish(pending)
        elif store is not None:
            self.tasks.spawn(_close_store(store, owned, pending))
        elif pending is not None:
            pending.close()

    async def close(self) -> None:
        """The app is closing: save what is unsaved, close the file if the page opened it."""
        await self.autosave.flush()
        if self.store is not None and self.owns_store:
            self.store.close()

    # -- the list ------------------------------------------------------------------------------
    def refresh(self) -> None:
        if self.store is None:
            self.panel.show_drafts([], None)
            return
        try:
            found = self.store.list_drafts(self.panel.search.text())
        except LocalStoreError as exc:
            self._say(exc.message, Level.ERROR)
            return
        self.panel.show_drafts(found, self.state.draft_id)

    def _saved(self, _draft: Draft) -> None:
        self.refresh()

    def _conflict(self, result: SaveResult) -> None:
        other = result.conflict
        mine = result.saved.title or "your copy"
        theirs = other.title if other else ""
        self._say(
            "This draft was changed in another window meanwhile. Nothing was overwritten: both "
            f"versions are in the drafts list, and you are editing “{mine}” now (the other is "
            f"“{theirs}”).",
            Level.WARNING,
        )
        self.refresh()

    async def _rename(self, draft_id: str, title: str) -> None:
        if self.store is None:
            return
        if draft_id == self.state.draft_id:
            await self.autosave.flush()
        draft = await self.store.rename_draft(draft_id, title)
        if draft_id == self.state.draft_id:
            self.state.doc.title = draft.title
            self.state.revision = draft.revision
        self.refresh()

    async def _duplicate(self, draft_id: str) -> None:
        if self.store is None:
            return
        if draft_id == self.state.draft_id:
            await self.autosave.flush()
        copy = await self.store.duplicate_draft(draft_id)
        self.refresh()
        self.open_draft(copy.id)

    async def _delete(self, draft_id: str) -> None:
        store = self.store
        if store is None:
            return
        if draft_id == self.state.draft_id:
            self._leave_unsaved()  # what was typed is being thrown away on purpose
        await store.delete_draft(draft_id)
        self.refresh()
        self._messages().info(
            "Draft deleted.",
            action_label="Undo",
            action=lambda: self._undo_delete(draft_id),
        )

    def _undo_delete(self, draft_id: str) -> None:
        self.tasks.spawn(self._restore(draft_id))

    async def _restore(self, draft_id: str) -> None:
        if self.store is not None:
            await self.store.restore_draft(draft_id)
            self.refresh()

    async def retire(self, draft_id: str | None) -> None:
        """A local draft that became (or changed) a server post leaves the drafts list, so it
        can never be sent again as a new batch."""
        store = self.store
        if store is None or draft_id is None:
            return
        if draft_id == self.state.draft_id:
            self._leave_unsaved()  # its text is on the server now
        with contextlib.suppress(KeyError):
            await store.delete_draft(draft_id)
        self.refresh()

    def _leave_unsaved(self) -> None:
        store = self.store
        self.autosave.store = None
        self._new_post()
        self.autosave.store = store

    # -- opening -------------------------------------------------------------------------------
    def open_draft(self, draft_id: str, original: Post | None = None) -> None:
        if self.store is None or draft_id == self.state.draft_id:
            return
        draft = self.store.get_draft(draft_id)
        if draft is None:
            self._say("That draft no longer exists.", Level.WARNING)
            self.refresh()
            return
        try:
            doc = ComposerDocument.from_json(draft.document)
        except ValueError:
            self._say(
                "This draft could not be read by this version of Postdesk; it was left as it is.",
                Level.ERROR,
            )
            return
        if self._refused_as_too_long(doc):
            return
        session = self._session()
        if original is None and doc.editing_post_id and session is not None:
            original = session.cache.post(doc.editing_post_id)
        self._switch_to(doc, draft.id, draft.revision, original)

    async def open_post(self, post_id: str) -> None:
        """A server post: its local draft when there is one, else the post itself (read again
        from the server, the cache's copy when that fails)."""
        session = self._session()
        if session is None:
            return
        post = session.cache.post(post_id)
        with contextlib.suppress(Exception):
            post = await session.client.posts.get(post_id)
        if post is None:
            self._say("This post could not be loaded.", Level.ERROR)
            return
        server_doc = document_from_post(post)
        if self._refused_as_too_long(server_doc):
            return
        local = self.store.drafts_of_post(post.id) if self.store is not None else []
        mine = next((d for d in local if d.conflict_of is None), None)
        if mine is not None and self.store is not None and post.updated_at is not None:
            copy = await self.store.check_server_version(
                mine.id, post.updated_at.isoformat(), server_doc.to_json()
            )
            if copy is not None:
                self._say(
                    "This post changed on the server since you edited it here. Both versions "
                    "are kept in the drafts list: yours (open now) and the server's.",
                    Level.WARNING,
                )
            self.open_draft(mine.id, post)
            self.refresh()
            return
        self._switch_to(server_doc, None, 0, post)

    def _refused_as_too_long(self, doc: ComposerDocument) -> bool:
        """A text past `EDITABLE_CHARS` (a 10 MB post) is shown, not laid out in the editors."""
        text = too_long_to_edit(doc)
        if text is None:
            return False
        from ui.composer.long_post_dialog import LongPostDialog  # built on first use

        self.long_post_dialog = LongPostDialog(text, self._dialog_parent)
        self.long_post_dialog.open()
        self._say("This post is too long to edit; it was left as it is.", Level.WARNING)
        return True


async def _close_store(
    store: LocalStore, owned: bool, pending: Coroutine[Any, Any, None] | None
) -> None:
    try:
        if pending is not None:
            await pending
    finally:
        if owned:
            store.close()
