"""Is the API key about to travel in clear? (issue 19 §4)

An `http://` base URL sends the key unencrypted in every request's `Authorization` header. On
this computer's own loopback nobody else can read it; anywhere else (a LAN address included)
they can. The connect dialog warns and asks before connecting; the status bar keeps saying it.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

UNENCRYPTED_STATUS = "not encrypted (http)"


def sends_key_in_clear(base_url: str) -> bool:
    """True for an `http://` URL whose host is not this computer's loopback."""
    try:
        parts = urlsplit(base_url.strip())
        host = parts.hostname
    except ValueError:
        return False
    if parts.scheme.lower() != "http" or not host:
        return False
    return not is_loopback_host(host)


def is_loopback_host(host: str) -> bool:
    name = host.strip("[]").lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def clear_text_warning(base_url: str) -> str:
    """The words shown at connect time for such a URL ("" when it is not one)."""
    if not sends_key_in_clear(base_url):
        return ""
    host = urlsplit(base_url.strip()).hostname
    return (
        f"This address uses http://, so the API key would be sent unencrypted to {host}: "
        "anyone on the network path can read it and use it. Use an https:// address if the "
        "server has one."
    )
