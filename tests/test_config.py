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
    ProfilesDamaged,
    ProfilesReadOnly,
    ProfilesTooNew,
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


def write_file(store: ProfileStore, content: str | bytes) -> None:
    store.path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        store.path.write_bytes(content)
    else:
        store.path.write_text(content, encoding="utf-8")


def folder_listing(store: ProfileStore) -> list[str]:
    return sorted(p.name for p in store.path.parent.iterdir())


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{not json", "not valid JSON"),
        ('{"profiles": "nope"}', "no list of workspaces"),
        ('{"version": 1, "profiles": [{"id": "p1", "name": "No URL"}]}', "'base_url'"),
        (
            '{"version": 1, "profiles": [{"id": "p1", "name": "A", "base_url": "x", '
            '"server_timezone": "Nowhere/City"}]}',
            "Unknown time zone",
        ),
        ('{"version": "two", "profiles": []}', "format version 'two'"),
        (b"\xff\xfe{}", "not text"),
    ],
)
def test_a_damaged_file_is_reported_and_never_moved_by_reading(
    content: str | bytes, reason: str
) -> None:
    store = ProfileStore()
    write_file(store, content)
    before = store.path.read_bytes()

    for _ in range(2):
        with pytest.raises(ProfilesDamaged) as caught:
            store.load()
        assert caught.value.path == store.path
        assert reason in caught.value.reason
        assert str(store.path) in str(caught.value)
        assert "left as it is" in str(caught.value)
        assert isinstance(store.notice(), ProfilesDamaged)
        assert store.active_id is None  # the start-up path asks this too: no exception
        assert store.active() is None
        assert folder_listing(store) == ["profiles.json"]
        assert store.path.read_bytes() == before


def test_the_first_change_keeps_a_copy_of_a_damaged_file() -> None:
    store = ProfileStore()
    write_file(store, "{not json")

    store.add(Profile.create("Acme", "acme.example"))

    names = folder_listing(store)
    assert len(names) == 2
    kept = store.path.with_name(next(n for n in names if n.startswith("profiles.json.damaged-")))
    assert kept.read_text(encoding="utf-8") == "{not json"
    assert [p.name for p in store.load()] == ["Acme"]
    assert store.notice() is None


NEWER = {
    "version": 7,
    "active_profile": "p2",
    "profiles": [
        {"id": "p1", "name": "Acme", "base_url": "https://acme.example/api", "colour": "red"},
        {"id": "p2", "name": "Beta", "base_url": "https://beta.example/api"},
        {"id": "p3", "kind": "something new"},
    ],
    "vaults": {"p1": "elsewhere"},
}


def test_a_newer_file_is_used_read_only_and_never_rewritten() -> None:
    store = ProfileStore()
    write_file(store, json.dumps(NEWER))
    before = store.path.read_bytes()

    assert [p.id for p in store.load()] == ["p1", "p2"]
    assert store.active_id == "p2"
    notice = store.notice()
    assert isinstance(notice, ProfilesTooNew)
    assert notice.version == 7
    assert "newer Postdesk (format 7)" in str(notice)
    changes = [
        lambda: store.add(Profile.create("Gamma", "gamma.example")),
        lambda: store.remove("p1"),
        lambda: store.update(Profile("p1", "Renamed", "https://acme.example/api")),
        lambda: store.save([]),
        lambda: store.upsert_by_address("Acme", "acme.example"),
    ]
    for change in changes:
        with pytest.raises(ProfilesReadOnly, match="newer Postdesk"):
            change()
    store.active_id = "p1"  # switching workspaces works, for this run only
    assert store.active_id == "p1"
    assert store.active() == store.load()[0]
    assert ProfileStore().active_id == "p2"  # the next run reads the file as it was
    with pytest.raises(KeyError):
        store.active_id = "p3"
    assert store.path.read_bytes() == before
    assert folder_listing(store) == ["profiles.json"]


def test_reconnecting_the_same_address_and_name_updates_the_workspace() -> None:
    store = ProfileStore()
    first = store.upsert_by_address("Acme", "acme.example")
    other = store.upsert_by_address("Acme Staging", "acme.example")
    again = store.upsert_by_address(" acme ", "https://ACME.example/api/", "Europe/Berlin")

    assert again.id == first.id
    assert again.server_timezone == "Europe/Berlin"
    assert other.id != first.id
    assert [(p.name, p.server_timezone) for p in store.load()] == [
        ("Acme", "Europe/Berlin"),
        ("Acme Staging", "UTC"),
    ]
    with pytest.raises(ValueError, match="time zone"):
        store.upsert_by_address("Acme", "acme.example", "Mars/Base")


def test_the_demo_is_not_reused_for_a_real_workspace() -> None:
    store = ProfileStore()
    demo = Profile.create("Demo", "http://127.0.0.1:9/api", is_demo=True)
    store.add(demo)
    real = store.upsert_by_address("Demo", "http://127.0.0.1:9/api")
    assert real.id != demo.id
    assert len(store.load()) == 2


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
