"""While a refresh runs, the cyclic garbage collector runs on the event loop's thread only.

CPython collects on whichever thread allocates past the threshold. During a refresh that is
mostly the page worker (it builds thousands of models), which has two costs: a collection there
may finalize Qt wrappers that became garbage (Qt objects must be destroyed on their own thread),
and the GUI thread waits for the whole pass while the worker, holding the GIL, competes for a CPU.
So automatic collection is off while a refresh runs (counted, like `gil_handoff`), and the event
loop collects the young generations itself between jobs (`collect_if_due`), at the thresholds
the process set. The oldest generation is left for after the refresh.
"""

from __future__ import annotations

import gc
from contextlib import AbstractContextManager

from app.runtime.shared_setting import SharedSetting


def _switch_off() -> bool:
    was_enabled = gc.isenabled()
    gc.disable()
    return was_enabled


def _switch_back(was_enabled: bool) -> None:
    if was_enabled:
        gc.enable()


_automatic_collection_off = SharedSetting(_switch_off, _switch_back)


def collections_on_loop() -> AbstractContextManager[None]:
    return _automatic_collection_off.held()


def collect_if_due() -> None:
    """Collect the generations automatic collection would have (but the oldest) by now."""
    if gc.isenabled():
        return  # automatic collection runs: nothing owed
    young, middle, _old = gc.get_threshold()
    allocated, young_passes, _ = gc.get_count()
    if young and allocated > young:
        gc.collect(1 if middle and young_passes + 1 > middle else 0)
