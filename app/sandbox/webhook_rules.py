"""Webhook rules of §4/§5/§6: event names, public endpoints and secrets. Signing is
`app.api.webhook_signing.sign`, shared with the client."""

from __future__ import annotations

import asyncio
import ipaddress
import re
import secrets
import socket
import string
from urllib.parse import urlsplit

EVENT_NAMES: tuple[str, ...] = (
    "post.created",
    "post.scheduled",
    "post.unscheduled",
    "post.published",
    "post.partially_published",
    "post.failed",
    "post.deleted",
)
TEST_EVENT = "webhook.test"
USER_AGENT = "SocialPublishingAPI-Webhooks/2.0.0 (sandbox)"
SIGNATURE_HEADER = "X-Webhook-Signature"
ENDPOINT_MAX = 255
_SECRET_ALPHABET = string.ascii_letters + string.digits
_LABEL = re.compile(r"^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)$")
# Legacy IPv4 spellings (`127.1`, `0x7f000001`, `2130706433`) that resolvers accept as literals.
_LEGACY_IPV4 = re.compile(r"^(0x[0-9a-f]+|[0-9]+)(\.(0x[0-9a-f]+|[0-9]+)){0,3}$", re.IGNORECASE)


def new_signing_secret() -> str:
    return "whsec_" + "".join(secrets.choice(_SECRET_ALPHABET) for _ in range(32))


def endpoint_problem(endpoint: str, *, allow_private: bool) -> str | None:
    """None for an acceptable endpoint, else which rule it breaks: `url` or `private`.

    Only literal addresses and `localhost` names are judged; no DNS lookups are made.
    """
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        return "url"
    if parts.scheme.lower() not in ("http", "https") or not host:
        return "url"
    if any(ch.isspace() or not ch.isprintable() for ch in endpoint) or not _valid_host(host):
        return "url"
    if allow_private:
        return None
    return "private" if _is_non_public_host(host) else None


def _valid_host(host: str) -> bool:
    """A DNS name of letters, digits and hyphens (IDNs in their ASCII form too), or an IP."""
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
        return True
    except ValueError:
        pass
    try:
        ascii_host = host.encode("idna").decode("ascii")
    except UnicodeError:
        return False
    labels = ascii_host.rstrip(".").split(".")
    return all(_LABEL.match(label) for label in labels)


def _is_non_public_host(host: str) -> bool:
    host = host.rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    address: ipaddress.IPv4Address | ipaddress.IPv6Address | None
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        address = None
        if _LEGACY_IPV4.match(host):
            try:
                address = ipaddress.IPv4Address(socket.inet_aton(host))
            except OSError:
                return False
    if address is None:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return (
        address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_unspecified
        or address.is_reserved
        or address.is_multicast
    )


async def delivery_problem(endpoint: str, *, allow_private: bool) -> str | None:
    """`endpoint_problem` at delivery time (§4 rule 2, "again at delivery"), plus the address
    the host name resolves to now: a name pointing at 127.0.0.1 or a private network is refused
    like the literal address (it was delivered to before). A name that does not resolve is
    left to the POST, which fails to connect."""
    problem = endpoint_problem(endpoint, allow_private=allow_private)
    if problem is not None or allow_private:
        return problem
    host = urlsplit(endpoint).hostname or ""
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
        return None  # a literal address was judged above
    except ValueError:
        pass
    try:
        found = await asyncio.to_thread(socket.getaddrinfo, host, None)
    except (OSError, UnicodeError):
        return None
    addresses = {info[4][0] for info in found}
    return "private" if any(_is_non_public_host(str(a)) for a in addresses) else None
