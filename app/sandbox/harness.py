"""In-process sandbox for tests: uvicorn in a background thread on a free 127.0.0.1 port."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Literal

from app.sandbox.engine import DEFAULT_RETRY_DELAY, SandboxEngine
from app.sandbox.fault_injection import FailAfterCommit
from app.sandbox.host_check import check_host
from app.sandbox.http_support import SandboxSettings
from app.sandbox.seed import SandboxKeys, seed
from app.sandbox.server import API_PREFIX, create_app
from app.sandbox.serving import LoopbackServer, base_url, bind
from app.sandbox.store import SandboxStore

_START_TIMEOUT = 30.0


def _wait_until_ready(ready: threading.Event, thread: threading.Thread) -> None:
    waited = 0.0
    while not ready.wait(0.05):
        waited += 0.05
        if not thread.is_alive() or waited > _START_TIMEOUT:
            raise RuntimeError("the sandbox server did not start")


class SandboxServer:
    """Context manager: seeds `db_path`, serves it, and stops and closes everything on exit.

    `base_url` ends in `/api`; `store` is the very store the server uses, for arranging scenarios
    and checking effects; `keys` holds a bearer token for each authentication case.

    `engine` publishes due posts and delivers webhooks. It ticks in the background only with
    `run_engine=True`; otherwise a test drives it with `engine.run_once()`.
    """

    def __init__(
        self,
        db_path: Path,
        *,
        seed: Literal["empty", "demo"] = "empty",
        posts: int = 150,
        allow_private_endpoints: bool = False,
        rate_limit: int | None = None,
        now: Callable[[], datetime] | None = None,
        run_engine: bool = False,
        webhook_retry_delay: float = DEFAULT_RETRY_DELAY,
        engine_interval: float = 0.2,
        fail_after_commit: float = 0.0,
        fault_seed: int | None = None,
    ) -> None:
        self._db_path = db_path
        self._seed: Literal["empty", "demo"] = seed
        self._posts = posts
        self._settings = SandboxSettings(allow_private_endpoints, rate_limit)
        self._now = now
        self._run_engine = run_engine
        self._retry_delay = webhook_retry_delay
        self._engine_interval = engine_interval
        # `faults.dropped` counts the batch answers dropped after their commit.
        self.faults = FailAfterCommit(fail_after_commit, fault_seed) if fail_after_commit else None
        self._thread: threading.Thread | None = None
        self._server: LoopbackServer | None = None
        self.origin = ""
        self.base_url = ""
        self.workspace_id = ""
        self.other_workspace_id = ""
        self.store: SandboxStore
        self.keys: SandboxKeys
        self.engine: SandboxEngine | None = None

    def __enter__(self) -> SandboxServer:
        self.store = SandboxStore(self._db_path, now=self._now)
        sock = bind("127.0.0.1", 0)
        try:
            self.origin = base_url(sock)
            self.base_url = self.origin + API_PREFIX
            # Media URLs are absolute; set before seeding so seeded webhook payloads use them.
            self.store.media_base_url = self.origin + "/storage"
            result = seed(self.store, self._seed, posts=self._posts)
            self.keys = result.keys
            self.workspace_id = result.workspace_id
            self.other_workspace_id = result.other_workspace_id
            ready = threading.Event()
            app = create_app(self.store, self._settings, self.faults)
            check_host(app, sock, any_port=True)  # tests reach it through relays too
            self._server = LoopbackServer(app, ready.set)
            server = self._server
            self._thread = threading.Thread(
                target=lambda: server.run(sockets=[sock]), name="sandbox-server", daemon=True
            )
            self._thread.start()
            _wait_until_ready(ready, self._thread)
            self.engine = SandboxEngine(
                self.store,
                retry_delay=self._retry_delay,
                allow_private_endpoints=self._settings.allow_private_endpoints,
                interval=self._engine_interval,
            )
            if self._run_engine:
                self.engine.start()
        except BaseException:
            self._shutdown()
            sock.close()
            raise
        self._socket = sock
        return self

    def _shutdown(self) -> None:
        if self.engine is not None:
            self.engine.close()
        if self._server is not None:
            self._server.request_stop()
        if self._thread is not None:
            self._thread.join(_START_TIMEOUT)
        self.store.close()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._shutdown()
        self._socket.close()

    def url(self, path: str) -> str:
        """Absolute URL of an API path such as `/posts`."""
        return self.base_url + path
