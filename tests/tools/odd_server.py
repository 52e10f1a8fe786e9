"""An independent, deliberately awkward Social Publishing API server (stdlib only).

    python -m tests.tools.odd_server --port 8765 [--mode rate,drop,...] [--key odd-key]

Prints its base URL (ending in `/api`) and serves one workspace (see `odd_world.py`) until
interrupted. Written from the spec alone, to try the app against a server we did not write.

Modes (combinable, comma-separated or repeated):
  rate      every 5th request answers 429 `Retry-After: 1`; a request arriving before a
            Retry-After it gave has passed is REFUSED (429 again) and logged as EARLY
  drop      every 7th request: connection closed without an answer (a batch commits first)
  redirect  every route answers 302 to https://...
  html      every route answers 200 with an HTML page
  hostile   nulls where the spec promises values, unknown enums, scripts, huge bodies
  nulls     one bad field per post and nothing else: a label with a null name on 7 posts, a
            null status, nulls inside network entries and media (`World.make_nulls`)
  slow      every answer waits 300 ms
  expired   every request answers 401 `Token expired.`
  selflink, endless, retryneg, retryhuge, trickle, gzipbomb, deep, skew: hostile answers
            (issue 19), described in `odd_hostile.py`

`GET /_odd/stats` (no key) reports the request count and every early request, for tests.
The key is never logged.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.tools import odd_hostile as hostile
from tests.tools.odd_world import Invalid, Missing, World

MODES = (
    "rate",
    "drop",
    "redirect",
    "html",
    "hostile",
    "nulls",
    "slow",
    "expired",
    *hostile.HOSTILE_MODES,
)
RATE_EVERY = 5
DROP_EVERY = 7
RETRY_AFTER = 1
SLOW_SECONDS = 0.3
# A request this soon after a 429 left may have been on its way already (listed, not refused).
IN_FLIGHT_GRACE = 0.05
POSTS_PER_PAGE = 15
LOGS_PER_PAGE = 15
SIGNATURES_PER_PAGE = 10
ITEMS_PER_PAGE = 25

Handler = Callable[["Call"], "Answer"]


@dataclass
class Answer:
    status: int
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    drop_after_commit: bool = False


@dataclass
class Call:
    method: str
    path: str
    params: dict[str, str]
    body: Any
    match: re.Match[str]
    base: str


@dataclass
class Early:
    method: str
    path: str
    after_429_s: float
    retry_after_s: float


class Traffic:
    """Counts requests and remembers the 429s we gave, to catch anyone who comes back early."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.count = 0
        self.limited_until = 0.0
        self.last_429_at = 0.0
        self.early: list[Early] = []
        self.in_flight: list[Early] = []  # arrived within the grace: judged on their way already

    def arrive(self, method: str, path: str) -> tuple[int, Early | None, Early | None]:
        """Number this request; say whether it came early, or inside the in-flight grace.

        The grace exists because a client's request may have left (passed its own gate) just
        before our 429 reached it; such arrivals are listed, not refused.
        """
        now = time.monotonic()
        with self.lock:
            since = now - self.last_429_at
            if now < self.limited_until and since > IN_FLIGHT_GRACE:
                early = Early(method, path, since, float(RETRY_AFTER))
                self.early.append(early)
                return 0, early, None
            self.count += 1
            if now < self.limited_until:
                self.in_flight.append(Early(method, path, since, float(RETRY_AFTER)))
                return self.count, None, self.in_flight[-1]
            return self.count, None, None

    def gave_429(self) -> None:
        now = time.monotonic()
        with self.lock:
            self.last_429_at = now
            self.limited_until = max(self.limited_until, now + RETRY_AFTER)


