"""Which words spell checking looks at, the checker's answers and the workspace's settings file."""

from __future__ import annotations

from pathlib import Path

from app.content.spelling import (
    SpellChecker,
    available_dictionaries,
    language_for_locale,
    load_dictionary,
    words_to_check,
)
from app.content.spelling_settings import SpellingSettings, spelling_settings_path


def checked(text: str) -> list[str]:
    return [span.word for span in words_to_check(text)]


def test_names_links_and_tags_are_never_checked() -> None:
    text = (
        "Thsi #SprngSale @someonne @ann@mastodon.socail https://exmaple.com/pathh "
        "www.exmaple.org shop.exmaple.com/x foo@barr.com $AAPLL 10am NASA snake_case"
    )
    assert checked(text) == ["Thsi"]


def test_positions_point_at_the_words() -> None:
    text = "An #tag then wrod’s end"
    spans = list(words_to_check(text))
    assert [(s.word, text[s.start : s.start + s.length]) for s in spans] == [
        ("An", "An"),
        ("then", "then"),
        ("wrod’s", "wrod’s"),
        ("end", "end"),
    ]


def test_checker_knows_words_apostrophes_and_the_users_own() -> None:
    dictionary = load_dictionary(available_dictionaries()["en_US"])
    checker = SpellChecker(dictionary, ["Postdesk"])
    assert checker.check("tomorrow")
    assert checker.check("don’t")  # the typographic apostrophe
    assert not checker.check("tomorow")
    assert checker.check("postdesk")
    assert checker.check("livestream")  # a word of the trade
    checker.add_word("Frobnicate")
    assert checker.check("frobnicate")
    assert "tomorrow" in checker.suggestions("tomorow")


def test_language_follows_the_locale() -> None:
    codes = ["en_US", "de_DE", "de_AT", "sv_SE"]
    assert language_for_locale("de_AT.UTF-8", codes) == "de_AT"
    assert language_for_locale("de-CH", codes) == "de_AT"
    assert language_for_locale("sv", codes) == "sv_SE"
    assert language_for_locale("fr_FR", codes) == "en_US"


def test_settings_round_trip_and_a_damaged_file(tmp_path: Path) -> None:
    path = spelling_settings_path(tmp_path / "ws1.local.sqlite3")
    assert path.name == "ws1.spelling.json"
    settings = SpellingSettings.load(path)
    settings.language = "sv_SE"
    settings.add_word("Postdesk")
    again = SpellingSettings.load(path)
    assert (again.language, again.words, again.enabled) == ("sv_SE", ["Postdesk"], True)
    path.write_text("{not json", encoding="utf-8")
    broken = SpellingSettings.load(path)
    assert broken.words == []
    assert "could not be read" in broken.problem
