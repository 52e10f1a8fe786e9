"""Workspace profiles (name, base URL, server time zone) and where the app keeps its files.

Profiles live in one JSON file in the XDG config folder. API keys never go there: they are kept
by `app.workspaces.key_vault.KeyVault`. Paths are computed on every access so that a changed `XDG_*`
environment (tests) takes effect at once.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import platformdirs

APP_NAME = "postdesk"
PROFILES_FILE = "profiles.json"
FILE_FORMAT_VERSION = 1

_PROFILE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_HOST = re.compile(r"^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.?)+$")


class ConfigError(Exception):
    """The configuration could not be read or written; the message says what to do."""


class ProfilesDamaged(ConfigError):
    """`profiles.json` cannot be understood. Nothing was changed: the file stays where it is.
    The first change saved afterwards keeps a copy of it (`kept_as`) before writing anew."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(
            f"The workspace list {path} cannot be read: {reason}. It was left as it is. "
            "Connecting a workspace starts a new list and keeps a copy of the old file next "
            "to it."
        )


class ProfilesTooNew(ConfigError):
    """`profiles.json` was written by a newer Postdesk: its workspaces can be used, but this
    version must not rewrite the file (it could drop what it does not know)."""

    def __init__(self, path: Path, version: object) -> None:
        self.path = path
        self.version = version
        super().__init__(
            f"The workspace list {path} was written by a newer Postdesk (format {version}). "
            "Its workspaces can be used, but this version will not change the file: add, "
            "rename or remove workspaces with the newer Postdesk."
        )


class ProfilesReadOnly(ConfigError):
    """A change was refused because the workspace list belongs to a newer Postdesk."""


def normalize_base_url(text: str) -> str:
    """Turn what a user typed into the API base URL: `example.com` -> `https://example.com/api`.

    The spec puts every route under `/api` for hosted and self-hosted instances alike, so the
    suffix is added when missing. Raises ValueError with a message meant for the user.
    """
    candidate = text.strip()
    if not candidate:
        raise ValueError("Enter the address of your workspace, for example https://example.com.")
    if any(character.isspace() for character in candidate):
        raise ValueError("The address cannot contain spaces.")
    if not _SCHEME.match(candidate):
        candidate = "https://" + candidate
    parts = urlsplit(candidate)
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise ValueError("The address must start with https:// (or http:// for a local server).")
    if parts.query or parts.fragment:
        raise ValueError("The address cannot contain '?' or '#'; enter just the server address.")
    if parts.username is not None or parts.password is not None:
        raise ValueError("Do not put a user name or password in the address.")
    host = parts.hostname or ""
    try:
        port = parts.port
    except ValueError:
        raise ValueError("The port number in the address is not valid.") from None
    if not host or not (_HOST.match(host) or _is_ip_literal(host)):
        raise ValueError(f"'{text.strip()}' does not look like a server address.")
    netloc = f"[{host}]" if ":" in host else host
    if port is not None:
        netloc = f"{netloc}:{port}"
    path = parts.path.rstrip("/")
    if not path.endswith("/api"):
        path = f"{path}/api"
    return urlunsplit((scheme, netloc, path, "", ""))


