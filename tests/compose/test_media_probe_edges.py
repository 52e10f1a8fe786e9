"""The MP4/MOV header reader at its edges (issue 18 §2): 64-bit and open-ended box sizes, empty
boxes, boxes that claim more than their parent holds, header fields at their exact lengths,
unsigned values, and which track's size is used. A broken file gives None or fewer facts, never
facts read from the wrong bytes."""

from __future__ import annotations

import struct
from pathlib import Path

from app.compose.media_probe import VideoFacts, probe_video
from tests.compose.test_media_probe import IDENTITY, ROTATED_90, box, movie, mvhd, tkhd, trak

MAX_MOOV = 64 * 1024 * 1024


def large_box(kind: bytes, payload: bytes) -> bytes:
    """A box with a 64-bit size (size field 1)."""
    return struct.pack(">I4sQ", 1, kind, 16 + len(payload)) + payload


def open_box(kind: bytes, payload: bytes) -> bytes:
    """A box with size 0: it runs to the end of its parent."""
    return struct.pack(">I4s", 0, kind) + payload


def hdlr(handler: bytes = b"vide") -> bytes:
    return box(b"hdlr", bytes(8) + handler + bytes(12))


def tkhd_v1(width: int, height: int) -> bytes:
    body = struct.pack(">BxxxQQIIQ", 1, 0, 0, 1, 0, 0)  # times, track id, reserved, duration
    body += bytes(8) + struct.pack(">hhhh", 0, 0, 0, 0)
    body += struct.pack(">9i", *IDENTITY) + struct.pack(">II", width << 16, height << 16)
    return box(b"tkhd", body)


def mvhd_body(timescale: int, duration: int, version: int = 0) -> bytes:
    if version == 1:
        return struct.pack(">BxxxQQIQ", 1, 0, 0, timescale, duration)
    return struct.pack(">BxxxIIII", version, 0, 0, timescale, duration)


def write(tmp_path: Path, data: bytes, name: str = "clip.mp4") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


VIDEO = trak(b"vide", 1280, 720)


# -- box sizes ---------------------------------------------------------------------------------


def test_64_bit_box_sizes_are_read(tmp_path: Path) -> None:
    timescale = 0x12345678  # every byte set: a header read one byte off gives another value
    header = large_box(b"mvhd", mvhd_body(timescale, timescale * 4) + bytes(80))
    track = large_box(b"trak", tkhd(1280, 720) + box(b"mdia", hdlr()))
    path = write(tmp_path, box(b"ftyp", b"isom") + large_box(b"moov", header + track))
    assert probe_video(path) == VideoFacts(4.0, 1280, 720)


def test_a_64_bit_box_header_cut_short_at_the_end_is_ignored(tmp_path: Path) -> None:
    cut = struct.pack(">I4sI", 1, b"free", 0)  # 12 of the 16 header bytes
    assert probe_video(movie(tmp_path, mvhd(10, 50) + VIDEO + cut)) == VideoFacts(5.0, 1280, 720)


def test_a_last_box_with_size_zero_runs_to_the_end_of_its_parent(tmp_path: Path) -> None:
    track = open_box(b"trak", tkhd(640, 480) + box(b"mdia", hdlr()))
    assert probe_video(movie(tmp_path, mvhd(10, 20) + track)) == VideoFacts(2.0, 640, 480)
    # The movie box itself may run to the end of the file.
    path = write(tmp_path, box(b"ftyp", b"isom") + open_box(b"moov", mvhd(10, 30) + VIDEO))
    assert probe_video(path) == VideoFacts(3.0, 1280, 720)


def test_empty_boxes_are_skipped(tmp_path: Path) -> None:
    path = movie(tmp_path, box(b"free", b"") + mvhd(10, 50) + VIDEO)
    assert probe_video(path) == VideoFacts(5.0, 1280, 720)
    top = write(tmp_path, box(b"free", b"") + box(b"moov", mvhd(10, 50)), "top.mp4")
    assert probe_video(top) == VideoFacts(5.0, None, None)


def test_a_box_smaller_than_its_own_header_ends_the_reading(tmp_path: Path) -> None:
    # Read 4 bytes on from the bad box, the bytes would make a valid empty box, then the movie.
    data = struct.pack(">I", 4) + struct.pack(">I4s", 8, b"skip") + box(b"moov", mvhd(10, 50))
    assert probe_video(write(tmp_path, data)) is None


def test_a_box_running_to_the_end_of_the_file_before_the_movie_box_gives_none(
    tmp_path: Path,
) -> None:
    data = box(b"ftyp", b"isom") + open_box(b"mdat", box(b"moov", mvhd(10, 50)))
    assert probe_video(write(tmp_path, data)) is None


