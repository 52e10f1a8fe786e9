"""CSV import against the sandbox: all rows checked first, sent exactly once, safe to re-run."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from app.api.client import ApiClient
from app.csv_io import cli
from app.csv_io.export import export_posts
from app.csv_io.format import read_records
from app.csv_io.importer import check_csv, import_csv, read_workspace_facts
from app.csv_io.plan import plan_rows
from app.models.requests import LabelInput
from app.sandbox.harness import SandboxServer
from app.sandbox.media_files import gradient_png
from app.store.local_store import LocalStore, local_store_path
from app.sync.outbox import Outbox, OutboxState
from app.sync.outbox_service import OutboxService
from app.workspaces.profiles import Paths, Profile, ProfileStore
from tests.api.helpers import sandbox_client

BERLIN = ZoneInfo("Europe/Berlin")


@pytest.fixture
def faulty(tmp_path: Path) -> Iterator[SandboxServer]:
    with SandboxServer(tmp_path / "faulty.db", fail_after_commit=0.5, fault_seed=3) as server:
        yield server


@pytest.fixture
def store(tmp_path: Path) -> Iterator[LocalStore]:
    opened = LocalStore.open(tmp_path / "ws.local.sqlite3")
    yield opened
    opened.close()


@contextlib.asynccontextmanager
async def sending(server: SandboxServer, store: LocalStore) -> AsyncIterator[OutboxService]:
    """The workspace's outbox, sent by its one loop while the block runs."""
    async with sandbox_client(server) as client, running(store, client) as service:
        yield service


@contextlib.asynccontextmanager
async def running(store: LocalStore, client: ApiClient) -> AsyncIterator[OutboxService]:
    async with OutboxService(store, client, settle_seconds=0).running_loop() as service:
        yield service


def future(days: int) -> str:
    when = datetime.now(BERLIN).replace(second=0, microsecond=0) + timedelta(days=days)
    return when.strftime("%Y-%m-%d %H:%M")


def month_plan(rows: int) -> str:
    lines = ["content,accounts,scheduled_at,status,content_type,labels,media"]
    for n in range(rows):
        accounts = "x:northwindcoffee" if n % 3 else "x:@NorthwindCoffee;linkedin:ava-lindqvist"
        status = "scheduled" if n % 2 else ""
        when = future(n + 1) if status else ""
        lines.append(f'"Day {n}: fresh roast, ""quoted""",{accounts},{when},{status},,,')
    return "\n".join(lines) + "\n"


@pytest.mark.asyncio
async def test_a_month_imports_exactly_once_under_dropped_answers(
    faulty: SandboxServer, store: LocalStore, tmp_path: Path
) -> None:
    text = month_plan(24)
    progress: list[tuple[int, int]] = []
    async with sending(faulty, store) as service:
        report = await import_csv(
            text,
            service,
            base_dir=tmp_path,
            local_tz=BERLIN,
            on_progress=lambda done, total, _: progress.append((done, total)),
        )
    assert report.errors == []
    assert report.all_sent, report.summary_lines()
    assert faulty.faults is not None
    assert faulty.faults.dropped >= 3
    expected = sum(2 if n % 3 == 0 else 1 for n in range(24))
    assert faulty.store.post_count() == expected
    credited = [post_id for outcome in report.outcomes for post_id in outcome.post_ids]
    assert len(set(credited)) == expected
    assert progress[-1] == (24, 24)
    assert report.summary_lines()[-1] == "24 rows: 24 sent."

    # Importing the same file again sends nothing new.
    async with sending(faulty, store) as service:
        again = await import_csv(text, service, base_dir=tmp_path, local_tz=BERLIN)
    assert again.all_sent
    assert all(outcome.already_imported for outcome in again.outcomes)
    assert faulty.store.post_count() == expected


