"""The posts list is read in the index's own order: no sort of the page's rows (issue 14: the
sandbox sorted again and stepped through OFFSET rows, ~1 ms a page deep in a 3,000-post list)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from app.sandbox.harness import SandboxServer
from app.sandbox.posts_repo import page_of_ids

_PAGE_QUERY = (
    "SELECT id FROM posts WHERE workspace_id = ? "
    "ORDER BY scheduled_at IS NULL, scheduled_at DESC, created_at DESC, rowid DESC "
    "LIMIT ? OFFSET ?"
)


def test_the_list_query_needs_no_sort_and_keeps_its_order(tmp_path: Path) -> None:
    with SandboxServer(tmp_path / "s.db") as server:
        store = server.store
        moment = datetime(2030, 1, 1, tzinfo=UTC)
        store.insert_posts(20, status="scheduled", scheduled_at=moment)  # ties: rowid decides
        store.insert_posts(5, status="scheduled", scheduled_at=moment + timedelta(days=1))
        store.insert_posts(4, status="draft", scheduled_at=None)
        with store.tx() as db:
            workspace = db.scalar("SELECT workspace_id FROM posts LIMIT 1")
            plan = db.all("EXPLAIN QUERY PLAN " + _PAGE_QUERY, (workspace, 15, 15))
            assert not any("TEMP B-TREE" in str(row["detail"]) for row in plan), plan
            expected = [
                row["id"]
                for row in db.all(
                    "SELECT id, rowid FROM posts WHERE workspace_id = ? ORDER BY "
                    "scheduled_at IS NULL, scheduled_at DESC, created_at DESC, rowid DESC",
                    (workspace,),
                )
            ]
            pages = [page_of_ids(db, workspace, page, 15)[0] for page in (1, 2)]
    assert pages[0] + pages[1] == expected  # later schedules first, undated last, ties newest
