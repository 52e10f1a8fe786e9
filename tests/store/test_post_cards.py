"""Calendar cards: built from the post, stored beside the body, read back without pydantic."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from app.calendar.post_card import CardLabel, StaleCard, card_from_json, card_of, card_to_json
from app.store import WorkspaceCache
from tests.store.factories import make_account, make_label, make_post, raw_post

BERLIN = ZoneInfo("Europe/Berlin")
MARCH = (datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 4, 1, tzinfo=UTC))


def two_destination_post() -> dict[str, object]:
    raw = raw_post(
        "p1",
        scheduled_at="2026-03-29 01:30:00",
        content="<p>Spring <b>menu</b> &amp; more</p><p>second line</p>",
        label_ids=("launch",),
    )
    second = dict(raw["platforms"][0])  # type: ignore[index]
    second.update(
        id="pp-2",
        platform="linkedin",
        display_name="Acme Inc",
        social_account={"id": "acc-li", "platform": "linkedin", "display_name": "Acme Inc"},
    )
    disabled = dict(second, id="pp-3", platform="threads", enabled=False)
    raw["platforms"] = [*raw["platforms"], second, disabled]  # type: ignore[misc]
    return raw


def test_a_card_holds_what_the_calendar_draws() -> None:
    post = make_post(**{k: v for k, v in two_destination_post().items() if k != "id"})
    card = card_of(post)

    assert card.summary == "Spring menu & more"
    assert card.platform == "x"
    assert card.account_text == "Acme +1"
    assert card.networks == ("x", "linkedin")  # the disabled threads entry is not a destination
    assert card.account_ids == ("acc-x", "acc-li")
    assert card.labels == (CardLabel("launch", "Launch", "#112233"),)
    assert card.scheduled_at == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)


def test_a_card_survives_json_exactly_across_a_dst_change() -> None:
    post = make_post("p", scheduled_at="2026-03-29 03:30:00", server_tz=BERLIN)
    card = card_of(post)

    again = card_from_json(card_to_json(card))

    assert again == card
    assert again.scheduled_at == post.scheduled_at  # 01:30 UTC, the same instant
    undated = card_of(make_post("d", scheduled_at=None, status="draft", content=None))
    assert card_from_json(card_to_json(undated)) == undated
    assert undated.summary == "(no text)"


@pytest.mark.parametrize("text", ["", "not json", "[]", '{"v": 99}', '{"v": 1, "id": "x"}'])
def test_a_card_that_cannot_be_read_is_stale(text: str) -> None:
    with pytest.raises(StaleCard):
        card_from_json(text)


def test_the_cache_serves_cards_in_the_same_order_and_with_the_same_filters(
    tmp_path: Path,
) -> None:
    with WorkspaceCache(tmp_path / "c.sqlite3") as cache:
        cache.replace_all_posts(
            [
                make_post("b", scheduled_at="2026-03-12 09:00:00", account_id="acc-2"),
                make_post("a", scheduled_at="2026-03-11 09:00:00", label_ids=("news",)),
                make_post("d", scheduled_at=None, status="draft"),
            ]
        )
        start, end = MARCH

        assert [c.id for c in cache.cards_between(start, end)] == ["a", "b"]
        assert [c.id for c in cache.cards_between(start, end, account_ids=["acc-2"])] == ["b"]
        assert [c.id for c in cache.cards_between(start, end, label_ids=["news"])] == ["a"]
        cards = cache.cards_between(start, end)
        assert cards == [card_of(post) for post in cache.posts(card.id for card in cards)]
        assert [c.id for c in cache.unscheduled_cards()] == ["d"]


def test_rows_cached_before_cards_existed_still_show_and_get_their_card(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    with WorkspaceCache(path) as cache:
        cache.replace_all_posts([make_post("a", scheduled_at="2026-03-11 09:00:00")])
    with sqlite3.connect(path) as db:
        db.execute("UPDATE posts SET card = NULL")

    with WorkspaceCache(path) as cache:
        assert [c.id for c in cache.cards_between(*MARCH)] == ["a"]  # built from the body
        # The same body arriving again is still written, so the card lands.
        assert cache.replace_all_posts([make_post("a", scheduled_at="2026-03-11 09:00:00")])
    with sqlite3.connect(path) as db:
        (card,) = db.execute("SELECT card FROM posts WHERE id = 'a'").fetchone()
    assert card_from_json(card).id == "a"


def test_filter_choices_read_like_the_models(tmp_path: Path) -> None:
    accounts = [
        make_account("a1", display_name="Café Nord", username="cafenord"),
        make_account("a2", "linkedin", display_name=None, username=None),
    ]
    labels = [make_label("l1", name="Launch")]
    with WorkspaceCache(tmp_path / "c.sqlite3") as cache:
        cache.store_full_refresh(accounts, labels, [])

        choices = cache.account_choices()

        assert [(c.id, c.platform, c.label) for c in choices] == [
            (a.id, a.platform, a.label) for a in cache.accounts()
        ]
        assert choices[0].label == "Café Nord (@cafenord)"
        assert choices[1].label == "a2"
        assert cache.label_choices() == [CardLabel("l1", "Launch", "#abcdef")]


def test_the_calendar_reads_the_cache_without_importing_pydantic(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    with WorkspaceCache(path) as cache:
        cache.store_full_refresh(
            [make_account("a1")], [], [make_post("a", scheduled_at="2026-03-11 09:00:00")]
        )
    probe = (
        "import sys\n"
        "from datetime import UTC, datetime\n"
        "from pathlib import Path\n"
        "from app.store import WorkspaceCache\n"
        f"cache = WorkspaceCache(Path({str(path)!r}))\n"
        "start, end = datetime(2026, 3, 1, tzinfo=UTC), datetime(2026, 4, 1, tzinfo=UTC)\n"
        "assert [c.id for c in cache.cards_between(start, end)] == ['a']\n"
        "assert [c.id for c in cache.account_choices()] == ['a1']\n"
        "cache.unscheduled_cards(); cache.label_choices()\n"
        "assert 'pydantic' not in sys.modules, 'pydantic was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_cards_just_stored_are_read_back_without_parsing_them_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import app.store.workspace_cache as workspace_cache

    post = make_post("a", scheduled_at="2026-03-11 09:00:00")
    with WorkspaceCache(tmp_path / "c.sqlite3") as cache:
        cache.replace_all_posts([post])

        def never(text: str) -> object:
            raise AssertionError("a card stored by this process was parsed again")

        monkeypatch.setattr(workspace_cache, "card_from_json", never)

        assert cache.cards_between(*MARCH) == [card_of(post)]


@pytest.mark.parametrize("version", [1, 2])
def test_a_card_is_stored_as_an_array_and_older_object_cards_become_arrays_on_open(
    tmp_path: Path, version: int
) -> None:
    path = tmp_path / "c.sqlite3"
    post = make_post("a", scheduled_at="2026-03-11 09:00:00")
    with WorkspaceCache(path) as cache:
        cache.replace_all_posts([post])
    card = card_of(post)
    at = card.scheduled_at.isoformat() if card.scheduled_at else None
    older = {
        "v": version,
        "id": "a",
        "status": card.status,
        "at": at,
        "out": None,
        "summary": card.summary,
        "platform": card.platform,
        "account": card.account_text,
        "networks": list(card.networks),
        "accounts": list(card.account_ids),
        "labels": [],
    }
    if version == 1:
        del older["out"]  # version 1 had no published_at
    with sqlite3.connect(path) as db:
        (stored,) = db.execute("SELECT card FROM posts WHERE id = 'a'").fetchone()
        # No keys to parse: faster to read (the start reads ~1,300 before its first paint).
        assert json.loads(stored)[0] == 4
        db.execute("UPDATE posts SET card = ?, body = 'not a body'", (json.dumps(older),))
        db.execute("PRAGMA user_version = 4")  # as a Postdesk before schema step 5 left it

    with WorkspaceCache(path) as cache:  # the body would not decode: the card alone is read
        assert cache.cards_between(*MARCH) == [card]
    with sqlite3.connect(path) as db:
        (stored,) = db.execute("SELECT card FROM posts WHERE id = 'a'").fetchone()
    assert card_from_json(stored) == card  # an array now: read with no object reader at all


def test_a_card_the_schema_step_cannot_convert_is_dropped_and_rebuilt_from_the_body(
    tmp_path: Path,
) -> None:
    path = tmp_path / "c.sqlite3"
    post = make_post("a", scheduled_at="2026-03-11 09:00:00")
    with WorkspaceCache(path) as cache:
        cache.replace_all_posts([post])
    with sqlite3.connect(path) as db:
        db.execute("""UPDATE posts SET card = '{"v": 2, "id": "a"}'""")
        db.execute("PRAGMA user_version = 4")

    with WorkspaceCache(path) as cache:
        assert cache.cards_between(*MARCH) == [card_of(post)]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT card FROM posts").fetchone() == (None,)
