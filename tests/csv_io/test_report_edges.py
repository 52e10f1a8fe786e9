"""What an import says and keys at its edges (issue 18 §2): the summary's counts and plurals,
times written with a lowercase `z`, the missing workspace, and the source key that makes a
re-import after an upgrade send nothing twice."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.csv_io import cli
from app.csv_io.format import CsvError, parse_when, read_records
from app.csv_io.importer import ImportReport, RowOutcome
from app.csv_io.plan import WorkspaceFacts, plan_rows
from app.models.accounts import SocialAccountSummary
from app.sync.outbox import OutboxState


def test_one_problem_and_two_problems_are_worded_apart() -> None:
    one = ImportReport(errors=[CsvError(2, "accounts", "no account “x” in this workspace")])
    assert one.summary_lines() == [
        "row 2, column accounts: no account “x” in this workspace",
        "Nothing was sent: 1 problem to fix first.",
    ]
    two = ImportReport(errors=[CsvError(2, "content", "a"), CsvError(3, "content", "b")])
    assert two.summary_lines()[-1] == "Nothing was sent: 2 problems to fix first."


def test_the_summary_counts_each_outcome_and_names_the_rows_not_sent() -> None:
    report = ImportReport(
        outcomes=[
            RowOutcome(2, OutboxState.SENT, post_ids=("p1",)),
            RowOutcome(3, None, "media a.png: no such file"),
            RowOutcome(4, OutboxState.QUEUED),
            RowOutcome(5, OutboxState.SENT, already_imported=True),
        ]
    )
    assert report.summary_lines() == [
        "row 3: not queued: media a.png: no such file",
        "row 4: queued:",
        "4 rows: 2 sent, 1 not queued, 1 queued (1 imported before).",
    ]
    assert not report.all_sent
    single = ImportReport(outcomes=[RowOutcome(2, OutboxState.SENT)])
    assert single.summary_lines() == ["1 row: 1 sent."]
    assert single.all_sent


def test_a_lowercase_z_means_utc() -> None:
    assert parse_when("2026-05-01T08:00:00z", UTC) == datetime(2026, 5, 1, 8, tzinfo=UTC)
    assert parse_when("2026-05-01T08:00:00Z", UTC) == datetime(2026, 5, 1, 8, tzinfo=UTC)


def test_without_a_workspace_or_base_url_the_import_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = tmp_path / "plan.csv"
    plan.write_text("content,accounts\nHi,a1\n", encoding="utf-8")
    assert cli.main(["import", str(plan)]) == cli.USAGE_ERROR
    assert capsys.readouterr().err == (
        "postdesk import: no current workspace; open one in Postdesk first, or use --base-url\n"
    )


def test_the_source_key_of_a_row_does_not_change_between_versions() -> None:
    """Keys are stored in the outbox: a re-import after an upgrade must find the same ones."""
    account = SocialAccountSummary.model_validate(
        {"id": "a1", "platform": "linkedin", "username": "ava", "status": "connected"}
    )
    records, _ = read_records(
        "content,accounts,media\nHello,a1,https://x.test/a.png\nHello,a1,https://x.test/a.png\n"
        "Hello,a1,https://x.test/b.png\n"
    )
    planned, errors = plan_rows(
        records,
        WorkspaceFacts([account], []),
        base_dir=Path("."),
        local_tz=UTC,
        now=datetime(2031, 1, 1, tzinfo=UTC),
    )
    assert errors == []
    assert [row.source_key for row in planned] == [
        "csv:e3f114bb3cc8e4e4378b1cd82744edfb:1",
        "csv:e3f114bb3cc8e4e4378b1cd82744edfb:2",  # the same row again: its second copy
        "csv:c70b36a81d1bf4eef9cf109b67b8df86:1",
    ]
