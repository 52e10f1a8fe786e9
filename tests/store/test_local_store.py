"""Local drafts: saves are durable and compare-and-set; the file is never replaced or renamed."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.store.local_store import (
    LocalStore,
    LocalStoreDamaged,
    NewerLocalSchema,
    local_store_path,
)
from app.workspaces.profiles import Paths

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[LocalStore]:
    opened = LocalStore.open(tmp_path / "ws.local.sqlite3")
    yield opened
    opened.close()


def doc(text: str) -> str:
    return json.dumps({"content": text, "destinations": [{"account": "x-1"}]})


def test_the_file_lives_beside_the_cache_under_its_own_name() -> None:
    paths = Paths()
    path = local_store_path(paths, "abc")
    assert path.parent == paths.profile_db("abc").parent
    assert path != paths.profile_db("abc")
    assert path.name == "abc.local.sqlite3"


@pytest.mark.asyncio
async def test_a_save_is_on_disk_when_it_returns(store: LocalStore) -> None:
    draft = await store.create_draft(doc("first words"), title="Morning")
    result = await store.save_draft(draft.id, doc("second words"), base_revision=draft.revision)
    assert result.conflict is None
    assert result.saved.revision == draft.revision + 1
    # Another connection (another process would see the same) reads the committed text.
    with sqlite3.connect(store.path) as other:
        row = other.execute("SELECT document FROM drafts WHERE id = ?", (draft.id,)).fetchone()
    assert json.loads(row[0])["content"] == "second words"
    mode = sqlite3.connect(store.path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


@pytest.mark.asyncio
async def test_a_save_from_a_stale_editor_becomes_a_conflict_copy(store: LocalStore) -> None:
    draft = await store.create_draft(doc("base"), title="Launch")
    window_a = await store.save_draft(draft.id, doc("from window A"), base_revision=1)
    window_b = await store.save_draft(draft.id, doc("from window B"), base_revision=1)

    assert window_a.conflict is None
    assert window_b.conflict is not None
    assert window_b.conflict.id == draft.id
    assert json.loads(window_b.conflict.document)["content"] == "from window A"
    copy = window_b.saved
    assert copy.id != draft.id
    assert copy.conflict_of == draft.id
    assert json.loads(copy.document)["content"] == "from window B"
    assert "conflict" in copy.title
    texts = sorted(json.loads(d.document)["content"] for d in store.list_drafts())
    assert texts == ["from window A", "from window B"]


@pytest.mark.asyncio
async def test_a_changed_server_post_is_kept_beside_the_draft(store: LocalStore) -> None:
    draft = await store.create_draft(
        doc("my edit"), server_post_id="p-1", server_version="2026-01-01 10:00:00"
    )
    same = await store.check_server_version(draft.id, "2026-01-01 10:00:00", doc("server text"))
    assert same is None
    copy = await store.check_server_version(draft.id, "2026-01-02 09:00:00", doc("their edit"))
    assert copy is not None
    assert copy.conflict_of == draft.id
    assert copy.server_version == "2026-01-02 09:00:00"
    again = await store.check_server_version(draft.id, "2026-01-02 09:00:00", doc("their edit"))
    assert again is None
    mine = store.get_draft(draft.id)
    assert mine is not None
    assert json.loads(mine.document)["content"] == "my edit"
    assert {d.id for d in store.drafts_of_post("p-1")} == {draft.id, copy.id}


@pytest.mark.asyncio
async def test_list_search_rename_duplicate_delete_and_restore(store: LocalStore) -> None:
    coffee = await store.create_draft(doc("Fresh beans at the coffee shop"), title="Beans")
    tea = await store.create_draft(doc("Green tea tasting"), title="Tea night")
    assert [d.id for d in store.list_drafts()] == [tea.id, coffee.id]
    assert [d.id for d in store.list_drafts("COFFEE shop")] == [coffee.id]
    assert [d.id for d in store.list_drafts("night")] == [tea.id]
    assert store.list_drafts("100%") == []
    assert coffee.preview.startswith("Fresh beans")

    renamed = await store.rename_draft(coffee.id, "  Roastery  ")
    assert renamed.title == "Roastery"
    assert renamed.updated_at >= coffee.updated_at
    copy = await store.duplicate_draft(coffee.id)
    assert copy.id != coffee.id
    assert copy.title == "Roastery (copy)"
    assert copy.document == coffee.document

    await store.delete_draft(tea.id)
    assert store.get_draft(tea.id) is None
    assert tea.id not in {d.id for d in store.list_drafts()}
    restored = await store.restore_draft(tea.id)
    assert restored is not None
    assert restored.id == tea.id
    with pytest.raises(KeyError):
        await store.rename_draft("missing", "x")


@pytest.mark.asyncio
async def test_saving_a_draft_deleted_in_another_window_brings_it_back(store: LocalStore) -> None:
    draft = await store.create_draft(doc("keep typing"), title="Alive")
    await store.delete_draft(draft.id)
    result = await store.save_draft(draft.id, doc("still typing"), base_revision=1)
    assert result.saved.id == draft.id
    back = store.get_draft(draft.id)
    assert back is not None
    assert json.loads(back.document)["content"] == "still typing"


def test_a_newer_file_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "future.local.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE drafts (id TEXT)")
        connection.execute("INSERT INTO drafts VALUES ('written by the future')")
        connection.execute("PRAGMA user_version = 99")
    connection.close()
    before = path.read_bytes()
    with pytest.raises(NewerLocalSchema, match="newer version of Postdesk") as caught:
        LocalStore.open(path)
    assert "not changed" in caught.value.message
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.glob("future*")) == ["future.local.sqlite3"]


def test_a_damaged_file_is_reported_and_never_moved(tmp_path: Path) -> None:
    path = tmp_path / "broken.local.sqlite3"
    path.write_bytes(b"this is not a database, but it may be all the user has" * 100)
    before = path.read_bytes()
    with pytest.raises(LocalStoreDamaged, match="damaged") as caught:
        LocalStore.open(path)
    assert str(path) in caught.value.message
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.glob("broken*")] == ["broken.local.sqlite3"]


@pytest.mark.asyncio
async def test_reopening_keeps_everything_and_runs_no_migration(tmp_path: Path) -> None:
    path = tmp_path / "again.local.sqlite3"
    first = LocalStore.open(path)
    draft = await first.create_draft(doc("persist"), title="P")
    first.close()
    second = LocalStore.open(path)
    try:
        again = second.get_draft(draft.id)
    finally:
        second.close()
    assert again == draft


_WRITER = """
import asyncio, json, sys
from pathlib import Path
from app.store.local_store import LocalStore

