"""What a screen reader (Orca) gets from a running Postdesk: walks its tree on the AT-SPI bus and
lists every interactive control with no name, and the calendar's mirrored posts.

Run by the SYSTEM python3 (it needs PyGObject and gir1.2-atspi-2.0: `apt-get install at-spi2-core
dbus-x11 python3-gi gir1.2-atspi-2.0`); it never imports the app. The app must run on the same
D-Bus session with Qt's bridge on (QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1). The whole session, from
Xvfb to the report: docs/notes/accessibility_atspi.md.

    python3 tests/tools/atspi_walk.py walk [--mirrored] [--named] [--all] [--json OUT]
    python3 tests/tools/atspi_walk.py tour [--json OUT]     # every page, view and a few dialogs
    python3 tests/tools/atspi_walk.py dump [--all]           # the whole tree, indented
    python3 tests/tools/atspi_walk.py click NAME [--role ROLE]

`tour` drives the app as a user does, with xdotool mouse clicks (no window manager is needed)
at the places AT-SPI gives for the controls; it exits 1 when any walk found an unnamed control
or, where the month or week grid is shown (`--mirrored`), no list of its posts.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

APP_NAME = "Postdesk"
MAX_DEPTH = 40
MAX_NODES = 8000
MAX_CHILDREN = 300
"""Children read per node: a table of 10,000 deliveries is walked through its first rows."""

R = Atspi.Role
INTERACTIVE = frozenset(
    {
        R.PUSH_BUTTON,
        R.TOGGLE_BUTTON,
        R.CHECK_BOX,
        R.RADIO_BUTTON,
        R.COMBO_BOX,
        R.TEXT,
        R.ENTRY,
        R.PASSWORD_TEXT,
        R.SPIN_BUTTON,
        R.SLIDER,
        R.DIAL,
        R.LIST,
        R.LIST_BOX,
        R.TABLE,
        R.TREE,
        R.TREE_TABLE,
        R.PAGE_TAB,
        R.PAGE_TAB_LIST,
        R.MENU,
        R.MENU_ITEM,
        R.CHECK_MENU_ITEM,
        R.RADIO_MENU_ITEM,
        R.LINK,
        R.PUSH_BUTTON_MENU,
    }
)
ITEMS = frozenset({R.LIST_ITEM, R.TABLE_CELL, R.TREE_ITEM})
"""Rows of a list, table or tree: named by their text; an empty one is counted apart (a blank
separator row or an empty cell is no fault, an icon-only row is)."""
SKIPPED = frozenset({R.SCROLL_BAR})
"""Named by Qt's bridge after their orientation; Orca skips them."""
MIRROR_NAME = "Posts shown in the calendar"
POST_NAME = re.compile(r"\d{1,2}[:.]\d{2}(\s?[AaPp]\.?[Mm]\.?)?, [^,]+, [^:]+: .")
"""A mirrored post's name: "<day>, <time>, <network>, <status>: <text>"."""


@dataclass
class Node:
    role: str
    name: str
    path: str
    accessible_id: str
    focusable: bool


@dataclass
class Walk:
    label: str
    nodes: int = 0
    interactive: int = 0
    truncated: bool = False
    unnamed: list[Node] = field(default_factory=list)
    unnamed_items: list[Node] = field(default_factory=list)
    named: list[tuple[str, str]] = field(default_factory=list)
    mirror: list[str] | None = None
    expects_mirror: bool = False
    dialogs: list[str] = field(default_factory=list)


def states(acc: Atspi.Accessible) -> Atspi.StateSet:
    return acc.get_state_set()


def is_shown(acc: Atspi.Accessible) -> bool:
    state = states(acc)
    return state.contains(Atspi.StateType.SHOWING) and state.contains(Atspi.StateType.VISIBLE)


def _safe(call: Callable[[], str], default: str = "") -> str:
    try:
        return call() or default
    except GLib.Error:
        return default


def children(acc: Atspi.Accessible) -> Iterator[Atspi.Accessible]:
    count = min(acc.get_child_count(), MAX_CHILDREN)
    for index in range(count):
        child = acc.get_child_at_index(index)
        if child is not None:
            yield child


