"""GET /social-accounts/{id}/instagram-audio: matching, trending, cache and the lookup limit."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.sandbox.clock import ManualClock
from app.sandbox.harness import SandboxServer

from .conftest import client_for

START = datetime(2030, 5, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def audio_server(tmp_path: Path, clock: ManualClock) -> Iterator[SandboxServer]:
    with SandboxServer(tmp_path / "audio.db", now=clock) as server:
        yield server


@pytest.fixture
def audio(audio_server: SandboxServer) -> Iterator[httpx.Client]:
    with client_for(audio_server) as client:
        yield client


def _search(client: httpx.Client, server: SandboxServer, **params: str) -> httpx.Response:
    account = server.store.account_id("instagram-facebook")
    return client.get(f"/social-accounts/{account}/instagram-audio", params=params)


def _titles(response: httpx.Response) -> list[str]:
    assert response.status_code == 200, response.text
    return [item["title"] for item in response.json()]


def test_asset_shape(audio: httpx.Client, audio_server: SandboxServer) -> None:
    items: list[dict[str, Any]] = _search(audio, audio_server, q="cafe del mar").json()
    assert items
    for item in items:
        assert set(item) == {
            "id", "type", "title", "artist", "cover_url", "duration_ms", "preview_url",
        }  # fmt: skip
        assert item["id"].isdigit()
        assert item["type"] in ("music", "original_sound")
        assert item["cover_url"].startswith("https://cdn.example.invalid/")
        assert item["preview_url"].startswith("https://cdn.example.invalid/")


def test_accents_and_case_are_ignored(audio: httpx.Client, audio_server: SandboxServer) -> None:
    plain = _titles(_search(audio, audio_server, q="cafe", type="music"))
    accented = _titles(_search(audio, audio_server, q="CAFÉ", type="music"))
    assert plain == accented
    assert "Café del Mar Sunrise" in plain
    assert "Café Noir" in plain
    assert _titles(_search(audio, audio_server, q="sigur ros", type="music")) == [
        "Hoppípolla Dawn",
        "Ágætis Byrjun Reprise",
        "Náttúra",
    ]
    assert _titles(_search(audio, audio_server, q="agaetis", type="music")) == [
        "Ágætis Byrjun Reprise"
    ]


def test_every_word_must_match_title_or_artist(
    audio: httpx.Client, audio_server: SandboxServer
) -> None:
    assert _titles(_search(audio, audio_server, q="cafe noir", type="music")) == ["Café Noir"]
    assert _titles(_search(audio, audio_server, q="beyonce", type="music")) == [
        "Crazy in Lisbon",
        "Déjà Vu at Noon",
        "Halo Über Alles",
    ]
    assert _titles(_search(audio, audio_server, q="cafe zebra", type="music")) == []
    # Reading of the spec: all words within the title, or all within the artist.
    assert _titles(_search(audio, audio_server, q="beyonce halo", type="music")) == []


def test_original_sounds_match_the_same_way(
    audio: httpx.Client, audio_server: SandboxServer
) -> None:
    titles = _titles(_search(audio, audio_server, q="Beyoncé", type="original_sound"))
    assert titles == ["Beyoncé dance trend audio"]
    by_creator = _search(audio, audio_server, q="jose", type="original_sound").json()
    assert [i["artist"] for i in by_creator] == ["café.josé"]


def test_without_type_music_comes_first(audio: httpx.Client, audio_server: SandboxServer) -> None:
    items = _search(audio, audio_server, q="cafe del mar").json()
    types = [i["type"] for i in items]
    assert types == sorted(types)  # "music" < "original_sound"
    assert "music" in types
    assert "original_sound" in types


def test_no_query_lists_trending(audio: httpx.Client, audio_server: SandboxServer) -> None:
    items = _search(audio, audio_server).json()
    assert items[0]["title"] == "Café del Mar Sunrise"
    assert [i["type"] for i in items] == sorted(i["type"] for i in items)
    music = [i for i in items if i["type"] == "music"]
    assert len(music) == 10
    originals = _search(audio, audio_server, type="original_sound").json()
    assert originals[0]["title"] == "Original audio"
    assert {i["type"] for i in originals} == {"original_sound"}


def test_invalid_parameters(audio: httpx.Client, audio_server: SandboxServer) -> None:
    too_long = _search(audio, audio_server, q="a" * 101)
    assert too_long.status_code == 422
    assert set(too_long.json()) == {"message"}
    assert _search(audio, audio_server, q="a" * 100).status_code == 200
    bad_type = _search(audio, audio_server, type="sound")
    assert bad_type.status_code == 422
    assert set(bad_type.json()) == {"message"}


def test_only_instagram_facebook_accounts(audio: httpx.Client, audio_server: SandboxServer) -> None:
    instagram = audio_server.store.account_id("instagram")
    x = audio_server.store.account_id("x")
    first = audio.get(f"/social-accounts/{instagram}/instagram-audio")
    second = audio.get(f"/social-accounts/{x}/instagram-audio")
    assert first.status_code == second.status_code == 422
    assert first.json()["message"] != second.json()["message"]
    assert "instagram-facebook" in first.json()["message"]
    assert audio_server.store.audio_lookup_count() == 0


def test_cache_is_free_and_lasts_ten_minutes(
    audio: httpx.Client, audio_server: SandboxServer, clock: ManualClock
) -> None:
    store = audio_server.store
    first = _search(audio, audio_server, q="latte")
    assert store.audio_lookup_count() == 1
    assert _search(audio, audio_server, q="latte").json() == first.json()
    assert store.audio_lookup_count() == 1
    # Cache key includes type: a typed query is a separate lookup.
    _search(audio, audio_server, q="latte", type="music")
    assert store.audio_lookup_count() == 2
    clock.advance(timedelta(minutes=9, seconds=59))
    _search(audio, audio_server, q="latte")
    assert store.audio_lookup_count() == 2
    clock.advance(timedelta(seconds=2))
    _search(audio, audio_server, q="latte")
    assert store.audio_lookup_count() == 3


def test_thirty_uncached_lookups_per_minute(
    audio: httpx.Client, audio_server: SandboxServer, clock: ManualClock
) -> None:
    for n in range(30):
        assert _search(audio, audio_server, q=f"word{n}").status_code == 200
        clock.advance(timedelta(seconds=1))
    # 30 s after the first lookup: 30 more seconds until it leaves the window.
    limited = _search(audio, audio_server, q="one more")
    assert limited.status_code == 429
    assert limited.headers["Retry-After"] == "30"
    assert "message" in limited.json()
    # Cached answers stay free while limited.
    assert _search(audio, audio_server, q="word3").status_code == 200
    clock.advance(timedelta(seconds=29))
    assert _search(audio, audio_server, q="one more").headers["Retry-After"] == "1"
    clock.advance(timedelta(seconds=1))
    assert _search(audio, audio_server, q="one more").status_code == 200


def test_limit_is_per_workspace(
    audio: httpx.Client, audio_server: SandboxServer, clock: ManualClock
) -> None:
    for n in range(30):
        _search(audio, audio_server, q=f"w{n}")
    assert _search(audio, audio_server, q="again").status_code == 429
    other_account = audio_server.store.accounts(audio_server.other_workspace_id)
    ig = next(a["id"] for a in other_account if a["platform"] == "instagram-facebook")
    with client_for(audio_server, audio_server.keys.other_admin) as other:
        assert other.get(f"/social-accounts/{ig}/instagram-audio").status_code == 200


def test_upstream_failure_is_502(audio: httpx.Client, audio_server: SandboxServer) -> None:
    audio_server.store.audio_upstream_failing = True
    response = _search(audio, audio_server, q="latte")
    assert response.status_code == 502
    assert set(response.json()) == {"message"}
    audio_server.store.audio_upstream_failing = False
    # The failure was not cached.
    assert _search(audio, audio_server, q="latte").status_code == 200
