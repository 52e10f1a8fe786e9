"""The shapes of the per-network table: content types, settings (meta fields) and media rules.

Plain frozen dataclasses so the table reads as data and can be shared by the composer forms, the
local checks and the sandbox without any of them owning it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from app.networks.text_length import Counting


class FieldKind(StrEnum):
    """How a setting is edited; the composer picks a widget per kind."""

    TEXT = "text"
    URL = "url"
    CHOICE = "choice"  # one of `MetaField.choices`; no preselection when `default` is None
    BOARD = "board"  # a Pinterest board id: picker from /boards where offered, else free text
    CHANNEL = "channel"  # a Discord channel id: picker from /channels where offered
    THREAD_REPLIES = "thread_replies"  # X: list of {text, media}
    AUDIO = "audio"  # Instagram reel: {"id": digits} chosen in the audio picker


ALL_CONTENT_TYPES: frozenset[str] = frozenset({"*"})
"""`required_for` value meaning "whatever the content type"."""


@dataclass(frozen=True)
class Choice:
    value: str
    label: str


@dataclass(frozen=True)
class ContentType:
    value: str
    label: str


@dataclass(frozen=True)
class MetaField:
    """One key of `destinations[].meta` / `platforms[].meta`.

    `required_for` lists the content types for which the key must be set before scheduling or
    publishing (`ALL_CONTENT_TYPES` for every one). `default` is None where the user must choose
    (TikTok privacy level): the form starts empty and scheduling is refused until chosen.
    `only_for` limits the field to some content types (empty = all of them).
    """

    key: str
    label: str
    kind: FieldKind
    required_for: frozenset[str] = frozenset()
    choices: tuple[Choice, ...] = ()
    default: str | None = None
    max_length: int | None = None
    only_for: frozenset[str] = frozenset()
    help: str = ""

    def applies_to(self, content_type: str | None) -> bool:
        return not self.only_for or content_type is None or content_type in self.only_for

    def required(self, content_type: str | None) -> bool:
        """Needed to schedule/publish. With no content type known: required for any of them."""
        if not self.required_for or not self.applies_to(content_type):
            return False
        if self.required_for == ALL_CONTENT_TYPES or content_type is None:
            return True
        return content_type in self.required_for


@dataclass(frozen=True)
class MediaRules:
    """Local media limits of one content type. The spec gives none: every figure is ours,
    chosen from the networks' published limits and rounded down so that a file we accept is
    not refused later. `min_count` > 0 means the content type cannot go out without media."""

    image_types: frozenset[str] = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
    video_types: frozenset[str] = frozenset({"video/mp4", "video/quicktime"})
    document_types: frozenset[str] = frozenset()
    max_image_bytes: int = 8 * 1024 * 1024
    max_video_bytes: int = 512 * 1024 * 1024
    max_document_bytes: int = 100 * 1024 * 1024
    # Width / height; None = any.
    min_aspect: float | None = None
    max_aspect: float | None = None
    max_duration_s: float | None = None
    max_count: int = 4
    min_count: int = 0
    video_only: bool = False
    allow_mixed: bool = True

    def accepts_mime(self, mime: str) -> bool:
        if self.video_only:
            return mime in self.video_types
        return mime in self.image_types | self.video_types | self.document_types

    def max_bytes_for(self, mime: str) -> int:
        if mime in self.video_types:
            return self.max_video_bytes
        if mime in self.document_types:
            return self.max_document_bytes
        return self.max_image_bytes


@dataclass(frozen=True)
class Network:
    """One platform identifier of the spec, with everything the client and sandbox need."""

    platform: str
    name: str
    content_types: tuple[ContentType, ...]
    max_content_length: int
    meta_fields: tuple[MetaField, ...] = ()
    media: dict[str, MediaRules] = field(default_factory=dict)
    # The user may move text past the limit into `meta.thread_replies` ("Split into a thread");
    # the network itself refuses over-long text like every other (issue 15 §2).
    splits_into_thread: bool = False
    # The unit `max_content_length` is measured in, and where that limit and unit come from.
    counting: Counting = Counting.CODE_POINTS
    limit_source: str = ""

    @property
    def default_content_type(self) -> str:
        return self.content_types[0].value

    @property
    def required_meta(self) -> tuple[str, ...]:
        """Keys required for at least one content type (what `/content-types` publishes)."""
        return tuple(f.key for f in self.meta_fields if f.required_for)

    def accepts(self, content_type: str) -> bool:
        return any(ct.value == content_type for ct in self.content_types)

    def content_type_label(self, content_type: str) -> str:
        for ct in self.content_types:
            if ct.value == content_type:
                return ct.label
        return content_type

    def fields_for(self, content_type: str | None) -> tuple[MetaField, ...]:
        """The settings form of one content type, in display order."""
        return tuple(f for f in self.meta_fields if f.applies_to(content_type))

    def meta_field(self, key: str) -> MetaField | None:
        return next((f for f in self.meta_fields if f.key == key), None)

    def media_rules(self, content_type: str | None) -> MediaRules:
        ct = content_type or self.default_content_type
        return self.media.get(ct) or self.media.get("*") or MediaRules()

    def max_length(self, account_max: int | None = None) -> int:
        """The account's `max_content_length` wins when known."""
        return account_max if account_max and account_max > 0 else self.max_content_length