def _is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Profile:
    """One workspace the user connects to. The API key is stored apart, by profile id."""

    id: str
    name: str
    base_url: str
    server_timezone: str = "UTC"
    is_demo: bool = False
    _tz: ZoneInfo = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not _PROFILE_ID.match(self.id):
            raise ValueError(f"Invalid profile id {self.id!r}.")
        if not self.name.strip():
            raise ValueError("A workspace needs a name.")
        if not self.base_url.strip():
            raise ValueError("A workspace needs an address.")
        try:
            tz = ZoneInfo(self.server_timezone)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                f"Unknown time zone {self.server_timezone!r}; use a name like UTC or Europe/Berlin."
            ) from None
        object.__setattr__(self, "_tz", tz)

    @classmethod
    def create(
        cls, name: str, base_url: str, server_timezone: str = "UTC", *, is_demo: bool = False
    ) -> Profile:
        """A new profile with a fresh id; the address is normalized (ValueError on junk)."""
        import uuid  # ~2 ms (it imports `platform`) that the start-up path does not need

        return cls(
            id=uuid.uuid4().hex,
            name=name.strip(),
            base_url=normalize_base_url(base_url),
            server_timezone=server_timezone,
            is_demo=is_demo,
        )

    @classmethod
    def for_base_url(cls, base_url: str, server_timezone: str = "UTC") -> Profile:
        """The one-run workspace of `postdesk --base-url` and `postdesk import --base-url`: its
        id comes from the address, so both use the same cache and the same drafts and outbox
        file (ValueError on junk)."""
        try:
            # CPython's own SHA-256: `hashlib` first loads OpenSSL (~2.5 ms before the first
            # paint of a `--base-url` start). Same digest, so the workspace keeps its files.
            from _sha256 import sha256  # type: ignore[import-not-found]
        except ImportError:  # another Python (3.12 renamed it `_sha2`)
            from hashlib import sha256

        url = normalize_base_url(base_url)
        digest = sha256(url.encode()).hexdigest()[:12]
        return cls(id=f"url-{digest}", name=url, base_url=url, server_timezone=server_timezone)

    @property
    def server_tz(self) -> ZoneInfo:
        return self._tz

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "base_url": self.base_url,
            "server_timezone": self.server_timezone,
            "is_demo": self.is_demo,
        }

    @classmethod
    def from_json(cls, data: Any) -> Profile:
        if not isinstance(data, dict):
            raise ValueError("a profile entry is not an object")
        values = {
            "id": data.get("id"),
            "name": data.get("name"),
            "base_url": data.get("base_url"),
            "server_timezone": data.get("server_timezone", "UTC"),
        }
        for key, value in values.items():
            if not isinstance(value, str):
                raise ValueError(f"a profile entry has no valid {key!r}")
        is_demo = data.get("is_demo", False)
        if not isinstance(is_demo, bool):
            raise ValueError("a profile entry has an invalid 'is_demo'")
        return cls(is_demo=is_demo, **values)


class Paths:
    """Where Postdesk keeps its files (XDG on Linux, via platformdirs)."""

    @property
    def config_dir(self) -> Path:
        return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))

    @property
    def data_dir(self) -> Path:
        return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))

    @property
    def cache_dir(self) -> Path:
        return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))

    def profile_db(self, profile_id: str) -> Path:
        """The SQLite file of one workspace (cache, local drafts, outbox)."""
        if not _PROFILE_ID.match(profile_id):
            raise ValueError(f"Invalid profile id {profile_id!r}.")
        return self.data_dir / "workspaces" / f"{profile_id}.sqlite3"

    def __repr__(self) -> str:
        return f"Paths(config={self.config_dir}, data={self.data_dir}, cache={self.cache_dir})"


def write_atomically(path: Path, text: str) -> None:
    """Write via a temp file in the same folder + os.replace: a crash leaves old or new."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temp_name = tempfile.mkstemp(
        dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise


def move_aside(path: Path, label: str = "corrupt") -> Path:
    """Rename a damaged file to `<name>.<label>-<UTC timestamp>` so nothing is lost."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.{label}-{stamp}")
    counter = 1
    while target.exists():
        target = path.with_name(f"{path.name}.{label}-{stamp}-{counter}")
        counter += 1
    os.replace(path, target)
    return target


@dataclass
class _ProfilesFile:
    profiles: list[Profile]
    active_id: str | None
    too_new: ProfilesTooNew | None = None


