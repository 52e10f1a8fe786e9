"""Saving a draft at its edges (issue 18 §2): a draft deleted meanwhile comes back with its
title, its link to the server post and a revision past both, a conflict copy keeps the link
and says what it is, and a plain save keeps the title unless given one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.store.local_store import LocalStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[LocalStore]:
    opened = LocalStore.open(tmp_path / "ws.local.sqlite3")
    yield opened
    opened.close()


def _doc(text: str) -> str:
    return json.dumps({"content": text})


@pytest.mark.asyncio
async def test_a_draft_deleted_meanwhile_comes_back_with_its_title_and_link(
    store: LocalStore,
) -> None:
    draft = await store.create_draft(
        _doc("one"), title="Launch", server_post_id="p1", server_version="v1"
    )
    for _ in range(3):
        draft = (await store.save_draft(draft.id, _doc("more"), base_revision=draft.revision)).saved
    assert draft.revision == 4
    await store.delete_draft(draft.id)
    back = (
        await store.save_draft(draft.id, _doc("typed on"), base_revision=2, text="typed on")
    ).saved
    assert (back.id, back.title, back.revision) == (draft.id, "Launch", 5)
    assert (back.server_post_id, back.server_version) == ("p1", "v1")
    assert back.preview == "typed on"
    # An editor ahead of the stored revision keeps counting from its own.
    await store.delete_draft(draft.id)
    ahead = (await store.save_draft(draft.id, _doc("x"), base_revision=9, title="New")).saved
    assert (ahead.title, ahead.revision) == ("New", 10)


@pytest.mark.asyncio
async def test_a_draft_never_stored_is_created_by_its_first_save(store: LocalStore) -> None:
    saved = (await store.save_draft("d-new", _doc("hi"), base_revision=0)).saved
    assert (saved.id, saved.title, saved.revision) == ("d-new", "", 1)
    assert (saved.server_post_id, saved.server_version) == (None, None)


@pytest.mark.asyncio
async def test_a_conflict_copy_keeps_the_post_link_and_says_it_is_a_copy(
    store: LocalStore,
) -> None:
    draft = await store.create_draft(
        _doc("one"), title="Launch", server_post_id="p1", server_version="v1"
    )
    await store.save_draft(draft.id, _doc("elsewhere"), base_revision=draft.revision)
    result = await store.save_draft(draft.id, _doc("here"), base_revision=draft.revision)
    assert result.conflict is not None
    copy = result.saved
    assert copy.id != draft.id
    assert (copy.title, copy.server_post_id, copy.server_version) == (
        "Launch (conflict copy)",
        "p1",
        "v1",
    )
    renamed = await store.save_draft(
        draft.id, _doc("again"), base_revision=draft.revision, title="Mine"
    )
    assert renamed.saved.title == "Mine (conflict copy)"


@pytest.mark.asyncio
async def test_a_plain_save_keeps_the_title_unless_given_one(store: LocalStore) -> None:
    draft = await store.create_draft(_doc("one"), title="Launch")
    kept = (await store.save_draft(draft.id, _doc("two"), base_revision=1)).saved
    assert (kept.title, kept.revision) == ("Launch", 2)
    named = (await store.save_draft(draft.id, _doc("three"), base_revision=2, title="Q1")).saved
    assert (named.title, named.revision) == ("Q1", 3)
    assert store.get_draft(draft.id) == named
