"""An import run at its edges (issue 18 §2): a row whose media cannot be fetched does not stop
the rows after it, finished rows of an export are reported as skipped, the progress line names
each row as it is queued, and each outbox entry carries its row's summary."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from app.csv_io import download as download_module
from app.csv_io.download import DownloadFailed, download
from app.csv_io.importer import import_csv
from app.sandbox.harness import SandboxServer
from app.store.local_store import LocalStore
from app.sync.outbox import Outbox, OutboxState
from app.sync.outbox_service import OutboxService
from tests.api.helpers import sandbox_client
from tests.csv_io.media_server import serve_files

BERLIN = ZoneInfo("Europe/Berlin")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[LocalStore]:
    opened = LocalStore.open(tmp_path / "ws.local.sqlite3")
    yield opened
    opened.close()


@pytest.fixture
def files() -> Iterator[str]:
    yield from serve_files()


@contextlib.asynccontextmanager
async def sending(server: SandboxServer, store: LocalStore) -> AsyncIterator[OutboxService]:
    async with (
        sandbox_client(server) as client,
        OutboxService(store, client, settle_seconds=0).running_loop() as service,
    ):
        yield service


@pytest.mark.asyncio
async def test_a_failed_download_leaves_the_other_rows_going_and_skips_are_reported(
    sandbox: SandboxServer, store: LocalStore, tmp_path: Path, files: str
) -> None:
    missing = files + "/missing/a.png"
    text = (
        "content,accounts,status,media\n"
        f"With a picture,x:northwindcoffee,,{missing}\n"
        "Plain words,x:northwindcoffee,,\n"
        "Old news,x:northwindcoffee,published,\n"
        "More   plain words,x:northwindcoffee,,\n"
    )
    progress: list[tuple[int, int, str]] = []
    async with sending(sandbox, store) as service:
        report = await import_csv(
            text,
            service,
            base_dir=tmp_path,
            local_tz=BERLIN,
            on_progress=lambda done, total, what: progress.append((done, total, what)),
        )
        summaries = sorted(entry.summary for entry in Outbox(store).entries())
    assert [(o.row, o.state) for o in report.outcomes] == [
        (2, None),
        (3, OutboxState.SENT),
        (5, OutboxState.SENT),
    ]
    assert report.outcomes[0].reason is not None
    assert report.outcomes[0].reason.startswith(f"media {missing} could not be downloaded")
    assert [str(skip) for skip in report.skipped] == ["row 4, column status: published: skipped"]
    assert report.summary_lines()[-1].startswith("1 row skipped (1 published)")
    assert progress[:3] == [
        (0, 3, "queueing row 2 (1/3)"),
        (0, 3, "queueing row 3 (2/3)"),
        (0, 3, "queueing row 5 (3/3)"),
    ]
    assert progress[-1] == (3, 3, "done")
    assert summaries == ["row 3: Plain words", "row 5: More plain words"]
    assert sandbox.store.post_count() == 2


@pytest.mark.asyncio
async def test_problems_found_first_still_report_the_skipped_rows(
    sandbox: SandboxServer, store: LocalStore, tmp_path: Path
) -> None:
    text = "content,accounts,status\nOld,x:northwindcoffee,failed\nWho?,x:nobody,\n"
    async with sending(sandbox, store) as service:
        report = await import_csv(text, service, base_dir=tmp_path, local_tz=BERLIN)
    assert [str(e) for e in report.errors] == [
        "row 3, column accounts: no account “x:nobody” in this workspace"
    ]
    assert [str(skip) for skip in report.skipped] == ["row 2, column status: failed: skipped"]


# -- the size cap of a download ----------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_download_up_to_the_cap_is_kept_and_one_byte_more_is_refused(
    files: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = files + "/media/a.png"
    size = len(b"file at /media/a.png")
    monkeypatch.setattr(download_module, "MAX_BYTES", size)
    assert (await download(url, tmp_path)).stat().st_size == size
    monkeypatch.setattr(download_module, "MAX_BYTES", size - 1)
    with pytest.raises(DownloadFailed, match=r"^media .* is larger than 2 GB; not downloaded$"):
        await download(url, tmp_path)
