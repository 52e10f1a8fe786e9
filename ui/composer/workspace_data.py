"""What the composer reads from the workspace: accounts and labels from the cache, and the
lookups it asks the server for once per account (Pinterest boards, Discord channels) and once
per session (signatures). A lookup the deployment does not offer turns its picker into free
text, with the reason."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from app.api.errors import ApiError, NotFound
from app.models.accounts import NamedItem, SocialAccountSummary
from app.models.labels import Label, Signature
from app.networks.discovery import compare_content_types
from ui.messages import Level, Message
from ui.tasks import TaskGroup

if TYPE_CHECKING:
    from ui.session import WorkspaceSession

SIGNATURES_MISSING = "This server offers no signatures (it has no /signatures route)."


class Lookup:
    """One account's boards or channels: loading, loaded (`items`), or unavailable (`reason`)."""

    def __init__(self) -> None:
        self.items: list[NamedItem] | None = None
        self.reason = ""
        self.loading = True


class WorkspaceData(QObject):
    accountsChanged = Signal()
    lookupChanged = Signal(str, str)  # kind ("boards" / "channels"), account id
    signaturesChanged = Signal()

    def __init__(self, tasks: TaskGroup, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tasks = tasks
        self.session: WorkspaceSession | None = None
        self._accounts: list[SocialAccountSummary] = []
        self._labels: list[Label] = []
        self._lookups: dict[tuple[str, str], Lookup] = {}
        self.signatures: list[Signature] | None = None
        self.signatures_reason = ""
        self._signatures_loading = False

    def set_session(self, session: WorkspaceSession | None) -> None:
        self.session = session
        self._lookups.clear()
        self.signatures = None
        self.signatures_reason = ""
        self._signatures_loading = False
        self.content_type_notes: list[str] = []
        self.reload()
        if session is not None:
            self._tasks.spawn(self._cross_check(session))

    def reload(self) -> None:
        """Read accounts and labels again from the cache (after a sync)."""
        cache = self.session.cache if self.session is not None else None
        accounts = cache.accounts() if cache is not None else []
        labels = cache.labels() if cache is not None else []
        if accounts != self._accounts or labels != self._labels:
            self._accounts, self._labels = accounts, labels
            self.accountsChanged.emit()

    def set_accounts_for_test(
        self, accounts: list[SocialAccountSummary], labels: list[Label] | None = None
    ) -> None:
        self._accounts, self._labels = list(accounts), list(labels or [])
        self.accountsChanged.emit()

    def accounts(self) -> list[SocialAccountSummary]:
        return list(self._accounts)

    def accounts_by_id(self) -> dict[str, SocialAccountSummary]:
        return {a.id: a for a in self._accounts}

    def labels(self) -> list[Label]:
        return list(self._labels)

    # -- boards / channels ---------------------------------------------------------------------
    def lookup(self, kind: str, account_id: str) -> Lookup:
        """The boards or channels of an account; starts loading them on first use."""
        key = (kind, account_id)
        found = self._lookups.get(key)
        if found is None:
            found = self._lookups[key] = Lookup()
            if self.session is None:
                found.loading = False
                found.reason = "Not connected: type the id."
            else:
                self._tasks.spawn(self._load(kind, account_id, found))
        return found

    def set_unavailable(self, kind: str, account_id: str, reason: str) -> None:
        """Treat a lookup as not offered (free text), e.g. after the server said so elsewhere."""
        lookup = Lookup()
        lookup.loading = False
        lookup.reason = reason
        self._lookups[(kind, account_id)] = lookup
        self.lookupChanged.emit(kind, account_id)

    def known_ids(self, kind: str) -> dict[str, list[str]]:
        """Account id -> ids the lookup answered (for the local checks)."""
        return {
            account: [item.id for item in lookup.items]
            for (k, account), lookup in self._lookups.items()
            if k == kind and lookup.items is not None
        }

    async def _load(self, kind: str, account_id: str, lookup: Lookup) -> None:
        session = self.session
        assert session is not None
        api = session.client.lookups  # cached, and within the per-user lookup budget
        try:
            items = await (api.boards if kind == "boards" else api.channels)(account_id)
        except NotFound:
            lookup.reason = "This server cannot list them: type the id."
        except ApiError as exc:
            lookup.reason = f"Could not load the list ({exc.message}): type the id."
        else:
            lookup.items = items
        finally:
            lookup.loading = False
        if self.session is session:
            self.lookupChanged.emit(kind, account_id)

    # -- signatures ----------------------------------------------------------------------------
    async def _cross_check(self, session: WorkspaceSession) -> None:
        """Compare the per-network table with the deployment's `/content-types`, where it has
        one: what it offers that we do not know, or lists differently, is said once."""
        try:
            offered = await session.client.workspace.content_types()
        except ApiError:  # 404: the reduced route set has no such list; the table stands
            return
        differences = compare_content_types([item.model_dump() for item in offered])
        if self.session is not session or differences.none:
            return
        self.content_type_notes = differences.describe()
        session.messages.post(
            Message(
                "This server's content types differ from what Postdesk knows.",
                Level.WARNING,
                hint=" ".join(self.content_type_notes[:4])
                + (" …" if len(self.content_type_notes) > 4 else ""),
                topic="content-types",
                timeout_ms=15000,
            )
        )

    def load_signatures(self) -> None:
        if self.session is None or self.signatures is not None or self._signatures_loading:
            return
        self._signatures_loading = True
        self._tasks.spawn(self._load_signatures(self.session))

    async def _load_signatures(self, session: WorkspaceSession) -> None:
        try:
            found = await session.client.signatures.all()
        except NotFound:
            self.signatures_reason = SIGNATURES_MISSING
            found = []
        except ApiError as exc:
            self.signatures_reason = f"Signatures could not be loaded: {exc.message}"
            found = None
        finally:
            self._signatures_loading = False
        if self.session is session:
            self.signatures = found
            self.signaturesChanged.emit()
