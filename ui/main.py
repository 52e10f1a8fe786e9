"""`postdesk` entry point: paint first, then load the rest, and the one exit path for start-up
failures (a sentence for the user, never a traceback).

The order is the point: the window with the cached calendar (`ui.shell.first_frame`) is shown
and painted before asyncio, qasync, the application shell, the client and the other pages are
imported; the app then takes that window over. `tests/test_startup_imports.py` checks it.
"""

from __future__ import annotations

import gc
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from threading import Thread

    from PySide6.QtWidgets import QApplication

    from ui.cli import Options
    from ui.shell.first_frame import FirstFrame


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--sandbox-child"]:  # a frozen build runs its demo server this way
        from app.workspaces.demo import run_sandbox_child

        return run_sandbox_child(args[1:])
    if args[:1] == ["import"]:  # headless CSV import: no window, no Qt
        from app.csv_io.cli import main as import_csv

        return import_csv(args)
    if args[:1] == ["export"]:  # headless CSV export: reads the server, writes the file
        from app.csv_io.export_cli import main as export_csv

        return export_csv(args)
    # Up to the first paint nothing made becomes garbage (modules, classes, Qt's types, the
    # window and the shown posts all live on), yet young collections would walk it all again and
    # again (~10 ms). `_paint_first` turns the collector back on once the window is painted.
    gc.disable()
    try:
        return _start(args)
    finally:
        gc.enable()  # already on after the paint; here for the paths that end before it


def _start(args: list[str]) -> int:
    from ui.shell.feature_scan import skip_feature_scan

    skip_feature_scan()  # before any other module is imported: PySide6 would read its source
    from ui.cli import parse_args

    options = parse_args(args)
    from PySide6.QtWidgets import QApplication

    from ui.resources import ResourcesMissing
    from ui.shell.startup import AlreadyRunning, StartupError, log_unexpected, report_failure
    from ui.style import apply_style

    qt_app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(qt_app, QApplication)
    qt_app.setApplicationName("Postdesk")
    qt_app.setOrganizationName("Postdesk")
    # The desktop matches the window to postdesk.desktop (not "python3" from a venv), and the
    # icon is the window's _NET_WM_ICON.
    qt_app.setDesktopFileName("postdesk")
    from ui.shell.app_icon import app_icon

    qt_app.setWindowIcon(app_icon())
    try:
        apply_style(qt_app, options.theme)
    except ResourcesMissing as error:
        report_failure(str(error))
        return 2
    try:
        return _run(qt_app, options)
    except KeyboardInterrupt:  # Ctrl+C before the window's handler was installed
        return 130
    except AlreadyRunning as error:
        from app.workspaces.profiles import Paths
        from ui.shell.single_instance import ask_running_to_raise, socket_name

        if ask_running_to_raise(socket_name(Paths().data_dir)):
            print("postdesk: Postdesk is already running; its window is in front now.")
            return 0
        report_failure(str(error))
        return 2
    except StartupError as error:
        report_failure(str(error))
        return 2
    except Exception as error:  # the last line of defence: a sentence, and the details in a file
        from app.store.disk_full import disk_full_message, is_disk_full
        from app.workspaces.profiles import Paths

        if is_disk_full(error):  # not a bug: no traceback to keep (and no room to keep it)
            report_failure(disk_full_message(error))
            return 2

        log = log_unexpected(error, Paths().cache_dir)
        where = f" The details are in {log}." if log is not None else ""
        report_failure(f"Postdesk stopped because of an unexpected error ({error}).{where}")
        return 1


def _run(qt_app: QApplication, options: Options) -> int:
    from ui.shell.font_database import start_loading_fonts

    frame = _paint_first(options, start_loading_fonts())
    import asyncio

    from ui.application import Application
    from ui.event_loop import EventLoop
    from ui.shell.interrupt import quit_on_sigint, restore_sigint

    async def run() -> int:
        app = Application(qt_app, options, frame=frame)
        quit_on_sigint(app.quit, app.window)
        return await app.run()

    try:
        with asyncio.Runner(loop_factory=EventLoop) as runner:
            return runner.run(run())
    finally:
        restore_sigint()


def _paint_first(options: Options, fonts: Thread) -> FirstFrame:
    """The window with the cached calendar, on screen and painted (see the module's docstring).
    The collector is off until then (`main`); `fonts` fills Qt's font database meanwhile."""
    gc.disable()  # already, unless called on its own
    try:
        from ui.shell.first_frame import FirstFrame

        frame = FirstFrame(options)
        try:
            frame.open()
            frame.wait_until_painted()
        except BaseException:
            frame.close()
            raise
    finally:
        fonts.join()
        gc.enable()
    return frame


if __name__ == "__main__":
    sys.exit(main())