async def main() -> None:
    store = LocalStore.open(Path(sys.argv[1]))
    draft = await store.create_draft("{}", title="crash")
    for n in range(1, 100000):
        result = await store.save_draft(
            draft.id, json.dumps({"content": f"edit {n}"}), base_revision=n
        )
        other = await store.create_draft(json.dumps({"content": f"note {n}"}))
        print(draft.id, result.saved.revision, other.id, n, flush=True)

asyncio.run(main())
"""


def test_kill_9_while_writing_loses_no_committed_draft(tmp_path: Path) -> None:
    path = tmp_path / "crash.local.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdout is not None
    acknowledged: list[list[str]] = []
    deadline = time.monotonic() + 60
    while len(acknowledged) < 60 and time.monotonic() < deadline:
        line = child.stdout.readline()
        if not line:
            break
        acknowledged.append(line.split())
    child.send_signal(signal.SIGKILL)
    child.wait()
    child.stdout.close()
    assert len(acknowledged) >= 60, "the writer did not get going"

    store = LocalStore.open(path)
    try:
        draft_id, revision, _, last = acknowledged[-1]
        draft = store.get_draft(draft_id)
        assert draft is not None
        # Edits acknowledged before the kill are there (a later, unacknowledged one may be too).
        assert draft.revision >= int(revision)
        assert int(json.loads(draft.document)["content"].split()[1]) >= int(last)
        for _, _, note_id, n in acknowledged:
            note = store.get_draft(note_id)
            assert note is not None
            assert json.loads(note.document)["content"] == f"note {n}"
    finally:
        store.close()


@pytest.mark.asyncio
async def test_a_file_of_the_first_format_is_upgraded_in_place(tmp_path: Path) -> None:
    from app.store.local_schema import LOCAL_MIGRATIONS, LOCAL_SCHEMA_VERSION

    path = tmp_path / "v1.local.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.executescript(LOCAL_MIGRATIONS[0])
        connection.execute(
            "INSERT INTO drafts (id, title, document, search_text, revision, created_utc, "
            "updated_utc) VALUES ('d1', 'Old', '{}', '', 3, '2026-01-01T00:00:00.000000Z', "
            "'2026-01-01T00:00:00.000000Z')"
        )
        connection.execute("PRAGMA user_version = 1")
    connection.close()
    store = LocalStore.open(path)
    try:
        old = store.get_draft("d1")
        version = store.read("PRAGMA user_version")[0][0]
    finally:
        store.close()
    assert old is not None
    assert old.revision == 3
    assert version == LOCAL_SCHEMA_VERSION == 4
