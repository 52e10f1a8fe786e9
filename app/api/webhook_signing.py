"""`X-Webhook-Signature` (spec §5.8): lowercase hex HMAC-SHA256 of the raw body bytes, keyed by
the webhook's signing secret. Verify against the bytes as received; re-serialized JSON differs.
"""

from __future__ import annotations

import hashlib
import hmac
import string

SIGNATURE_HEADER = "X-Webhook-Signature"
_HEX_LOWER = frozenset(string.digits + "abcdef")
_DIGEST_CHARS = hashlib.sha256().digest_size * 2


def sign(body: bytes, secret: str) -> str:
    return hmac.new(secret.encode("utf-8", "surrogatepass"), body, hashlib.sha256).hexdigest()


def verify(body: bytes, signature_header: str | None, secret: str) -> bool:
    """True when the header is the body's signature. Surrounding whitespace is tolerated;
    anything else that is not exactly 64 lowercase hex digits is rejected. Never raises."""
    if not isinstance(signature_header, str) or not secret:
        return False
    candidate = signature_header.strip()
    if len(candidate) != _DIGEST_CHARS or not set(candidate) <= _HEX_LOWER:
        return False
    return hmac.compare_digest(sign(body, secret), candidate)
