"""Turn off PySide6's source scan of every module imported after it.

PySide6 replaces `builtins.__import__`. The first time any module is imported after PySide6
(our own, the standard library's: `import os` in a new module counts too), PySide6 reads that
module's whole source file (`inspect.getsource` in `shibokensupport.feature`) to see whether it
mentions "PySide6", so that it knows which modules may switch on `from __feature__ import
snake_case, true_property`. Postdesk uses neither switch (`tests/ui/shell/test_feature_scan.py`
holds that), yet the reading cost ~11 ms before the first paint (115 files) and ~18 ms by the
time the app was up, and every page's modules paid it again when first opened. Measured again
for issue 18 (407 calls before the paint, 54-216 ms at load 5): `docs/notes/speed_tricks.md`.

`skip_feature_scan` makes the scan answer "uses PySide6" for every module without reading it.
That is the answer a module importing PySide6 gets anyway, and for a program without feature
switches it means the same for all: Qt's classes show their normal names and properties. With
another PySide6 whose scan is not where this looks, nothing changes (the scan stays on).
"""

from __future__ import annotations

import sys

_SCAN_MODULE = "shibokensupport.feature"
_SCAN_FUNCTION = "_mod_uses_pyside"


def skip_feature_scan() -> bool:
    """Import PySide6 (which starts the scan) and turn the scan off; call it before importing
    anything else. True when the scan is now off."""
    import PySide6  # noqa: F401  # loads shiboken6, which replaces the import function

    feature = sys.modules.get(_SCAN_MODULE)
    if feature is None or not callable(getattr(feature, _SCAN_FUNCTION, None)):
        return False
    setattr(feature, _SCAN_FUNCTION, _uses_pyside)
    return True


def _uses_pyside(module: object) -> bool:
    return True
