"""Helpers of the benchmark suite: the sandbox as a child process, a heartbeat, machine facts.

Every module's figures go into bench-results.json through `record_results`, which also records
the machine's yardstick beside them: how long an empty PySide6 window takes from process start
to its first paint, measured right then (`empty_window`). The figures of a slower machine (or a
busy one) are read against it: the README's were taken where it is ~105 ms.
"""

from __future__ import annotations

import contextlib
import gc
import inspect
import itertools
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
READY = "READY "
FIRST_PAINT_CHILD = Path(__file__).resolve().parent / "first_paint_child.py"
EMPTY_WINDOW_STARTS = 3


class SandboxProcess:
    """`python -m app.sandbox` in its own process, so its CPU work never shares our GIL.

    Seeds `db` on first use and reuses it afterwards (a restart with another `--latency-ms`
    serves the very same posts). The child exits at EOF on its stdin, so it cannot outlive us.
    """

    def __init__(self, db: Path, *, posts: int, latency_ms: int, api_key: str) -> None:
        self.db = db
        self.posts = posts
        self.latency_ms = latency_ms
        self.api_key = api_key
        self.base_url = ""
        self.started_in_s = 0.0
        self._process: subprocess.Popen[str] | None = None
        self._stderr: list[str] = []

    def __enter__(self) -> SandboxProcess:
        command = [sys.executable, "-m", "app.sandbox", "--port", "0", "--seed", "demo"]
        command += ["--posts", str(self.posts), "--db", str(self.db), "--exit-on-stdin-eof"]
        command += ["--latency-ms", str(self.latency_ms)]
        started = time.monotonic()
        self._process = subprocess.Popen(
            command,
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "POSTDESK_SANDBOX_API_KEY": self.api_key},
        )
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        line = self._ready_line(timeout=120)
        if not line.startswith(READY):
            self.__exit__(None, None, None)
            tail = " | ".join(self._stderr[-5:]) or "no output"
            raise RuntimeError(f"the sandbox did not start: {tail}")
        self.base_url = line.removeprefix(READY).strip()
        self.started_in_s = time.monotonic() - started
        return self

    def _ready_line(self, timeout: float) -> str:
        assert self._process is not None
        assert self._process.stdout is not None
        stdout = self._process.stdout
        found: list[str] = []
        reader = threading.Thread(target=lambda: found.append(stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout)
        return found[0] if found else ""

    def _drain_stderr(self) -> None:
        process = self._process
        if process is not None and process.stderr is not None:
            for line in process.stderr:
                self._stderr = [*self._stderr[-19:], line.rstrip()]

    def __exit__(self, *exc_info: object) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


# -- statistics ------------------------------------------------------------------------------


def median(values: list[float]) -> float:
    return statistics.median(values)


# -- event-loop heartbeat ----------------------------------------------------------------------


@dataclass
class GcPass:
    generation: int
    start: float
    end: float

    @property
    def ms(self) -> float:
        return (self.end - self.start) * 1000


class GcWatch:
    """Records every cyclic-GC pass (gc.callbacks): a full (gen 2) pass stops the world."""

    def __init__(self) -> None:
        self.passes: list[GcPass] = []
        self._started = 0.0

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.passes.append(GcPass(info["generation"], self._started, time.perf_counter()))

    @contextlib.contextmanager
    def watching(self) -> Iterator[GcWatch]:
        gc.callbacks.append(self._callback)
        try:
            yield self
        finally:
            gc.callbacks.remove(self._callback)


@dataclass
class Stall:
    start: float
    ms: float
    """Gap between two ticks minus the 5 ms interval."""
    phase: str
    gc_ms: float
    """Time spent in full (gen 2) GC passes inside the gap."""


@dataclass
class Phases:
    """Wall-clock marks (time.perf_counter) of what the sync was doing."""

    marks: dict[str, list[float]] = field(default_factory=dict)

    def mark(self, name: str, start: float, end: float) -> None:
        self.marks[name] = [start, end]

    def timed(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.mark(name, start, time.perf_counter())

        return wrapper

    def phase_of(self, start: float, end: float, default: str) -> str:
        best, overlap = default, 0.0
        for name, (low, high) in self.marks.items():
            covered = min(end, high) - max(start, low)
            if covered > overlap:
                best, overlap = name, covered
        return best


def stalls(
    ticks: list[float],
    begin: float,
    finish: float,
    interval_ms: float,
    phases: Phases,
    gc_passes: list[GcPass],
    default_phase: str,
) -> list[Stall]:
    """Every gap between consecutive ticks that overlaps [begin, finish], longest first."""
    found = []
    for before, after in itertools.pairwise(ticks):
        if after < begin or before > finish:
            continue
        in_gc = sum(
            (min(after, p.end) - max(before, p.start)) * 1000
            for p in gc_passes
            if p.generation == 2 and p.end > before and p.start < after
        )
        found.append(
            Stall(
                start=before,
                ms=max(0.0, (after - before) * 1000 - interval_ms),
                phase=phases.phase_of(before, after, default_phase),
                gc_ms=in_gc,
            )
        )
    return sorted(found, key=lambda stall: stall.ms, reverse=True)


# -- machine -----------------------------------------------------------------------------------


def _cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def _memory_gb() -> float | None:
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024 / 1024, 1)
    return None


def _git(*args: str) -> str:
    try:
        result = subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10, check=False
        )
    except OSError:
        return ""
    return result.stdout.strip()


