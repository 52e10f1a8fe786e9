"""The wheel carries everything the app needs (style sheet, icons, every package) and the app
installed from it starts. Built offline from a copy of the source (no network, no build/ left in
the tree)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("app", "ui", "resources", "pyproject.toml", "README.md")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        origin = ROOT / name
        if origin.is_dir():
            shutil.copytree(origin, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(origin, source / name)
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         "--no-index", str(source), "-w", str(out)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-2000:]
    (path,) = out.glob("postdesk-*.whl")
    return path


def test_the_wheel_ships_the_style_sheet_the_icons_and_the_desktop_file(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "postdesk_resources/style.qss" in names
    assert "postdesk_resources/postdesk.desktop" in names
    icons = {Path(name).name for name in names if name.startswith("postdesk_resources/icons/")}
    shipped = {path.name for path in (ROOT / "resources" / "icons").glob("*.svg")}
    assert shipped
    assert icons == shipped


def test_every_package_of_the_source_tree_is_in_the_wheel(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    packages = {
        path.parent.relative_to(ROOT).as_posix()
        for top in ("app", "ui")
        for path in (ROOT / top).rglob("__init__.py")
        if "__pycache__" not in path.parts
    }
    missing = sorted(p for p in packages if f"{p}/__init__.py" not in names)
    assert not missing, f"add these to [tool.setuptools] packages in pyproject.toml: {missing}"


def test_the_app_installed_from_the_wheel_starts(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
         "--target", str(target), str(wheel)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr[-2000:]
    shot = tmp_path / "shot.png"
    env = {
        **os.environ,
        "PYTHONPATH": str(target),  # before the source tree's editable install
        "QT_QPA_PLATFORM": "offscreen",
    }
    started = subprocess.run(
        [sys.executable, "-c",
         "import sys, ui.resources, ui.main\n"
         f"assert str(ui.resources.resources_dir()).startswith({str(target)!r})\n"
         "sys.exit(ui.main.main(sys.argv[1:]))",
         "--demo", "--screenshot", str(shot)],
        capture_output=True, text=True, timeout=180, cwd=tmp_path, env=env, check=False,
    )  # fmt: skip
    assert started.returncode == 0, started.stderr[-2000:]
    assert shot.stat().st_size > 10_000
