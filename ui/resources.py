"""Where the app's files (style sheet, icons, .desktop file) are: the `postdesk_resources`
package of an installed wheel (the top-level `resources/` folder, mapped in pyproject.toml), the
same folder in a source tree, or inside a frozen (PyInstaller) bundle.

A missing file is an installation fault: it raises instead of leaving the window unstyled."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path


class ResourcesMissing(RuntimeError):
    """The app's own files are not where the installation should have put them."""


def _candidates() -> list[Path]:
    found: list[Path] = []
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle is not None:
        found.append(Path(bundle) / "postdesk_resources")
    # The package's folder as the import system finds it, without importing it: reading it
    # through `importlib.resources` first imports that machinery (~10 ms before the first paint).
    try:
        spec = importlib.util.find_spec("postdesk_resources")
    except (ImportError, ValueError):
        spec = None
    if spec is not None:
        found.extend(Path(folder) for folder in spec.submodule_search_locations or ())
    found.append(Path(__file__).resolve().parent.parent / "resources")
    return found


@cache
def resources_dir() -> Path:
    for folder in _candidates():
        if (folder / "style.qss").is_file():
            return folder
    searched = ", ".join(str(folder) for folder in _candidates())
    raise ResourcesMissing(
        f"Postdesk's own files (style sheet, icons) are missing; looked in: {searched}. "
        "Reinstall Postdesk."
    )


def resource(relative: str) -> Path:
    path = resources_dir() / relative
    if not path.is_file():
        raise ResourcesMissing(f"Postdesk's file {relative} is missing from {resources_dir()}.")
    return path
