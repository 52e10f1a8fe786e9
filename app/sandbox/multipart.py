"""Minimal `multipart/form-data` reader (stdlib `email`), so the sandbox needs no extra package."""

from __future__ import annotations

from dataclasses import dataclass
from email.message import Message
from email.parser import BytesParser
from email.policy import HTTP


@dataclass(frozen=True)
class FilePart:
    field: str
    filename: str
    content_type: str
    data: bytes


def file_parts(content_type: str, body: bytes) -> list[FilePart]:
    """File fields of a form body; an empty list when the body is not multipart."""
    if not content_type.lower().startswith("multipart/form-data"):
        return []
    header = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode("latin-1")
    message = BytesParser(policy=HTTP).parsebytes(header + body)
    if not message.is_multipart():
        return []
    parts = []
    for part in message.iter_parts():
        assert isinstance(part, Message)
        filename = part.get_filename()
        field = part.get_param("name", header="content-disposition")
        if filename is None or not isinstance(field, str):
            continue
        payload = part.get_payload(decode=True)
        parts.append(
            FilePart(
                field=field,
                filename=filename,
                content_type=part.get_content_type(),
                data=payload if isinstance(payload, bytes) else b"",
            )
        )
    return parts
