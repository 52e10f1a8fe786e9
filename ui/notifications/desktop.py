"""Desktop notifications through the session bus's notification server
(`org.freedesktop.Notifications`, Desktop Notifications Specification 1.2): GNOME Shell, KDE
Plasma, XFCE, dunst, mako... — what a desktop without a tray (stock GNOME) still shows.

Each alert is one `Notify` call (app name "Postdesk", the app's icon, a `default` action, so a
click on the notification's body invokes it); the server answers with an id, and its
`ActionInvoked(id, "default")` signal means the user clicked that notification: `on_activated`
gets the alert. `NotificationClosed` forgets the id; `ActivationToken` (spec 1.2) is handed to
Qt through `XDG_ACTIVATION_TOKEN`, so a Wayland compositor lets the window come forward.

Spoken with jeepney (pure Python, on the app's asyncio loop), not QtDBus: PySide6 marshals a
Python int as `i` only, and the spec's `Notify` takes `replaces_id` as `u` (GDBus-based servers,
GNOME Shell's among them, refuse the call). Nothing here blocks the window: every call is awaited
with a deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from jeepney import (
    DBusAddress,
    DBusErrorResponse,
    HeaderFields,
    MatchRule,
    Message,
    MessageType,
    message_bus,
    new_method_call,
)
from jeepney.io.asyncio import DBusConnection, DBusRouter, Proxy, open_dbus_connection

from ui.notifications.changes import Alert
from ui.resources import ResourcesMissing, resource

log = logging.getLogger(__name__)

SERVICE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
INTERFACE = "org.freedesktop.Notifications"
NOTIFY_SIGNATURE = "susssasa{sv}i"
APP_NAME = "Postdesk"
DESKTOP_ENTRY = "postdesk"  # resources/postdesk.desktop
DEFAULT_ACTION = "default"
CONNECT_TIMEOUT_S = 5.0
CALL_TIMEOUT_S = 10.0
"""A server that does not answer in time is treated as absent (the tray or the window's list
take over); nothing waits on it for longer."""
CLOSE_TIMEOUT_S = 2.0
GONE = frozenset(
    {"org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner"}
)
"""Errors that mean the server left the bus (it may come back: the notifier asks again)."""

_NOTIFICATIONS = DBusAddress(PATH, bus_name=SERVICE, interface=INTERFACE)
_SIGNALS = MatchRule(type="signal", interface=INTERFACE, path=PATH)


class DesktopError(Exception):
    """The notification server refused a call, did not answer, or the bus went away."""


def session_bus_address(environ: Mapping[str, str] | None = None) -> str | None:
    """The session bus as the desktop announces it, or systemd's per-user bus; None: no bus."""
    env = os.environ if environ is None else environ
    address = env.get("DBUS_SESSION_BUS_ADDRESS", "").strip()
    if address:
        return address
    runtime = env.get("XDG_RUNTIME_DIR", "")
    if runtime and Path(runtime, "bus").is_socket():
        return f"unix:path={Path(runtime, 'bus')}"
    return None


def app_icon() -> str:
    """The app's mark as a `file://` URI (the spec's other form, a theme icon name, needs the
    icon installed in a theme); "" (the server's default) when the file cannot be found."""
    try:
        return resource("postdesk.svg").as_uri()
    except ResourcesMissing:
        return ""


