"""*Copy as curl* (issue 17 §4): a delivery posted again from a terminal, signed as the service
signs it. Apart from `raw_log` so that the store can read raw logs without the signing code."""

from __future__ import annotations

import shlex

from app.api.webhook_signing import SIGNATURE_HEADER, sign


def curl_command(url: str, body: bytes, secret: str | None) -> str:
    """A shell command posting `body` as the service would: the signature is computed here, the
    secret itself never appears. Without a secret the header says where it is missing."""
    signature = sign(body, secret) if secret else "<signature: reveal the webhook's secret>"
    parts = [
        "curl",
        "-X",
        "POST",
        shlex.quote(url or "http://localhost:8000/webhooks"),
        "-H",
        shlex.quote("Content-Type: application/json"),
        "-H",
        shlex.quote(f"{SIGNATURE_HEADER}: {signature}"),
        "--data-binary",
        shlex.quote(body.decode("utf-8")),
    ]
    return " ".join(parts)
