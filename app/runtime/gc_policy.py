"""Garbage-collector settings for a long-running GUI process (no Qt).

CPython's full collections walk every tracked object. Once the window is up the process already
holds ~100,000 of them (modules, pydantic schemas, Qt wrappers) that live until it quits, and a
sync of thousands of posts triggered several full passes of ~100 ms each: visible freezes. After
start-up those objects are moved out of the collector's sight (`gc.freeze`), and young
collections run less often, so fewer short-lived objects (parsed pages in flight) get promoted
to the old generation and trigger full passes at all. Without this, the sync bench's heartbeat
saw one full pass of 280-375 ms per sync (`docs/notes/speed_tricks.md`, issue 18).
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000
"""Allocations between young collections (CPython's default is 700); one walks ~1-2 ms."""


def settle_after_start() -> None:
    """Call once the first window is painted; the app's start-up heap is permanent from then."""
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(max(YOUNG_THRESHOLD, _young), middle, old)