class DesktopNotifications:
    """One connection to the session bus, talking to its notification server. Made by
    `connect_desktop`; `close()` withdraws what it showed and ends the connection."""

    def __init__(
        self,
        connection: DBusConnection,
        router: DBusRouter,
        capabilities: Iterable[str],
        on_activated: Callable[[Alert], None],
        icon: str,
    ) -> None:
        self._connection = connection
        self._router = router
        self.capabilities = frozenset(capabilities)
        self._on_activated = on_activated
        self._icon = icon
        self._shown: dict[int, Alert] = {}  # notification id -> what it is about
        self._tokens: dict[int, str] = {}
        self._closing: set[int] = set()
        self._signals = router.filter(_SIGNALS, queue=asyncio.Queue())
        self._listener = asyncio.ensure_future(self._listen())
        self.closed = False
        self._broken = False

    @property
    def alive(self) -> bool:
        """False once closed, or once the bus or the server failed a call: the notifier then
        falls back (and may connect again later)."""
        return not (self.closed or self._broken or self._listener.done())

    async def show(self, alert: Alert) -> int:
        """`Notify`; the server's id. A notification already shown about the same item is
        replaced in place (`replaces_id`), not stacked."""
        replaces = next(
            (nid for nid, shown in self._shown.items() if shown.key[:2] == alert.key[:2]), 0
        )
        body = alert.text
        if "body-markup" in self.capabilities:
            body = html.escape(body, quote=False)  # a post's "<3" is text, not markup
        hints: dict[str, tuple[str, Any]] = {
            "desktop-entry": ("s", DESKTOP_ENTRY),
            "urgency": ("y", 1),  # normal
        }
        reply = await self._call(
            new_method_call(
                _NOTIFICATIONS,
                "Notify",
                NOTIFY_SIGNATURE,
                (
                    APP_NAME,
                    replaces,
                    self._icon,
                    alert.title,
                    body,
                    [DEFAULT_ACTION, "Open"],
                    hints,
                    -1,  # the server's default time on screen
                ),
            )
        )
        try:
            notification_id = int(reply[0])
        except (IndexError, TypeError, ValueError) as error:
            raise DesktopError(f"the notification server answered Notify with {reply!r}") from error
        self._shown.pop(replaces, None)
        self._shown[notification_id] = alert
        return notification_id

    async def withdraw(self, notification_ids: Iterable[int]) -> None:
        """`CloseNotification`: the item was opened or dismissed elsewhere, or left the state."""
        for notification_id in list(notification_ids):
            if notification_id not in self._shown or not self.alive:
                continue
            self._closing.add(notification_id)
            try:
                with contextlib.suppress(DesktopError):  # already gone from the server: fine
                    await self._call(
                        new_method_call(
                            _NOTIFICATIONS, "CloseNotification", "u", (notification_id,)
                        ),
                        CLOSE_TIMEOUT_S,
                    )
                self._shown.pop(notification_id, None)
                self._tokens.pop(notification_id, None)
            finally:
                self._closing.discard(notification_id)

    def stale(self, open_keys: set[tuple[str, str, str]]) -> list[int]:
        """Ids of shown notifications whose alert is no longer open (and not being closed)."""
        return [
            nid
            for nid, alert in self._shown.items()
            if alert.key not in open_keys and nid not in self._closing
        ]

    async def _call(self, message: Message, limit_s: float = CALL_TIMEOUT_S) -> tuple[Any, ...]:
        if not self.alive:
            raise DesktopError("the session bus connection is closed")
        try:
            reply = await asyncio.wait_for(self._router.send_and_get_reply(message), limit_s)
        except TimeoutError as error:
            self._broken = True
            raise DesktopError("the notification server did not answer") from error
        except Exception as error:  # jeepney's RouterClosed, OSError, EOFError
            self._broken = True
            raise DesktopError(f"the session bus went away: {error!r}") from error
        if reply.header.message_type is MessageType.error:
            name = reply.header.fields.get(HeaderFields.error_name, "?")
            if name in GONE:
                self._broken = True
            raise DesktopError(f"the notification server refused: {name} {reply.body!r}")
        return tuple(reply.body)

    async def _listen(self) -> None:
        with self._signals as queue:
            while True:
                message = await queue.get()
                try:
                    self._dispatch(message)
                except Exception:  # a click's handler failed: the next click still works
                    log.exception("a desktop notification's signal could not be handled")

    def _dispatch(self, message: Message) -> None:
        member = message.header.fields.get(HeaderFields.member)
        body = message.body
        try:
            notification_id = int(body[0])
        except (IndexError, TypeError, ValueError):
            return  # a malformed signal: not ours to act on
        if notification_id not in self._shown:
            return  # another app's notification
        if member == "ActivationToken" and len(body) > 1:
            self._tokens[notification_id] = str(body[1])
        elif member == "ActionInvoked" and len(body) > 1 and body[1] == DEFAULT_ACTION:
            alert = self._shown[notification_id]
            token = self._tokens.pop(notification_id, None)
            if token:
                # Read (and consumed) by Qt's Wayland plugin when the window asks to be
                # activated, which the click's handler does at once; never left to a child.
                os.environ["XDG_ACTIVATION_TOKEN"] = token
            try:
                self._on_activated(alert)
            finally:
                if token and os.environ.get("XDG_ACTIVATION_TOKEN") == token:
                    del os.environ["XDG_ACTIVATION_TOKEN"]
        elif member == "NotificationClosed":
            self._shown.pop(notification_id, None)
            self._tokens.pop(notification_id, None)

    async def close(self) -> None:
        """Withdraw what is still shown (a click would reach nobody once the app is gone),
        then end the connection."""
        if self.closed:
            return
        with contextlib.suppress(DesktopError):
            await self.withdraw(list(self._shown))
        self.closed = True
        self._listener.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._listener
        await _close_router(self._connection, self._router)


async def _close_router(connection: DBusConnection, router: DBusRouter) -> None:
    # The router re-raises its receiver's error (the bus went away): nothing left to do then.
    with contextlib.suppress(Exception):
        await router.__aexit__(None, None, None)
    with contextlib.suppress(OSError):
        await connection.close()


async def connect_desktop(
    address: str, on_activated: Callable[[Alert], None]
) -> DesktopNotifications | None:
    """A connection to `address` (a D-Bus address) when its bus has a notification server,
    running or activatable; None otherwise, or when the bus cannot be reached."""
    try:
        connection = await asyncio.wait_for(open_dbus_connection(address), CONNECT_TIMEOUT_S)
    except (OSError, EOFError, RuntimeError, ValueError, KeyError, TimeoutError) as error:
        log.info("no session bus at %s: %s", address, error)
        return None
    router = DBusRouter(connection)
    try:
        capabilities = await asyncio.wait_for(_probe(router), CALL_TIMEOUT_S)
        if capabilities is None:
            await _close_router(connection, router)
            return None
        return DesktopNotifications(connection, router, capabilities, on_activated, app_icon())
    except BaseException as error:
        await _close_router(connection, router)
        if isinstance(error, Exception):
            log.info("the session bus's notification server is unusable: %r", error)
            return None
        raise  # cancelled: the notifier is closing


async def _probe(router: DBusRouter) -> list[str] | None:
    """The server's capabilities, with its signals subscribed; None: no server on this bus."""
    bus = Proxy(message_bus, router)
    try:
        (running,) = await bus.NameHasOwner(SERVICE)
        if not running:
            (activatable,) = await bus.ListActivatableNames()
            if SERVICE not in activatable:
                return None
        await bus.AddMatch(MatchRule(type="signal", sender=SERVICE, interface=INTERFACE, path=PATH))
        reply = await router.send_and_get_reply(
            new_method_call(_NOTIFICATIONS, "GetCapabilities")  # starts an activatable server
        )
    except DBusErrorResponse as error:
        log.info("the session bus refused: %s", error)
        return None
    if reply.header.message_type is MessageType.error:
        return None
    return [str(capability) for capability in (reply.body[0] if reply.body else [])]