def find_app(name: str = APP_NAME, timeout: float = 30.0) -> Atspi.Accessible:
    """The application on the accessibility bus whose name is `name` (waits for it to appear)."""
    deadline = time.monotonic() + timeout
    while True:
        desktop = Atspi.get_desktop(0)
        for app in children(desktop):
            if _safe(app.get_name) == name:
                return app
        if time.monotonic() > deadline:
            raise SystemExit(f"no application named {name!r} on the AT-SPI bus")
        time.sleep(0.2)


def iterate(
    root: Atspi.Accessible, *, everything: bool = False
) -> Iterator[tuple[Atspi.Accessible, str, int]]:
    """(node, path, depth) depth first; hidden subtrees are left out unless `everything`."""
    stack: list[tuple[Atspi.Accessible, str, int]] = [(root, "", 0)]
    seen = 0
    while stack and seen < MAX_NODES:
        acc, parent_path, depth = stack.pop()
        if not everything and depth > 0 and not is_shown(acc):
            continue
        seen += 1
        role = _safe(acc.get_role_name, "?")
        name = _safe(acc.get_name)
        step = f"{role}[{name[:30]}]" if name else role
        path = f"{parent_path}/{step}" if parent_path else step
        yield acc, path, depth
        if depth < MAX_DEPTH:
            kids = list(children(acc))
            stack.extend((kid, path, depth + 1) for kid in reversed(kids))


def walk(
    app: Atspi.Accessible, label: str, *, everything: bool = False, mirrored: bool = False
) -> Walk:
    """`mirrored`: the calendar's month or week grid is shown, its posts' list is expected."""
    result = Walk(label, expects_mirror=mirrored)
    for acc, path, _depth in iterate(app, everything=everything):
        result.nodes += 1
        role = acc.get_role()
        if role == R.DIALOG or (role in (R.FRAME, R.WINDOW) and _safe(acc.get_name)):
            result.dialogs.append(f"{acc.get_role_name()}: {_safe(acc.get_name)}")
        if _safe(acc.get_name) == MIRROR_NAME:
            result.mirror = [_safe(item.get_name) for item in children(acc)]
        if role in SKIPPED:
            continue
        focusable = states(acc).contains(Atspi.StateType.FOCUSABLE)
        interactive = role in INTERACTIVE or (
            focusable and role in (R.FILLER, R.PANEL, R.CANVAS, R.UNKNOWN)
        )
        node = Node(
            acc.get_role_name(),
            _safe(acc.get_name),
            path,
            _safe(acc.get_accessible_id),
            focusable,
        )
        if role in ITEMS and not named(node.name):
            result.unnamed_items.append(node)
        if not interactive:
            continue
        result.interactive += 1
        if named(node.name):
            result.named.append((node.role, node.name))
        else:
            result.unnamed.append(node)
    result.truncated = result.nodes >= MAX_NODES
    return result


def named(name: str) -> bool:
    """A name with a letter or digit ("‹" or "✕" alone is read as a symbol, not a name)."""
    return any(character.isalnum() for character in name)


# -- driving ---------------------------------------------------------------------------------


def find(
    root: Atspi.Accessible, name: str, roles: tuple[str, ...] = (), *, everything: bool = False
) -> Atspi.Accessible | None:
    for acc, _path, _depth in iterate(root, everything=everything):
        if _safe(acc.get_name) == name and (not roles or acc.get_role_name() in roles):
            return acc
    return None


def wait_for(
    root: Atspi.Accessible,
    name: str,
    roles: tuple[str, ...] = (),
    timeout: float = 10.0,
) -> Atspi.Accessible:
    deadline = time.monotonic() + timeout
    while True:
        found = find(root, name, roles)
        if found is not None:
            return found
        if time.monotonic() > deadline:
            raise SystemExit(f"{name!r} ({', '.join(roles) or 'any role'}) never showed")
        time.sleep(0.1)


