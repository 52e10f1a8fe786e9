"""The start-up path stays light: `postdesk` paints the cached calendar before it imports the
event loop, the client, the models, the shell's menus and the other pages.

Each check runs in a fresh interpreter, since this test process has imported everything already.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.store import WorkspaceCache
from app.workspaces.profiles import Paths, ProfileStore
from tests.fresh_process import run_python, xdg_environment
from tests.store.factories import make_post
from ui.shell.first_workspace import profile_for_base_url

BASE_URL = "http://127.0.0.1:9/api"  # nothing listens there: nothing may be asked before paint

LATE_MODULES = (
    # slow to import, or only needed once the window is up
    "asyncio",
    "qasync",
    "ssl",
    "socket",
    "httpx",
    "keyring",
    "pydantic",
    "app.api",
    "app.models",
    "app.sync",
    "app.workspaces.demo",
    "app.workspaces.key_vault",
    "app.workspaces.verification",
    "importlib.resources",  # finding the style sheet needs only the import system
    "concurrent.futures",  # the cache's writer queue, made at its first write
    "_hashlib",  # OpenSSL: the `--base-url` workspace's id uses CPython's own SHA-256
    "calendar",  # and `locale` with it: the month grid counts its days itself
    # the shell and the pages that are not on screen
    "ui.application",
    "ui.workspace_manager",
    "ui.session",
    "ui.tasks",
    "ui.shell.registry",
    "ui.shell.palette",
    "ui.shell.pages",
    "ui.shell.workspace_flows",
    "ui.shell.notify",
    "ui.notifications",
    "ui.composer",
    "ui.panels",
    "ui.dialogs",
    # the calendar's parts the month's first paint does not show
    "html",  # tooltips, on the first hover
    "ui.calendar.post_list",  # the tray's rows (built after the first paint), agenda, popup
    "ui.calendar.post_list_view",
    "ui.calendar.day_popup",
    "ui.calendar.confirm",
    "ui.calendar.week_view",
    "ui.calendar.detail_panel",
    "ui.calendar.reschedule_dialog",
)

LATE_QT_CLASSES = (
    # PySide6 makes a class (and its Python enums) on first use: each costs 0.5-6 ms at start
    "QtWidgets.QStyle",  # the item delegates' state flags
    "QtWidgets.QMessageBox",  # confirmations
    "QtCore.QMimeData",  # dragging a post
    "QtCore.QMetaMethod",  # moving a post to the drafts
    "QtWidgets.QToolTip",  # a drop on a time that has passed
)

# Stops the real entry point once its first frame has been painted, and reports.
AT_FIRST_PAINT = """
import json, os, sys
import ui.main  # imports nothing of the app yet: `main` decides the order

paint_first = ui.main._paint_first

def report(options, fonts):
    frame = paint_first(options, fonts)
    calendar = frame.calendar
    print(json.dumps({
        "painted": frame.window.painted,
        "source": type(frame.opening.painted_from).__name__,
        "shown": [post_id for post_id in POST_IDS if calendar.entry(post_id) is not None],
        "late": [name for name in LATE if name in sys.modules],
        "late_qt": [
            name for name in LATE_QT
            if name.split(".")[1] in vars(sys.modules["PySide6." + name.split(".")[0]])
        ],
        # PySide6 reads the source of each module imported after it unless told not to
        "sources_read": [
            path for path in getattr(sys.modules.get("linecache"), "cache", {})
            if "/ui/" in path or "/app/" in path
        ],
    }), flush=True)
    os._exit(0)

ui.main._paint_first = report
sys.exit(ui.main.main(ARGS))
"""


def warm_cache(env: dict[str, str], monkeypatch: pytest.MonkeyPatch, profile_id: str) -> list[str]:
    """The cache of one workspace, with posts around today; returns their ids."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    now = datetime.now(UTC).replace(microsecond=0)
    posts = [
        make_post(f"post-{day}", scheduled_at=f"{now + timedelta(days=day):%Y-%m-%d %H:%M:%S}")
        for day in (-1, 0, 1)
    ]
    with WorkspaceCache(Paths().profile_db(profile_id)) as cache:
        cache.replace_all_posts(posts)
    return [post.id for post in posts]


def first_paint(args: list[str], env: dict[str, str], post_ids: list[str]) -> dict[str, object]:
    code = (
        f"LATE = {LATE_MODULES!r}\nLATE_QT = {LATE_QT_CLASSES!r}\n"
        f"POST_IDS = {post_ids!r}\nARGS = {args!r}\n" + AT_FIRST_PAINT
    )
    stdout = run_python(code, env)
    result: dict[str, object] = json.loads(stdout.strip().splitlines()[-1])
    return result


def test_the_cached_calendar_paints_before_anything_slow_is_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = xdg_environment(tmp_path)
    post_ids = warm_cache(env, monkeypatch, profile_for_base_url(BASE_URL, "UTC").id)
    env["POSTDESK_API_KEY"] = "key-of-this-test"

    seen = first_paint(["--base-url", BASE_URL], env, post_ids)

    assert seen["painted"] is True
    assert seen["source"] == "WorkspaceCache", "the calendar was painted from the cache"
    assert seen["shown"] == post_ids, "the cached posts are on the painted calendar"
    assert seen["late"] == []
    assert seen["late_qt"] == []
    assert seen["sources_read"] == []


def test_a_saved_workspace_paints_before_its_key_is_looked_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = xdg_environment(tmp_path)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    saved = ProfileStore(Paths()).upsert_by_address("Shop", BASE_URL, "UTC")
    post_ids = warm_cache(env, monkeypatch, saved.id)

    seen = first_paint([], env, post_ids)

    assert seen["painted"] is True
    assert seen["source"] == "WorkspaceCache"
    assert seen["shown"] == post_ids
    assert seen["late"] == []
    assert seen["late_qt"] == []
    assert seen["sources_read"] == []


def test_the_start_up_modules_import_nothing_slow() -> None:
    code = (
        "import sys\nimport ui.main, ui.cli, ui.style, ui.shell.first_frame, app.store\n"
        f"late = [name for name in {LATE_MODULES!r} if name in sys.modules]\n"
        "assert not late, late\n"
    )
    run_python(code)


def test_no_garbage_collection_runs_before_the_first_frame_and_fonts_load_meanwhile(
    tmp_path: Path,
) -> None:
    # Importing PySide6 and making the application create objects that all live on: collecting
    # them before the window is painted only walks them (~30 young collections, ~3.5 ms).
    code = (
        "import gc, json, os, sys\n"
        "collections = []\n"
        "gc.callbacks.append(lambda phase, info: phase == 'start' and collections.append(1))\n"
        "import ui.main\n"
        "def stop(options, fonts):\n"
        "    fonts.join()\n"
        "    print(json.dumps({'collections': len(collections), 'on': gc.isenabled(),\n"
        "                      'fonts': fonts.name}))\n"
        "    sys.stdout.flush()\n"
        "    os._exit(0)\n"
        "ui.main._paint_first = stop\n"
        "collections.clear()\n"
        f"ui.main.main(['--base-url', {BASE_URL!r}])\n"
    )
    stdout = run_python(code, xdg_environment(tmp_path))
    seen = json.loads(stdout.strip().splitlines()[-1])
    assert seen == {"collections": 0, "on": False, "fonts": "postdesk-fonts"}