@pytest.mark.asyncio
async def test_one_bad_row_stops_every_row(
    sandbox: SandboxServer, store: LocalStore, tmp_path: Path
) -> None:
    text = (
        "content,accounts,scheduled_at,status,labels,media\n"
        f"Fine,x:northwindcoffee,{future(2)},scheduled,,\n"
        "Who?,x:nobody,,,,\n"
        f"Late,x:northwindcoffee,2020-01-01 10:00,scheduled,,\n"
        "Odd,x:northwindcoffee,,posted,,\n"
        "Tagged,x:northwindcoffee,,,No such label,\n"
        "Picture,x:northwindcoffee,,,,missing.png\n"
        "When?,x:northwindcoffee,next tuesday,,,\n"
    )
    async with sending(sandbox, store) as service:
        report = await import_csv(text, service, base_dir=tmp_path, local_tz=BERLIN)
    messages = [str(error) for error in report.errors]
    assert messages[:2] == [
        "row 3, column accounts: no account “x:nobody” in this workspace",
        "row 4, column scheduled_at: 2020-01-01 10:00 is in the past",
    ]
    assert (
        "row 5, column status: “posted” is not a status; use draft or scheduled (empty = draft)"
        in messages
    )
    assert "row 6, column labels: no label named “No such label”" in messages
    assert "row 7, column media: missing.png: no such file" in messages
    assert any(m.startswith("row 8, column scheduled_at: “next tuesday”") for m in messages)
    assert report.summary_lines()[-1].startswith("Nothing was sent")
    assert Outbox(store).entries() == []
    assert sandbox.store.post_count() == 0


@pytest.mark.asyncio
async def test_labels_and_media_travel_with_the_row(
    sandbox: SandboxServer, store: LocalStore, tmp_path: Path
) -> None:
    (tmp_path / "pics").mkdir()
    (tmp_path / "pics" / "beans.png").write_bytes(
        gradient_png(64, 64, (90, 60, 30), (200, 160, 120))
    )
    async with sandbox_client(sandbox) as client:
        label = await client.labels.create(LabelInput(name="Roast day", color="#aa5500"))
        text = (
            "content,accounts,labels,media\n"
            f"With a picture,linkedin:ava-lindqvist,{label.name.upper()},pics/beans.png\n"
        )
        async with running(store, client) as service:
            report = await import_csv(text, service, base_dir=tmp_path, local_tz=BERLIN)
        assert report.all_sent, report.summary_lines()
        post = await client.posts.get(report.outcomes[0].post_ids[0])
    assert [item.id for item in post.labels] == [label.id]
    assert len(post.media) == 1


@pytest.mark.asyncio
async def test_export_reimports_to_the_same_batches(sandbox: SandboxServer, tmp_path: Path) -> None:
    source = month_plan(6)
    async with sandbox_client(sandbox) as client:
        planned, errors = await check_csv(source, client, base_dir=tmp_path, local_tz=BERLIN)
        assert errors == []
        for row in planned:
            await client.posts.create_batch(row.request)
        posts = await client.posts.fetch_all()
        facts = await read_workspace_facts(client)
    exported = export_posts(posts, BERLIN)
    records, header_errors = read_records(exported)
    assert header_errors == []
    replanned, problems = plan_rows(
        records, facts, base_dir=tmp_path, local_tz=BERLIN, now=datetime.now(UTC)
    )
    assert problems == []
    # One exported row per post; each carries the post's account, text and time.
    expected = {
        (d.social_account_id, d.content or r.request.content, r.request.scheduled_at)
        for r in planned
        for d in r.request.destinations
    }
    got = {
        (d.social_account_id, r.request.content, r.request.scheduled_at)
        for r in replanned
        for d in r.request.destinations
    }
    assert got == expected


