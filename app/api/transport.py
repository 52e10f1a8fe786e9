"""The one place that sends HTTP: authentication, retries, and turning answers into errors.

Retry rules (DESIGN.md): a request is tried again only when doing so cannot do harm.
- Never sent (connect error, connect/pool timeout): every method is retried.
- Refused by the server (429, honouring Retry-After up to `max_retry_after`): every method.
  A 429 also closes the client's `RateGate`: no new request of this workspace, on any route,
  leaves before its Retry-After has passed.
- 502/503/504: GET, PUT and DELETE.
- Sent, then no answer (read timeout, dropped connection): GET only. PUT/DELETE raise at once
  (the change may or may not have been made); a POST raises `OutcomeUnknown` and is never
  resent, because it could create the thing twice.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import ssl
import sys
import threading
from collections.abc import AsyncIterator, Callable, Mapping
from datetime import UTC, tzinfo
from typing import Any

import httpx

from app.api import errors as e
from app.api import routes
from app.api.bounded_body import ACCEPT_ENCODING, BodyRefused, loads_bounded, read_bounded
from app.api.connection_pool import PooledTransport
from app.api.rate_gate import RateGate
from app.api.retry import (
    SYSTEM_CLOCK,
    Clock,
    RetryHook,
    RetryPolicy,
    parse_retry_after,
    retry_after_said,
)
from app.api.routes import REDUCED_ROUTE_SET
from app.api.server_clock import ServerClock

log = logging.getLogger("app.api")

# httpcore looks for `sniffio` on every request (4 imports a request). It is not installed, and
# each failed import searches every sys.path entry: ~0.1 ms, and every `stat` hands the GIL away,
# so while the sync's page worker parses it may take a switch interval to get it back. A None
# entry makes that import fail at once; httpcore (and anyio) then assume asyncio, as they do
# without sniffio. A sniffio already imported is left alone.
sys.modules.setdefault("sniffio", None)  # type: ignore[arg-type]

USER_AGENT = "Postdesk/0.1"
IDEMPOTENT = frozenset({"GET", "HEAD", "PUT", "DELETE"})
RETRY_STATUSES = frozenset({429, 502, 503, 504})
_EXCERPT_CHARS = 200
_SECRET_MASK = "[redacted]"

Files = Mapping[str, tuple[str, bytes, str]]

REQUEST_DEADLINE = 120.0
"""The longest a whole request may take, answer read to its end: the per-read timeout never fires
for a server that sends one byte a second. An upload gets more (`_deadline_for`)."""
UPLOAD_BYTES_PER_SECOND = 100_000

_AUTH_MESSAGES: dict[str, type[e.AuthError]] = {
    "unauthenticated.": e.Unauthenticated,
    "token expired.": e.TokenExpired,
    "token not found.": e.TokenNotFound,
    "no workspace selected.": e.NoWorkspaceSelected,
}
_FORBIDDEN_MESSAGES: dict[str, type[e.PermissionDenied]] = {
    "insufficient workspace permissions.": e.InsufficientPermissions,
    "workspace access denied.": e.WorkspaceAccessDenied,
    "personal access token required.": e.PersonalAccessTokenRequired,
    "this action is unauthorized.": e.Unauthorized,
}
# These answers only make sense from the API itself; a web page with one of them is a proxy,
# captive portal or a wrong address talking.
_STATUSES_NEEDING_JSON = frozenset({401, 402, 403, 422})


def redact_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """A copy safe to log: credentials replaced."""
    sensitive = {"authorization", "proxy-authorization", "cookie", "set-cookie"}
    return {k: (_SECRET_MASK if k.lower() in sensitive else v) for k, v in headers.items()}


def _key_problem(api_key: str) -> str | None:
    if not api_key:
        return "No API key was given."
    if any(not ("!" <= ch <= "~") for ch in api_key):
        # Also keeps the key out of httpx's "illegal header value" messages.
        return "The API key contains spaces, line breaks or characters an API key cannot have."
    return None


POOL_LIMITS = httpx.Limits(max_connections=64, max_keepalive_connections=32, keepalive_expiry=5.0)
"""As many connections kept for reuse as a sync keeps pages in flight (`SyncService`'s cap):
fewer, and each page past them opened a new connection (on HTTPS, round trips and a TLS
handshake each)."""


class _HeldBack(Exception):
    """A request stopped before its first byte because the workspace is rate limited now."""


class Transport:
    """One long-lived `httpx.AsyncClient` plus the retry and error rules above."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        server_tz: tzinfo = UTC,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = 20.0,
        retry: RetryPolicy | None = None,
        clock: Clock = SYSTEM_CLOCK,
        on_retry: RetryHook | None = None,
        rng: Callable[[], float] | None = None,
    ) -> None:
        api_key = api_key.strip()
        self.server_tz = server_tz
        self.retry = retry or RetryPolicy()
        self.clock = clock
        self.on_retry = on_retry
        self.rate_gate = RateGate(clock)
        self.server_clock = ServerClock()
        self._rng = rng
        self._api_key = api_key
        self._setup_error: e.ApiError | None = None
        problem = _key_problem(api_key)
        if problem is not None:
            self._setup_error = e.Unauthenticated(problem)
        headers = {
            "Accept": "application/json",
            "Accept-Encoding": ACCEPT_ENCODING,
            "User-Agent": USER_AGENT,
        }
        if problem is None:
            headers["Authorization"] = f"Bearer {api_key}"
        self._headers = headers
        self._timeout = timeout
        self._custom_transport = transport
        self.deadline = REQUEST_DEADLINE
        try:
            self._base = httpx.URL(base_url.strip().rstrip("/"))
            if self._base.scheme not in ("http", "https") or not self._base.host:
                raise httpx.InvalidURL("not a web address")
        except httpx.InvalidURL:
            self._setup_error = self._setup_error or _bad_address()
            self._base = httpx.URL("")
        # Built on the first request, its TLS setup in a worker thread (`_http`): loading the CA
        # store took 1.4-1.9 s of a frozen window on busy cores when done here, on the GUI thread.
        self._client: httpx.AsyncClient | None = None
        self._client_lock = asyncio.Lock()

    def __repr__(self) -> str:
        return f"Transport(base_url={self.base_url!r})"

    @property
    def base_url(self) -> str:
        return str(self._base).rstrip("/")

    async def _http(self) -> httpx.AsyncClient:
        async with self._client_lock:
            if self._client is None:
                transport = self._custom_transport
                if transport is None:
                    context = await asyncio.to_thread(shared_ssl_context)
                    transport = PooledTransport(context, POOL_LIMITS)
                self._client = httpx.AsyncClient(
                    base_url=self._base,
                    headers=self._headers,
                    timeout=httpx.Timeout(self._timeout),
                    transport=transport,
                    follow_redirects=False,
                )
            return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()

    def scrub(self, text: str) -> str:
        """Remove the API key from text that came from elsewhere (server bodies, messages)."""
        return text.replace(self._api_key, _SECRET_MASK) if self._api_key else text

    async def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, str | int] | None = None,
        json_body: Any = None,
        files: Files | None = None,
        retry_statuses: frozenset[int] | None = None,
    ) -> Any:
        """Send, retry as allowed, and return the decoded JSON (None for an empty answer).

        `retry_statuses` narrows which statuses are retried here (callers that handle 429
        themselves, like the paginator or the audio budget, pass a smaller set).
        """
        if self._setup_error is not None:
            raise self._setup_error
        method = method.upper()
        allowed = RETRY_STATUSES if retry_statuses is None else retry_statuses
        if method not in IDEMPOTENT:
            allowed = allowed & {429}
        if log.isEnabledFor(logging.DEBUG):
            log.debug("%s %s headers=%s", method, path, redact_headers(self._headers))
        attempt = 0
        while True:
            attempt += 1
            last_try = attempt >= self.retry.max_attempts
            await self._pass_rate_gate()
            try:
                response = await self._exchange(method, path, params, json_body, files)
            except _HeldBack:
                attempt -= 1  # nothing was sent: not an attempt
                continue  # the gate at the top of the loop waits
            except BodyRefused as refused:
                raise self._refused(method, path, refused) from None
            except TimeoutError:
                raise self._past_deadline(method, path, files) from None
            except (httpx.HTTPError, httpx.InvalidURL) as exc:
                error, retryable = self._transport_failure(method, path, exc)
                log.debug("%s %s failed on attempt %d: %r", method, path, attempt, error)
                if not retryable or last_try:
                    raise error from exc
                await self._wait(attempt, self.retry.backoff(attempt, *self._rng_args()), error)
                continue
            log.debug(
                "%s %s -> %d (attempt %d)", method, response.url, response.status_code, attempt
            )
            if 200 <= response.status_code < 300:
                return self._decode_success(method, path, response)
            error = self._error_from_response(method, path, response)
            # Retry-After is honoured on any retried status (a 503 may carry one too).
            retry_after = parse_retry_after(response.headers)
            if retry_after is not None:
                delay = retry_after
            else:
                delay = self.retry.backoff(attempt, *self._rng_args())
            if response.status_code == 429 and _throttles_the_workspace(path, error):
                # Before deciding whether to retry: callers that handle 429 themselves (the
                # paginator) must not let other requests of the workspace out early either.
                self.rate_gate.hold(delay, retry_after_said(response.headers))
            if response.status_code not in allowed or last_try:
                raise error
            if retry_after is not None and retry_after > self.retry.max_retry_after:
                raise error
            if response.status_code == 429:
                self._announce(attempt, delay, error)
                continue  # the gate at the top of the loop waits
            await self._wait(attempt, delay, error)

    async def _exchange(
        self,
        method: str,
        path: str,
        params: Mapping[str, str | int] | None,
        json_body: Any,
        files: Files | None,
    ) -> httpx.Response:
        """One request and its whole answer, within the deadline and the size limit."""
        client = await self._http()
        request = client.build_request(
            method,
            path,
            params=dict(params) if params else None,
            json=json_body,
            files=dict(files) if files else None,
            extensions={"trace": self._last_look},
        )
        async with asyncio.timeout(self._deadline_for(files)):
            response = await client.send(request, stream=True)
            self.server_clock.observe_date(response.headers.get("date"))
            if response.status_code == 429 and not routes.is_audio_lookup(path):
                # Held now, before the body is read: requests about to be written check the
                # gate (`_last_look`) and must see this one. `request` holds it again with the
                # whole answer (the longer wait is kept).
                said = parse_retry_after(response.headers)
                if said is not None:
                    self.rate_gate.hold(said, retry_after_said(response.headers))
            try:
                if response.is_stream_consumed:  # answered from memory (a mock transport)
                    body = await read_bounded(_one(response.content), "")
                else:
                    encoding = response.headers.get("content-encoding", "")
                    body = await read_bounded(response.aiter_raw(), encoding)
            finally:
                await response.aclose()
        headers = [
            (name, value)
            for name, value in response.headers.multi_items()
            if name.lower() not in ("content-encoding", "content-length", "transfer-encoding")
        ]
        return httpx.Response(response.status_code, headers=headers, content=body, request=request)

    def _deadline_for(self, files: Files | None) -> float:
        size = sum(len(content) for _, content, _ in files.values()) if files else 0
        return self.deadline + size / UPLOAD_BYTES_PER_SECOND

    def _refused(self, method: str, path: str, refused: BodyRefused) -> e.ProtocolError:
        return e.ProtocolError(
            f"The server's answer to {method} {path} was refused: {refused.reason}.",
            hint="Nothing of it was used. The server is broken or not the API; tell its "
            "administrator.",
        )

    def _past_deadline(self, method: str, path: str, files: Files | None) -> e.ApiError:
        seconds = round(self._deadline_for(files))
        if method not in IDEMPOTENT:
            return e.OutcomeUnknown(
                f"The server took more than {seconds} s to answer {method} {path}; it is "
                "unknown whether it saved it."
            )
        return e.RequestTimedOut(
            f"The server took more than {seconds} s to answer {method} {path}; Postdesk "
            "stopped waiting."
        )

    def _rng_args(self) -> tuple[Callable[[], float], ...]:
        return (self._rng,) if self._rng is not None else ()

    async def _wait(self, attempt: int, delay: float, error: e.ApiError) -> None:
        self._announce(attempt, delay, error)
        await self.clock.sleep(delay)

    def _announce(self, attempt: int, delay: float, error: e.ApiError) -> None:
        log.info("Retrying in %.1f s after: %s", delay, error.message)
        if self.on_retry is not None:
            self.on_retry(attempt, delay, error)

    async def _last_look(self, event: str, _info: dict[str, Any]) -> None:
        """httpcore's trace hook: called just before a request's first byte is written. A
        request passes the gate at the top of `request`, then may wait for a connection while
        other answers come in; with 32 pages in flight, 85 of 253 requests were written up to
        0.14 s after a 429 had reached us (counted at the socket). A 429 that arrived meanwhile
        stops it here, unsent, and it goes back to the gate."""
        if event.endswith("send_request_headers.started") and self.rate_gate.wait_remaining():
            raise _HeldBack

    async def _pass_rate_gate(self) -> None:
        remaining = self.rate_gate.wait_remaining()
        if remaining > self.retry.max_retry_after:
            # Waiting that long silently would look like a hang: say so instead.
            raise e.RateLimited(retry_after=remaining, server_said=self.rate_gate.server_said)
        await self.rate_gate.wait()

    # -- failures without an answer -------------------------------------------------------

    def _transport_failure(
        self, method: str, path: str, exc: httpx.HTTPError | httpx.InvalidURL
    ) -> tuple[e.ApiError, bool]:
        """(error to raise, whether retrying is safe)."""
        if isinstance(exc, httpx.UnsupportedProtocol | httpx.InvalidURL):
            return _bad_address(), False
        if isinstance(exc, httpx.ConnectTimeout | httpx.PoolTimeout):
            return e.ConnectionFailed("Connecting to the server timed out."), True
        if isinstance(exc, httpx.ConnectError | httpx.ProxyError):
            return e.ConnectionFailed(), True
        if isinstance(exc, httpx.TimeoutException | httpx.NetworkError | httpx.RemoteProtocolError):
            timed_out = isinstance(exc, httpx.TimeoutException)
            if method not in IDEMPOTENT:
                return e.OutcomeUnknown(
                    "No answer came after sending; it is unknown whether the server saved it."
                    if timed_out
                    else None
                ), False
            if method in ("GET", "HEAD"):
                if timed_out:
                    return e.RequestTimedOut(), True
                return e.ConnectionFailed(
                    "The connection to the server was lost before it answered."
                ), True
            if timed_out:
                return e.RequestTimedOut(
                    "The server did not answer in time; the change may or may not have been saved."
                ), False
            return e.ConnectionFailed(
                "The connection was lost before the server answered; the change may or may not "
                "have been saved.",
                hint="Refresh to see whether the change was saved, then try again if needed.",
            ), False
        return e.ProtocolError(f"The server's answer could not be read ({type(exc).__name__})."), (
            False
        )

    # -- answers ------------------------------------------------------------------------

    def _excerpt(self, response: httpx.Response) -> str:
        text = response.content[:4096].decode("utf-8", errors="replace")
        return self.scrub(" ".join(text.split()))[:_EXCERPT_CHARS]

    def _decode_success(self, method: str, path: str, response: httpx.Response) -> Any:
        if response.status_code == 204 or not response.content.strip():
            return None
        try:
            return loads_bounded(response.content)
        except BodyRefused as refused:
            raise self._refused(method, path, refused) from None
        except (ValueError, UnicodeDecodeError):
            raise self._not_json(method, path, response) from None

    def _not_json(self, method: str, path: str, response: httpx.Response) -> e.ProtocolError:
        excerpt = self._excerpt(response)
        title = _html_title(response)
        if title is not None or "html" in response.headers.get("content-type", ""):
            shown = f" (“{self.scrub(title)}”)" if title else ""
            message = (
                f"The server answered {method} {path} with a web page{shown} "
                f"(HTTP {response.status_code}) instead of API data."
            )
        else:
            message = (
                f"The server's answer to {method} {path} (HTTP {response.status_code}) "
                "is not valid JSON."
            )
        return e.ProtocolError(message, status=response.status_code, excerpt=excerpt)

    def _error_from_response(self, method: str, path: str, response: httpx.Response) -> e.ApiError:
        status = response.status_code
        if 300 <= status < 400:
            return self._redirected(response)
        body: Any
        try:
            body = loads_bounded(response.content) if response.content.strip() else None
        except (ValueError, UnicodeDecodeError, BodyRefused):
            body = None
        if not isinstance(body, dict):
            if status in _STATUSES_NEEDING_JSON or not 400 <= status < 600:
                return self._not_json(method, path, response)
            body = {}
        raw_message = body.get("message")
        message = self.scrub(raw_message.strip()) if isinstance(raw_message, str) else None
        message = message or None
        key = (message or "").lower()
        if status == 401:
            return _AUTH_MESSAGES.get(key, e.AuthError)(message, status=status)
        if status == 402:
            return e.PaymentRequired(message, status=status)
        if status == 403:
            return _FORBIDDEN_MESSAGES.get(key, e.PermissionDenied)(message, status=status)
        if status == 404:
            return e.NotFound(message, route_missing=path in REDUCED_ROUTE_SET)
        if status == 422:
            return e.ValidationFailed(message, errors=self._field_errors(body.get("errors")))
        if status == 429:
            name = body.get("name")
            return e.RateLimited(
                message,
                retry_after=parse_retry_after(response.headers),
                name=name if isinstance(name, str) else None,
                server_said=retry_after_said(response.headers),
            )
        if status == 502:
            return e.UpstreamFailed(message, status=status)
        if 500 <= status < 600:
            return e.ServerError(message or f"The server failed (HTTP {status}).", status=status)
        detail = f": {message}" if message else "."
        return e.ProtocolError(
            f"The server answered {method} {path} with an unexpected status {status}{detail}",
            status=status,
            excerpt=self._excerpt(response),
        )

    def _redirected(self, response: httpx.Response) -> e.Redirected:
        raw = response.headers.get("location", "").strip()
        try:
            target = response.url.join(raw) if raw else None
        except httpx.InvalidURL:
            target = None
        location = self.scrub(str(target) if target is not None else raw)
        return e.Redirected(
            location,
            status=response.status_code,
            hint=_redirect_hint(self._base, target),
            excerpt=self._excerpt(response),
        )

    def _field_errors(self, raw: Any) -> dict[str, list[str]]:
        if not isinstance(raw, dict):
            return {}
        result: dict[str, list[str]] = {}
        for field, messages in raw.items():
            items = messages if isinstance(messages, list) else [messages]
            result[str(field)] = [self.scrub(str(m)) for m in items if m is not None]
        return result


