"""A delivery log that keeps its payload exactly as the service sent it (issue 17 §4).

`DeliveryLog.payload` is parsed (the envelope's `created_at` becomes a datetime), so dumping it
again changes the text ("…+00:00" came back as "…Z"). `RawDeliveryLog.payload_raw` holds the
JSON values as read, untouched; the compact serialisation of those values is the body the
service signs and posts (spec §5.8, the sandbox's `envelope_body` is the same function).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from pydantic import Field, model_validator

from app.models.webhooks import DeliveryLog, WebhookEnvelope


class RawDeliveryLog(DeliveryLog):
    payload_raw: Any = Field(default=None, repr=False)
    """The payload's JSON values as the service sent them (kept with the row in the archive)."""

    @model_validator(mode="before")
    @classmethod
    def _keep_raw(cls, data: Any) -> Any:
        if isinstance(data, dict):
            if "payload_raw" not in data:
                return {**data, "payload_raw": data.get("payload")}
            if "payload" not in data:  # kept in the archive without its parsed copy
                return {**data, "payload": data["payload_raw"]}
        return data

    def archive_json(self) -> str:
        """What the archive keeps: everything once (the payload only as sent)."""
        return self.model_dump_json(exclude={"payload"})


def payload_of(log: DeliveryLog) -> Any:
    """The payload's JSON values: as sent when kept raw, else the parsed model's dump (a row
    read before raw values were kept; the next top-up replaces it)."""
    if isinstance(log, RawDeliveryLog) and log.payload_raw is not None:
        return log.payload_raw
    payload = log.payload
    if isinstance(payload, WebhookEnvelope):
        return payload.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return payload if payload is not None else {}


def compact_body(payload: Any) -> bytes:
    """The exact bytes the service signs and posts for `payload`."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def pretty_text(payload: Any) -> str:
    return json.dumps(payload, indent=2, ensure_ascii=False)


def json_lines(logs: Iterable[DeliveryLog]) -> str:
    """One JSON object a line per delivery: the log's facts and its payload as sent."""
    lines = []
    for log in logs:
        record = log.model_dump(mode="json", exclude={"payload", "payload_raw"})
        record["payload"] = payload_of(log)
        lines.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
    return "".join(line + "\n" for line in lines)
