"""Recently used destination sets of one workspace, kept in a small JSON file beside its
drafts (local only; nothing on the server). Newest first, at most `LIMIT`."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from app.workspaces.profiles import write_atomically

LIMIT = 6


def recent_sets_path(drafts_file: Path) -> Path:
    return drafts_file.with_name(drafts_file.name.split(".")[0] + ".recent-destinations.json")


class RecentSets:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._sets: list[list[str]] = self._read()

    def _read(self) -> list[list[str]]:
        if self.path is None or not self.path.exists():
            return []
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []  # a damaged list of shortcuts is not worth an error: start again
        if not isinstance(data, list):
            return []
        return [[str(x) for x in item] for item in data if isinstance(item, list) and item][:LIMIT]

    def sets(self) -> list[list[str]]:
        return [list(s) for s in self._sets]

    def remember(self, account_ids: list[str]) -> None:
        if not account_ids:
            return
        key = sorted(account_ids)
        rest = [s for s in self._sets if sorted(s) != key]
        self._sets = [list(account_ids), *rest][:LIMIT]
        if self.path is not None:
            # Only a convenience: a failed write loses nothing the user wrote.
            with contextlib.suppress(OSError):
                write_atomically(self.path, json.dumps(self._sets))
