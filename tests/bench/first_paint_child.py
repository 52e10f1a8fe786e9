"""Child process of the start-up benchmark: prints when the first paint happened, then exits.

    python first_paint_child.py empty
    python first_paint_child.py app --base-url URL    (POSTDESK_API_KEY in the environment)
    python first_paint_child.py app-breakdown --base-url URL

`app-breakdown` is `app` with timers wrapped around the steps that matter (imports, window
construction, cache reads, calendar reloads): a diagnosis of where the time goes, never one of
the measured runs, since the timers cost a little themselves.

`empty` shows a bare QWidget; `app` runs the real `postdesk` entry point (`ui.main.main`), which
paints the window with the calendar from the warm cache before it imports the rest of the app
and connects. Both install the same event filter on their target only (the bare widget, or the
`CalendarPage` as soon as it is built); the first Paint event delivered to it is the moment
recorded. The child prints one JSON line with `time.monotonic()` values (system-wide on Linux,
so the parent can subtract its own reading taken just before `Popen`) and exits at once with
`os._exit`, leaving no time to shutdown code. `frame_done` is the next turn of the event loop
after that paint: for the app, that is after the rest of it has been imported (the first frame
is painted in a local event loop that ends with the paint).
"""

from __future__ import annotations

import time

T_INTERPRETER = time.monotonic()  # the first line of our code runs: Python itself is up

import importlib.abc  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
from typing import Any  # noqa: E402

from PySide6.QtCore import QEvent, QObject, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402


class FirstPaint(QObject):
    def __init__(self, is_target: Any, describe: Any) -> None:
        super().__init__()
        self._is_target = is_target
        self._describe = describe
        self.result: dict[str, Any] | None = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            self.result is None
            and event.type() == QEvent.Type.Paint
            and isinstance(watched, QWidget)
            and self._is_target(watched)
        ):
            self.result = {
                "interpreter": T_INTERPRETER,
                "paint": time.monotonic(),
                "widget": type(watched).__name__,
                **self._describe(watched),
            }
            # Runs once the current paint pass (the whole window) is done.
            QTimer.singleShot(0, self._finish)
        return False

    def _finish(self) -> None:
        assert self.result is not None
        self.result["frame_done"] = time.monotonic()
        sys.stdout.write(json.dumps(self.result) + "\n")
        sys.stdout.flush()
        os._exit(0)


def _calendar_of(widget: QWidget | None) -> QWidget | None:
    from ui.calendar import CalendarPage

    while widget is not None:
        if isinstance(widget, CalendarPage):
            return widget
        widget = widget.parentWidget()
    return None


def _describe_calendar(widget: QWidget) -> dict[str, Any]:
    page = _calendar_of(widget)
    return {
        "visible_entries": len(page.loader.visible) if page is not None else None,
        "source": type(page.source).__name__ if page is not None else None,
    }


def run_empty() -> int:
    app = QApplication(sys.argv[:1])
    window = QWidget()
    watcher = FirstPaint(lambda widget: widget is window, lambda widget: {})
    app.watcher = watcher  # type: ignore[attr-defined]  # kept alive with the app
    window.installEventFilter(watcher)
    window.resize(1360, 860)
    window.setWindowTitle("empty")
    window.show()
    return app.exec()


def watch_calendar(watcher: FirstPaint) -> None:
    """Filter the events of the calendar page only, as `run_empty` does for its window.

    An application-wide Python filter would see every event of every widget, and the app has far
    more of them than an empty window: the instrument itself would cost the app tens of ms. The
    page's class is patched when the app itself imports it, so the instrument imports nothing
    ahead of the app (which would move that cost out of the order the entry point chooses).
    """

    def watch(page_class: Any) -> None:
        original = page_class.__init__

        def init(page: Any, *args: Any, **kwargs: Any) -> None:
            original(page, *args, **kwargs)
            page.installEventFilter(watcher)

        page_class.__init__ = init

    loaded = sys.modules.get("ui.calendar.page")
    if loaded is not None:  # the breakdown imports it to time it
        watch(loaded.CalendarPage)
    else:
        sys.meta_path.insert(0, PatchOnImport("ui.calendar.page", lambda m: watch(m.CalendarPage)))


