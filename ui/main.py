"""`postdesk` entry point: QApplication + qasync loop bootstrap."""

from __future__ import annotations

import asyncio
import sys

from PySide6.QtWidgets import QApplication


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--sandbox-child"]:  # a frozen build runs its demo server this way
        from app.workspaces.demo import run_sandbox_child

        return run_sandbox_child(args[1:])
    from ui.cli import parse_args

    options = parse_args(args)
    import qasync

    from ui.application import Application, StartupError
    from ui.resources import ResourcesMissing
    from ui.style import apply_style

    qt_app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(qt_app, QApplication)
    qt_app.setApplicationName("Postdesk")
    qt_app.setOrganizationName("Postdesk")
    try:
        apply_style(qt_app)
    except ResourcesMissing as error:
        print(f"postdesk: {error}", file=sys.stderr)
        return 2

    async def run() -> int:
        return await Application(qt_app, options).run()

    try:
        with asyncio.Runner(loop_factory=qasync.QEventLoop) as runner:
            return runner.run(run())
    except StartupError as error:
        print(f"postdesk: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
