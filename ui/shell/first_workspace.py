"""Which workspace a run opens first: the demo, a one-run `--base-url`, or the saved active one.

Light on purpose (no Qt, no keyring, no client): it is decided before the first paint.
"""

from __future__ import annotations

import os

from app.workspaces.profiles import ConfigError, Profile, ProfileStore
from ui.cli import Options
from ui.shell.startup import StartupError

DEMO_PROFILE = Profile(
    id="demo", name="Demo workspace", base_url="http://127.0.0.1/api", is_demo=True
)
"""The demo server picks a free port at start; the real address replaces this one then."""


def profile_for_base_url(base_url: str, server_timezone: str) -> Profile:
    return Profile.for_base_url(base_url, server_timezone)


def is_saved_profile(profile: Profile) -> bool:
    """A workspace from the saved list (not the demo, not a one-run --base-url)."""
    return not profile.is_demo and not profile.id.startswith("url-")


def first_workspace(options: Options, profiles: ProfileStore) -> tuple[Profile | None, str | None]:
    """The workspace of this run and its key; (None, None) when the user has to choose one.

    The key of a saved workspace is looked up later (None here): the keyring is slow. A list
    file that cannot be read counts as empty here; the window says why once it is up.
    """
    if options.demo:
        return DEMO_PROFILE, ""
    if options.base_url:
        api_key = os.environ.get("POSTDESK_API_KEY", "").strip()
        if not api_key:
            raise StartupError(
                "--base-url needs the API key in the POSTDESK_API_KEY environment variable."
            )
        try:
            profile = profile_for_base_url(options.base_url, options.server_timezone)
        except ValueError as error:
            raise StartupError(str(error)) from None
        return profile, api_key
    if options.screenshot is not None:
        raise StartupError("--screenshot needs --demo or --base-url.")
    try:
        saved = profiles.load()
    except ConfigError:
        saved = []
    active = profiles.active_id if saved else None
    chosen = next((p for p in saved if p.id == active), saved[0] if saved else None)
    return chosen, None
