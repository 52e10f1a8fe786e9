"""Command line of `postdesk`. API keys never come from argv: see POSTDESK_API_KEY."""

from __future__ import annotations

import argparse
from datetime import date
from pathlib import Path
from typing import NamedTuple

from ui.sections import SECTIONS


class Options(NamedTuple):
    demo: bool
    base_url: str | None
    server_timezone: str
    view: str
    date: date | None
    screenshot: Path | None
    demo_posts: int | None
    theme: str | None = None
    """"system", "light" or "dark"; None: the one chosen last in View > Theme."""


def _iso_date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date in YYYY-MM-DD form: {text!r}") from None


def _version() -> str:
    # importlib.metadata is not loaded before the first paint; only --version pays for it
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("postdesk")
    except PackageNotFoundError:  # a source tree that was never installed
        return "(not installed)"


class _VersionAction(argparse.Action):
    """--version, with the version read only when asked (not on every start)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)  # type: ignore[arg-type]

    def __call__(self, parser: argparse.ArgumentParser, *_args: object, **_kwargs: object) -> None:
        print(f"postdesk {_version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="postdesk",
        description="Plan, compose and watch social media posts.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="commands without a window:\n"
        "  postdesk import ...   create posts from a CSV file (postdesk import --help)\n"
        "  postdesk export ...   write the workspace's posts to a CSV file "
        "(postdesk export --help)\n\n"
        "With --base-url the API key is read from the POSTDESK_API_KEY environment\n"
        "variable and nothing is stored.",
    )
    parser.add_argument("--demo", action="store_true", help="open the built-in demo workspace")
    parser.add_argument("--base-url", help="connect to this API for one run (ends in /api)")
    parser.add_argument(
        "--server-timezone", default="UTC", help="time zone of the server's timestamps (--base-url)"
    )
    parser.add_argument("--view", choices=SECTIONS, default="calendar", help="section to show")
    parser.add_argument("--date", type=_iso_date, help="calendar date to show (YYYY-MM-DD)")
    parser.add_argument(
        "--screenshot",
        type=Path,
        metavar="PATH",
        help="wait for the first sync, save a PNG of the window to PATH and exit",
    )
    parser.add_argument(
        "--theme",
        choices=("system", "light", "dark"),
        help="colours for this run (default: the last View > Theme choice, else the system's)",
    )
    parser.add_argument("--version", action=_VersionAction, help="print the version and exit")
    parser.add_argument("--demo-posts", type=int, help=argparse.SUPPRESS)
    return parser


def parse_args(argv: list[str]) -> Options:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.demo and args.base_url:
        parser.error("choose either --demo or --base-url")
    return Options(
        demo=args.demo,
        base_url=args.base_url,
        server_timezone=args.server_timezone,
        view=args.view,
        date=args.date,
        screenshot=args.screenshot,
        demo_posts=args.demo_posts,
        theme=args.theme,
    )
