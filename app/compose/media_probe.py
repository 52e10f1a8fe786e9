"""Duration and frame size of MP4 / QuickTime videos, read from the file's `moov` box.

The composer checks video length and aspect ratio locally (reels, shorts, stories), and
PySide6-Essentials has no media backend, so the few fields needed are read straight from the
ISO base media file format: `mvhd` (timescale, duration) and the video track's `tkhd` (display
size and rotation matrix). Anything unexpected gives `None`; the server has the last word.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

_MAX_MOOV_BYTES = 64 * 1024 * 1024
_HEADER = struct.Struct(">I4s")


@dataclass(frozen=True)
class VideoFacts:
    duration_s: float | None
    width: int | None
    height: int | None


def _boxes(data: bytes, start: int = 0, end: int | None = None) -> Iterator[tuple[bytes, int, int]]:
    """(type, payload start, payload end) of the boxes in data[start:end]."""
    end = len(data) if end is None else end
    pos = start
    while pos + 8 <= end:
        size, kind = _HEADER.unpack_from(data, pos)
        header = 8
        if size == 1:
            if pos + 16 > end:
                return
            (size,) = struct.unpack_from(">Q", data, pos + 8)
            header = 16
        elif size == 0:
            size = end - pos
        if size < header or pos + size > end:
            return
        yield kind, pos + header, pos + size
        pos += size


def _read_moov(stream: BinaryIO) -> bytes | None:
    """The payload of the top-level `moov` box, skipping `mdat` and others without reading."""
    while True:
        header = stream.read(8)
        if len(header) < 8:
            return None
        size, kind = _HEADER.unpack(header)
        header_size = 8
        if size == 1:
            large = stream.read(8)
            if len(large) < 8:
                return None
            (size,) = struct.unpack(">Q", large)
            header_size = 16
        if kind == b"moov":
            length = (size - header_size) if size else _MAX_MOOV_BYTES
            if length < 0 or length > _MAX_MOOV_BYTES:
                return None
            payload = stream.read(length)
            return payload if size == 0 or len(payload) == length else None
        if size == 0 or size < header_size:
            return None
        stream.seek(size - header_size, 1)


def _duration(data: bytes, start: int, end: int) -> float | None:
    if start >= end:  # an empty box (its header only) at the end of the file
        return None
    version = data[start]
    if version == 1 and start + 32 <= end:
        timescale, duration = struct.unpack_from(">IQ", data, start + 20)
    elif version == 0 and start + 20 <= end:
        timescale, duration = struct.unpack_from(">II", data, start + 12)
    else:
        return None
    if not timescale or duration in (0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF):
        return None
    return duration / timescale


def _track_size(data: bytes, start: int, end: int) -> tuple[int, int] | None:
    if start >= end:  # an empty box (its header only) at the end of the file
        return None
    version = data[start]
    offset = start + (4 + 32 if version == 1 else 4 + 20)  # to the reserved words after duration
    matrix_at = offset + 8 + 8  # reserved(8), layer, alternate group, volume, reserved
    size_at = matrix_at + 36
    if size_at + 8 > end:
        return None
    a, b, _u, c, d = struct.unpack_from(">iiiii", data, matrix_at)
    width_fixed, height_fixed = struct.unpack_from(">II", data, size_at)
    width, height = width_fixed >> 16, height_fixed >> 16
    if a == 0 and d == 0 and b != 0 and c != 0:  # turned by 90° or 270°: shown upright
        width, height = height, width
    return (width, height) if width and height else None


def _handler(data: bytes, trak_start: int, trak_end: int) -> bytes | None:
    for kind, start, end in _boxes(data, trak_start, trak_end):
        if kind == b"mdia":
            for inner, s, e in _boxes(data, start, end):
                if inner == b"hdlr" and s + 12 <= e:
                    return data[s + 8 : s + 12]
    return None


def probe_video(path: str | Path) -> VideoFacts | None:
    """Duration (s) and upright display size of an MP4/MOV file; None when it cannot be read."""
    try:
        with open(path, "rb") as stream:
            moov = _read_moov(stream)
    except OSError:
        return None
    if moov is None:
        return None
    duration = None
    size = None
    for kind, start, end in _boxes(moov):
        if kind == b"mvhd":
            duration = _duration(moov, start, end)
        elif kind == b"trak" and size is None and _handler(moov, start, end) == b"vide":
            for inner, s, e in _boxes(moov, start, end):
                if inner == b"tkhd":
                    size = _track_size(moov, s, e)
    if duration is None and size is None:
        return None
    return VideoFacts(duration, size[0] if size else None, size[1] if size else None)
