"""The signature checker: does a pasted signature belong to a pasted raw body and secret?"""

from __future__ import annotations

import string
from dataclasses import dataclass

from app.api.webhook_signing import verify

_HEX = frozenset(string.hexdigits)


@dataclass(frozen=True)
class Verdict:
    ok: bool
    text: str


def check_signature(raw_body: str, signature: str, secret: str) -> Verdict:
    """Compares in constant time (`verify`); the text says why a check failed."""
    if not secret.strip():
        return Verdict(False, "Enter the webhook's signing secret (whsec_…).")
    candidate = signature.strip()
    if not candidate:
        return Verdict(False, "Enter the X-Webhook-Signature header value.")
    body = raw_body.encode("utf-8")
    if verify(body, candidate, secret.strip()):
        return Verdict(True, "Verified: this body was signed with this secret.")
    if candidate.lower().startswith("sha256="):
        return Verdict(
            False, "Does not verify. The header is plain hex: drop the 'sha256=' prefix."
        )
    if len(candidate) != 64 or not set(candidate) <= _HEX:
        return Verdict(False, "Does not verify: a signature is 64 hexadecimal characters.")
    if candidate != candidate.lower():
        return Verdict(False, "Does not verify: the service sends lowercase hex.")
    return Verdict(
        False,
        "Does not verify. Check that the body is byte-for-byte what was received (no "
        "re-formatted JSON, no added newline) and that the secret was not rotated since.",
    )
