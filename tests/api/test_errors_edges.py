"""The words of the error tree a person reads: rate-limit hints, audio budget, redirects."""

from __future__ import annotations

import pytest

from app.api import errors as e
from app.api.retry import parse_retry_after, retry_after_said

NOTE = (
    " (The server asked for “Retry-After: {said}”; Postdesk waits between 1 s and 15 min. "
    "Retry now tries at once.)"
)


def limited_by(header: str) -> e.RateLimited:
    """The error a 429 with this `Retry-After` becomes (as the transport builds it)."""
    headers = {"retry-after": header}
    return e.RateLimited(
        retry_after=parse_retry_after(headers), server_said=retry_after_said(headers)
    )


def test_without_a_retry_after_the_hint_asks_for_a_moment() -> None:
    assert e.RateLimited().hint == "The server is limiting requests. Wait a moment and try again."


def test_a_wait_under_a_second_and_a_half_is_shown_as_one_second() -> None:
    assert e.RateLimited(retry_after=1.4).hint == (
        "The server is limiting requests. Try again in 1 s."
    )
    assert e.RateLimited(retry_after=0.2).hint.endswith("Try again in 1 s.")


def test_a_wait_known_without_the_servers_words_has_no_note() -> None:
    error = e.RateLimited(retry_after=5.0)
    assert error.hint == "The server is limiting requests. Try again in 5 s."
    assert error.server_said is None


def test_the_servers_own_value_is_named_when_the_wait_was_clamped() -> None:
    error = limited_by("99999999")
    assert error.retry_after == 900.0
    assert error.server_said == "99999999"
    assert error.hint == (
        "The server is limiting requests. Try again in 900 s." + NOTE.format(said="99999999")
    )


@pytest.mark.parametrize(
    ("header", "noted"),
    [
        ("5", False),  # waited as said
        ("0", False),  # waited 1 s: a second's difference is not worth a note
        ("0.5", False),
        ("-1", True),  # 2 s off what was said
        ("soon", True),  # not a number at all
    ],
)
def test_the_note_appears_only_when_the_wait_differs_by_more_than_a_second(
    header: str, noted: bool
) -> None:
    hint = limited_by(header).hint
    assert ("The server asked for" in hint) is noted
    assert hint.startswith("The server is limiting requests. Try again in ")


def test_the_note_quotes_a_retry_after_two_seconds_off() -> None:
    error = e.RateLimited(retry_after=5.0, server_said="7")
    assert error.hint == "The server is limiting requests. Try again in 5 s." + NOTE.format(
        said="7"
    )


def test_the_audio_budget_says_how_long_to_wait_and_what_to_do_meanwhile() -> None:
    error = e.AudioBudgetExhausted(retry_after=0.4)
    assert error.hint == "Wait 1 s, or pick from searches already made (they are cached)."
    assert error.message == "Audio search limit reached (30 new searches per minute)."
    assert error.status is None  # refused before sending: no HTTP status
    assert error.retry_after == 0.4
    assert e.AudioBudgetExhausted(retry_after=42.6).hint.startswith("Wait 43 s, ")


def test_a_redirect_keeps_the_page_it_came_with_and_only_that() -> None:
    assert e.Redirected("https://x.test/").excerpt == ""
    assert e.Redirected("https://x.test/", excerpt="Moved here").excerpt == "Moved here"
    assert e.ProtocolError("odd").excerpt == ""


def test_a_plain_not_found_is_not_a_missing_route() -> None:
    assert e.NotFound().route_missing is False
    assert e.NotFound().status == 404


def test_a_validation_failure_keeps_a_hint_it_was_given() -> None:
    given = e.ValidationFailed(hint="Shorten the text.")
    assert given.hint == "Shorten the text."
    assert e.ValidationFailed().hint == "Correct the highlighted fields and try again."


def test_the_repr_in_logs_names_the_kind_status_and_message() -> None:
    assert repr(e.NotFound("Gone.")) == "NotFound(status=404, message='Gone.')"
    assert repr(e.ConnectionFailed()) == (
        "ConnectionFailed(status=None, message='Could not connect to the server.')"
    )


def test_the_exception_arguments_carry_the_message_shown() -> None:
    # What generic handlers (an event loop's, a thread's) print of an exception.
    assert e.ServerError("Disk full.").args == ("Disk full.",)
    assert e.NotFound().args == ("Not found.",)
