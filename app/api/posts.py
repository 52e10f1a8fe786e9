"""Posts: list, read, batch create, update, delete, and the post actions of DESIGN.md.

A post of the list with a usable id is never dropped for one bad field: pages are mended
(`app.api.parsing`). A single post (a read, the answer of an update or a batch) is not: an
answer that is not the post asked for must not replace its saved copy with an empty one.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from datetime import datetime

from pydantic import TypeAdapter

from app.api import routes
from app.api.errors import ApiError
from app.api.pagination import Pages
from app.api.parsing import Offload
from app.api.resource import Resource
from app.models.pagination import Page
from app.models.posts import BatchResponse, Post
from app.models.requests import BatchRequest, Destination, PostUpdate

_POST = TypeAdapter(Post)
_POST_PAGE = TypeAdapter(Page[Post])
_BATCH = TypeAdapter(BatchResponse)


def _post_id(post: Post) -> str:
    return post.id


class PostsApi(Resource):
    last_walk: Pages[Post] | None = None
    """The latest `iter_pages` walk: its bound and pace are observable (tests, benchmarks)."""

    def _walk(self, offload: Offload | None = None) -> Pages[Post]:
        return self._pages(_POST_PAGE, routes.POSTS, offload=offload, mend=True)

    async def page(self, page: int = 1, *, offload: Offload | None = None) -> Page[Post]:
        """One page (15 posts, `scheduled_at` descending); validated through `offload` when
        given (a worker thread), else on the caller's thread."""
        return await self._page(_POST_PAGE, routes.POSTS, page, offload=offload, mend=True)

    def iter_pages(
        self, *, concurrency: int = 1, offload: Offload | None = None, adaptive: bool = False
    ) -> AsyncGenerator[Page[Post], None]:
        """Every page in order; each is validated through `offload` when given. `adaptive`:
        `concurrency` is a cap, and the walk keeps in flight what pays off (`Pace`)."""
        walk = self._walk(offload)
        self.last_walk = walk
        return walk.iter_pages(concurrency=concurrency, adaptive=adaptive)

    def iter_items(self) -> AsyncIterator[Post]:
        return self._walk().iter_items()

    async def fetch_all(
        self, *, concurrency: int = 6, first_pages: int | None = None
    ) -> list[Post]:
        """Every post, fetching up to `concurrency` pages at once (halved on 429).

        `first_pages` limits the walk to the first N pages (a light refresh of the newest
        schedule). A post that shifts onto the next page while the list is read appears once.
        """
        return await self._walk().fetch_all(
            concurrency=concurrency, first_pages=first_pages, key=_post_id
        )

    async def get(self, post_id: str) -> Post:
        return await self._call(_POST, "GET", routes.post(post_id))

    async def create_batch(self, request: BatchRequest) -> list[Post]:
        """One post per destination. Not idempotent: a lost answer raises `OutcomeUnknown`
        (read the list to reconcile before sending again)."""
        response = await self._call(_BATCH, "POST", routes.POSTS_BATCH, body=self._wire(request))
        return response.posts

    async def update(self, post_id: str, update: PostUpdate) -> Post:
        return await self._call(_POST, "PUT", routes.post(post_id), body=self._wire(update))

    async def delete(self, post_id: str) -> None:
        await self._send("DELETE", routes.post(post_id))

    # -- actions (DESIGN.md "Post actions") ---------------------------------------------------

    async def publish_now(self, post_id: str) -> Post:
        return await self.update(post_id, PostUpdate(status="publishing"))

    async def schedule(self, post_id: str, when: datetime) -> Post:
        return await self.update(post_id, PostUpdate(status="scheduled", scheduled_at=when))

    async def unschedule(self, post_id: str) -> Post:
        return await self.update(post_id, PostUpdate(status="draft"))

    async def reschedule(self, post_id: str, when: datetime) -> Post:
        return await self.update(post_id, PostUpdate(scheduled_at=when))

    async def duplicate(self, post: Post) -> list[Post]:
        """Create new drafts with the same content, accounts, content types, meta and labels.

        Done client-side as a batch call (works on every deployment), so one new post is made
        per enabled platform entry of the original. Limitation: attached media cannot be
        copied, because the API references media only by upload token and an existing media
        item has none; the copies carry text and settings only. Labels are set by a follow-up
        update of each new post.
        """
        entries = [p for p in post.platforms if p.enabled] or list(post.platforms)
        destinations = [
            Destination(
                social_account_id=entry.social_account.id,
                content_type=entry.content_type,
                meta=dict(entry.meta) or None,
            )
            for entry in entries
            if entry.social_account is not None and entry.content_type
        ]
        if not destinations:
            raise ApiError(
                "This post has no connected channel left to copy it to.",
                hint="Create a new post and choose its channels.",
            )
        created = await self.create_batch(
            BatchRequest(destinations=destinations, content=post.content or None)
        )
        label_ids = [label.id for label in post.labels]
        if not label_ids:
            return created
        return [await self.update(new.id, PostUpdate(labels=label_ids)) for new in created]
