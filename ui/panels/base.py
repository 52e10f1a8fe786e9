"""What every workspace panel shares: a session, its own tasks and write gate, and an
explanation in place of the panel when the deployment lacks its routes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMessageBox, QStackedWidget, QVBoxLayout, QWidget

from ui.action_spec import ActionSpec
from ui.tasks import TaskGroup
from ui.widgets.alive import alive
from ui.widgets.confirm import ask
from ui.write_gate import WriteGate

if TYPE_CHECKING:
    from app.api.errors import ApiError
    from ui.session import WorkspaceSession

log = logging.getLogger(__name__)


class OwnedTasks(TaskGroup):
    """A page's tasks; each is also adopted by the page's workspace session, which ends it
    (and waits for it) before closing its client."""

    def __init__(self, on_error: Callable[[BaseException], None]) -> None:
        super().__init__(on_error)
        self.session: WorkspaceSession | None = None

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = super().spawn(coro)
        if self.session is not None:
            self.session.adopt(task)
        return task


class PanelPage(QWidget):
    """Subclasses build their content into `self.content` and implement `reload()`."""

    TITLE = ""
    MISSING_TEXT = "This deployment of the API does not offer this feature."

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session: WorkspaceSession | None = None
        self.question: QMessageBox | None = None
        """The open confirmation, if any (non-modal; tests answer it)."""
        self.tasks = OwnedTasks(self._report)
        self.gate = self._new_gate()
        self.content = QWidget()
        self.explanation = QLabel()
        self.explanation.setObjectName("panelExplanation")
        self.explanation.setWordWrap(True)
        self.explanation.setTextFormat(Qt.TextFormat.PlainText)
        self.explanation.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.explanation.setStyleSheet("font-size: 14px; padding: 24px;")
        self.stack = QStackedWidget()
        self.stack.addWidget(self.content)
        self.stack.addWidget(self.explanation)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)

    # -- plugging into the app ---
    def set_session(self, session: WorkspaceSession | None) -> None:
        if session is self.session:
            return
        self.tasks.cancel_now()
        self.gate = self._new_gate()
        self.session = session
        self.tasks.session = session
        self.stack.setCurrentWidget(self.content)
        self.session_changed()
        if session is not None:
            self.reload()

    def _new_gate(self) -> WriteGate:
        gate = WriteGate(self.tasks, self)
        gate.busyChanged.connect(self._on_busy)
        return gate

    def action_specs(self) -> list[ActionSpec]:
        return []

    # -- for subclasses ---
    def session_changed(self) -> None:
        """Forget what the previous workspace showed."""

    def reload(self) -> None:
        raise NotImplementedError

    def _on_busy(self, key: str, busy: bool) -> None:
        """Called when a write for `key` starts or ends."""

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        return self.tasks.spawn(coro)

    def write(self, key: str, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any] | None:
        return self.gate.run(key, coro)

    def confirm_write(
        self,
        key: str,
        title: str,
        text: str,
        button: str,
        make_write: Callable[[], Coroutine[Any, Any, Any]],
    ) -> None:
        """Ask first (non-modal; kept in `question`), then run the write for `key` once."""
        self.question = ask(self, title, text, button, lambda: self.write(key, make_write()))

    def confirm_delete(
        self,
        key: str,
        kind: str,
        name: str,
        consequence: str,
        delete: Callable[[], Awaitable[object]],
        reload: Callable[[], Awaitable[None]],
    ) -> None:
        """ "Delete the <kind> “<name>”? <consequence>", then delete once, say so, reload."""

        async def deleting() -> None:
            await delete()
            if self.session is not None:
                self.session.messages.info(f"{kind.capitalize()} deleted.")
            await reload()

        text = f"Delete the {kind} “{name}”? {consequence}"
        self.confirm_write(key, f"Delete {kind}", text, "Delete", deleting)

    def explain_missing(self, error: ApiError) -> bool:
        """Show the explanation instead of the panel when `error` says the feature is not
        there for this key; False for any other error."""
        # Imported here: the accounts panel is built at start-up, before the client loads.
        from app.api.errors import NotFound, PermissionDenied

        if isinstance(error, NotFound):
            self.explanation.setText(self.MISSING_TEXT)
        elif isinstance(error, PermissionDenied):
            self.explanation.setText(
                f"{self.TITLE}: this API key is not allowed to use this feature "
                f"({error.message}). {error.hint}".strip()
            )
        else:
            return False
        self.stack.setCurrentWidget(self.explanation)
        return True

    def showing_explanation(self) -> bool:
        return self.stack.currentWidget() is self.explanation

    def _report(self, error: BaseException) -> None:
        if self.session is not None:
            self.session.messages.error(error)
        else:
            log.warning("panel task failed after its workspace closed: %r", error)


class EditForm(Protocol):
    def set_busy(self, busy: bool) -> None: ...
    def show_errors(self, error: ApiError) -> None: ...
    def accept(self) -> None: ...


async def submit(form: EditForm, write: Awaitable[object]) -> bool:
    """Run a form's write: the form is busy meanwhile, a refusal is shown at its fields, and
    when the user closed the form before the answer the refusal goes to the banner instead.
    True when the write went through (the form is closed then)."""
    from app.api.errors import ApiError  # the client's modules load after the first paint

    if alive(form):
        form.set_busy(True)
    try:
        await write
    except ApiError as error:
        if not alive(form):
            raise
        form.show_errors(error)
        return False
    finally:
        if alive(form):
            form.set_busy(False)
    if alive(form):
        form.accept()
    return True
