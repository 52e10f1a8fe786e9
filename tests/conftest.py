"""Test-wide environment: offscreen Qt, private XDG folders, the sandbox fixtures."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_runtime_dir = Path(tempfile.mkdtemp(prefix="postdesk-xdg-runtime-"))
_runtime_dir.chmod(0o700)
os.environ["XDG_RUNTIME_DIR"] = str(_runtime_dir)
os.environ.pop("POSTDESK_API_KEY", None)
# No test talks to this desktop's session bus (its notification server would show the tests'
# alerts); tests that need a bus start their own (tests/ui/fake_notifications.py).
os.environ.pop("DBUS_SESSION_BUS_ADDRESS", None)

pytest_plugins = ["tests.sandbox_fixtures"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under `make mutate` only: a mutant's tests run fastest first (by the durations mutmut
    recorded), so a killed mutant stops at its first cheap failure. Most of app/api's mutants
    are covered by its 15-s rate-limit test; in file order they waited for it."""
    if os.environ.get("MUTANT_UNDER_TEST", "") in ("", "stats", "fail", "list_all_tests"):
        return
    try:
        durations = json.loads(Path("mutmut-stats.json").read_text())["duration_by_test"]
    except (OSError, ValueError, KeyError):
        return
    items.sort(key=lambda item: durations.get(item.nodeid, 0.0))


@pytest.fixture(autouse=True)
def private_xdg_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Config, data and cache of the app go to the test's own folder, never the user's."""
    home = tmp_path / "xdg"
    for variable in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        folder = home / variable.lower()
        folder.mkdir(parents=True)
        monkeypatch.setenv(variable, str(folder))
    monkeypatch.delenv("POSTDESK_API_KEY", raising=False)
    return home


@pytest.fixture(autouse=True)
def application_look_restored() -> Iterator[None]:
    """Each test leaves the QApplication's look (style sheet, palette, font) as it found it:
    a test that starts the whole app applies the theme's style sheet, and the sizes it sets
    (paddings, fonts) made later layout tests depend on the order they ran in."""
    import sys

    widgets = sys.modules.get("PySide6.QtWidgets")
    app = widgets.QApplication.instance() if widgets is not None else None
    before = (app.styleSheet(), app.palette(), app.font()) if app is not None else None
    yield
    if app is None or before is None:
        return
    sheet, palette, font = before
    if app.styleSheet() != sheet:
        app.setStyleSheet(sheet)
    if app.palette() != palette:
        app.setPalette(palette)
    if app.font() != font:
        app.setFont(font)
