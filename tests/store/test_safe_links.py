"""Only http/https URLs may be handed to the desktop opener (issue 19 §4)."""

from __future__ import annotations

import pytest

from app.content.safe_links import is_openable_url


@pytest.mark.parametrize(
    "url",
    ["https://example.com/a.mp3", "http://cdn.example.org:8080/x?y=1#z", "HTTPS://EXAMPLE.COM/"],
)
def test_web_addresses_may_be_opened(url: str) -> None:
    assert is_openable_url(url)


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "smb://server/share",
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "data:text/html,<b>x</b>",
        "ftp://example.com/a",
        "https:///no-host",
        "https://",
        "//example.com/a",
        "/etc/passwd",
        "",
        " https://example.com/",
        "https://exa\nmple.com/",
        "https://example.com/\x00",
        "https://[::1/",
    ],
)
def test_anything_else_stays_in_the_app(url: str) -> None:
    assert not is_openable_url(url)
