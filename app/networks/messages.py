"""Message templates in the server's (Laravel's) wording, so a local check and a server 422 read
the same. `{attr}` is the field key with underscores shown as spaces."""

from __future__ import annotations

REQUIRED = "The {attr} field is required."
STRING = "The {attr} field must be a string."
ARRAY = "The {attr} field must be an array."
INVALID_CHOICE = "The selected {attr} is invalid."
MAX_CHARS = "The {attr} field must not be greater than {max} characters."
FORMAT = "The {attr} field format is invalid."
URL = "The {attr} field must be a valid URL."
NEEDS_TEXT_OR_MEDIA = "The {attr} field is required when no media is attached."


def attribute_name(key: str) -> str:
    return key.replace("_", " ")


def render(template: str, key: str, **values: object) -> str:
    return template.format(attr=attribute_name(key), **values)
