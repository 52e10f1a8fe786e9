"""Peak memory and request counts of one full sync against each hostile odd-server mode.

    python -m tests.tools.hostile_measure [--modes selflink,endless,...] [--limit 150]
        [--code-root DIR]

Each mode: the odd server runs here; a child process runs the app's own full sync (ApiClient,
WorkspaceCache, SyncService.full_refresh) against it and prints how it ended. The child's peak
RSS comes from `wait4`. A child still running after `--limit` seconds is killed and reported as
"did not end". `--code-root` runs the child on another copy of the code (e.g. an export of HEAD,
to measure "before"). Not a test: a measuring tool for the notes (docs/notes/hostile_server.md).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.tools.odd_hostile import HOSTILE_MODES
from tests.tools.odd_server import OddServer

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_MODES = (
    "selflink",
    "endless",
    "retryneg",
    "retryhuge",
    "gzipbomb",
    "deep",
    "huge",
    "skew",
    "trickle",
)

_CHILD = """
import asyncio, sys, time
from pathlib import Path
from app.api.client import ApiClient
from app.store import WorkspaceCache
from app.sync.service import SyncService

async def main(url: str, folder: str) -> None:
    states = []
    started = time.monotonic()
    async with ApiClient(url, "odd-key") as client:
        with WorkspaceCache(Path(folder) / "cache.sqlite3") as cache:
            sync = SyncService(client, cache, on_state=states.append, on_changed=lambda c: None)
            ok = await sync.full_refresh()
    last = states[-1] if states else None
    words = f"{last.phase}: {last.message}" if last is not None else "no state"
    print(f"ok={ok} after {time.monotonic() - started:.1f} s; {words}", flush=True)

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


def measure(mode: str, limit: float, code_root: Path) -> str:
    with OddServer(modes={mode}, quiet=True) as server, tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "PYTHONPATH": str(code_root)}
        started = time.monotonic()
        child = subprocess.Popen(
            [sys.executable, "-c", _CHILD, server.base_url, folder],
            cwd=code_root,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        ended = True
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - started > limit:
                child.send_signal(signal.SIGKILL)
                pid, status, usage = os.wait4(child.pid, 0)
                ended = False
                break
            time.sleep(0.2)  # a measuring loop, not a test: polling the child is its job
        child.returncode = os.waitstatus_to_exitcode(status)
        out = child.stdout.read().strip() if child.stdout else ""
        err = child.stderr.read().strip().splitlines() if child.stderr else []
        stats = server.stats()
        requests = stats["requests"]
        early = len(stats["early"])  # refused before a Retry-After had passed: not counted above
    seconds = time.monotonic() - started
    peak_mb = usage.ru_maxrss / 1024
    said = out if ended else "DID NOT END (killed)"
    if ended and not out and err:
        said = "crashed: " + err[-1]
    return (
        f"{mode:10} {seconds:6.1f} s  peak {peak_mb:7.1f} MB  {requests:6d} requests"
        f" (+{early} early)  {said}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--modes", default=",".join(DEFAULT_MODES))
    parser.add_argument("--limit", type=float, default=150.0, help="seconds before a kill")
    parser.add_argument("--code-root", type=Path, default=ROOT)
    args = parser.parse_args(argv)
    modes = [m for m in args.modes.split(",") if m]
    unknown = set(modes) - set(HOSTILE_MODES)
    if unknown:
        parser.error(f"unknown mode(s): {', '.join(sorted(unknown))}")
    for mode in modes:
        print(measure(mode, args.limit, args.code_root.resolve()), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
