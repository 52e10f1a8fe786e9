"""The per-network table is cross-checked against the deployment's `/content-types`: a server
that lists other content types is told to the user once; ours (the sandbox) agrees."""

from __future__ import annotations

from pathlib import Path

from app.sandbox.harness import SandboxServer
from app.store import WorkspaceCache
from app.workspaces.profiles import Profile
from tests.tools.odd_server import OddServer
from tests.ui.app.conftest import LoopRunner, until
from ui.composer.workspace_data import WorkspaceData
from ui.messages import Message, MessageBridge
from ui.session import WorkspaceSession
from ui.tasks import TaskGroup


def checked(
    runner: LoopRunner, base_url: str, key: str, folder: Path
) -> tuple[WorkspaceData, list[Message]]:
    bridge = MessageBridge()
    posted: list[Message] = []
    bridge.posted.connect(posted.append)
    profile = Profile(id="ct", name="ct", base_url=base_url)
    session = WorkspaceSession(profile, key, WorkspaceCache(folder / "c.sqlite3"), bridge.scope())
    tasks = TaskGroup(lambda error: posted.append(Message(str(error))))
    data = WorkspaceData(tasks)

    async def scenario() -> None:
        data.set_session(session)
        await until(lambda: len(tasks) == 0, what="the cross-check")
        await session.close()

    runner.run(scenario())
    return data, posted


def test_the_sandbox_publishes_the_same_table(
    runner: LoopRunner, sandbox: SandboxServer, tmp_path: Path
) -> None:
    data, posted = checked(runner, sandbox.base_url, sandbox.keys.admin, tmp_path)
    assert data.content_type_notes == []
    assert not [m for m in posted if m.topic == "content-types"]


def test_a_server_with_other_content_types_is_told_once(runner: LoopRunner, tmp_path: Path) -> None:
    with OddServer(quiet=True) as odd:
        data, posted = checked(runner, odd.base_url, "odd-key", tmp_path)
    assert data.content_type_notes, "the odd server lists content types the table does not"
    [message] = [m for m in posted if m.topic == "content-types"]
    assert "differ" in message.text
    assert data.content_type_notes[0].split(",")[0] in message.hint
