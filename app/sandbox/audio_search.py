"""Instagram audio search (§4 "GET /social-accounts/{account}/instagram-audio", §8 limits).

Matching reading of the spec: with `q`, an asset is kept when its title contains every word of
`q`, or its artist does (each compared without accents and case, as substrings). The spec states
it for music; original sounds are matched the same way on title/creator.
"""

from __future__ import annotations

import math
import unicodedata
from datetime import timedelta
from typing import Any

from app.sandbox.audio_catalog import CDN
from app.sandbox.clock import from_db, to_db
from app.sandbox.db import Db, Row, dumps, loads

Q_MAX = 100
TYPES = ("music", "original_sound")
CACHE_TTL = timedelta(minutes=10)
LOOKUP_WINDOW = timedelta(minutes=1)
LOOKUPS_PER_WINDOW = 30
RESULTS_PER_TYPE = 25
# Signed CDN links expire; the catalog hands out links valid for one hour.
LINK_TTL = timedelta(hours=1)

# Letters that NFKD does not split into base letter + accent.
_UNSPLITTABLE = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "ð": "d", "þ": "th", "ł": "l"})


def fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return stripped.translate(_UNSPLITTABLE)


def query_words(q: str) -> list[str]:
    return fold(q).split()


def matches(words: list[str], title: str, artist: str | None) -> bool:
    fields = [fold(title)] + ([fold(artist)] if artist else [])
    return any(all(word in field for word in words) for field in fields)


def _asset(row: Row, expires: int) -> dict[str, Any]:
    if row["type"] == "original_sound":
        cover = f"{CDN}/avatars/{row['artist']}.jpg?expires={expires}"
    else:
        cover = f"{CDN}/audio/covers/{row['id']}.jpg?expires={expires}"
    return {
        "id": row["id"],
        "type": row["type"],
        "title": row["title"],
        "artist": row["artist"],
        "cover_url": cover,
        "duration_ms": row["duration_ms"],
        "preview_url": f"{CDN}/audio/previews/{row['id']}.m4a?expires={expires}",
    }


def search(db: Db, audio_type: str | None, q: str | None) -> list[dict[str, Any]]:
    expires = math.floor((db.clock() + LINK_TTL).timestamp())
    results: list[dict[str, Any]] = []
    for kind in [audio_type] if audio_type else list(TYPES):
        if q is None:
            rows = db.all(
                "SELECT * FROM audio_assets WHERE type = ? AND trending_rank IS NOT NULL "
                "ORDER BY trending_rank LIMIT ?",
                (kind, RESULTS_PER_TYPE),
            )
        else:
            words = query_words(q)
            rows = [
                r
                for r in db.all(
                    "SELECT * FROM audio_assets WHERE type = ? ORDER BY popularity DESC, id",
                    (kind,),
                )
                if matches(words, r["title"], r["artist"])
            ][:RESULTS_PER_TYPE]
        results.extend(_asset(r, expires) for r in rows)
    return results


def cache_key(audio_type: str | None, q: str | None) -> tuple[str, str]:
    return audio_type or "", q or ""


def cached(db: Db, account_id: str, audio_type: str | None, q: str | None) -> Any:
    kind, text = cache_key(audio_type, q)
    row = db.one(
        "SELECT response FROM audio_cache WHERE account_id = ? AND type = ? AND q = ? "
        "AND expires_at > ?",
        (account_id, kind, text, db.now()),
    )
    return None if row is None else loads(row["response"])


def remember(db: Db, account_id: str, audio_type: str | None, q: str | None, response: Any) -> None:
    kind, text = cache_key(audio_type, q)
    db.run(
        "INSERT OR REPLACE INTO audio_cache (account_id, type, q, response, expires_at) "
        "VALUES (?, ?, ?, ?, ?)",
        (account_id, kind, text, dumps(response), to_db(db.clock() + CACHE_TTL)),
    )


def lookup_wait(db: Db, workspace_id: str) -> int | None:
    """Seconds until an uncached lookup is allowed again; None when one is allowed now."""
    now = db.clock()
    since = to_db(now - LOOKUP_WINDOW)
    rows = db.all(
        "SELECT at FROM audio_lookups WHERE workspace_id = ? AND at > ? ORDER BY at",
        (workspace_id, since),
    )
    if len(rows) < LOOKUPS_PER_WINDOW:
        return None
    frees_at = from_db(rows[len(rows) - LOOKUPS_PER_WINDOW]["at"]) + LOOKUP_WINDOW
    return max(1, math.ceil((frees_at - now).total_seconds()))


def record_lookup(db: Db, workspace_id: str) -> None:
    db.run("INSERT INTO audio_lookups (workspace_id, at) VALUES (?, ?)", (workspace_id, db.now()))


def track(db: Db, audio_id: str) -> dict[str, Any] | None:
    """One asset with links valid from now on; None for an unknown id."""
    if not audio_id.isdigit():
        return None
    row = db.one("SELECT * FROM audio_assets WHERE id = ?", (audio_id,))
    if row is None:
        return None
    return _asset(row, math.floor((db.clock() + LINK_TTL).timestamp()))
