"""Labels and signatures: the two small per-workspace libraries."""

from __future__ import annotations

from app.sandbox.db import Db, Row


def create_label(db: Db, workspace_id: str, name: str, color: str) -> str:
    label_id = db.new_id()
    now = db.now()
    db.insert(
        "labels",
        {
            "id": label_id,
            "workspace_id": workspace_id,
            "name": name,
            "color": color,
            "created_at": now,
            "updated_at": now,
        },
    )
    return label_id


def find_label(db: Db, workspace_id: str, label_id: str) -> Row | None:
    return db.one(
        "SELECT * FROM labels WHERE id = ? AND workspace_id = ?", (label_id, workspace_id)
    )


def list_labels(db: Db, workspace_id: str) -> list[Row]:
    return db.all(
        "SELECT * FROM labels WHERE workspace_id = ? ORDER BY created_at DESC, rowid DESC",
        (workspace_id,),
    )


def create_signature(db: Db, workspace_id: str, name: str, content: str) -> str:
    signature_id = db.new_id()
    now = db.now()
    db.insert(
        "signatures",
        {
            "id": signature_id,
            "workspace_id": workspace_id,
            "name": name,
            "content": content,
            "created_at": now,
            "updated_at": now,
        },
    )
    return signature_id


def find_signature(db: Db, workspace_id: str, signature_id: str) -> Row | None:
    return db.one(
        "SELECT * FROM signatures WHERE id = ? AND workspace_id = ?",
        (signature_id, workspace_id),
    )


def page_of_signatures(
    db: Db, workspace_id: str, page: int, per_page: int
) -> tuple[list[Row], int]:
    total = int(
        db.scalar("SELECT COUNT(*) FROM signatures WHERE workspace_id = ?", (workspace_id,))
    )
    rows = db.all(
        "SELECT * FROM signatures WHERE workspace_id = ? "
        "ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?",
        (workspace_id, per_page, (page - 1) * per_page),
    )
    return rows, total
