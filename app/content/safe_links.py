"""Which links may leave Postdesk for the desktop's opener.

A server (or a post, or a title) can hand us any text as a URL: `file:///etc/passwd`, `smb://`,
`javascript:`... The desktop opener would act on all of them. Only web addresses leave the app.
"""

from __future__ import annotations

from urllib.parse import urlsplit

OPENABLE_SCHEMES = frozenset({"http", "https"})


def is_openable_url(url: str) -> bool:
    """True only for an absolute `http`/`https` URL with a host, and nothing hidden in it
    (control characters or whitespace, which openers and browsers read in different ways)."""
    if not isinstance(url, str) or not url or url != url.strip():
        return False
    if any(ord(char) < 0x20 or ord(char) == 0x7F or char.isspace() for char in url):
        return False
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return False
    return parts.scheme.lower() in OPENABLE_SCHEMES and bool(host)