def envelope(
    rows: list[Any], page: int, per_page: int, base: str, *, meta_links: bool = True
) -> dict[str, Any]:
    """Laravel's paginator: `data`, `links`, `meta` (with or without `meta.links`)."""
    total = len(rows)
    last = max(1, -(-total // per_page))
    start = (page - 1) * per_page
    chunk = rows[start : start + per_page]

    def url(n: int | None) -> str | None:
        return None if n is None else f"{base}?page={n}"

    meta: dict[str, Any] = {
        "current_page": page,
        "from": start + 1 if chunk else None,
        "last_page": last,
        "path": base,
        "per_page": per_page,
        "to": start + len(chunk) if chunk else None,
        "total": total,
    }
    if meta_links:
        meta["links"] = [
            {
                "url": url(page - 1 if page > 1 else None),
                "label": "&laquo; Previous",
                "page": None,
                "active": False,
            },
            *(
                {"url": url(n), "label": str(n), "page": n, "active": n == page}
                for n in range(1, last + 1)
            ),
            {
                "url": url(page + 1 if page < last else None),
                "label": "Next &raquo;",
                "page": None,
                "active": False,
            },
        ]
    return {
        "data": chunk,
        "links": {
            "first": url(1),
            "last": url(last),
            "prev": url(page - 1) if page > 1 else None,
            "next": url(page + 1) if page < last else None,
        },
        "meta": meta,
    }


def page_of(call: Call) -> int:
    raw = call.params.get("page", "1")
    if not raw.isdigit() or int(raw) < 1:
        raise Invalid({"page": ["The page field must be an integer."]})
    return int(raw)


class Api:
    """The routes of spec §4 (plus DESIGN.md's webhook paths) over one World."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.lock = threading.Lock()
        uuid_ = r"(?P<id>[^/]+)"
        self.routes: list[tuple[str, re.Pattern[str], Handler]] = [
            ("GET", re.compile(r"/posts"), self.list_posts),
            ("POST", re.compile(r"/posts/batch"), self.batch),
            ("GET", re.compile(rf"/posts/{uuid_}"), self.get_post),
            ("PUT", re.compile(rf"/posts/{uuid_}"), self.put_post),
            ("DELETE", re.compile(rf"/posts/{uuid_}"), self.delete_post),
            ("GET", re.compile(r"/labels"), lambda c: Answer(200, self.world.labels)),
            (
                "POST",
                re.compile(r"/labels"),
                lambda c: Answer(201, self.world.create_label(c.body)),
            ),
            ("PUT", re.compile(rf"/labels/{uuid_}"), self.put_label),
            ("DELETE", re.compile(rf"/labels/{uuid_}"), self.delete_label),
            ("GET", re.compile(r"/signatures"), self.list_signatures),
            ("POST", re.compile(r"/signatures"), self.post_signature),
            ("PUT", re.compile(rf"/signatures/{uuid_}"), self.put_signature),
            ("DELETE", re.compile(rf"/signatures/{uuid_}"), self.delete_signature),
            (
                "GET",
                re.compile(r"/social-accounts"),
                lambda c: Answer(200, self.world.sorted_accounts()),
            ),
            ("PUT", re.compile(rf"/social-accounts/{uuid_}/toggle"), self.toggle),
            ("GET", re.compile(rf"/social-accounts/{uuid_}/instagram-audio"), self.audio),
            ("GET", re.compile(r"/webhooks"), self.list_webhooks),
            ("POST", re.compile(r"/webhooks"), self.create_webhook),
            ("GET", re.compile(rf"/webhooks/{uuid_}"), self.get_webhook),
            ("PUT", re.compile(rf"/webhooks/{uuid_}"), self.update_webhook),
            ("DELETE", re.compile(rf"/webhooks/{uuid_}"), self.delete_webhook),
            ("POST", re.compile(rf"/webhooks/{uuid_}/rotate-secret"), self.rotate),
            ("POST", re.compile(rf"/webhooks/{uuid_}/test"), self.test_webhook),
            ("GET", re.compile(rf"/webhooks/{uuid_}/logs"), self.logs),
            ("POST", re.compile(rf"/webhooks/{uuid_}/logs/(?P<log>[^/]+)/replay"), self.replay),
            ("GET", re.compile(r"/repurposes"), self.list_repurposes),
            ("GET", re.compile(rf"/repurposes/{uuid_}/items"), self.repurpose_items),
            ("GET", re.compile(r"/workspace"), self.workspace),
            ("GET", re.compile(r"/content-types"), self.content_types),
        ]

    def dispatch(
        self, method: str, path: str, params: dict[str, str], body: Any, base: str
    ) -> Answer:
        allowed = []
        for verb, pattern, handler in self.routes:
            match = pattern.fullmatch(path)
            if match is None:
                continue
            if verb != method:
                allowed.append(verb)
                continue
            try:
                with self.lock:
                    self.world.advance()
                    return handler(Call(method, path, params, body, match, base))
            except Invalid as invalid:
                return Answer(422, {"message": invalid.message, "errors": invalid.errors})
            except Missing:
                return Answer(404, {"message": "Not found."})
            except PermissionError:
                return Answer(403, {"message": "This action is unauthorized."})
        if allowed:
            return Answer(
                405,
                {
                    "message": f"The {method} method is not supported for route api{path}. "
                    f"Supported methods: {', '.join(allowed)}."
                },
            )
        return Answer(404, {"message": f"The route api{path} could not be found."})

    # posts
    def list_posts(self, call: Call) -> Answer:
        return Answer(
            200, envelope(self.world.sorted_posts(), page_of(call), POSTS_PER_PAGE, call.base)
        )

    def get_post(self, call: Call) -> Answer:
        return Answer(200, self.world.post(call.match["id"]))

    def put_post(self, call: Call) -> Answer:
        return Answer(200, self.world.update_post(call.match["id"], self._object(call)))

    def delete_post(self, call: Call) -> Answer:
        self.world.delete_post(call.match["id"])
        return Answer(204)

    def batch(self, call: Call) -> Answer:
        # The spec does not give the success status: 200 here, so a client must accept any 2xx.
        return Answer(
            200, {"posts": self.world.create_batch(self._object(call))}, drop_after_commit=True
        )

    # labels and signatures
    def put_label(self, call: Call) -> Answer:
        return Answer(200, self.world.update_label(call.match["id"], self._object(call)))

    def delete_label(self, call: Call) -> Answer:
        self.world.delete_label(call.match["id"])
        return Answer(204)

    def list_signatures(self, call: Call) -> Answer:
        return Answer(
            200, envelope(self.world.signatures, page_of(call), SIGNATURES_PER_PAGE, call.base)
        )

    def post_signature(self, call: Call) -> Answer:
        return Answer(201, self.world.create_signature(self._object(call)))

    def put_signature(self, call: Call) -> Answer:
        return Answer(200, self.world.update_signature(call.match["id"], self._object(call)))

    def delete_signature(self, call: Call) -> Answer:
        self.world.delete_signature(call.match["id"])
        return Answer(204)

    # accounts
    def toggle(self, call: Call) -> Answer:
        return Answer(200, self.world.toggle(call.match["id"]))

    def audio(self, call: Call) -> Answer:
        return Answer(200, self.world.audio_search(call.match["id"], call.params))

    # webhooks
    @staticmethod
    def _public(hook: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in hook.items() if k != "signing_secret"}

    def list_webhooks(self, call: Call) -> Answer:
        return Answer(200, [self._public(h) for h in self.world.webhooks])

    def get_webhook(self, call: Call) -> Answer:
        return Answer(200, self.world.webhook(call.match["id"]))

    def create_webhook(self, call: Call) -> Answer:
        return Answer(201, self.world.create_webhook(self._object(call)))

    def update_webhook(self, call: Call) -> Answer:
        return Answer(
            200, self._public(self.world.update_webhook(call.match["id"], self._object(call)))
        )

    def delete_webhook(self, call: Call) -> Answer:
        self.world.delete_webhook(call.match["id"])
        return Answer(204)

    def rotate(self, call: Call) -> Answer:
        return Answer(200, self.world.rotate_secret(call.match["id"]))

    def test_webhook(self, call: Call) -> Answer:
        return Answer(200, self.world.test_webhook(call.match["id"]))

    def logs(self, call: Call) -> Answer:
        rows = self.world.webhook_logs(call.match["id"])
        return Answer(
            200, envelope(rows, page_of(call), LOGS_PER_PAGE, call.base, meta_links=False)
        )

    def replay(self, call: Call) -> Answer:
        return Answer(200, self.world.replay(call.match["id"], call.match["log"]))

    # repurposes and the rest
    def list_repurposes(self, call: Call) -> Answer:
        return Answer(
            200, envelope(self.world.repurposes, page_of(call), ITEMS_PER_PAGE, call.base)
        )

    def repurpose_items(self, call: Call) -> Answer:
        rows = self.world.repurpose_items_of(call.match["id"])
        page = page_of(call)
        start = (page - 1) * ITEMS_PER_PAGE
        # As in the spec's example: meta has only these three keys, and there are no links.
        return Answer(
            200,
            {
                "data": rows[start : start + ITEMS_PER_PAGE],
                "meta": {"current_page": page, "per_page": ITEMS_PER_PAGE, "total": len(rows)},
            },
        )

    def workspace(self, call: Call) -> Answer:
        return Answer(200, {"id": "6f1c2b1e-0000-4000-8000-0dd0dd0dd0dd", "name": "Odd Bakery"})

    def content_types(self, call: Call) -> Answer:
        from tests.tools.odd_world import CONTENT_TYPES

        rows = [
            {"platform": platform, "content_type": kind}
            for platform, kinds in CONTENT_TYPES.items()
            for kind in kinds
        ]
        return Answer(200, {"data": rows})

    @staticmethod
    def _object(call: Call) -> dict[str, Any]:
        if not isinstance(call.body, dict):
            raise Invalid({"body": ["The request body must be a JSON object."]})
        return call.body


class OddServer:
    """The server on a background thread: `with OddServer(modes={"rate"}) as s: s.base_url`."""

    def __init__(
        self,
        *,
        port: int = 0,
        modes: set[str] | frozenset[str] = frozenset(),
        key: str = "odd-key",
        quiet: bool = False,
        world: World | None = None,
    ) -> None:
        unknown = set(modes) - set(MODES)
        if unknown:
            raise ValueError(f"unknown mode(s): {', '.join(sorted(unknown))}")
        self.modes = frozenset(modes)
        self.key = key
        self.quiet = quiet
        self.traffic = Traffic()
        self.api = Api(world or World.seeded(hostile="hostile" in self.modes))
        if "nulls" in self.modes:
            self.api.world.make_nulls()
        if "skew" in self.modes:
            self.api.world.now = lambda: datetime.now(UTC) + timedelta(seconds=hostile.SKEW_SECONDS)
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), self._handler_class())
        self.httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self.httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api"

    def start(self) -> OddServer:
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> OddServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def log(self, text: str) -> None:
        if not self.quiet:
            print(
                f"{time.strftime('%H:%M:%S')}.{int(time.time() * 1000) % 1000:03d} {text}",
                file=sys.stderr,
                flush=True,
            )

    def stats(self) -> dict[str, Any]:
        with self.traffic.lock:
            return {
                "requests": self.traffic.count,
                "early": [vars(e) for e in self.traffic.early],
                "in_flight_after_429": [vars(e) for e in self.traffic.in_flight],
                "modes": sorted(self.modes),
            }

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class OddHandler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            server_version = "odd/1.0"

            def log_message(self, format: str, *args: Any) -> None:
                pass  # our own log line per request, without the headers

            def date_time_string(self, timestamp: float | None = None) -> str:
                if "skew" not in server.modes:
                    return super().date_time_string(timestamp)
                skewed = datetime.now(UTC) + timedelta(seconds=hostile.SKEW_SECONDS)
                return format_datetime(skewed, usegmt=True)

            def do_GET(self) -> None:
                server.handle(self)

            do_POST = do_PUT = do_DELETE = do_PATCH = do_GET

        return OddHandler

    # --- one request -------------------------------------------------------------------------
    def handle(self, req: BaseHTTPRequestHandler) -> None:
        split = urlsplit(req.path)
        path = split.path
        params = {k: v[-1] for k, v in parse_qs(split.query).items()}
        length = int(req.headers.get("Content-Length") or 0)
        raw = req.rfile.read(length) if length else b""
        if path == "/_odd/stats":
            self._send(req, Answer(200, self.stats()))
            return
        if not path.startswith("/api/") and path != "/api":
            self._send(req, Answer(404, {"message": "Not found (the API lives under /api)."}))
            return
        route = path[len("/api") :] or "/"
        number, early, in_flight = self.traffic.arrive(req.command, route)
        if early is not None:
            self.log(
                f"!!!!! EARLY REQUEST REFUSED: {req.command} {route} arrived "
                f"{early.after_429_s:.3f} s after a 429 with Retry-After: {RETRY_AFTER} !!!!!"
            )
            self._send(req, self._rate_limited(), is_429=True)
            return
        answer, drop = self._decide(req, number, route, params, raw)
        if "slow" in self.modes:
            time.sleep(SLOW_SECONDS)
        if drop:
            self.log(f"#{number} {req.command} {route} -> DROPPED (connection closed, no answer)")
            req.close_connection = True
            return
        note = ""
        if in_flight is not None:
            note = (
                f" (arrived {in_flight.after_429_s * 1000:.0f} ms after a 429 elsewhere: in flight)"
            )
        self.log(f"#{number} {req.command} {route} -> {answer.status}{note}")
        self._send(req, answer, is_429=answer.status == 429)

    def _decide(
        self,
        req: BaseHTTPRequestHandler,
        number: int,
        route: str,
        params: dict[str, str],
        raw: bytes,
    ) -> tuple[Answer, bool]:
        if "expired" in self.modes:
            return Answer(401, {"message": "Token expired."}), False
        if "redirect" in self.modes:
            host = f"127.0.0.1:{self.port}"
            target = f"https://{host}{req.path}"
            body = f"<html><body>Redirecting to <a href='{target}'>{target}</a></body></html>"
            return Answer(
                302, body.encode(), {"Location": target, "Content-Type": "text/html"}
            ), False
        if "html" in self.modes:
            page = (
                "<!DOCTYPE html><html><head><title>Odd Bakery — Sign in</title></head>"
                "<body><h1>Welcome back</h1><form><input name=email></form></body></html>"
            )
            return Answer(200, page.encode(), {"Content-Type": "text/html; charset=UTF-8"}), False
        if req.headers.get("Authorization") != f"Bearer {self.key}":
            return Answer(401, {"message": "Unauthenticated."}), False
        if "rate" in self.modes and number % RATE_EVERY == 0:
            return self._rate_limited(), False
        hostile_wait = hostile.retry_after_for(self.modes, number)
        if hostile_wait is not None:
            answer = self._rate_limited()
            answer.headers["Retry-After"] = hostile_wait
            return answer, False
        if req.command == "GET" and route == "/posts":
            if "gzipbomb" in self.modes:
                headers = {"Content-Type": "application/json", "Content-Encoding": "gzip"}
                return Answer(200, hostile.gzip_bomb(), headers), False
            if "deep" in self.modes:
                return Answer(200, hostile.deep_json(), {"Content-Type": "application/json"}), (
                    False
                )
        dropping = "drop" in self.modes and number % DROP_EVERY == 0
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            return Answer(400, {"message": "The request body is not valid JSON."}), dropping
        if dropping and not (req.command == "POST" and route == "/posts/batch"):
            return Answer(0), True  # nothing done, nothing said
        base = f"http://127.0.0.1:{self.port}/api{route}"
        answer = self.api.dispatch(req.command, route, params, body, base)
        if req.command == "GET" and hostile.is_list(answer.body):
            first = None
            if "selflink" in self.modes:
                first = self.api.dispatch("GET", route, {**params, "page": "1"}, None, base).body
            answer.body = hostile.distort_list(self.modes, answer.body, first)
        return answer, dropping  # a batch has committed by now; dropping loses only the answer

    @staticmethod
    def _rate_limited() -> Answer:
        return Answer(
            429,
            {"name": "rate_limit_exceeded", "message": "Too many requests. Slow down."},
            {"Retry-After": str(RETRY_AFTER)},
        )

    def _send(self, req: BaseHTTPRequestHandler, answer: Answer, *, is_429: bool = False) -> None:
        headers = dict(answer.headers)
        if answer.status == 204 or answer.body is None:
            data = b""
        elif isinstance(answer.body, bytes):
            data = answer.body
        else:
            data = json.dumps(answer.body, ensure_ascii=False).encode()
            headers.setdefault("Content-Type", "application/json")
        if is_429:
            # Before a byte leaves: a client may read the answer and start its wait before this
            # thread runs again (32 connections, one GIL), and the wait is then measured from a
            # later moment than the client's, calling a request that waited the full second early.
            self.traffic.gave_429()
        req.send_response(answer.status)
        for name, value in headers.items():
            req.send_header(name, value)
        req.send_header("Content-Length", str(len(data)))
        req.end_headers()
        try:
            for index, chunk in enumerate(hostile.body_chunks(self.modes, data)):
                if index:
                    time.sleep(hostile.TRICKLE_SECONDS)
                req.wfile.write(chunk)
                req.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return  # the client gave up on a trickle: that is the point


def parse_modes(values: list[str]) -> set[str]:
    modes = {m.strip() for value in values for m in value.split(",") if m.strip()}
    unknown = modes - set(MODES)
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown mode(s): {', '.join(sorted(unknown))}")
    return modes


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.tools.odd_server",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--mode", action="append", default=[], help=f"any of {', '.join(MODES)}")
    parser.add_argument("--key", default="odd-key", help="the accepted Bearer key")
    parser.add_argument("--quiet", action="store_true", help="no request log on stderr")
    parser.add_argument("--posts", type=int, default=60, help="posts in the world (60)")
    args = parser.parse_args(argv)
    try:
        modes = parse_modes(args.mode)
    except argparse.ArgumentTypeError as error:
        parser.error(str(error))
    world = World.seeded(hostile="hostile" in modes, posts=args.posts)
    server = OddServer(port=args.port, modes=modes, key=args.key, quiet=args.quiet, world=world)
    signal.signal(signal.SIGTERM, _interrupt)
    print(server.base_url, flush=True)
    server.log(f"odd server up, modes: {', '.join(sorted(modes)) or 'none'}")
    try:
        server.httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        stats = server.stats()
        server.log(f"requests: {stats['requests']}, early after 429: {len(stats['early'])}")
        server.httpd.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
