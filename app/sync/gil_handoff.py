"""A shorter GIL switch interval while a refresh keeps other threads busy beside the GUI thread.

While a refresh runs, its page worker and the cache's writer thread run Python code next to the
event loop. The event loop's thread gives the GIL up on every socket call, every SQLite step and
every Qt call that releases it, and each time it wants it back it waits until the busy thread is
asked to let go: up to `sys.getswitchinterval()` (5 ms by default), again and again within one
loop iteration (CPython's "convoy effect"). The action bench (real app, 6 interleaved runs each,
load ~1.8 on 2 cores): longest heartbeat gap median 13.6 ms (9.3-30.8) with 5 ms, 10.7 ms
(9.1-13.3) with 1 ms, for the same work. At load 3.6-13.5 (47 runs each) the two could not be
told apart: the check on a quiet machine is open (docs/notes/speed_tricks.md). Outside
refreshes the interval set before is back.

Counted: overlapping refreshes (two workspaces' sessions, tests) share one shortened interval, and
the last one out restores what was set before the first one came in.
"""

from __future__ import annotations

import sys
from contextlib import AbstractContextManager

from app.runtime.shared_setting import SharedSetting

HANDOFF_INTERVAL_S = 0.001


def _shorten() -> float:
    saved = sys.getswitchinterval()
    sys.setswitchinterval(min(saved, HANDOFF_INTERVAL_S))
    return saved


_short_interval = SharedSetting(_shorten, sys.setswitchinterval)


def quick_handoff() -> AbstractContextManager[None]:
    return _short_interval.held()
