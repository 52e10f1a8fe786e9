"""Checks an endpoint before it is sent (spec §4 webhook rule 2): a public http(s) URL of at
most 255 characters. Only literal addresses and `localhost` names are judged; no DNS lookups."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

ENDPOINT_MAX = 255


def endpoint_problem(text: str) -> str | None:
    """None when `text` (already trimmed) is acceptable, else what is wrong, in words."""
    if not text:
        return "Enter the endpoint URL."
    if len(text) > ENDPOINT_MAX:
        return f"The endpoint may have at most {ENDPOINT_MAX} characters (it has {len(text)})."
    if any(ch.isspace() for ch in text):
        return "The endpoint must not contain spaces."
    try:
        parts = urlsplit(text)
        host = parts.hostname
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        return "The endpoint is not a valid URL."
    if parts.scheme.lower() not in ("http", "https"):
        return "The endpoint must start with http:// or https://."
    if not host:
        return "The endpoint needs a host name, e.g. https://example.com/hooks."
    if not is_public_host(host):
        return (
            "The endpoint must be a public address: private, loopback and link-local hosts "
            "are refused by the service."
        )
    return None


def is_public_host(host: str) -> bool:
    host = host.rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return False
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        # A name, or a legacy spelling such as 127.1 that we cannot judge without resolving it:
        # all-digit dotted names are treated as addresses and refused.
        return not all(part.isdigit() or part.startswith("0x") for part in host.split("."))
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return not (
        address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_unspecified
        or address.is_reserved
        or address.is_multicast
    )
