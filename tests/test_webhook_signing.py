"""`X-Webhook-Signature`: lowercase hex HMAC-SHA256 of the raw body (spec §5.8)."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from app.api.webhook_signing import sign, verify

bodies = st.binary(max_size=512)
secrets = st.text(min_size=1, max_size=48)


def test_a_known_vector() -> None:
    body = b'{"id":"0b6c","type":"webhook.test","data":{},"created_at":"2025-03-01T10:00:00+00:00"}'
    secret = "whsec_" + "a" * 32
    expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    assert sign(body, secret) == expected
    assert verify(body, expected, secret)


@given(body=bodies, secret=secrets)
def test_sign_then_verify_round_trips(body: bytes, secret: str) -> None:
    signature = sign(body, secret)
    assert len(signature) == 64
    assert signature == signature.lower()
    assert verify(body, signature, secret)
    assert verify(body, f"  {signature}\n", secret)


@given(body=bodies.filter(bool), secret=secrets, data=st.data())
def test_any_changed_byte_fails(body: bytes, secret: str, data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(body) - 1))
    delta = data.draw(st.integers(1, 255))
    changed = bytearray(body)
    changed[index] = (changed[index] + delta) % 256
    assert not verify(bytes(changed), sign(body, secret), secret)


@given(body=bodies, secret=secrets, other=secrets)
def test_another_secret_fails(body: bytes, secret: str, other: str) -> None:
    assume(other != secret)
    assert not verify(body, sign(body, other), secret)


@given(body=bodies, secret=secrets)
def test_uppercase_hex_is_not_the_spec_format(body: bytes, secret: str) -> None:
    signature = sign(body, secret)
    assume(signature != signature.upper())
    assert not verify(body, signature.upper(), secret)


@given(body=bodies, secret=secrets, header=st.one_of(st.none(), st.text(max_size=80)))
def test_garbage_headers_are_rejected_without_raising(
    body: bytes, secret: str, header: str | None
) -> None:
    assume(header is None or header.strip() != sign(body, secret))
    assert verify(body, header, secret) is False


def test_missing_or_empty_inputs_are_rejected() -> None:
    signature = sign(b"x", "s")
    assert not verify(b"x", None, "s")
    assert not verify(b"x", "", "s")
    assert not verify(b"x", signature, "")
    assert not verify(b"x", "sha256=" + signature, "s")


def test_an_empty_secret_verifies_nothing_and_signs_nothing() -> None:
    body = b'{"type":"webhook.test"}'
    keyed_with_nothing = hmac.new(b"", body, hashlib.sha256).hexdigest()
    assert not verify(body, keyed_with_nothing, "")
    with pytest.raises(ValueError, match="cannot be empty"):
        sign(body, "")


@pytest.mark.parametrize("position", [0, 7, 8, 31, 62, 63])
def test_every_digit_counts(position: int) -> None:
    body = b'{"type":"post.published"}'
    signature = sign(body, "whsec_x")
    digit = signature[position]
    changed = signature[:position] + ("0" if digit != "0" else "1") + signature[position + 1 :]
    assert not verify(body, changed, "whsec_x")
    assert not verify(body, signature[:8], "whsec_x")
    assert not verify(body, signature[:8] + "0" * 56, "whsec_x")
