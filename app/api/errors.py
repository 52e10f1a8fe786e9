"""One error tree for everything the API client can fail with (spec §7).

Every error carries the server's `message` (or a plain-words one when the server sent none), the
HTTP status when there was an answer, and a `hint`: what the user can do next. The UI shows
`str(error)` and `error.hint`; it never needs to look at status codes.
"""

from __future__ import annotations

from collections.abc import Mapping


class ApiError(Exception):
    """Base of every failure raised by `app.api`."""

    default_message = "The request to the server failed."
    default_hint = "Try again. If it keeps failing, check the workspace's server address."

    def __init__(
        self, message: str | None = None, *, status: int | None = None, hint: str | None = None
    ) -> None:
        self.message = message or self.default_message
        self.status = status
        self.hint = hint or self.default_hint
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status!r}, message={self.message!r})"


class ConnectionFailed(ApiError):
    """The server could not be reached; nothing was sent."""

    default_message = "Could not connect to the server."
    default_hint = (
        "Check your internet connection and the workspace's server address, then try again."
    )


class RequestTimedOut(ApiError):
    """The request was sent (or may have been) and no answer came in time.

    For a change (PUT/DELETE) the outcome is unknown: refresh before trying again.
    """

    default_message = "The server did not answer in time."
    default_hint = "Try again in a moment. For a change, refresh first to see whether it was saved."


class ProtocolError(ApiError):
    """The server answered something that is not the API: bad JSON, wrong shape, an HTML page,
    an unexpected status. `excerpt` holds the start of the body (secrets removed)."""

    default_message = "The server's answer is not what the Social Publishing API sends."
    default_hint = (
        "Check that the server address is the API address (it usually ends in /api). "
        "A proxy, captive portal or an incompatible server version can cause this."
    )

    def __init__(
        self,
        message: str | None = None,
        *,
        status: int | None = None,
        hint: str | None = None,
        excerpt: str = "",
    ) -> None:
        super().__init__(message, status=status, hint=hint)
        self.excerpt = excerpt


class EndlessList(ProtocolError):
    """A paginated list that does not end (a page repeated, far more pages than items): the walk
    stopped instead of asking forever."""

    default_message = "The server's list does not end; reading it was stopped."
    default_hint = (
        "The server sent the same page again or claimed far more pages than it has, so "
        "Postdesk stopped reading the list; what was saved before is kept. Tell the server's "
        "administrator."
    )


class Redirected(ProtocolError):
    """3xx: the server sent us elsewhere. The API never redirects, so the base URL is almost
    certainly wrong (http instead of https, or `/api` missing). `location` is where it pointed."""

    default_hint = (
        "The server address is probably wrong: check http:// versus https:// and that it ends "
        "in /api."
    )

    def __init__(
        self,
        location: str,
        *,
        status: int | None = None,
        hint: str | None = None,
        excerpt: str = "",
    ) -> None:
        where = location or "another address (none given)"
        super().__init__(
            f"The server redirected to {where}.", status=status, hint=hint, excerpt=excerpt
        )
        self.location = location


class AuthError(ApiError):
    """401: the key was not accepted."""

    default_message = "The API key was not accepted."
    default_hint = "Check the workspace's API key, or create a new one in Settings → API Keys."


class Unauthenticated(AuthError):
    default_message = "Unauthenticated."
    default_hint = (
        "The API key is missing, mistyped or revoked. Create a new API key in Settings → API Keys "
        "and paste it here."
    )


class TokenExpired(AuthError):
    default_message = "Token expired."
    default_hint = "Create a new API key in Settings → API Keys and replace it here."


class TokenNotFound(AuthError):
    default_message = "Token not found."
    default_hint = "The key no longer exists. Create a new API key in Settings → API Keys."


class NoWorkspaceSelected(AuthError):
    default_message = "No workspace selected."
    default_hint = (
        "The key is no longer bound to a workspace. Create a new API key inside the workspace "
        "you want to use."
    )


class PaymentRequired(ApiError):
    """402 (hosted service only)."""

    default_message = "Active subscription required."
    default_hint = (
        "The workspace has no active subscription or trial. Renew it (or add a payment card) "
        "in the billing settings of the web dashboard."
    )


class PermissionDenied(ApiError):
    """403: the key is valid but not allowed to do this."""

    default_message = "This action is not allowed."
    default_hint = (
        "Your role in this workspace does not allow it. Ask the workspace owner or an admin."
    )


class InsufficientPermissions(PermissionDenied):
    default_message = "Insufficient workspace permissions."
    default_hint = (
        "API keys work only for workspace admins. Ask the workspace owner to make you an admin, "
        "or use a key created by an admin."
    )


