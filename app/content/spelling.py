"""Spell checking of post text: which words to check, and a cached checker over a Hunspell
dictionary read by spylls (pure Python; en_US ships inside it, any other Hunspell dictionary the
system has in its usual folders is offered too).

Hashtags, cashtags, mentions (also Mastodon's @user@server), e-mail addresses, URLs and bare
domains, words with digits or underscores and words in capitals are never checked: they are
names, not spelling. Lookups are cached per word; suggestions are slow (spylls needs ~0.5 s for
one word) and are only asked for on demand.
"""

from __future__ import annotations

import importlib.util
import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

DEFAULT_LANGUAGE = "en_US"

# Folders where Linux distributions put Hunspell dictionaries (Debian: hunspell-de-de, ...).
SYSTEM_DICTIONARY_FOLDERS = (
    Path("/usr/share/hunspell"),
    Path("/usr/share/myspell"),
    Path("/usr/share/myspell/dicts"),
)

# One pass over the text: the alternatives before `word` swallow what must not be checked.
_TOKENS = re.compile(
    r"(?P<url>(?:https?://|www\.)\S+"
    r"|\b[\w-]+(?:\.[\w-]+)*\.[a-zA-Z]{2,}/\S*"
    r"|\b[\w-]+(?:\.[\w-]+)+\.(?:com|org|net|io|dev|app|co|uk|de|fr|social|ly|me)\b"
    r"|\b[\w-]+\.(?:com|org|net|io|dev|app|co|social|ly|me)\b)"
    r"|(?P<email>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)"
    r"|(?P<tag>[#$@][\w.@-]*\w)"
    r"|(?P<word>\w+(?:['’-]\w+)*)"
)
_DIGIT_OR_UNDERSCORE = re.compile(r"[\d_]")

# Words of the trade a general dictionary lacks; the user's own dictionary adds the rest.
SOCIAL_WORDS = frozenset(
    [
        "livestream",
        "livestreams",
        "livestreaming",
        "onboarding",
        "influencer",
        "influencers",
        "vlog",
        "vlogs",
        "vlogger",
        "webinar",
        "webinars",
        "retweet",
        "retweets",
        "repost",
        "reposts",
        "reposted",
        "unfollow",
        "unfollowed",
        "selfie",
        "selfies",
        "hashtag",
        "hashtags",
        "emoji",
        "emojis",
        "podcast",
        "podcasts",
        "podcaster",
        "giveaway",
        "giveaways",
        "scrollable",
        "analytics",
        "workflow",
        "workflows",
        "signup",
        "signups",
        "login",
        "logins",
        "newsletter",
        "newsletters",
        "ok",
    ]
)


@dataclass(frozen=True)
class WordSpan:
    start: int
    length: int
    word: str


def words_to_check(text: str) -> Iterator[WordSpan]:
    """The words of `text` worth checking, with their positions (in Python characters)."""
    for match in _TOKENS.finditer(text):
        word = match.group("word")
        if word is None or len(word) < 2:
            continue
        if _DIGIT_OR_UNDERSCORE.search(word) or word.isupper():
            continue
        yield WordSpan(match.start(), len(word), word)


def normalise(word: str) -> str:
    return word.replace("’", "'").strip("'-")


class Dictionary(Protocol):
    def lookup(self, word: str) -> bool: ...

    def suggest(self, word: str) -> Iterator[str]: ...


def bundled_dictionary_folder() -> Path | None:
    spec = importlib.util.find_spec("spylls")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "hunspell" / "data"


def available_dictionaries(
    extra_folders: Iterable[Path] = SYSTEM_DICTIONARY_FOLDERS,
) -> dict[str, Path]:
    """Language code (`en_US`) -> the dictionary's path without its .aff/.dic suffix."""
    found: dict[str, Path] = {}
    bundled = bundled_dictionary_folder()
    folders = [*extra_folders]
    if bundled is not None:
        folders.extend(sorted(p for p in bundled.iterdir() if p.is_dir()))
    for folder in folders:
        if not folder.is_dir():
            continue
        for aff in sorted(folder.glob("*.aff")):
            if aff.with_suffix(".dic").is_file():
                found.setdefault(aff.stem, aff.with_suffix(""))
    return found


def language_for_locale(locale_name: str, available: Iterable[str]) -> str:
    """The dictionary for a locale name like `de_DE.UTF-8` or `pt-BR`: the same language and
    country, else the same language, else English (US)."""
    codes = list(available)
    wanted = locale_name.split(".")[0].replace("-", "_")
    if wanted in codes:
        return wanted
    language = wanted.split("_")[0].lower()
    same = sorted(c for c in codes if c.split("_")[0].lower() == language)
    if same:
        return same[0]
    return DEFAULT_LANGUAGE if DEFAULT_LANGUAGE in codes or not codes else codes[0]


def load_dictionary(path: Path) -> Dictionary:
    """Read a Hunspell dictionary (hundreds of milliseconds: call it off the GUI thread).

    The files are read whole and closed at once: spylls' own file reader leaves them open."""
    from spylls.hunspell import Dictionary as SpyllsDictionary
    from spylls.hunspell import readers
    from spylls.hunspell.readers.file_reader import BaseReader

    class InMemoryReader(BaseReader):
        def __init__(self, file: Path, encoding: str = "Windows-1252") -> None:
            self.data = file.read_bytes()
            super().__init__(self._text(encoding))

        def reset_encoding(self, encoding: str) -> None:
            self.reset_io(self._text(encoding))

        def _text(self, encoding: str) -> io.StringIO:
            # surrogateescape: some dictionaries use bytes that are not valid in their encoding
            return io.StringIO(self.data.decode(encoding, errors="surrogateescape"))

    aff, context = readers.read_aff(InMemoryReader(path.with_suffix(".aff")))
    dic = readers.read_dic(
        InMemoryReader(path.with_suffix(".dic"), context.encoding), aff=aff, context=context
    )
    dictionary: Dictionary = SpyllsDictionary(aff, dic)
    return dictionary


class SpellChecker:
    """Answers "is this word right?" for one language plus the user's own words, caching every
    answer (the same words are looked at again on every keystroke)."""

    def __init__(self, dictionary: Dictionary, user_words: Iterable[str] = ()) -> None:
        self.dictionary = dictionary
        self._user = {w.casefold() for w in user_words}
        self._cache: dict[str, bool] = {}

    def cached(self, word: str) -> bool | None:
        return self._cache.get(word)

    def check(self, word: str) -> bool:
        known = self._cache.get(word)
        if known is None:
            known = self._check(normalise(word))
            self._cache[word] = known
        return known

    def _check(self, word: str) -> bool:
        if not word or word.casefold() in self._user or word.casefold() in SOCIAL_WORDS:
            return True
        try:
            return bool(self.dictionary.lookup(word))
        except Exception:  # a dictionary the reader trips over must not break typing
            return True

    def add_word(self, word: str) -> None:
        self._user.add(normalise(word).casefold())
        self._cache = {w: ok for w, ok in self._cache.items() if ok}

    def suggestions(self, word: str, limit: int = 5) -> list[str]:
        """Slow (up to a second): never on the GUI thread."""
        found: list[str] = []
        try:
            for suggestion in self.dictionary.suggest(normalise(word)):
                if suggestion not in found:
                    found.append(suggestion)
                if len(found) >= limit:
                    break
        except Exception:
            return found
        return found
