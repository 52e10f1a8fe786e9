"""The full sync's CPU per page (issue 14 §7): one worker job per page (validated and encoded
together), REST timestamps read by the fast path exactly as `strptime` reads them, and the cache
body unchanged by the faster encoder."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from app.api.client import ApiClient
from app.models.base import REST_FORMAT, parse_rest_datetime
from app.sandbox.harness import SandboxServer
from app.store import WorkspaceCache
from app.store.post_codec import dump_model
from app.sync import SyncService
from app.sync.page_worker import PageWorker

BERLIN = ZoneInfo("Europe/Berlin")


@pytest.mark.asyncio
async def test_a_full_sync_hands_the_worker_one_job_per_page(
    sandbox: SandboxServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sandbox.store.insert_posts(
        100, status="scheduled", scheduled_at=datetime(2030, 1, 1, tzinfo=UTC)
    )
    jobs: list[object] = []
    run = PageWorker.run

    async def counted(self: PageWorker, job: object) -> object:
        jobs.append(job)
        return await run(self, job)  # type: ignore[arg-type]

    monkeypatch.setattr(PageWorker, "run", counted)
    monkeypatch.setattr(SyncService, "_parse_here", lambda _self: False)  # all to the worker
    with WorkspaceCache(tmp_path / "cache.sqlite3") as cache:
        async with ApiClient(sandbox.base_url, sandbox.keys.admin) as client:
            service = SyncService(
                client, cache, on_state=lambda _s: None, on_changed=lambda _c: None
            )
            assert await service.full_refresh() is True
            pages = service.pages_in_list
        assert cache.count_posts() == 100
    assert pages == 7
    assert len(jobs) == pages  # was 2 a page: validate, then encode


@pytest.mark.parametrize(
    "text",
    [
        "2026-10-25 02:30:00",  # in Berlin's DST fold
        "2026-03-29 02:30:00",  # in Berlin's DST gap
        "2024-02-29 23:59:59",
        "2026-1-5 2:03:04",  # unpadded: only strptime reads it
        "2026-10-25T02:30:00",
        "2026-W43-1 02:30:00",  # a week date: fromisoformat alone would take it
        "2026-10-25 02:30:60",
        "2026-02-30 00:00:00",
        "2026-10-25 02:30:00+02:00",
        "٢٠٢٦-10-25 02:30:00",  # non-ASCII digits
        "2026-10-25 02:30:00.5",
    ],
)
def test_rest_timestamps_read_as_strptime_reads_them(text: str) -> None:
    def by_strptime() -> object:
        try:
            return datetime.strptime(text, REST_FORMAT).replace(tzinfo=BERLIN)
        except ValueError:
            parsed = datetime.fromisoformat(text)  # the fallback, as before
            return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=BERLIN)

    def outcome(read: object) -> object:
        try:
            return read()  # type: ignore[operator]
        except ValueError:
            return ValueError

    expected = outcome(by_strptime)
    got = outcome(lambda: parse_rest_datetime(text, BERLIN))
    assert got == expected
    if isinstance(got, datetime) and isinstance(expected, datetime):
        assert (got.fold, got.tzinfo) == (expected.fold, expected.tzinfo)


def test_the_cache_body_is_compact_stable_and_keeps_every_field() -> None:
    import json

    from app.models import Post
    from app.store.post_codec import decode_post

    post = Post.model_validate(
        {
            "id": "p1",
            "status": "scheduled",
            "content": "Grüße",
            "scheduled_at": "2026-10-25 02:30:00",
            "zeta": 1,
            "alpha": None,
        },
        context={"server_tz": BERLIN},
    )
    body = dump_model(post)
    assert body == json.dumps(json.loads(body), separators=(",", ":"), ensure_ascii=False)
    assert '"scheduled_at":"2026-10-25T02:30:00+02:00[Europe/Berlin]"' in body
    assert "Grüße" in body
    assert json.loads(body)["zeta"] == 1
    assert "alpha" in json.loads(body)
    again = decode_post(body)
    assert dump_model(again) == body  # the same data, the same text: no false "changed"
    assert again.scheduled_at == post.scheduled_at
    assert again.scheduled_at is not None
    assert again.scheduled_at.fold == 0


def test_encoding_a_page_imports_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """With PySide6 loaded every `import` (and every `strftime`, which imports `time` through
    `__import__`) runs shiboken's import hook: ~20-35 us each, 4 a post before."""
    import builtins

    from app.models import Post
    from app.store.post_codec import encode_posts

    posts = [
        Post.model_validate(
            {
                "id": f"p{number}",
                "status": "scheduled",
                "content": f"Post {number}",
                "scheduled_at": "2026-10-25 02:30:00",
                "published_at": None,
                "created_at": "2026-10-01 08:00:00",
                "platforms": [{"id": f"pp{number}", "platform": "x", "enabled": True}],
            },
            context={"server_tz": BERLIN},
        )
        for number in range(15)
    ]
    encode_posts(posts[:1])  # whatever is imported once, on first use, is imported now
    imports: list[str] = []
    real_import = builtins.__import__

    def counted(name: str, *args: object, **kwargs: object) -> object:
        imports.append(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", counted)
    rows = encode_posts(posts)
    monkeypatch.undo()
    assert len(rows) == 15
    assert imports == []