def machine_info() -> dict[str, Any]:
    versions = {}
    for package in ("PySide6-Essentials", "qasync", "httpx", "pydantic", "fastapi", "uvicorn"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            versions[package] = metadata.version(package)
    return {
        "hostname": platform.node(),
        "platform": platform.platform(),
        "cpu": _cpu_model(),
        "cpus_usable": len(os.sched_getaffinity(0)),
        "memory_gb": _memory_gb(),
        "python": platform.python_version(),
        "packages": versions,
        "qt_qpa_platform": os.environ.get("QT_QPA_PLATFORM", ""),
        "git_commit": _git("rev-parse", "HEAD"),
        "git_dirty": bool(_git("status", "--porcelain", "--untracked-files=no")),
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def child_environment(pycache: Path) -> dict[str, str]:
    """The start-up children's environment: offscreen, bytecode kept in `pycache` (an installed
    app runs from compiled bytecode; the dev shell may forbid writing it in the checkout)."""
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM") or "offscreen"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def empty_window_start(env: dict[str, str]) -> float:
    """Process start to the first paint of an empty window, in ms (`first_paint_child.py`)."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, str(FIRST_PAINT_CHILD), "empty"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    try:
        record = json.loads(done.stdout.strip().splitlines()[-1])
        return float((record["paint"] - started) * 1000)
    except (IndexError, KeyError, ValueError) as error:
        raise AssertionError(
            f"the empty window child failed ({error}): {done.stderr.strip()[-1500:]}"
        ) from None


def empty_window(starts: int = EMPTY_WINDOW_STARTS) -> dict[str, Any]:
    """The machine's yardstick now: median of `starts` empty-window starts after a warm-up."""
    with tempfile.TemporaryDirectory(prefix="postdesk-yardstick-") as pycache:
        env = child_environment(Path(pycache))
        empty_window_start(env)  # warm-up: bytecode and the OS file cache
        runs = [empty_window_start(env) for _ in range(starts)]
    return {
        "median_ms": round(statistics.median(runs), 1),
        "runs_ms": [round(run, 1) for run in runs],
        "load_average": [round(load, 2) for load in os.getloadavg()],
    }


def _calling_module() -> str:
    for frame in inspect.stack()[2:]:
        name = Path(frame.filename).stem
        if name.startswith("test_bench"):
            return name
    return "unknown"


def record_results(
    values: dict[str, Any], path: Path | None = None, *, yardstick: dict[str, Any] | None = None
) -> None:
    """Merge `values` into bench-results.json: each benchmark module owns its own keys.

    The empty window's time is recorded beside them (`empty_window_ms`, the latest; and per
    module under `empty_window_by_bench`): measured now unless the module measured it itself
    (`yardstick`, as `empty_window()` returns it)."""
    target = path or ROOT / "bench-results.json"
    measured = yardstick if yardstick is not None else empty_window()
    module = _calling_module()
    try:
        report = json.loads(target.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        report = {}
    if not isinstance(report, dict):
        report = {}
    report.update(values)
    by_bench = report.get("empty_window_by_bench")
    by_bench = dict(by_bench) if isinstance(by_bench, dict) else {}
    by_bench[module] = measured
    report["empty_window_ms"] = measured["median_ms"]
    report["empty_window_by_bench"] = by_bench
    target.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(
        f"{module}: the machine's yardstick, an empty window's first paint: "
        f"{measured['median_ms']:.0f} ms (runs {measured['runs_ms']}, "
        f"load average {measured['load_average']})"
    )
