"""Edges of the body limit: the encodings a server may name, and a limit that counts every byte
of every chunk, exactly."""

from __future__ import annotations

import gzip
import zlib
from collections.abc import AsyncIterator

import pytest

from app.api.bounded_body import BodyDecoder, BodyRefused, read_bounded


def whole(encoding: str, *chunks: bytes, limit: int = 1000) -> bytes:
    decoder = BodyDecoder(encoding, limit)
    for chunk in chunks:
        decoder.feed(chunk)
    return decoder.finish()


@pytest.mark.parametrize("encoding", ["", "identity", " Identity "])
def test_an_uncompressed_body_is_kept_as_sent(encoding: str) -> None:
    assert whole(encoding, b"ab", b"cd") == b"abcd"


@pytest.mark.parametrize("encoding", ["gzip", "x-gzip", "X-GZIP"])
def test_both_names_of_gzip_are_expanded(encoding: str) -> None:
    packed = gzip.compress(b'{"data": []}')
    assert whole(encoding, packed[:5], packed[5:]) == b'{"data": []}'


def test_a_body_of_exactly_the_limit_is_kept_and_one_byte_more_is_refused() -> None:
    assert whole("", b"x" * 600, b"y" * 400) == b"x" * 600 + b"y" * 400
    with pytest.raises(BodyRefused, match=r"larger than 1,000 bytes"):
        whole("", b"x" * 600, b"y" * 401)


def test_the_limit_counts_every_chunk_not_only_the_largest() -> None:
    with pytest.raises(BodyRefused):
        whole("", *[b"x" * 100] * 11)


def test_a_later_chunk_never_expands_past_what_is_left() -> None:
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    first = packer.compress(b" " * 900) + packer.flush(zlib.Z_SYNC_FLUSH)
    bomb = packer.compress(b"z" * 1_000_000) + packer.flush()
    decoder = BodyDecoder("gzip", limit=1000)
    decoder.feed(first)
    assert decoder.size == 900
    with pytest.raises(BodyRefused):
        decoder.feed(bomb)
    assert decoder.size <= 1001


async def _chunks(*parts: bytes) -> AsyncIterator[bytes]:
    for part in parts:
        yield part


@pytest.mark.asyncio
async def test_reading_a_stream_honours_the_limit_given() -> None:
    assert await read_bounded(_chunks(b"ab", b"cd"), "", limit=4) == b"abcd"
    with pytest.raises(BodyRefused, match=r"larger than 4 bytes"):
        await read_bounded(_chunks(b"ab", b"cde"), "", limit=4)