def test_a_movie_box_cut_short_gives_none_even_when_its_first_boxes_are_whole(
    tmp_path: Path,
) -> None:
    whole = box(b"moov", mvhd(10, 50) + VIDEO)
    assert probe_video(write(tmp_path, whole[:-10])) is None


def test_a_movie_box_of_the_largest_size_read_is_read_and_one_byte_more_is_not(
    tmp_path: Path,
) -> None:
    head = mvhd(10, 50)
    for extra, expected in ((0, VideoFacts(5.0, None, None)), (1, None)):
        path = tmp_path / f"big{extra}.mp4"
        with open(path, "wb") as stream:
            stream.write(struct.pack(">I4s", 8 + MAX_MOOV + extra, b"moov") + head)
            stream.truncate(8 + MAX_MOOV + extra)  # sparse: zeros, an open-ended box
        assert probe_video(path) == expected


def test_a_track_claiming_more_than_the_movie_holds_is_not_read(tmp_path: Path) -> None:
    inner = tkhd(640, 480) + box(b"mdia", hdlr())
    overlong = struct.pack(">I4s", 8 + len(inner) + 100, b"trak") + inner
    assert probe_video(movie(tmp_path, mvhd(10, 50) + overlong)) == VideoFacts(5.0, None, None)


def _spilling(kind: bytes, before: bytes, child: bytes, keep: int) -> tuple[bytes, bytes]:
    """A `kind` box whose last child (`child`) is cut after `keep` bytes, and the rest of that
    child, which then lies outside the box."""
    inside = before + child[:keep]
    return struct.pack(">I4s", 8 + len(inside), kind) + inside, child[keep:]


def test_a_track_header_spilling_out_of_its_track_is_not_read(tmp_path: Path) -> None:
    track, spilt = _spilling(b"trak", box(b"mdia", hdlr()), tkhd(640, 480), 40)
    assert probe_video(movie(tmp_path, mvhd(10, 50) + track + spilt)) == VideoFacts(5.0, None, None)


def test_a_media_box_spilling_out_of_its_track_is_not_read(tmp_path: Path) -> None:
    track, spilt = _spilling(b"trak", tkhd(640, 480), box(b"mdia", hdlr()), 12)
    assert probe_video(movie(tmp_path, mvhd(10, 50) + track + spilt)) == VideoFacts(5.0, None, None)


def test_a_handler_spilling_out_of_its_media_box_is_not_read(tmp_path: Path) -> None:
    media, spilt = _spilling(b"mdia", b"", hdlr(), 20)
    track = box(b"trak", tkhd(640, 480) + media + spilt)
    assert probe_video(movie(tmp_path, mvhd(10, 50) + track)) == VideoFacts(5.0, None, None)


# -- the handler -------------------------------------------------------------------------------


def test_the_handler_is_found_after_the_media_header(tmp_path: Path) -> None:
    media = box(b"mdia", box(b"mdhd", bytes(24)) + hdlr())
    track = box(b"trak", tkhd(640, 480) + media)
    assert probe_video(movie(tmp_path, mvhd(10, 50) + track)) == VideoFacts(5.0, 640, 480)


def test_a_handler_of_exactly_twelve_bytes_is_read_and_a_shorter_one_is_not(
    tmp_path: Path,
) -> None:
    exact = box(b"trak", tkhd(640, 480) + box(b"mdia", box(b"hdlr", bytes(8) + b"vide")))
    assert probe_video(movie(tmp_path, mvhd(10, 50) + exact)) == VideoFacts(5.0, 640, 480)
    # 11 bytes: the type would be read from the byte after the box.
    short = box(b"mdia", box(b"hdlr", bytes(8) + b"vid") + b"e" + bytes(7))
    track = box(b"trak", tkhd(640, 480) + short)
    assert probe_video(movie(tmp_path, mvhd(10, 50) + track)) == VideoFacts(5.0, None, None)


# -- the movie header --------------------------------------------------------------------------


def test_movie_headers_at_their_exact_length_are_read_and_shorter_ones_are_not(
    tmp_path: Path,
) -> None:
    for version, length in ((0, 20), (1, 32)):
        body = mvhd_body(1000, 7000, version)
        assert len(body) == length
        exact = movie(tmp_path, box(b"mvhd", body) + VIDEO)
        assert probe_video(exact) == VideoFacts(7.0, 1280, 720)
        short = movie(tmp_path, box(b"mvhd", body[:-1]) + VIDEO)
        assert probe_video(short) == VideoFacts(None, 1280, 720)


