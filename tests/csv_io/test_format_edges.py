"""Reading a CSV file at its edges (issue 18 §2): tab-separated files, broken quoting, line
breaks inside a cell, unnamed and repeated columns, short and long rows."""

from __future__ import annotations

import pytest

from app.csv_io.format import COLUMNS, CsvFormatError, read_records


def test_an_empty_file_says_what_it_needs() -> None:
    with pytest.raises(CsvFormatError) as caught:
        read_records("\ufeff\r\n")
    assert str(caught.value) == "The file is empty; it needs a header row with the column names."


def test_tab_separated_files_are_read() -> None:
    records, errors = read_records("content\taccounts\nHello, world; again\tx:a\n")
    assert errors == []
    assert [(r["content"], r["accounts"]) for r in records] == [("Hello, world; again", "x:a")]


def test_broken_quoting_is_refused_not_guessed() -> None:
    with pytest.raises(CsvFormatError, match=r"^The file is not valid CSV: "):
        read_records('content,accounts\n"Hi"x,a\n')


def test_a_line_break_inside_a_quoted_cell_is_kept_as_written() -> None:
    records, _ = read_records('content,accounts\r\n"one\r\ntwo",x:a\r\n')
    assert records[0]["content"] == "one\r\ntwo"


def test_unnamed_unknown_and_repeated_columns_are_each_reported_once() -> None:
    _, errors = read_records("content,accounts,,Colour,content,accounts,accounts\n")
    known = ", ".join(COLUMNS)
    assert [str(e) for e in errors] == [
        f"row 1, column number 3: unknown column; the columns are {known}",
        f"row 1, column colour: unknown column; the columns are {known}",
        "row 1, column content: the column appears twice",
        "row 1, column accounts: the column appears twice",
        "row 1, column accounts: the column appears twice",
    ]


def test_a_long_row_is_reported_and_the_rows_after_it_are_still_read() -> None:
    records, errors = read_records("content,accounts,status\nA,b,c,d\nShort,x:a\n")
    assert [str(e) for e in errors] == [
        "row 2, column number 4: this row has 4 cells but the header names 3 (a comma inside a "
        "text needs the whole cell in double quotes)"
    ]
    assert [(r.row, r["content"], r["status"]) for r in records] == [(3, "Short", "")]
