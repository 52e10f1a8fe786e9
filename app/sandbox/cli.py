"""`python -m app.sandbox`: serve the sandbox until SIGTERM/SIGINT (or stdin EOF, if asked).

Prints exactly one line, `READY <base_url>`, once the socket accepts requests. The admin key
comes from `POSTDESK_SANDBOX_API_KEY` (keeps it out of argv), else `--api-key`, else the public
demo key.
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import signal
import sys
import tempfile
import threading
from pathlib import Path
from types import FrameType

from app.sandbox.engine import DEFAULT_RETRY_DELAY, SandboxEngine
from app.sandbox.fault_injection import FailAfterCommit, parse_rate
from app.sandbox.host_check import check_host
from app.sandbox.http_support import SandboxSettings
from app.sandbox.schema import NewerSandboxFile
from app.sandbox.seed import DEMO_API_KEY, ensure_admin_key, is_seeded, seed
from app.sandbox.server import API_PREFIX, create_app
from app.sandbox.serving import LoopbackServer, base_url, bind
from app.sandbox.store import SandboxStore

KEY_ENV = "POSTDESK_SANDBOX_API_KEY"


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _not_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError("must be 0 or more seconds")
    return value


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m app.sandbox", description="Local Social Publishing API sandbox."
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--db", type=Path, help="SQLite file (default: a temporary file)")
    parser.add_argument("--seed", choices=("demo", "empty"), default="demo")
    parser.add_argument("--posts", type=int, default=150, help="posts in the demo seed")
    parser.add_argument("--api-key", help=f"admin key (prefer the {KEY_ENV} variable)")
    parser.add_argument("--allow-private-endpoints", action="store_true")
    parser.add_argument("--rate-limit", type=_positive, help="requests per minute per key")
    parser.add_argument(
        "--latency-ms",
        type=_not_negative,
        default=0,
        help="simulated network latency: every request waits N ms first (default 0)",
    )
    parser.add_argument(
        "--webhook-retry-delay",
        type=_seconds,
        default=DEFAULT_RETRY_DELAY,
        metavar="SECONDS",
        help="wait between delivery attempts of one webhook event (default 60, as the spec)",
    )
    parser.add_argument(
        "--fail-after-commit",
        type=parse_rate,
        default=0.0,
        metavar="RATE",
        help="drop this share (0-1) of batch answers after committing them",
    )
    parser.add_argument("--fault-seed", type=int, help="seed for --fail-after-commit")
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    return parser.parse_args(argv)


def _ignore_signal(signum: int, frame: FrameType | None) -> None:
    return None


def _watch_stdin(server: LoopbackServer) -> None:
    # A parent that dies closes our stdin; read until EOF, then shut down.
    while sys.stdin.buffer.read(4096):
        pass
    server.request_stop()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    admin_key = os.environ.get(KEY_ENV) or args.api_key or DEMO_API_KEY
    with tempfile.TemporaryDirectory(prefix="postdesk-sandbox-") as scratch:
        db_path = args.db or Path(scratch) / "sandbox.db"
        try:
            store = SandboxStore(db_path)
        except NewerSandboxFile as refused:
            print(f"sandbox: {db_path}: {refused}", file=sys.stderr)
            return 2
        try:
            sock = bind(args.host, args.port)
            origin = base_url(sock)
            store.media_base_url = origin + "/storage"
            if is_seeded(store):
                ensure_admin_key(store, admin_key)
            else:
                seed(store, args.seed, admin_key=admin_key, posts=args.posts)
            settings = SandboxSettings(
                args.allow_private_endpoints, args.rate_limit, latency_ms=args.latency_ms
            )

            def announce() -> None:
                print(f"READY {origin}{API_PREFIX}", flush=True)

            faults = FailAfterCommit(args.fail_after_commit, args.fault_seed)
            app = create_app(store, settings, faults if args.fail_after_commit else None)
            check_host(app, sock)  # a browser page cannot reach it by DNS rebinding
            server = LoopbackServer(app, announce)
            engine = SandboxEngine(
                store,
                retry_delay=args.webhook_retry_delay,
                allow_private_endpoints=args.allow_private_endpoints,
            )
            # uvicorn re-raises the stop signal after shutting down; with these handlers in
            # place that re-raise is a no-op and the process exits with status 0.
            for signum in (signal.SIGTERM, signal.SIGINT):
                signal.signal(signum, _ignore_signal)
            if args.exit_on_stdin_eof:
                threading.Thread(target=_watch_stdin, args=(server,), daemon=True).start()
            engine.start()
            try:
                server.run(sockets=[sock])
            finally:
                engine.close()
            sock.close()
        finally:
            store.close()
    return 0
