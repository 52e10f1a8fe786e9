"""Profiles, paths and base URLs (app.workspaces.profiles); XDG folders point into tmp_path."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from app.workspaces.profiles import (
    ConfigError,
    Paths,
    Profile,
    ProfileStore,
    normalize_base_url,
)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("example.com", "https://example.com/api"),
        ("  https://app.example.com/api/  ", "https://app.example.com/api"),
        ("https://app.example.com/api", "https://app.example.com/api"),
        ("HTTPS://Example.COM", "https://example.com/api"),
        ("http://localhost:8000", "http://localhost:8000/api"),
        ("localhost:8000", "https://localhost:8000/api"),
        ("http://127.0.0.1:8123/api", "http://127.0.0.1:8123/api"),
        ("http://[::1]:9000", "http://[::1]:9000/api"),
        ("https://example.com/social", "https://example.com/social/api"),
        ("https://example.com/social/api//", "https://example.com/social/api"),
    ],
)
def test_base_urls_are_normalized(typed: str, expected: str) -> None:
    assert normalize_base_url(typed) == expected


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("", "Enter the address"),
        ("   ", "Enter the address"),
        ("ftp://example.com", "https://"),
        ("https://exa mple.com", "spaces"),
        ("https://", "does not look like"),
        ("https://-bad-.com", "does not look like"),
        ("https://example.com:99999", "port"),
        ("https://example.com/api?key=1", "'?'"),
        ("https://user:pw@example.com", "password"),
        ("!!!", "does not look like"),
    ],
)
def test_junk_base_urls_are_refused_in_words(typed: str, words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        normalize_base_url(typed)


def test_a_profile_knows_its_server_zone() -> None:
    profile = Profile.create("Acme", "acme.example", "Europe/Berlin")

    assert profile.base_url == "https://acme.example/api"
    assert profile.server_tz.key == "Europe/Berlin"
    assert Profile.create("Acme", "acme.example").server_tz.key == "UTC"
    assert profile.id != Profile.create("Acme", "acme.example").id


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"server_timezone": "Mars/Olympus"}, "Unknown time zone"),
        ({"name": "  "}, "needs a name"),
        ({"id": "../escape"}, "Invalid profile id"),
    ],
)
def test_invalid_profiles_are_refused(fields: dict[str, str], words: str) -> None:
    values = {"id": "p1", "name": "Acme", "server_timezone": "UTC", **fields}
    with pytest.raises(ValueError, match=words):
        Profile(values["id"], values["name"], "https://a.example/api", values["server_timezone"])


def test_paths_follow_the_xdg_variables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "conf"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    paths = Paths()

    assert paths.config_dir == tmp_path / "conf" / "postdesk"
    assert paths.data_dir == tmp_path / "data" / "postdesk"
    assert paths.cache_dir == tmp_path / "cache" / "postdesk"
    assert paths.profile_db("abc") == tmp_path / "data" / "postdesk" / "workspaces" / "abc.sqlite3"
    assert ProfileStore(paths).path == tmp_path / "conf" / "postdesk" / "profiles.json"

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "elsewhere"))
    assert paths.config_dir == tmp_path / "elsewhere" / "postdesk"


def test_profile_db_refuses_ids_that_escape_the_folder() -> None:
    with pytest.raises(ValueError, match="Invalid profile id"):
        Paths().profile_db("../../etc/passwd")


def test_profiles_round_trip_and_active_profile() -> None:
    store = ProfileStore()
    assert store.load() == []
    assert store.active_id is None

    acme = Profile.create("Acme", "acme.example", "Europe/Berlin")
    demo = Profile.create("Demo", "http://127.0.0.1:9000", is_demo=True)
    store.add(acme)
    store.add(demo)
    store.active_id = demo.id

    again = ProfileStore()
    assert again.load() == [acme, demo]
    assert again.active_id == demo.id
    assert again.active() == demo
    assert again.get(acme.id) == acme
    assert again.load()[1].is_demo is True


def test_update_remove_and_the_active_profile() -> None:
    store = ProfileStore()
    acme = Profile.create("Acme", "acme.example")
    other = Profile.create("Other", "other.example")
    store.save([acme, other])
    store.active_id = acme.id

    renamed = Profile(acme.id, "Acme Inc.", acme.base_url, "Asia/Tokyo")
    store.update(renamed)
    assert store.load() == [renamed, other]

    store.remove(acme.id)
    assert store.load() == [other]
    assert store.active_id is None  # the active workspace is gone


def test_duplicates_and_unknown_ids_are_refused() -> None:
    store = ProfileStore()
    acme = Profile.create("Acme", "acme.example")
    store.add(acme)

    with pytest.raises(ValueError, match="already exists"):
        store.add(acme)
    with pytest.raises(KeyError):
        store.active_id = "nope"
    with pytest.raises(KeyError):
        store.update(Profile.create("Ghost", "ghost.example"))


def test_the_file_holds_no_key_and_no_temp_files_stay_behind() -> None:
    store = ProfileStore()
    store.add(Profile.create("Acme", "acme.example"))
    store.add(Profile.create("Other", "other.example"))

    document = json.loads(store.path.read_text(encoding="utf-8"))
    assert set(document["profiles"][0]) == {
        "id",
        "name",
        "base_url",
        "server_timezone",
        "is_demo",
    }
    assert [entry.name for entry in store.path.parent.iterdir()] == ["profiles.json"]


def test_a_failed_write_leaves_the_previous_file_intact(monkeypatch: pytest.MonkeyPatch) -> None:
    store = ProfileStore()
    acme = Profile.create("Acme", "acme.example")
    store.add(acme)
    before = store.path.read_bytes()

    def disk_full(source: str, target: str) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patched:
        patched.setattr(os, "replace", disk_full)
        with pytest.raises(ConfigError, match="No space left on device"):
            store.add(Profile.create("Other", "other.example"))

    assert store.path.read_bytes() == before
    assert [entry.name for entry in store.path.parent.iterdir()] == ["profiles.json"]
    assert store.load() == [acme]


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        '{"profiles": "nope"}',
        '{"version": 1, "profiles": [{"id": "p1", "name": "No URL"}]}',
        '{"version": 1, "profiles": [{"id": "p1", "name": "A", "base_url": "x", '
        '"server_timezone": "Nowhere/City"}]}',
        '{"version": 99, "profiles": []}',
    ],
)
def test_a_corrupt_file_is_moved_aside_and_reported(content: str) -> None:
    store = ProfileStore()
    store.path.parent.mkdir(parents=True, exist_ok=True)
    store.path.write_text(content, encoding="utf-8")

    with pytest.raises(ConfigError) as caught:
        store.load()

    moved = [p for p in store.path.parent.iterdir() if p.name.startswith("profiles.json.corrupt-")]
    assert len(moved) == 1
    assert moved[0].read_text(encoding="utf-8") == content
    assert moved[0].name in str(caught.value)
    assert "damaged" in str(caught.value)
    assert not store.path.exists()
    # The app carries on with an empty list and can save again.
    assert store.load() == []
    store.add(Profile.create("Acme", "acme.example"))
    assert len(store.load()) == 1


def test_an_active_id_that_no_longer_exists_reads_as_none() -> None:
    store = ProfileStore()
    acme = Profile.create("Acme", "acme.example")
    store.path.parent.mkdir(parents=True, exist_ok=True)
    store.path.write_text(
        json.dumps({"version": 1, "active_profile": "gone", "profiles": [acme.to_json()]}),
        encoding="utf-8",
    )

    assert store.active_id is None
    assert store.load() == [acme]