def wait_for_posts(app: Atspi.Accessible, timeout: float = 60.0) -> None:
    """Until the calendar's post mirror lists posts (the demo's first sync fills the month a
    few seconds after the window shows); returns anyway after `timeout`, the walk tells."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        mirror = find(app, MIRROR_NAME)
        if mirror is not None and mirror.get_child_count() > 0:
            settle(app)
            return
        time.sleep(0.2)


def click(acc: Atspi.Accessible) -> None:
    """A real mouse click at the middle of the control (as the user would)."""
    box = acc.get_extents(Atspi.CoordType.SCREEN)
    x, y = box.x + box.width // 2, box.y + box.height // 2
    subprocess.run(
        ["xdotool", "mousemove", str(x), str(y), "click", "1"],
        check=True,
        env=os.environ,
    )


def click_name(app: Atspi.Accessible, name: str, roles: tuple[str, ...] = ()) -> None:
    click(wait_for(app, name, roles))


def click_until(
    app: Atspi.Accessible,
    name: str,
    roles: tuple[str, ...],
    done: Callable[[Atspi.Accessible], bool],
    tries: int = 3,
) -> None:
    """Clicks until `done(control)`: under Xvfb with no window manager the first click after a
    popup or a dialog closed is sometimes swallowed."""
    for _ in range(tries):
        control = wait_for(app, name, roles)
        click(control)
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            if done(wait_for(app, name, roles)):
                return
            time.sleep(0.1)
    raise SystemExit(f"clicking {name!r} did nothing, {tries} times")


def has_state(state: Atspi.StateType) -> Callable[[Atspi.Accessible], bool]:
    return lambda acc: states(acc).contains(state)


def settle(app: Atspi.Accessible, quiet: float = 0.6, timeout: float = 15.0) -> None:
    """Waits until two walks `quiet` seconds apart see the same number of nodes (pages and
    dialogs build their parts over a few event-loop turns)."""
    deadline = time.monotonic() + timeout
    before = -1
    while time.monotonic() < deadline:
        count = sum(1 for _ in iterate(app))
        if count == before:
            return
        before = count
        time.sleep(quiet)


def menu(app: Atspi.Accessible, top: str, entry: str) -> bool:
    """Chooses `top` ▸ `entry` with two clicks; False (menu closed again) when it is disabled."""
    roles = ("menu item", "check menu item", "radio menu item")
    for _ in range(3):
        title = wait_for(app, top, ("menu item",))
        click(title)
        try:
            item = wait_for(app, entry, roles, timeout=2.0)
            break
        except SystemExit:
            continue
    else:
        raise SystemExit(f"the {top!r} menu never opened")
    if not states(item).contains(Atspi.StateType.ENABLED):
        click(title)
        return False
    click(item)
    return True


def close_dialog(app: Atspi.Accessible, before: set[str]) -> None:
    """Presses the newest dialog's Cancel / Close button through its AT-SPI action, as a screen
    reader does (under Xvfb with no window manager a click into a second modal dialog in a row
    was sometimes not delivered; the action always is)."""
    for _ in range(20):
        top = [kid for kid in children(app) if is_shown(kid) and _key(kid) not in before]
        if not top:
            return
        buttons = [
            (_safe(acc.get_name), acc)
            for acc, _path, _depth in iterate(top[-1])
            if acc.get_role() == R.PUSH_BUTTON
        ]
        for wanted in ("Cancel", "Close", "OK", "Done"):
            found = next((acc for name, acc in buttons if name.startswith(wanted)), None)
            if found is not None:
                found.do_action(0)
                break
        else:  # a palette with no button: Escape reaches it (it holds the keyboard focus)
            subprocess.run(["xdotool", "key", "Escape"], check=True, env=os.environ)
        time.sleep(0.3)
    raise SystemExit("a dialog would not close")


def _key(acc: Atspi.Accessible) -> str:
    return f"{acc.get_role_name()}:{_safe(acc.get_name)}:{_safe(acc.get_accessible_id)}"


PAGES = ("Calendar", "Compose", "Labels", "Signatures", "Accounts", "Webhooks", "Repurposes")
VIEW_BUTTON = ("check box", "push button", "toggle button", "radio button")
PAGE_DIALOGS = (
    ("Labels", "New label…"),
    ("Signatures", "New signature…"),
    ("Webhooks", "New webhook"),
    ("Webhooks", "Edit webhook"),
    ("Webhooks", "Check a signature"),
    ("Webhooks", "Listen locally"),
    ("Webhooks", "Delivery archive"),
)
POST_DIALOGS = (("Post", "Reschedule…"), ("Post", "Delete post…"))
DIALOGS = (
    ("Workspace", "Connect a workspace…"),
    ("Workspace", "Replace API key…"),
    ("View", "Command palette…"),
    ("Help", "Keyboard shortcuts"),
    ("Help", "About Postdesk"),
)


def focus_after(action: Callable[[], None], timeout: float = 5.0) -> Atspi.Accessible | None:
    """The control that took the focus after `action` (a popup such as the date picker is no
    child of the application: Qt's bridge leaves popups out; AT meets them by their focus)."""
    focused: list[Atspi.Accessible] = []

    def on_focus(event: Atspi.Event) -> None:
        if event.detail1:
            focused.append(event.source)

    listener = Atspi.EventListener.new(on_focus)
    listener.register("object:state-changed:focused")
    try:
        action()
        context = GLib.MainContext.default()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            while context.iteration(False):
                pass
            if focused and time.monotonic() > deadline - timeout + 0.8:
                break
            time.sleep(0.05)
    finally:
        listener.deregister("object:state-changed:focused")
    return focused[-1] if focused else None


def window_of(acc: Atspi.Accessible) -> Atspi.Accessible:
    """The top of `acc`'s window (the node under the application)."""
    current = acc
    for _ in range(MAX_DEPTH):
        parent = current.get_parent()
        if parent is None or parent.get_role() == R.APPLICATION:
            return current
        current = parent
    return current


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def tour(app: Atspi.Accessible) -> list[Walk]:
    walks: list[Walk] = []

    def page(section: str) -> None:
        click_until(app, section, ("list item",), has_state(Atspi.StateType.SELECTED))
        settle(app)

    def view(name: str) -> None:
        click_until(app, name, VIEW_BUTTON, has_state(Atspi.StateType.CHECKED))
        settle(app)

    def record(found: Walk) -> None:
        _say(report([found]))
        walks.append(found)

    page("Calendar")
    for kind in ("Month", "Week", "Agenda"):
        view(kind)
        record(walk(app, f"Calendar {kind.lower()}", mirrored=kind != "Agenda"))
    view("Month")
    for section in PAGES[1:]:
        page(section)
        record(walk(app, section))
    page("Calendar")

    # A post selected for the post dialogs: Today, then the agenda's first scheduled post.
    click_name(app, "Today", ("push button",))
    view("Agenda")
    agenda = wait_for(app, "Agenda", ("list", "table", "tree", "tree table"))
    rows = [
        kid for kid in children(agenda) if is_shown(kid) and "Scheduled — " in _safe(kid.get_name)
    ]
    if rows:
        click(rows[0])
        settle(app)
        record(walk(app, "Calendar agenda, a post's details open"))
    dialogs(app, POST_DIALOGS, record)
    view("Month")
    record(walk(app, "Calendar month, a post's details open", mirrored=True))
    view("Week")
    record(walk(app, "Calendar week, a post's details open", mirrored=True))
    view("Month")

    # Ctrl+G's date picker: a popup, reached through the focus it takes.
    picker = focus_after(lambda: menu(app, "Go", "Jump to date…"))
    if picker is None:
        record(Walk("Go ▸ Jump to date… (no focus event: not walked)"))
    else:
        record(walk(window_of(picker), "Go ▸ Jump to date… (popup)"))
    click(wait_for(app, "Today", ("push button",)))  # a click outside closes the popup
    settle(app)

    dialogs(app, DIALOGS, record)

    for section, button in PAGE_DIALOGS:
        page(section)
        before = {_key(kid) for kid in children(app) if is_shown(kid)}
        click_name(app, button, ("push button",))
        opened = wait_for_window(app, before)
        if opened is None:
            record(Walk(f"{section} ▸ {button} (no new window: not walked)"))
            continue
        settle(app)
        record(walk(opened, f"{section} ▸ {button}"))
        close_dialog(app, before)
        settle(app)
    page("Calendar")
    return walks


def wait_for_window(
    app: Atspi.Accessible, before: set[str], timeout: float = 5.0
) -> Atspi.Accessible | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        opened = [kid for kid in children(app) if is_shown(kid) and _key(kid) not in before]
        if opened:
            return opened[-1]
        time.sleep(0.1)
    return None


def dialogs(
    app: Atspi.Accessible, entries: tuple[tuple[str, str], ...], record: Callable[[Walk], None]
) -> None:
    for top, entry in entries:
        before = {_key(kid) for kid in children(app) if is_shown(kid)}
        if not menu(app, top, entry):
            record(Walk(f"{top} ▸ {entry} (disabled: not walked)"))
            continue
        settle(app)
        opened = [kid for kid in children(app) if is_shown(kid) and _key(kid) not in before]
        if not opened:
            record(Walk(f"{top} ▸ {entry} (no new window: not walked)"))
            continue
        record(walk(opened[-1], f"{top} ▸ {entry}"))
        close_dialog(app, before)
        settle(app)


# -- reports -----------------------------------------------------------------------------------


def report(walks: list[Walk], *, show_named: bool = False) -> str:
    lines: list[str] = []
    for found in walks:
        lines.append(
            f"== {found.label}: {len(found.unnamed)} unnamed of {found.interactive} interactive"
            f" ({found.nodes} nodes{', TRUNCATED' if found.truncated else ''};"
            f" {len(found.unnamed_items)} unnamed items)"
        )
        for node in found.unnamed:
            lines.append(f"   - {node.role}  id={node.accessible_id or '?'}")
            lines.append(f"       path {node.path}")
        for node in found.unnamed_items[:5]:
            lines.append(f"   · empty {node.role} under {node.path.rsplit('/', 1)[0]}")
        if found.mirror is not None:
            partial = [name for name in found.mirror if not POST_NAME.search(name)]
            lines.append(
                f"   mirror: {len(found.mirror)} posts, {len(partial)} without time, network,"
                f" status and text; first: {found.mirror[:1]}"
            )
        elif found.expects_mirror:
            lines.append(f"   mirror: NOT ON THE BUS (no list named {MIRROR_NAME!r})")
        if show_named:
            lines.extend(f"   + {role}: {name}" for role, name in found.named)
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("walk", "tour", "dump", "click"))
    parser.add_argument("name", nargs="?", help="for click: the control's accessible name")
    parser.add_argument("--role", action="append", default=[], help="for click: allowed roles")
    parser.add_argument("--label", default="now", help="for walk: the report's heading")
    parser.add_argument("--all", action="store_true", help="hidden nodes too")
    parser.add_argument("--mirrored", action="store_true", help="walk: the calendar grid is shown")
    parser.add_argument("--named", action="store_true", help="list the named controls too")
    parser.add_argument("--json", help="write the findings there as JSON")
    parser.add_argument("--app", default=APP_NAME)
    args = parser.parse_args(argv)
    app = find_app(args.app, timeout=120.0)
    wait_for(app, "Sections", ("list",), timeout=120.0)  # the main window is up
    settle(app)
    if args.command == "dump":
        for acc, _path, depth in iterate(app, everything=args.all):
            print(f"{'  ' * depth}{acc.get_role_name()} {_safe(acc.get_name)!r}")
        return 0
    if args.command == "click":
        if not args.name:
            parser.error("click needs a NAME")
        click_name(app, args.name, tuple(args.role))
        return 0
    if args.mirrored:
        wait_for_posts(app)
    walks = (
        [walk(app, args.label, everything=args.all, mirrored=args.mirrored)]
        if args.command == "walk"
        else tour(app)
    )
    print(report(walks, show_named=args.named))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump([asdict(found) for found in walks], out, indent=1, ensure_ascii=False)
    failed = any(found.unnamed or (found.expects_mirror and not found.mirror) for found in walks)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
