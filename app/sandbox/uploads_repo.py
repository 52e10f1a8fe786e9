"""Uploaded files waiting to be attached by `upload_token` (the sandbox's `POST /uploads`)."""

from __future__ import annotations

import hashlib
import secrets
from pathlib import PurePosixPath
from typing import Any

from app.sandbox.db import Db, Row, dumps, loads
from app.sandbox.media_files import png_size
from app.sandbox.networks import media_type_for
from app.sandbox.posts_repo import NewMedia

MAX_UPLOAD_BYTES = 20 * 1024 * 1024


def create_upload(db: Db, workspace_id: str, filename: str, mime_type: str, data: bytes) -> Row:
    blob_id = hashlib.sha256(data).hexdigest()[:32]
    db.run(
        "INSERT OR IGNORE INTO blobs (id, mime_type, data) VALUES (?, ?, ?)",
        (blob_id, mime_type, data),
    )
    meta: dict[str, Any] = {}
    size = png_size(data)
    if size is not None:
        meta = {"width": size[0], "height": size[1]}
    extension = PurePosixPath(filename).suffix.lstrip(".").lower() or "bin"
    token = "upl_" + secrets.token_urlsafe(24)
    db.insert(
        "uploads",
        {
            "token": token,
            "workspace_id": workspace_id,
            "blob_id": blob_id,
            "type": media_type_for(mime_type),
            "mime_type": mime_type,
            "original_filename": filename,
            "size": len(data),
            "extension": extension,
            "meta": dumps(meta),
            "created_at": db.now(),
        },
    )
    row = db.one("SELECT * FROM uploads WHERE token = ?", (token,))
    assert row is not None
    return row


def find_upload(db: Db, workspace_id: str, token: str) -> Row | None:
    return db.one(
        "SELECT * FROM uploads WHERE token = ? AND workspace_id = ?", (token, workspace_id)
    )


def media_from_upload(upload: Row, alt: str | None) -> NewMedia:
    """A fresh media copy for one post (§4 batch rule 6: each post gets its own copies)."""
    meta = dict(loads(upload["meta"]) or {})
    if alt:
        meta["alt_text"] = alt
    return NewMedia(
        type=upload["type"],
        mime_type=upload["mime_type"],
        original_filename=upload["original_filename"],
        extension=upload["extension"],
        size=upload["size"],
        meta=meta,
        blob_id=upload["blob_id"],
    )


def upload_body(upload: Row) -> dict[str, Any]:
    return {
        "upload_token": upload["token"],
        "type": upload["type"],
        "mime_type": upload["mime_type"],
        "original_filename": upload["original_filename"],
        "size": upload["size"],
        "meta": loads(upload["meta"]) or {},
        "created_at": upload["created_at"],
    }