def test_an_unknown_movie_header_version_has_no_duration(tmp_path: Path) -> None:
    path = movie(tmp_path, box(b"mvhd", mvhd_body(1000, 7000, version=2) + bytes(80)) + VIDEO)
    assert probe_video(path) == VideoFacts(None, 1280, 720)


def test_an_unknown_or_unusable_duration_is_none(tmp_path: Path) -> None:
    for header in (mvhd(1000, 0xFFFFFFFF), mvhd(1000, 0xFFFFFFFFFFFFFFFF, version=1), mvhd(0, 50)):
        assert probe_video(movie(tmp_path, header + VIDEO)) == VideoFacts(None, 1280, 720)


def test_header_values_are_unsigned(tmp_path: Path) -> None:
    big = movie(tmp_path, mvhd(1_000_000_000, 0xF0000000) + VIDEO)
    assert probe_video(big) == VideoFacts(0xF0000000 / 1_000_000_000, 1280, 720)
    wide = movie(tmp_path, mvhd(0x80000000, 0x80000000 * 10, version=1) + VIDEO)
    assert probe_video(wide) == VideoFacts(10.0, 1280, 720)
    huge = movie(tmp_path, mvhd(10, 50) + trak(b"vide", 40000, 33000))
    assert probe_video(huge) == VideoFacts(5.0, 40000, 33000)


# -- the track header --------------------------------------------------------------------------


def test_a_version_1_track_header_is_read(tmp_path: Path) -> None:
    track = box(b"trak", tkhd_v1(720, 1280) + box(b"mdia", hdlr()))
    assert probe_video(movie(tmp_path, mvhd(10, 50) + track)) == VideoFacts(5.0, 720, 1280)


def test_a_track_header_one_byte_short_is_not_read(tmp_path: Path) -> None:
    header = tkhd(640, 480)
    cut = struct.pack(">I4s", len(header) - 1, b"tkhd") + header[8:-1]
    track = box(b"trak", box(b"mdia", hdlr()) + cut) + box(b"free", bytes(16))
    assert probe_video(movie(tmp_path, mvhd(10, 50) + track)) == VideoFacts(5.0, None, None)


def test_a_video_track_without_a_width_or_height_has_no_size(tmp_path: Path) -> None:
    for width, height in ((0, 0), (0, 1080), (1920, 0)):
        path = movie(tmp_path, mvhd(10, 50) + trak(b"vide", width, height))
        assert probe_video(path) == VideoFacts(5.0, None, None)


def test_only_a_quarter_turn_swaps_width_and_height(tmp_path: Path) -> None:
    half = 46341  # cos 45° in 16.16 fixed point
    turned_45 = (half, half, 0, -half, half, 0, 0, 0, 0x40000000)
    path = movie(tmp_path, mvhd(10, 50) + trak(b"vide", 1920, 1080, turned_45))
    assert probe_video(path) == VideoFacts(5.0, 1920, 1080)
    path = movie(tmp_path, mvhd(10, 50) + trak(b"vide", 1920, 1080, ROTATED_90))
    assert probe_video(path) == VideoFacts(5.0, 1080, 1920)


# -- which facts ---------------------------------------------------------------------------------


def test_the_first_video_track_gives_the_size(tmp_path: Path) -> None:
    payload = mvhd(10, 50) + trak(b"vide", 1920, 1080) + trak(b"vide", 640, 480)
    assert probe_video(movie(tmp_path, payload)) == VideoFacts(5.0, 1920, 1080)
    payload = mvhd(10, 50) + trak(b"vide", 1920, 1080) + trak(b"soun", 0, 0)
    assert probe_video(movie(tmp_path, payload)) == VideoFacts(5.0, 1920, 1080)


def test_a_duration_alone_or_a_size_alone_is_still_a_fact(tmp_path: Path) -> None:
    assert probe_video(movie(tmp_path, mvhd(10, 50))) == VideoFacts(5.0, None, None)
    assert probe_video(movie(tmp_path, VIDEO)) == VideoFacts(None, 1280, 720)
    assert probe_video(movie(tmp_path, trak(b"soun", 0, 0))) is None


def test_an_empty_header_box_last_in_the_movie_is_not_a_crash(tmp_path: Path) -> None:
    """An `mvhd` or `tkhd` of 8 bytes (a header, no payload) as the very last box: the reader
    took the byte after it as the version (IndexError) instead of leaving the value unknown."""
    assert probe_video(movie(tmp_path, box(b"mvhd", b""))) is None
    video_handler = box(b"mdia", box(b"hdlr", bytes(8) + b"vide" + bytes(12)))
    last_track = box(b"trak", video_handler + box(b"tkhd", b""))
    assert probe_video(movie(tmp_path, mvhd(10, 50) + last_track)) == VideoFacts(5.0, None, None)