class WorkspaceAccessDenied(PermissionDenied):
    default_message = "Workspace access denied."
    default_hint = (
        "The key's user is no longer a member of this workspace. Ask to be invited again, then "
        "create a new key."
    )


class PersonalAccessTokenRequired(PermissionDenied):
    default_message = "Personal access token required."
    default_hint = (
        "This is not an API key (an MCP/OAuth token was given). Create an API key in "
        "Settings → API Keys."
    )


class Unauthorized(PermissionDenied):
    default_message = "This action is unauthorized."
    default_hint = "This item belongs to another member; only they (or an admin) can change it."


class NotFound(ApiError):
    """404. `route_missing` is True when a whole collection route does not exist on this
    deployment (the "reduced route set"), so the UI can hide the panel instead of failing."""

    default_message = "Not found."
    default_hint = "It may have been deleted, or it belongs to another workspace. Refresh the list."

    def __init__(
        self,
        message: str | None = None,
        *,
        status: int | None = 404,
        hint: str | None = None,
        route_missing: bool = False,
    ) -> None:
        super().__init__(message, status=status, hint=hint)
        self.route_missing = route_missing


class ValidationFailed(ApiError):
    """422. `errors` maps a field path (e.g. `destinations.0.meta.board_id`) to its messages."""

    default_message = "The server did not accept the data."
    default_hint = "Correct the highlighted fields and try again."

    def __init__(
        self,
        message: str | None = None,
        *,
        status: int | None = 422,
        hint: str | None = None,
        errors: Mapping[str, list[str]] | None = None,
    ) -> None:
        super().__init__(message, status=status, hint=hint)
        self.errors: dict[str, list[str]] = {k: list(v) for k, v in (errors or {}).items()}

    def for_field(self, path: str) -> list[str]:
        """Messages of one field path, plus those of its sub-fields (`meta` gets `meta.title`)."""
        prefix = f"{path}."
        return [
            message
            for key, messages in self.errors.items()
            if key == path or key.startswith(prefix)
            for message in messages
        ]


class RateLimited(ApiError):
    """429. `retry_after` is in seconds when known (clamped, see `app.api.retry`); `server_said`
    is the server's own `Retry-After` when it differs; `name` is the body's `name` field."""

    default_message = "Too many requests."

    def __init__(
        self,
        message: str | None = None,
        *,
        status: int | None = 429,
        hint: str | None = None,
        retry_after: float | None = None,
        name: str | None = None,
        server_said: str | None = None,
    ) -> None:
        self.retry_after = retry_after
        self.name = name
        self.server_said = server_said
        super().__init__(message, status=status, hint=hint or _retry_hint(retry_after, server_said))


def _retry_hint(retry_after: float | None, server_said: str | None = None) -> str:
    if retry_after is None:
        return "The server is limiting requests. Wait a moment and try again."
    seconds = max(1, round(retry_after))
    hint = f"The server is limiting requests. Try again in {seconds} s."
    if server_said is not None and _differs(server_said, retry_after):
        hint += (
            f" (The server asked for “Retry-After: {server_said}”; Postdesk waits between 1 s "
            "and 15 min. Retry now tries at once.)"
        )
    return hint


def _differs(server_said: str, seconds: float) -> bool:
    try:
        return abs(float(server_said) - seconds) > 1
    except ValueError:
        return True


class UpstreamFailed(ApiError):
    """502: the service could not reach the social network behind it."""

    default_message = "The social network did not answer."
    default_hint = "The network behind the service failed. Try again in a few minutes."


class ServerError(ApiError):
    """Any other 5xx."""

    default_message = "The server had an internal error."
    default_hint = "This is a problem on the server side. Try again later."


class OutcomeUnknown(ApiError):
    """A non-idempotent POST (e.g. batch create) may have reached the server, but no answer
    arrived. Do not resend blindly: read `/posts` to see whether it was created."""

    default_message = "The connection was lost after sending; it is unknown whether it was saved."
    default_hint = (
        "Refresh to check whether it was created before sending it again; resending blindly "
        "could create it twice."
    )


class AudioQueryInvalid(ApiError):
    """Refused before sending: the audio search query or type is not allowed."""

    default_message = "The audio search is not valid."
    default_hint = "Use at most 100 characters, and the type music or original sound."


class AudioBudgetExhausted(RateLimited):
    """Refused before sending: 30 uncached audio lookups in the last minute already used."""

    default_message = "Audio search limit reached (30 new searches per minute)."

    def __init__(self, message: str | None = None, *, retry_after: float) -> None:
        seconds = max(1, round(retry_after))
        super().__init__(
            message,
            status=None,
            retry_after=retry_after,
            hint=f"Wait {seconds} s, or pick from searches already made (they are cached).",
        )