_TITLE = re.compile(rb"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)


def _html_title(response: httpx.Response) -> str | None:
    match = _TITLE.search(response.content[:8192])
    if match is None:
        return None
    title = " ".join(match.group(1).decode("utf-8", errors="replace").split())
    return title[:80] or None


async def _one(content: bytes) -> AsyncIterator[bytes]:
    yield content


_ssl_lock = threading.Lock()


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    return httpx.create_ssl_context()


def shared_ssl_context() -> ssl.SSLContext:
    """One TLS setup (the CA store) for every client of the process, built once."""
    with _ssl_lock:
        return _ssl_context()


def _throttles_the_workspace(path: str, error: e.ApiError) -> bool:
    """Every 429 holds the whole workspace back, except the audio search's own lookup budget
    (spec §8: 30 lookups a minute, answered with a plain `{message}`, no `rate_limit_exceeded`
    name): the audio client waits that out itself, and it must not stop the sync."""
    if not routes.is_audio_lookup(path):
        return True
    return isinstance(error, e.RateLimited) and error.name == "rate_limit_exceeded"


def _redirect_hint(base: httpx.URL, target: httpx.URL | None) -> str:
    """What the redirect says about the base URL, most specific advice first."""
    advice = []
    if target is not None and base.scheme == "http" and target.scheme == "https":
        advice.append(f"Use https:// instead of http:// (https://{base.netloc.decode()}…).")
    base_path = base.path.rstrip("/")
    if not base_path.endswith("/api") and "/api" in _target_path(target):
        advice.append("The address is probably missing /api at the end.")
    advice.append(
        "The server address is probably wrong: check http:// versus https:// and that it ends "
        "in /api."
    )
    return " ".join(advice)


def _target_path(target: httpx.URL | None) -> str:
    return target.path if target is not None else ""


def _bad_address() -> e.ConnectionFailed:
    return e.ConnectionFailed(
        "The server address is not a valid web address.",
        hint="Enter the full API address, starting with https:// and usually ending in /api.",
    )
