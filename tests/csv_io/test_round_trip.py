"""Issue 15 §1: `postdesk export` then `postdesk import` of the demo workspace round-trips:
published / failed rows are skipped and counted (or imported as drafts when asked), media
given by URL are downloaded and uploaded again, and a bad date reads as words."""

from __future__ import annotations

import csv
import io
from datetime import UTC
from pathlib import Path

import pytest

from app.csv_io import cli, export_cli
from app.csv_io.format import parse_when
from app.sandbox.harness import SandboxServer


def _export(
    server: SandboxServer, path: Path, capsys: pytest.CaptureFixture[str]
) -> list[dict[str, str]]:
    assert export_cli.main(["export", str(path), "--base-url", server.base_url]) == 0
    out = capsys.readouterr().out
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert out.strip() == f"{len(rows)} posts written to {path}."
    return rows


def test_an_export_of_the_demo_imports_again(
    demo_sandbox: SandboxServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("POSTDESK_API_KEY", demo_sandbox.keys.admin)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    exported = tmp_path / "all.csv"
    rows = _export(demo_sandbox, exported, capsys)
    before = demo_sandbox.store.post_count()
    assert len(rows) == before
    finished = [r for r in rows if r["status"] not in ("draft", "scheduled")]
    with_media = [r for r in rows if "://" in r["media"] and r["status"] in ("draft", "scheduled")]
    assert finished
    assert with_media

    status = cli.main(["import", str(exported), "--base-url", demo_sandbox.base_url])
    out = capsys.readouterr().out
    # What is left is only what cannot be *scheduled* (an inactive account, a reel without a
    # video): no refusal of published/failed rows, of server media, of missing settings.
    problems = [line for line in out.splitlines() if line.startswith("row ")]
    assert status == 1, out
    assert problems, out
    assert all(("is inactive" in p) or (" needs a " in p) for p in problems), out
    assert f"{len(finished)} rows skipped" in out, out
    assert "not a local file" not in out
    assert "not draft or scheduled" not in out
    assert demo_sandbox.store.post_count() == before

    status = cli.main(["import", str(exported), "--base-url", demo_sandbox.base_url, "--as-drafts"])
    out = capsys.readouterr().out
    # Every row came back (media downloaded and uploaded again, settings from the meta column)
    # except those whose media the server does not hand out (the demo serves no seeded videos),
    # each saying so on its row.
    not_queued = [line for line in out.splitlines() if line.startswith("row ")]
    assert all("could not be downloaded (the server answered 404)" in p for p in not_queued), out
    assert len(not_queued) < len(rows) // 5, out
    # A row with several accounts is one batch, which the server may split into several posts.
    assert demo_sandbox.store.post_count() >= 2 * before - len(not_queued)
    assert status == (1 if not_queued else 0)
    assert "skipped" not in out


def test_finished_rows_come_back_as_drafts_when_asked(
    demo_sandbox: SandboxServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("POSTDESK_API_KEY", demo_sandbox.keys.admin)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    exported = tmp_path / "all.csv"
    rows = _export(demo_sandbox, exported, capsys)
    finished = [
        r
        for r in rows
        if r["status"] in ("published", "failed")
        and ".mp4" not in r["media"]
        and ";" not in r["accounts"]
    ][:3]
    header = list(rows[0])
    small = tmp_path / "finished.csv"
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=header)
    writer.writeheader()
    writer.writerows(finished)
    small.write_text(buffer.getvalue(), encoding="utf-8")
    before = demo_sandbox.store.post_count()
    status = cli.main(["import", str(small), "--base-url", demo_sandbox.base_url, "--as-drafts"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert demo_sandbox.store.post_count() == before + len(finished)
    assert "skipped" not in out


def test_a_media_address_that_cannot_be_downloaded_says_so_on_its_row(
    sandbox: SandboxServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("POSTDESK_API_KEY", sandbox.keys.admin)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    plan = tmp_path / "plan.csv"
    missing = sandbox.base_url.rsplit("/api", 1)[0] + "/no/such/file.png"
    plan.write_text(
        f"content,accounts,media\nWith a picture,linkedin:ava-lindqvist,{missing}\n",
        encoding="utf-8",
    )
    assert cli.main(["import", str(plan), "--base-url", sandbox.base_url]) == 1
    out = capsys.readouterr().out
    assert f"media {missing} could not be downloaded" in out, out
    assert sandbox.store.post_count() == 0


def test_an_impossible_local_date_is_explained_in_words() -> None:
    with pytest.raises(ValueError, match="not a real date") as caught:
        parse_when("2026-13-45 25:00", UTC)
    assert "does not match format" not in str(caught.value)
