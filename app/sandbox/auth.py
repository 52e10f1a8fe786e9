"""Bearer API keys (§5): only a SHA-256 of each token is stored."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from app.sandbox.db import Db
from app.sandbox.errors import ApiProblem, problem

ADMIN_ROLES = ("owner", "admin")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Caller:
    key_id: str
    user_id: str
    workspace_id: str
    role: str


def bearer_token(header: str | None) -> str | None:
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return token


def authenticate(db: Db, header: str | None) -> Caller:
    """Resolve the caller or raise the §7 error, checked in the order the spec lists them."""
    token = bearer_token(header)
    if token is None:
        raise problem(401, "Unauthenticated.")
    key = db.one(
        "SELECT * FROM api_keys WHERE token_sha256 = ? AND revoked_at IS NULL",
        (token_hash(token),),
    )
    if key is None:
        raise problem(401, "Unauthenticated.")
    if key["expires_at"] is not None and key["expires_at"] <= db.now():
        raise problem(401, "Token expired.")
    if key["workspace_id"] is None:
        raise problem(401, "No workspace selected.")
    member = db.one(
        "SELECT role FROM members WHERE workspace_id = ? AND user_id = ?",
        (key["workspace_id"], key["user_id"]),
    )
    if member is None:
        raise problem(403, "Workspace access denied.")
    if member["role"] not in ADMIN_ROLES:
        raise problem(403, "Insufficient workspace permissions.")
    return Caller(key["id"], key["user_id"], key["workspace_id"], member["role"])


def unauthenticated() -> ApiProblem:
    return problem(401, "Unauthenticated.")
