"""`postdesk import` at its edges (issue 18 §2): time zone names, the progress line on a terminal
and in a log, the help, and moving an earlier version's import record with its journal."""

from __future__ import annotations

import hashlib
import io
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from app.csv_io import cli
from app.csv_io.format import read_records
from app.csv_io.plan import WorkspaceFacts, plan_rows
from app.models.accounts import SocialAccountSummary
from app.workspaces.profiles import Paths

NOWHERE = "http://127.0.0.1:9/api"  # never reached: these runs stop before any request


def _import(tmp_path: Path, *extra: str) -> list[str]:
    return ["import", str(tmp_path / "missing.csv"), "--base-url", NOWHERE, *extra]


@pytest.mark.parametrize("option", ["--timezone", "--server-timezone"])
def test_utc_is_taken_in_any_case_and_an_unknown_zone_is_a_usage_error(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    option: str,
) -> None:
    monkeypatch.setenv("POSTDESK_API_KEY", "k")
    for name in ("utc", "UTC", "Asia/Tokyo"):
        # The zone is accepted: the run gets as far as reading the (missing) file.
        assert cli.main(_import(tmp_path, option, name)) == 1
        assert "Could not read" in capsys.readouterr().err
    assert cli.main(_import(tmp_path, option, "Nowhere/Nothing")) == cli.USAGE_ERROR
    assert capsys.readouterr().err == (
        "postdesk import: unknown time zone 'Nowhere/Nothing'; use a name like Europe/Berlin\n"
    )


def test_import_help_says_what_each_argument_does(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["import", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert text.startswith("usage: postdesk import ")
    for said in (
        "Import posts from a CSV file: one row = one batch, sent exactly once.",
        "file the CSV file",
        "--base-url BASE_URL the API address; the key is read from POSTDESK_API_KEY (default: "
        "the current workspace)",
        "--server-timezone SERVER_TIMEZONE the server's time zone with --base-url",
        "--timezone TIMEZONE zone of YYYY-MM-DD HH:MM times in the file (default: this computer's)",
        "--as-drafts import rows whose status is published, failed, … (an export's) as drafts "
        "instead of skipping them",
        "--wait WAIT seconds to keep trying when the server is unreachable (default 120)",
    ):
        assert said in text


# -- the progress line -------------------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_in_a_log_is_one_plain_line_per_change() -> None:
    out = io.StringIO()
    bar = cli._ProgressBar(out)
    bar.update(0, 4, "queueing")
    bar.update(0, 4, "queueing")  # the same: not written again
    bar.update(1, 4, "sending")
    bar.update(0, 0, "nothing to do")
    bar.finish()
    assert out.getvalue().splitlines() == [
        "[" + "." * 30 + "] 0/4 queueing",
        "[" + "#" * 8 + "." * 22 + "] 1/4 sending",
        "[" + "#" * 30 + "] 0/0 nothing to do",
    ]


def test_progress_on_a_terminal_redraws_one_line_and_ends_it() -> None:
    out = _Terminal()
    bar = cli._ProgressBar(out)
    bar.finish()
    assert out.getvalue() == ""  # nothing drawn, nothing to end
    bar.update(3, 4, "x" * 200)
    bar.update(4, 4, "done")
    bar.finish()
    first = "[" + "#" * 22 + "." * 8 + "] 3/4 " + "x" * 200
    assert out.getvalue() == (
        "\r\x1b[2K" + first[:120] + "\r\x1b[2K[" + "#" * 30 + "] 4/4 done" + "\n"
    )


# -- an earlier version's record ---------------------------------------------------------------


def test_an_earlier_record_moves_with_its_journal_into_a_folder_not_made_yet() -> None:
    paths = Paths()
    url = "https://api.example.test/api"
    digest = hashlib.sha256(url.encode()).hexdigest()[:16]
    earlier = paths.data_dir / "imports" / f"{digest}.local.sqlite3"
    earlier.parent.mkdir(parents=True)
    for suffix in ("", "-wal", "-shm"):
        earlier.with_name(earlier.name + suffix).write_text(f"part{suffix}")
    outbox = paths.data_dir / "deep" / "er" / "ws.local.sqlite3"
    cli._adopt_earlier_record(paths, url, outbox)
    for suffix in ("", "-wal", "-shm"):
        moved = outbox.with_name(outbox.name + suffix)
        assert moved.read_text() == f"part{suffix}"
        assert not earlier.with_name(earlier.name + suffix).exists()


# -- rows of an export imported as drafts ------------------------------------------------------


def test_only_a_past_date_of_a_finished_row_is_dropped_when_it_comes_back_as_a_draft() -> None:
    now = datetime(2031, 1, 10, 12, 0, tzinfo=UTC)
    account = SocialAccountSummary.model_validate(
        {"id": "a1", "platform": "linkedin", "username": "ava", "status": "connected"}
    )
    tokyo = ZoneInfo("Asia/Tokyo")
    text = (
        "content,accounts,scheduled_at,status\n"
        "Past,a1,2031-01-10 20:59,published\n"  # 11:59 UTC
        "Exactly now,a1,2031-01-10 21:00,published\n"
        "Future,a1,2031-01-10 21:01,failed\n"
        "Undated,a1,,published\n"
    )
    records, errors = read_records(text)
    assert errors == []
    planned, problems = plan_rows(
        records,
        WorkspaceFacts([account], []),
        base_dir=Path("."),
        local_tz=tokyo,
        now=now,
        others_as_drafts=True,
    )
    assert problems == []
    got = [(p.request.content, p.request.status, p.request.scheduled_at) for p in planned]
    assert got == [
        ("Past", "draft", None),
        ("Exactly now", "draft", None),
        ("Future", "draft", now + timedelta(minutes=1)),
        ("Undated", "draft", None),
    ]