class ProfileStore:
    """The list of workspaces and which one is active, in `profiles.json` in the config folder.

    Every call reads the file afresh and every change rewrites it atomically, so two windows (or a
    crash) never leave a half-written file. Reading never changes the file:
    - a damaged file raises `ProfilesDamaged` (path and reason) and stays where it is; the next
      change saves a copy of it beside it, then starts a new list;
    - a file from a newer Postdesk is read as far as it can be (its workspaces are usable),
      `notice()` says so, and every change raises `ProfilesReadOnly`.
    """

    def __init__(self, paths: Paths | None = None) -> None:
        self._paths = paths or Paths()
        self._chosen_this_run: str | None = None

    @property
    def path(self) -> Path:
        return self._paths.config_dir / PROFILES_FILE

    def load(self) -> list[Profile]:
        return self._read().profiles

    def notice(self) -> ConfigError | None:
        """What the window should tell about the file as it is now (damaged, or from a newer
        Postdesk and therefore read-only), or None when all is well. Never raises."""
        try:
            return self._read().too_new
        except ConfigError as problem:
            return problem

    def save(self, profiles: list[Profile]) -> None:
        ids = [profile.id for profile in profiles]
        if len(set(ids)) != len(ids):
            raise ValueError("Two workspaces have the same id.")
        active = self._read_for_change().active_id
        self._write(_ProfilesFile(list(profiles), active if active in ids else None))

    def add(self, profile: Profile) -> None:
        current = self._read_for_change()
        if any(existing.id == profile.id for existing in current.profiles):
            raise ValueError(f"A workspace with id {profile.id} already exists.")
        self._write(_ProfilesFile([*current.profiles, profile], current.active_id))

    def upsert_by_address(self, name: str, base_url: str, server_timezone: str = "UTC") -> Profile:
        """The saved workspace with this name and (normalized) address, its time zone updated;
        or a new one, added. Reconnecting a workspace therefore never duplicates it.
        ValueError for a junk address or time zone."""
        wanted = Profile.create(name, base_url, server_timezone)
        current = self._read_for_change()
        same = next(
            (
                p
                for p in current.profiles
                if not p.is_demo
                and _same_name(p.name, wanted.name)
                and _same_address(p.base_url, wanted.base_url)
            ),
            None,
        )
        if same is None:
            self._write(_ProfilesFile([*current.profiles, wanted], current.active_id))
            return wanted
        updated = Profile(
            id=same.id,
            name=same.name,
            base_url=same.base_url,
            server_timezone=wanted.server_timezone,
        )
        if updated != same:
            profiles = [updated if p.id == same.id else p for p in current.profiles]
            self._write(_ProfilesFile(profiles, current.active_id))
        return updated

    def update(self, profile: Profile) -> None:
        """Replace the profile with the same id (rename, new address, new time zone)."""
        current = self._read_for_change()
        if not any(existing.id == profile.id for existing in current.profiles):
            raise KeyError(profile.id)
        profiles = [profile if p.id == profile.id else p for p in current.profiles]
        self._write(_ProfilesFile(profiles, current.active_id))

    def remove(self, profile_id: str) -> None:
        current = self._read_for_change()
        profiles = [profile for profile in current.profiles if profile.id != profile_id]
        active = None if current.active_id == profile_id else current.active_id
        self._write(_ProfilesFile(profiles, active))

    def get(self, profile_id: str) -> Profile | None:
        return next((p for p in self.load() if p.id == profile_id), None)

    @property
    def active_id(self) -> str | None:
        """The workspace to open at start; None when there is none or the file is damaged
        (`load()` and `notice()` report the damage)."""
        try:
            current = self._read()
        except ProfilesDamaged:
            return None
        if current.too_new is not None and self._chosen_this_run is not None:
            return self._chosen_this_run
        return current.active_id

    @active_id.setter
    def active_id(self, profile_id: str | None) -> None:
        """Remembered in the file; with a file from a newer Postdesk, for this run only
        (switching workspaces must keep working, and the file must not change)."""
        current = self._read_or_damaged()
        if profile_id is not None and not any(p.id == profile_id for p in current.profiles):
            raise KeyError(profile_id)
        if current.too_new is not None:
            self._chosen_this_run = profile_id
            return
        self._write(_ProfilesFile(current.profiles, profile_id))

    def active(self) -> Profile | None:
        active = self.active_id
        return next((p for p in self._read_or_damaged().profiles if p.id == active), None)

    def _read_or_damaged(self) -> _ProfilesFile:
        """The file's content, a damaged file reading as empty (for lookups that have no way to
        report the damage; `load()` and `notice()` do)."""
        try:
            return self._read()
        except ProfilesDamaged:
            return _ProfilesFile([], None)

    def _read_for_change(self) -> _ProfilesFile:
        """The current list before a change: a damaged file is kept as a copy first (the change
        replaces it), a newer file refuses the change."""
        try:
            current = self._read()
        except ProfilesDamaged:
            _keep_copy(self.path)
            return _ProfilesFile([], None)
        if current.too_new is not None:
            raise ProfilesReadOnly(str(current.too_new))
        return current

    def _read(self) -> _ProfilesFile:
        path = self.path
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return _ProfilesFile([], None)
        except UnicodeDecodeError as exc:
            raise ProfilesDamaged(path, f"it is not text ({exc.reason})") from None
        except OSError as exc:
            raise ConfigError(
                f"Could not read the workspace list {path}: {exc.strerror or exc}."
            ) from None
        try:
            return _parse(text, path)
        except ValueError as exc:
            raise ProfilesDamaged(path, str(exc)) from None

    def _write(self, content: _ProfilesFile) -> None:
        document = {
            "version": FILE_FORMAT_VERSION,
            "active_profile": content.active_id,
            "profiles": [profile.to_json() for profile in content.profiles],
        }
        try:
            write_atomically(self.path, json.dumps(document, indent=2) + "\n")
        except OSError as exc:
            raise ConfigError(
                f"Could not save the workspace list to {self.path}: {exc.strerror or exc}."
            ) from None


