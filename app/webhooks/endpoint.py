"""Checks an endpoint before it is sent (spec §4 webhook rule 2): a public http(s) URL of at
most 255 characters. Only literal addresses and `localhost` names are judged; no DNS lookups
(the server resolves names at delivery).

A workspace whose server is itself on this machine or a private network (a self-hosted
instance, the sandbox with `--allow-private-endpoints`) decides for itself whether it accepts
private receivers: `allow_private` lets those through and the server's answer (a 422 when it
refuses) is shown as any other refusal. The hosted service refuses them (spec §4)."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

ENDPOINT_MAX = 255


def endpoint_problem(text: str, *, allow_private: bool = False) -> str | None:
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
    if not allow_private and not is_public_host(host):
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


def is_public_url(url: str) -> bool:
    """A URL whose host is neither local nor private (literal addresses and `localhost` names
    judged, as above): *Replay to local URL* warns before sending there."""
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return False
    return bool(host) and is_public_host(host or "")


def server_may_accept_private(base_url: str) -> bool:
    """The workspace's API runs on this machine or a private network: it, not Postdesk, says
    whether a private receiver is accepted."""
    try:
        host = urlsplit(base_url).hostname
    except ValueError:
        return False
    return bool(host) and not is_public_host(host or "")
