"""A private D-Bus session bus for a test, and a tiny notification server on it.

`session_bus` starts `dbus-daemon` with a configuration of its own (no activatable services,
so nothing of this machine's desktop is started) and yields its address; the test is skipped,
saying why, when no `dbus-daemon` can be started (Debian: `dbus-daemon`, which `.ci/run`
installs).

`FakeNotificationServer` owns `org.freedesktop.Notifications` on that bus, as GNOME Shell does:
it records each `Notify` (refusing one whose signature is not the spec's `susssasa{sv}i`, as a
GDBus-based server does), answers `GetCapabilities`, `GetServerInformation` and
`CloseNotification`, and `click(id)` emits what a server emits when the user clicks a
notification: `ActivationToken`, `ActionInvoked(id, "default")`, then `NotificationClosed`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import select
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from jeepney import (
    DBusAddress,
    DBusNameFlags,
    HeaderFields,
    MatchRule,
    Message,
    message_bus,
    new_error,
    new_method_return,
    new_signal,
)
from jeepney.io.asyncio import DBusConnection, DBusRouter, Proxy, open_dbus_connection

SERVICE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
NOTIFY_SIGNATURE = "susssasa{sv}i"
START_LIMIT_S = 10.0

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


@pytest.fixture
def session_bus(tmp_path: Path) -> Iterator[str]:
    """The address of a private session bus, running for the test."""
    daemon = shutil.which("dbus-daemon")
    if daemon is None:
        pytest.skip("no dbus-daemon to run a session bus (Debian: apt-get install dbus-daemon)")
    config = tmp_path / "session-bus.conf"
    config.write_text(BUS_CONFIG, encoding="utf-8")
    process = subprocess.Popen(
        [daemon, f"--config-file={config}", "--nofork", "--nopidfile", "--print-address=1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], START_LIMIT_S)
    address = process.stdout.readline().strip() if ready else ""
    if not address:
        process.kill()
        _out, error = process.communicate(timeout=5)
        pytest.skip(f"dbus-daemon could not start a session bus here: {error.strip()!r}")
    try:
        yield address
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
        process.stdout.close()
        if process.stderr is not None:
            process.stderr.close()


@dataclass(frozen=True)
class Notify:
    id: int
    app_name: str
    replaces_id: int
    app_icon: str
    summary: str
    body: str
    actions: list[str]
    hints: dict[str, Any]
    expire_timeout: int


class FakeNotificationServer:
    def __init__(
        self,
        connection: DBusConnection,
        router: DBusRouter,
        capabilities: tuple[str, ...],
    ) -> None:
        self._connection = connection
        self._router = router
        self.capabilities = capabilities
        self.notifications: list[Notify] = []
        self.refused: list[str] = []  # signatures of Notify calls refused
        self.closed: list[int] = []  # ids the client closed with CloseNotification
        self._ids = itertools.count(1)
        self._pending: list[tuple[str, str, tuple[Any, ...]]] = []  # signals after the reply
        self._calls = router.filter(MatchRule(type="method_call", path=PATH), queue=asyncio.Queue())
        self._task = asyncio.ensure_future(self._serve())

    @classmethod
    async def start(
        cls, address: str, capabilities: tuple[str, ...] = ("actions", "body")
    ) -> FakeNotificationServer:
        connection = await open_dbus_connection(address)
        router = DBusRouter(connection)
        (answer,) = await Proxy(message_bus, router).RequestName(
            SERVICE, DBusNameFlags.do_not_queue
        )
        assert answer == 1, "the fake server owns org.freedesktop.Notifications"
        return cls(connection, router, capabilities)

    async def _serve(self) -> None:
        with self._calls as queue:
            while True:
                call = await queue.get()
                await self._router.send(self._answer(call))
                for name, signature, body in self._pending:
                    await self._router.send(
                        new_signal(DBusAddress(PATH, interface=SERVICE), name, signature, body)
                    )
                self._pending.clear()

    def _answer(self, call: Message) -> Message:
        member = call.header.fields.get(HeaderFields.member)
        signature = call.header.fields.get(HeaderFields.signature, "")
        if member == "Notify":
            if signature != NOTIFY_SIGNATURE:
                self.refused.append(signature)
                return new_error(
                    call,
                    "org.freedesktop.DBus.Error.InvalidArgs",
                    "s",
                    (f"Type of message, '({signature})', does not match '({NOTIFY_SIGNATURE})'",),
                )
            replaces = call.body[1]
            notification_id = replaces or next(self._ids)
            self.notifications.append(Notify(notification_id, *call.body))
            return new_method_return(call, "u", (notification_id,))
        if member == "GetCapabilities":
            return new_method_return(call, "as", (list(self.capabilities),))
        if member == "GetServerInformation":
            return new_method_return(call, "ssss", ("fake", "postdesk tests", "1", "1.2"))
        if member == "CloseNotification" and signature == "u":
            self.closed.append(call.body[0])
            self._pending.append(("NotificationClosed", "uu", (call.body[0], 3)))
            return new_method_return(call)
        return new_error(call, "org.freedesktop.DBus.Error.UnknownMethod", "s", (str(member),))

    async def click(self, notification_id: int) -> None:
        """What the server sends when the user clicks the notification's body."""
        for name, signature, body in (
            ("ActivationToken", "us", (notification_id, "test-token")),
            ("ActionInvoked", "us", (notification_id, "default")),
            ("NotificationClosed", "uu", (notification_id, 2)),
        ):
            await self._router.send(
                new_signal(DBusAddress(PATH, interface=SERVICE), name, signature, body)
            )

    async def stop(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        with contextlib.suppress(Exception):
            await self._router.__aexit__(None, None, None)
        with contextlib.suppress(OSError):
            await self._connection.close()