class PatchOnImport(importlib.abc.MetaPathFinder):
    """Runs `patch(module)` right after the module `name` is first executed."""

    def __init__(self, name: str, patch: Any) -> None:
        self.name = name
        self.patch = patch

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        assert spec is not None
        assert spec.loader is not None
        execute = spec.loader.exec_module

        def exec_module(module: Any) -> None:
            execute(module)
            self.patch(module)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def run_app(argv: list[str]) -> int:
    app = QApplication(sys.argv[:1])  # ui.main.main takes QApplication.instance()
    watcher = FirstPaint(lambda widget: _calendar_of(widget) is not None, _describe_calendar)
    app.watcher = watcher  # type: ignore[attr-defined]
    watch_calendar(watcher)
    from ui.main import main

    return main(argv)


class Timings:
    """Call counts and total wall time of wrapped functions (nested calls count in both)."""

    def __init__(self) -> None:
        self.table: dict[str, dict[str, float]] = {}

    def wrap(self, owner: Any, name: str, label: str) -> None:
        original = getattr(owner, name, None)
        if original is None:  # renamed by a later change: just leave it out of the table
            return
        entry = self.table.setdefault(label, {"calls": 0, "ms": 0.0})

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.monotonic()
            try:
                return original(*args, **kwargs)
            finally:
                entry["calls"] += 1
                entry["ms"] += (time.monotonic() - start) * 1000

        setattr(owner, name, timed)


def run_app_breakdown(argv: list[str]) -> int:
    app = QApplication(sys.argv[:1])
    timings = Timings()
    started = time.monotonic()
    # What `ui.main.main` imports before the first paint (the rest loads after it), timed here.
    import ui.cli
    import ui.shell.first_frame
    import ui.style

    imports_ms = (time.monotonic() - started) * 1000
    from app.store import workspace_cache
    from ui.calendar import month_view, page, tray
    from ui.shell import first_frame, main_window

    timings.wrap(ui.style, "apply_style", "apply_style (style sheet)")
    timings.wrap(first_frame.FirstFrame, "__init__", "FirstFrame.__init__ (window, calendar)")
    timings.wrap(main_window.MainWindow, "__init__", "MainWindow.__init__")
    timings.wrap(page.CalendarPage, "__init__", "CalendarPage.__init__")
    timings.wrap(first_frame.FirstFrame, "open", "FirstFrame.open (profile, lock, cache, reload)")
    timings.wrap(workspace_cache.WorkspaceCache, "__init__", "WorkspaceCache open")
    timings.wrap(page.CalendarPage, "reload", "CalendarPage.reload")
    timings.wrap(workspace_cache.WorkspaceCache, "cards_between", "WorkspaceCache.cards_between")
    timings.wrap(
        workspace_cache.WorkspaceCache, "unscheduled_cards", "WorkspaceCache.unscheduled_cards"
    )
    timings.wrap(first_frame.FirstFrame, "wait_until_painted", "FirstFrame.wait_until_painted")
    # After the measured moment, in the same paint pass: the page is painted before its
    # children, so the month's chips are drawn right after the Paint event recorded here.
    timings.wrap(month_view.MonthView, "paintEvent", "MonthView.paintEvent (after the page's)")
    timings.wrap(tray.TrayPanel, "_build_list", "tray list (built after the first paint)")

    def describe(widget: QWidget) -> dict[str, Any]:
        import gc

        return {
            "gc_tracked_objects": len(gc.get_objects()),
            **_describe_calendar(widget),
            "imports_started": started,
            "imports_ms": imports_ms,
            "timings": timings.table,
            "modules_loaded": len(sys.modules),
        }

    watcher = FirstPaint(lambda widget: _calendar_of(widget) is not None, describe)
    app.watcher = watcher  # type: ignore[attr-defined]
    watch_calendar(watcher)
    from ui.main import main

    return main(argv)


if __name__ == "__main__":
    mode, rest = sys.argv[1], sys.argv[2:]
    runners = {"empty": lambda: run_empty(), "app": lambda: run_app(rest)}
    runners["app-breakdown"] = lambda: run_app_breakdown(rest)
    code = runners[mode]()
    # Reaching this line means no first paint was seen.
    sys.stdout.write(json.dumps({"error": f"exited with {code} before the first paint"}) + "\n")
    sys.exit(1)
