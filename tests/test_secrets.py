"""KeyVault (app.workspaces.key_vault): in-memory keyring, the fail backend and broken ones."""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
import threading
import traceback
from collections.abc import Iterator
from pathlib import Path

import keyring
import keyring.errors
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail

from app.workspaces.key_vault import KeyringUnavailable, KeyVault
from tests.keyrings import MemoryKeyring

KEY = "pd_live_S3cr3t-value-that-must-never-leak"
ROOT = Path(__file__).resolve().parent.parent


class LockedKeyring(MemoryKeyring):
    def get_password(self, service: str, username: str) -> str | None:
        raise keyring.errors.KeyringLocked("collection is locked")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.KeyringLocked(f"cannot store {password}")


class BrokenKeyring(MemoryKeyring):
    """Fails like a Secret Service whose D-Bus peer went away."""

    def get_password(self, service: str, username: str) -> str | None:
        raise keyring.errors.KeyringError("org.freedesktop.DBus.Error.ServiceUnknown")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise RuntimeError(f"D-Bus refused to store {password!r}")

    def delete_password(self, service: str, username: str) -> None:
        raise keyring.errors.KeyringError("org.freedesktop.DBus.Error.ServiceUnknown")


class PlaintextKeyring(MemoryKeyring):
    """Looks like keyrings.alt's unencrypted file backend."""


PlaintextKeyring.__module__ = "keyrings.alt.file"


def use_backend(backend: KeyringBackend) -> KeyringBackend:
    keyring.set_keyring(backend)
    return backend


@pytest.fixture(autouse=True)
def restore_keyring() -> Iterator[None]:
    previous = keyring.get_keyring()
    yield
    keyring.set_keyring(previous)


@pytest.fixture
def memory() -> MemoryKeyring:
    backend = MemoryKeyring()
    use_backend(backend)
    return backend


def test_keys_are_stored_in_the_keyring_under_postdesk(memory: MemoryKeyring) -> None:
    vault = KeyVault()
    assert vault.get("p1") is None

    vault.set("p1", f"  {KEY}\n")

    assert memory.passwords == {("postdesk", "p1"): KEY}
    assert vault.get("p1") == KEY
    assert vault.source("p1") == "keyring"
    assert KeyVault().get("p1") == KEY  # another vault (the next run) finds it too
    assert vault.get("p2") is None


@pytest.mark.asyncio
async def test_the_key_can_be_looked_up_off_the_event_loop(memory: MemoryKeyring) -> None:
    vault = KeyVault()
    vault.set("p1", KEY)

    assert await vault.get_async("p1") == KEY
    assert await vault.get_async("p2") is None


