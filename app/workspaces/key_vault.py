"""API keys: in the OS keyring (service `postdesk`), or in memory for this session only.

`keyring` is imported on first use: importing it and finding a backend costs ~120 ms, which must
not delay the first paint of the calendar (call `KeyVault.get` off the UI thread or after it).
There is deliberately no plaintext fallback: without a keyring the caller is told so
(KeyringUnavailable) and may keep the key for this session with `session_only=True`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Mapping
from typing import Any, Literal

SERVICE = "postdesk"
ENV_API_KEY = "POSTDESK_API_KEY"

KeySource = Literal["environment", "session", "keyring"]

log = logging.getLogger(__name__)

_NO_KEYRING_MESSAGE = (
    "No system keyring was found (on Linux: a Secret Service such as GNOME Keyring or KWallet), "
    "so the API key cannot be stored safely. You can keep it for this session only; it will be "
    "forgotten when Postdesk quits."
)


class KeyringUnavailable(Exception):
    """The OS keyring cannot be used. The message explains it and offers a session-only key."""

    def __init__(self, message: str = _NO_KEYRING_MESSAGE, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason


class KeyVault:
    """Looks up the API key of a profile: environment, then session memory, then the keyring.

    `POSTDESK_API_KEY` wins for the run and is never stored. When `env_profile_id` is given it
    applies to that profile only, so the key is not sent to another workspace's server.
    """

    def __init__(
        self,
        *,
        service: str = SERVICE,
        env_profile_id: str | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self._service = service
        self._env_profile_id = env_profile_id
        self._environ = environ if environ is not None else os.environ
        self._session: dict[str, str] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"KeyVault(service={self._service!r}, session_keys={len(self._session)})"

    def get(self, profile_id: str) -> str | None:
        """The key to use for `profile_id`, or None. Raises KeyringUnavailable when only the
        keyring could answer and it cannot be used."""
        found = self._lookup(profile_id)
        return None if found is None else found[1]

    async def get_async(self, profile_id: str) -> str | None:
        """`get` in a worker thread: the first keyring use takes ~120 ms (and a locked keyring
        may wait for the user), which must not freeze the UI."""
        return await asyncio.to_thread(self.get, profile_id)

    def source(self, profile_id: str) -> KeySource | None:
        """Where `get` finds the key, for the UI to say so ("for this session only")."""
        found = self._lookup(profile_id)
        return None if found is None else found[0]

    def set(self, profile_id: str, key: str, *, session_only: bool = False) -> None:
        key = key.strip()
        if not key:
            raise ValueError("The API key is empty.")
        if session_only:
            with self._lock:
                self._session[profile_id] = key
            return
        backend = _keyring_backend()
        try:
            backend.set_password(self._service, profile_id, key)
        except Exception as exc:
            # `from None`: the failing call had the key as an argument; keep it out of tracebacks.
            raise _unavailable(exc) from None
        with self._lock:
            self._session.pop(profile_id, None)
        log.info("API key of profile %s stored in the system keyring", profile_id)

    async def set_async(self, profile_id: str, key: str, *, session_only: bool = False) -> None:
        """`set` in a worker thread (a locked keyring may wait for the user to unlock it)."""
        await asyncio.to_thread(self.set, profile_id, key, session_only=session_only)

    async def delete_async(self, profile_id: str) -> None:
        """`delete` in a worker thread."""
        await asyncio.to_thread(self.delete, profile_id)

    def delete(self, profile_id: str) -> None:
        """Forget the key everywhere it is stored (not the environment variable)."""
        with self._lock:
            self._session.pop(profile_id, None)
        errors = _keyring_errors()
        try:
            backend = _keyring_backend()
        except KeyringUnavailable:
            return  # nothing can have been stored in a keyring that does not exist
        try:
            backend.delete_password(self._service, profile_id)
        except errors.PasswordDeleteError:
            pass  # there was no key stored for this profile
        except Exception as exc:
            raise _unavailable(exc) from exc

    def _lookup(self, profile_id: str) -> tuple[KeySource, str] | None:
        from_env = self._environ.get(ENV_API_KEY, "").strip()
        if from_env and self._env_profile_id in (None, profile_id):
            return "environment", from_env
        with self._lock:
            in_session = self._session.get(profile_id)
        if in_session is not None:
            return "session", in_session
        backend = _keyring_backend()
        try:
            stored = backend.get_password(self._service, profile_id)
        except Exception as exc:
            raise _unavailable(exc) from exc
        return None if stored is None else ("keyring", stored)


def _keyring_errors() -> Any:
    import keyring.errors

    return keyring.errors


def _keyring_backend() -> Any:
    """The active keyring backend; KeyringUnavailable when there is none or it is plaintext."""
    import keyring
    from keyring.backends import fail

    try:
        backend = keyring.get_keyring()
    except Exception as exc:
        raise _unavailable(exc) from exc
    if isinstance(backend, fail.Keyring):
        raise KeyringUnavailable(reason="no backend")
    if _stores_plaintext(backend):
        raise KeyringUnavailable(
            "The configured keyring backend stores keys unencrypted in a file, which Postdesk "
            "does not use. Install a system keyring (e.g. GNOME Keyring) or keep the key for "
            "this session only.",
            reason=type(backend).__name__,
        )
    return backend


def _stores_plaintext(backend: Any) -> bool:
    # keyrings.alt offers file backends; a chained keyring may include one of them.
    members = getattr(backend, "backends", None) or [backend]
    return any(
        type(member).__module__.startswith("keyrings.alt")
        and "plaintext" in type(member).__name__.lower()
        for member in members
    )


def _unavailable(exc: BaseException) -> KeyringUnavailable:
    errors = _keyring_errors()
    if isinstance(exc, errors.NoKeyringError):
        return KeyringUnavailable(reason="no backend")
    if isinstance(exc, errors.KeyringLocked):
        return KeyringUnavailable(
            "The system keyring is locked. Unlock it (log in again or open your keyring app) "
            "and retry, or keep the key for this session only.",
            reason="locked",
        )
    return KeyringUnavailable(
        f"The system keyring did not answer ({type(exc).__name__}). Check that it is running "
        "and unlocked, or keep the key for this session only.",
        reason=type(exc).__name__,
    )
