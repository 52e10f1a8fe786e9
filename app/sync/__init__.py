"""Background sync of a workspace into its local cache (see app/store/README.md)."""

from app.sync.service import SyncService
from app.sync.state import Phase, SyncState

__all__ = ["Phase", "SyncService", "SyncState"]
