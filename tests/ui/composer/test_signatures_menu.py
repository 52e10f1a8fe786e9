"""Issue 15 §4: the first Ctrl+Shift+S showed "Loading signatures…" forever; the open menu now
fills in when the signatures arrive."""

from __future__ import annotations

from tests.ui.composer.conftest import Composer, until


def test_the_first_signatures_menu_fills_in_when_they_arrive(composer: Composer) -> None:
    page = composer.page
    page.data.signatures = None  # as on the first open of a session

    async def body() -> None:
        page.menus.show_signatures()
        menu = page.menus.open_signatures_menu
        assert menu is not None
        assert [a.text() for a in menu.actions()] == ["Loading signatures…"]
        await until(
            lambda: [a.text() for a in menu.actions()] != ["Loading signatures…"],
            what="the menu filled in",
        )
        menu.close()

    composer.run(body())
