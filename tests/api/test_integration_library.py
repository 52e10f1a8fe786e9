"""Labels, signatures, accounts, workspace, repurposes and audio against the sandbox."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.api import errors as e
from app.models.requests import LabelInput, SignatureInput
from app.sandbox.harness import SandboxServer
from tests.api.helpers import sandbox_client

# -- labels --------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_labels_round_trip(sandbox: SandboxServer) -> None:
    async with sandbox_client(sandbox) as client:
        created = await client.labels.create(LabelInput(name="Launch", color="#FF8800"))
        second = await client.labels.create(LabelInput(name="Recipes", color="#00aa00"))
        renamed = await client.labels.update(created.id, LabelInput(name="Go", color="#000000"))
        listed = await client.labels.list()
        await client.labels.delete(second.id)
        after_delete = await client.labels.list()
    assert created.name == "Launch"
    assert created.created_at is not None
    assert created.created_at.tzinfo is not None
    assert abs((created.created_at - datetime.now(UTC)).total_seconds()) < 3600
    assert (renamed.id, renamed.name, renamed.color) == (created.id, "Go", "#000000")
    assert {label.id for label in listed} == {created.id, second.id}
    assert [label.id for label in after_delete] == [created.id]


@pytest.mark.asyncio
async def test_the_server_reports_label_field_errors(sandbox: SandboxServer) -> None:
    # Built without client-side validation, to see the server's own answer.
    bad = LabelInput.model_construct(name="", color="orange")
    async with sandbox_client(sandbox) as client:
        with pytest.raises(e.ValidationFailed) as caught:
            await client.labels.create(bad)
    assert set(caught.value.errors) == {"name", "color"}
    assert caught.value.for_field("name") == ["The name field is required."]


@pytest.mark.asyncio
async def test_another_workspaces_label_is_not_found(sandbox: SandboxServer) -> None:
    foreign = sandbox.store.create_label("Theirs", "#123456", sandbox.other_workspace_id)
    async with sandbox_client(sandbox) as client:
        with pytest.raises(e.NotFound):
            await client.labels.update(foreign, LabelInput(name="Mine", color="#000000"))
        with pytest.raises(e.NotFound):
            await client.labels.delete(foreign)


# -- signatures ----------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_signatures_page_by_the_servers_size_and_round_trip(sandbox: SandboxServer) -> None:
    for n in range(30):
        sandbox.store.create_signature(f"Sig {n}", f"— team {n}")
    async with sandbox_client(sandbox) as client:
        first = await client.signatures.page(1)
        everything = await client.signatures.all()
        made = await client.signatures.create(SignatureInput(name="Short", content="Thanks!"))
        changed = await client.signatures.update(
            made.id, SignatureInput(name="Short", content="Cheers!")
        )
        await client.signatures.delete(made.id)
        walked = [s.id async for s in client.signatures.iter_items()]
    assert first.meta.per_page == 25
    assert len(first.data) == 25
    assert len(everything) == 30
    assert changed.content == "Cheers!"
    assert walked == [s.id for s in everything]
    assert made.id not in walked


@pytest.mark.asyncio
async def test_another_workspaces_signature_is_not_found(sandbox: SandboxServer) -> None:
    foreign = sandbox.store.create_signature("Theirs", "x", sandbox.other_workspace_id)
    async with sandbox_client(sandbox) as client:
        with pytest.raises(e.NotFound):
            await client.signatures.update(foreign, SignatureInput(name="a", content="b"))


# -- accounts, workspace ---------------------------------------------------------------------


@pytest.mark.asyncio
async def test_accounts_toggle_and_lookups(sandbox: SandboxServer) -> None:
    pinterest = sandbox.store.account_id("pinterest")
    discord = sandbox.store.account_id("discord")
    async with sandbox_client(sandbox) as client:
        accounts = await client.accounts.list()
        before = next(a for a in accounts if a.id == pinterest)
        toggled = await client.accounts.toggle(pinterest)
        boards = await client.accounts.boards(pinterest)
        channels = await client.accounts.channels(discord)
        with pytest.raises(e.ValidationFailed) as caught:
            await client.accounts.boards(discord)
    assert [a.platform for a in accounts] == sorted(a.platform for a in accounts)
    assert toggled is not None
    assert toggled.is_active is (not before.is_active)
    assert boards
    assert all(board.id and board.name for board in boards)
    assert channels
    assert "Pinterest" in caught.value.message


@pytest.mark.asyncio
async def test_another_workspaces_account_is_not_found(sandbox: SandboxServer) -> None:
    foreign = sandbox.store.account_id("x", sandbox.other_workspace_id)
    async with sandbox_client(sandbox) as client:
        with pytest.raises(e.NotFound):
            await client.accounts.toggle(foreign)


@pytest.mark.asyncio
async def test_workspace_and_content_types(sandbox: SandboxServer) -> None:
    async with sandbox_client(sandbox) as client:
        workspace = await client.workspace.workspace()
        types = await client.workspace.content_types()
    assert workspace is not None
    assert workspace["id"] == sandbox.workspace_id
    ids = {item.id for item in types}
    assert {"x_post", "pinterest_pin", "instagram_reel", "linkedin_post"} <= ids
    assert all(item.name for item in types)


# -- repurposes ------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_repurposes_and_every_activity_item(shared_demo: SandboxServer) -> None:
    async with sandbox_client(shared_demo) as client:
        repurposes = await client.repurposes.page(1)
        assert repurposes.data
        walked = [r.id async for r in client.repurposes.iter_repurposes()]
        totals = []
        for repurpose in repurposes.data:
            first = await client.repurposes.items_page(repurpose.id, 1)
            items = [item async for item in client.repurposes.iter_items(repurpose.id)]
            totals.append((first.meta.total, len(items), len({i.id for i in items})))
            assert all(item.repurpose_id == repurpose.id for item in items)
    assert walked == [r.id for r in repurposes.data]
    assert all(total == count == unique for total, count, unique in totals)
    assert sum(total or 0 for total, _, _ in totals) > 0


@pytest.mark.asyncio
async def test_another_workspaces_repurpose_is_forbidden(sandbox: SandboxServer) -> None:
    foreign = sandbox.store.create_repurpose(workspace_id=sandbox.other_workspace_id)
    async with sandbox_client(sandbox) as client:
        with pytest.raises(e.PermissionDenied) as caught:
            await client.repurposes.items_page(foreign)
    assert caught.value.status == 403


# -- audio -----------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_audio_search_trending_and_by_query(sandbox: SandboxServer) -> None:
    account = sandbox.store.account_id("instagram-facebook")
    async with sandbox_client(sandbox) as client:
        trending = await client.audio.search(account)
        music = await client.audio.search(account, type="music")
        title_word = music[0].title.split()[0]
        found = await client.audio.search(account, f"  {title_word} ", "music")
        again = await client.audio.search(account, title_word, "music")
    assert trending
    assert {a.type for a in music} == {"music"}
    assert all(a.id.isdigit() for a in trending)
    assert found
    assert found == again
    assert sandbox.store.audio_lookup_count() == 3


@pytest.mark.asyncio
async def test_audio_search_refuses_accounts_that_cannot_search(sandbox: SandboxServer) -> None:
    instagram = sandbox.store.account_id("instagram")
    foreign = sandbox.store.account_id("instagram-facebook", sandbox.other_workspace_id)
    async with sandbox_client(sandbox) as client:
        with pytest.raises(e.ValidationFailed) as wrong_kind:
            await client.audio.search(instagram, "rain")
        with pytest.raises(e.NotFound):
            await client.audio.search(foreign, "rain")
    assert "instagram-facebook" in wrong_kind.value.message


@pytest.mark.asyncio
async def test_audio_upstream_failure(sandbox: SandboxServer) -> None:
    account = sandbox.store.account_id("instagram-facebook")
    sandbox.store.audio_upstream_failing = True
    async with sandbox_client(sandbox) as client:
        with pytest.raises(e.UpstreamFailed) as caught:
            await client.audio.search(account, "rain")
    assert caught.value.status == 502
    assert sandbox.store.audio_lookup_count() == 1  # not retried: each try is a paid lookup


@pytest.mark.asyncio
async def test_the_workspace_audio_budget_is_shared_across_clients(sandbox: SandboxServer) -> None:
    account = sandbox.store.account_id("instagram-facebook")
    async with sandbox_client(sandbox) as first, sandbox_client(sandbox) as second:
        for n in range(30):
            await first.audio.search(account, f"word{n}")
        with pytest.raises(e.AudioBudgetExhausted):
            await first.audio.search(account, "one more")
        with pytest.raises(e.RateLimited) as refused:
            await second.audio.search(account, "one more")
        with pytest.raises(e.AudioBudgetExhausted):
            await second.audio.search(account, "and another")
    assert not isinstance(refused.value, e.AudioBudgetExhausted)
    assert refused.value.retry_after is not None
    assert refused.value.retry_after > 0
    assert sandbox.store.audio_lookup_count() == 30
