"""Error bodies of the spec (§2 "Error bodies", §7) as exceptions the routes raise."""

from __future__ import annotations

from typing import Any


class ApiProblem(Exception):
    """An error answer: HTTP status, JSON body and optional headers."""

    def __init__(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None):
        super().__init__(status, body.get("message"))
        self.status = status
        self.body = body
        self.headers = headers or {}


def problem(status: int, message: str) -> ApiProblem:
    return ApiProblem(status, {"message": message})


def not_found(what: str = "resource") -> ApiProblem:
    return problem(404, f"No query results for {what}.")


def attribute_name(key: str) -> str:
    """Laravel shows a field key with underscores as spaces in its messages."""
    return key.replace("_", " ")


class FieldErrors:
    """Collects `{field: [messages]}`; templates use `{attr}` for the field's display name."""

    def __init__(self) -> None:
        self.errors: dict[str, list[str]] = {}

    def add(self, key: str, template: str, **values: Any) -> None:
        message = template.format(attr=attribute_name(key), **values)
        self.errors.setdefault(key, []).append(message)

    def merge(self, other: FieldErrors) -> None:
        for key, messages in other.errors.items():
            self.errors.setdefault(key, []).extend(messages)

    def has(self, key: str) -> bool:
        return key in self.errors

    def __bool__(self) -> bool:
        return bool(self.errors)

    def raise_if_any(self) -> None:
        if self.errors:
            raise validation_problem(self.errors)


def validation_message(errors: dict[str, list[str]]) -> str:
    messages = [m for ms in errors.values() for m in ms]
    first = messages[0]
    more = len(messages) - 1
    if more == 0:
        return first
    return f"{first} (and {more} more {'error' if more == 1 else 'errors'})"


def validation_problem(errors: dict[str, list[str]]) -> ApiProblem:
    return ApiProblem(422, {"message": validation_message(errors), "errors": errors})


def single_field_problem(key: str, template: str, **values: Any) -> ApiProblem:
    errors = FieldErrors()
    errors.add(key, template, **values)
    return validation_problem(errors.errors)


def rate_limited(retry_after: int) -> ApiProblem:
    return ApiProblem(
        429,
        {"name": "rate_limit_exceeded", "message": "Too Many Attempts."},
        {"Retry-After": str(retry_after)},
    )


# Message templates in Laravel's wording, shared by all validators.
REQUIRED = "The {attr} field is required."
STRING = "The {attr} field must be a string."
ARRAY = "The {attr} field must be an array."
BOOLEAN = "The {attr} field must be true or false."
INVALID_CHOICE = "The selected {attr} is invalid."
MAX_CHARS = "The {attr} field must not be greater than {max} characters."
FORMAT = "The {attr} field format is invalid."
PROHIBITED = "The {attr} field is prohibited."
DATE_FORMAT = "The {attr} field must match the format Y-m-d H:i:s."
AFTER_NOW = "The {attr} field must be a date after now."
URL = "The {attr} field must be a valid URL."
