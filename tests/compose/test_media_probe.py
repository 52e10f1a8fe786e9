"""Video duration and size read from MP4/MOV headers, without a media backend."""

from __future__ import annotations

import struct
from pathlib import Path

from app.compose.media_probe import VideoFacts, probe_video

IDENTITY = (0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
ROTATED_90 = (0, 0x10000, 0, -0x10000, 0, 0, 0, 0, 0x40000000)


def box(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I4s", 8 + len(payload), kind) + payload


def mvhd(timescale: int, duration: int, version: int = 0) -> bytes:
    if version == 1:
        body = struct.pack(">BxxxQQIQ", 1, 0, 0, timescale, duration)
    else:
        body = struct.pack(">BxxxIIII", 0, 0, 0, timescale, duration)
    return box(b"mvhd", body + bytes(80))


def tkhd(width: int, height: int, matrix: tuple[int, ...] = IDENTITY) -> bytes:
    body = struct.pack(">BxxxIIIII", 0, 0, 0, 1, 0, 0)  # times, track id, reserved, duration
    body += bytes(8) + struct.pack(">hhhh", 0, 0, 0, 0)
    body += struct.pack(">9i", *matrix) + struct.pack(">II", width << 16, height << 16)
    return box(b"tkhd", body)


def trak(handler: bytes, width: int, height: int, matrix: tuple[int, ...] = IDENTITY) -> bytes:
    hdlr = box(b"hdlr", bytes(8) + handler + bytes(12))
    return box(b"trak", tkhd(width, height, matrix) + box(b"mdia", hdlr))


def movie(tmp_path: Path, moov_payload: bytes, *, moov_last: bool = True) -> Path:
    ftyp = box(b"ftyp", b"isom" + bytes(4) + b"isommp41")
    mdat = box(b"mdat", bytes(50_000))
    moov = box(b"moov", moov_payload)
    path = tmp_path / "clip.mp4"
    path.write_bytes(ftyp + (mdat + moov if moov_last else moov + mdat))
    return path


def test_duration_and_size_of_a_plain_mp4(tmp_path: Path) -> None:
    payload = mvhd(1000, 61_500) + trak(b"soun", 0, 0) + trak(b"vide", 1920, 1080)
    assert probe_video(movie(tmp_path, payload)) == VideoFacts(61.5, 1920, 1080)
    assert probe_video(movie(tmp_path, payload, moov_last=False)) == VideoFacts(61.5, 1920, 1080)


def test_a_phone_video_turned_by_90_degrees_is_portrait(tmp_path: Path) -> None:
    payload = mvhd(600, 600 * 30, version=1) + trak(b"vide", 1920, 1080, ROTATED_90)
    assert probe_video(movie(tmp_path, payload)) == VideoFacts(30.0, 1080, 1920)


def test_unreadable_files_give_none(tmp_path: Path) -> None:
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"\x00\x00\x00\x10notabox" + bytes(100))
    assert probe_video(junk) is None
    assert probe_video(tmp_path / "missing.mp4") is None
    truncated = tmp_path / "cut.mp4"
    truncated.write_bytes(box(b"moov", mvhd(1000, 5000))[:40])
    assert probe_video(truncated) is None
