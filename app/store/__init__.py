"""Local SQLite storage of a workspace (see README.md in this folder)."""

from app.store.workspace_cache import (
    CacheChange,
    CacheError,
    CacheReset,
    RefreshMark,
    WorkspaceCache,
)

__all__ = ["CacheChange", "CacheError", "CacheReset", "RefreshMark", "WorkspaceCache"]
