"""Save a PNG of a whole X display (for live sessions under Xvfb with no ImageMagick).

DISPLAY=:77 python -m tests.tools.xshot OUT.png
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.tools.xshot OUT.png", file=sys.stderr)
        return 2
    os.environ["QT_QPA_PLATFORM"] = "xcb"
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication([])
    screen = app.primaryScreen()
    if screen is None or not screen.grabWindow(0).save(argv[0]):
        print(f"could not grab the screen into {argv[0]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
