"""PySide6's source scan of imported modules is off once `skip_feature_scan` ran, and nothing in
Postdesk needs what the scan is for (`from __feature__ import ...`)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from tests.fresh_process import ROOT, run_python

# Two new modules, imported after PySide6: one before the scan is turned off, one after.
SCANNED_OR_NOT = """
import json, linecache, sys
sys.path.insert(0, FOLDER)
import PySide6.QtCore
import before_skip
from ui.shell.feature_scan import skip_feature_scan
turned_off = skip_feature_scan()
import after_skip
read = [name for name in ("before_skip", "after_skip")
        if sys.modules[name].__file__ in linecache.cache]
print(json.dumps({"turned_off": turned_off, "read": read}))
"""


def test_modules_imported_after_the_scan_is_off_are_not_read(tmp_path: Path) -> None:
    for name in ("before_skip", "after_skip"):
        (tmp_path / f"{name}.py").write_text("VALUE = 1\n", encoding="utf-8")

    stdout = run_python(f"FOLDER = {str(tmp_path)!r}\n" + SCANNED_OR_NOT)

    seen = json.loads(stdout.strip().splitlines()[-1])
    # The first one shows the scan is real in this PySide6 (else the switch is obsolete).
    assert seen == {"turned_off": True, "read": ["before_skip"]}


def test_no_module_of_postdesk_switches_on_pyside_features() -> None:
    # The scan only decides which modules may use `from __feature__ import snake_case, ...`;
    # with it off, a module doing so would get the wrong names for Qt's methods.
    users = []
    for package in ("app", "ui", "tests"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                imported = (
                    [node.module]
                    if isinstance(node, ast.ImportFrom)
                    else [alias.name for alias in node.names]
                    if isinstance(node, ast.Import)
                    else []
                )
                if "__feature__" in imported:
                    users.append(str(path.relative_to(ROOT)))
    assert users == []