def test_the_command_imports_with_a_key_from_the_environment(
    faulty: SandboxServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    plan = tmp_path / "plan.csv"
    plan.write_text(month_plan(6), encoding="utf-8")
    monkeypatch.setenv("POSTDESK_API_KEY", faulty.keys.admin)
    status = cli.main(
        ["import", str(plan), "--base-url", faulty.base_url, "--timezone", "Europe/Berlin"]
    )
    out, err = capsys.readouterr()
    assert status == 0, out + err
    assert out.strip().endswith("6 rows: 6 sent.")
    assert "6/6" in err
    assert faulty.keys.admin not in out + err
    assert faulty.store.post_count() == 8


def test_the_command_refuses_bad_arguments_and_bad_rows(
    sandbox: SandboxServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    plan = tmp_path / "plan.csv"
    plan.write_text("content,accounts\nHello,x:nobody\n", encoding="utf-8")
    assert cli.main([str(plan), "--base-url", sandbox.base_url]) == 2
    assert "POSTDESK_API_KEY" in capsys.readouterr().err
    assert cli.main(["--no-such-flag"]) == 2
    assert cli.main([str(plan)]) == 2  # no saved workspace
    monkeypatch.setenv("POSTDESK_API_KEY", sandbox.keys.admin)
    assert cli.main([str(plan), "--base-url", sandbox.base_url]) == 1
    assert "row 2, column accounts" in capsys.readouterr().out
    plan.write_text("content,acounts\nHello,x:northwindcoffee\n", encoding="utf-8")
    assert cli.main([str(plan), "--base-url", sandbox.base_url]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("row 1, column acounts: unknown column")
    assert out[1:] == [
        "row 1, column accounts: missing column",
        "Nothing was sent: 2 problems to fix first.",
    ]
    assert sandbox.store.post_count() == 0


@pytest.mark.asyncio
async def test_an_unreachable_server_leaves_the_rows_queued(
    store: LocalStore, tmp_path: Path
) -> None:
    from app.api.client import ApiClient
    from app.api.retry import RetryPolicy
    from tests.api.helpers import FakeClock

    async with ApiClient(
        "http://127.0.0.1:9/api", "k", clock=FakeClock(), retry=RetryPolicy(max_attempts=1)
    ) as client:
        with pytest.raises(Exception, match="connect"):
            async with running(store, client) as service:
                await asyncio.wait_for(
                    import_csv(
                        "content,accounts\nx,x:a\n", service, base_dir=tmp_path, local_tz=BERLIN
                    ),
                    10,
                )
    assert Outbox(store).entries([OutboxState.QUEUED]) == []


def test_the_command_uses_the_current_workspace_and_its_outbox(
    sandbox: SandboxServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    paths = Paths()
    profile = Profile.create("Northwind", sandbox.base_url)
    profiles = ProfileStore(paths)
    profiles.add(profile)
    profiles.active_id = profile.id
    monkeypatch.setenv("POSTDESK_API_KEY", sandbox.keys.admin)
    plan = tmp_path / "plan.csv"
    plan.write_text(month_plan(3), encoding="utf-8")

    assert cli.main(["import", str(plan)]) == 0, capsys.readouterr()
    assert sandbox.store.post_count() == 4
    store = LocalStore.open(local_store_path(paths, profile.id))
    try:
        states = [entry.state for entry in Outbox(store).entries()]
    finally:
        store.close()
    assert states == [OutboxState.SENT] * 3


def test_the_command_keeps_the_record_an_earlier_version_made_with_base_url(
    sandbox: SandboxServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Earlier versions kept `--base-url` imports in a file of their own; it becomes the
    workspace's outbox file, so what was imported then is not sent again."""
    monkeypatch.setenv("POSTDESK_API_KEY", sandbox.keys.admin)
    plan = tmp_path / "plan.csv"
    plan.write_text(month_plan(3), encoding="utf-8")
    command = ["import", str(plan), "--base-url", sandbox.base_url]
    assert cli.main(command) == 0, capsys.readouterr()
    assert sandbox.store.post_count() == 4
    workspace = Profile.for_base_url(sandbox.base_url)
    record = local_store_path(Paths(), workspace.id)
    digest = hashlib.sha256(workspace.base_url.encode()).hexdigest()[:16]
    earlier = Paths().data_dir / "imports" / f"{digest}.local.sqlite3"
    earlier.parent.mkdir(parents=True)
    record.rename(earlier)  # as an earlier version left it

    assert cli.main(command) == 0
    assert capsys.readouterr().out.strip().endswith("3 rows: 3 sent (3 imported before).")
    assert sandbox.store.post_count() == 4
    assert record.exists()
    assert not earlier.exists()