def _same_name(a: str, b: str) -> bool:
    return a.strip().casefold() == b.strip().casefold()


def _same_address(a: str, b: str) -> bool:
    try:
        return normalize_base_url(a).lower() == normalize_base_url(b).lower()
    except ValueError:
        return False


def _keep_copy(path: Path) -> Path:
    """Copy a damaged file to `<name>.damaged-<UTC timestamp>` before it is replaced."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    counter = 1
    while target.exists():
        target = path.with_name(f"{path.name}.damaged-{stamp}-{counter}")
        counter += 1
    try:
        shutil.copy2(path, target)
    except OSError as exc:
        raise ConfigError(
            f"The workspace list {path} is damaged and no copy of it could be kept "
            f"({exc.strerror or exc}); nothing was changed."
        ) from None
    return target


def _parse(text: str, path: Path) -> _ProfilesFile:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(document, dict):
        raise ValueError("it holds no list of workspaces")
    version = document.get("version", FILE_FORMAT_VERSION)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError(f"its format version {version!r} is not valid")
    if version > FILE_FORMAT_VERSION:
        return _parse_newer(document, ProfilesTooNew(path, version))
    if not isinstance(document.get("profiles"), list):
        raise ValueError("it holds no list of workspaces")
    profiles = [Profile.from_json(entry) for entry in document["profiles"]]
    ids = [profile.id for profile in profiles]
    if len(set(ids)) != len(ids):
        raise ValueError("two workspaces share an id")
    active = document.get("active_profile")
    return _ProfilesFile(profiles, active if isinstance(active, str) and active in ids else None)


def _parse_newer(document: dict[str, Any], too_new: ProfilesTooNew) -> _ProfilesFile:
    """As much as this version understands of a newer file: entries it cannot read are skipped."""
    profiles: list[Profile] = []
    entries = document.get("profiles")
    for entry in entries if isinstance(entries, list) else []:
        try:
            profile = Profile.from_json(entry)
        except ValueError:
            continue
        if all(existing.id != profile.id for existing in profiles):
            profiles.append(profile)
    active = document.get("active_profile")
    ids = {profile.id for profile in profiles}
    return _ProfilesFile(profiles, active if active in ids else None, too_new)
