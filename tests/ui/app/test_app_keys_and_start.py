"""Keys and start-up: a restart without a keyring asks for the key for this session, Cancel
during a key test saves nothing, and start-up failures end in one clear sentence."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from app.sandbox.harness import SandboxServer
from app.workspaces.profiles import Paths, ProfileStore
from tests.keyrings import MemoryKeyring
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.app.test_app_calendar import options
from tests.ui.app.test_app_session import saved_workspace
from tests.ui.app.test_app_workspaces import connect_dialog_of, fill
from ui.application import Application
from ui.shell.startup import InstanceLock, StartupError

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def no_keyring() -> Iterator[None]:
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(previous)


def test_a_restart_without_a_keyring_offers_to_enter_the_key_for_this_session(
    qapp: QApplication, runner: LoopRunner, sandbox: SandboxServer, no_keyring: None
) -> None:
    profile = saved_workspace(sandbox, None, "")

    async def scenario() -> None:
        app = Application(qapp, options())
        task = asyncio.ensure_future(app.run())
        await until(lambda: app.connect_dialog is not None and app.connect_dialog.isVisible())
        dialog = app.connect_dialog
        assert dialog is not None
        assert app.window.connection_label.text() == "Not connected — no API key"
        assert "keyring" in dialog.intro_label.text().lower()
        assert dialog.name_edit.text() == "Acme"
        assert app.window.banner.action_button.text() == "Enter key…"

        # Closed without a key; the workspace in the menu asks again.
        dialog.reject()
        [item] = [a for a in app.flows.menu_items(app.window.menuBar()) if a.text() == "Acme"]
        item.trigger()
        await until(lambda: app.connect_dialog is not dialog and app.connect_dialog is not None)
        dialog = app.connect_dialog
        assert dialog is not None
        await until(dialog.isVisible)
        dialog.key_edit.setText(sandbox.keys.admin)
        QTest.mouseClick(dialog.connect_button, Qt.MouseButton.LeftButton)
        await until(lambda: app.session is not None and app.session.first_sync_ok is True)
        assert [p.id for p in ProfileStore().load()] == [profile.id]
        app.window.close()
        assert await asyncio.wait_for(task, 10) == 0

    runner.run(scenario())
    for path in ProfileStore().path.parent.parent.rglob("*"):
        if path.is_file():
            assert sandbox.keys.admin.encode() not in path.read_bytes(), path


def test_cancel_while_the_key_is_tested_saves_nothing(
    qapp: QApplication, runner: LoopRunner, memory_keyring: MemoryKeyring
) -> None:
    silent = socket.socket()  # accepts connections, never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen()
    url = f"http://127.0.0.1:{silent.getsockname()[1]}/api"

    async def scenario() -> None:
        app = Application(qapp, options())
        task = asyncio.ensure_future(app.run())
        dialog = await connect_dialog_of(app)
        fill(dialog, name="Acme", url=url, key="a-key-that-is-never-answered")
        await until(lambda: dialog.testing)
        assert dialog.connect_button.text() == "Testing the key…"
        connected: list[object] = []
        dialog.connected.connect(connected.append)
        cancel = dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        QTest.mouseClick(cancel, Qt.MouseButton.LeftButton)
        assert not dialog.isVisible()
        # The key test's task has ended (cancelled): nothing can save the workspace after this.
        await until(lambda: not dialog.testing, what="the key test to end")
        assert connected == []
        assert len(app.tasks) == 0, "Cancel started no work"
        assert ProfileStore().load() == []
        assert memory_keyring.passwords == {}
        assert app.session is None
        app.window.close()
        assert await asyncio.wait_for(task, 10) == 0

    try:
        runner.run(scenario())
    finally:
        silent.close()


def test_a_second_app_on_the_same_data_folder_is_refused_in_words(
    qapp: QApplication, runner: LoopRunner
) -> None:
    Paths().data_dir.mkdir(parents=True, exist_ok=True)
    lock = InstanceLock(Paths().data_dir)
    lock.acquire()
    try:
        app = Application(qapp, options(demo=True))
        with pytest.raises(StartupError, match="already running"):
            runner.run(app.run())
    finally:
        lock.release()


def postdesk(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ui.main", *args],
        cwd=ROOT,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_start_up_failures_are_one_sentence_never_a_traceback(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    result = postdesk("--demo", env={"XDG_DATA_HOME": str(not_a_folder)})
    assert result.returncode == 2
    assert "cannot be used" in result.stderr
    assert "Traceback" not in result.stderr

    Paths().data_dir.mkdir(parents=True, exist_ok=True)
    lock = InstanceLock(Paths().data_dir)
    lock.acquire()
    try:
        result = postdesk("--demo")
    finally:
        lock.release()
    assert result.returncode == 2
    assert "already running" in result.stderr
    assert "Traceback" not in result.stderr


def _children(pid: int) -> list[int]:
    """Children of every thread (the demo child is started from a worker thread)."""
    found: list[int] = []
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += [int(x) for x in children.read_text().split()]
        except OSError:
            continue
    return found


def _socket_inodes(pid: int) -> set[int]:
    """The inodes of the sockets `pid` holds open (`socket:[inode]` in /proc/<pid>/fd)."""
    found: set[int] = set()
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return found
    for fd in fds:
        try:
            target = os.readlink(fd)
        except OSError:
            continue  # closed meanwhile
        if target.startswith("socket:[") and target.endswith("]"):
            found.add(int(target[len("socket:[") : -1]))
    return found


def _tcp_table(pid: int) -> list[tuple[int, int, str, int]]:
    """(local port, remote port, state, inode) of every TCP socket in `pid`'s network namespace;
    state "0A" is LISTEN, "01" ESTABLISHED."""
    rows: list[tuple[int, int, str, int]] = []
    for table in ("tcp", "tcp6"):
        try:
            lines = Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local, remote, state, inode = fields[1], fields[2], fields[3], int(fields[9])
            rows.append((_port(local), _port(remote), state, inode))
    return rows


def _port(address: str) -> int:
    """The port of a /proc/net/tcp address ("0100007F:1F90": hex address, hex port)."""
    return int(address.rsplit(":", 1)[1], 16)


def _connected_to(pid: int, children: list[int]) -> bool:
    """Whether `pid` holds an ESTABLISHED TCP connection to a port one of `children` listens on."""
    listening: set[int] = set()
    for child in children:
        mine = _socket_inodes(child)
        listening |= {
            port for port, _, state, inode in _tcp_table(child) if state == "0A" and inode in mine
        }
    own = _socket_inodes(pid)
    return any(
        state == "01" and inode in own and remote in listening
        for _, remote, state, inode in _tcp_table(pid)
    )


def test_ctrl_c_in_the_terminal_quits_at_once_with_the_demo_child(tmp_path: Path) -> None:
    shot_env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    process = subprocess.Popen(
        [sys.executable, "-m", "ui.main", "--demo", "--demo-posts", "20"],
        cwd=ROOT,
        env=shot_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    try:
        deadline = time.monotonic() + 60
        while not _children(process.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        children = _children(process.pid)
        assert children, "the demo child did not start"
        # The app is up and waiting: its session is connected to the demo child.
        while not _connected_to(process.pid, children) and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()[1]
            time.sleep(0.1)
        assert _connected_to(process.pid, children), "the app never connected to its demo child"
        started = time.monotonic()
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl+C in a terminal does
        _out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert time.monotonic() - started < 10
    assert process.returncode == 0, err
    assert "Traceback" not in err
    assert "KeyboardInterrupt" not in err
    for child in children:
        assert not Path(f"/proc/{child}").exists() or _zombie(child)


def _zombie(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat")
    return not stat.exists() or stat.read_text().split()[2] == "Z"
