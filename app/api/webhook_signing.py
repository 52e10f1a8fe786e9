"""`X-Webhook-Signature` (spec §5.8): lowercase hex HMAC-SHA256 of the raw body bytes, keyed by
the webhook's signing secret. Verify against the bytes as received; re-serialized JSON differs.

The one `sign`/`verify` pair of the project: the client (signature checker) and the sandbox
(deliveries, test pings) both import it, so they cannot disagree.
"""

from __future__ import annotations

import hashlib
import hmac
import string

SIGNATURE_HEADER = "X-Webhook-Signature"
_HEX_LOWER = frozenset(string.digits + "abcdef")
_DIGEST_CHARS = hashlib.sha256().digest_size * 2


def sign(body: bytes, secret: str) -> str:
    """The signature of `body`. Raises ValueError for an empty secret: a signature anyone can
    compute proves nothing."""
    if not secret:
        raise ValueError("A webhook signing secret cannot be empty.")
    return hmac.new(secret.encode("utf-8", "surrogatepass"), body, hashlib.sha256).hexdigest()


def verify(body: bytes, signature_header: str | None, secret: str) -> bool:
    """True when the header is the body's signature, all 64 digits of it. Surrounding
    whitespace is tolerated; anything else that is not exactly 64 lowercase hex digits is
    rejected, and so is every signature when the secret is empty. Never raises."""
    if not isinstance(signature_header, str) or not isinstance(secret, str) or not secret:
        return False
    candidate = signature_header.strip()
    if len(candidate) != _DIGEST_CHARS or not set(candidate) <= _HEX_LOWER:
        return False
    return hmac.compare_digest(sign(body, secret), candidate)
