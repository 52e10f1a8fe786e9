"""What the AT-SPI walk of the live demo found on Compose (docs/notes/accessibility_atspi.md):
the preview pane and the tabs of post text take the keyboard focus (a scroll area and a tab
widget) and were announced with no name. Checked on the QAccessible tree Qt's bridge serves."""

from __future__ import annotations

from tests.ui.a11y_walk import named_controls, unnamed_controls
from tests.ui.composer.conftest import Composer, until


def test_the_composer_offers_no_unnamed_control(composer: Composer) -> None:
    page = composer.page
    chosen = [(composer.account(p), p) for p in ("x", "tiktok")]

    async def body() -> None:
        await until(lambda: page.picker.list.count() > 0, what="accounts")
        page.state.set_destinations(chosen)
        await until(lambda: len(page.tabs_by_account) == len(chosen), what="the tabs")

    composer.run(body())
    names = dict((name, role) for role, name in named_controls(page))
    assert names.get("Post text by destination") == "Client"
    assert "Preview on each network" in names
    assert unnamed_controls(page) == []
