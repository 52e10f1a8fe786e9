"""Issue 19 §3: answers that are too big, too deep or too slow end with a message naming what was
refused, not with gigabytes, a RecursionError or "Syncing…" for ever."""

from __future__ import annotations

import functools
import ssl
import threading
import time
from collections.abc import Iterator

import pytest

from app.api import errors as e
from app.api.bounded_body import MAX_BODY_BYTES, BodyDecoder, BodyRefused
from app.api.client import ApiClient
from tests.tools.odd_server import OddServer


@pytest.fixture
def bomb() -> Iterator[OddServer]:
    with OddServer(modes={"gzipbomb"}, quiet=True) as server:
        yield server


@pytest.mark.asyncio
async def test_a_gzip_bomb_is_refused_once_past_the_cap(bomb: OddServer) -> None:
    async with ApiClient(bomb.base_url, "odd-key") as api:
        with pytest.raises(e.ProtocolError, match=r"larger than 64 MB once unpacked") as caught:
            await api.posts.page(1)
        assert "GET /posts" in caught.value.message
    assert bomb.stats()["requests"] == 1  # refused, not retried


@pytest.mark.asyncio
async def test_data_nested_ten_thousand_levels_is_named_not_a_recursion_error() -> None:
    with OddServer(modes={"deep"}, quiet=True) as server:
        async with ApiClient(server.base_url, "odd-key") as api:
            with pytest.raises(e.ProtocolError, match=r"nested more than 200 levels deep"):
                await api.posts.page(1)
            with pytest.raises(e.ProtocolError, match=r"nested"):
                await api.posts.fetch_all()


@pytest.mark.asyncio
async def test_a_server_sending_a_byte_a_second_meets_the_whole_request_deadline() -> None:
    with OddServer(modes={"trickle"}, quiet=True) as server:
        async with ApiClient(server.base_url, "odd-key", timeout=5.0) as api:
            api._transport.deadline = 1.5  # each byte comes well within the per-read timeout
            started = time.monotonic()
            with pytest.raises(e.RequestTimedOut, match=r"more than 2 s to answer GET /workspace"):
                await api.workspace.workspace()
            assert time.monotonic() - started < 10
        assert server.stats()["requests"] == 1


def test_the_decoder_never_expands_past_its_limit_in_one_go() -> None:
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    bomb = packer.compress(b" " * (8 * 1024 * 1024)) + packer.flush()
    decoder = BodyDecoder("gzip", limit=1024 * 1024)
    with pytest.raises(BodyRefused, match="larger than 1 MB"):
        decoder.feed(bomb)
    assert decoder.size <= 1024 * 1024 + 1
    assert MAX_BODY_BYTES == 64 * 1024 * 1024


@pytest.mark.asyncio
async def test_the_tls_setup_is_built_once_and_off_the_calling_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 19 §3: loading the CA store froze the window 1.4-1.9 s at every start when the
    client was built on the GUI thread."""
    from app.api import transport

    built_on: list[int] = []

    def recording() -> ssl.SSLContext:
        built_on.append(threading.get_ident())
        return ssl.create_default_context()

    monkeypatch.setattr(transport, "_ssl_context", functools.cache(recording))
    with OddServer(quiet=True) as server:
        clients = [ApiClient(server.base_url, "odd-key") for _ in range(2)]
        assert built_on == []  # nothing at construction
        for api in clients:
            async with api:
                await api.workspace.workspace()
    assert len(built_on) == 1
    assert built_on[0] != threading.get_ident()


def _nested(levels: int) -> bytes:
    """`levels` objects inside each other, each opened after a key and a value (not a bare run
    of brackets), as a server serialising a deep structure writes them."""
    return b'{"a": 1, "b": ' * (levels - 1) + b'{"a": 1}' + b"}" * (levels - 1)


def test_the_depth_limit_is_exact_and_sees_through_keys_between_levels() -> None:
    from app.api.bounded_body import MAX_JSON_DEPTH, loads_bounded

    assert loads_bounded(_nested(MAX_JSON_DEPTH))["a"] == 1
    with pytest.raises(BodyRefused, match=r"nested more than 200 levels deep"):
        loads_bounded(_nested(MAX_JSON_DEPTH + 1))
    # Many levels opened and closed one after another are not depth.
    siblings = b"[" + b",".join([b'{"x": [{"y": []}]}'] * 5000) + b"]"
    assert len(loads_bounded(siblings)) == 5000
