"""`postdesk export FILE.csv [--base-url URL]`: write every post of the workspace to a CSV in
the import's format, without the window.

It reads the posts from the server first (so the file is current, not the window's cache), then
writes the file atomically. The workspace and key are chosen as for `postdesk import`. Exit
status: 0 written, 1 on a server or file problem, 2 for bad arguments. The key is never printed.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import tzinfo
from pathlib import Path

from app.api import errors as e
from app.api.client import ApiClient
from app.csv_io.cli import (
    USAGE_ERROR,
    _Target,
    _target,
    _UsageError,
    _zone,
    add_workspace_arguments,
    parse_command,
)
from app.csv_io.export import export_posts
from app.csv_io.format import local_zone
from app.workspaces.profiles import ConfigError, write_atomically


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="postdesk export",
        description="Export every post of the workspace to a CSV file in the import's format.",
    )
    parser.add_argument("file", type=Path, help="the CSV file to write (replaced if it exists)")
    add_workspace_arguments(parser)
    parser.add_argument(
        "--timezone", help="zone the times are written in (default: this computer's)"
    )
    return parser


def main(argv: list[str]) -> int:
    """Run the export; returns the exit status."""
    args = parse_command("export", _parser(), argv)
    if isinstance(args, int):
        return args
    try:
        tz = _zone(args.timezone) if args.timezone else local_zone()
        target = _target(args.base_url, args.server_timezone)
    except _UsageError as exc:
        print(f"postdesk export: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except ConfigError as exc:
        print(f"postdesk export: {exc}", file=sys.stderr)
        return 1
    try:
        text, count = asyncio.run(_fetch(target, tz))
    except e.ApiError as exc:
        print(f"postdesk export: {exc} {exc.hint}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\npostdesk export: stopped; no file written.", file=sys.stderr)
        return 1
    try:
        write_atomically(args.file, text)
    except OSError as exc:
        print(
            f"postdesk export: could not write {args.file}: {exc.strerror or exc}", file=sys.stderr
        )
        return 1
    print(f"{count} post{'s' if count != 1 else ''} written to {args.file}.")
    return 0


async def _fetch(target: _Target, tz: tzinfo) -> tuple[str, int]:
    async with ApiClient(target.base_url, target.key, server_tz=target.server_tz) as client:
        posts = await client.posts.fetch_all()
    return export_posts(posts, tz), len(posts)
