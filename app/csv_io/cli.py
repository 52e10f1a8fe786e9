"""`postdesk import FILE.csv [--base-url URL]`: import a CSV without the window.

The key comes from `POSTDESK_API_KEY` when `--base-url` is given; otherwise the current saved
workspace and its key (keyring, or `POSTDESK_API_KEY`) are used. Either way the rows go through
the outbox file of the workspace the window opens for the same choice (`postdesk --base-url URL`
or the saved workspace), so importing a file here and then in the window sends each row once,
and the window shows them. Exit status: 0 when every row was sent, 1 otherwise,
2 for bad arguments. The key is never printed.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import sys
from dataclasses import dataclass
from datetime import UTC, tzinfo
from pathlib import Path
from typing import TextIO
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from app.api import errors as e
from app.api.client import ApiClient
from app.csv_io.format import CsvFormatError, local_zone, read_file
from app.csv_io.importer import ImportReport, import_csv
from app.store.local_store import LocalStore, LocalStoreError, local_store_path
from app.sync.outbox_service import OutboxService
from app.workspaces.key_vault import ENV_API_KEY, KeyringUnavailable, KeyVault
from app.workspaces.profiles import ConfigError, Paths, Profile, ProfileStore

USAGE_ERROR = 2
_BAR_WIDTH = 30


class _UsageError(Exception):
    pass


@dataclass(frozen=True)
class _Target:
    base_url: str
    key: str
    server_tz: tzinfo
    outbox_path: Path
    name: str


def add_workspace_arguments(parser: argparse.ArgumentParser) -> None:
    """Which workspace a headless command talks to (`postdesk import`, `postdesk export`)."""
    parser.add_argument(
        "--base-url",
        help=f"the API address; the key is read from {ENV_API_KEY} (default: the current "
        "workspace)",
    )
    parser.add_argument(
        "--server-timezone", default="UTC", help="the server's time zone with --base-url"
    )


def parse_command(
    command: str, parser: argparse.ArgumentParser, argv: list[str]
) -> argparse.Namespace | int:
    """`argv` (with or without its leading command word) parsed; an int is the exit status
    when there is nothing to run (0 after --help, `USAGE_ERROR` for bad arguments)."""
    words = list(argv)
    if words[:1] == [command]:
        words = words[1:]
    try:
        return parser.parse_args(words)
    except SystemExit as exc:
        return USAGE_ERROR if exc.code not in (0, None) else 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="postdesk import",
        description="Import posts from a CSV file: one row = one batch, sent exactly once.",
    )
    parser.add_argument("file", type=Path, help="the CSV file")
    add_workspace_arguments(parser)
    parser.add_argument(
        "--timezone", help="zone of YYYY-MM-DD HH:MM times in the file (default: this computer's)"
    )
    parser.add_argument(
        "--as-drafts",
        action="store_true",
        help="import rows whose status is published, failed, … (an export's) as drafts "
        "instead of skipping them",
    )
    parser.add_argument(
        "--wait",
        type=float,
        default=120.0,
        help="seconds to keep trying when the server is unreachable (default 120)",
    )
    return parser


def main(argv: list[str]) -> int:
    """Run the import; returns the exit status."""
    args = parse_command("import", _parser(), argv)
    if isinstance(args, int):
        return args
    try:
        local_tz = _zone(args.timezone) if args.timezone else local_zone()
        target = _target(args.base_url, args.server_timezone)
        text = read_file(args.file)
    except _UsageError as exc:
        print(f"postdesk import: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except (CsvFormatError, ConfigError) as exc:
        print(f"postdesk import: {exc}", file=sys.stderr)
        return 1
    try:
        report = asyncio.run(
            _run(target, text, args.file.resolve().parent, local_tz, args.wait, args.as_drafts)
        )
    except LocalStoreError as exc:
        print(f"postdesk import: {exc.message}", file=sys.stderr)
        return 1
    except CsvFormatError as exc:
        print(f"postdesk import: {exc}", file=sys.stderr)
        return 1
    except e.ApiError as exc:
        print(f"postdesk import: {exc} {exc.hint}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\npostdesk import: stopped; queued rows stay in the outbox.", file=sys.stderr)
        return 1
    for line in report.summary_lines():
        print(line)
    return 0 if report.all_sent else 1


async def _run(
    target: _Target, text: str, base_dir: Path, local_tz: tzinfo, wait: float, as_drafts: bool
) -> ImportReport:
    store = LocalStore.open(target.outbox_path)
    try:
        async with (
            ApiClient(target.base_url, target.key, server_tz=target.server_tz) as client,
            OutboxService(store, client).running_loop() as service,
        ):
            bar = _ProgressBar(sys.stderr)
            report = await import_csv(
                text,
                service,
                base_dir=base_dir,
                local_tz=local_tz,
                on_progress=bar.update,
                wait_seconds=wait,
                others_as_drafts=as_drafts,
            )
            bar.finish()
            return report
    finally:
        store.close()


def _target(base_url: str | None, server_timezone: str) -> _Target:
    paths = Paths()
    if base_url:
        try:
            workspace = Profile.for_base_url(base_url)
        except ValueError as exc:
            raise _UsageError(str(exc)) from None
        key = os.environ.get(ENV_API_KEY, "").strip()
        if not key:
            raise _UsageError(f"with --base-url, put the API key in {ENV_API_KEY}")
        outbox = local_store_path(paths, workspace.id)
        _adopt_earlier_record(paths, workspace.base_url, outbox)
        return _Target(workspace.base_url, key, _zone(server_timezone), outbox, workspace.name)
    profile = ProfileStore(paths).active()
    if profile is None:
        raise _UsageError("no current workspace; open one in Postdesk first, or use --base-url")
    try:
        saved = KeyVault(env_profile_id=profile.id).get(profile.id)
    except KeyringUnavailable as exc:
        raise _UsageError(f"{exc.message} Or set {ENV_API_KEY} for this run.") from None
    if not saved:
        raise _UsageError(f"no API key saved for {profile.name}; set {ENV_API_KEY}")
    return _Target(
        profile.base_url,
        saved,
        profile.server_tz,
        local_store_path(paths, profile.id),
        profile.name,
    )


def _adopt_earlier_record(paths: Paths, url: str, outbox: Path) -> None:
    """Earlier versions kept the `--base-url` imports in a file of their own, which the window
    never saw. When the workspace has no outbox file yet, that file becomes it (moved, never
    copied or dropped), so rows imported then still count as imported."""
    digest = hashlib.sha256(url.encode()).hexdigest()[:16]
    earlier = paths.data_dir / "imports" / f"{digest}.local.sqlite3"
    if outbox.exists() or not earlier.exists():
        return
    outbox.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm"):  # with its journal, if a run left one
        part = earlier.with_name(earlier.name + suffix)
        if part.exists():
            part.rename(outbox.with_name(outbox.name + suffix))


def _zone(name: str) -> tzinfo:
    if name.upper() == "UTC":
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise _UsageError(f"unknown time zone {name!r}; use a name like Europe/Berlin") from None


class _ProgressBar:
    """One redrawn line on a terminal; plain lines when the output is a file or pipe."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self.last = ""

    def update(self, done: int, total: int, what: str) -> None:
        filled = round(_BAR_WIDTH * done / total) if total else _BAR_WIDTH
        line = f"[{'#' * filled}{'.' * (_BAR_WIDTH - filled)}] {done}/{total} {what}"
        if line == self.last:
            return
        self.last = line
        if self.tty:
            self.stream.write("\r\x1b[2K" + line[:120])
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.tty and self.last:
            self.stream.write("\n")
            self.stream.flush()
