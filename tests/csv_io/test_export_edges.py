"""The export's rows at their edges (issue 18 §2): how accounts, content types, settings, media
and times are written, the calendar order, the command's time zones, and the file names of
downloaded media."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from app.csv_io import export_cli
from app.csv_io.download import DownloadFailed, download
from app.csv_io.export import export_posts, post_row
from app.csv_io.format import COLUMNS, local_zone, write_rows
from app.models.posts import Post
from app.models.requests import BatchRequest, Destination
from app.sandbox.harness import SandboxServer
from tests.api.helpers import sandbox_client
from tests.csv_io.media_server import free_port, serve_files

TOKYO = ZoneInfo("Asia/Tokyo")


def _platform(id_: str, account: dict[str, Any] | None, **fields: Any) -> dict[str, Any]:
    return {"id": id_, "platform": "x", "social_account": account, **fields}


def _post(**fields: Any) -> Post:
    body: dict[str, Any] = {"id": "p1", "status": "draft", "content": "Hello"}
    body.update(fields)
    return Post.model_validate(body)


def test_accounts_are_written_by_username_or_id_once_each_and_disabled_ones_left_out() -> None:
    named = {"id": "a1", "platform": "x", "username": "north"}
    unnamed = {"id": "a2", "platform": "x"}
    post = _post(
        platforms=[
            _platform("pp1", named, content_type="x_post"),
            _platform("pp2", named, content_type="x_post"),
            _platform("pp3", unnamed),
            _platform("pp4", None),
            _platform("pp5", {"id": "off", "platform": "x"}, enabled=False),
        ]
    )
    row = post_row(post, UTC)
    assert row["accounts"] == "x:north;a2"
    # One content type among the platforms (one has none): it is the row's.
    assert row["content_type"] == "x_post"


def test_two_content_types_leave_the_column_empty() -> None:
    post = _post(
        platforms=[
            _platform("pp1", None, content_type="facebook_post"),
            _platform("pp2", None, content_type="facebook_reel"),
        ]
    )
    assert post_row(post, UTC)["content_type"] == ""
    assert post_row(_post(), UTC)["content_type"] == ""


def test_settings_are_one_sorted_json_object_from_the_enabled_platforms() -> None:
    post = _post(
        platforms=[
            _platform("pp1", None, meta={"title": "Café", "board_id": "b1"}),
            _platform("pp2", None, meta={"board_id": "b2", "link": "https://x.test"}),
            _platform("pp3", None, meta={"privacy_level": "SELF_ONLY"}, enabled=False),
        ]
    )
    meta = post_row(post, UTC)["meta"]
    assert meta == '{"board_id": "b1", "link": "https://x.test", "title": "Café"}'
    assert json.loads(meta)["board_id"] == "b1"  # the first platform's value wins
    assert post_row(_post(platforms=[_platform("pp1", None)]), UTC)["meta"] == ""


def test_text_media_labels_and_time_are_written_as_the_import_reads_them() -> None:
    post = _post(
        content=None,
        status="published",
        scheduled_at="2031-01-10 12:00:00",
        media=[
            {"id": "m1", "url": "https://x.test/a.png", "path": "media/a.png"},
            {"id": "m2", "path": "media/b.png"},
            {"id": "m3"},
        ],
        labels=[{"id": "l1", "name": "Launch"}, {"id": "l2", "name": "Q1"}],
    )
    row = post_row(post, TOKYO)
    assert row == {
        "content": "",
        "accounts": "",
        "scheduled_at": "2031-01-10T21:00:00+09:00",
        "status": "published",
        "content_type": "",
        "labels": "Launch;Q1",
        "media": "https://x.test/a.png;media/b.png;",
        "meta": "",
    }


def test_posts_are_in_calendar_order_dated_first_then_drafts_by_id() -> None:
    posts = [
        _post(id="d2"),
        _post(id="late", scheduled_at="2031-01-11 08:00:00"),
        _post(id="early", scheduled_at="2031-01-10 08:00:00"),
        _post(id="d1"),
    ]
    text = export_posts(posts, TOKYO)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["scheduled_at"] for r in rows] == [
        "2031-01-10T17:00:00+09:00",
        "2031-01-11T17:00:00+09:00",
        "",
        "",
    ]
    assert text.startswith(",".join(COLUMNS) + "\r\n")


def test_rows_end_in_crlf_and_a_line_break_stays_inside_its_cell() -> None:
    text = write_rows([{"content": "two\nlines", "accounts": "a1"}])
    assert text == ",".join(COLUMNS) + '\r\n"two\nlines",a1,,,,,,\r\n'


# -- the computer's time zone ------------------------------------------------------------------


def test_the_tz_variable_names_the_local_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", ":Asia/Tokyo")
    assert local_zone() == TOKYO
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    assert local_zone() == TOKYO


def test_without_a_usable_tz_the_system_link_names_the_zone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import os

    target = os.path.realpath("/etc/localtime")
    if "zoneinfo/" not in target:
        pytest.skip("this system's /etc/localtime is not a link into a zoneinfo folder")
    expected = ZoneInfo(target.split("zoneinfo/", 1)[1])
    monkeypatch.delenv("TZ", raising=False)
    assert local_zone() == expected
    monkeypatch.setenv("TZ", "Nowhere/Nothing")
    assert local_zone() == expected


# -- the export command ------------------------------------------------------------------------


@pytest.fixture
def workspace_env(
    sandbox: SandboxServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> SandboxServer:
    monkeypatch.setenv("POSTDESK_API_KEY", sandbox.keys.admin)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return sandbox


def _schedule_one(server: SandboxServer) -> None:
    request = BatchRequest(
        destinations=[
            Destination(social_account_id=server.store.account_id("x"), content_type="x_post")
        ],
        content="Dated",
        status="draft",
        scheduled_at=datetime(2031, 1, 10, 12, 0, tzinfo=UTC),
    )

    async def create() -> None:
        async with sandbox_client(server) as client:
            await client.posts.create_batch(request)

    asyncio.run(create())


def test_export_writes_times_in_the_zone_asked_for_reading_the_servers_zone(
    workspace_env: SandboxServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _schedule_one(workspace_env)
    target = tmp_path / "out.csv"
    base = ["export", str(target), "--base-url", workspace_env.base_url]
    assert export_cli.main([*base, "--timezone", "Asia/Tokyo"]) == 0
    assert capsys.readouterr().out.strip() == f"1 post written to {target}."
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"))))
    assert [r["scheduled_at"] for r in rows] == ["2031-01-10T21:00:00+09:00"]
    # The sandbox writes its times in UTC; told they are Tokyo times, the same wall time is
    # 9 hours earlier.
    assert export_cli.main([*base, "--timezone", "UTC", "--server-timezone", "Asia/Tokyo"]) == 0
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"))))
    assert [r["scheduled_at"] for r in rows] == ["2031-01-10T03:00:00+00:00"]


def test_export_help_names_the_command_and_what_each_argument_is(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert export_cli.main(["export", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert text.startswith("usage: postdesk export ")
    assert "Export every post of the workspace to a CSV file in the import's format." in text
    assert "the CSV file to write (replaced if it exists)" in text
    assert "--timezone TIMEZONE zone the times are written in (default: this computer's)" in text


# -- downloaded media --------------------------------------------------------------------------


@pytest.fixture
def files() -> Iterator[str]:
    yield from serve_files()


@pytest.mark.parametrize(
    ("tail", "name"),
    [
        ("/media/a%20b.png?x=1#top", "a_20b.png"),
        ("/media/photo.jpg/", "photo.jpg"),
        ("/media/a.png?next=/b.png?c", "a.png"),
        ("/media/a.png#/b.png#c", "a.png"),
        ("/media/" + "n" * 130 + ".png", "n" * 116 + ".png"),
        ("/media/BOX", "BOX"),
    ],
)
def test_a_downloaded_file_is_named_after_the_last_part_of_its_address(
    files: str, tmp_path: Path, tail: str, name: str
) -> None:
    path = asyncio.run(download(files + tail, tmp_path))
    assert path == tmp_path / name
    assert path.read_bytes() == b"file at " + tail.split("#", 1)[0].encode()


def test_a_download_follows_a_redirect_and_keeps_the_name_it_was_given(
    files: str, tmp_path: Path
) -> None:
    path = asyncio.run(download(files + "/moved/photo.png", tmp_path))
    assert path == tmp_path / "photo.png"
    assert path.read_bytes() == b"file at /media/final.png"


def test_a_download_that_is_refused_names_the_address_and_the_answer(
    files: str, tmp_path: Path
) -> None:
    url = files + "/missing/a.png"
    with pytest.raises(DownloadFailed) as caught:
        asyncio.run(download(url, tmp_path))
    assert str(caught.value) == (
        f"media {url} could not be downloaded (the server answered 404); download it yourself "
        "and give its path"
    )


def test_a_download_from_nowhere_names_the_address_and_the_failure(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/a.png"
    with pytest.raises(DownloadFailed) as caught:
        asyncio.run(download(url, tmp_path))
    assert str(caught.value) == (
        f"media {url} could not be downloaded (ConnectError); check the address or download it "
        "yourself and give its path"
    )
