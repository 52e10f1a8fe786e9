"""Edges of `X-Webhook-Signature` checking (spec §5.8) that tests/test_webhook_signing.py does
not reach: an independent HMAC-SHA256 vector, a secret the server sent with a lone surrogate
escape, and headers of the right length that are not ASCII. `verify` never raises."""

from __future__ import annotations

import json

from app.api.webhook_signing import sign, verify


def test_rfc_4231_test_case_2() -> None:
    """HMAC-SHA256 of RFC 4231 §4.3: key "Jefe"."""
    expected = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    assert sign(b"what do ya want for nothing?", "Jefe") == expected
    assert verify(b"what do ya want for nothing?", expected, "Jefe")


def test_a_secret_with_a_lone_surrogate_still_signs_and_verifies() -> None:
    """JSON may carry a lone `\\udcff` escape; decoded, it is a str Python cannot encode
    strictly. Such a secret must neither crash a check nor match another secret."""
    secret = json.loads('"whsec_\\udcff"')
    body = b'{"type":"webhook.test"}'
    signature = sign(body, secret)
    assert len(signature) == 64
    assert verify(body, signature, secret)
    assert not verify(body, signature, "whsec_")
    assert not verify(body, sign(body, "whsec_"), secret)


def test_a_header_of_64_characters_that_are_not_ascii_is_refused_without_raising() -> None:
    body = b'{"type":"webhook.test"}'
    assert verify(body, "é" * 64, "whsec_x") is False
    assert verify(body, "٣" * 64, "whsec_x") is False  # digits, but not ASCII ones
