"""Each guard against a double send holds on its own (the disabled button is only the first):
the page's busy check, the write gate, the outbox's source key; and a refusal lands on the
right destination when some are switched off."""

from __future__ import annotations

import asyncio

from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app.compose.document import ComposerDocument, ScheduleMode
from app.sync.outbox import OutboxState
from tests.ui.composer.conftest import Composer, until
from ui.tasks import TaskGroup
from ui.write_gate import WriteGate


def test_the_write_gate_runs_one_write_per_key(qapp: QApplication) -> None:
    errors: list[BaseException] = []
    gate = WriteGate(TaskGroup(errors.append))
    ran: list[str] = []
    events: list[tuple[str, bool]] = []
    gate.busyChanged.connect(lambda key, busy: events.append((key, busy)))

    async def write(name: str, release: asyncio.Event) -> None:
        ran.append(name)
        await release.wait()

    async def body() -> None:
        release = asyncio.Event()
        first = gate.run("post-1", write("first", release))
        assert first is not None
        second_coro = write("second", release)
        assert gate.run("post-1", second_coro) is None
        assert second_coro.cr_frame is None  # closed: it can never run
        other = gate.run("post-2", write("other", release))
        assert other is not None
        assert gate.is_busy("post-1")
        assert gate.busy_keys() == {"post-1", "post-2"}
        release.set()
        await asyncio.gather(first, other)
        await asyncio.sleep(0)
        assert not gate.is_busy("post-1")
        again = gate.run("post-1", write("again", release))
        assert again is not None
        await again

    asyncio.run(body())
    assert ran == ["first", "other", "again"]
    assert events[:3] == [("post-1", True), ("post-2", True), ("post-1", False)]
    assert errors == []


def test_a_send_asked_for_while_this_posts_write_runs_neither_asks_nor_sends(
    composer: Composer,
) -> None:
    """The button can be enabled while this draft's write still runs (another write of the page
    finished and re-enabled it; Ctrl+Return needs no button): the page itself must refuse."""
    page = composer.page
    release, other_done = asyncio.Event(), asyncio.Event()

    async def held(until_set: asyncio.Event) -> None:
        await until_set.wait()

    async def body() -> None:
        composer.choose("linkedin")
        QTest.keyClicks(page.shared.text, "Right now")
        page.schedule.set_mode(ScheduleMode.PUBLISH_NOW)
        await until(page.schedule.send.isEnabled, what="a valid form")
        draft = page.state.doc.draft_id
        assert page.send_flow.gate.run(draft, held(release)) is not None
        assert page.send_flow.gate.run("replace:another-post", held(other_done)) is not None
        assert not page.schedule.send.isEnabled()
        other_done.set()  # that write ends first
        await until(
            lambda: not page.send_flow.gate.is_busy("replace:another-post"), what="other write"
        )
        assert page.send_flow.gate.is_busy(draft)
        page.send()
        page.send()
        await asyncio.sleep(0)
        assert page.send_flow.publish_box is None, "asked to publish again"
        release.set()
        await until(lambda: not page.send_flow.gate.busy_keys(), what="the held write")

    composer.run(body())
    assert composer.sandbox.store.post_count() == 0
    assert page.send_flow.sending is not None
    assert page.send_flow.sending.entries() == []


def test_the_same_draft_revision_sent_twice_is_one_outbox_entry(composer: Composer) -> None:
    """Two sends of one saved revision reaching the outbox together (a second window, a lost
    guard) are one entry: its source key is the draft and its revision."""
    page = composer.page
    sending = page.send_flow.sending
    assert sending is not None
    doc = ComposerDocument(content="Once from two places")
    doc.add_destination(composer.account("linkedin"), "linkedin")
    doc.add_destination(composer.account("x"), "x")

    async def body() -> None:
        outcomes = await asyncio.gather(
            sending.send_new(doc, draft_id=doc.draft_id, revision=3, progress=lambda _: None),
            sending.send_new(doc, draft_id=doc.draft_id, revision=3, progress=lambda _: None),
        )
        assert [o.state for o in outcomes] == ["sent", "sent"]
        assert outcomes[0].entry_id == outcomes[1].entry_id

    composer.run(body())
    assert len(sending.entries()) == 1
    assert composer.sandbox.store.post_count() == 2


def test_a_new_revision_of_the_draft_is_a_new_entry(composer: Composer) -> None:
    page = composer.page
    sending = page.send_flow.sending
    assert sending is not None
    doc = ComposerDocument(content="Twice, on purpose")
    doc.add_destination(composer.account("linkedin"), "linkedin")

    async def body() -> None:
        for revision in (1, 2):
            outcome = await sending.send_new(
                doc, draft_id=doc.draft_id, revision=revision, progress=lambda _: None
            )
            assert outcome.state == "sent"

    composer.run(body())
    assert len(sending.entries()) == 2
    assert composer.sandbox.store.post_count() == 2


def test_a_refusal_lands_on_the_document_destination_when_earlier_ones_are_off(
    composer: Composer,
) -> None:
    """The batch leaves switched-off destinations out, so its `destinations.0` is the
    document's second one here."""
    page = composer.page
    sending = page.send_flow.sending
    assert sending is not None
    doc = ComposerDocument(content="Pin it")
    doc.add_destination(composer.account("linkedin"), "linkedin").enabled = False
    pin = doc.add_destination(composer.account("pinterest"), "pinterest")
    pin.meta = {"board_id": "no-such-board"}

    async def body() -> object:
        return await sending.send_new(
            doc, draft_id=doc.draft_id, revision=1, progress=lambda _: None
        )

    outcome = composer.run(body())
    assert outcome.state == "refused"
    assert "destinations.1.meta.board_id" in outcome.errors, outcome.errors
    assert not any(path.startswith("destinations.0") for path in outcome.errors)
    [entry] = sending.entries()
    assert entry.state is OutboxState.NEEDS_ATTENTION
    assert composer.sandbox.store.post_count() == 0
