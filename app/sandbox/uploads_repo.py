"""Uploaded files waiting to be attached by `upload_token` (the sandbox's `POST /uploads`)."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from pathlib import PurePosixPath
from typing import Any

from app.sandbox.clock import to_db
from app.sandbox.db import Db, Row, dumps, loads
from app.sandbox.media_files import png_size
from app.sandbox.networks import media_type_for
from app.sandbox.posts_repo import NewMedia

MAX_UPLOAD_BYTES = 20 * 1024 * 1024
UPLOAD_KEPT_FOR = timedelta(hours=24)
"""An upload not attached to a post within this time is dropped (its token stops working)."""
MAX_KEPT_UPLOAD_BYTES = 100 * 1024 * 1024
"""Uploads waiting to be attached keep at most this much; the oldest go first."""


def prune_uploads(
    db: Db, *, kept_for: timedelta = UPLOAD_KEPT_FOR, max_bytes: int = MAX_KEPT_UPLOAD_BYTES
) -> int:
    """Drop uploads older than `kept_for`, then the oldest until the rest fit in `max_bytes`,
    and the stored files no upload or post uses any more. Returns how many uploads went.
    Posts keep their media: they point at the stored file, not at the upload."""
    cutoff = to_db(db.clock() - kept_for)
    dropped = db.run("DELETE FROM uploads WHERE created_at < ?", (cutoff,))
    total = 0
    for row in db.all("SELECT token, size FROM uploads ORDER BY created_at DESC, rowid DESC"):
        total += int(row["size"])
        if total > max_bytes:
            dropped += db.run("DELETE FROM uploads WHERE token = ?", (row["token"],))
    if dropped:
        db.run(
            "DELETE FROM blobs WHERE id NOT IN (SELECT blob_id FROM uploads WHERE blob_id "
            "IS NOT NULL) AND id NOT IN (SELECT blob_id FROM media WHERE blob_id IS NOT NULL)"
        )
    return dropped


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
