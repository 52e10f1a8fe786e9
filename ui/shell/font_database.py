"""Qt's font database, filled on a thread while the first frame's modules are imported.

The first widget that shows text makes Qt ask fontconfig for every installed font (~5 ms, in
`MainWindow`). QFontDatabase is thread-safe and its C++ work runs without the GIL, so a thread
can do it while the main thread is busy importing Python; whoever needs fonts first waits on
Qt's lock for the rest of it.
"""

from __future__ import annotations

import threading

from PySide6.QtGui import QFontDatabase


def start_loading_fonts() -> threading.Thread:
    """Start filling the font database (needs the QApplication); join the thread when done."""
    thread = threading.Thread(target=QFontDatabase.families, name="postdesk-fonts", daemon=True)
    thread.start()
    return thread
