"""`ApiClient`: one connected profile (base URL + key) and its resource groups."""

from __future__ import annotations

from datetime import UTC, tzinfo
from types import TracebackType

import httpx

from app.api.accounts import AccountsApi
from app.api.audio import InstagramAudio
from app.api.errors import NotFound, ProtocolError
from app.api.labels import LabelsApi
from app.api.lookups import Lookups
from app.api.posts import PostsApi
from app.api.rate_gate import RateGate
from app.api.repurposes import RepurposesApi
from app.api.retry import SYSTEM_CLOCK, Clock, RetryHook, RetryPolicy
from app.api.server_clock import ServerClock
from app.api.signatures import SignaturesApi
from app.api.transport import Transport
from app.api.uploads import UploadsApi
from app.api.webhooks import WebhooksApi
from app.api.workspace import WorkspaceApi

_DEFAULT_RETRY = RetryPolicy()


class ApiClient:
    """Holds one long-lived HTTP connection pool; use `async with` or call `aclose()`."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        server_tz: tzinfo = UTC,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = 20.0,
        retry: RetryPolicy = _DEFAULT_RETRY,
        clock: Clock = SYSTEM_CLOCK,
        on_retry: RetryHook | None = None,
    ) -> None:
        self._transport = Transport(
            base_url,
            api_key,
            server_tz=server_tz,
            transport=transport,
            timeout=timeout,
            retry=retry,
            clock=clock,
            on_retry=on_retry,
        )
        self.server_tz = server_tz
        self.posts = PostsApi(self._transport)
        self.labels = LabelsApi(self._transport)
        self.signatures = SignaturesApi(self._transport)
        self.accounts = AccountsApi(self._transport)
        self.audio = InstagramAudio(self._transport)
        # Board/channel lookups share the per-user budget with audio search (spec §8).
        self.lookups = Lookups(self._transport, user_budget=self.audio.user_budget)
        self.webhooks = WebhooksApi(self._transport)
        self.repurposes = RepurposesApi(self._transport)
        self.workspace = WorkspaceApi(self._transport)
        self.uploads = UploadsApi(self._transport)

    def __repr__(self) -> str:
        return f"ApiClient(base_url={self.base_url!r})"

    @property
    def base_url(self) -> str:
        return self._transport.base_url

    @property
    def clock(self) -> Clock:
        """The monotonic clock the client waits on (injected in tests)."""
        return self._transport.clock

    @property
    def server_clock(self) -> ServerClock:
        """The server's time as this client measured it (`Date` headers, `created_at`)."""
        return self._transport.server_clock

    @property
    def rate_gate(self) -> RateGate:
        """The workspace's rate limit: `rate_gate.wait_remaining()` is the seconds left before
        requests may leave again after a 429 (for a countdown)."""
        return self._transport.rate_gate

    @property
    def on_retry(self) -> RetryHook | None:
        """Called as (attempt, delay in s, error) before every wait, e.g. to show
        "rate limited, retrying in N s"."""
        return self._transport.on_retry

    @on_retry.setter
    def on_retry(self, hook: RetryHook | None) -> None:
        self._transport.on_retry = hook

    async def check_connection(self) -> None:
        """A cheap authenticated call; raises the typed error explaining what is wrong."""
        try:
            await self.accounts.list()
        except NotFound as error:
            # The accounts list exists on every deployment: a 404 means a wrong address.
            raise ProtocolError(
                f"No Social Publishing API was found at this address ({error.message}).",
                status=404,
                hint="Check the server address: it should end in /api.",
            ) from None

    async def aclose(self) -> None:
        await self._transport.aclose()

    async def __aenter__(self) -> ApiClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
