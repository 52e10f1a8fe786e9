"""The CSV format shared by import and export: columns, times, and reading records.

Columns: `content`, `accounts` (account ids or `platform:username`, separated by `;`),
`scheduled_at` (ISO 8601 with an offset, or `YYYY-MM-DD HH:MM` in local time; empty = no date),
`status` (`draft` or `scheduled`; empty = draft), and the optional `content_type`, `labels`
(names, `;`), `media` (local file paths relative to the CSV file's folder, or http(s)
addresses that are downloaded at import, `;`) and `meta` (the network settings as a JSON object,
e.g. `{"board_id": "123"}`; each destination takes the keys its network knows).
Rows are numbered as a spreadsheet shows them: the header is row 1.
"""

from __future__ import annotations

import csv
import io
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

REQUIRED_COLUMNS = ("content", "accounts")
OPTIONAL_COLUMNS = ("scheduled_at", "status", "content_type", "labels", "media", "meta")
COLUMNS = (
    "content",
    "accounts",
    "scheduled_at",
    "status",
    "content_type",
    "labels",
    "media",
    "meta",
)
LIST_SEPARATOR = ";"
STATUSES = ("draft", "scheduled")
POST_STATUSES = (
    "draft",
    "scheduled",
    "publishing",
    "published",
    "partially_published",
    "failed",
)
"""Every status an export writes; rows with one not in `STATUSES` record what happened and are
skipped on import (counted), or imported as drafts when asked."""

_LOCAL_FORMAT = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$")


class CsvFormatError(ValueError):
    """The file as a whole cannot be read; `str()` is meant for the user."""


@dataclass(frozen=True)
class CsvError:
    row: int
    column: str
    reason: str

    def __str__(self) -> str:
        return f"row {self.row}, column {self.column}: {self.reason}"


@dataclass(frozen=True)
class Record:
    """One data row: its spreadsheet row number and its cells by column (trimmed, "" if absent)."""

    row: int
    cells: dict[str, str]

    def __getitem__(self, column: str) -> str:
        return self.cells.get(column, "")


def split_list(cell: str) -> list[str]:
    return [part.strip() for part in cell.split(LIST_SEPARATOR) if part.strip()]


def read_records(text: str) -> tuple[list[Record], list[CsvError]]:
    """Parse the text; header problems come back as errors on row 1."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise CsvFormatError("The file is empty; it needs a header row with the column names.")
    first_line = text.splitlines()[0]
    delimiter = ","
    if "," not in first_line and ("\t" in first_line or ";" in first_line):
        delimiter = "\t" if "\t" in first_line else ";"
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True))
    except csv.Error as exc:
        raise CsvFormatError(f"The file is not valid CSV: {exc}.") from None
    header = [name.strip().lower() for name in rows[0]]
    errors: list[CsvError] = []
    for index, name in enumerate(header, start=1):
        if name not in COLUMNS:
            shown = name or f"number {index}"
            errors.append(
                CsvError(1, shown, f"unknown column; the columns are {', '.join(COLUMNS)}")
            )
        elif header.count(name) > 1 and header.index(name) != index - 1:
            errors.append(CsvError(1, name, "the column appears twice"))
    for name in REQUIRED_COLUMNS:
        if name not in header:
            errors.append(CsvError(1, name, "missing column"))
    records: list[Record] = []
    for number, values in enumerate(rows[1:], start=2):
        if not any(value.strip() for value in values):
            continue
        if len(values) > len(header):
            errors.append(
                CsvError(
                    number,
                    f"number {len(header) + 1}",
                    f"this row has {len(values)} cells but the header names {len(header)} "
                    "(a comma inside a text needs the whole cell in double quotes)",
                )
            )
            continue
        cells = {name: value.strip() for name, value in zip(header, values, strict=False)}
        records.append(Record(number, cells))
    return records, errors


def read_file(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CsvFormatError(f"Could not read {path}: {exc.strerror or exc}.") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise CsvFormatError(
            f"{path.name} is not UTF-8 text. Save it from your spreadsheet as "
            "“CSV UTF-8” and try again."
        ) from None


def parse_when(text: str, local_tz: tzinfo) -> datetime:
    """ISO 8601 with an offset (`2026-12-01T09:00:00+01:00`, `…Z`), or `YYYY-MM-DD HH:MM` in
    `local_tz`. Raises ValueError with the reason in words."""
    if _LOCAL_FORMAT.match(text):
        try:
            naive = datetime.strptime(text, "%Y-%m-%d %H:%M")
        except ValueError:
            # Python's own text ("time data … does not match format …") is not for users.
            raise ValueError(
                f"“{text}” is not a real date and time (month 1–12, day of that month, "
                "hour 0–23, minute 0–59); use 2026-12-01 09:30"
            ) from None
        return _local(naive, local_tz)
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise ValueError(
            f"“{text}” is not a date and time; use 2026-12-01 09:30 (local time) or "
            "2026-12-01T09:30:00+01:00"
        ) from None
    if parsed.tzinfo is None:
        raise ValueError(
            f"“{text}” has no offset; add one (+01:00, Z) or write it as YYYY-MM-DD HH:MM "
            "for local time"
        )
    return parsed


def _local(naive: datetime, tz: tzinfo) -> datetime:
    first = naive.replace(tzinfo=tz, fold=0)
    second = naive.replace(tzinfo=tz, fold=1)
    round_trip = first.astimezone(UTC).astimezone(tz).replace(tzinfo=None)
    if round_trip != naive:
        raise ValueError(
            f"{naive:%Y-%m-%d %H:%M} does not exist in local time (the clocks skip it); "
            "pick another time or add an offset"
        )
    if first.utcoffset() != second.utcoffset():
        raise ValueError(
            f"{naive:%Y-%m-%d %H:%M} happens twice in local time (the clocks go back); "
            "add an offset such as +01:00 to say which"
        )
    return first


def format_when(moment: datetime, tz: tzinfo) -> str:
    """ISO 8601 with the offset, to the second, in `tz`."""
    return moment.astimezone(tz).replace(microsecond=0).isoformat()


def local_zone() -> tzinfo:
    """This computer's time zone, as a zone with DST rules when it can be found."""
    name = os.environ.get("TZ", "").lstrip(":")
    candidates = [name] if name else []
    try:
        target = os.path.realpath("/etc/localtime")
        if "zoneinfo/" in target:
            candidates.append(target.split("zoneinfo/", 1)[1])
    except OSError:
        pass
    for candidate in candidates:
        try:
            return ZoneInfo(candidate)
        except (ZoneInfoNotFoundError, ValueError):
            continue
    offset = datetime.now().astimezone().utcoffset() or timedelta(0)
    return UTC if not offset else datetime.now().astimezone().tzinfo or UTC


def write_rows(rows: list[dict[str, str]]) -> str:
    """CSV text with the header of `COLUMNS`."""
    buffer = io.StringIO(newline="")
    writer = csv.DictWriter(buffer, fieldnames=list(COLUMNS), lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()
