"""The collector settings the app applies once its window is up."""

from __future__ import annotations

import gc

from app.runtime.gc_policy import YOUNG_THRESHOLD, settle_after_start


def test_settling_freezes_the_start_up_heap_and_spaces_young_collections() -> None:
    before = gc.get_threshold()
    survivor = [object() for _ in range(10)]
    try:
        settle_after_start()

        assert gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] >= YOUNG_THRESHOLD
        assert gc.get_threshold()[1:] == before[1:]
        assert survivor  # frozen objects stay alive and usable
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