class SlowKeyring(MemoryKeyring):
    """Blocks until released, like a keyring waiting for the user to unlock it; records the
    thread each call ran on."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.threads: list[str] = []

    def set_password(self, service: str, username: str, password: str) -> None:
        self.threads.append(threading.current_thread().name)
        assert self.release.wait(10)
        super().set_password(service, username, password)

    def delete_password(self, service: str, username: str) -> None:
        self.threads.append(threading.current_thread().name)
        assert self.release.wait(10)
        super().delete_password(service, username)


@pytest.mark.asyncio
async def test_storing_and_deleting_keys_never_block_the_event_loop() -> None:
    slow = SlowKeyring()
    use_backend(slow)
    vault = KeyVault()
    storing = asyncio.ensure_future(vault.set_async("p1", KEY))
    for _ in range(3):
        await asyncio.sleep(0.01)  # the loop keeps turning while the keyring waits
    assert not storing.done()
    slow.release.set()
    await storing
    assert slow.passwords == {("postdesk", "p1"): KEY}
    await vault.delete_async("p1")
    assert slow.passwords == {}
    assert threading.current_thread().name not in slow.threads


def test_delete_forgets_the_key(memory: MemoryKeyring) -> None:
    vault = KeyVault()
    vault.set("p1", KEY)

    vault.delete("p1")
    vault.delete("p1")  # nothing left to delete is fine

    assert memory.passwords == {}
    assert vault.get("p1") is None


def test_an_empty_key_is_refused(memory: MemoryKeyring) -> None:
    with pytest.raises(ValueError, match="empty"):
        KeyVault().set("p1", "   ")
    assert memory.passwords == {}


def test_without_a_keyring_the_user_is_told_and_offered_a_session_key() -> None:
    use_backend(fail.Keyring())
    vault = KeyVault()

    with pytest.raises(KeyringUnavailable) as on_get:
        vault.get("p1")
    with pytest.raises(KeyringUnavailable) as on_set:
        vault.set("p1", KEY)

    for caught in (on_get, on_set):
        assert "No system keyring" in caught.value.message
        assert "this session only" in caught.value.message
    vault.set("p1", KEY, session_only=True)
    assert vault.get("p1") == KEY
    assert vault.source("p1") == "session"
    vault.delete("p1")  # no keyring: only the session copy to forget
    with pytest.raises(KeyringUnavailable):
        vault.get("p1")


def test_session_keys_live_in_this_vault_only(memory: MemoryKeyring) -> None:
    vault = KeyVault()
    vault.set("p1", KEY, session_only=True)

    assert memory.passwords == {}
    assert vault.get("p1") == KEY
    assert KeyVault().get("p1") is None  # the next run does not know it


def test_storing_in_the_keyring_replaces_a_session_key(memory: MemoryKeyring) -> None:
    vault = KeyVault()
    vault.set("p1", "old-session-key", session_only=True)
    vault.set("p1", KEY)

    assert vault.source("p1") == "keyring"
    assert vault.get("p1") == KEY


def test_the_environment_key_wins_for_this_run_and_is_not_stored(
    memory: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = KeyVault()
    vault.set("p1", "stored-key")
    monkeypatch.setenv("POSTDESK_API_KEY", KEY)

    assert vault.get("p1") == KEY
    assert vault.source("p1") == "environment"
    assert memory.passwords == {("postdesk", "p1"): "stored-key"}


def test_the_environment_key_can_be_limited_to_one_profile(
    memory: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POSTDESK_API_KEY", KEY)
    vault = KeyVault(env_profile_id="p1")

    assert vault.get("p1") == KEY
    assert vault.get("p2") is None


def test_the_environment_key_needs_no_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    use_backend(fail.Keyring())
    monkeypatch.setenv("POSTDESK_API_KEY", KEY)

    assert KeyVault().get("p1") == KEY


def test_a_locked_keyring_says_so() -> None:
    use_backend(LockedKeyring())

    with pytest.raises(KeyringUnavailable, match="locked") as caught:
        KeyVault().get("p1")
    assert caught.value.reason == "locked"


def test_a_failing_keyring_becomes_keyring_unavailable() -> None:
    use_backend(BrokenKeyring())
    vault = KeyVault()

    with pytest.raises(KeyringUnavailable, match="did not answer"):
        vault.get("p1")
    with pytest.raises(KeyringUnavailable, match="did not answer"):
        vault.delete("p1")


def test_a_plaintext_backend_is_never_used() -> None:
    backend = use_backend(PlaintextKeyring())
    assert isinstance(backend, PlaintextKeyring)

    with pytest.raises(KeyringUnavailable, match="unencrypted"):
        KeyVault().set("p1", KEY)
    assert backend.passwords == {}


@pytest.mark.parametrize("backend_type", [BrokenKeyring, LockedKeyring, PlaintextKeyring])
def test_no_key_in_exceptions_logs_or_reprs(
    backend_type: type[MemoryKeyring],
    caplog: pytest.LogCaptureFixture,
    private_xdg_dirs: Path,
) -> None:
    caplog.set_level(logging.DEBUG)
    use_backend(backend_type())
    vault = KeyVault()

    with pytest.raises(KeyringUnavailable) as caught:
        vault.set("p1", KEY)
    vault.set("p1", KEY, session_only=True)

    shown = [
        str(caught.value),
        repr(caught.value),
        "".join(traceback.format_exception(caught.value)),
        repr(vault),
        str(vault),
        caplog.text,
    ]
    assert all(KEY not in text for text in shown)
    assert vault.get("p1") == KEY  # the session copy is there, just never shown
    files = [p for p in private_xdg_dirs.rglob("*") if p.is_file()]
    assert all(KEY not in p.read_text(errors="replace") for p in files)


def test_importing_the_app_modules_does_not_load_keyring() -> None:
    # keyring costs ~120 ms to import and set up: it must stay off the path to first paint.
    script = (
        "import sys\n"
        "import app.workspaces.profiles, app.workspaces.key_vault, app.store, app.sync\n"
        "from app.workspaces.key_vault import KeyVault\n"
        "import os\n"
        "os.environ['POSTDESK_API_KEY'] = 'k'\n"
        "assert KeyVault().get('p1') == 'k'\n"
        "print('keyring' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
