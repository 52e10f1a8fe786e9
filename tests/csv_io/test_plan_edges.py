"""Checking CSV rows without a server (issue 18 §2): what only scheduling requires, content
types and settings per network, the account's own length limit, summaries, and rows of an
export that come back as drafts."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from app.csv_io.format import CsvError, read_records
from app.csv_io.plan import PlannedRow, WorkspaceFacts, plan_rows
from app.models.accounts import SocialAccountSummary

NOW = datetime(2031, 1, 1, tzinfo=UTC)
ACCOUNTS = [
    SocialAccountSummary.model_validate(fields)
    for fields in (
        {"id": "li", "platform": "linkedin", "username": "ava", "status": "connected",
         "max_content_length": 20},
        {"id": "pin", "platform": "pinterest", "username": "pins", "status": "connected"},
        {"id": "fb", "platform": "facebook", "username": "fbp", "status": "connected"},
        {"id": "off", "platform": "linkedin", "username": "sleepy", "status": "connected",
         "is_active": False},
    )
]  # fmt: skip
HEADER = "content,accounts,scheduled_at,status,content_type,meta,media\n"


def _plan(
    rows: str, *, as_drafts: bool | None = None, skipped: list[CsvError] | None = None
) -> tuple[list[PlannedRow], list[str]]:
    records, errors = read_records(HEADER + rows)
    assert errors == []
    options = {} if as_drafts is None else {"others_as_drafts": as_drafts}
    planned, problems = plan_rows(
        records,
        WorkspaceFacts(ACCOUNTS, []),
        base_dir=Path("."),
        local_tz=UTC,
        now=NOW,
        skipped=skipped,
        **options,
    )
    return planned, [str(problem) for problem in problems]


def test_a_scheduled_row_for_two_networks_keeps_each_networks_own_settings() -> None:
    planned, problems = _plan(
        "Hello   there  world,li;pin,2031-02-01T10:00:00Z,Scheduled,,"
        '"{""board_id"": ""b1"", ""privacy_level"": ""x""}",https://x.test/a.png\n'
    )
    assert problems == []
    (row,) = planned
    assert row.request.to_wire() == {
        "destinations": [
            {"social_account_id": "li", "content_type": "linkedin_post"},
            {
                "social_account_id": "pin",
                "content_type": "pinterest_pin",
                "meta": {"board_id": "b1"},
            },
        ],
        "content": "Hello   there  world",
        "status": "scheduled",
        "scheduled_at": "2031-02-01 10:00:00",
    }
    assert (row.row, row.summary, row.account_names, row.media) == (
        2,
        "row 2: Hello there world",
        ("ava", "pins"),
        ("https://x.test/a.png",),
    )


def test_summaries_are_cut_at_60_characters_and_say_when_there_is_no_text() -> None:
    text = "word " * 20
    planned, problems = _plan(f"{text},fb,,,,,\n,pin,,,,,https://x.test/a.png\n")
    assert problems == []
    assert [row.summary for row in planned] == [
        "row 2: " + " ".join(text.split())[:60],
        "row 3: (no text)",
    ]


def test_what_only_scheduling_requires_does_not_stop_a_draft() -> None:
    planned, problems = _plan(
        "No date,li,,scheduled,,,\n"
        "Now,li,2031-01-01T00:00:00Z,scheduled,,,\n"
        "Sleepy,off,2031-02-01T10:00:00Z,scheduled,,,\n"
        "Sleepy draft,off,,draft,,,\n"
        "No board,pin,2031-02-01T10:00:00Z,scheduled,,,https://x.test/a.png\n"
        "No board draft,pin,,,,,https://x.test/a.png\n"
    )
    assert problems == [
        "row 2, column scheduled_at: a scheduled post needs a date and time",
        "row 3, column scheduled_at: 2031-01-01T00:00:00Z is in the past",
        "row 4, column accounts: sleepy is inactive",
        "row 6, column meta: pins: The board field is required. Give it in the meta column (for "
        'example {"board_id": "…"}), or import the row as a draft and complete it in the composer.',
    ]
    assert [(row.row, row.request.status) for row in planned] == [(5, "draft"), (7, "draft")]


def test_the_accounts_own_limit_and_the_networks_content_types_are_checked() -> None:
    planned, problems = _plan(
        "Long text that is over twenty,li,,,,,\n"
        "Reel,fb,,,instagram_reel,,\n"
        "Reel,fb,,,facebook_reel,,https://x.test/r.mp4\n"
    )
    assert problems == [
        "row 2, column content: ava: Too long for LinkedIn by 9: 29 of at most 20 characters as "
        "LinkedIn counts them.",
        "row 3, column content_type: instagram_reel is not a content type of Facebook (fbp); it "
        "offers facebook_post, facebook_reel, facebook_story",
    ]
    assert [d.content_type for d in planned[0].request.destinations] == ["facebook_reel"]


def test_files_given_by_address_count_towards_the_networks_number_of_files(
    tmp_path: Path,
) -> None:
    (tmp_path / "b.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    meta = '"{""board_id"": ""b1""}"'
    records, _ = read_records(HEADER + f"Pin,pin,,,,{meta},https://x.test/a.png;b.png\n")
    _, problems = plan_rows(
        records, WorkspaceFacts(ACCOUNTS, []), base_dir=tmp_path, local_tz=UTC, now=NOW
    )
    assert [str(p) for p in problems] == [
        "row 2, column media: pins: Pinterest takes at most 1 file; 2 are attached."
    ]


def test_rows_of_an_export_are_skipped_unless_asked_for_as_drafts() -> None:
    rows = (
        "Done,li,2031-02-01T10:00:00Z,published,,,\nLater,off,2031-02-01T10:00:00Z,scheduled,,,\n"
    )
    skipped: list[CsvError] = []
    planned, problems = _plan(rows, skipped=skipped)
    assert planned == []
    assert [str(s) for s in skipped] == ["row 2, column status: published: skipped"]
    assert problems == ["row 3, column accounts: sleepy is inactive"]
    planned, problems = _plan(rows, as_drafts=True)
    assert problems == []
    assert [(row.row, row.request.status, row.request.scheduled_at) for row in planned] == [
        (2, "draft", datetime(2031, 2, 1, 10, tzinfo=UTC)),
        (3, "draft", datetime(2031, 2, 1, 10, tzinfo=UTC)),
    ]
    # A draft with a problem stays a problem: only a scheduled row is retried as a draft.
    _, problems = _plan("Long text that is over twenty,li,,draft,,,\n", as_drafts=True)
    assert problems == [
        "row 2, column content: ava: Too long for LinkedIn by 9: 29 of at most 20 characters as "
        "LinkedIn counts them."
    ]


def test_every_bad_file_of_a_row_is_reported_and_local_sizes_are_checked(
    tmp_path: Path,
) -> None:
    big = tmp_path / "big.png"
    with big.open("wb") as out:
        out.truncate(6 * 1024 * 1024)  # 6 MB of zeros (sparse), named as a picture
    records, _ = read_records(
        "content,accounts,media\nPics,x1,ftp://x.test/a.png;missing.png\nBig,x1,big.png\n"
    )
    x_account = SocialAccountSummary.model_validate(
        {"id": "x1", "platform": "x", "username": "xx", "status": "connected"}
    )
    _, problems = plan_rows(
        records, WorkspaceFacts([x_account], []), base_dir=tmp_path, local_tz=UTC, now=NOW
    )
    assert [str(p) for p in problems] == [
        "row 2, column media: ftp://x.test/a.png: only http and https addresses can be downloaded",
        "row 2, column media: missing.png: no such file",
        "row 3, column media: xx: The file is 6.0 MB; X takes at most 5 MB.",
    ]
