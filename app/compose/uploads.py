"""What to say when a server has no upload route (issue 15 §3: it read "Not found. It may have
been deleted…"). Shared by the composer and the CSV import."""

from __future__ import annotations

from app.api import errors as e

NO_UPLOADS = "This server does not take media uploads from Postdesk (it has no upload route)."
NO_UPLOADS_HINT = (
    "Send the post without the file (remove it from the post), or attach the media in the "
    "service's own web dashboard after it is created; ask the server's administrator to enable "
    "uploads for API keys."
)


def upload_failure(error: e.ApiError) -> e.ApiError:
    """`error` from `POST /uploads`, with the no-upload-route case said plainly. A 404, 405 or
    501 there can only mean the route is missing (an upload creates, it names nothing to find),
    and a 400 means the server did not read the request as an upload at all (a route that takes
    uploads refuses a bad file with 422); an independent server answered "The request body is
    not valid JSON"."""
    if isinstance(error, e.NotFound) or error.status in (400, 404, 405, 501):
        return e.ApiError(NO_UPLOADS, status=error.status, hint=NO_UPLOADS_HINT)
    return error
