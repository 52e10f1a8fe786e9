"""The Webhooks page stays current (issue 14 §4), against the real sandbox: a pause on the server
shows without the user, one refresh updates header, log and chart together, deliveries that
arrive while the log is scrolled are never lost, doubled or misordered, a known webhook costs
one or two requests to select (counted by a relay in front of the sandbox, also from a new
session: the rows are kept in the workspace's file), and a replay decides itself."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from PySide6.QtCore import QModelIndex
from PySide6.QtWidgets import QApplication, QPushButton

from app.models.webhooks import DeliveryLog
from app.sandbox.harness import SandboxServer
from tests.ui.app.conftest import LoopRunner, until
from tests.ui.panels.conftest import MakeSession
from tests.ui.panels.counting_relay import CountingRelay
from tests.ui.panels.test_webhooks_page import answer, click
from tests.webhooks.receiver import receiver
from ui.panels.webhooks import WebhooksPage
from ui.panels.webhooks.logs_model import DeliveryLogsModel, LogRole

BASE = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=2)


class Relay(CountingRelay):
    """Counts several request lines: `counts[name]`."""

    def __init__(self, target_port: int, lines: dict[str, str]) -> None:
        super().__init__(target_port, b"")
        self.lines = {name: line.encode() for name, line in lines.items()}
        self.counts = dict.fromkeys(lines, 0)

    async def _to_server(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        tail = b""
        keep = max(len(line) for line in self.lines.values()) - 1
        try:
            while data := await reader.read(65536):
                seen = tail + data
                for name, line in self.lines.items():
                    self.counts[name] += seen.count(line) - tail.count(line)
                tail = seen[-keep:]
                writer.write(data)
                await writer.drain()
        finally:
            with contextlib.suppress(OSError):
                writer.close()


def add_logs(sandbox: SandboxServer, hook: str, count: int, first: int = 0) -> None:
    """`count` deliveries a second apart from two hours ago (later numbers are newer)."""
    for n in range(first, first + count):
        failed = n % 9 == 0
        sandbox.store.add_webhook_log(
            hook,
            outcome="failed" if failed else "delivered",
            attempts=3 if failed else 1,
            created_at=BASE + timedelta(seconds=n),
            data={"id": f"post-{n}"},
        )


def server_ids(sandbox: SandboxServer, hook: str) -> list[str]:
    return [row["id"] for row in sandbox.store.webhook_logs(hook)]


def shown(model: DeliveryLogsModel) -> list[DeliveryLog]:
    return [model.index(row, 0).data(LogRole) for row in range(model.rowCount())]


def ids(model: DeliveryLogsModel) -> list[str]:
    return [log.id for log in shown(model)]


def in_order(model: DeliveryLogsModel) -> bool:
    keys = [(log.created_at, log.id) for log in shown(model)]
    return all(a > b for a, b in itertools.pairwise(keys))


def at_top(page: WebhooksPage) -> bool:
    return page.logs.table.verticalScrollBar().value() == 0


def test_a_webhook_paused_on_the_server_shows_paused_on_the_open_page(
    qapp: QApplication,
    runner: LoopRunner,
    private_sandbox: SandboxServer,
    make_session: MakeSession,
) -> None:
    store = private_sandbox.store
    hook = store.create_webhook("https://hooks.example.com/a")
    page = WebhooksPage()
    page.resize(1100, 700)
    page.show()

    async def scenario() -> None:
        session = make_session(private_sandbox.base_url, private_sandbox.keys.admin)
        session.webhooks.list_every = 0.3  # a minute in the app
        page.set_session(session)
        session.start_webhooks()
        await until(lambda: page.selected is not None, what="the webhook shown")
        assert "Status: Enabled" in page.facts_label.text()
        assert page.paused_box.isHidden()
        assert session.webhooks.watched == hook  # its log is polled while the page is shown
        page.hide()
        assert session.webhooks.watched is None  # not while hidden; the list still is
        store.set_webhook_paused(hook)
        await until(lambda: page.model.index(0, 0).data() == "Paused", what="paused, unasked")
        page.show()
        assert session.webhooks.watched == hook
        assert "Status: Paused" in page.facts_label.text()
        assert "Failures: 5/5" in page.facts_label.text()
        assert not page.paused_box.isHidden()

    runner.run(scenario())


def test_one_refresh_updates_header_log_and_chart_together_reading_the_list_once(
    qapp: QApplication,
    runner: LoopRunner,
    private_sandbox: SandboxServer,
    make_session: MakeSession,
) -> None:
    store = private_sandbox.store
    hook = store.create_webhook("https://hooks.example.com/a")
    add_logs(private_sandbox, hook, 2, first=1)
    relay = Relay(
        urlsplit(private_sandbox.base_url).port or 0,
        {"list": "GET /api/webhooks HTTP", "logs": f"GET /api/webhooks/{hook}/logs"},
    )
    page = WebhooksPage()
    page.resize(1100, 700)
    page.show()

    async def scenario() -> None:
        await relay.up()
        session = make_session(relay.base_url, private_sandbox.keys.admin)
        page.set_session(session)
        chart = page.chart
        await until(
            lambda: chart.timeline is not None and chart.timeline.delivered == 2, what="chart"
        )
        await until(lambda: not len(page.tasks), what="quiet")
        # On the server: a failed delivery, and the webhook paused after its sixth failure.
        store.add_webhook_log(
            hook, outcome="failed", attempts=3, created_at=BASE + timedelta(seconds=10)
        )
        store.set_webhook_paused(hook, failures=6)
        lists, logs = relay.counts["list"], relay.counts["logs"]
        session.refresh()  # F5
        await until(
            lambda: (
                "Paused" in page.facts_label.text()
                and page.logs.model.rowCount() == 3
                and chart.timeline is not None
                and chart.timeline.failed == 1
            ),
            what="header, log and chart",
        )
        assert "Failures: 6 (pauses at 5)" in page.facts_label.text()
        assert "3 of 3 loaded" in page.logs.status_label.text()
        assert "33% delivered" not in chart.summary()  # 2 delivered of 3 settled: 67 %
        assert "67% delivered" in chart.summary()
        await until(lambda: not session.webhooks.busy and not len(page.tasks), what="quiet")
        assert relay.counts["list"] - lists == 1
        assert relay.counts["logs"] - logs == 1
        await relay.down()

    runner.run(scenario())


def test_deliveries_arriving_while_scrolled_down_are_never_lost_doubled_or_misordered(
    qapp: QApplication,
    runner: LoopRunner,
    private_sandbox: SandboxServer,
    make_session: MakeSession,
) -> None:
    hook = private_sandbox.store.create_webhook("https://hooks.example.com/a")
    add_logs(private_sandbox, hook, 139)
    page = WebhooksPage()
    page.resize(1200, 800)
    page.show()

    async def scenario() -> None:
        page.set_session(make_session(private_sandbox.base_url, private_sandbox.keys.admin))
        model, table, view = page.logs.model, page.logs.table, page.logs

        def scrolled_to(count: int) -> bool:
            table.scrollToBottom()  # as a user keeps scrolling
            return model.rowCount() >= count and not model.loading

        await until(lambda: scrolled_to(60), what="sixty rows")
        assert not at_top(page)
        # Twenty new deliveries push every row of the server's pages down by 1⅓ pages.
        add_logs(private_sandbox, hook, 20, first=139)
        await until(
            lambda: scrolled_to(139) and not model.canFetchMore(QModelIndex()), what="the end"
        )
        old = server_ids(private_sandbox, hook)[20:]
        assert ids(model) == old  # every row once, none lost, in order
        assert in_order(model)
        click(page.refresh_button)  # or the timer: the new ones wait above, announced
        bar = view.findChild(QPushButton, "newDeliveries")
        await until(lambda: bar is not None and bar.isVisible(), what="the new-deliveries bar")
        assert bar is not None
        assert bar.text() == "20 new deliveries ▲"
        assert ids(model) == old  # not pushed in above what the user reads
        click(bar)
        assert ids(model) == server_ids(private_sandbox, hook)
        assert in_order(model)
        assert at_top(page)
        assert bar.isHidden()
        assert "159 of 159 loaded" in view.status_label.text()

    runner.run(scenario())


def test_selecting_a_known_webhook_again_costs_at_most_two_requests(
    qapp: QApplication,
    runner: LoopRunner,
    private_sandbox: SandboxServer,
    make_session: MakeSession,
) -> None:
    store = private_sandbox.store
    known = store.create_webhook("https://hooks.example.com/known")
    other = store.create_webhook("https://hooks.example.com/other")
    add_logs(private_sandbox, known, 40)
    add_logs(private_sandbox, other, 3)
    relay = Relay(
        urlsplit(private_sandbox.base_url).port or 0,
        {"known": f"GET /api/webhooks/{known}/logs"},
    )
    page = WebhooksPage()
    page.resize(1200, 800)
    page.show()

    async def selected(webhook_id: str, rows: int = 0) -> None:
        """Select it; with `rows`, scroll until that many are loaded."""
        page.select_webhook(webhook_id)
        model = page.logs.model

        def loaded() -> bool:
            if rows:
                page.logs.table.scrollToBottom()  # reads the rows not kept yet
            selected = page.selected is not None and page.selected.id == webhook_id
            return selected and model.rowCount() >= max(rows, 1)

        await until(loaded, what=f"{rows} rows")
        await until(lambda: page.chart.timeline is not None, what="the chart")
        await until(lambda: not len(page.tasks), what="the page's reads to end")

    async def scenario() -> None:
        await relay.up()
        page.set_session(make_session(relay.base_url, private_sandbox.keys.admin, "ws"))
        await until(lambda: page.model.rowCount() == 2, what="the webhooks")
        await selected(known, 40)  # read once: its whole log, scrolled to the end
        await selected(other)
        add_logs(private_sandbox, known, 5, first=40)
        before = relay.counts["known"]
        await selected(known)
        assert relay.counts["known"] - before <= 2
        assert page.logs.model.rowCount() == 45  # the kept rows at once, the new ones on top
        timeline = page.chart.timeline
        assert timeline is not None
        assert timeline.delivered + timeline.failed == 45  # the chart walked no pages
        # Another session of the same workspace (the app started again): the rows are kept in
        # its file, the log shows all 45 and costs one request to top up.
        page.set_session(make_session(relay.base_url, private_sandbox.keys.admin, "ws"))
        await until(lambda: page.model.rowCount() == 2, what="the webhooks again")
        before = relay.counts["known"]
        await selected(known)
        assert relay.counts["known"] - before <= 2
        assert page.logs.model.rowCount() == 45
        await relay.down()

    runner.run(scenario())


def test_a_replayed_delivery_goes_from_queued_to_delivered_by_itself(
    qapp: QApplication,
    runner: LoopRunner,
    private_sandbox: SandboxServer,
    make_session: MakeSession,
) -> None:
    store = private_sandbox.store
    engine = private_sandbox.engine
    assert engine is not None
    page = WebhooksPage()
    page.resize(1200, 800)
    page.show()

    async def scenario() -> None:
        with receiver(status=200) as target:
            hook = store.create_webhook(target.url, ["post.failed"])
            store.add_webhook_log(
                hook,
                outcome="failed",
                attempts=3,
                event_type="post.failed",
                created_at=datetime.now(UTC) - timedelta(minutes=1),
            )
            session = make_session(private_sandbox.base_url, private_sandbox.keys.admin)
            session.webhooks.undecided_every = 0.2  # five seconds in the app
            page.set_session(session)
            session.start_webhooks()
            model = page.logs.model
            await until(lambda: model.rowCount() == 1, what="the log")
            page.logs.select_row(0)
            click(page.logs.replay_button)
            answer(page.question)
            await until(
                lambda: model.rowCount() == 2 and model.index(0, 2).data() == "Queued",
                what="the queued replay",
            )
            await asyncio.to_thread(engine.run_once)  # the service sends it
            # Polled every 0.2 s while undecided (the log's usual pace is 20 s).
            decided = lambda: model.index(0, 2).data() == "Delivered"  # noqa: E731
            await until(decided, limit=5, what="decided, unasked")
            assert model.index(0, 3).data() == "200"
            assert len(target.got) == 1

    runner.run(scenario())
